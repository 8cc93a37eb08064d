# cython: language_level=3, boundscheck=False, wraparound=False
"""Material for chess with the BayesChess values (seed-002 §1): P 100, N 300, B 300,
R 500, Q 900, in centipawns from the side to move."""

from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position
from alfabeta.games.chess.board cimport PAWN, QUEEN, Chess

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil

cdef int[5] VALUES = [100, 300, 300, 500, 900]
NAMES = ("pawns", "knights", "bishops", "rooks", "queens")


cdef class Material(Evaluator):
    """Σ value × (own pieces − opponent's pieces)."""

    name = "material"
    games = ("chess",)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int us, t, total = 0
        if not isinstance(position, Chess):
            raise TypeError(f"material evaluates chess positions, not {position.name}")
        us = position.side_to_move
        for t in range(PAWN, QUEEN + 1):
            total += VALUES[t] * (popcount((<Chess> position).pieces[us][t])
                                  - popcount((<Chess> position).pieces[us ^ 1][t]))
        return total

    def explain(self, Position position):
        cdef Chess board = <Chess?> position
        cdef int us = board.side_to_move
        return {NAMES[t]: VALUES[t] * (popcount(board.pieces[us][t])
                                       - popcount(board.pieces[us ^ 1][t]))
                for t in range(PAWN, QUEEN + 1)}
