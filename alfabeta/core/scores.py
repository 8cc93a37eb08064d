"""Score conventions shared by every searcher and evaluator (design §2).

Scores are integers. Evaluators score from the side to move's point of view; searchers report
the root value from the root mover's view. A position lost for the side to move at ply ``p``
scores ``-(WIN - p)``, so shorter wins rank higher; anything at or beyond ``WIN - MAX_PLY`` is
a proven result.
"""

WIN = 1_000_000
MAX_PLY = 1_000
INFINITY = WIN + 1  # strictly outside every score a search can return


def win_in(ply: int) -> int:
    """Score of a position won for the side to move, the win coming ``ply`` plies from the root."""
    return WIN - ply


def loss_in(ply: int) -> int:
    """Score of a position lost for the side to move ``ply`` plies from the root."""
    return -(WIN - ply)


def is_proven(score: int) -> bool:
    """True when ``score`` is a proven win or loss rather than a heuristic value."""
    return abs(score) >= WIN - MAX_PLY


def plies_to_end(score: int) -> int | None:
    """Plies from the root to the proven end of the game, or None for a heuristic score."""
    return WIN - abs(score) if is_proven(score) else None
