"""The subtraction game: take 1..k stones from a pile of n; taking the last stone wins.

A plain-Python game with int moves (the number of stones taken), registered through the
``alfabeta`` entry-point group with an exact evaluator: the side to move loses exactly when
the pile is a multiple of k + 1.
"""

from __future__ import annotations

from alfabeta.core import IllegalMoveError, InvalidOptionError, InvalidPositionError, Result
from alfabeta.plugins import hookimpl


class Subtraction:
    name = "subtraction"
    default_evaluator = "subtraction-exact"

    def __init__(self, n: int = 21, k: int = 3) -> None:
        if not (isinstance(n, int) and isinstance(k, int) and n >= 0 and k >= 1):
            raise InvalidOptionError(f"subtraction needs n >= 0 and k >= 1, got n={n!r} k={k!r}")
        self.n, self.k, self.side_to_move, self.history = n, k, 0, []
        self.max_moves = k

    def options(self) -> dict:
        return {"n": self.n + sum(self.history), "k": self.k}

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.k, self.n) + 1))

    def push(self, move: int) -> None:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r}: take 1..{min(self.k, self.n)}")
        self.n -= move
        self.history.append(move)
        self.side_to_move ^= 1

    def pop(self) -> int:
        move = self.history.pop()
        self.n += move
        self.side_to_move ^= 1
        return move

    def outcome(self) -> Result:
        return Result.LOSS if self.n == 0 else Result.ONGOING

    def key(self) -> int:
        return (self.n << 1) | self.side_to_move

    def copy(self) -> Subtraction:
        twin = Subtraction(self.n, self.k)
        twin.side_to_move, twin.history = self.side_to_move, list(self.history)
        return twin

    def to_string(self) -> str:
        return f"{self.n} {self.side_to_move}"

    def from_string(self, text: str) -> Subtraction:
        try:
            n, side = (int(x) for x in text.split())
        except ValueError:
            raise InvalidPositionError(
                f"subtraction position {text!r}: expected 'n side'"
            ) from None
        if n < 0 or side not in (0, 1):
            raise InvalidPositionError(f"subtraction position {text!r}: n >= 0, side 0 or 1")
        twin = Subtraction(n, self.k)
        twin.side_to_move = side
        return twin

    def move_str(self, move: int) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        if not str(text).strip().isdigit():
            raise IllegalMoveError(f"{text!r} is not a number of stones")
        move = int(text)
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move}: take 1..{min(self.k, self.n)}")
        return move

    def __str__(self) -> str:
        return f"{self.n} stones, player {self.side_to_move + 1} takes 1..{self.k}"


def exact(position) -> int:
    """+100 when the side to move wins with best play, −100 when it loses."""
    game = position.game if hasattr(position, "game") else position
    return -100 if game.n % (game.k + 1) == 0 else 100


@hookimpl
def register_games(register):
    register("subtraction", Subtraction, description="take 1..k stones; the last stone wins")


@hookimpl
def register_evaluators(register):
    register(
        "subtraction-exact",
        exact,
        games=("subtraction",),
        description="exact: the mover loses on multiples of k + 1",
    )
