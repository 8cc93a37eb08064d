# cython: language_level=3
"""Growable C buffers for the compiled modules (inline: nothing to import at run time)."""

from libc.stdlib cimport realloc


cdef inline void* doubled(void* data, Py_ssize_t capacity, size_t item) except NULL:
    """``data`` reallocated to hold twice ``capacity`` items of ``item`` bytes; MemoryError
    when it cannot be (``data`` is then left as it was)."""
    cdef void* bigger = realloc(data, 2 * capacity * item)
    if bigger == NULL:
        raise MemoryError()
    return bigger
