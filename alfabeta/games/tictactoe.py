"""Tic-tac-toe written in plain Python, as a third-party plugin would write a game.

It is the worked example of the plain-Python game API (design §2): int moves, push/pop,
outcome() relative to the side to move, key(), copy(), string round-trips. The host wraps it
in ``alfabeta.core.PythonGame`` so every compiled searcher runs on it unchanged. The module is
also a complete plugin: its ``register_games``/``register_evaluators`` hooks are all a
distribution needs besides an ``alfabeta`` entry point naming this module.

Moves are cells 0..8, row by row from the top left; they read as ``a1``..``c3`` (file a–c left
to right, rank 1 at the bottom). ``to_string()`` is the 9 cells top row first (``x``, ``o`` or
``.``) then the side to move, e.g. ``"x.o.x.... o"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from alfabeta.core import IllegalMoveError, InvalidPositionError, Result
from alfabeta.plugins import hookimpl

if TYPE_CHECKING:
    from alfabeta.core import Position

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = "xo"
_MASK = (1 << 64) - 1


def _mix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class TicTacToe:
    """3×3 noughts and crosses; x (player 0) moves first."""

    name = "tictactoe"
    bench_positions = ("......... x", "x...o.... x")
    max_moves = 9
    default_evaluator = "tictactoe-lines"
    path_independent = True  # the board alone decides outcome(): retrograde analysis applies

    def __init__(self) -> None:
        self.board: list[int | None] = [None] * 9
        self.side_to_move = 0
        self.history: list[int] = []

    # -- moves --
    def legal_moves(self) -> list[int]:
        """The empty squares, or none once the game is over."""
        if self.outcome() != Result.ONGOING:
            return []
        return [cell for cell in range(9) if self.board[cell] is None]

    def push(self, move: int) -> None:
        """Play ``move``; an illegal move raises IllegalMoveError."""
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not a legal tictactoe move in {self.to_string()}")
        self.make(move)

    def pop(self) -> int:
        """Take back the last move and return it."""
        move = self.history[-1]
        self.unmake(move)
        return move

    # Unchecked versions for searchers, which only play moves legal_moves() gave them: the
    # adapter calls these instead of push/pop, skipping the legality check at every node.
    def make(self, move: int) -> None:
        """Play a generated move without checking it (the searchers' fast path)."""
        self.board[move] = self.side_to_move
        self.history.append(move)
        self.side_to_move ^= 1

    def unmake(self, move: int) -> None:
        """Take back ``move``, the last one played, without checking it."""
        self.history.pop()
        self.board[move] = None
        self.side_to_move ^= 1

    def outcome(self) -> Result:
        """The result for the side to move: a line of the opponent's is a loss, a full
        board a draw."""
        last = self.side_to_move ^ 1
        if any(all(self.board[c] == last for c in line) for line in LINES):
            return Result.LOSS
        if all(cell is not None for cell in self.board):
            return Result.DRAW
        return Result.ONGOING

    def key(self) -> int:
        """A key of the board and the side to move (for transposition tables)."""
        code = 0
        for cell in self.board:
            code = code * 3 + (0 if cell is None else cell + 1)
        return _mix(code * 2 + self.side_to_move)

    def copy(self) -> TicTacToe:
        """An independent copy, move stack included."""
        twin = TicTacToe()
        twin.board, twin.side_to_move, twin.history = (
            list(self.board),
            self.side_to_move,
            list(self.history),
        )
        return twin

    # -- strings --
    def to_string(self) -> str:
        """The board as nine characters (``x``, ``o``, ``.``) and the side to move."""
        cells = "".join("." if c is None else MARKS[c] for c in self.board)
        return f"{cells} {MARKS[self.side_to_move]}"

    def from_string(self, text: str) -> TicTacToe:
        """A new game set from ``to_string``'s form; bad text raises InvalidPositionError."""
        fields = text.split()
        if len(fields) != 2 or len(fields[0]) != 9 or set(fields[0]) - set(".xo"):
            raise InvalidPositionError(
                f"tictactoe position {text!r}: expected 9 cells of x, o or . and the side to "
                "move, e.g. 'x.o.x.... o'"
            )
        if fields[1] not in MARKS:
            raise InvalidPositionError(f"tictactoe position {text!r}: side must be x or o")
        xs, os = fields[0].count("x"), fields[0].count("o")
        side = MARKS.index(fields[1])
        if xs - os != side:
            raise InvalidPositionError(
                f"tictactoe position {text!r}: x moves first, so with {xs} x and {os} o it is "
                f"{'o' if xs > os else 'x'}'s turn"
                if xs - os in (0, 1)
                else f"tictactoe position {text!r}: {xs} x and {os} o cannot happen"
            )
        twin = TicTacToe()
        twin.board = [None if c == "." else MARKS.index(c) for c in fields[0]]
        twin.side_to_move = side
        if any(all(twin.board[c] == side for c in line) for line in LINES):
            raise InvalidPositionError(
                f"tictactoe position {text!r}: the side to move already has three in a row"
            )
        return twin

    def move_str(self, move: int) -> str:
        """The square's name, ``a1`` … ``c3``; IllegalMoveError for anything but 0 … 8."""
        if not isinstance(move, int) or not 0 <= move < 9:
            raise IllegalMoveError(f"{move!r} is not a tictactoe move: a square 0..8")
        return "abc"[move % 3] + str(3 - move // 3)

    def parse_move(self, text: str) -> int:
        """The move named by a square (``b2``); anything else raises IllegalMoveError."""
        text = text.strip().lower()
        if len(text) != 2 or text[0] not in "abc" or text[1] not in "123":
            raise IllegalMoveError(f"{text!r} is not a tictactoe move: write a1..c3")
        move = (3 - int(text[1])) * 3 + "abc".index(text[0])
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{text} is not legal here: the cell is taken or the game ended")
        return move

    def __str__(self) -> str:
        rows = []
        for r in range(3):
            cells = " ".join("." if c is None else MARKS[c] for c in self.board[3 * r : 3 * r + 3])
            rows.append(f"{3 - r} {cells}")
        rows.append("  a b c")
        rows.append(f"{MARKS[self.side_to_move]} to move")
        return "\n".join(rows)


def open_lines(position: Position) -> int:
    """Lines still open for the side to move minus lines open for the opponent."""
    board = position.game.board if hasattr(position, "game") else position.board
    me = position.side_to_move
    score = 0
    for line in LINES:
        marks = {board[c] for c in line} - {None}
        if marks == {me}:
            score += 1
        elif marks == {me ^ 1}:
            score -= 1
    return score


@hookimpl
def register_games(register: Callable[..., None]) -> None:
    """Register tic-tac-toe."""
    register("tictactoe", TicTacToe, description="3×3 noughts and crosses (plain Python)")


@hookimpl
def register_evaluators(register: Callable[..., None]) -> None:
    """Register tic-tac-toe's evaluator."""
    register(
        "tictactoe-lines",
        open_lines,
        games=("tictactoe",),
        description="open lines for the side to move minus the opponent's (plain Python)",
    )
