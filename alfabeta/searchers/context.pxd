# cython: language_level=3
from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport RESULT_DRAW, RESULT_LOSS, RESULT_WIN, Position

cdef enum:
    SEARCH_MAX_PLY = 1000       # deepest ply a search descends to (scores.MAX_PLY)
    SCORE_WIN = 1000000         # scores.WIN
    SCORE_INF = 1000001         # scores.INFINITY
    CHECK_EVERY = 4096          # nodes between clock/stop checks (and a GIL release)
    UNLIMITED = 1 << 30         # the depth of a search without a depth limit


cimport cython


@cython.final
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
    cdef bint share_gil          # other Python threads run: pause for them at each check
    cdef object interrupted      # a signal's exception (Ctrl-C), raised once the search unwound
    cdef int root_side
    cdef int seldepth
    cdef int depth_limit         # the limit's depth, or UNLIMITED
    cdef double started

    cdef int check(self) except -1
    cpdef reraise(self)
    cdef int static_score(self, int depth, int ply, bint* expand) except? -2147483647
    cpdef tuple pv_line(self, int ply)
    cpdef tuple fallback(self)
    cpdef object result(self, object move, int value, tuple pv, int depth, bint complete,
                        tuple infos=*)


cdef inline int leaf_score(SearchContext ctx) except? -2147483647:
    """The evaluator's score of the position for the side to move, counted as a leaf.
    Inlined: it runs at every leaf."""
    ctx.leaves += 1
    return ctx.ev.evaluate(ctx.pos)


cdef inline bint is_finished(int status) noexcept:
    """Has the game ended with a result the rules give (not a LEAF the evaluator scores)?"""
    return status == RESULT_WIN or status == RESULT_LOSS or status == RESULT_DRAW


cdef inline int finished_score(int status, int ply) noexcept:
    """A finished game's score for the side to move, ``ply`` plies below the root: ±(WIN −
    ply), so a nearer win scores higher, or 0 for a draw. ``status`` is WIN, LOSS or DRAW."""
    if status == RESULT_WIN:
        return SCORE_WIN - ply
    if status == RESULT_LOSS:
        return -(SCORE_WIN - ply)
    return 0


cdef inline bint spend_node(SearchContext ctx) except -1:
    """Count a node; True (and ``ctx.aborted``) when the budget is spent. Inlined: it runs at
    every node."""
    if ctx.node_limit >= 0 and ctx.nodes >= ctx.node_limit:
        ctx.aborted = True
        return True
    ctx.nodes += 1
    if ctx.nodes & (CHECK_EVERY - 1) == 0:
        ctx.check()
    return ctx.aborted


cdef inline void pv_clear(SearchContext ctx, int ply) noexcept:
    ctx.pv_length[ply] = 0


cdef inline int* ply_moves(SearchContext ctx, int ply) noexcept:
    return ctx.moves + ply * ctx.stride


cdef inline void pv_set(SearchContext ctx, int ply, int move) noexcept:
    """The PV of ``ply`` becomes ``move`` followed by the PV of ``ply + 1``."""
    cdef int* line = ctx.pv + ply * (SEARCH_MAX_PLY + 1)
    cdef int* below = line + (SEARCH_MAX_PLY + 1)
    cdef int n = ctx.pv_length[ply + 1], i
    line[0] = move
    for i in range(n):
        line[i + 1] = below[i]
    ctx.pv_length[ply] = n + 1
