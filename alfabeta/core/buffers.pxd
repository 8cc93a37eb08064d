# cython: language_level=3
"""C memory for the compiled modules: growable buffers, tables read at random, and a
prefetch hint (inline: nothing to import at run time)."""

from libc.stdlib cimport realloc


cdef extern from *:
    void prefetch_address "__builtin_prefetch"(const void*) nogil


cdef inline void* doubled(void* data, Py_ssize_t capacity, size_t item) except NULL:
    """``data`` reallocated to hold twice ``capacity`` items of ``item`` bytes; MemoryError
    when it cannot be (``data`` is then left as it was)."""
    cdef void* bigger = realloc(data, 2 * capacity * item)
    if bigger == NULL:
        raise MemoryError()
    return bigger


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    #define ALFABETA_HUGE_PAGE ((size_t) 2 * 1024 * 1024)
    /* ``bytes`` zeroed bytes for a table that is read at random, aligned to a cache line;
       from 2 MiB on, aligned to 2 MiB and, on Linux, advised to the kernel as transparent
       huge pages, so that a probe does not miss the TLB as well (4 KiB pages reach only a
       few MiB of it). NULL when memory runs out; released with free(). */
    static inline void* alfabeta_large_zeroed(size_t bytes) {
        void* data = NULL;
        size_t align = bytes < ALFABETA_HUGE_PAGE ? 64 : ALFABETA_HUGE_PAGE;
        size_t rounded = (bytes + align - 1) & ~(align - 1);
        if (rounded == 0) rounded = align;
        if (posix_memalign(&data, align, rounded) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (align == ALFABETA_HUGE_PAGE) madvise(data, rounded, MADV_HUGEPAGE);
    #endif
        memset(data, 0, rounded);
        return data;
    }
    """
    void* large_zeroed "alfabeta_large_zeroed"(size_t bytes) nogil
