"""The emotional appraisal of a chess position (seed-000 §2–3, seed-001 §4): what the
emotional evaluator computes once per search, at the root.

1. **Fuzzify** the program's four base measures into crisp concept values (−1/0/+1; mobility
   −1/+1), the representative values of the fuzzy sets the position falls in (T:2883-2891).
   The sources' interview-based membership functions were never published, so the
   thresholds are options (:class:`Fuzzifier`).
2. **Select the goal** from the fuzzified inputs (Cuadro 4.3 plus A's "escape check").
3. **Run the FCM** (:mod:`alfabeta.evaluators.fcm`) and read ε, the relief node.
4. **Relevance**: each goal's desired proportions η, reached exactly at ε = ε_ref, give the
   factors ``r_i = (η_i · Σ ran / ran_i − 1) / ε_ref`` (eq. 11, never the printed rounding);
   the evaluation then weighs term i by ``1 + r_i · ε``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from attrs import field, frozen

from alfabeta.core.errors import InvalidOptionError
from alfabeta.evaluators.fcm import FCM, NODES, Trajectory

TERMS = ("material", "mobility", "king safety", "opponent king defencelessness")
SHORT = ("BM", "Mov", "SegR", "IndROp")
# A Table 3 (= T Cuadro 4.4): the range of each term; they sum to 8646.
RANGES = (8150.0, 137.0, 179.5, 179.5)


def relevance(
    eta: Sequence[float], epsilon_ref: float, ranges: Sequence[float] = RANGES
) -> tuple[float, ...]:
    """Eq. 11: the factors r that make the terms' ranges stand in the proportions ``eta`` when
    the emotion is ``epsilon_ref``."""
    eta = tuple(float(x) for x in eta)
    if len(eta) != len(TERMS) or any(not math.isfinite(x) or x < 0 for x in eta):
        raise InvalidOptionError(
            f"eta is {len(TERMS)} proportions ≥ 0 ({', '.join(SHORT)}), got {list(eta)!r}"
        )
    if abs(sum(eta) - 1) > 1e-9:
        raise InvalidOptionError(f"eta's proportions must sum to 1, got {sum(eta):g}")
    if not math.isfinite(epsilon_ref) or epsilon_ref == 0 or abs(epsilon_ref) > 1:
        raise InvalidOptionError(
            f"epsilon_ref={epsilon_ref!r}: expected an emotion in [-1, 1] other than 0"
        )
    total = sum(ranges)
    return tuple((e * total / span - 1) / epsilon_ref for e, span in zip(eta, ranges, strict=True))


@frozen
class Goal:
    """An active goal: its name, the sources' name, and the proportions it wants at ε_ref."""

    name: str
    source_name: str
    eta: tuple[float, ...]
    epsilon_ref: float

    @property
    def relevance(self) -> tuple[float, ...]:
        """The goal's relevance of each emotion at its reference ε."""
        return relevance(self.eta, self.epsilon_ref)


ESCAPE_CHECK = Goal("escape-check", "Huir del jaque", (0.05, 0.30, 0.60, 0.05), -0.7)  # A:407
SAFE_POSITION = Goal(  # T Cuadro 4.5, whose factors are reproduced at ε_ref = +1
    "safe-position", "Alcanzar una posición segura", (0.2, 0.1, 0.6, 0.1), 1.0
)
GAIN_ADVANTAGE = Goal("gain-advantage", "Ganar ventaja", (0.5, 0.2, 0.2, 0.1), 1.0)
ENCLOSE = Goal("enclose", "Encerrar rey del oponente", (0.3, 0.1, 0.2, 0.4), 1.0)
GOALS = {g.name: g for g in (ESCAPE_CHECK, SAFE_POSITION, GAIN_ADVANTAGE, ENCLOSE)}


def select_goal(material: float, king_safety: float, in_check: bool) -> Goal:
    """Cuadro 4.3 plus A's "escape check", on fuzzified inputs (−1/0/+1): in check → escape
    check; own king unsafe → reach a safe position; material advantage with a king that is
    not unsafe → enclose the opponent's king; otherwise gain advantage (the default goal)."""
    if in_check:
        return ESCAPE_CHECK
    if king_safety < -0.5:
        return SAFE_POSITION
    if material > 0.5:
        return ENCLOSE
    return GAIN_ADVANTAGE


def goal_named(name: str) -> Goal:
    """The goal called ``name``; an unknown name raises InvalidOptionError."""
    try:
        return GOALS[name]
    except KeyError:
        raise InvalidOptionError(
            f"unknown goal {name!r}: expected auto or one of {', '.join(GOALS)}"
        ) from None


# A Table 1: labels of the three bands (< -0.5, [-0.5, 0.5], > 0.5); Mov has two (≤ 0, > 0).
LABELS = {
    "Des": ("undesirable", "neutral", "desirable"),
    "Aliv": ("fear", "neutral", "relief"),
    "Exc": ("rest", "neutral", "excited"),
    "BM": ("disadvantage", "even", "advantage"),
    "Mov": ("immobile", "mobile"),
    "SegR": ("defenceless", "neutral", "safe"),
    "IndROp": ("safe", "neutral", "defenceless"),
}


def label(concept: str, value: float) -> str:
    """The linguistic label of Table 1 for ``concept`` (a name of ``NODES``) at ``value``."""
    names = LABELS[concept]
    if len(names) == 2:
        return names[0] if value <= 0 else names[1]
    if value < -0.5:
        return names[0]
    return names[1] if value <= 0.5 else names[2]


# T Fig 5.4: the avatar shown for the emotion (a and g are the lost and won game).
AVATARS = {
    "a": "lost",
    "b": "anguish (strong)",
    "c": "anguish",
    "d": "neutral",
    "e": "relief",
    "f": "relief (strong)",
    "g": "won",
}


def avatar(epsilon: float, game_over: str | None = None) -> str:
    """The letter of Fig 5.4 for ``epsilon``; ``game_over`` is "won" or "lost" at the end."""
    if game_over == "lost":
        return "a"
    if game_over == "won":
        return "g"
    if epsilon < -0.75:
        return "b"
    if epsilon < -0.25:
        return "c"
    if epsilon <= 0.25:
        return "d"
    return "e" if epsilon <= 0.75 else "f"


def _number(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise InvalidOptionError(f"fuzzifier {attribute.name}={value!r}: expected a number")


@frozen
class Fuzzifier:
    """Raw measures (program's side, centipawns and moves) → crisp concept values.

    * material: advantage above ``+material`` cp, disadvantage below ``-material`` (T's cases:
      −425 → disadvantage, 0 → even, +1025 → advantage);
    * mobility: immobile at ``mobility`` legal moves or fewer, mobile above;
    * a king's safety is the fuzzy AND (min) of its pawn shield (safe at ``shield_safe`` or
      more, defenceless at ``shield_unsafe`` or less) and the tropism against it (safe at
      ``tropism_safe`` or less, defenceless at ``tropism_unsafe`` or more), as T:2362-2378
      combines them; a king in check is defenceless;
    * IndROp is the opponent king's safety negated (defenceless = +1).
    """

    material: float = field(default=200.0, validator=_number)
    mobility: float = field(default=10.0, validator=_number)
    shield_safe: float = field(default=16.0, validator=_number)
    shield_unsafe: float = field(default=0.0, validator=_number)
    tropism_safe: float = field(default=55.0, validator=_number)
    tropism_unsafe: float = field(default=70.0, validator=_number)

    def __attrs_post_init__(self) -> None:
        if self.material <= 0 or self.mobility < 0:
            raise InvalidOptionError("fuzzifier: material > 0 and mobility ≥ 0 are required")
        if self.shield_unsafe >= self.shield_safe or self.tropism_safe >= self.tropism_unsafe:
            raise InvalidOptionError(
                "fuzzifier: shield_unsafe < shield_safe and tropism_safe < tropism_unsafe"
            )

    def king(self, shield: float, tropism: float, in_check: bool = False) -> float:
        """A king's safety: −1 defenceless, 0 neutral, +1 safe."""
        if in_check:
            return -1.0
        by_shield = _band(shield, self.shield_unsafe, self.shield_safe)
        by_tropism = -_band(tropism, self.tropism_safe, self.tropism_unsafe)
        return min(by_shield, by_tropism)

    def inputs(self, measures: Measures) -> np.ndarray:
        """The FCM's initial state: Des, Aliv and Exc 0, the four concepts fuzzified."""
        state = np.zeros(len(NODES))
        state[3] = np.sign(measures.material) if abs(measures.material) > self.material else 0.0
        state[4] = -1.0 if measures.moves <= self.mobility else 1.0
        state[5] = self.king(measures.shield, measures.tropism, measures.in_check)
        state[6] = 0.0 - self.king(measures.opponent_shield, measures.opponent_tropism)
        return state


def _band(value: float, low: float, high: float) -> float:
    """−1 at ``low`` or below, +1 at ``high`` or above, 0 between."""
    return 1.0 if value >= high else -1.0 if value <= low else 0.0


@frozen
class Measures:
    """What the appraisal looks at on the root board, from the program's side."""

    material: float
    moves: int
    shield: float
    tropism: float
    opponent_shield: float
    opponent_tropism: float
    in_check: bool


@frozen(eq=False)
class Appraisal:
    """The frozen outcome of a root appraisal: ε, the goal, the factors and multipliers."""

    measures: Measures | None
    inputs: np.ndarray | None
    trajectory: Trajectory | None
    epsilon: float
    goal: Goal | None
    relevance: tuple[float, ...]
    multipliers: tuple[float, ...]

    def to_dict(self) -> dict:
        """Plain JSON-ready values."""
        return {
            "measures": None if self.measures is None else _asdict(self.measures),
            "inputs": None
            if self.inputs is None
            else dict(zip(NODES, self.inputs.tolist(), strict=True)),
            "final": None
            if self.trajectory is None
            else dict(zip(NODES, self.trajectory.final.tolist(), strict=True)),
            "updates": None if self.trajectory is None else self.trajectory.updates,
            "epsilon": self.epsilon,
            "emotion": label("Aliv", self.epsilon),
            "avatar": avatar(self.epsilon),
            "goal": None if self.goal is None else self.goal.name,
            "relevance": dict(zip(SHORT, self.relevance, strict=True)),
            "multipliers": dict(zip(SHORT, self.multipliers, strict=True)),
        }


def _asdict(value: Any) -> dict:
    from attrs import asdict

    return asdict(value)


def multipliers(
    relevance_factors: Sequence[float],
    epsilon: float,
    clamp: bool = False,
    magnitude: bool = False,
) -> tuple[float, ...]:
    """``1 + r_i · ε`` per term (eq. 7); with ``clamp`` a negative weight becomes 0; with
    ``magnitude`` the emotion's intensity |ε| is used, so fear and relief both move the terms
    toward the goal's proportions (the published formula inverts them under fear when ε_ref
    is positive)."""
    if magnitude:
        epsilon = abs(epsilon)
    weights = tuple(1.0 + r * epsilon for r in relevance_factors)
    return tuple(max(0.0, w) for w in weights) if clamp else weights


def appraise(
    measures: Measures,
    fuzzifier: Fuzzifier,
    fcm: FCM,
    goal: Goal | None = None,
    relevance_factors: Sequence[float] | None = None,
    clamp: bool = False,
    epsilon: float | None = None,
    magnitude: bool = False,
) -> Appraisal:
    """Fuzzify, choose the goal (``goal`` None: by :func:`select_goal`), run the map, weigh.
    ``relevance_factors`` given directly replace the goal's; a fixed ``epsilon`` replaces
    the map's (no trajectory then)."""
    inputs = fuzzifier.inputs(measures)
    if goal is None:
        goal = select_goal(inputs[3], inputs[5], measures.in_check)
    trajectory = fcm.run(inputs) if epsilon is None else None
    emotion = trajectory.epsilon if trajectory is not None else float(epsilon or 0.0)
    factors = tuple(relevance_factors) if relevance_factors is not None else goal.relevance
    return Appraisal(
        measures=measures,
        inputs=inputs,
        trajectory=trajectory,
        epsilon=emotion,
        goal=goal,
        relevance=factors,
        multipliers=multipliers(factors, emotion, clamp, magnitude),
    )
