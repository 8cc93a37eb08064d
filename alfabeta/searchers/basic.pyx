# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled MiniMax and NegaMax over the C-level position contract: no Python object per node.
Each mirrors its pure-Python reference in ``reference.py`` — same value, move, principal
variation, node and leaf counts. (Alpha-beta and its enhancements live in ``family.pyx``.)"""

from libc.math cimport floor

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport Position
from alfabeta.searchers.context cimport SCORE_INF, SearchContext, ply_moves, pv_clear, pv_set

ALGO_MINIMAX, ALGO_NEGAMAX = 0, 1


cdef int minimax_value(SearchContext ctx, int depth, int ply,
                       double error) except? -2147483647:
    """MAX/MIN form: the node's value from the root mover's view. With ``error`` > 0, a MIN
    node is worth (1 − p)·min + p·mean(others) (``reference.erring_min``)."""
    cdef bint expand
    cdef int score = ctx.static_score(depth, ply, &expand)
    cdef Position pos = ctx.pos
    cdef int* moves
    cdef int count, i, value, best = 0
    cdef long long total = 0
    cdef bint maximizing, first = True
    pv_clear(ctx, ply)
    if not expand or ctx.aborted:
        return score if pos.side_to_move == ctx.root_side else -score
    maximizing = pos.side_to_move == ctx.root_side
    moves = ply_moves(ctx, ply)
    count = pos.generate(moves)
    for i in range(count):
        pos.make(moves[i])
        value = minimax_value(ctx, depth - 1, ply + 1, error)
        pos.unmake(moves[i])
        if ctx.aborted:
            return 0
        total += value
        if first or (value > best if maximizing else value < best):
            best, first = value, False
            pv_set(ctx, ply, moves[i])
    if not maximizing and error > 0 and count > 1:
        return <int> floor((1 - error) * best + error * (total - best) / (count - 1) + 0.5)
    return best


cdef int negamax_value(SearchContext ctx, int depth, int ply) except? -2147483647:
    """The node's value from the side to move's view."""
    cdef bint expand
    cdef int score = ctx.static_score(depth, ply, &expand)
    cdef Position pos = ctx.pos
    cdef int* moves
    cdef int count, i, value, best = -SCORE_INF
    pv_clear(ctx, ply)
    if not expand or ctx.aborted:
        return score
    moves = ply_moves(ctx, ply)
    count = pos.generate(moves)
    for i in range(count):
        pos.make(moves[i])
        value = -negamax_value(ctx, depth - 1, ply + 1)
        pos.unmake(moves[i])
        if ctx.aborted:
            return 0
        if value > best:
            best = value
            pv_set(ctx, ply, moves[i])
    return best


def search(Position position, Evaluator evaluator, limit, int algorithm, double error=0.0):
    """The root loop shared by both: every root move in order, the first of the best kept; a
    search stopped by its budget keeps the best finished root move."""
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef int depth = ctx.depth_limit
    cdef bint expand
    cdef int score, count, i, value, best_value = -SCORE_INF
    cdef int* moves
    cdef object best_move = None
    cdef tuple best_pv = ()
    evaluator.prepare(position)
    score = ctx.static_score(depth, 0, &expand)
    if not expand and not ctx.aborted:
        return ctx.result(None, score, (), depth, True)
    if not ctx.aborted:
        moves = ply_moves(ctx, 0)
        count = position.generate(moves)
        for i in range(count):
            position.make(moves[i])
            if algorithm == ALGO_MINIMAX:
                value = minimax_value(ctx, depth - 1, 1, error)
            else:
                value = -negamax_value(ctx, depth - 1, 1)
            position.unmake(moves[i])
            if ctx.aborted:
                break
            if value > best_value:
                best_value, best_move = value, moves[i]
                best_pv = (moves[i],) + ctx.pv_line(1)
    if ctx.aborted:
        if best_move is None:
            (best_move, best_pv), best_value = ctx.fallback(), 0
        return ctx.result(best_move, best_value, best_pv, 0, False)  # no depth completed
    return ctx.result(best_move, best_value, best_pv, depth, True)
