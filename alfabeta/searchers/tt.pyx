# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The transposition table of the alpha-beta family (seed-003 §1.17): one entry per slot,
keyed by ``c_key()``, holding a lower and an upper bound (exact when they meet), the depth
they were searched to and the best move; depth-preferred replacement within a search, and an
entry an earlier search stored (an older generation, see ``new_search``) always gives way;
mate scores stored relative to the node. A ``two_way`` table pairs each slot with its
neighbour: a key lives in either, and a new key takes the free one, else the one an earlier
search stored, else the shallower — it is always stored, and the deeper entry stays.

A searcher owns its table and keeps it between searches, so a game's second move starts from
what the first one learned; ``clear()`` forgets (UCI's ``ucinewgame``) and ``resize(mb)``
reallocates (UCI's ``Hash``). Counts that must be exact (bench, the differential tests) come
from a cleared or fresh table.

A table made on a ``buffer`` (an ``mmap`` several processes map: Lazy SMP, ``smp.py``) keeps
its entries there, so every process reads what the others store. Entries are written without
locks, as in Stockfish: a probe racing a store of the same slot may read a torn entry, whose
bounds are then noise and whose move may be illegal — the move picker only ever plays a
table move it generated itself.
"""

from libc.stdlib cimport free
from libc.string cimport memset

from alfabeta.core.buffers cimport large_zeroed

from alfabeta.core.errors import InvalidOptionError

MAX_MB = 4096
ENTRY_BYTES = sizeof(Entry)  # 24 bytes of fields padded to 32: none straddles a cache line


cpdef size_t table_bytes(int mb) noexcept:
    """The bytes a table of ``mb`` MiB uses: the largest power of two of entries that fits."""
    cdef size_t count = 1
    while count * 2 * sizeof(Entry) <= <size_t> mb * 1024 * 1024:
        count *= 2
    return count * sizeof(Entry)


cdef class TranspositionTable:
    """A table of at most ``mb`` MiB (a power of two of entries), ``two_way`` or one
    entry per slot; with ``buffer`` (writable, at least ``mb`` MiB, aligned to an entry,
    zeroed or holding a table of the same size), its entries live in that memory."""

    def __cinit__(self):
        self.entries = NULL

    def __init__(self, int mb=16, bint two_way=False, buffer=None):
        cdef unsigned char[::1] memory
        self.two_way = two_way
        if buffer is None:
            self.resize(mb)
            return
        memory = buffer
        if not 1 <= mb <= MAX_MB or <size_t> memory.shape[0] < table_bytes(mb):
            raise InvalidOptionError(
                f"table of {mb} MB on a buffer of {memory.shape[0]} bytes: expected 1 … "
                f"{MAX_MB} MB and a buffer of at least {table_bytes(mb)} bytes")
        if <size_t> &memory[0] % sizeof(Entry):
            raise InvalidOptionError(
                f"a table's buffer must start on a {sizeof(Entry)}-byte boundary (an mmap "
                "does); this one does not")
        self.buffer = buffer
        self.entries = <Entry*> &memory[0]
        self.mask, self.mb = table_bytes(mb) // sizeof(Entry) - 1, mb

    def __dealloc__(self):
        if self.buffer is None:
            free(self.entries)

    @property
    def shared(self):
        """Whether the entries live in a buffer given at construction."""
        return self.buffer is not None

    def resize(self, int mb):
        """Reallocate to ``mb`` MiB (1 … 4096), empty; a table on a buffer cannot."""
        cdef size_t count
        cdef Entry* fresh
        if self.buffer is not None:
            raise InvalidOptionError("a table on a shared buffer keeps its size")
        if not 1 <= mb <= MAX_MB:
            raise InvalidOptionError(f"table size {mb} MB: expected 1 … {MAX_MB}")
        count = table_bytes(mb) // sizeof(Entry)
        fresh = <Entry*> large_zeroed(count * sizeof(Entry))
        if fresh == NULL:
            raise MemoryError(f"cannot allocate a {mb} MB transposition table")
        free(self.entries)
        self.entries, self.mask, self.mb = fresh, count - 1, mb

    def clear(self):
        """Forget every entry."""
        memset(self.entries, 0, (self.mask + 1) * sizeof(Entry))

    def __len__(self):
        return self.mask + 1

    cpdef int hashfull(self):
        """Per mille of the first 1,000 entries in use (UCI's hashfull)."""
        cdef int used = 0, i, n
        n = 1000 if self.mask + 1 >= 1000 else <int> (self.mask + 1)
        for i in range(n):
            used += self.entries[i].used & 1
        return used * 1000 // n

    cpdef void new_search(self) noexcept:
        """A new search begins: what earlier ones stored stays readable, but any of it may
        be replaced (a kept table would otherwise fill with deep entries of positions the
        game has left, and refuse the new search's)."""
        self.generation = (self.generation + 1) & 0xFF

    cdef Entry* probe(self, uint64_t key) noexcept:
        cdef Entry* e = &self.entries[key & self.mask]
        if e.used and e.key == key:
            return e
        if self.two_way:
            e = &self.entries[(key & self.mask) ^ 1]
            if e.used and e.key == key:
                return e
        return NULL

    cdef Entry* slot_for(self, uint64_t key, bint* replace) noexcept:
        """Where ``key`` is stored: its own entry if held, else the slot a new entry takes;
        ``replace`` says whether it may displace a deeper entry of this search."""
        cdef Entry* e = &self.entries[key & self.mask]
        cdef Entry* other
        replace[0] = False
        if not self.two_way or not e.used or e.key == key:
            return e
        other = &self.entries[(key & self.mask) ^ 1]
        replace[0] = True
        if not other.used or other.key == key:
            return other
        if (e.generation == self.generation) != (other.generation == self.generation):
            return other if e.generation == self.generation else e
        return other if other.depth < e.depth else e

    cdef void store(self, uint64_t key, int depth, int ply, int value, int alpha, int beta,
                    int move) noexcept:
        """Record ``value`` found with the window (α, β): an upper bound if ≤ α, a lower
        bound if ≥ β, exact otherwise; bounds of the same depth are merged."""
        cdef bint replace
        cdef Entry* e = self.slot_for(key, &replace)
        depth = table_depth(depth)
        if e.used and e.key == key:
            if depth < e.depth:
                e.generation = self.generation  # still the deeper knowledge: keep it
                return
            if depth > e.depth:
                e.lower, e.upper = -SCORE_INF, SCORE_INF
        elif e.used and depth < e.depth and e.generation == self.generation and not replace:
            return
        else:
            e.key, e.used = key, 1
            e.lower, e.upper = -SCORE_INF, SCORE_INF
            e.move = NO_MOVE
        e.depth, e.generation = depth, self.generation
        if value <= alpha:
            e.upper = to_table(value, ply)
        elif value >= beta:
            e.lower = to_table(value, ply)
        else:
            e.lower = e.upper = to_table(value, ply)
        if move != NO_MOVE:
            e.move = move
