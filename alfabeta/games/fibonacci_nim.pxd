# cython: language_level=3
from alfabeta.core.position cimport Position


cdef class FibonacciNim(Position):
    cdef readonly int n
    cdef readonly int q
    cdef readonly int pile
    cdef int* q_stack
    cdef int top
    cdef int capacity
    cdef int _allocate(self, int capacity) except -1


cpdef long long smallest_summand(long long n) except -1
