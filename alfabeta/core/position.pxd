# cython: language_level=3
"""The C-level position contract (design §2). Searchers call these methods with no Python
object per node; every game's position derives from Position."""

from libc.stdint cimport uint64_t

# Outcome codes, relative to the side to move. RESULT_LEAF: the game is over and the
# evaluator scores it (the leaves of an explicit game tree, games ended by a count).
cdef enum:
    RESULT_ONGOING = 0
    RESULT_WIN = 1
    RESULT_LOSS = 2
    RESULT_DRAW = 3
    RESULT_LEAF = 4

# ``move_class`` returns 0 … MOVE_CLASSES − 1 (chess: 12 pieces by colour × 64 squares).
cdef enum:
    MOVE_CLASSES = 768


cdef class Position:
    cdef readonly int side_to_move
    cdef readonly int max_moves
    cdef list _stack
    cdef str _root

    cdef int generate(self, int* out) except -1
    cdef int generate_all(self, int* out) except -1
    cdef int generate_noisy(self, int* out) except -1
    cdef int generate_checks(self, int* out) except -1
    cdef int mark_noisy(self, int* moves, int count, unsigned char* flags,
                        int* scratch) except -1
    cdef int make(self, int move) except -1
    cdef int unmake(self, int move) except -1
    cdef bint make_null(self) except -1
    cdef int unmake_null(self) except -1
    cdef bint is_tactical(self) except -1
    cdef int order_hint(self, int move) noexcept
    cdef int move_class(self, int move) noexcept
    cdef void threat_hints(self, int* moves, int count, int* out) noexcept
    cdef int exchange(self, int move) noexcept
    cdef bint repeats(self, int plies) noexcept
    cdef bint upcoming_repetition(self, int plies) noexcept
    cdef int c_outcome(self) except -1
    cdef uint64_t c_key(self) except? 0
    cdef uint64_t c_structure_key(self) noexcept
    cdef list _moves(self, int kind)


cdef uint64_t splitmix64(uint64_t x) noexcept nogil
