# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""``solved(table=FILE)``: a perfect evaluator read from a retrograde table.

A won position scores ``SOLVED - distance``, a lost one ``-(SOLVED - distance)``, a drawn one
0 (side to move), so a one-ply search with it plays perfectly: the fastest win, the slowest
loss. ``SOLVED`` lies just below the proven-result band, so a searcher never mistakes a table
value for a mate it found itself. The lookup is a binary search over the sorted keys in C.
"""

from libc.stdint cimport int8_t, int32_t, uint64_t

from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position

from alfabeta.core.errors import IncompatibleEvaluatorError, InvalidOptionError
from alfabeta.core.scores import MAX_PLY, WIN
from alfabeta.solvers.graph import SolverError

SOLVED = WIN - 2 * MAX_PLY  # a table win at distance d scores SOLVED - d


cdef class Solved(Evaluator):
    """Perfect play from a solved table (``alfabeta solve GAME --table FILE`` writes one)."""

    name = "solved"
    games = ()
    cdef readonly object table
    cdef const uint64_t[::1] keys
    cdef const int8_t[::1] values
    cdef const int32_t[::1] distances
    cdef str game_name

    def __init__(self, table=None):
        from alfabeta.solvers.retrograde import SolvedTable

        if table is None:
            raise InvalidOptionError("solved needs table=FILE (written by alfabeta solve --table)")
        self.table = SolvedTable.load(table)
        self.keys, self.values, self.distances = (
            self.table.keys, self.table.value, self.table.distance)
        self.game_name = self.table.game.split("(")[0].strip()

    def options(self):
        return {"table": self.table.game}

    cpdef prepare(self, Position root):
        if root.name != self.game_name:
            raise IncompatibleEvaluatorError(
                f"the solved table is of {self.table.game}, not {root.name}")

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef uint64_t key = position.c_key()
        cdef Py_ssize_t low = 0, high = self.keys.shape[0], middle
        while low < high:
            middle = (low + high) >> 1
            if self.keys[middle] < key:
                low = middle + 1
            else:
                high = middle
        if low == self.keys.shape[0] or self.keys[low] != key:
            raise SolverError(
                f"{position.to_string()!r} is not in the solved table of {self.table.game}")
        if self.values[low] > 0:
            return SOLVED - self.distances[low]
        if self.values[low] < 0:
            return -(SOLVED - self.distances[low])
        return 0

    def explain(self, Position position):
        return {"solved": self.evaluate(position)}
