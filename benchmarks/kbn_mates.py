"""How reliably a chess searcher mates with bishop and knight: random starts of king, bishop
and knight against a bare king (either side to move, no piece en prise to the lone king),
each played out at a fixed depth by the searcher on both sides with the playing evaluator.
A start counts as mated only by checkmate within the fifty-move rule.

    python benchmarks/kbn_mates.py --starts 25 --depth 20 --seed 98 [--options lmr_deeper=on]

``--options`` sets options on the default searcher (the one `alfabeta uci` plays), so that a
candidate's endgame technique can be compared with the default's on the same starts. The
starts depend only on ``--seed``; the games are deterministic. Prints the mated count, the
mean plies to mate and the starts not mated (their FEN).
"""

from __future__ import annotations

import argparse
import random
import time

from alfabeta import load_catalog
from alfabeta.arena import SearchPlayer, play_game
from alfabeta.core import AlfabetaError, InvalidPositionError, Limit
from alfabeta.plugins.spec import format_spec, parse_spec

PIECES = "KBNk"  # the strong side is white; the lone king black


def random_start(rng: random.Random, game) -> str:
    """A legal, ongoing start in which the lone king is next to neither white piece."""
    while True:
        squares = rng.sample(range(64), 4)  # a1 = 0 … h8 = 63, in the order of PIECES
        lone = squares[3]
        if any(max(abs(s % 8 - lone % 8), abs(s // 8 - lone // 8)) <= 1 for s in squares[1:3]):
            continue
        board = [["1"] * 8 for _ in range(8)]
        for piece, square in zip(PIECES, squares, strict=True):
            board[7 - square // 8][square % 8] = piece
        placement = "/".join("".join(row) for row in board)
        for run in range(8, 1, -1):
            placement = placement.replace("1" * run, str(run))
        fen = f"{placement} {rng.choice('wb')} - - 0 1"
        try:
            position = game.from_string(fen)
        except InvalidPositionError:
            continue
        if not position.is_over():
            return fen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=25)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--seed", type=int, default=98)
    parser.add_argument("--options", default="", help="key=value,… set on the default searcher")
    args = parser.parse_args()
    if args.starts < 1 or args.depth < 1:
        parser.error("--starts and --depth must be at least 1")
    catalog = load_catalog()
    game = catalog.game("chess")
    name, options = parse_spec(game.play_searcher)
    try:
        options.update(parse_spec(f"options({args.options})")[1])
        spec = format_spec(name, options)
        catalog.searcher(spec)
    except AlfabetaError as error:
        parser.error(f"--options {args.options!r}: {error}")
    rng = random.Random(args.seed)
    starts = [random_start(rng, game) for _ in range(args.starts)]
    mated, plies, failed, began = 0, [], [], time.perf_counter()
    played = 0
    try:
        for fen in starts:
            player = SearchPlayer(
                catalog.searcher(spec), catalog.playing_evaluator(game), Limit(depth=args.depth)
            )
            record = play_game(game.from_string(fen), [player, player])
            played += 1
            if record.outcome.reason == "checkmate":
                mated += 1
                plies.append(len(record.moves))
            else:
                failed.append(f"{fen} ({record.outcome.reason})")
    except KeyboardInterrupt:
        print(f"interrupted after {played} of {len(starts)} starts")
    print(f"{spec}\ndepth {args.depth}, seed {args.seed}: mated {mated}/{played}", end="")
    print(f", mean {sum(plies) / max(1, len(plies)):.1f} plies to mate", end="")
    print(f", {time.perf_counter() - began:.0f} s")
    for line in failed:
        print("  not mated:", line)


if __name__ == "__main__":
    main()
