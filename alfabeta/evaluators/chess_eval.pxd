# cython: language_level=3
from alfabeta.core.evaluator cimport Evaluator
from alfabeta.games.chess.board cimport Chess


cdef class BayesChess(Evaluator):
    cdef int[5] values
    cdef int check_bonus
    cdef int[2][6][64] table   # table[colour][type][square a1 = 0]
    cdef readonly dict settings
    cdef object policy         # None, or what picks the parameters at each root
    cdef object current        # the BayesChessParams in use (None: set by hand)
    cdef int side_score(self, Chess board, int colour, int* material, int* placement) noexcept


cdef class CPW(Evaluator):
    cdef readonly str tropism
    cdef readonly str mobility_mode
    cdef bint tropism_cpw          # tropism == "cpw": 14 − d, else the printed 14 − d/2
    cdef bint mobility_difference  # mobility == "difference"
    cdef int shield(self, Chess board, int colour) noexcept
    cdef int tropism_quarters(self, Chess board, int colour) noexcept
    cdef int safety_quarters(self, Chess board, int colour) noexcept
    cdef void terms_for(self, Chess board, int colour, int* out) except *


cdef class Standard(Evaluator):
    cdef void side(self, Chess board, int colour, int* mg, int* eg) noexcept
