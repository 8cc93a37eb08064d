# cython: language_level=3, boundscheck=False, wraparound=False
"""Evaluators of the small games: TRGD open lines, Fibonacci nim (exact and naive), the
explicit tree's leaf values and Connect Four threats. All score from the side to move's
point of view."""

from libc.stdint cimport uint64_t

from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position
from alfabeta.games.connect_four cimport (
    C4_HEIGHT,
    C4_STRIDE,
    C4_WIDTH,
    ConnectFour,
    winning_cells,
)
from alfabeta.games.fibonacci_nim cimport FibonacciNim, smallest_summand
from alfabeta.games.tree cimport Tree
from alfabeta.games.trgd cimport LINE_MASKS, TRGD, haux, line_sum

from alfabeta.core.errors import InvalidOptionError
from alfabeta.games.trgd import LINES

NIM_WIN_VALUE = 1000


def _flag(name, option, value):
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{name} option {option}={value!r}: expected true or false")
    return value


cdef class TRGDLines(Evaluator):
    """H of seed-004 §3.4: lines open for the side to move minus lines open for the opponent,
    a completed line counting ±100.

    ``thesis=True`` returns the line sum from MAX's side whoever is to move. Searchers turn a
    side-to-move score into a MAX score by negating it at MIN nodes, so this reproduces the
    thesis's H, whose sign follows the depth parity (h(MAX node) = −h(MIN node)).
    """

    name = "trgd-lines"
    games = ("trgd",)
    cdef readonly bint thesis

    def __init__(self, thesis=False):
        self.thesis = _flag(self.name, "thesis", thesis)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef TRGD board = <TRGD?> position
        cdef int total = line_sum(board.max_mask, board.min_mask)
        if self.thesis or board.side_to_move == 0:
            return total
        return -total

    def options(self):
        return {"thesis": self.thesis}

    def explain(self, Position position):
        """Each line's HAUX, signed like ``evaluate``: the terms sum to ``evaluate()``."""
        cdef TRGD board = <TRGD?> position
        sign = 1 if self.thesis or board.side_to_move == 0 else -1
        terms = {}
        for i, line in enumerate(LINES):
            mask = LINE_MASKS[i]
            terms["-".join(map(str, line))] = sign * haux(board.max_mask, board.min_mask, mask)
        return terms


cdef class NimExact(Evaluator):
    """Fibonacci nim solved by the Zeckendorf theorem: +1000 if the side to move wins
    (n ≤ q or μ(n) ≤ q), else −1000."""

    name = "nim-exact"
    games = ("fibonacci-nim",)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef FibonacciNim nim = <FibonacciNim?> position
        if nim.n >= 1 and (nim.n <= nim.q or smallest_summand(nim.n) <= nim.q):
            return NIM_WIN_VALUE
        return -NIM_WIN_VALUE

    def explain(self, Position position):
        return {"zeckendorf": self.evaluate(position)}


cdef class NimNaive(Evaluator):
    """What a player sees one move ahead: +1000 if the whole pile may be taken now, −1000 if
    every move hands the opponent the whole pile (taking a third or more loses at once),
    0 otherwise."""

    name = "nim-naive"
    games = ("fibonacci-nim",)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef FibonacciNim nim = <FibonacciNim?> position
        if nim.n == 0 or nim.q == 0:
            return -NIM_WIN_VALUE
        if nim.n <= nim.q:
            return NIM_WIN_VALUE
        if nim.n - 1 <= 2:  # even taking one leaves n-1 <= 2*1 for the opponent
            return -NIM_WIN_VALUE
        return 0

    def explain(self, Position position):
        return {"one-move lookahead": self.evaluate(position)}


cdef class TreeLeaves(Evaluator):
    """The explicit tree's leaf values, from the side to move (0 at inner nodes).

    With ``log=True`` every evaluation is recorded; ``visited()`` lists the Dewey labels in
    evaluation order and ``clear()`` empties the log (instrumentation for tests and teaching).
    """

    name = "tree-leaves"
    games = ("tree",)
    cdef readonly bint log
    cdef list _visits
    cdef Tree _tree

    def __init__(self, log=False):
        self.log = _flag(self.name, "log", log)
        self._visits = []

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int value
        if not isinstance(position, Tree):
            raise TypeError(f"tree-leaves evaluates tree positions, not {position.name}")
        # an unowned cast: no reference counting on the hot path
        if (<Tree> position).uniform:
            value = ((<Tree> position).p_leaf_values[(<Tree> position).index]
                     if (<Tree> position).depth == (<Tree> position).height else 0)
        else:
            value = (<Tree> position).p_node_value[(<Tree> position).node]
        if self.log:
            self._tree = <Tree> position
            self._visits.append((<Tree> position).node_id())
        return value if position.side_to_move == 0 else -value

    def options(self):
        return {"log": self.log}

    def visited(self):
        """Dewey labels of the evaluated nodes, in order."""
        return [self._tree.label_of(node) for node in self._visits] if self._visits else []

    def clear(self):
        self._visits = []

    def explain(self, Position position):
        return {"leaf": self.evaluate(position)}


# vertical, horizontal and the two diagonals, in the game's bit layout (connect_four.pxd)
cdef int[4] C4_SHIFTS = [1, C4_STRIDE, C4_STRIDE + 1, C4_STRIDE - 1]
cdef uint64_t[4] C4_STARTS              # cells where a four-cell window in that direction starts


def _init_windows():
    cdef int d, c, r, dc, dr
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for d in range(4):
        dc, dr = steps[d]
        C4_STARTS[d] = 0
        for c in range(C4_WIDTH):
            for r in range(C4_HEIGHT):
                if 0 <= c + 3 * dc < C4_WIDTH and 0 <= r + 3 * dr < C4_HEIGHT:
                    C4_STARTS[d] |= 1ULL << (C4_STRIDE * c + r)


_init_windows()

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil


cdef inline void _open_windows(uint64_t own, uint64_t other, uint64_t board, int* threes,
                               int* twos) noexcept:
    """Count the four-cell windows of ``board`` holding no ``other`` stone and exactly three
    (two) ``own`` stones, all at once (69 on the full board): for each direction, the stones at
    the four offsets of every window start are added bit-sliced."""
    cdef uint64_t free_cells = board & ~other
    cdef uint64_t a0, a1, a2, a3, s1, c1, s2, c2, bit0, c3, bit1, bit2, clear
    cdef int d, k
    threes[0] = twos[0] = 0
    for d in range(4):
        k = C4_SHIFTS[d]
        a0, a1, a2, a3 = own, own >> k, own >> (2 * k), own >> (3 * k)
        clear = free_cells & (free_cells >> k) & (free_cells >> (2 * k)) \
            & (free_cells >> (3 * k)) & C4_STARTS[d]
        s1, c1 = a0 ^ a1, a0 & a1
        s2, c2 = a2 ^ a3, a2 & a3
        bit0, c3 = s1 ^ s2, s1 & s2
        bit1, bit2 = c1 ^ c2 ^ c3, c1 & c2
        threes[0] += popcount64(clear & bit1 & bit0 & ~bit2)
        twos[0] += popcount64(clear & bit1 & ~bit0 & ~bit2)


cdef class ConnectFourThreats(Evaluator):
    """Threat counting for Connect Four, from the side to move:
    16 × (cells that would complete a four for me − for the opponent)
    + 2 × (open threes − ...) + (open twos − ...) + 3 × (my centre-column stones − ...).
    An open three or two is a four-cell window holding only that side's stones."""

    name = "connect-four-threats"
    games = ("connect-four",)

    cdef int side_terms(self, ConnectFour board, uint64_t own, uint64_t other, int* terms) \
            noexcept:
        cdef int threes, twos
        _open_windows(own, other, board.board, &threes, &twos)
        terms[0] = 16 * popcount64(winning_cells(own, own | other) & board.board)
        terms[1] = 2 * threes
        terms[2] = twos
        terms[3] = 3 * popcount64(own & board.centre)
        return terms[0] + terms[1] + terms[2] + terms[3]

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef ConnectFour board = <ConnectFour?> position
        cdef int[4] mine, theirs
        cdef uint64_t me = board.stones[board.side_to_move]
        cdef uint64_t them = board.stones[board.side_to_move ^ 1]
        return self.side_terms(board, me, them, mine) - self.side_terms(board, them, me, theirs)

    def explain(self, Position position):
        cdef ConnectFour board = <ConnectFour?> position
        cdef int[4] mine, theirs
        cdef uint64_t me = board.stones[board.side_to_move]
        cdef uint64_t them = board.stones[board.side_to_move ^ 1]
        self.side_terms(board, me, them, mine)
        self.side_terms(board, them, me, theirs)
        names = ("threat cells", "open threes", "open twos", "centre stones")
        return {name: mine[i] - theirs[i] for i, name in enumerate(names)}
