"""A scripted UCI engine for the arena's tests: it plays the first legal move (by alfabeta's
own move generator), and misbehaves on purpose according to its first argument:

    good        always answers (with ``MultiPV`` N, one ``info`` line for each of the first N
                legal moves, scored 12, 11, …)
    crash       exits in the middle of its first ``go``
    stall       never answers ``go``
    illegal     answers ``go`` with a move that is not legal
    crash-once  crashes on its first ``go`` if the file named by the second argument does not
                exist yet (and creates it), then behaves: a restarted engine plays on
    no-uciok    never finishes the handshake
    ponder      declares Ponder, answers ``bestmove M ponder R`` (R: the first legal reply),
                answers ``go ponder`` only at ``ponderhit`` or ``stop``, and writes every line
                it receives to the file named by the second argument

Any other mode is refused at once: a line on stderr and exit code 2, as a mistyped command
line fails.
"""

import os
import sys

from alfabeta.plugins.catalog import load_catalog

MODES = ("good", "crash", "stall", "illegal", "crash-once", "no-uciok", "ponder")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    if mode not in MODES:
        print(f"scripted_uci: no mode {mode!r}", file=sys.stderr, flush=True)
        sys.exit(2)
    flag = sys.argv[2] if len(sys.argv) > 2 else ""
    game = load_catalog(autoload=False).game("chess")
    position = game
    lines = 1
    pondering = False
    log = open(flag, "a") if mode == "ponder" else None
    for line in sys.stdin:
        words = line.split()
        if log is not None:
            print(line.strip(), file=log, flush=True)
        if not words:
            continue
        if words[0] == "uci":
            print("id name scripted", flush=True)
            print("option name MultiPV type spin default 1 min 1 max 500", flush=True)
            if mode == "ponder":
                print("option name Ponder type check default false", flush=True)
            if mode != "no-uciok":
                print("uciok", flush=True)
        elif words[:3] == ["setoption", "name", "MultiPV"]:
            lines = int(words[4])
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            moves = words.index("moves") if "moves" in words else len(words)
            fen = "startpos" if words[1] == "startpos" else " ".join(words[2:moves])
            position = game.from_string(fen)
            for text in words[moves + 1 :]:
                position.push(position.parse_move(text))
        elif words[0] in ("ponderhit", "stop") and pondering:
            pondering = False
            answer(position, lines, mode)
        elif words[:2] == ["go", "ponder"]:
            pondering = True
        elif words[0] == "go":
            if mode == "crash" or (mode == "crash-once" and not os.path.exists(flag)):
                if flag:
                    open(flag, "w").close()
                os._exit(3)
            if mode == "stall":
                continue
            if mode == "illegal":
                print("info depth 1 score cp 0", flush=True)
                print("bestmove a1a8", flush=True)
                continue
            answer(position, lines, mode)
        elif words[0] == "quit":
            return


def answer(position, lines: int, mode: str) -> None:
    """The info lines and the bestmove for ``position``: its first legal move."""
    legal = position.legal_moves()
    for index, other in enumerate(legal[:lines]):
        pv = position.move_str(other)
        print(f"info depth 1 multipv {index + 1} score cp {12 - index} pv {pv}", flush=True)
    move = legal[0]
    best = "bestmove " + position.move_str(move)
    if mode == "ponder":
        after = position.copy()
        after.push(move)
        replies = after.legal_moves()
        if replies:
            best += " ponder " + after.move_str(replies[0])
    print(best, flush=True)


if __name__ == "__main__":
    main()
