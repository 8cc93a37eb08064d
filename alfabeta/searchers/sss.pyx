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

OPEN is a binary heap keyed by (h, Dewey label). A node is a record (parent, child index), so
its label is read by walking up, and a purge marks one record: a state popped below a purged
record is dead and dropped, and the heap is compacted once dead states may fill half of it.
Time and memory grow with the states (n log n), not with their square. The position walks
from one state's node to the next by unmake/make. ``nodes`` counts states taken from OPEN,
``leaves`` evaluations; values are from the root mover's view.
"""

from libc.stdlib cimport free, malloc

from alfabeta.core.buffers cimport doubled
from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport Position
from alfabeta.searchers.context cimport (
    SCORE_INF,
    SEARCH_MAX_PLY,
    SearchContext,
    finished_score,
    is_finished,
    leaf_score,
    ply_moves,
    spend_node,
)

cdef enum:
    LIVE = 0
    SOLVED = 1
    FIRST_COMPACTION = 1024  # heap size at which dead states are first swept out


cdef struct Node:
    int parent        # record of the parent node; -1 at the root
    int child         # index among the parent's moves, in generation order
    int length        # depth below the root
    bint purged       # every state strictly below this node is dead


cdef struct State:
    int node
    int status
    int h


cdef class _Open:
    """The OPEN list: a binary heap of states over a growing table of node records."""

    cdef Node* nodes
    cdef int node_count, node_capacity
    cdef State* heap
    cdef int count, capacity, next_compaction
    cdef bint dual

    def __cinit__(self, bint dual):
        self.dual = dual
        self.node_capacity, self.capacity = 1024, 1024
        self.next_compaction = FIRST_COMPACTION
        self.nodes = <Node*> malloc(self.node_capacity * sizeof(Node))
        self.heap = <State*> malloc(self.capacity * sizeof(State))
        if self.nodes == NULL or self.heap == NULL:
            raise MemoryError()
        self.nodes[0] = Node(-1, 0, 0, False)
        self.node_count = 1

    def __dealloc__(self):
        free(self.nodes)
        free(self.heap)

    cdef int child(self, int parent, int index) except -1:
        """A new record: child ``index`` of node ``parent``."""
        if self.node_count == self.node_capacity:
            self.nodes = <Node*> doubled(self.nodes, self.node_capacity, sizeof(Node))
            self.node_capacity *= 2
        self.nodes[self.node_count] = Node(parent, index, self.nodes[parent].length + 1, False)
        self.node_count += 1
        return self.node_count - 1

    cdef bint before(self, State* a, State* b) noexcept:
        """Does ``a`` come out of OPEN before ``b``: higher h (Dual*: lower), then the
        left-most node (an ancestor before its descendants)?"""
        cdef int x = a.node, y = b.node
        if a.h != b.h:
            return a.h < b.h if self.dual else a.h > b.h
        while self.nodes[x].length > self.nodes[y].length:
            x = self.nodes[x].parent
        while self.nodes[y].length > self.nodes[x].length:
            y = self.nodes[y].parent
        if x == y:  # one node is the other or its ancestor
            return self.nodes[a.node].length < self.nodes[b.node].length
        while self.nodes[x].parent != self.nodes[y].parent:
            x, y = self.nodes[x].parent, self.nodes[y].parent
        return self.nodes[x].child < self.nodes[y].child

    cdef bint dead(self, int node) noexcept:
        """Is a state of ``node`` below a purged node?"""
        node = self.nodes[node].parent
        while node >= 0:
            if self.nodes[node].purged:
                return True
            node = self.nodes[node].parent
        return False

    cdef void sift_up(self, int i) noexcept:
        cdef State moving = self.heap[i]
        cdef int parent
        while i > 0:
            parent = (i - 1) >> 1
            if not self.before(&moving, &self.heap[parent]):
                break
            self.heap[i] = self.heap[parent]
            i = parent
        self.heap[i] = moving

    cdef void sift_down(self, int i) noexcept:
        cdef State moving = self.heap[i]
        cdef int child
        while True:
            child = 2 * i + 1
            if child >= self.count:
                break
            if child + 1 < self.count and self.before(&self.heap[child + 1], &self.heap[child]):
                child += 1
            if not self.before(&self.heap[child], &moving):
                break
            self.heap[i] = self.heap[child]
            i = child
        self.heap[i] = moving

    cdef int push(self, int node, int status, int h) except -1:
        if self.count == self.next_compaction:
            self.compact()
        if self.count == self.capacity:
            self.heap = <State*> doubled(self.heap, self.capacity, sizeof(State))
            self.capacity *= 2
        self.heap[self.count] = State(node, status, h)
        self.count += 1
        self.sift_up(self.count - 1)
        return 0

    cdef bint pop(self, State* out) noexcept:
        """Take the first live state into ``out``; False when OPEN holds none."""
        while self.count > 0:
            out[0] = self.heap[0]
            self.count -= 1
            if self.count > 0:
                self.heap[0] = self.heap[self.count]
                self.sift_down(0)
            if not self.dead(out.node):
                return True
        return False

    cdef void compact(self) noexcept:
        """Drop every dead state and restore the heap; the next sweep waits until the heap
        has doubled again, so sweeping costs O(1) per push on average."""
        cdef int i, kept = 0
        for i in range(self.count):
            if not self.dead(self.heap[i].node):
                self.heap[kept] = self.heap[i]
                kept += 1
        self.count = kept
        for i in range(kept // 2 - 1, -1, -1):
            self.sift_down(i)
        self.next_compaction = 2 * kept if 2 * kept > FIRST_COMPACTION else FIRST_COMPACTION

    cdef void path(self, int node, int* out) noexcept:
        """The node's move path (child indices from the root) into ``out``."""
        while self.nodes[node].parent >= 0:
            out[self.nodes[node].length - 1] = self.nodes[node].child
            node = self.nodes[node].parent


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
    cdef int depth = ctx.depth_limit
    cdef _Open open_list = _Open(dual)
    cdef _Walker walker
    cdef State state
    cdef int length, h, score, i, node, parent, value = 0
    cdef int* path = <int*> malloc((SEARCH_MAX_PLY + 1) * sizeof(int))
    cdef bint at_max
    cdef int best_child = -1, best_h = 0
    if path == NULL:
        raise MemoryError()
    evaluator.prepare(position)
    walker = _Walker(ctx)
    try:
        open_list.push(0, LIVE, -SCORE_INF if dual else SCORE_INF)
        while open_list.pop(&state) and not spend_node(ctx):
            node, h = state.node, state.h
            length = open_list.nodes[node].length
            parent = open_list.nodes[node].parent
            if state.status == SOLVED and length == 0:
                value = h
                break
            open_list.path(node, path)
            walker.go(path, length)
            at_max = position.side_to_move == ctx.root_side
            if state.status == LIVE:
                if length > ctx.seldepth:
                    ctx.seldepth = length
                if walker.counts[length] == 0 or length >= depth:
                    score = _score(ctx, length)
                    if dual:
                        open_list.push(node, SOLVED, score if score > h else h)
                    else:
                        open_list.push(node, SOLVED, score if score < h else h)
                elif at_max != dual:  # SSS*: MAX expands all; Dual*: MIN does
                    for i in range(walker.counts[length]):
                        open_list.push(open_list.child(node, i), LIVE, h)
                else:
                    open_list.push(open_list.child(node, 0), LIVE, h)
                continue
            # SOLVED, not the root
            if length == 1 and (best_child < 0 or h > best_h):  # first to reach the value
                best_child, best_h = path[0], h
            if at_max == dual:  # SSS*: a solved MIN node; Dual*: a solved MAX node
                open_list.nodes[parent].purged = True
                open_list.push(parent, SOLVED, h)
            elif path[length - 1] + 1 < walker.counts[length - 1]:
                open_list.push(open_list.child(parent, path[length - 1] + 1), LIVE, h)
            else:
                open_list.push(parent, SOLVED, h)
        walker.home()
    finally:
        free(path)
    if ctx.aborted:  # no value: the first legal move
        move, pv = ctx.fallback()
        return ctx.result(move, 0, pv, 0, False)
    if best_child < 0:  # the root was not expanded (depth 0, or the game is over)
        move, pv = ctx.fallback()
    else:
        move = position.legal_moves()[best_child]
        pv = (move,)
    return ctx.result(move, value, pv, depth, True)


cdef int _score(SearchContext ctx, int ply) except? -2147483647:
    """A terminal node's value from the root mover's view."""
    cdef int status = ctx.pos.c_outcome()
    cdef int score = finished_score(status, ply) if is_finished(status) else leaf_score(ctx)
    return score if ctx.pos.side_to_move == ctx.root_side else -score
