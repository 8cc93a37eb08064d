# cython: language_level=3
from libc.stdint cimport int16_t, int32_t, uint8_t, uint64_t

from alfabeta.core.buffers cimport prefetch_address
from alfabeta.searchers.context cimport SCORE_INF, SCORE_WIN, SEARCH_MAX_PLY

cdef enum:
    NO_MOVE = -2147483647
    PROVEN = SCORE_WIN - SEARCH_MAX_PLY


cdef extern from *:
    """
    #include <stdint.h>
    /* 24 bytes of fields in 32, aligned so that no entry straddles two cache lines (a probe
       is one memory access, as its prefetch) and a two-way pair is one line. */
    typedef struct {
        _Alignas(32) uint64_t key;
        int32_t lower;
        int32_t upper;
        int32_t move;
        int16_t depth;
        uint8_t used;
        uint8_t generation;
    } alfabeta_tt_entry;
    """
    ctypedef struct Entry "alfabeta_tt_entry":
        uint64_t key
        int32_t lower
        int32_t upper
        int32_t move
        int16_t depth
        uint8_t used  # 0: free; bit 0: in use; bit 1: a PV node's (``mark_pv``)
        uint8_t generation  # the search that last stored or kept it (``new_search``)


cdef inline int table_depth(int depth) noexcept:
    """Depths as the table stores them (an unlimited search's depths are huge)."""
    return 30000 if depth > 30000 else depth


cdef inline int to_table(int value, int ply) noexcept:
    """A mate score relative to the root → relative to the node (it is stored so)."""
    if value >= PROVEN and value < SCORE_INF:
        return value + ply
    if value <= -PROVEN and value > -SCORE_INF:
        return value - ply
    return value


cdef inline int from_table(int value, int ply) noexcept:
    if value >= PROVEN and value < SCORE_INF:
        return value - ply
    if value <= -PROVEN and value > -SCORE_INF:
        return value + ply
    return value


cdef class TranspositionTable:
    cdef Entry* entries
    cdef uint64_t mask
    cdef readonly int mb
    cdef public uint8_t generation
    cdef object buffer  # the shared memory the entries live in, or None: they are calloc'd
    cdef readonly bint two_way
    cdef Entry* probe(self, uint64_t key) noexcept
    cdef Entry* slot_for(self, uint64_t key, bint* replace) noexcept
    cdef inline void prefetch(self, uint64_t key) noexcept:
        """Start loading ``key``'s slot into the cache (a probe soon after finds it there)."""
        prefetch_address(&self.entries[key & self.mask])
    cdef void store(self, uint64_t key, int depth, int ply, int value, int alpha, int beta,
                    int move) noexcept
    cdef inline void mark_pv(self, uint64_t key) noexcept:
        """Mark ``key``'s entry, if held, as a PV node's; the mark stays while it is."""
        cdef Entry* e = self.probe(key)
        if e != NULL:
            e.used |= 2
    cdef inline bint was_pv(self, uint64_t key) noexcept:
        """Whether ``key``'s entry is held and marked by ``mark_pv``."""
        cdef Entry* e = self.probe(key)
        return e != NULL and e.used & 2
    cpdef int hashfull(self)
    cpdef void new_search(self) noexcept
