"""The fuzzy cognitive map of the emotional evaluator (seed-000 §2, seed-001 §4.2).

Seven concepts in a fixed order, each a value in [-1, 1]; an adjacency matrix ``E`` (row =
from, column = to); the state is a row vector updated by ``c ← S(c·E)`` with the bipolar
logistic ``S(x) = 2 / (1 + e^(-5x)) - 1`` (= tanh(2.5x)) until no concept moves by ``tolerance``
or more. The emotion intensity ε is the relief node (Aliv) of the final state: positive is
relief, negative fear.

Two matrices: ``printed`` is Table 2 of the article as printed; ``table5`` drops the single
edge Mov → IndROp (0.25 → 0), the only matrix under which Table 5's recorded run is reproduced
(the printed one already moves IndROp at the first update, where Table 5 keeps it at 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from attrs import field, frozen

from alfabeta.core.errors import InvalidOptionError

NODES = ("Des", "Aliv", "Exc", "BM", "Mov", "SegR", "IndROp")
DESIRABILITY, RELIEF, AROUSAL, MATERIAL, MOBILITY, KING_SAFETY, OPPONENT_KING = range(7)

PRINTED = np.array(
    [
        # Des  Aliv   Exc  BM   Mov  SegR IndROp      (to)
        [0.0, 0.25, 0.25, 0.0, 0.0, 0.0, 0.0],  # Des
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],  # Aliv
        [0.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0],  # Exc
        [1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0],  # BM
        [0.5, 0.5, 0.0, 0.0, 0.5, 1.0, 0.25],  # Mov
        [0.5, 0.13, 0.0, 0.0, 0.0, 0.5, 0.0],  # SegR
        [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],  # IndROp
    ]
)
TABLE5 = PRINTED.copy()
TABLE5[MOBILITY, OPPONENT_KING] = 0.0
MATRICES = {"printed": PRINTED, "table5": TABLE5}

TOLERANCE = 1e-6  # Table 5 stops when no concept moves by 1e-6: 25 updates
MAX_UPDATES = 100  # every run of the seed's map converges in well under this


def threshold(x: Any) -> Any:
    """The bipolar logistic S(x) = 2 / (1 + e^(-5x)) - 1, elementwise; ℝ → (-1, 1)."""
    return 2.0 / (1.0 + np.exp(-5.0 * np.asarray(x, dtype=float))) - 1.0


def matrix_named(name: str) -> np.ndarray:
    """The adjacency matrix ``printed`` or ``table5`` (a read-only array)."""
    try:
        matrix = MATRICES[name]
    except KeyError:
        raise InvalidOptionError(
            f"unknown FCM matrix {name!r}: expected one of {', '.join(MATRICES)}"
        ) from None
    view = matrix.view()
    view.flags.writeable = False
    return view


@frozen(eq=False)
class Trajectory:
    """Every state of one run, the initial one first (``states[k]`` is V[k] of Table 5)."""

    states: np.ndarray
    converged: bool

    @property
    def final(self) -> np.ndarray:
        """The state the map settled in (the last row)."""
        return self.states[-1]

    @property
    def updates(self) -> int:
        """The number of update steps run."""
        return len(self.states) - 1

    @property
    def epsilon(self) -> float:
        """The emotion intensity: the relief node of the final state."""
        return float(self.final[RELIEF])


def _check_tolerance(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < 1:
        raise InvalidOptionError(f"FCM {attribute.name}={value!r}: expected a number in (0, 1)")


def _check_updates(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100_000:
        raise InvalidOptionError(f"FCM {attribute.name}={value!r}: expected 1 … 100000")


@frozen(eq=False)
class FCM:
    """A fuzzy cognitive map over ``NODES`` with matrix ``matrix`` (``printed``/``table5``)."""

    matrix: str = "printed"
    tolerance: float = field(default=TOLERANCE, validator=_check_tolerance)
    max_updates: int = field(default=MAX_UPDATES, validator=_check_updates)
    _runs: dict = field(factory=dict, init=False, repr=False)  # initial state → Trajectory

    def __attrs_post_init__(self) -> None:
        matrix_named(self.matrix)

    @property
    def weights(self) -> np.ndarray:
        """The weight matrix this evaluator's ``matrix`` option names."""
        return matrix_named(self.matrix)

    def step(self, state: Any) -> np.ndarray:
        """One update: S(state · E)."""
        return threshold(np.asarray(state, dtype=float) @ self.weights)

    def run(self, initial: Any) -> Trajectory:
        """Iterate from ``initial`` (seven values in [-1, 1], in ``NODES`` order) until no
        concept moves by ``tolerance`` or ``max_updates`` updates were made."""
        state = np.asarray(initial, dtype=float)
        if state.shape != (len(NODES),) or not np.all(np.isfinite(state)):
            raise InvalidOptionError(
                f"an FCM state is {len(NODES)} finite values ({', '.join(NODES)}), "
                f"got {np.asarray(initial).tolist()!r}"
            )
        if np.any(np.abs(state) > 1):
            raise InvalidOptionError(f"FCM concept values lie in [-1, 1], got {state.tolist()!r}")
        key = tuple(state.tolist())
        if key not in self._runs:  # a search appraises few distinct inputs: each is run once
            self._runs[key] = self._iterate(state)
        return self._runs[key]

    def _iterate(self, state: np.ndarray) -> Trajectory:
        states = [state]
        converged = False
        for _ in range(self.max_updates):
            state = self.step(state)
            states.append(state)
            if np.max(np.abs(states[-1] - states[-2])) < self.tolerance:
                converged = True
                break
        trajectory = np.array(states)
        trajectory.flags.writeable = False  # shared by every caller with this input
        return Trajectory(trajectory, converged=converged)
