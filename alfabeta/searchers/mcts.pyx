# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Monte Carlo tree search with UCT (Kocsis & Szepesvári 2006), for games where no evaluator
is good. Each iteration selects by UCB1 (exploration constant ``c``), expands one child,
plays a seeded random game to its end (or ``playout_plies`` plies, then a draw), and backs
the result up. Leaves of an explicit tree (``Result.LEAF``) are scored by the sign of the
evaluator. The move is the most visited root child; ``value`` is its mean result scaled to
±1000. The tree lives in C arrays; ``nodes`` counts iterations, ``leaves`` playouts. Same
seed, same limit: same moves and counts."""

from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from alfabeta.core.buffers cimport doubled
from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport RESULT_ONGOING, Position
from alfabeta.searchers.context cimport (
    SEARCH_MAX_PLY,
    SearchContext,
    finished_score,
    is_finished,
    ply_moves,
    spend_node,
)


cdef struct Node:
    int move            # the move that led here
    int parent
    int first_child     # children are contiguous once expanded
    int child_count     # -1: not expanded yet
    double visits
    double total        # results from the view of the player who moved into this node


cdef inline uint64_t next_random(uint64_t* state) noexcept nogil:
    """xorshift64*: a small, fast, seeded generator."""
    cdef uint64_t x = state[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state[0] = x
    return x * 0x2545F4914F6CDD1DULL


cdef class _Tree:
    cdef Node* nodes
    cdef int count, capacity

    def __cinit__(self):
        self.capacity = 1024
        self.nodes = <Node*> malloc(self.capacity * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.nodes)

    cdef int add(self, int move, int parent) except -1:
        if self.count == self.capacity:
            self.nodes = <Node*> doubled(self.nodes, self.capacity, sizeof(Node))
            self.capacity *= 2
        self.nodes[self.count] = Node(move, parent, -1, -1, 0.0, 0.0)
        self.count += 1
        return self.count - 1


cdef double _terminal_result(SearchContext ctx, int status) except? -2.0:
    """The finished game's result for the side to move: 1 win, 0 loss, 0.5 draw."""
    # a LEAF (not counted: ``leaves`` counts playouts): the evaluator's sign decides
    cdef int score = finished_score(status, 0) if is_finished(status) else ctx.ev.evaluate(ctx.pos)
    return 1.0 if score > 0 else 0.0 if score < 0 else 0.5


cdef double _playout(SearchContext ctx, uint64_t* rng, int limit) except? -2.0:
    """A random game from here; the result for the side to move now."""
    cdef Position pos = ctx.pos
    cdef int* moves
    cdef int plies = 0, count, status, mover = pos.side_to_move, i
    cdef double result
    while True:  # the moves played are kept in ctx.pv, which MCTS does not otherwise use
        status = pos.c_outcome()
        if status != RESULT_ONGOING:
            result = _terminal_result(ctx, status)
            if pos.side_to_move != mover:
                result = 1.0 - result
            break
        if plies >= limit or plies >= SEARCH_MAX_PLY:
            result = 0.5
            break
        moves = ply_moves(ctx, plies)
        count = pos.generate(moves)
        i = <int> (next_random(rng) % <uint64_t> count)
        pos.make(moves[i])
        ctx.pv[plies] = moves[i]
        plies += 1
    while plies > 0:
        plies -= 1
        pos.unmake(ctx.pv[plies])
    return result


cdef int ITERATIONS_PER_CHECK = 16  # the clock and stop flag: a playout can be 400 plies long


def search(Position position, Evaluator evaluator, limit, double exploration, uint64_t seed,
           int playout_plies, int iterations):
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef _Tree tree = _Tree()
    cdef uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL
    cdef int* path = <int*> malloc((SEARCH_MAX_PLY + 1) * sizeof(int))  # this iteration's nodes
    if path == NULL:
        raise MemoryError()
    try:
        return _run(ctx, tree, position, evaluator, exploration, &rng, playout_plies,
                    iterations, path)
    finally:
        free(path)


cdef object _run(SearchContext ctx, _Tree tree, Position position, Evaluator evaluator,
                 double exploration, uint64_t* rng, int playout_plies, int iterations,
                 int* path):
    cdef int node, child, i, count, best, depth, status
    cdef double score, best_score, result, log_n
    cdef int* moves
    cdef Node* n
    evaluator.prepare(position)
    tree.add(-1, -1)
    if position.c_outcome() != RESULT_ONGOING:
        return ctx.result(None, 0, (), 0, True)
    while iterations <= 0 or ctx.nodes < iterations:
        if spend_node(ctx):
            break
        if ctx.nodes % ITERATIONS_PER_CHECK == 0:  # an iteration is a whole playout
            ctx.check()
            if ctx.aborted:
                break
        node, depth = 0, 0
        # selection, never deeper than the path buffer
        while tree.nodes[node].child_count > 0 and depth < SEARCH_MAX_PLY:
            n = &tree.nodes[node]
            log_n = log(n.visits)
            best, best_score = -1, -1.0
            for i in range(n.child_count):
                child = n.first_child + i
                if tree.nodes[child].visits == 0:
                    best = child
                    break
                score = (tree.nodes[child].total / tree.nodes[child].visits
                         + exploration * sqrt(log_n / tree.nodes[child].visits))
                if score > best_score:
                    best, best_score = child, score
            position.make(tree.nodes[best].move)
            path[depth] = best
            depth += 1
            node = best
            if depth > ctx.seldepth:
                ctx.seldepth = depth
            if tree.nodes[node].visits == 0:
                break
        # expansion
        status = position.c_outcome()
        if tree.nodes[node].child_count < 0 and status == RESULT_ONGOING:
            moves = ply_moves(ctx, 0)
            count = position.generate(moves)
            tree.nodes[node].first_child = tree.count
            tree.nodes[node].child_count = count
            for i in range(count):
                tree.add(moves[i], node)
        elif tree.nodes[node].child_count < 0:
            tree.nodes[node].child_count = 0
        # simulation: the result for the player who moved into `node`
        ctx.leaves += 1
        result = 1.0 - _playout(ctx, rng, playout_plies)
        # backpropagation
        while depth > 0:
            depth -= 1
            node = path[depth]
            tree.nodes[node].visits += 1
            tree.nodes[node].total += result
            result = 1.0 - result
            position.unmake(tree.nodes[node].move)
        tree.nodes[0].visits += 1
    best, best_score = -1, -1.0
    n = &tree.nodes[0]
    for i in range(n.child_count if n.child_count > 0 else 0):
        child = n.first_child + i
        if tree.nodes[child].visits > 0 and tree.nodes[child].visits > best_score:
            best, best_score = child, tree.nodes[child].visits
    if best < 0:
        move, pv = ctx.fallback()
        return ctx.result(move, 0, pv, 0, False)
    mean = tree.nodes[best].total / tree.nodes[best].visits
    return ctx.result(
        tree.nodes[best].move, int(round((2 * mean - 1) * 1000)), (tree.nodes[best].move,),
        ctx.seldepth, iterations > 0 and ctx.nodes >= iterations)
