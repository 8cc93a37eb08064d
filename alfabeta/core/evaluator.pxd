# cython: language_level=3
from alfabeta.core.position cimport Position

cdef enum:
    EVAL_ERROR = -2147483647  # never a real score: |score| <= WIN + MAX_PLY


cdef class Evaluator:
    cpdef int evaluate(self, Position position) except? EVAL_ERROR
    cpdef prepare(self, Position root)
    cdef void prefetch(self, Position position) noexcept
