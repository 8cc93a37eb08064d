"""A game played in the browser: the position, who plays each side, and the computer's search,
which runs in a thread (never on the event loop) and streams what it finds to the page.

Each :class:`GameSession` is independent (its own position, searcher and evaluator), so two
browsers never share state. The search works on a copy of the position; its move is played
only if the game has not changed meanwhile (a take-back or a new position cancels it).
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from alfabeta.core import AlfabetaError, IllegalMoveError, InvalidOptionError, Limit
from alfabeta.plugins.observe import takes_info
from alfabeta.web.boards import draw

if TYPE_CHECKING:
    from alfabeta.core import Position, SearchResult
    from alfabeta.plugins.catalog import Catalog

MAX_LIMIT_SECONDS = 60.0  # the longest think a page may ask for
MAX_LIMIT_DEPTH = 64
_ids = itertools.count(1)


def checked_limit(depth: Any = None, nodes: Any = None, time_: Any = None) -> Limit:
    """The computer's limit from the page's fields (strings or numbers); at least one is
    needed, and each is bounded (a page cannot start an endless search)."""
    try:
        d = None if depth in (None, "") else int(depth)
        n = None if nodes in (None, "") else int(nodes)
        t = None if time_ in (None, "") else float(time_)
    except (TypeError, ValueError):
        raise InvalidOptionError("limit: depth and nodes are whole numbers, time seconds") from None
    if d is None and n is None and t is None:
        raise InvalidOptionError("limit: give a depth, nodes or time for the computer")
    if d is not None and not 0 < d <= MAX_LIMIT_DEPTH:
        raise InvalidOptionError(f"limit depth={d}: expected 1 to {MAX_LIMIT_DEPTH}")
    if t is not None and not 0 < t <= MAX_LIMIT_SECONDS:
        raise InvalidOptionError(f"limit time={t}: expected up to {MAX_LIMIT_SECONDS} seconds")
    if n is not None and n <= 0:
        raise InvalidOptionError(f"limit nodes={n}: expected a positive number")
    return Limit(depth=d, nodes=n, time=t)


class GameSession:
    """One game: ``humans`` are the sides (0, 1) a person plays; the computer plays the
    others with ``searcher`` and ``evaluator`` under ``limit``."""

    def __init__(
        self,
        catalog: Catalog,
        game: str,
        searcher: str,
        evaluator: str | None,
        limit: Limit,
        humans: set[int],
        start: str | None = None,
    ) -> None:
        self.id = f"g{next(_ids)}"
        self.catalog = catalog
        self.game_spec = game
        position = catalog.game(game)
        if start:
            position = position.from_string(start)
        self.position: Position = position
        self.searcher_spec = searcher
        catalog.searcher(searcher)  # a bad spec is refused now, not at the computer's turn
        self.evaluator = (
            catalog.evaluator(evaluator, position)
            if evaluator
            else catalog.playing_evaluator(position)
        )
        self.limit = limit
        self.humans = set(humans)
        self.lock = threading.RLock()
        self.generation = 0  # bumped by every change of the game: a stale search's move is dropped
        self.stop = threading.Event()
        self.thinking: threading.Thread | None = None
        self.searching = False  # set under the lock when a search starts, cleared when it ends
        self.version = 0  # bumped by every change the page shows: it drops older states
        self.listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = []
        self.last_search: dict[str, Any] | None = None
        self.error: str | None = None
        self.touched = time.monotonic()

    # ---- the game -------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """Everything the page draws: board, moves, whose turn, the result."""
        with self.lock:
            position = self.position
            notation = [position.move_str(m) for m in position.move_stack]
            last = notation[-1] if notation else None
            board = draw(position, last)
            outcome = position.outcome()
            over = position.is_over()
            return {
                "id": self.id,
                "version": self.version,
                "game": self.game_spec,
                "name": position.name,
                "searcher": self.searcher_spec,
                "evaluator": str(getattr(self.evaluator, "name", self.evaluator)),
                "position": position.to_string(),
                "text": str(position),
                "svg": board.svg if board else None,
                "join": board.join if board else None,
                "promotion": board.promotion if board else False,
                "legal": [] if over else [position.move_str(m) for m in position.legal_moves()],
                "moves": notation,
                "notation": self._notation(),
                "side_to_move": position.side_to_move,
                "human_to_move": not over and position.side_to_move in self.humans,
                "over": over,
                "outcome": outcome.name.lower() if over else None,
                "thinking": self.is_thinking(),
                "last_search": self.last_search,
                "error": self.error,
            }

    def _notation(self) -> list[str]:
        """The moves as a person writes them: SAN in chess, the move text elsewhere."""
        position = self.position
        if position.name != "chess":
            return [position.move_str(m) for m in position.move_stack]
        replay = position.from_string(position.root_string())
        sans = []
        for move in position.move_stack:
            sans.append(replay.san(move))
            replay.push(move)
        return sans

    def play(self, text: str) -> None:
        """The person's move ``text``; a move out of turn or an illegal one raises."""
        with self.lock:
            if self.is_thinking():
                raise IllegalMoveError("the computer is thinking: stop it first")
            if self.position.is_over():
                raise IllegalMoveError("the game is over")
            if self.position.side_to_move not in self.humans:
                raise IllegalMoveError("it is the computer's turn")
            self.position.push(self.position.parse_move(str(text)))
            self._changed()
        self.computer_turn()

    def take_back(self) -> None:
        """Undo moves back to the person's last turn (the computer's reply with it)."""
        self.cancel()
        with self.lock:
            if not self.position.move_stack:
                raise IllegalMoveError("no move to take back")
            self.position.pop()
            while self.position.move_stack and self.position.side_to_move not in self.humans:
                self.position.pop()
            self._changed()

    def set_position(self, text: str) -> None:
        """Start again from ``text`` (a FEN in chess); a bad text raises and changes nothing."""
        fresh = self.position.from_string(text)  # raises InvalidPositionError first
        self.cancel()
        with self.lock:
            self.position = fresh
            self._changed()
        self.computer_turn()

    def _changed(self) -> None:
        self.generation += 1
        self.version += 1
        self.error = None
        self.touched = time.monotonic()
        self.publish({"type": "state"})

    # ---- the computer -----------------------------------------------------------------------
    def is_thinking(self) -> bool:
        """Whether a search is running (its move not yet played)."""
        return self.searching

    def computer_turn(self) -> bool:
        """Start the computer's search if it is to move (and not thinking already)."""
        with self.lock:
            position = self.position
            if position.is_over() or position.side_to_move in self.humans or self.is_thinking():
                return False
            self.stop.clear()
            self.searching = True
            self.version += 1
            self.thinking = threading.Thread(
                target=self._think,
                args=(position.copy(), self.generation),
                name=f"alfabeta-think-{self.id}",
                daemon=True,
            )
            # announced before the thread starts, so that every listener sees "thinking"
            # ahead of the search's first line (the page clears its lines on it)
            self.publish({"type": "thinking"})
            self.thinking.start()
        return True

    def cancel(self) -> None:
        """Stop a running search and drop its move."""
        with self.lock:
            self.generation += 1
        self.stop_thinking()

    def stop_thinking(self) -> None:
        """Stop the search now; its best move so far is played (UCI's ``stop``)."""
        self.stop.set()
        thread = self.thinking
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)

    def _think(self, position: Position, generation: int) -> None:
        limit = Limit(
            depth=self.limit.depth, nodes=self.limit.nodes, time=self.limit.time, stop=self.stop
        )
        started = time.perf_counter()
        try:
            # a searcher per search: its transposition table (16 MB by default) lives only as
            # long as the search, so idle games hold no tables
            searcher = self.catalog.observed(self.catalog.searcher(self.searcher_spec))
            options: dict[str, Any] = {}
            if takes_info(searcher):
                options["on_info"] = self._reporter(position, started)
            result = searcher.search(position, self.evaluator, limit, **options)
        except Exception as error:  # bad input or a broken plugin: shown, the server goes on
            with self.lock:
                self.searching = False
                self.version += 1
                kind = "" if isinstance(error, AlfabetaError) else "the search failed: "
                self.error = f"{kind}{type(error).__name__}: {error}"
            self.publish({"type": "error", "message": self.error})
            return
        self._report_result(position, result, started)
        with self.lock:
            self.searching = False
            self.version += 1
            if generation != self.generation or result.move is None:
                self.publish({"type": "state"})
                return  # the game changed while we searched
            self.position.push(result.move)
            self._changed()
        self.computer_turn()  # engine against engine: the next move

    def _reporter(self, position: Position, started: float) -> Callable[..., None]:
        def report(info: Any, seldepth: int = 0, hashfull: int = 0) -> None:
            elapsed = max(info.elapsed, 1e-9)
            self.publish(
                {
                    "type": "info",
                    "depth": info.depth,
                    "seldepth": seldepth,
                    "score": info.value,
                    "nodes": info.nodes,
                    "nps": int(info.nodes / elapsed),
                    "time": round(time.perf_counter() - started, 3),
                    "pv": _line(position, info.pv),
                }
            )

        return report

    def _report_result(self, position: Position, result: SearchResult, started: float) -> None:
        elapsed = max(result.elapsed, 1e-9)
        summary = {
            "depth": result.depth,
            "score": result.value,
            "nodes": result.nodes,
            "nps": int(result.nodes / elapsed),
            "time": round(time.perf_counter() - started, 3),
            "pv": _line(position, result.pv or ((result.move,) if result.move is not None else ())),
            "move": position.move_str(result.move) if result.move is not None else None,
        }
        with self.lock:
            self.last_search = summary
        self.publish({"type": "done", **summary})

    # ---- listeners (server-sent events) ----------------------------------------------------
    def subscribe(self, loop: asyncio.AbstractEventLoop) -> asyncio.Queue:
        """A queue that receives this session's events on ``loop``."""
        queue: asyncio.Queue = asyncio.Queue(maxsize=1000)
        with self.lock:
            self.listeners.append((loop, queue))
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        """Stop sending events to ``queue``."""
        with self.lock:
            self.listeners = [(lp, q) for lp, q in self.listeners if q is not queue]

    def publish(self, event: dict[str, Any]) -> None:
        """Send ``event`` to every listener, from any thread; a full queue drops it."""
        with self.lock:
            listeners = list(self.listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(_offer, queue, event)
            except RuntimeError:  # the loop has closed: the page went away
                self.unsubscribe(queue)


def _offer(queue: asyncio.Queue, event: dict[str, Any]) -> None:
    if not queue.full():
        queue.put_nowait(event)


def _line(position: Position, moves: Any) -> list[str]:
    """The legal prefix of ``moves`` from ``position``, in the game's move text."""
    replay = position.copy()
    line = []
    for move in moves:
        if move is None or move not in replay.legal_moves():
            break
        line.append(replay.move_str(move))
        replay.push(move)
    return line
