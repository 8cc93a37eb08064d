"""The outcome codes of ``Position.outcome()``, relative to the side to move."""

from enum import IntEnum


class Result(IntEnum):
    """How the game stands for the side to move. LEAF: over, and the evaluator scores it (the
    leaves of an explicit game tree); the values match the C-level RESULT_* codes."""

    ONGOING = 0
    WIN = 1
    LOSS = 2
    DRAW = 3
    LEAF = 4
