# cython: language_level=3, boundscheck=False, wraparound=False
"""TRGD, "tres en raya generalizado con deslizamiento" (seed-004 §3).

Sixteen points on two concentric squares joined at the midpoints of their sides (the
adjacency of the thesis's Min-Max program, which is symmetric)::

     1 ------- 2 ------- 3
     |         |         |
     |   10 -- 11 -- 12  |
     |   |           |   |
     8 - 9           13 - 4
     |   |           |   |
     |   16 -- 15 -- 14  |
     |         |         |
     7 ------- 6 ------- 5

Each player has three pieces. MAX (player 0, "+") moves first. While a player has pieces in
hand, a move places one on an empty point; once both have placed all three, a move slides an
own piece to an adjacent empty point. Whoever first has three pieces on one of the 8 lines
(the sides of both squares) wins.

The thesis has no repetition or ply rule, and none for a player who cannot slide. That last
case cannot arise on this board: the points next to any three points that are not a line
number at least four, and the opponent has only three pieces (``test_trgd.py`` checks it
exhaustively), so no rule is needed. Options (the thesis's behaviour in brackets):

* ``first_moves``: ``"all"`` (16 opening placements, the default) or ``"thesis"`` (only 1, 2,
  9, 10: the thesis's symmetry reduction of the first move) [thesis];
* ``repetition``: the same position with the same side to move for the ``repetition``-th time
  is a draw; 0 switches it off [0]. Default 3: with it, every game ends.
* ``max_plies``: a draw after this many plies from the start; 0 switches it off [0; default 0].

``trgd(first_moves=thesis, repetition=0, max_plies=0)`` is the thesis's game.

Moves: a placement on point ``p`` is the int ``p - 1`` and reads ``"p"``; a slide from ``f``
to ``t`` is ``SLIDE_BASE + 16 (f - 1) + (t - 1)`` and reads ``"f-t"``. Generation order is the
thesis's: placements on empty points ascending; slides by own piece ascending, then by the
thesis's neighbour list order. ``to_string()`` is ``"<max points>/<min points> <side> <ply>"``,
e.g. ``"1,7,9/4,12,14 + 12"`` (side ``+`` is MAX, ``-`` is MIN).
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc

from alfabeta.core.position cimport (
    RESULT_DRAW,
    RESULT_LOSS,
    RESULT_ONGOING,
    Position,
    splitmix64,
)

from alfabeta.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError

# The Min-Max program's `vecinos` (L2503), 1-based, in the thesis's list order.
ADJACENCY = {
    1: (2, 8), 2: (1, 3, 11), 3: (2, 4), 4: (3, 5, 13), 5: (4, 6), 6: (5, 7, 15),
    7: (6, 8), 8: (7, 9, 1), 9: (8, 10, 16), 10: (9, 11), 11: (10, 12, 2), 12: (11, 13),
    13: (12, 14, 4), 14: (13, 15), 15: (14, 16, 6), 16: (9, 15),
}
LINES = ((1, 2, 3), (3, 4, 5), (5, 6, 7), (1, 7, 8), (9, 10, 16), (10, 11, 12), (12, 13, 14),
         (14, 15, 16))
THESIS_FIRST_MOVES = (1, 2, 9, 10)

cdef int[16][3] NEIGHBOURS
cdef int[16] NEIGHBOUR_COUNT
cdef unsigned int[16] NEIGHBOUR_MASK
cdef uint64_t[2][16] ZOBRIST
cdef uint64_t ZOBRIST_SIDE = splitmix64(0x7472676473696465ULL)


def _init_tables():
    cdef int p, i, side
    for p in range(16):
        neighbours = ADJACENCY[p + 1]
        NEIGHBOUR_COUNT[p] = len(neighbours)
        NEIGHBOUR_MASK[p] = 0
        for i, q in enumerate(neighbours):
            NEIGHBOURS[p][i] = q - 1
            NEIGHBOUR_MASK[p] |= 1u << (q - 1)
    for i, line in enumerate(LINES):
        LINE_MASKS[i] = sum(1 << (q - 1) for q in line)
    for side in range(2):
        for p in range(16):
            ZOBRIST[side][p] = splitmix64(0x7472676400000000ULL + 16 * side + p)


_init_tables()

cdef extern from *:
    int popcount "__builtin_popcount"(unsigned int) nogil


cdef int haux(unsigned int max_mask, unsigned int min_mask, unsigned int line) noexcept nogil:
    """HAUX of one line (seed-004 §3.4), from MAX's side: ±100 for a completed line, ±1 for a
    line holding pieces of one side only, 0 for an empty or shared line."""
    if max_mask & line == line:
        return 100
    if min_mask & line == line:
        return -100
    if max_mask & line:
        return 0 if min_mask & line else 1
    return -1 if min_mask & line else 0


cdef int line_sum(unsigned int max_mask, unsigned int min_mask) noexcept nogil:
    """Σ HAUX over the 8 lines, from MAX's side."""
    cdef int total = 0, i
    for i in range(TRGD_LINES):
        total += haux(max_mask, min_mask, LINE_MASKS[i])
    return total


def lines_score(max_points, min_points):
    """``line_sum`` of the board with MAX on ``max_points`` and MIN on ``min_points`` (1-based):
    the thesis's Σ HAUX, from MAX's side."""
    return line_sum(_mask(max_points), _mask(min_points))


def _mask(points):
    mask = 0
    for p in points:
        mask |= 1 << (p - 1)
    return mask


def _points(unsigned int mask):
    return [p + 1 for p in range(16) if mask >> p & 1]


cdef bint _has_line(unsigned int mask) noexcept:
    cdef int i
    for i in range(TRGD_LINES):
        if mask & LINE_MASKS[i] == LINE_MASKS[i]:
            return True
    return False


cdef class TRGD(Position):
    """The TRGD board game; see the module docstring for rules, options and notation."""

    name = "trgd"
    bench_positions = ("/ + 0", "1,9/10 - 3", "1,2,12/9,10,15 + 6", "1,7,9/4,12,14 + 6")
    default_evaluator = "trgd-lines"

    def __init__(self, first_moves="all", repetition=3, max_plies=0):
        if first_moves not in ("all", "thesis"):
            raise InvalidOptionError(
                f"trgd option first_moves={first_moves!r}: expected 'all' or 'thesis'"
            )
        for option, value in (("repetition", repetition), ("max_plies", max_plies)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidOptionError(
                    f"trgd option {option}={value!r}: expected a whole number >= 0 (0 is off)"
                )
        if repetition == 1:
            raise InvalidOptionError("trgd option repetition=1 would end every game at once")
        self.thesis_first_moves = first_moves == "thesis"
        self.repetition = repetition
        self.max_plies = max_plies
        self.max_moves = 16
        self._set(0, 0, 0, 0)

    def __dealloc__(self):
        free(self.history)

    def _set(self, unsigned int max_mask, unsigned int min_mask, int side, int ply):
        self.max_mask, self.min_mask, self.side_to_move, self.ply = max_mask, min_mask, side, ply
        self.zobrist = self._compute_key()
        if self.history == NULL:
            self.capacity = 64
            self.history = <uint64_t*> malloc(self.capacity * sizeof(uint64_t))
            if self.history == NULL:
                raise MemoryError()
        self.history[0] = self.zobrist
        self.top = 1
        self._stack = []

    cdef uint64_t _compute_key(self):
        cdef uint64_t key = ZOBRIST_SIDE if self.side_to_move else 0
        cdef int p
        for p in range(16):
            if self.max_mask >> p & 1:
                key ^= ZOBRIST[0][p]
            elif self.min_mask >> p & 1:
                key ^= ZOBRIST[1][p]
        return key

    cdef int _grow(self) except -1:
        cdef uint64_t* grown = <uint64_t*> realloc(
            self.history, 2 * self.capacity * sizeof(uint64_t))
        if grown == NULL:
            raise MemoryError()
        self.history = grown
        self.capacity *= 2
        return 0

    cdef int generate(self, int* out) except -1:
        cdef unsigned int own = self.min_mask if self.side_to_move else self.max_mask
        cdef unsigned int occupied = self.max_mask | self.min_mask
        cdef int count = 0, p, i, q
        if self.c_outcome() != RESULT_ONGOING:
            return 0
        if popcount(own) < TRGD_PIECES:
            if self.thesis_first_moves and occupied == 0:
                out[0], out[1], out[2], out[3] = 0, 1, 8, 9
                return 4
            for p in range(16):
                if not occupied >> p & 1:
                    out[count] = p
                    count += 1
            return count
        for p in range(16):
            if own >> p & 1:
                for i in range(NEIGHBOUR_COUNT[p]):
                    q = NEIGHBOURS[p][i]
                    if not occupied >> q & 1:
                        out[count] = SLIDE_BASE + 16 * p + q
                        count += 1
        return count

    cdef int make(self, int move) except -1:
        cdef int side = self.side_to_move
        cdef int to, origin
        if move < SLIDE_BASE:
            to = move
            self.zobrist ^= ZOBRIST[side][to]
        else:
            origin = (move - SLIDE_BASE) >> 4
            to = (move - SLIDE_BASE) & 15
            self.zobrist ^= ZOBRIST[side][origin] ^ ZOBRIST[side][to]
            if side:
                self.min_mask ^= 1u << origin
            else:
                self.max_mask ^= 1u << origin
        if side:
            self.min_mask |= 1u << to
        else:
            self.max_mask |= 1u << to
        self.zobrist ^= ZOBRIST_SIDE
        self.side_to_move = side ^ 1
        self.ply += 1
        if self.top == self.capacity:
            self._grow()
        self.history[self.top] = self.zobrist
        self.top += 1
        return 0

    cdef int unmake(self, int move) except -1:
        cdef int side = self.side_to_move ^ 1
        cdef int to, origin
        self.top -= 1
        self.ply -= 1
        self.side_to_move = side
        self.zobrist = self.history[self.top - 1]
        if move < SLIDE_BASE:
            to = move
        else:
            origin = (move - SLIDE_BASE) >> 4
            to = (move - SLIDE_BASE) & 15
            if side:
                self.min_mask |= 1u << origin
            else:
                self.max_mask |= 1u << origin
        if side:
            self.min_mask &= ~(1u << to)
        else:
            self.max_mask &= ~(1u << to)
        return 0

    cdef int c_outcome(self) except -1:
        cdef unsigned int other = self.max_mask if self.side_to_move else self.min_mask
        cdef int seen, i
        if popcount(other) == TRGD_PIECES and _has_line(other):
            return RESULT_LOSS
        if self.repetition:
            seen = 1
            i = self.top - 3
            while i >= 0:
                if self.history[i] == self.zobrist:
                    seen += 1
                    if seen >= self.repetition:
                        return RESULT_DRAW
                i -= 2
        if self.max_plies and self.ply >= self.max_plies:
            return RESULT_DRAW
        return RESULT_ONGOING

    cdef bint make_null(self) except -1:
        """A pass, for null-move pruning: only in the sliding phase (during placement the
        piece counts fix whose turn it is)."""
        if popcount(self.max_mask) < TRGD_PIECES or popcount(self.min_mask) < TRGD_PIECES:
            return False
        self.zobrist ^= ZOBRIST_SIDE
        self.side_to_move ^= 1
        if self.top == self.capacity:
            self._grow()
        self.history[self.top] = self.zobrist
        self.top += 1
        return True

    cdef int unmake_null(self) except -1:
        self.top -= 1
        self.zobrist = self.history[self.top - 1]
        self.side_to_move ^= 1
        return 0

    cdef uint64_t c_key(self) except? 0:
        return self.zobrist

    # ---- Python API -------------------------------------------------------------------------
    def termination(self):
        """Why the game is over: "line", "repetition" or "ply limit" ("" while ongoing)."""
        status = self.c_outcome()
        if status == RESULT_LOSS:
            return "line"
        if status == RESULT_DRAW:
            return "ply limit" if self.max_plies and self.ply >= self.max_plies else "repetition"
        return ""

    def options(self):
        return {
            "first_moves": "thesis" if self.thesis_first_moves else "all",
            "repetition": self.repetition,
            "max_plies": self.max_plies,
        }

    @property
    def path_independent(self):
        """True without the repetition and ply rules: outcome() then reads the board alone."""
        return self.repetition == 0 and self.max_plies == 0

    def without_path_rules(self):
        """This position in the game without its repetition and ply rules."""
        variant = TRGD(first_moves=self.options()["first_moves"], repetition=0, max_plies=0)
        return variant.from_string(self.to_string())

    def pieces(self, int side):
        """The points (1-based, ascending) holding ``side``'s pieces (0 is MAX)."""
        return _points(self.min_mask if side else self.max_mask)

    def thesis_cota(self):
        """JUG-AB's depth bound for TRGD (seed-004, L3289): 1 + the number of MAX pieces on
        the board; the thesis searchers use it when given neither ``cota`` nor a depth."""
        return 1 + len(self.pieces(0))

    def to_string(self):
        max_points = ",".join(map(str, _points(self.max_mask)))
        min_points = ",".join(map(str, _points(self.min_mask)))
        return f"{max_points}/{min_points} {'-' if self.side_to_move else '+'} {self.ply}"

    def from_string(self, text):
        """A position of this game (same rules) from ``"<max>/<min> <side> [ply]"``."""
        fields = text.split()
        if len(fields) not in (2, 3) or fields[0].count("/") != 1:
            raise InvalidPositionError(
                f"trgd position {text!r}: expected '<max points>/<min points> <+|-> [ply]', "
                f"e.g. '1,7,9/4,12,14 + 12'"
            )
        halves = fields[0].split("/")
        sides = []
        for who, half in zip(("MAX", "MIN"), halves):
            points = []
            for item in filter(None, half.split(",")):
                if not item.isdigit() or not 1 <= int(item) <= 16:
                    raise InvalidPositionError(
                        f"trgd position {text!r}: {who} point {item!r} is not a point 1..16"
                    )
                points.append(int(item))
            if len(set(points)) != len(points):
                raise InvalidPositionError(f"trgd position {text!r}: {who} repeats a point")
            if len(points) > TRGD_PIECES:
                raise InvalidPositionError(
                    f"trgd position {text!r}: {who} has {len(points)} pieces; each side has 3"
                )
            sides.append(points)
        if set(sides[0]) & set(sides[1]):
            raise InvalidPositionError(
                f"trgd position {text!r}: point(s) {sorted(set(sides[0]) & set(sides[1]))} "
                "hold pieces of both sides"
            )
        if fields[1] not in ("+", "-"):
            raise InvalidPositionError(
                f"trgd position {text!r}: side to move must be '+' (MAX) or '-' (MIN), "
                f"got {fields[1]!r}"
            )
        side = 1 if fields[1] == "-" else 0
        placed_max, placed_min = len(sides[0]), len(sides[1])
        if placed_max < 3 or placed_min < 3:
            expected = 0 if placed_max == placed_min else 1
            if placed_max - placed_min not in (0, 1):
                raise InvalidPositionError(
                    f"trgd position {text!r}: MAX moves first, so MAX has as many pieces as "
                    f"MIN or one more during placement ({placed_max} vs {placed_min})"
                )
            if side != expected:
                raise InvalidPositionError(
                    f"trgd position {text!r}: with {placed_max} MAX and {placed_min} MIN "
                    f"pieces placed it is {'MIN' if expected else 'MAX'}'s turn"
                )
        max_mask, min_mask = _mask(sides[0]), _mask(sides[1])
        own = min_mask if side else max_mask
        if len(sides[side]) == 3 and _has_line(own):
            raise InvalidPositionError(
                f"trgd position {text!r}: the side to move already has a line; the game "
                "ended when it was made"
            )
        ply = placed_max + placed_min
        if len(fields) == 3:
            if not fields[2].isdigit() or int(fields[2]) < placed_max + placed_min:
                raise InvalidPositionError(
                    f"trgd position {text!r}: ply must be a whole number >= the pieces placed"
                )
            ply = int(fields[2])
        position = TRGD(**self.options())
        position._set(max_mask, min_mask, side, ply)
        return position

    def move_str(self, move):
        if not isinstance(move, int) or not 0 <= move < SLIDE_BASE + 256:
            raise IllegalMoveError(f"{move!r} is not a trgd move")
        if move < SLIDE_BASE:
            return str(move + 1)
        return f"{(move - SLIDE_BASE) // 16 + 1}-{(move - SLIDE_BASE) % 16 + 1}"

    def parse_move(self, text):
        """``"p"`` places on point p; ``"f-t"`` slides from f to t."""
        parts = str(text).strip().split("-")
        if not 1 <= len(parts) <= 2 or not all(p.isdigit() and 1 <= int(p) <= 16 for p in parts):
            raise IllegalMoveError(
                f"{text!r} is not a trgd move: write 'p' to place on point p or 'f-t' to slide"
            )
        if len(parts) == 1:
            move = int(parts[0]) - 1
        else:
            move = SLIDE_BASE + 16 * (int(parts[0]) - 1) + int(parts[1]) - 1
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"{text!r} is not legal here ({self.to_string()}); legal: "
                + " ".join(self.move_str(m) for m in self.legal_moves())
            )
        return move

    def __str__(self):
        def cell(p):
            if self.max_mask >> (p - 1) & 1:
                return "X"
            if self.min_mask >> (p - 1) & 1:
                return "O"
            return "."
        c = {p: cell(p) for p in range(1, 17)}
        rows = [
            f"{c[1]}-----{c[2]}-----{c[3]}      1-----2-----3",
            "|     |     |      |     |     |",
            f"| {c[10]}---{c[11]}---{c[12]} |      |10--11--12 |",
            f"{c[8]}-{c[9]}       {c[13]}-{c[4]}      8-9      13-4",
            f"| {c[16]}---{c[15]}---{c[14]} |      |16--15--14 |",
            "|     |     |      |     |     |",
            f"{c[7]}-----{c[6]}-----{c[5]}      7-----6-----5",
            f"{'O (MIN)' if self.side_to_move else 'X (MAX)'} to move, ply {self.ply}",
        ]
        return "\n".join(rows)
