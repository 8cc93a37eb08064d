# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Depth-first proof-number search (df-pn, Nagai 2002) over the C-level contract.

The question is always "can ``attacker`` force a win from here?". At an OR node (the attacker
to move) the proof number is the least of the children's and the disproof number their sum;
at an AND node the other way round. df-pn expands the most-proving node depth first, each
call bounded by two thresholds, and keeps (pn, dn) of every expanded node in a table keyed
by the position's ``key()``, so transpositions share their work (the tree is searched as a
DAG). The child's threshold uses the 1+ε trick (Pawlewicz and Lew 2007): a sibling must fall
behind by a factor 1+ε, not by one, before the search switches to it.

Cycles (the graph-history-interaction problem). A move back to a position on the current path
counts as a draw, which disproves a win; a proof therefore never rests on a cycle. A disproof
may (another path could avoid the repetition), so a disproof found while a cycle was met is
reported as unknown, not as a draw. Proofs are checked independently: ``proof_tree`` extracts
the strategy and :func:`alfabeta.solvers.proof.verify` replays every defence.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport ceil
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memmove

from alfabeta.core.position cimport (
    RESULT_DRAW,
    RESULT_LEAF,
    RESULT_ONGOING,
    RESULT_WIN,
    Position,
    splitmix64,
)

import time

from alfabeta.solvers.graph import SolverError

cdef uint32_t INF = 1 << 30   # a proof or disproof number that cannot grow: proven either way


cdef inline uint32_t add_capped(uint32_t a, uint32_t b) noexcept:
    cdef uint64_t s = <uint64_t> a + b
    return INF if s >= INF else <uint32_t> s


cdef class _Entries:
    """(pn, dn) of each expanded node, by key (open addressing, grows, never evicts)."""
    cdef uint64_t* keys
    cdef uint32_t* pn
    cdef uint32_t* dn
    cdef bint* used
    cdef int64_t capacity, size

    def __cinit__(self):
        self.capacity = 1 << 14
        self.size = 0
        self._allocate()

    cdef int _allocate(self) except -1:
        self.keys = <uint64_t*> calloc(self.capacity, sizeof(uint64_t))
        self.pn = <uint32_t*> calloc(self.capacity, sizeof(uint32_t))
        self.dn = <uint32_t*> calloc(self.capacity, sizeof(uint32_t))
        self.used = <bint*> calloc(self.capacity, sizeof(bint))
        if self.keys == NULL or self.pn == NULL or self.dn == NULL or self.used == NULL:
            raise MemoryError()
        return 0

    def __dealloc__(self):
        free(self.keys)
        free(self.pn)
        free(self.dn)
        free(self.used)

    cdef int64_t slot(self, uint64_t key) noexcept:
        cdef int64_t mask = self.capacity - 1, i = <int64_t> (key & <uint64_t> mask)
        while self.used[i] and self.keys[i] != key:
            i = (i + 1) & mask
        return i

    cdef bint get(self, uint64_t key, uint32_t* pn, uint32_t* dn) noexcept:
        cdef int64_t i = self.slot(key)
        if not self.used[i]:
            return False
        pn[0], dn[0] = self.pn[i], self.dn[i]
        return True

    cdef int put(self, uint64_t key, uint32_t pn, uint32_t dn) except -1:
        cdef int64_t i = self.slot(key)
        if not self.used[i]:
            if 2 * (self.size + 1) > self.capacity:
                self.grow()
                i = self.slot(key)
            self.used[i] = True
            self.keys[i] = key
            self.size += 1
        self.pn[i], self.dn[i] = pn, dn
        return 0

    cdef int grow(self) except -1:
        cdef uint64_t* keys = self.keys
        cdef uint32_t* pn = self.pn
        cdef uint32_t* dn = self.dn
        cdef bint* used = self.used
        cdef int64_t old = self.capacity, i, j
        self.capacity *= 2
        self._allocate()
        for i in range(old):
            if used[i]:
                j = self.slot(keys[i])
                self.used[j], self.keys[j], self.pn[j], self.dn[j] = True, keys[i], pn[i], dn[i]
        free(keys)
        free(pn)
        free(dn)
        free(used)
        return 0


class _Stop(Exception):
    """The node or time budget is spent."""


cdef class DfPn:
    """One proof-number search: ``run()`` answers whether ``attacker`` (0 or 1) can force a
    win from ``position``. ``max_plies`` bounds the proof's length (0: none; a mate in N is
    ``2N - 1`` plies); ``nodes`` and ``seconds`` bound the work; ``evaluator`` scores an
    explicit tree's leaves (a positive score for the attacker is a win); ``forcing_first``
    tries the attacker's forcing moves (``is_tactical`` after the move, e.g. a check) first;
    ``progress(nodes)`` is called every 65,536 expansions."""

    cdef Position position
    cdef readonly int attacker, max_plies
    cdef readonly long long expanded, max_nodes
    cdef readonly bint cycle_seen
    cdef double deadline, epsilon
    cdef object evaluator, progress
    cdef bint forcing_first
    cdef _Entries entries
    cdef uint64_t* path
    cdef int path_length, path_capacity

    def __cinit__(self):
        self.path = NULL

    def __init__(self, Position position, int attacker, int max_plies=0, long long nodes=0,
                 double seconds=0.0, evaluator=None, double epsilon=0.25,
                 bint forcing_first=False, progress=None):
        if attacker not in (0, 1):
            raise SolverError(f"attacker {attacker!r}: expected 0 or 1")
        self.position, self.attacker, self.max_plies = position, attacker, max_plies
        self.max_nodes = nodes
        self.deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
        self.evaluator, self.epsilon, self.forcing_first = evaluator, epsilon, forcing_first
        self.progress = progress
        self.entries = _Entries()
        self.path_capacity = 1024
        self.path = <uint64_t*> malloc(self.path_capacity * sizeof(uint64_t))
        if self.path == NULL:
            raise MemoryError()
        self.path_length = 0
        self.expanded = 0
        self.cycle_seen = False

    def __dealloc__(self):
        free(self.path)

    cdef uint64_t entry_key(self, int ply) noexcept:
        """The table key of the current position: with a ply bound, the plies left count."""
        cdef uint64_t key = self.position.c_key()
        if self.max_plies > 0:
            key ^= splitmix64(<uint64_t> (self.max_plies - ply) + 0x9E3779B97F4A7C15ULL)
        return key

    cdef bint is_or(self) noexcept:
        return self.position.side_to_move == self.attacker

    cdef int terminal(self, int ply, uint32_t* pn, uint32_t* dn) except -1:
        """1 and (pn, dn) when the current position is decided without search, else 0."""
        cdef int status = self.position.c_outcome()
        cdef int mover = self.position.side_to_move
        cdef bint won
        if status == RESULT_ONGOING:
            if self.max_plies > 0 and ply >= self.max_plies:
                pn[0], dn[0] = INF, 0  # no win within the bound
                return 1
            return 0
        if status == RESULT_LEAF:
            score = self.evaluator.evaluate(self.position) if self.evaluator is not None else 0
            won = (score if mover == self.attacker else -score) > 0
        elif status == RESULT_DRAW:
            won = False
        else:
            won = (status == RESULT_WIN) == (mover == self.attacker)
        if won:
            pn[0], dn[0] = 0, INF
        else:
            pn[0], dn[0] = INF, 0
        return 1

    cdef bint on_path(self, uint64_t key) noexcept:
        cdef int i
        for i in range(self.path_length - 1, -1, -1):
            if self.path[i] == key:
                return True
        return False

    cdef int mid(self, int ply, uint32_t tpn, uint32_t tdn, uint32_t* out_pn,
                 uint32_t* out_dn) except -1:
        """Search the current position until its pn reaches ``tpn`` or its dn ``tdn``;
        ``out_pn``/``out_dn`` receive its numbers, which are also stored in the table."""
        cdef int count, best, move
        cdef uint32_t pn, dn, second, child_tpn, child_tdn
        cdef uint64_t key = self.entry_key(ply)
        cdef int* moves = NULL
        cdef uint32_t* cpn = NULL
        cdef uint32_t* cdn = NULL
        cdef bint or_node = self.is_or()
        self.expanded += 1
        if self.max_nodes and self.expanded > self.max_nodes:
            raise _Stop()
        if self.expanded % 4096 == 0:
            PyErr_CheckSignals()
            if self.progress is not None and self.expanded % 65536 == 0:
                self.progress(self.expanded)
            if self.deadline and time.perf_counter() > self.deadline:
                raise _Stop()
        if self.path_length == self.path_capacity:
            raise SolverError(f"a proof path longer than {self.path_capacity} plies")
        self.path[self.path_length] = self.position.c_key()
        self.path_length += 1
        try:
            moves = <int*> malloc(self.position.max_moves * sizeof(int))
            cpn = <uint32_t*> malloc(self.position.max_moves * sizeof(uint32_t))
            cdn = <uint32_t*> malloc(self.position.max_moves * sizeof(uint32_t))
            if moves == NULL or cpn == NULL or cdn == NULL:
                raise MemoryError()
            count = self.children(ply, moves, cpn, cdn, or_node)
            while True:
                self.combine(count, cpn, cdn, or_node, &pn, &dn, &best, &second)
                if pn == 0 or dn == 0 or pn >= tpn or dn >= tdn:
                    break
                move = moves[best]
                if or_node:
                    child_tpn = min(tpn, self.widen(second))
                    child_tdn = add_capped(tdn - dn, cdn[best]) if tdn < INF else INF
                else:
                    child_tdn = min(tdn, self.widen(second))
                    child_tpn = add_capped(tpn - pn, cpn[best]) if tpn < INF else INF
                self.position.make(move)
                try:
                    self.mid(ply + 1, child_tpn, child_tdn, &cpn[best], &cdn[best])
                finally:
                    self.position.unmake(move)
            self.entries.put(key, pn, dn)
            out_pn[0], out_dn[0] = pn, dn
        finally:
            self.path_length -= 1
            free(moves)
            free(cpn)
            free(cdn)
        return 0

    cdef uint32_t widen(self, uint32_t second) noexcept:
        """The 1+ε threshold: the best child may fall behind the second by a factor 1+ε."""
        cdef double widened
        if second >= INF:
            return INF
        widened = ceil(second * (1.0 + self.epsilon))
        if widened <= second:
            widened = second + 1
        return INF if widened >= INF else <uint32_t> widened

    cdef void combine(self, int count, uint32_t* cpn, uint32_t* cdn, bint or_node,
                      uint32_t* pn, uint32_t* dn, int* best, uint32_t* second) noexcept:
        """A node's (pn, dn) from its children's, the child to search and the runner-up's
        selecting number."""
        cdef uint32_t least = INF + 1, total = 0
        cdef int i
        cdef uint32_t* selecting = cpn if or_node else cdn
        cdef uint32_t* summing = cdn if or_node else cpn
        best[0], second[0] = 0, INF + 1
        for i in range(count):
            total = add_capped(total, summing[i])
            if selecting[i] < least:
                second[0] = least
                least = selecting[i]
                best[0] = i
            elif selecting[i] < second[0]:
                second[0] = selecting[i]
        least = min(least, INF)
        second[0] = min(second[0], INF)
        if or_node:
            pn[0], dn[0] = least, total
        else:
            pn[0], dn[0] = total, least

    cdef int children(self, int ply, int* moves, uint32_t* cpn, uint32_t* cdn, bint or_node) \
            except -1:
        """Generate the moves (forcing ones first at OR nodes when asked) and each child's
        starting numbers: decided, from the table, a cycle (a draw), or 1/1."""
        cdef int count = self.position.generate(moves), i, forcing = 0, move, at
        cdef uint32_t pn, dn
        cdef uint64_t key
        for i in range(count):
            move = moves[i]
            at = i
            self.position.make(move)
            try:
                if self.forcing_first and or_node and self.position.is_tactical():
                    at = forcing  # forcing moves keep their order, ahead of the others
                    forcing += 1
                if self.terminal(ply + 1, &pn, &dn):
                    pass
                elif self.on_path(self.position.c_key()):
                    self.cycle_seen = True
                    pn, dn = INF, 0  # a repetition: a draw, no win
                else:
                    key = self.entry_key(ply + 1)
                    if not self.entries.get(key, &pn, &dn):
                        pn = dn = 1
            finally:
                self.position.unmake(move)
            if at != i:  # shift the quiet moves seen so far one place down
                memmove(&moves[at + 1], &moves[at], (i - at) * sizeof(int))
                memmove(&cpn[at + 1], &cpn[at], (i - at) * sizeof(uint32_t))
                memmove(&cdn[at + 1], &cdn[at], (i - at) * sizeof(uint32_t))
                moves[at] = move
            cpn[at], cdn[at] = pn, dn
        return count

    def run(self):
        """"proved", "disproved" or "unknown" (budget spent, or a disproof that met a
        cycle), the root's (pn, dn) and the nodes expanded."""
        cdef uint32_t pn, dn
        if self.terminal(0, &pn, &dn):
            answer = "proved" if pn == 0 else "disproved"
            return answer, pn, dn
        try:
            self.mid(0, INF, INF, &pn, &dn)
        except _Stop:
            return "unknown", None, None
        if pn == 0:
            return "proved", pn, dn
        if dn == 0 and not self.cycle_seen:
            return "disproved", pn, dn
        return "unknown", pn, dn

    def numbers(self, int ply=0):
        """(pn, dn) of the current position as the search left them: decided, from the
        table, or None if it was never expanded."""
        cdef uint32_t pn, dn
        if self.terminal(ply, &pn, &dn) or self.entries.get(self.entry_key(ply), &pn, &dn):
            return pn, dn
        return None

    def refuting_move(self):
        """After a disproof at the root, a root move whose position is disproved too (the
        attacker's opponent keeps the result with it); None if there is none."""
        cdef uint32_t pn, dn
        cdef int count, i, move
        cdef int* moves = <int*> malloc(self.position.max_moves * sizeof(int))
        if moves == NULL:
            raise MemoryError()
        try:
            count = self.position.generate(moves)
            for i in range(count):
                move = moves[i]
                self.position.make(move)
                try:
                    if self.terminal(1, &pn, &dn) or self.entries.get(self.entry_key(1), &pn, &dn):
                        if dn == 0:
                            return move
                finally:
                    self.position.unmake(move)
            return None
        finally:
            free(moves)

    def proof_tree(self, int limit=200_000):
        """The attacker's strategy after a proof: ``{"move": m, "then": [...]}`` at the
        attacker's turns (one move), ``{"replies": {move: tree}}`` at the defender's (every
        move), ``{}`` where the game is won. None if the table lost a needed node or the tree
        would exceed ``limit`` nodes."""
        counter = [0]
        try:
            return self._extract(0, counter, limit)
        except _Stop:
            return None

    cdef object _extract(self, int ply, list counter, int limit):
        cdef uint32_t pn, dn
        cdef int count, i
        cdef int* moves
        counter[0] += 1
        if counter[0] > limit:
            raise _Stop()
        if self.terminal(ply, &pn, &dn):
            return {} if pn == 0 else None
        moves = <int*> malloc(self.position.max_moves * sizeof(int))
        if moves == NULL:
            raise MemoryError()
        try:
            count = self.position.generate(moves)
            if self.is_or():
                for i in range(count):
                    self.position.make(moves[i])
                    try:
                        if self._proved(ply + 1):
                            tree = self._extract(ply + 1, counter, limit)
                            if tree is not None:
                                return {"move": moves[i], "then": tree}
                    finally:
                        self.position.unmake(moves[i])
                return None
            replies = {}
            for i in range(count):
                self.position.make(moves[i])
                try:
                    tree = self._extract(ply + 1, counter, limit) if self._proved(ply + 1) \
                        else None
                finally:
                    self.position.unmake(moves[i])
                if tree is None:
                    return None
                replies[moves[i]] = tree
            return {"replies": replies}
        finally:
            free(moves)

    cdef bint _proved(self, int ply) except -1:
        cdef uint32_t pn, dn
        if self.terminal(ply, &pn, &dn):
            return pn == 0
        return self.entries.get(self.entry_key(ply), &pn, &dn) and pn == 0
