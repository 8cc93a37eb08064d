# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Stockman's SSS* (1979) and its mirror Dual* (seed-003 §1.15), best-first over an OPEN list
of states (node, LIVE|SOLVED, merit h), exactly the Γ operator of the survey:

    pop the state of highest h (Dual*: lowest), ties to the LEFT-MOST node (smallest Dewey
    label), which is what keeps SSS*'s leaves a subset of alpha-beta's;
    SOLVED root → done, h is the value; LIVE leaf → SOLVED with min(h, value) (Dual*: max);
    LIVE MAX node → all children LIVE (Dual*: the first only); LIVE MIN node → the first child
    (Dual*: all); SOLVED MIN node → its parent SOLVED, every state below the parent purged
    (Dual*: SOLVED MAX node); SOLVED MAX node → next sibling LIVE, or the parent SOLVED after
    the last (Dual*: MIN node).

Nodes are move paths from the root, kept in C arrays; the position walks from one state's
node to the next by unmake/make. ``nodes`` counts states taken from OPEN, ``leaves``
evaluations; values are from the root mover's view.
"""

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport RESULT_DRAW, RESULT_LOSS, RESULT_ONGOING, RESULT_WIN, Position
from alfabeta.searchers.context cimport SCORE_INF, SCORE_WIN, SEARCH_MAX_PLY, SearchContext, ply_moves, pv_clear, pv_set, spend_node

from alfabeta.core import SearchResult

cdef enum:
    UNLIMITED = 1 << 30
    LIVE = 0
    SOLVED = 1


cdef struct State:
    int path          # offset of the node's path (child indices) in the arena
    int length        # its depth
    int status
    int h
    bint alive


cdef class _Open:
    """The OPEN list: states plus an arena of paths."""

    cdef State* states
    cdef int count, capacity
    cdef int* arena
    cdef int used, arena_capacity

    def __cinit__(self):
        self.capacity, self.arena_capacity = 64, 1024
        self.states = <State*> malloc(self.capacity * sizeof(State))
        self.arena = <int*> malloc(self.arena_capacity * sizeof(int))
        if self.states == NULL or self.arena == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.states)
        free(self.arena)

    cdef int push(self, int* path, int length, int extra, int status, int h) except -1:
        """Add the state of node ``path`` (+ child ``extra`` if ≥ 0); ``path`` must not point
        into the arena, which may move."""
        cdef int total = length + (extra >= 0)
        cdef State* grown
        cdef int* more
        if self.count == self.capacity:
            grown = <State*> realloc(self.states, 2 * self.capacity * sizeof(State))
            if grown == NULL:
                raise MemoryError()
            self.states, self.capacity = grown, 2 * self.capacity
        while self.used + total > self.arena_capacity:
            more = <int*> realloc(self.arena, 2 * self.arena_capacity * sizeof(int))
            if more == NULL:
                raise MemoryError()
            self.arena, self.arena_capacity = more, 2 * self.arena_capacity
        memcpy(self.arena + self.used, path, length * sizeof(int))
        if extra >= 0:
            self.arena[self.used + length] = extra
        self.states[self.count] = State(self.used, total, status, h, True)
        self.used += total
        self.count += 1
        return 0

    cdef bint before(self, State* a, State* b, bint dual) noexcept:
        """Does ``a`` come out of OPEN before ``b``?"""
        cdef int i, n
        if a.h != b.h:
            return a.h < b.h if dual else a.h > b.h
        n = a.length if a.length < b.length else b.length
        for i in range(n):
            if self.arena[a.path + i] != self.arena[b.path + i]:
                return self.arena[a.path + i] < self.arena[b.path + i]
        return a.length < b.length

    cdef int pop(self, bint dual) noexcept:
        cdef int best = -1, i
        for i in range(self.count):
            if self.states[i].alive and (best < 0 or self.before(&self.states[i],
                                                                 &self.states[best], dual)):
                best = i
        if best >= 0:
            self.states[best].alive = False
        return best

    cdef void purge_below(self, int* path, int length) noexcept:
        """Drop every state strictly below the node ``path``."""
        cdef int i, j
        cdef bint below
        for i in range(self.count):
            if not self.states[i].alive or self.states[i].length <= length:
                continue
            below = True
            for j in range(length):
                if self.arena[self.states[i].path + j] != path[j]:
                    below = False
                    break
            if below:
                self.states[i].alive = False


cdef class _Walker:
    """Moves the position along move paths (child indices in generation order)."""

    cdef SearchContext ctx
    cdef int* current
    cdef int depth
    cdef int* counts

    def __cinit__(self, SearchContext ctx):
        self.ctx = ctx
        self.current = <int*> malloc((SEARCH_MAX_PLY + 1) * sizeof(int))
        self.counts = <int*> malloc((SEARCH_MAX_PLY + 1) * sizeof(int))
        if self.current == NULL or self.counts == NULL:
            raise MemoryError()
        self.counts[0] = ctx.pos.generate(ply_moves(ctx, 0))

    def __dealloc__(self):
        free(self.current)
        free(self.counts)

    cdef int go(self, int* path, int length) except -1:
        cdef int common = 0
        cdef Position pos = self.ctx.pos
        while common < self.depth and common < length and self.current[common] == path[common]:
            common += 1
        while self.depth > common:
            self.depth -= 1
            pos.unmake(ply_moves(self.ctx, self.depth)[self.current[self.depth]])
        while self.depth < length:
            pos.make(ply_moves(self.ctx, self.depth)[path[self.depth]])
            self.current[self.depth] = path[self.depth]
            self.depth += 1
            self.counts[self.depth] = pos.generate(ply_moves(self.ctx, self.depth))
        return 0

    cdef int home(self) except -1:
        return self.go(NULL, 0)


def search(Position position, Evaluator evaluator, limit, bint dual=False):
    """SSS* (``dual=False``) or Dual* to the limit's depth."""
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef int depth = UNLIMITED if limit.depth is None else limit.depth
    cdef _Open open_list = _Open()
    cdef _Walker walker
    cdef int index, length, status, h, score, i, count, value = 0
    cdef int* path = <int*> malloc((SEARCH_MAX_PLY + 1) * sizeof(int))
    cdef bint at_max, terminal
    cdef int best_child = -1, best_h = 0
    if path == NULL:
        raise MemoryError()
    evaluator.prepare(position)
    walker = _Walker(ctx)
    try:
        open_list.push(path, 0, -1, LIVE, -SCORE_INF if dual else SCORE_INF)
        while True:
            index = open_list.pop(dual)
            if index < 0 or spend_node(ctx):
                break
            length = open_list.states[index].length
            status = open_list.states[index].status
            h = open_list.states[index].h
            memcpy(path, open_list.arena + open_list.states[index].path, length * sizeof(int))
            if status == SOLVED and length == 0:
                value = h
                break
            walker.go(path, length)
            at_max = position.side_to_move == ctx.root_side
            if status == LIVE:
                terminal = walker.counts[length] == 0 or length >= depth
                if length > ctx.seldepth:
                    ctx.seldepth = length
                if terminal:
                    score = _score(ctx, length)
                    if dual:
                        open_list.push(path, length, -1, SOLVED, score if score > h else h)
                    else:
                        open_list.push(path, length, -1, SOLVED, score if score < h else h)
                elif at_max != dual:  # SSS*: MAX expands all; Dual*: MIN does
                    for i in range(walker.counts[length]):
                        open_list.push(path, length, i, LIVE, h)
                else:
                    open_list.push(path, length, 0, LIVE, h)
                continue
            # SOLVED, not the root
            if length == 1 and (best_child < 0 or h > best_h):  # first to reach the value
                best_child, best_h = path[0], h
            if at_max == dual:  # SSS*: a solved MIN node; Dual*: a solved MAX node
                open_list.purge_below(path, length - 1)
                open_list.push(path, length - 1, -1, SOLVED, h)
            elif path[length - 1] + 1 < walker.counts[length - 1]:
                path[length - 1] += 1
                open_list.push(path, length, -1, LIVE, h)
            else:
                open_list.push(path, length - 1, -1, SOLVED, h)
        walker.home()
    finally:
        free(path)
    complete = not ctx.aborted
    moves = position.legal_moves()
    move = moves[best_child] if complete and best_child >= 0 else (moves[0] if moves else None)
    ctx.reraise()
    return SearchResult(
        move=move, value=value if complete else 0, pv=(move,) if move is not None else (),
        depth=(depth if depth != UNLIMITED else ctx.seldepth) if complete else 0,
        nodes=ctx.nodes, leaves=ctx.leaves, elapsed=ctx.elapsed(), complete=complete)


cdef int _score(SearchContext ctx, int ply) except? -2147483647:
    """A terminal node's value from the root mover's view."""
    cdef int status = ctx.pos.c_outcome(), score
    if status == RESULT_WIN:
        score = SCORE_WIN - ply
    elif status == RESULT_LOSS:
        score = -(SCORE_WIN - ply)
    elif status == RESULT_DRAW:
        score = 0
    else:
        ctx.leaves += 1
        score = ctx.ev.evaluate(ctx.pos)
    return score if ctx.pos.side_to_move == ctx.root_side else -score
