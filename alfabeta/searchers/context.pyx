# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The state every compiled search shares; see context.pxd. The conventions are those of
``reference.py``: ``nodes`` counts positions searched (root included), ``leaves`` evaluator
calls; a finished game scores ±(WIN − ply) or 0 without the evaluator; a node limit is exact;
the clock and the stop flag are read every CHECK_EVERY nodes, where the GIL is also let go so
that other threads (a UCI reader) run during a long search, and Python's signal handlers run:
Ctrl-C aborts the search like a spent budget and is raised once the search has unwound."""

import threading
import time

from cpython.exc cimport PyErr_CheckSignals
from libc.stdlib cimport calloc, free, malloc


cdef extern from "<unistd.h>" nogil:
    int usleep(unsigned int microseconds)

cdef unsigned int GIL_PAUSE_US = 20  # about 60 µs with timer slack, every CHECK_EVERY nodes

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport RESULT_LEAF, Position

from alfabeta.core import SearchResult


cdef class SearchContext:

    def __cinit__(self, Position position, Evaluator evaluator, limit):
        self.pos = position
        self.ev = evaluator
        self.stride = position.max_moves
        # malloc, not calloc: every entry is written before it is read, and the pages of
        # the deep plies a search never reaches are never touched
        self.moves = <int*> malloc((SEARCH_MAX_PLY + 2) * self.stride * sizeof(int))
        self.pv = <int*> malloc((SEARCH_MAX_PLY + 2) * (SEARCH_MAX_PLY + 1) * sizeof(int))
        self.pv_length = <int*> calloc(SEARCH_MAX_PLY + 2, sizeof(int))
        if self.moves == NULL or self.pv == NULL or self.pv_length == NULL:
            raise MemoryError()
        self.node_limit = -1 if limit.nodes is None else limit.nodes
        self.started = time.perf_counter()
        self.deadline = 0 if limit.time is None else self.started + limit.time
        self.stop = limit.stop
        self.depth_limit = UNLIMITED if limit.depth is None else limit.depth
        self.root_side = position.side_to_move
        self.share_gil = threading.active_count() > 1  # only then is anyone waiting for it

    def __dealloc__(self):
        free(self.moves)
        free(self.pv)
        free(self.pv_length)

    cdef int check(self) except -1:
        if self.share_gil:
            # sleep a moment without the GIL: a thread waiting for it (a UCI reader) wakes up
            # and takes it; a bare release is retaken before the waiter can run
            with nogil:
                usleep(GIL_PAUSE_US)
        try:
            PyErr_CheckSignals()  # run Python's signal handlers: Ctrl-C raises here
        except BaseException as error:
            self.interrupted = error  # unwind like a spent budget, raise afterwards
            self.aborted = True
            return 0
        if self.stop is not None and self.stop.is_set():
            self.aborted = True
        elif self.deadline and time.perf_counter() >= self.deadline:
            self.aborted = True
        return 0

    cdef int static_score(self, int depth, int ply, bint* expand) except? -2147483647:
        """Count the node; the side-to-move score of a node that is not expanded (finished,
        a leaf, or at the depth limit), or ``expand[0] = True``."""
        cdef int status
        expand[0] = False
        if spend_node(self):
            return 0
        if ply > self.seldepth:
            self.seldepth = ply
        status = self.pos.c_outcome()
        if is_finished(status):
            return finished_score(status, ply)
        if status == RESULT_LEAF or depth <= 0 or ply >= SEARCH_MAX_PLY:
            return leaf_score(self)
        expand[0] = True
        return 0

    cpdef reraise(self):
        """Raise the signal's exception (KeyboardInterrupt) a search caught, now that every
        move is unmade; every searcher calls this before it returns."""
        if self.interrupted is not None:
            raise self.interrupted

    cpdef tuple pv_line(self, int ply):
        cdef int* line = self.pv + ply * (SEARCH_MAX_PLY + 1)
        cdef int i
        cdef list moves = []
        for i in range(self.pv_length[ply]):
            moves.append(line[i])
        return tuple(moves)

    def elapsed(self):
        return time.perf_counter() - self.started

    cpdef tuple fallback(self):
        """(move, pv) to play when a limit stopped the search before any root move finished:
        the first legal move, or (None, ()) when there is none."""
        legal = self.pos.legal_moves()
        return (legal[0], (legal[0],)) if legal else (None, ())

    cpdef object result(self, object move, int value, tuple pv, int depth, bint complete,
                        tuple infos=()):
        """The SearchResult every compiled searcher returns, with every counter of this
        context; a ``depth`` of UNLIMITED is reported as the deepest ply reached. Raises the
        signal (Ctrl-C) the search caught, now that the position is restored."""
        self.reraise()
        return SearchResult(
            move=move, value=value, pv=pv,
            depth=depth if depth != UNLIMITED else self.seldepth,
            nodes=self.nodes, leaves=self.leaves, tt_hits=self.tt_hits, cutoffs=self.cutoffs,
            researches=self.researches, passes=self.passes, elapsed=self.elapsed(),
            complete=complete, infos=infos)


def score_constants():
    """The score constants the compiled searchers were built with (for the test that checks
    they agree with ``alfabeta.core.scores``)."""
    return {"MAX_PLY": SEARCH_MAX_PLY, "WIN": SCORE_WIN, "INFINITY": SCORE_INF}
