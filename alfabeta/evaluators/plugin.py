"""Registers alfabeta's evaluators through the same hook as any third-party plugin."""

from collections.abc import Callable

from alfabeta.evaluators.chess_eval import CPW, BayesChess, Standard
from alfabeta.evaluators.chess_material import Material
from alfabeta.evaluators.deduction import DeductionH
from alfabeta.evaluators.emotional import Emotional
from alfabeta.evaluators.small_games import (
    ConnectFourThreats,
    NimExact,
    NimNaive,
    TreeLeaves,
    TRGDLines,
)
from alfabeta.evaluators.tuned import Tuned
from alfabeta.plugins import hookimpl
from alfabeta.solvers.solved import Solved


@hookimpl
def register_evaluators(register: Callable[..., None]) -> None:
    """Register alfabeta's own evaluators."""
    register(
        "trgd-lines",
        TRGDLines,
        games=("trgd",),
        description="open lines for the side to move minus the opponent's; thesis=true "
        "reproduces the thesis's depth-parity sign",
    )
    register(
        "nim-exact",
        NimExact,
        games=("fibonacci-nim",),
        description="Fibonacci nim solved by Zeckendorf's theorem (±1000)",
    )
    register(
        "nim-naive",
        NimNaive,
        games=("fibonacci-nim",),
        description="one-move lookahead: can I take the pile, must I hand it over (±1000)",
    )
    register(
        "tree-leaves",
        TreeLeaves,
        games=("tree",),
        description="the explicit tree's leaf values; log=true records evaluation order",
    )
    register(
        "deduction-h",
        DeductionH,
        games=("deduction",),
        description="closeness of the atom or rule under play to the data",
    )
    register(
        "connect-four-threats",
        ConnectFourThreats,
        games=("connect-four",),
        description="threat cells, open threes and twos, centre stones (side to move)",
    )
    register(
        "material",
        Material,
        games=("chess",),
        description="BayesChess material: P 100, N 300, B 300, R 500, Q 900",
    )
    register(
        "bayeschess",
        BayesChess,
        games=("chess",),
        description="BayesChess: material + 12 piece-square tables + check (774 parameters)",
    )
    register(
        "cpw",
        CPW,
        games=("chess",),
        description="material, mobility, king safety, opponent king defencelessness (seed-000)",
    )
    register(
        "emotional",
        Emotional,
        games=("chess",),
        description="cpw's four terms reweighed by an emotion (relief/fear) from a fuzzy "
        "cognitive map and a goal (seed-000/001)",
    )
    register(
        "solved",
        Solved,
        description="perfect play from a retrograde table: solved(table=FILE) "
        "(alfabeta solve GAME --table FILE)",
    )
    register(
        "standard",
        Standard,
        games=("chess",),
        description="tapered tables, mobility, pawn structure, bishop pair, king shelter",
    )
    register(
        "tuned",
        Tuned,
        games=("chess",),
        description="linear tapered evaluation fitted to alfabeta's games by Texel's method "
        "(alfabeta tune); tuned(weights=FILE) plays another fit, tuned(fifty=200) damps the "
        "score as the fifty-move clock runs, tuned(endgames=on) knows drawn material and KPK",
    )
