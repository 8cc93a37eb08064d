"""The driver of a run: games out to a backend, results back into the records, a stop rule
consulted after each game.

Games are submitted a window at a time (so a decided SPRT has little to cancel), every
finished game is recorded before anything else happens, a dead worker's games are played
again on a fresh pool (up to ``MAX_RESTARTS`` times), and Ctrl-C or SIGTERM tears the pool down
at once and leaves every finished game on disk: ``--resume`` plays only the rest.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from alfabeta.arena.environment import environment
from alfabeta.arena.executors import ArenaError, Backend
from alfabeta.arena.jobs import GameJob, GameResult, play_job
from alfabeta.arena.records import JsonlWriter, PgnWriter, RecordsError, ResultsDB

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

MAX_RESTARTS = 3  # a pool that dies this many times in one run is not restarted again


class RunInterrupted(Exception):
    """Ctrl-C or SIGTERM ended the run; ``games`` were recorded."""

    def __init__(self, games: int) -> None:
        super().__init__(f"{games} games recorded")
        self.games = games


def drive(
    backend: Backend,
    jobs: Iterable[GameJob],
    on_result: Callable[[GameResult], bool],
    version: str,
) -> bool:
    """Play ``jobs`` on ``backend``; ``on_result`` records each game and returns True to stop
    the run. Returns True when the run was stopped early that way."""
    queue = deque(jobs)
    running: dict[Future, GameJob] = {}
    restarts = 0
    try:
        while queue or running:
            broken: list[GameJob] = []
            while queue and len(running) < backend.window and not broken:
                job = queue.popleft()
                try:
                    running[backend.executor.submit(play_job, job)] = job
                except BrokenProcessPool:  # the pool died between two results
                    broken.append(job)
            done, _ = wait(list(running), return_when=FIRST_COMPLETED) if running else ((), ())
            for future in sorted(done, key=lambda f: running[f].index):
                job = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken.append(job)
                    continue
                except Exception as error:
                    raise ArenaError(
                        f"game {job.index + 1} failed outside the players: "
                        f"{type(error).__name__}: {error}"
                    ) from error
                theirs = result.worker.get("alfabeta")
                if theirs != version:
                    raise ArenaError(
                        f"worker {result.worker.get('host')} runs alfabeta {theirs}, this "
                        f"driver {version}: install the same version on every worker"
                    )
                if on_result(result):
                    return True
            if broken:
                broken += [running.pop(f) for f in list(running)]
                restarts += 1
                if restarts > MAX_RESTARTS or not backend.restart():
                    raise ArenaError(
                        f"the worker pool died {restarts} times; games "
                        f"{', '.join(str(j.index + 1) for j in broken)} were not played"
                    )
                queue.extendleft(sorted(broken, key=lambda j: j.index, reverse=True))
        return False
    finally:
        if running or queue:
            backend.terminate()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (a plain ``kill``) stops what runs inside as Ctrl-C does (a KeyboardInterrupt),
    so that a match or tournament records itself as interrupted with every finished game kept
    and its workers ended, and ``--resume`` goes on. Main thread only; the previous handler
    comes back after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupt_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM for the duration (main thread only), then deliver the first
    that arrived to the handler it was meant for."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[tuple[Any, Any]] = []
    previous = {
        number: signal.signal(number, lambda number, frame: received.append((number, frame)))
        for number in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if received:
            number, frame = received[0]
            handler = previous[number]
            if callable(handler):
                handler(number, frame)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(number)


def manifest(catalog: Catalog, config: dict) -> dict[str, Any]:
    """Where and with what a run was played, and its configuration."""
    return {**environment(catalog), "config": config}


class Recorder:
    """The run's records: a database row per game (and the run's row), JSON Lines, PGN."""

    def __init__(self, db: Any = None, jsonl: Any = None, pgn: Any = None) -> None:
        self.db = ResultsDB(db) if db else None
        self.jsonl = JsonlWriter(jsonl) if jsonl else None
        self.pgn_path = pgn
        self.pgn: PgnWriter | None = None
        self.run_id: int | None = None

    def begin(
        self,
        kind: str,
        config: dict,
        manifest: dict,
        requested: int,
        resume: bool,
        catalog: Catalog,
        players: dict[str, dict],
    ) -> list[GameResult]:
        """Open the run (the matching one when resuming); the games it already has."""
        existing: list[GameResult] = []
        if resume:
            if self.db is None:
                raise RecordsError("--resume reads the run from its database: give --db FILE")
            self.run_id = self.db.find_run(kind, config)
            if self.run_id is None:
                raise RecordsError(
                    f"no {kind} in {str(self.db.path)!r} has this configuration (game, "
                    "players, openings, seed, adjudication): nothing to resume"
                )
            self.db.set_status(self.run_id, "running", requested)
            existing = self.db.games(self.run_id)
        elif self.db is not None:
            self.run_id = self.db.start_run(kind, config, manifest, requested)
        if self.jsonl is not None:
            self.jsonl.write(
                {
                    "type": "run",
                    "kind": kind,
                    "run": self.run_id,
                    "resumed": resume,
                    "manifest": manifest,
                }
            )
        if self.pgn_path:
            if config["game"].split("(")[0].strip() != "chess":
                raise RecordsError("--pgn is for chess games")
            self.pgn = PgnWriter(self.pgn_path, catalog.game("chess"), f"alfabeta {kind}", players)
        return existing

    def write(self, result: GameResult) -> None:
        """Record a game in every sink; a Ctrl-C arriving meanwhile waits until all have it
        (so the database, JSON Lines and PGN never disagree)."""
        with interrupt_deferred():
            self._write(result)

    def _write(self, result: GameResult) -> None:
        if self.db is not None and self.run_id is not None:
            self.db.add_game(self.run_id, result)
        if self.jsonl is not None:
            self.jsonl.write({"type": "game", "run": self.run_id, **result.to_dict()})
        if self.pgn is not None:
            self.pgn.write(result)

    def finish(self, status: str) -> None:
        """Record the run's final status."""
        if self.db is not None and self.run_id is not None:
            self.db.set_status(self.run_id, status)

    def close(self) -> None:
        """Close every sink."""
        for sink in (self.db, self.jsonl, self.pgn):
            if sink is not None:
                sink.close()
