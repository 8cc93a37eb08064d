"""``c4-windows``: an evaluator for a game alfabeta already has (Connect Four, any size).

Every window of four cells in a row, column or diagonal that holds stones of one side only
scores for that side: 1, 4 or 16 for one, two or three stones. The value is the side to
move's total minus the opponent's. It reads the position through the game's public text
(``to_string``: rows top first, joined by ``/``, then the side to move), so it needs nothing
compiled; ``weights=(1, 4, 16)`` is its one option.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfabeta.core import Evaluator, InvalidOptionError, Position
from alfabeta.plugins import hookimpl

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def windows(rows: int, columns: int) -> list[tuple[tuple[int, int], ...]]:
    """Every line of four cells on a rows × columns board."""
    found = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in DIRECTIONS:
                cells = tuple((r + k * dr, c + k * dc) for k in range(4))
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    found.append(cells)
    return found


class Windows(Evaluator):
    """Open windows of four, side to move minus opponent."""

    name = "c4-windows"
    games = ("connect-four",)

    def __init__(self, weights: Sequence[int] = (1, 4, 16)) -> None:
        weights = tuple(weights)
        if len(weights) != 3 or not all(isinstance(w, int) and w >= 0 for w in weights):
            raise InvalidOptionError(f"c4-windows weights={weights!r}: three whole numbers")
        self.weights = (0, *weights, 0)  # a window of four is a finished game, not a score
        self.lines: dict[tuple[int, int], list] = {}

    def options(self) -> dict:
        return {"weights": self.weights[1:4]}

    def evaluate(self, position: Position) -> int:
        board, mover = position.to_string().split()
        rows = board.split("/")
        shape = (len(rows), len(rows[0]))
        if shape not in self.lines:
            self.lines[shape] = windows(*shape)
        other = "o" if mover == "x" else "x"
        score = 0
        for line in self.lines[shape]:
            stones = [rows[r][c] for r, c in line]
            if other not in stones:
                score += self.weights[stones.count(mover)]
            elif mover not in stones:
                score -= self.weights[stones.count(other)]
        return score


@hookimpl
def register_evaluators(register):
    register(
        "c4-windows",
        Windows,
        games=("connect-four",),
        description="open windows of four, weighted 1/4/16 (example plugin)",
    )
