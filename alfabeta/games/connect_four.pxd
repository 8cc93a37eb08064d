# cython: language_level=3
from libc.stdint cimport uint64_t

from alfabeta.core.position cimport Position

cdef enum:
    C4_WIDTH = 7
    C4_HEIGHT = 6
    C4_STRIDE = 7   # bits per column: six cells and a sentinel above them


cdef class ConnectFour(Position):
    cdef readonly uint64_t[2] stones     # each player's stones, bit = 7 * column + row
    cdef int[7] height
    cdef readonly int count              # stones on the board
    cdef readonly int width, rows        # the board: 4–7 columns of 4–6 cells
    cdef readonly uint64_t board         # its cells
    cdef readonly uint64_t bottom        # the bottom cell of each of its columns
    cdef readonly uint64_t centre        # its centre column(s)
    cdef int[7] order                    # columns, centre first

    cdef uint64_t occupied(self) noexcept
    cdef uint64_t playable(self) noexcept


cdef uint64_t winning_cells(uint64_t own, uint64_t occupied) noexcept nogil
cdef bint has_four(uint64_t own) noexcept nogil
