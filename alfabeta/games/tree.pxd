# cython: language_level=3
from alfabeta.core.position cimport Position


cdef class Tree(Position):
    # explicit trees: nodes in level order, children of a node contiguous
    cdef int[::1] first_child
    cdef int[::1] child_count
    cdef int[::1] parent
    cdef int[::1] node_value         # leaf value from the root (MAX) player's side
    # generated uniform trees: node = (depth, index), children of index p are p*b + i
    cdef int[::1] leaf_values
    # raw views of the arrays above (which stay alive with the object): no memoryview
    # reference counting on the hot path
    cdef int* p_first_child
    cdef int* p_child_count
    cdef int* p_parent
    cdef int* p_node_value
    cdef int* p_leaf_values
    cdef readonly bint uniform
    cdef readonly int branching
    cdef readonly int height
    cdef long long index
    cdef long long[64] index_stack   # the index at each depth above the current node
    cdef long long[64] level_offset  # level-order number of the first node at each depth
    cdef readonly int node
    cdef readonly int depth
    cdef readonly int scale
    cdef dict _options

    cdef long long node_id(self) noexcept
    cdef int leaf_value(self) noexcept
