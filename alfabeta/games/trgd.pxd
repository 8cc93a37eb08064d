# cython: language_level=3
from libc.stdint cimport uint64_t

from alfabeta.core.position cimport Position

cdef enum:
    TRGD_POINTS = 16
    TRGD_LINES = 8
    TRGD_PIECES = 3
    SLIDE_BASE = 16  # a slide from f to t is SLIDE_BASE + 16 * f + t; a placement is t

cdef unsigned int[8] LINE_MASKS


cdef class TRGD(Position):
    cdef readonly unsigned int max_mask   # bit p-1 set: a MAX piece (player 0) on point p
    cdef readonly unsigned int min_mask
    cdef readonly int ply
    cdef uint64_t zobrist
    cdef uint64_t* history              # key after each ply, for the repetition rule
    cdef int top
    cdef int capacity
    # rules
    cdef bint thesis_first_moves
    cdef int repetition
    cdef int max_plies
    cdef int _grow(self) except -1
    cdef uint64_t _compute_key(self)


cdef int haux(unsigned int max_mask, unsigned int min_mask, unsigned int line) noexcept nogil
cdef int line_sum(unsigned int max_mask, unsigned int min_mask) noexcept nogil
