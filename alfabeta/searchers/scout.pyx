# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Pearl's Scout (1980; seed-003 §1.16): EVAL finds the minimax value, asking TEST whether a
later child can beat the value so far before evaluating it. Values are from the root
mover's (MAX's) view; ``leaves`` counts every evaluation, repeats included."""

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport Position
from alfabeta.searchers.context cimport SearchContext, ply_moves, pv_clear, pv_set


cdef inline int max_view(SearchContext ctx, int score) noexcept:
    return score if ctx.pos.side_to_move == ctx.root_side else -score


cdef bint test(SearchContext ctx, int depth, int ply, int v, bint strict) except -1:
    """Is the node's value > v (strict) or ≥ v?"""
    cdef bint expand
    cdef int score = ctx.static_score(depth, ply, &expand), count, i
    cdef Position pos = ctx.pos
    cdef bint maximizing, r
    cdef int* moves
    if ctx.aborted:
        return False
    if not expand:
        score = max_view(ctx, score)
        return score > v if strict else score >= v
    maximizing = pos.side_to_move == ctx.root_side
    moves = ply_moves(ctx, ply)
    count = pos.generate(moves)
    for i in range(count):
        pos.make(moves[i])
        r = test(ctx, depth - 1, ply + 1, v, strict)
        pos.unmake(moves[i])
        if ctx.aborted:
            return False
        if maximizing and r:
            return True
        if not maximizing and not r:
            return False
    return not maximizing


cdef int evaluate_node(SearchContext ctx, int depth, int ply) except? -2147483647:
    """EVAL: the node's minimax value (MAX's view)."""
    cdef bint expand
    cdef int score = ctx.static_score(depth, ply, &expand), count, i, v
    cdef Position pos = ctx.pos
    cdef bint maximizing, better
    cdef int* moves
    pv_clear(ctx, ply)
    if ctx.aborted:
        return 0
    if not expand:
        return max_view(ctx, score)
    maximizing = pos.side_to_move == ctx.root_side
    moves = ply_moves(ctx, ply)
    count = pos.generate(moves)
    pos.make(moves[0])
    v = evaluate_node(ctx, depth - 1, ply + 1)
    pos.unmake(moves[0])
    pv_set(ctx, ply, moves[0])
    for i in range(1, count):
        if ctx.aborted:
            return 0
        pos.make(moves[i])
        if maximizing:
            better = test(ctx, depth - 1, ply + 1, v, True)
        else:
            better = not test(ctx, depth - 1, ply + 1, v, False)
        if better and not ctx.aborted:
            ctx.researches += 1
            v = evaluate_node(ctx, depth - 1, ply + 1)
            pv_set(ctx, ply, moves[i])
        pos.unmake(moves[i])
    return v


def search(Position position, Evaluator evaluator, limit):
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    evaluator.prepare(position)
    cdef int value = evaluate_node(ctx, ctx.depth_limit, 0)
    line = ctx.pv_line(0)
    if ctx.aborted:  # no depth completed: the first legal move
        (move, line), value = ctx.fallback(), 0
        return ctx.result(move, value, line, 0, False)
    return ctx.result(line[0] if line else None, value, line, ctx.depth_limit, True)
