"""A game as a job: ``play_job(GameJob) -> GameResult``, a pure function of its input that any
``concurrent.futures.Executor`` can run (a process pool, a Dask cluster, the calling thread).

Both values are frozen attrs classes that round-trip through JSON (``to_dict``/``from_dict``).
A job is one game, so a worker that dies loses at most the game it was playing. Each worker
process keeps one plugin catalog and one process per external engine (restarted after a
failure) between the jobs it runs; nothing else carries over, so a job's game depends only
on the job.
"""

from __future__ import annotations

import multiprocessing.util
import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from attrs import asdict, field, frozen

from alfabeta.arena.adjudication import Adjudication, DrawRule, ResignRule
from alfabeta.arena.clock import Clock
from alfabeta.arena.engine import EngineFailure, UciPlayer
from alfabeta.arena.openings import Opening
from alfabeta.arena.play import GameRecord, play_game
from alfabeta.arena.players import Player, build_player
from alfabeta.core import Outcome

if TYPE_CHECKING:
    from alfabeta.core import Position
    from alfabeta.plugins.catalog import Catalog

RESULT_TEXT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


@frozen
class GameJob:
    """Game ``index`` of a run: pair ``pair`` (its two games share ``opening``), played on
    ``game`` (a spec) by ``players[0]`` moving first and ``players[1]``; ``version`` is the
    driver's alfabeta version, which the worker reports back beside its own."""

    index: int
    pair: int
    game: str
    players: tuple[Player, Player]
    opening: Opening = field(factory=Opening)
    adjudication: Adjudication = field(factory=Adjudication)
    seed: int = 0
    round: int = 0
    version: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The job as plain JSON-ready data (what a worker receives)."""
        rules = self.adjudication
        return {
            "index": self.index,
            "pair": self.pair,
            "game": self.game,
            "players": [p.to_dict() for p in self.players],
            "opening": self.opening.to_dict(),
            "adjudication": {
                "resign": _fields(rules.resign),
                "draw": _fields(rules.draw),
                "max_plies": rules.max_plies,
            },
            "seed": self.seed,
            "round": self.round,
            "version": self.version,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameJob:
        """The job ``to_dict`` described."""
        rules = data.get("adjudication") or {}
        return cls(
            index=data["index"],
            pair=data["pair"],
            game=data["game"],
            players=(Player.from_dict(data["players"][0]), Player.from_dict(data["players"][1])),
            opening=Opening.from_dict(data.get("opening") or {}),
            adjudication=Adjudication(
                ResignRule(**rules["resign"]) if rules.get("resign") else None,
                DrawRule(**rules["draw"]) if rules.get("draw") else None,
                rules.get("max_plies"),
            ),
            seed=data.get("seed", 0),
            round=data.get("round", 0),
            version=data.get("version", ""),
        )


def _fields(rule: Any) -> dict | None:
    return None if rule is None else asdict(rule)


@frozen
class GameResult:
    """What a game left: who played which side (``players``: first, second), where it started
    (``initial`` position, ``opening`` moves, then ``start``), every move in the game's
    notation with the seconds, nodes, depth and score (None: no search) behind it, the
    ``result`` (``1-0``: the first player won), ``winner`` (0, 1, None), ``termination`` and
    its ``reason``; and where it was played (``worker``: host, pid, alfabeta version,
    compiled core)."""

    index: int
    pair: int
    round: int
    game: str
    players: tuple[str, str]
    initial: str
    opening: tuple[str, ...]
    opening_name: str
    start: str
    moves: tuple[str, ...]
    result: str
    winner: int | None
    termination: str
    reason: str
    seconds: tuple[float, ...] = ()
    nodes: tuple[int, ...] = ()
    depths: tuple[int, ...] = ()
    scores: tuple[int | None, ...] = ()
    seed: int = 0
    worker: dict = field(factory=dict)
    elapsed: float = 0.0

    @property
    def plies(self) -> int:
        """The number of moves played."""
        return len(self.moves)

    def score_for(self, name: str) -> float:
        """The score the player named ``name`` made in this game: 1, ½ or 0."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.players[self.winner] == name else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready data (what a worker returns and the records keep)."""
        return {
            name: (list(value) if isinstance(value, tuple) else value)
            for name, value in ((a.name, getattr(self, a.name)) for a in self.__attrs_attrs__)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameResult:
        """The result ``to_dict`` described."""
        tuples = {"players", "opening", "moves", "seconds", "nodes", "depths", "scores"}
        known = {a.name for a in cls.__attrs_attrs__}
        fields: dict[str, Any] = {
            k: tuple(v) if k in tuples else v for k, v in data.items() if k in known
        }
        return cls(**fields)


# ---- the worker side ----------------------------------------------------------------------
_catalog = None
_engines: dict[str, UciPlayer] = {}


def worker_catalog() -> Catalog:
    """This process's plugin catalog, loaded once."""
    global _catalog
    if _catalog is None:
        from alfabeta.plugins.catalog import load_catalog

        _catalog = load_catalog()
    return _catalog


@contextmanager
def catalog_in_use(catalog: Catalog) -> Iterator[None]:
    """Play the jobs run in this process with ``catalog`` (a serial run with the caller's
    plugins), then go back to the process's own."""
    global _catalog
    previous, _catalog = _catalog, catalog
    try:
        yield
    finally:
        _catalog = previous


def close_engines() -> None:
    """Quit every external engine this process started."""
    while _engines:
        _, player = _engines.popitem()
        player.close()


def worker_info() -> dict[str, Any]:
    """Who played a game: the worker's host, process id, Python and alfabeta versions."""
    from alfabeta import __version__

    return {
        "host": platform.node(),
        "pid": os.getpid(),
        "alfabeta": __version__,
        "compiled": True,  # alfabeta has no pure-Python build: the core is always compiled
    }


def _live_player(player: Player, catalog: Catalog, position: Position) -> Any:
    if player.kind != "uci":
        return build_player(player, catalog, position)
    key = repr(player.to_dict())
    if key not in _engines:
        if not _engines:  # engines end with the worker: at exit, and at pool shutdown
            multiprocessing.util.Finalize(None, close_engines, exitpriority=10)
        _engines[key] = build_player(player, catalog, position)
    return _engines[key]


def play_job(job: GameJob) -> GameResult:
    """Play one game of a run and describe it; every failure of a player is a lost game,
    never an exception (a human quitting raises GameAbandoned)."""
    began = time.perf_counter()
    catalog = worker_catalog()
    game = catalog.game(job.game)
    position = job.opening.position(game)
    players = [_live_player(p, catalog, position) for p in job.players]
    try:
        for live in players:
            if isinstance(live, UciPlayer):
                live.new_game()
    except EngineFailure as error:  # an engine that cannot start loses without a move
        side = players.index(live)
        record = GameRecord(
            game=job.game,
            start=position.to_string(),
            moves=(),
            notation=(),
            outcome=Outcome(side ^ 1, f"{job.players[side].name}: {error}"),
            players=(job.players[0].name, job.players[1].name),
            termination=error.termination,
        )
    else:
        record = play_game(
            position,
            players,
            notify=catalog.notify,
            limits=tuple(p.limit() for p in job.players),
            clocks=tuple(Clock(p.tc) if p.tc is not None else None for p in job.players),
            margin=tuple(p.margin for p in job.players),
            adjudication=job.adjudication,
            forfeit=True,
        )
    return GameResult(
        index=job.index,
        pair=job.pair,
        round=job.round,
        game=job.game,
        players=(job.players[0].name, job.players[1].name),
        initial=job.opening.start if job.opening.start is not None else game.to_string(),
        opening=job.opening.moves,
        opening_name=job.opening.name,
        start=record.start,
        moves=record.notation,
        result=RESULT_TEXT[record.outcome.winner],
        winner=record.outcome.winner,
        termination=record.termination,
        reason=record.outcome.reason,
        seconds=tuple(round(s, 6) for s in record.seconds),
        nodes=tuple(r.nodes if r is not None else 0 for r in record.results),
        depths=tuple(r.depth if r is not None else 0 for r in record.results),
        scores=tuple(r.value if r is not None else None for r in record.results),
        seed=job.seed,
        worker=worker_info(),
        elapsed=round(time.perf_counter() - began, 6),
    )
