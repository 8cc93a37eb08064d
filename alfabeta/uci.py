"""The UCI front-end for the chess game: ``alfabeta uci``.

stdin is read on the main thread; ``go`` starts the search on a worker thread, which prints
``info`` lines after each completed iteration and then ``bestmove`` (after ``go infinite`` or
``go ponder`` only once ``stop`` or ``ponderhit`` arrives). The compiled searchers let the
GIL go every few thousand nodes, so ``isready`` and ``stop`` are answered during a search.
Unknown commands and tokens are ignored; a bad position or move is reported as
``info string error …`` and leaves the engine as it was. Nothing but protocol goes to stdout.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable

from alfabeta.core import WIN, AlfabetaError, Limit, is_proven

ENGINE_NAME = "alfabeta"
AUTHOR = "the alfabeta developers"
DEFAULT_SEARCHER = (
    "negascout(tt=on, iterative=on, killers=on, history=on, quiescence=on, "
    "null_move=2, aspiration=50)"
)
MOVE_OVERHEAD = 0.03  # seconds kept back from the clock for the GUI's own delays


def score_text(value: int) -> str:
    """``cp X`` or ``mate N`` (moves, negative when the side to move is mated)."""
    if is_proven(value):
        plies = WIN - abs(value)
        return f"mate {(plies + 1) // 2}" if value > 0 else f"mate -{plies // 2}"
    return f"cp {value}"


class Engine:
    """One UCI session; ``handle(line)`` processes a command, ``write`` prints a line."""

    def __init__(self, write: Callable[[str], None] | None = None) -> None:
        from alfabeta.plugins.catalog import load_catalog

        self.catalog = load_catalog()
        self._write = write or self._stdout
        self._lock = threading.Lock()
        self.options = {
            "Searcher": DEFAULT_SEARCHER,
            "Evaluator": "standard",
            "Hash": 16,
            "OwnBook": False,
            "BookFile": "",
            "Threads": 1,
        }
        self.position = self.catalog.game("chess")
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.release = threading.Event()  # lets a finished infinite search print bestmove
        self.running = True

    @staticmethod
    def _stdout(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def write(self, line: str) -> None:
        with self._lock:
            self._write(line)

    # ---- commands -----------------------------------------------------------------------
    def handle(self, line: str) -> None:
        tokens = line.split()
        if not tokens:
            return
        command = getattr(self, "cmd_" + tokens[0], None)
        if command is None:
            return  # unknown commands are ignored
        try:
            command(tokens[1:])
        except AlfabetaError as error:
            self.write(f"info string error {error}")

    def cmd_uci(self, _):
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {AUTHOR}")
        self.write(f"option name Searcher type string default {DEFAULT_SEARCHER}")
        self.write(
            "option name Evaluator type combo default standard var standard "
            "var bayeschess var cpw var material"
        )
        self.write("option name Hash type spin default 16 min 1 max 4096")
        self.write("option name OwnBook type check default false")
        self.write("option name BookFile type string default <empty>")
        self.write("option name Threads type spin default 1 min 1 max 1")
        self.write("uciok")

    def cmd_isready(self, _):
        self.write("readyok")

    def cmd_ucinewgame(self, _):
        self.wait()
        self.position = self.catalog.game("chess")  # tables live per search: nothing to clear

    def cmd_setoption(self, tokens):
        text = " ".join(tokens)
        if not text.startswith("name "):
            return
        name, _, value = text[5:].partition(" value ")
        name = name.strip()
        if name not in self.options:
            return
        if name in ("Hash", "Threads"):
            try:
                number = int(value)
            except ValueError:
                raise AlfabetaError(f"option {name} needs a number, got {value!r}") from None
            if name == "Threads" and number != 1:
                raise AlfabetaError("Threads: this engine searches with one thread")
            self.options[name] = max(1, number)
        elif name == "OwnBook":
            self.options[name] = value.strip().lower() == "true"
        else:
            value = value.strip()
            self.options[name] = "" if value == "<empty>" else value
            if name in ("Searcher", "Evaluator") and value:
                self._make_player()  # fail now, while the GUI can show it

    def cmd_position(self, tokens):
        if not tokens:
            return
        if tokens[0] == "startpos":
            fen, rest = "startpos", tokens[1:]
        elif tokens[0] == "fen":
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen, rest = " ".join(tokens[1:end]), tokens[end:]
        else:
            return
        position = self.catalog.game("chess").from_string(fen)
        if rest and rest[0] == "moves":
            for text in rest[1:]:
                position.push(position.parse_move(text))
        self.position = position

    def cmd_go(self, tokens):
        self.wait()
        limit, infinite = self._limit(tokens)
        searcher, evaluator = self._make_player()
        position = self.position.copy()
        self.stop.clear()
        self.release.clear()
        self.thread = threading.Thread(
            target=self._search, args=(searcher, evaluator, position, limit, infinite), daemon=True
        )
        self.thread.start()

    def cmd_stop(self, _):
        self.stop.set()
        self.release.set()
        self.wait()

    def cmd_ponderhit(self, _):
        self.release.set()

    def cmd_quit(self, _):
        self.stop.set()
        self.release.set()
        self.wait()
        self.running = False

    # ---- searching ------------------------------------------------------------------------
    def _make_player(self):
        spec = self.options["Searcher"]
        searcher = self.catalog.searcher(spec)
        if self.options["OwnBook"] and self.options["BookFile"] and hasattr(searcher, "book"):
            from attrs import evolve

            from alfabeta.games.chess.polyglot import PolyglotBook

            searcher = evolve(searcher, book=PolyglotBook(self.options["BookFile"]))
        if hasattr(searcher, "tt_mb"):
            from attrs import evolve

            searcher = evolve(searcher, tt_mb=self.options["Hash"])
        evaluator = self.catalog.evaluator(self.options["Evaluator"], "chess")
        return searcher, evaluator

    def _limit(self, tokens: list[str]) -> tuple[Limit, bool]:
        values: dict[str, float] = {}
        flags = {"infinite", "ponder"}
        seen: set[str] = set()
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token in flags:
                seen.add(token)
            elif token == "searchmoves":
                break  # not supported: the search considers every move
            elif i + 1 < len(tokens):
                try:
                    values[token] = float(tokens[i + 1])
                    i += 1
                except ValueError:
                    pass  # unknown or malformed token: ignored
            i += 1
        infinite = bool(seen)
        depth = int(values["depth"]) if "depth" in values else None
        if "mate" in values:
            depth = max(1, 2 * int(values["mate"]) - 1)
        nodes = int(values["nodes"]) if "nodes" in values else None
        seconds = values.get("movetime")
        clock = {
            key: values[key] / 1000.0 for key in ("wtime", "btime", "winc", "binc") if key in values
        }
        if seconds is not None:
            seconds = max(0.001, seconds / 1000.0 - MOVE_OVERHEAD)
        for side in ("wtime", "btime"):
            if side in clock:
                clock[side] = max(0.0, clock[side] - MOVE_OVERHEAD)
        if infinite:
            return Limit(depth=depth, nodes=nodes, infinite=True, stop=self.stop), True
        if depth is None and nodes is None and seconds is None and not clock:
            return Limit(infinite=True, stop=self.stop), True  # a bare "go": until stop
        movestogo = int(values["movestogo"]) if "movestogo" in values else None
        return Limit(
            depth=depth, nodes=nodes, time=seconds, movestogo=movestogo, stop=self.stop, **clock
        ), False

    def _search(self, searcher, evaluator, position, limit, infinite) -> None:
        def report(info, seldepth, hashfull):
            nps = int(info.nodes / info.elapsed) if info.elapsed > 0 else 0
            pv = " ".join(position.move_str(m) for m in _legal_line(position, info.pv))
            self.write(
                f"info depth {info.depth} seldepth {seldepth} score "
                f"{score_text(info.value)} nodes {info.nodes} nps {nps} "
                f"time {int(info.elapsed * 1000)} hashfull {hashfull} pv {pv}"
            )

        try:
            if position.legal_moves():
                result = (
                    searcher.search(position, evaluator, limit, on_info=report)
                    if _takes_info(searcher)
                    else searcher.search(position, evaluator, limit)
                )
                line = _legal_line(position, result.pv or (result.move,))
                best = position.move_str(result.move) if result.move is not None else "0000"
                ponder = position.move_str(line[1]) if len(line) > 1 else None
            else:
                best, ponder = "0000", None
        except AlfabetaError as error:
            self.write(f"info string error {error}")
            best, ponder = "0000", None
        if infinite:
            self.release.wait()
        self.write(f"bestmove {best}" + (f" ponder {ponder}" if ponder else ""))

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None


def _takes_info(searcher) -> bool:
    import inspect

    return "on_info" in inspect.signature(searcher.search).parameters


def _legal_line(position, moves: Iterable[int]) -> list[int]:
    """The longest prefix of ``moves`` that is legal from ``position``."""
    line, played = [], 0
    try:
        for move in moves:
            if move not in position.legal_moves():
                break
            position.push(move)
            played += 1
            line.append(move)
    finally:
        for _ in range(played):
            position.pop()
    return line


def run(lines: Iterable[str] | None = None) -> int:
    """Read commands (stdin by default) until ``quit`` or the end of input."""
    engine = Engine()
    for line in lines if lines is not None else sys.stdin:
        engine.handle(line.strip())
        if not engine.running:
            break
    engine.cmd_quit([])
    return 0
