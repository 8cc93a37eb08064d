# cython: language_level=3
from alfabeta.core.position cimport Position

cdef enum:
    NODE_ATOM = 0      # MAX (the prover) to choose a rule for the atom, or claim it a datum
    NODE_CLAUSE = 1    # MIN (the sceptic) to choose the premise to be proved next
    NODE_CLAIMED = 2   # MAX claimed a datum: the game is over, won by MAX


cdef class Deduction(Position):
    cdef int[::1] clause_head
    cdef int[::1] premise_start     # premises of clause c: premise_atom[start[c]:start[c+1]]
    cdef int[::1] premise_atom
    cdef int[::1] rule_start        # rules concluding atom a: rule_clause[start[a]:start[a+1]]
    cdef int[::1] rule_clause
    cdef int[::1] datum             # 1 if the atom is a datum
    cdef int[::1] kind_stack
    cdef int[::1] id_stack
    cdef readonly int top           # index of the current node in the stacks
    cdef readonly int n_clauses
    cdef readonly int goal
    cdef object _kb
    cdef tuple _data
    cdef tuple _atoms
    cdef dict _atom_index
    cdef dict _options
    cdef int _datum_move(self) noexcept
