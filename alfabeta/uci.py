"""The UCI front-end for the chess game: ``alfabeta uci``.

stdin is read on the main thread; ``go`` starts the search on a worker thread, which prints
``info`` lines after each completed iteration and then ``bestmove`` (after ``go infinite`` or
``go ponder`` only once ``stop`` or ``ponderhit`` arrives). The compiled searchers let the
GIL go every few thousand nodes, so ``isready`` and ``stop`` are answered during a search.
With ``Threads`` > 1, Lazy SMP helper processes (``searchers/smp.py``) search beside it on a
shared table: they start at ``isready`` (or the first ``go``), search each ``go``'s position,
and are told to stop as its search ends.

Pondering: ``go ponder`` searches the position after the expected reply on the opponent's
time, with no limit; ``ponderhit`` turns it into the move's own search, which then runs until
twice the clock's soft budget (``timeman``) has passed since the ``go`` — the time spent
pondering counts — or at once when that is already over, or until a ``movetime`` is spent.

What a GUI can rely on, whatever it sends:

- the reader never waits on a search: ``go``, ``position``, ``ucinewgame`` and ``setoption``
  arriving during a search stop it first (it answers with its ``bestmove``), and ``isready``
  is answered at once;
- every ``go`` ends in exactly one ``bestmove``, with a legal move whenever the position has
  one: absurd limits are clamped and malformed ones replaced by the fastest, each with an
  ``info string`` saying so; a search that fails falls back to a one-ply search;
- a rejected ``setoption`` keeps the previous value, and says why;
- any error becomes ``info string error …`` on one line and the engine goes on; unknown
  commands and tokens are ignored. Nothing but protocol goes to stdout.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from alfabeta.core import WIN, AlfabetaError, Limit, is_proven
from alfabeta.games.chess.board import ChessGame
from alfabeta.plugins.observe import takes_info
from alfabeta.searchers import timeman

if TYPE_CHECKING:
    from alfabeta.core import Position, SearchResult
    from alfabeta.plugins.catalog import Catalog
    from alfabeta.searchers.smp import HelperPool

ENGINE_NAME = "alfabeta"
AUTHOR = "the alfabeta developers"
# the strongest configuration, kept with the game (its measurements are in the docs)
DEFAULT_SEARCHER = ChessGame.play_searcher
DEFAULT_EVALUATOR = ChessGame.play_evaluator
PONDERHIT_SOFT_FACTOR = 2  # after a ponderhit, search until this many soft budgets since go
MOVE_OVERHEAD_MS = (0, 5000)  # the Move Overhead option's min and max: the milliseconds kept
DEFAULT_MOVE_OVERHEAD_MS = 30  # back from the clock (and a movetime) for the GUI's own delays
HASH_MB = (1, 4096)  # the Hash option's min and max, as declared in "uci"
THREADS = (1, 64)  # the Threads option's min and max: 1 main search + up to 63 helpers
SPIN_RANGES = {"Hash": HASH_MB, "Threads": THREADS, "Move Overhead": MOVE_OVERHEAD_MS}
FALLBACK_SEARCHER = "alphabeta(depth=1)"  # what answers when the configured search fails
MESSAGE_CHARS = 200  # an info string longer than this is cut
DAY_MS = 86_400_000
GO_BOUNDS = {  # the range each numeric "go" argument is clamped to (ms for times)
    "depth": (1, 100),
    "nodes": (1, 10**12),
    "mate": (1, 50),
    "movestogo": (1, 1000),
    "movetime": (1, DAY_MS),
    "wtime": (0, DAY_MS),
    "btime": (0, DAY_MS),
    "winc": (0, DAY_MS),
    "binc": (0, DAY_MS),
}
GO_FLAGS = ("infinite", "ponder")


def score_text(value: int) -> str:
    """``cp X`` or ``mate N`` (moves, negative when the side to move is mated)."""
    if is_proven(value):
        plies = WIN - abs(value)
        return f"mate {(plies + 1) // 2}" if value > 0 else f"mate -{plies // 2}"
    return f"cp {value}"


def one_line(error: BaseException) -> str:
    """An error as one short line of text."""
    text = str(error) if isinstance(error, AlfabetaError) else f"{type(error).__name__}: {error}"
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + "…"


def parse_go(tokens: list[str], position: Position) -> tuple[dict, set[str], list[int], list[str]]:
    """The numeric arguments (clamped), the flags, the ``searchmoves`` (legal ones) of a
    ``go``, and a note for everything changed or ignored."""
    values: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[int] = []
    notes: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in GO_FLAGS:
            flags.add(token)
        elif token == "searchmoves":
            while (
                i + 1 < len(tokens)
                and tokens[i + 1] not in GO_BOUNDS
                and tokens[i + 1] not in GO_FLAGS
            ):
                i += 1
                try:
                    move = position.parse_move(tokens[i])
                except AlfabetaError:
                    notes.append(f"searchmoves: {tokens[i][:12]!r} is not legal here, ignored")
                    continue
                if move not in searchmoves:
                    searchmoves.append(move)
        elif token in GO_BOUNDS:
            low, high = GO_BOUNDS[token]
            text = tokens[i + 1] if i + 1 < len(tokens) else ""
            if text:
                i += 1
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if math.isnan(number):
                notes.append(f"go {token} {text[:12]!r} is not a number: using {low}")
                number = low
            elif not low <= number <= high:
                clamped = min(max(number, low), high)
                notes.append(f"go {token} {text[:24]} is out of range: using {clamped:g}")
                number = clamped
            values[token] = int(number)
        i += 1
    return values, flags, searchmoves, notes


def _described(report: dict) -> str:
    """``key value`` pairs of an evaluator's ``describe`` on one line."""
    parts = []
    for key, value in report.items():
        if isinstance(value, dict):
            value = "/".join(f"{k}:{v:.2f}" for k, v in value.items())
        elif isinstance(value, tuple):
            value = ",".join(str(v) for v in value)
        parts.append(f"{key.replace(' ', '_')} {value}")
    return " ".join(parts)


def _moves_left(searcher: Any, position: Position) -> int:
    """The moves a searcher assumes left at ``position`` on a clock that does not say (its
    ``moves_left``, else the clock rule's)."""
    moves_left = getattr(searcher, "moves_left", None)
    return timeman.MOVES_TO_GO if moves_left is None else moves_left(position)


def _legal_line(position: Position, moves: Iterable[int]) -> list[int]:
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


class Engine:
    """One UCI session; ``handle(line)`` processes a command, ``write`` prints a line."""

    def __init__(
        self, write: Callable[[str], None] | None = None, catalog: Catalog | None = None
    ) -> None:
        from alfabeta.plugins.catalog import load_catalog

        self.catalog = catalog or load_catalog()
        self._write = write or self._stdout
        self._lock = threading.Lock()
        self.options = {
            "Searcher": DEFAULT_SEARCHER,
            "Evaluator": DEFAULT_EVALUATOR,
            "Hash": 16,
            "OwnBook": False,
            "BookFile": "",
            "Threads": 1,
            "Ponder": False,
            "Move Overhead": DEFAULT_MOVE_OVERHEAD_MS,
        }
        self.position = self.catalog.game("chess")
        self.player: tuple | None = None  # (options it was built for, searcher, evaluator)
        self.helpers: HelperPool | None = None  # Lazy SMP's processes, with Threads > 1
        self.thread: threading.Thread | None = None
        self.stop = threading.Event()
        self.release = threading.Event()  # lets a finished infinite search print bestmove
        self.ponder_limit: Limit | None = None  # the clock of a ``go ponder``, for ponderhit
        self.started = 0.0  # when the running search's ``go`` arrived (monotonic seconds)
        self.timer: threading.Timer | None = None  # stops a search after a ponderhit
        self.running = True

    @staticmethod
    def _stdout(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def write(self, line: str) -> None:
        """Write one line to the GUI (thread-safe)."""
        with self._lock:
            self._write(line)

    def note(self, text: str) -> None:
        """Send ``info string`` with ``text`` on one line, cut to MESSAGE_CHARS."""
        self.write("info string " + " ".join(text.split())[:MESSAGE_CHARS])

    # ---- commands -----------------------------------------------------------------------
    def handle(self, line: str) -> None:
        """Run one line of input; unknown commands are ignored, as UCI asks."""
        tokens = line.split()
        if not tokens:
            return
        command = getattr(self, "cmd_" + tokens[0], None)
        if command is None:
            return  # unknown commands are ignored
        try:
            command(tokens[1:])
        except Exception as error:  # whatever went wrong, the engine goes on
            self.note(f"error {one_line(error)}")

    def cmd_uci(self, _: list[str]) -> None:
        """``uci``: identify the engine and list its options."""
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {AUTHOR}")
        self.write(f"option name Searcher type string default {DEFAULT_SEARCHER}")
        chess = sorted(
            e.name for e in self.catalog.entries() if e.kind == "evaluator" and "chess" in e.games
        )
        self.write(
            f"option name Evaluator type combo default {DEFAULT_EVALUATOR} "
            + " ".join(
                f"var {name}"
                for name in [DEFAULT_EVALUATOR, *(n for n in chess if n != DEFAULT_EVALUATOR)]
            )
        )
        self.write(f"option name Hash type spin default 16 min {HASH_MB[0]} max {HASH_MB[1]}")
        self.write("option name OwnBook type check default false")
        self.write("option name BookFile type string default <empty>")
        self.write(f"option name Threads type spin default 1 min {THREADS[0]} max {THREADS[1]}")
        self.write("option name Ponder type check default false")
        self.write(
            f"option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} "
            f"min {MOVE_OVERHEAD_MS[0]} max {MOVE_OVERHEAD_MS[1]}"
        )
        self.write("uciok")

    def cmd_isready(self, _: list[str]) -> None:
        """``isready``: answer ``readyok`` — with Threads > 1, once the helpers are up (a
        GUI waits for it after its ``setoption``s, so the first ``go`` does not)."""
        if self.thread is None and self.options["Threads"] > 1:
            try:
                self._make_player()
            except Exception as error:  # the go that needs them reports it again
                self.note(f"error {one_line(error)}")
        self.write("readyok")

    def cmd_ucinewgame(self, _: list[str]) -> None:
        """``ucinewgame``: forget what earlier searches stored."""
        self.finish_search()
        self.position = self.catalog.game("chess")
        if self.player is not None:  # the searcher keeps its table between moves: forget it
            new_game = getattr(self.player[1], "new_game", None)
            if new_game is not None:
                new_game()
        if self.helpers is not None:
            self._with_helpers(self.helpers.new_game)

    def cmd_setoption(self, tokens: list[str]) -> None:
        """``setoption name N value V``: set an option, or report in an info string why not."""
        text = " ".join(tokens)
        if not text.startswith("name "):
            return
        name, _, value = text[5:].partition(" value ")
        name, value = name.strip(), value.strip()
        if name not in self.options:
            return
        self.finish_search()
        self.options[name] = self._checked_option(name, value)  # raises: the old value stays

    def _checked_option(self, name: str, value: str) -> Any:
        if name in SPIN_RANGES:
            try:
                number = int(value)
            except ValueError:
                raise AlfabetaError(
                    f"option {name} needs a whole number, got {value[:20]!r}; "
                    f"kept {self.options[name]}"
                ) from None
            low, high = SPIN_RANGES[name]
            if not low <= number <= high:
                raise AlfabetaError(
                    f"option {name} {value[:24]} is outside {low}..{high}; "
                    f"kept {self.options[name]}"
                )
            return number
        if name in ("OwnBook", "Ponder"):
            if value.lower() not in ("true", "false"):
                raise AlfabetaError(f"option {name} is true or false, not {value[:20]!r}")
            return value.lower() == "true"
        if value == "<empty>":
            value = ""
        if name == "Searcher":
            self.catalog.searcher(value or DEFAULT_SEARCHER)
        elif name == "Evaluator":
            self.catalog.evaluator(value or DEFAULT_EVALUATOR, "chess")
        elif name == "BookFile" and value:
            from alfabeta.games.chess.polyglot import PolyglotBook

            PolyglotBook(value)
        return value

    def cmd_position(self, tokens: list[str]) -> None:
        """``position startpos|fen … [moves …]``: set the position."""
        if not tokens:
            return
        if tokens[0] == "startpos":
            fen, rest = "startpos", tokens[1:]
        elif tokens[0] == "fen":
            end = tokens.index("moves") if "moves" in tokens else len(tokens)
            fen, rest = " ".join(tokens[1:end]), tokens[end:]
        else:
            return
        self.finish_search()
        position = self.catalog.game("chess").from_string(fen)
        if rest and rest[0] == "moves":
            for text in rest[1:]:
                position.push(position.parse_move(text))
        self.position = position

    def cmd_go(self, tokens: list[str]) -> None:
        """``go …``: start a search in the background; ``bestmove`` follows it."""
        self.finish_search()
        position = self.position.copy()
        values, flags, searchmoves, notes = parse_go(tokens, position)
        for note in notes:
            self.note(note)
        infinite = bool(flags) or not values
        limit = self._limit(values, infinite, position.side_to_move)
        self.ponder_limit = None
        if "ponder" in flags and values:
            self.ponder_limit = self._limit(values, False, position.side_to_move)
        self.started = time.monotonic()
        self.stop.clear()
        self.release.clear()
        self.thread = threading.Thread(
            target=self._search, args=(position, limit, infinite, searchmoves), daemon=True
        )
        self.thread.start()

    def cmd_stop(self, _: list[str]) -> None:
        """``stop``: end the search now; its ``bestmove`` follows."""
        self.finish_search()

    def cmd_ponderhit(self, _: list[str]) -> None:
        """``ponderhit``: the opponent played the expected move; the pondering search goes on
        as this move's search, within the ``go``'s clock (see the module docstring). Without
        a clock or a search, it ends now and its move is played."""
        limit, self.ponder_limit = self.ponder_limit, None
        if self.thread is None or limit is None:
            self.finish_search()
            return
        if timeman.uses_clock(limit):
            searcher = self.player[1] if self.player is not None else None
            position = self.position
            budget = timeman.move_budget(
                limit, position.side_to_move, _moves_left(searcher, position)
            )
            allowed = PONDERHIT_SOFT_FACTOR * budget.soft
        else:
            allowed = limit.time or 0.0
        left = allowed - (time.monotonic() - self.started)
        self.release.set()  # its bestmove is printed as soon as it stops
        if left <= 0:
            self.stop.set()
        else:
            self.timer = threading.Timer(left, self.stop.set)
            self.timer.daemon = True
            self.timer.start()

    def cmd_quit(self, _: list[str]) -> None:
        """``quit``: stop any search, end the helpers and leave."""
        self.finish_search()
        self._close_helpers()
        self.running = False

    def finish_search(self) -> None:
        """End the running search (it prints its bestmove) and wait for it."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.thread is not None:
            self.stop.set()
            self.release.set()
            self.thread.join()
            self.thread = None

    # ---- searching ------------------------------------------------------------------------
    def _make_player(self) -> tuple[Any, Any]:
        """The searcher and evaluator the options name, kept from one ``go`` to the next (so
        the searcher's table carries over a game) until an option changes."""
        from attrs import evolve

        wanted = tuple(sorted(self.options.items()))
        if self.player is not None and self.player[0] == wanted:
            return self.player[1], self.player[2]
        self._close_helpers()
        self.player = None
        searcher_spec = str(self.options["Searcher"] or DEFAULT_SEARCHER)
        evaluator_spec = str(self.options["Evaluator"] or DEFAULT_EVALUATOR)
        searcher = self.catalog.searcher(searcher_spec)
        if self.options["OwnBook"] and self.options["BookFile"] and hasattr(searcher, "book"):
            from alfabeta.games.chess.polyglot import PolyglotBook

            searcher = evolve(searcher, book=PolyglotBook(str(self.options["BookFile"])))
        if hasattr(searcher, "tt_mb"):
            searcher = evolve(searcher, tt_mb=self.options["Hash"])
        evaluator = self.catalog.evaluator(evaluator_spec, "chess")
        if self.options["Threads"] > 1:
            self._with_helpers(self._start_helpers, searcher, searcher_spec, evaluator_spec)
        observed = self.catalog.observed(searcher)  # plugins see the engine's searches too
        self.player = (wanted, observed, evaluator)
        return observed, evaluator

    def _start_helpers(self, searcher: Any, searcher_spec: str, evaluator_spec: str) -> None:
        """Threads > 1: Threads − 1 Lazy SMP helpers (``smp.py``) and their shared table,
        which ``searcher`` then searches on — or one thread, with a note, for a searcher
        that has no table to share."""
        from alfabeta.searchers.smp import HelperPool

        use_table = getattr(searcher, "use_table", None)
        if use_table is None or not (searcher.tt and searcher.iterative):
            self.note(
                f"Threads {self.options['Threads']}: {searcher.name} has no shared table "
                "(it needs tt=on, iterative=on): searching on one thread"
            )
            return
        self.helpers = HelperPool(
            self.options["Threads"] - 1,
            searcher_spec,
            evaluator_spec,
            "chess",
            searcher.tt_mb,
            searcher.tt_ways,
        )
        use_table(self.helpers.table)

    def _with_helpers(self, action: Callable[..., None], *args: Any) -> None:
        """Run a helper pool's ``action``; if the helpers fail, say so and search on one
        thread until the options are set again (the pool is rebuilt at the next change)."""
        try:
            action(*args)
        except AlfabetaError as error:
            self.note(f"error {one_line(error)}; searching on one thread")
            self._close_helpers()

    def _close_helpers(self) -> None:
        if self.helpers is not None:
            self.helpers.close()
            self.helpers = None

    def _limit(self, values: dict[str, int], infinite: bool, side: int) -> Limit:
        depth = values.get("depth")
        if "mate" in values:
            depth = 2 * values["mate"] - 1
        clock: dict[str, Any] = {
            key: values[key] / 1000.0 for key in ("wtime", "btime", "winc", "binc") if key in values
        }
        if "wtime" not in clock and "btime" not in clock:  # increments alone are no clock
            clock = {}
        overhead = self.options["Move Overhead"] / 1000.0
        for name in ("wtime", "btime"):
            if name in clock:
                clock[name] = max(0.0, clock[name] - overhead)
        own = clock.get("wtime" if side == 0 else "btime")
        if own is not None and own <= 0.0:
            self.note("no time left on the clock: answering at once")
            return Limit(depth=1, stop=self.stop)
        seconds = values.get("movetime")
        if infinite:
            return Limit(depth=depth, nodes=values.get("nodes"), infinite=True, stop=self.stop)
        return Limit(
            depth=depth,
            nodes=values.get("nodes"),
            time=None if seconds is None else max(0.001, seconds / 1000.0 - overhead),
            movestogo=values.get("movestogo") if clock else None,
            stop=self.stop,
            **clock,
        )

    def _report(self, position: Position) -> Callable[..., None]:
        def report(info: Any, seldepth: Any, hashfull: Any) -> None:
            nps = int(info.nodes / info.elapsed) if info.elapsed > 0 else 0
            pv = " ".join(position.move_str(m) for m in _legal_line(position, info.pv))
            self.write(
                f"info depth {info.depth} seldepth {seldepth} score "
                f"{score_text(info.value)} nodes {info.nodes} nps {nps} "
                f"time {int(info.elapsed * 1000)} hashfull {hashfull} pv {pv}"
            )

        return report

    def _run(
        self, searcher: Any, evaluator: Any, position: Position, limit: Limit | None
    ) -> SearchResult:
        if takes_info(searcher):
            return searcher.search(position, evaluator, limit, on_info=self._report(position))
        return searcher.search(position, evaluator, limit)

    def _run_with_helpers(
        self, searcher: Any, evaluator: Any, position: Position, limit: Limit
    ) -> SearchResult:
        """``_run``, with the Lazy SMP helpers (if any) searching the same position; they
        are told to stop when it ends (``_search`` waits for them after its bestmove)."""
        helpers = self.helpers
        if helpers is None:
            return self._run(searcher, evaluator, position, limit)
        self._with_helpers(helpers.start, position)
        try:
            return self._run(searcher, evaluator, position, limit)
        finally:
            helpers.halt()

    def _search_moves(
        self,
        searcher: Any,
        evaluator: Any,
        position: Position,
        limit: Limit,
        moves: list[int],
    ) -> tuple[int, list[int]]:
        """``go searchmoves``: each allowed root move searched one ply shallower (its share
        of nodes and time), the best for the side to move played."""
        share = len(moves)
        child = Limit(
            depth=None if limit.depth is None else max(0, limit.depth - 1),
            nodes=None if limit.nodes is None else max(1, limit.nodes // share),
            time=None if limit.time is None else limit.time / share,
            infinite=limit.infinite,
            stop=self.stop,
        )
        if timeman.uses_clock(limit):
            moves_left = _moves_left(searcher, position)
            soft = timeman.move_budget(limit, position.side_to_move, moves_left).soft
            child = Limit(
                depth=child.depth, nodes=child.nodes, time=max(0.001, soft / share), stop=self.stop
            )
        best, best_value = moves[0], None
        for move in moves:
            if self.stop.is_set() and best_value is not None:
                break
            position.push(move)
            try:
                value = -searcher.search(position, evaluator, child).value
            finally:
                position.pop()
            if best_value is None or value > best_value:
                best, best_value = move, value
        self.note(f"searchmoves: {position.move_str(best)} scores {best_value}")
        return best, [best]

    def _fallback(self, evaluator: Any, position: Position) -> int:
        try:
            return (
                self.catalog.searcher(FALLBACK_SEARCHER)
                .search(position, evaluator, Limit(depth=1))
                .move
            )
        except Exception:
            return position.legal_moves()[0]

    def _search(
        self, position: Position, limit: Limit, infinite: bool, searchmoves: list[int]
    ) -> None:
        best = ponder = None
        try:
            legal = position.legal_moves()
            if legal:
                searcher, evaluator = self._make_player()
                describe = getattr(evaluator, "describe", None)
                report = describe(position) if describe is not None else None
                if report:  # e.g. a learned bayeschess: its phase, target, opponent's style
                    self.note(f"{evaluator.name} {_described(report)}")
                move: int | None
                line: list[int]
                try:
                    if searchmoves and len(searchmoves) < len(legal):
                        move, line = self._search_moves(
                            searcher, evaluator, position, limit, searchmoves
                        )
                    else:
                        result = self._run_with_helpers(searcher, evaluator, position, limit)
                        move, line = result.move, list(result.pv or ())
                except Exception as error:
                    self.note(f"error {one_line(error)}; answering with a one-ply search")
                    move, line = self._fallback(evaluator, position), []
                if move is None or move not in legal:
                    move = self._fallback(evaluator, position)
                best = position.move_str(move)
                line = _legal_line(position, line if line and line[0] == move else [move])
                ponder = position.move_str(line[1]) if len(line) > 1 else None
        except BaseException as error:  # never leave a go without its bestmove
            self.note(f"error {one_line(error)}")
            try:
                best = position.move_str(position.legal_moves()[0])
            except Exception:
                best = None
        if infinite:
            self.release.wait()
        self.write(f"bestmove {best or '0000'}" + (f" ponder {ponder}" if ponder else ""))
        if self.helpers is not None:  # the next search must not start before they stop
            self._with_helpers(self.helpers.stop)


def run(lines: Iterable[str] | None = None) -> int:
    """Read commands (stdin by default) until ``quit`` or the end of input."""
    engine = Engine()
    for line in lines if lines is not None else sys.stdin:
        engine.handle(line.strip())
        if not engine.running:
            break
    engine.cmd_quit([])
    return 0
