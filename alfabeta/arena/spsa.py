"""SPSA: a player's numeric options tuned by games (simultaneous perturbation stochastic
approximation, the way fishtest tunes Stockfish's search parameters).

A :class:`Tuning` plays colour-swapped pairs between two copies of one player whose spec is
a template (``"negascout(..., rfp={rfp}, razor={razor})"``). For pair k every parameter is
moved by ±c_k at once, the signs drawn from the seed: ``plus`` plays θ + c_k·δ, ``minus``
θ − c_k·δ. The pair's result r (plus's wins minus its losses, −2 to 2) moves θ by
a_k / c_k · r · δ, within each parameter's bounds. The gains shrink as the run goes on:
c_k = c_end · (N / k)^GAMMA and a_k = r_end · c_end² · ((A + N) / (A + k))^ALPHA over N
pairs, with A = ``A_RATIO`` · N (Spall's exponents, fishtest's conventions for c_end and
r_end), so each parameter's ``step`` is its perturbation at the end of the run and its
``rate`` the learning rate there.

Pairs are played ``batch`` at a time on the same θ, and every game is recorded as it ends, so
θ is a function of the recorded results alone: a resumed run, or ``results`` on its database,
replays them to the same values. Options are whole numbers in the specs (θ is rounded).

>>> from alfabeta.arena import Player
>>> tuning = Tuning("fibonacci-nim(n=10)", Player("alphabeta(depth={depth})"),
...                 [Parameter.parse("depth,3,1,5,1")], pairs=2, executor="serial")
>>> tuning.run().values()
{'depth': 3}
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from attrs import define, evolve, field, frozen

from alfabeta.arena.jobs import GameJob, GameResult
from alfabeta.arena.match import _Run, _whole
from alfabeta.arena.players import Player, build_player
from alfabeta.core import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

ALPHA = 0.602
"""The exponent of the learning rate's decay (Spall's recommended value)."""

GAMMA = 0.101
"""The exponent of the perturbation's decay (Spall's recommended value)."""

A_RATIO = 0.1
"""The stability constant A as a share of the pairs: the rate starts about (1.1/0.1)^0.602,
4.2 times its final value, instead of N^0.602 times."""

RATE = 0.002
"""A parameter's learning rate at the end of the run (r_end = a_end / c_end²) when not
given: fishtest's usual value."""

NAME = re.compile(r"[A-Za-z_]\w*\Z")
SIDES = ("plus", "minus")


@frozen
class Parameter:
    """One tuned option: its ``start`` value, its bounds ``low`` to ``high``, ``step`` (c_end,
    the perturbation at the end of the run) and ``rate`` (r_end)."""

    name: str
    start: float
    low: float
    high: float
    step: float
    rate: float = RATE

    def __attrs_post_init__(self) -> None:
        if not NAME.match(self.name):
            raise InvalidOptionError(f"parameter name {self.name!r}: expected an identifier")
        if not self.low <= self.start <= self.high:
            raise InvalidOptionError(
                f"parameter {self.name}: start {self.start:g} outside {self.low:g} to {self.high:g}"
            )
        if self.step <= 0 or self.rate <= 0:
            raise InvalidOptionError(f"parameter {self.name}: step and rate must be > 0")

    @classmethod
    def parse(cls, text: str) -> Parameter:
        """``name,start,low,high,step[,rate]`` (fishtest's line without r_end when it is
        ``RATE``)."""
        words = [w.strip() for w in text.split(",")]
        if len(words) not in (5, 6):
            raise InvalidOptionError(
                f"parameter {text!r}: expected name,start,low,high,step[,rate]"
            )
        try:
            numbers = [float(w) for w in words[1:]]
        except ValueError:
            raise InvalidOptionError(f"parameter {text!r}: start to rate must be numbers") from None
        if not all(np.isfinite(numbers)):
            raise InvalidOptionError(f"parameter {text!r}: numbers must be finite")
        return cls(words[0], *numbers)

    def to_dict(self) -> dict[str, Any]:
        """The parameter as plain JSON-ready data (``Parameter(**data)`` reads it back)."""
        return {
            "name": self.name,
            "start": self.start,
            "low": self.low,
            "high": self.high,
            "step": self.step,
            "rate": self.rate,
        }


@frozen
class Schedule:
    """The gains and perturbations of a run of ``pairs`` pairs over ``parameters``, drawn
    from ``seed``; pure, so a run can be replayed from its results."""

    parameters: tuple[Parameter, ...]
    pairs: int
    seed: int = 0

    def start(self) -> np.ndarray:
        """θ before the first pair: every parameter's start."""
        return np.array([p.start for p in self.parameters], dtype=float)

    def gains(self, pair: int) -> tuple[np.ndarray, np.ndarray]:
        """(c_k, a_k) per parameter for pair ``pair`` (0-based, so k = pair + 1)."""
        k, total = pair + 1, self.pairs
        stability = A_RATIO * total
        c_end = np.array([p.step for p in self.parameters])
        r_end = np.array([p.rate for p in self.parameters])
        c = c_end * (total / k) ** GAMMA
        a = r_end * c_end**2 * ((stability + total) / (stability + k)) ** ALPHA
        return c, a

    def flips(self, pair: int) -> np.ndarray:
        """δ for pair ``pair``: ±1 per parameter."""
        rng = np.random.default_rng([self.seed, pair])
        return rng.integers(0, 2, len(self.parameters)) * 2 - 1

    def clip(self, theta: np.ndarray) -> np.ndarray:
        """``theta`` within each parameter's bounds."""
        low = np.array([p.low for p in self.parameters])
        high = np.array([p.high for p in self.parameters])
        return np.clip(theta, low, high)

    def sides(self, theta: np.ndarray, pair: int) -> tuple[dict[str, int], dict[str, int]]:
        """The option values ``plus`` and ``minus`` play in pair ``pair`` from ``theta``."""
        c, _ = self.gains(pair)
        shift = c * self.flips(pair)
        return self.values(theta + shift), self.values(theta - shift)

    def values(self, theta: np.ndarray) -> dict[str, int]:
        """``theta`` within bounds, rounded, by parameter name."""
        clipped = self.clip(theta)
        return {p.name: round(v) for p, v in zip(self.parameters, clipped, strict=True)}

    def increment(self, pair: int, result: int) -> np.ndarray:
        """What pair ``pair`` ending ``result`` (plus's wins minus its losses) adds to θ."""
        c, a = self.gains(pair)
        return a / c * result * self.flips(pair)


def pair_results(games: Sequence[GameResult]) -> dict[int, int]:
    """Each complete pair's result for ``plus``: its wins minus its losses over both games."""
    scores: dict[int, list[int]] = {}
    for game in games:
        if game.winner is None:
            points = 0
        else:
            points = 1 if game.players[game.winner] == SIDES[0] else -1
        scores.setdefault(game.pair, []).append(points)
    return {pair: sum(p) for pair, p in scores.items() if len(p) == 2}


def replay(schedule: Schedule, batch: int, games: Sequence[GameResult]) -> list[np.ndarray]:
    """θ at the start and after each complete batch of ``batch`` pairs, in order, from the
    recorded ``games``; stops at the first batch with a pair missing."""
    results = pair_results(games)
    thetas = [schedule.start()]
    for first in range(0, schedule.pairs, batch):
        pairs = range(first, min(first + batch, schedule.pairs))
        if any(p not in results for p in pairs):
            break
        moved = sum(schedule.increment(pair, results[pair]) for pair in pairs)
        thetas.append(schedule.clip(thetas[-1] + moved))
    return thetas


def _parameters(values: Iterable[Parameter]) -> tuple[Parameter, ...]:
    return tuple(values)


@define
class Tuning(_Run):
    """SPSA over ``parameters`` of ``player`` (its spec holds ``{name}`` for each): ``pairs``
    colour-swapped pairs of ``plus`` against ``minus``, ``batch`` at a time on one θ."""

    player: Player = field(default=None, kw_only=False)
    parameters: tuple[Parameter, ...] = field(default=(), converter=_parameters, kw_only=False)
    pairs: int = field(default=100, validator=_whole(1), kw_only=True)
    batch: int = field(default=1, validator=_whole(1), kw_only=True)
    _thetas: dict[int, np.ndarray] = field(factory=dict, init=False, repr=False)
    _games: list[GameResult] = field(factory=list, init=False, repr=False)

    kind = "spsa"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.player, Player):
            raise InvalidOptionError("a tuning needs a Player whose spec holds {name} fields")
        names = [p.name for p in self.parameters]
        if not names or len(set(names)) != len(names):
            raise InvalidOptionError("a tuning needs parameters with distinct names")
        try:
            fields = {f for _, f, _, _ in string.Formatter().parse(self.player.spec) if f}
        except ValueError as error:
            raise InvalidOptionError(f"spec {self.player.spec!r}: {error}") from None
        if fields != set(names):
            raise InvalidOptionError(
                f"spec {self.player.spec!r} has fields {{{', '.join(sorted(fields))}}}, the "
                f"parameters are {', '.join(names)}: give each parameter one {{name}} field"
            )

    @property
    def schedule(self) -> Schedule:
        """The gains and perturbations of this run."""
        return Schedule(self.parameters, self.pairs, self.seed)

    def side(self, values: dict[str, int], name: str) -> Player:
        """The player with ``values`` in its spec, named ``name``."""
        return evolve(self.player, spec=self.player.spec.format(**values), name=name)

    def _players(self) -> list[Player]:
        start = self.schedule.values(self.schedule.start())
        return [self.side(start, side) for side in SIDES]

    def _config(self) -> dict[str, Any]:
        config = super()._config()
        config.update(
            template=self.player.to_dict(),
            parameters=[p.to_dict() for p in self.parameters],
            pairs=self.pairs,
            batch=self.batch,
        )
        return config

    def _prepare(self, catalog: Catalog) -> None:
        """As for a match, and every parameter's bounds (the others at their start) must make
        a player."""
        super()._prepare(catalog)
        schedule = self.schedule
        for parameter in self.parameters:
            for bound in (parameter.low, parameter.high):
                values = schedule.values(schedule.start())
                values[parameter.name] = round(bound)
                try:
                    build_player(self.side(values, "bound"), catalog, self._position)
                except InvalidOptionError as error:
                    raise InvalidOptionError(
                        f"parameter {parameter.name} at {bound:g}: {error}"
                    ) from None

    def job(self, index: int) -> GameJob:
        """Game ``index``: pair ``index // 2``, plus first on even games, on the θ of the
        batches recorded before its own."""
        pair = index // 2
        number = pair // self.batch
        if number not in self._thetas:
            thetas = replay(self.schedule, self.batch, self._games)
            if len(thetas) <= number:
                raise RuntimeError(f"batch {number} started before the ones before it ended")
            self._thetas[number] = thetas[number]
        plus, minus = self.schedule.sides(self._thetas[number], pair)
        return self._pair_job(index, self.side(plus, SIDES[0]), self.side(minus, SIDES[1]), number)

    def run(
        self,
        *,
        db: Any = None,
        jsonl: Any = None,
        pgn: Any = None,
        resume: bool = False,
        progress: Any = None,
        catalog: Catalog | None = None,
    ) -> TuningResult:
        """Play the pairs (or what a resumed run lacks) and return θ's path; the options are
        those of ``Match.run``."""
        self._games, self._thetas = [], {}
        if progress is not None:
            progress.bind(lambda games: TuningResult(self.schedule, self.batch, games).line())
        games, status = self._play(
            2 * self.pairs,
            self.job,
            lambda games: False,
            db=db,
            jsonl=jsonl,
            pgn=pgn,
            resume=resume,
            progress=progress,
            catalog=catalog,
            on_game=lambda game, run_id: self._games.append(game),
            batch=2 * self.batch,
        )
        return TuningResult(self.schedule, self.batch, games, status)


@define
class TuningResult:
    """A tuning's games and the path of θ they give."""

    schedule: Schedule
    batch: int
    games: list[GameResult]
    status: str = "finished"

    @classmethod
    def from_config(
        cls, config: dict[str, Any], games: list[GameResult], status: str
    ) -> TuningResult:
        """The result of a recorded run (``config`` as ``Tuning`` wrote it)."""
        parameters = tuple(Parameter(**p) for p in config["parameters"])
        schedule = Schedule(parameters, config["pairs"], config["seed"])
        return cls(schedule, config["batch"], games, status)

    def thetas(self) -> list[np.ndarray]:
        """θ at the start and after each complete batch."""
        return replay(self.schedule, self.batch, self.games)

    def values(self) -> dict[str, int]:
        """The last θ, rounded: the options to play."""
        return self.schedule.values(self.thetas()[-1])

    def line(self) -> str:
        """The values to play on one line (the progress bar's)."""
        return " ".join(f"{name}={value}" for name, value in self.values().items())

    def summary(self) -> list[str]:
        """Lines for a report: pairs played, and each parameter's start, value and bounds."""
        thetas = self.thetas()
        values = self.schedule.values(thetas[-1])
        played = len(pair_results(self.games))
        lines = [
            f"{played} of {self.schedule.pairs} pairs, {len(thetas) - 1} steps of θ, {self.status}"
        ]
        for i, parameter in enumerate(self.schedule.parameters):
            lines.append(
                f"{parameter.name}: {parameter.start:g} -> {thetas[-1][i]:.2f} "
                f"(plays {values[parameter.name]}; bounds {parameter.low:g} to "
                f"{parameter.high:g})"
            )
        return lines
