"""Registers alfabeta's compiled games through the same hook as any third-party plugin."""

from collections.abc import Callable

from alfabeta.games.chess.board import ChessGame
from alfabeta.games.connect_four import ConnectFour
from alfabeta.games.deduction.game import Deduction
from alfabeta.games.fibonacci_nim import FibonacciNim
from alfabeta.games.tree import Tree
from alfabeta.games.trgd import TRGD
from alfabeta.plugins import hookimpl


@hookimpl
def register_games(register: Callable[..., None]) -> None:
    """Register alfabeta's own games."""
    register(
        "fibonacci-nim",
        FibonacciNim,
        aliases=("nim",),
        description="Gaskell–Whinihan Fibonacci nim: take 1..2×(last take); last object wins",
    )
    register(
        "trgd", TRGD, description="three-in-a-row with sliding on a 16-point board (Márquez 1991)"
    )
    register(
        "tree",
        Tree,
        description="explicit game tree (nested lists or JSON) or a seeded uniform tree",
    )
    register(
        "deduction",
        Deduction,
        description="Horn-clause proving as a game: the prover picks rules, the sceptic "
        "premises (Márquez 1991)",
    )
    register(
        "connect-four",
        ConnectFour,
        aliases=("connect4",),
        description="Connect Four, 7×6, on bitboards",
    )
    register(
        "chess",
        ChessGame,
        description="chess on bitboards: FEN, UCI and SAN, Polyglot keys, every draw rule",
    )
