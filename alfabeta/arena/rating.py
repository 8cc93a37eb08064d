"""Elo, LOS, pentanomial counts and SPRT from game results (anchors-ecosystem §1.7).

The published formulas, written here (no maintained Python library computes the chess
conventions; fishtest's code has no licence):

- expected score ``E(D) = 1 / (1 + 10**(-D/400))``; Elo from a score ``D = -400·log10(1/s - 1)``;
- the 95 % interval maps ``s ± 1.959964·σ/√N`` through that formula, σ² being the variance of
  the per-unit scores (games in {0, ½, 1}, or game pairs in {0, ¼, ½, ¾, 1});
- ``LOS = Φ((W - L) / √(W + L))``;
- the GSPRT approximation (Van den Bergh) ``LLR = N·(s1 - s0)·(2s - s0 - s1) / (2σ²)`` with
  ``s0 = E(elo0)``, ``s1 = E(elo1)`` (logistic Elo), or with the normalized-Elo bounds mapped
  to scores through σ (``model="normalized"``), over per-unit counts regularised as fishtest
  does (every zero count becomes 1e-3, so a one-sided match still has a variance).

Counts are always from the first player's (A's) point of view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from attrs import field, frozen, validators

from alfabeta.core import InvalidOptionError

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054
GAME_SCORES = (0.0, 0.5, 1.0)  # a loss, a draw, a win
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # LL, LD, DD or WL, DW, WW
REGULARISATION = 1e-3  # fishtest's stand-in for an empty cell of the distribution
NELO_PER_T = 800 / math.log(10)  # normalized Elo per unit of (s - ½)/σ


def expected_score(elo: float) -> float:
    """The score a player ``elo`` points stronger is expected to make."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference that a score in [0, 1] indicates (±inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never print -0.0


@frozen
class WDL:
    """Wins, draws and losses of A against B."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @classmethod
    def from_scores(cls, scores: Sequence[float]) -> WDL:
        """From per-game scores 1, ½ and 0."""
        return cls(scores.count(1.0), scores.count(0.5), scores.count(0.0))

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """A's mean score per game (½ with no games)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @property
    def draw_ratio(self) -> float:
        """The share of draws."""
        return self.draws / self.games if self.games else 0.0

    def counts(self) -> tuple[int, int, int]:
        """Counts in the order of ``GAME_SCORES``: losses, draws, wins."""
        return (self.losses, self.draws, self.wins)

    def __add__(self, other: WDL) -> WDL:
        return WDL(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)


@frozen
class Pentanomial:
    """Game pairs by A's pair score: ``counts[i]`` pairs scored ``PAIR_SCORES[i]``."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @classmethod
    def from_pairs(cls, pairs: Sequence[tuple[float, float]]) -> Pentanomial:
        """From each pair's two game scores for A (each 0, ½ or 1)."""
        counts = [0] * 5
        for first, second in pairs:
            counts[round(2 * (first + second))] += 1
        return cls((counts[0], counts[1], counts[2], counts[3], counts[4]))

    @property
    def pairs(self) -> int:
        """Pairs counted."""
        return sum(self.counts)

    def __str__(self) -> str:
        return "[" + ", ".join(str(c) for c in self.counts) + "]"


@frozen
class EloEstimate:
    """An Elo difference with its 95 % interval ``[lower, upper]``; ``error`` is the
    interval's half-width (the ``+/-`` of fastchess); ``los`` the likelihood of superiority."""

    elo: float
    lower: float
    upper: float
    los: float

    @property
    def error(self) -> float:
        """The half-width of the 95 % interval (inf when it is unbounded)."""
        if math.isinf(self.lower) or math.isinf(self.upper):
            return math.inf
        return (self.upper - self.lower) / 2.0

    def __str__(self) -> str:
        return f"{_signed(self.elo)} +/- {_number(self.error)}"


def _number(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.1f}"


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.1f}"


def mean_and_variance(
    values: Sequence[float], counts: Sequence[float]
) -> tuple[float, float, float]:
    """(N, mean, variance) of a distribution given as values with counts."""
    total = float(sum(counts))
    if total <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / total
    variance = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / total
    return total, mean, variance


def los(wdl: WDL) -> float:
    """Likelihood of superiority: Φ((W − L)/√(W + L)), ½ when no game was decided."""
    decided = wdl.wins + wdl.losses
    if decided == 0:
        return 0.5
    return NormalDist().cdf((wdl.wins - wdl.losses) / math.sqrt(decided))


def elo_estimate(wdl: WDL, pentanomial: Pentanomial | None = None) -> EloEstimate:
    """Elo ± 95 % interval from game counts, or from pair counts when ``pentanomial`` is given
    (more accurate: the games of a pair share an opening). No games: 0 within (−inf, inf)."""
    if pentanomial is not None and pentanomial.pairs:
        n, mean, variance = mean_and_variance(PAIR_SCORES, pentanomial.counts)
    else:
        n, mean, variance = mean_and_variance(GAME_SCORES, wdl.counts())
    likelihood = los(wdl)
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf, likelihood)
    half = Z95 * math.sqrt(variance / n)
    return EloEstimate(
        elo_from_score(mean),
        elo_from_score(mean - half),
        elo_from_score(mean + half),
        likelihood,
    )


def _probability(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise InvalidOptionError(f"sprt {attribute.name}={value!r}: expected a number in (0, 1)")


def _finite(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise InvalidOptionError(f"sprt {attribute.name}={value!r}: expected a finite number")


@frozen
class SPRT:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1``,
    with error rates ``alpha`` and ``beta``; ``model`` says which Elo the bounds are in
    (``logistic`` as cutechess, or ``normalized`` as fishtest)."""

    elo0: float = field(default=0.0, validator=_finite)
    elo1: float = field(default=10.0, validator=_finite)
    alpha: float = field(default=0.05, validator=_probability)
    beta: float = field(default=0.05, validator=_probability)
    model: str = field(default="logistic", validator=validators.in_(("logistic", "normalized")))

    def __attrs_post_init__(self) -> None:
        if self.elo0 >= self.elo1:
            raise InvalidOptionError(f"sprt elo0={self.elo0} must be below elo1={self.elo1}")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """From ``"elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized]"``."""
        values: dict[str, float | str] = {}
        for word in text.replace(",", " ").split():
            key, equals, value = word.partition("=")
            if not equals or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise InvalidOptionError(
                    f"--sprt {text!r}: expected key=value words among elo0, elo1, alpha, beta, "
                    f"model; got {word!r}"
                )
            if key == "model":
                values[key] = value
                continue
            try:
                values[key] = float(value)
            except ValueError:
                raise InvalidOptionError(f"--sprt {key}={value!r}: not a number") from None
        return cls(**values)  # type: ignore[arg-type]  # each key checked above

    @property
    def lower_bound(self) -> float:
        """ln(β/(1−α)): at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """ln((1−β)/α): at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wdl: WDL, pentanomial: Pentanomial | None = None) -> float:
        """The log-likelihood ratio of H1 against H0 for these results (pairs when given)."""
        values: tuple[float, ...]
        counts: tuple[int, ...]
        if pentanomial is not None and pentanomial.pairs:
            values, counts, per_game = PAIR_SCORES, pentanomial.counts, 2.0
        elif wdl.games:
            values, counts, per_game = GAME_SCORES, wdl.counts(), 1.0
        else:
            return 0.0
        regular = [max(float(c), REGULARISATION) for c in counts]
        n, mean, variance = mean_and_variance(values, regular)
        if self.model == "logistic":
            s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        else:  # normalized Elo: per-game t = (s - ½)/σ_game, σ_game² = per_game·σ_unit²
            sigma_game = math.sqrt(per_game * variance)
            s0 = 0.5 + self.elo0 / NELO_PER_T * sigma_game
            s1 = 0.5 + self.elo1 / NELO_PER_T * sigma_game
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)

    def test(self, wdl: WDL, pentanomial: Pentanomial | None = None) -> str | None:
        """The decision these results support: ``"H1"``, ``"H0"`` or None (go on).

        Pairs are used when there are any, else games. No decision is taken while every unit
        ended alike (all pairs won, say): their spread is then the regularisation's, not an
        estimate, and one won pair would otherwise "prove" anything."""
        if pentanomial is not None and pentanomial.pairs:
            counts: Sequence[int] = pentanomial.counts
        else:
            counts = wdl.counts()
        if sum(1 for c in counts if c) < 2:
            return None
        return self.decision(self.llr(wdl, pentanomial))

    def decision(self, llr: float) -> str | None:
        """``"H1"``, ``"H0"`` or None (go on), for a log-likelihood ratio."""
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None

    def __str__(self) -> str:
        return f"[{self.elo0:.2f}, {self.elo1:.2f}]"
