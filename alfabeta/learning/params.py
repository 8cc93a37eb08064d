"""BayesChess's parameters (seed-002 §1–2): the 774 variables, their five states, the game
phase that picks a parameter set, and the seeded perturber of self-play.

Variables, in the evaluator's vector order: the values of pawn, knight, bishop, rook and
queen, the check bonus, then twelve 8×8 tables (white pawn … king, black pawn … king), each
from a8 to h1 (``white-knight@b1``).

Decisions where the paper is silent (seed-002 §6):

* **States** (§6.6). Every variable has five states ``base + k·step``, k = −2 … 2, with
  ``step = max(3, round(|base| / 5))``: ±20 % and ±40 % of the base (Cuadro 5's pawn: 60 …
  140; Cuadro 4's check: 18 … 42) and, for cells whose base is small or zero, steps of 3
  (Cuadro 4's a8/b8 pawn cells take −6 … 6). State 2 is always the base value.
* **Phase** (§6.13). The opening is the first ten moves (full-move number ≤ 10); after them
  it is the endgame when no queen is on the board or fewer than ten pieces other than pawns
  and kings (both sides together) are; otherwise the middlegame. The opening rule comes
  first. The phase is judged at the root of each search, as the data was collected.
* **Perturbation** (§6.7). Each variable's state is drawn uniformly and independently from
  the five, afresh for each phase of each game, from a numpy generator seeded with
  ``(seed, phase)``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np
from attrs import field, frozen

from alfabeta.core import InvalidOptionError, Position
from alfabeta.evaluators.chess_eval import PARAMETER_COUNT, default_bayes_parameters
from alfabeta.evaluators.chess_eval import PIECE_NAMES as PIECES

COLOURS = ("white", "black")
STATES = 5
BASE_STATE = 2
QUEEN, KING = 4, 5


class Phase(IntEnum):
    """Fase partida: apertura, medio juego, final (labels A, M, F as in Cuadro 4)."""

    OPENING = 0
    MIDDLEGAME = 1
    ENDGAME = 2

    @property
    def label(self) -> str:
        """The paper's letter for the phase: A, M or F."""
        return "AMF"[self]

    @classmethod
    def parse(cls, text: str) -> Phase:
        """A phase from its label or name (``M``, ``middlegame``, ``medio``)."""
        key = str(text).strip().lower()
        for phase in cls:
            if key in (phase.label.lower(), phase.name.lower()) or (
                len(key) > 2 and phase.name.lower().startswith(key)
            ):
                return phase
        spanish = {"apertura": cls.OPENING, "medio": cls.MIDDLEGAME, "final": cls.ENDGAME}
        if key in spanish:
            return spanish[key]
        raise InvalidOptionError(f"phase {text!r}: expected A (opening), M (middlegame), F")


def _cell_name(k: int) -> str:
    """Cell ``k`` of a table, counted from a8 to h1."""
    rank, file = 8 - k // 8, k % 8
    return "abcdefgh"[file] + str(rank)


VARIABLES: tuple[str, ...] = (
    *PIECES[:5],
    "check",
    *(f"{c}-{p}@{_cell_name(k)}" for c in COLOURS for p in PIECES for k in range(64)),
)


def variable_index(name: str) -> int:
    """The index of a variable named as in ``VARIABLES`` (``queen``, ``white-pawn@a8``)."""
    key = name.strip().lower()
    try:
        return VARIABLES.index(key)
    except ValueError:
        raise InvalidOptionError(
            f"unknown BayesChess variable {name!r}: expected pawn, knight, bishop, rook, queen,"
            " check or COLOUR-PIECE@SQUARE (white-knight@b1)"
        ) from None


def state_values(base: np.ndarray) -> np.ndarray:
    """The five values of each variable: int32[n, 5] for an int vector of n bases."""
    base = np.asarray(base, dtype=np.int64)
    step = np.maximum(3, (np.abs(base) + 2) // 5)
    return (base[:, None] + np.arange(-2, 3)[None, :] * step[:, None]).astype(np.int32)


def game_phase(position: Position) -> Phase:
    """The phase of a chess position by the rule in the module docstring."""
    if position.fullmove <= 10:
        return Phase.OPENING
    pieces = position.pieces
    if not (pieces[0][QUEEN] | pieces[1][QUEEN]):
        return Phase.ENDGAME
    officers = sum(
        bin(pieces[colour][kind]).count("1") for colour in (0, 1) for kind in range(1, KING)
    )
    return Phase.ENDGAME if officers < 10 else Phase.MIDDLEGAME


def perturbed_states(seed: int, phase: Phase, count: int = PARAMETER_COUNT) -> np.ndarray:
    """The states (uint8, 0–4) that the perturbed side plays with in ``phase`` of the game
    whose perturbation seed is ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptionError(f"perturbation seed {seed!r}: expected a whole number >= 0")
    generator = np.random.default_rng([seed, int(phase)])
    return generator.integers(0, STATES, size=count, dtype=np.uint8)


def _vector(value: Any) -> np.ndarray:
    array = np.asarray(value)
    if array.shape != (PARAMETER_COUNT,) or not np.issubdtype(array.dtype, np.integer):
        raise InvalidOptionError(
            f"BayesChess parameters: expected {PARAMETER_COUNT} integers, got an array of "
            f"shape {array.shape} and type {array.dtype}"
        )
    vector = array.astype(np.int32)
    vector.setflags(write=False)
    return vector


@frozen
class BayesChessParams:
    """One parameter set of the BayesChess heuristic, as the 774-vector above (read-only
    int32). ``piece_values``, ``check_bonus`` and ``tables`` (int32[2, 6, 64], cells from a8)
    are views of it."""

    vector: np.ndarray = field(converter=_vector, eq=False)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, BayesChessParams) and np.array_equal(self.vector, other.vector)

    def __hash__(self) -> int:
        return hash(self.vector.tobytes())

    @classmethod
    def default(cls) -> BayesChessParams:
        """Cuadro 2's values, check 30 and the tables of the ``bayeschess`` evaluator."""
        return cls(default_bayes_parameters())

    @classmethod
    def from_states(cls, base: BayesChessParams, states: np.ndarray) -> BayesChessParams:
        """The parameter set whose variable i takes state ``states[i]`` of ``base``'s."""
        states = np.asarray(states, dtype=np.int64)
        if states.shape != (PARAMETER_COUNT,) or states.min() < 0 or states.max() >= STATES:
            raise InvalidOptionError(f"states: expected {PARAMETER_COUNT} integers 0–4")
        values = state_values(base.vector)
        return cls(values[np.arange(PARAMETER_COUNT), states])

    def to_vector(self) -> np.ndarray:
        """A writable copy of the 774 parameters."""
        return self.vector.copy()

    @property
    def piece_values(self) -> tuple[int, ...]:
        """The five piece values (pawn … queen)."""
        return tuple(int(v) for v in self.vector[:5])

    @property
    def check_bonus(self) -> int:
        """The bonus for giving check."""
        return int(self.vector[5])

    @property
    def tables(self) -> np.ndarray:
        """The piece-square tables, indexed [colour, piece, square]."""
        return self.vector[6:].reshape(2, 6, 64)
