# cython: language_level=3
from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport Position

cdef enum:
    SEARCH_MAX_PLY = 1000       # deepest ply a search descends to (scores.MAX_PLY)
    SCORE_WIN = 1000000         # scores.WIN
    SCORE_INF = 1000001         # scores.INFINITY
    CHECK_EVERY = 4096          # nodes between clock/stop checks (and a GIL release)


cdef class SearchContext:
    """Per-search state shared by the compiled searchers: the position and evaluator, the
    move buffers of every ply, exact counters, the budget (nodes, clock, stop flag), and a
    triangular principal-variation table."""

    cdef Position pos
    cdef Evaluator ev
    cdef int* moves              # ply p's moves at moves + p * stride
    cdef int stride
    cdef int* pv                 # pv line of ply p at pv + p * (SEARCH_MAX_PLY + 1)
    cdef int* pv_length
    cdef long long nodes
    cdef long long leaves
    cdef long long cutoffs
    cdef long long tt_hits
    cdef long long researches
    cdef long long passes
    cdef long long node_limit    # -1: none
    cdef double deadline         # 0: none
    cdef object stop
    cdef bint aborted
    cdef int root_side
    cdef int seldepth
    cdef double started

    cdef int tick(self) except -1
    cdef int check(self) except -1
    cdef int static_score(self, int depth, int ply, bint* expand) except? -2147483647
    cdef inline int* ply_moves(self, int ply) noexcept
    cdef void pv_clear(self, int ply) noexcept
    cdef void pv_set(self, int ply, int move) noexcept
    cpdef tuple pv_line(self, int ply)
