# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Connect Four, 7 columns × 6 rows, on bitboards (the benchmark game shared with easyAI and
OpenSpiel). ``connect-four(width=W, height=H)`` plays on a smaller board (4 ≤ W ≤ 7,
4 ≤ H ≤ 6), the boards whose values the literature publishes (e.g. 4×4 and 5×4 are draws).

Bit ``7 c + r`` is row ``r`` (0 at the bottom) of column ``c``; the seventh bit of each column
is an always-empty sentinel, so shifts never wrap. A move is a column 0..6 and reads 1..7;
moves are generated centre first (4 3 5 2 6 1 7), the order that makes alpha-beta efficient.
On a smaller board the cells above its height and the columns beyond its width stay empty, so
the same shifts find every four.
The first player (0) is ``x``. ``to_string()`` lists the columns played so far, e.g. ``"4453"``
(``""`` for the empty board); ``from_string`` replays them. There is no null move: Connect Four
is a game of zugzwang. ``is_tactical`` marks positions where the opponent threatens to win
next move; ``noisy_moves`` are the moves that win or stop such a threat.
"""

from libc.stdint cimport uint64_t

from alfabeta.core.position cimport RESULT_DRAW, RESULT_LOSS, RESULT_ONGOING, Position, splitmix64

from alfabeta.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError

cdef uint64_t BOTTOM = 0x40810204081ULL       # bit 0 of every column
cdef uint64_t BOARD = BOTTOM * 63ULL           # the 42 cells


cdef int[4] DIRECTIONS = [1, 7, 6, 8]  # vertical, horizontal, the two diagonals


cdef bint has_four(uint64_t own) noexcept nogil:
    cdef uint64_t m
    cdef int i, s
    for i in range(4):
        s = DIRECTIONS[i]
        m = own & (own >> s)
        if m & (m >> (2 * s)):
            return True
    return False


cdef uint64_t winning_cells(uint64_t own, uint64_t occupied) noexcept nogil:
    """Empty cells that would give ``own`` four in a row (playable now or not)."""
    cdef uint64_t r = (own << 1) & (own << 2) & (own << 3), t
    cdef int i, s
    for i in range(1, 4):
        s = DIRECTIONS[i]
        t = (own << s) & (own << (2 * s))
        r |= t & (own << (3 * s))
        r |= t & (own >> s)
        t = (own >> s) & (own >> (2 * s))
        r |= t & (own << s)
        r |= t & (own >> (3 * s))
    return r & (BOARD ^ occupied)


cdef class ConnectFour(Position):
    """Connect Four; see the module docstring."""

    name = "connect-four"
    bench_positions = ("", "4453", "4444333", "43443552", "3344575")
    default_evaluator = "connect-four-threats"

    def __init__(self, width=7, height=6):
        for option, value, low, high in (("width", width, 4, C4_WIDTH),
                                         ("height", height, 4, C4_HEIGHT)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidOptionError(
                    f"connect-four option {option}={value!r}: expected {low} … {high}")
        self.width, self.rows = width, height
        self.bottom = self.board = self.centre = 0
        for c in range(width):
            self.bottom |= 1ULL << (C4_STRIDE * c)
            self.board |= ((1ULL << height) - 1) << (C4_STRIDE * c)
        for c in ((width - 1) // 2, width // 2):
            self.centre |= ((1ULL << height) - 1) << (C4_STRIDE * c)
        for i, c in enumerate(sorted(range(width), key=lambda c: (abs(2 * c - width + 1), c))):
            self.order[i] = c
        self.max_moves = width
        self.stones[0] = self.stones[1] = 0
        for c in range(C4_WIDTH):
            self.height[c] = 0
        self.count = 0
        self.side_to_move = 0

    cdef uint64_t occupied(self) noexcept:
        return self.stones[0] | self.stones[1]

    cdef uint64_t playable(self) noexcept:
        """The cell each non-full column would take next."""
        return (self.occupied() + self.bottom) & self.board

    cdef int generate(self, int* out) except -1:
        cdef int n = 0, i, c
        if self.c_outcome() != RESULT_ONGOING:
            return 0
        for i in range(self.width):
            c = self.order[i]
            if self.height[c] < self.rows:
                out[n] = c
                n += 1
        return n

    cdef int generate_noisy(self, int* out) except -1:
        cdef uint64_t hot = (winning_cells(self.stones[0], self.occupied())
                             | winning_cells(self.stones[1], self.occupied())) & self.playable()
        cdef int n = 0, i, c
        if self.c_outcome() != RESULT_ONGOING:
            return 0
        for i in range(self.width):
            c = self.order[i]
            if self.height[c] < self.rows and hot >> (C4_STRIDE * c + self.height[c]) & 1:
                out[n] = c
                n += 1
        return n

    cdef bint is_tactical(self) except -1:
        return (winning_cells(self.stones[self.side_to_move ^ 1], self.occupied())
                & self.playable()) != 0

    cdef int make(self, int move) except -1:
        self.stones[self.side_to_move] |= 1ULL << (C4_STRIDE * move + self.height[move])
        self.height[move] += 1
        self.count += 1
        self.side_to_move ^= 1
        return 0

    cdef int unmake(self, int move) except -1:
        self.side_to_move ^= 1
        self.count -= 1
        self.height[move] -= 1
        self.stones[self.side_to_move] &= ~(1ULL << (C4_STRIDE * move + self.height[move]))
        return 0

    cdef int c_outcome(self) except -1:
        if has_four(self.stones[self.side_to_move ^ 1]):
            return RESULT_LOSS
        if self.count == self.width * self.rows:
            return RESULT_DRAW
        return RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        # the stones of the side to move plus all stones identify the position (with the
        # side to move, which the stone count fixes)
        return splitmix64(self.stones[self.side_to_move] + self.occupied() + BOTTOM)

    # ---- Python API -------------------------------------------------------------------------
    def options(self):
        if (self.width, self.rows) == (C4_WIDTH, C4_HEIGHT):
            return {}
        return {"width": self.width, "height": self.rows}

    path_independent = True  # outcome() reads the board alone: retrograde analysis applies

    def columns_played(self):
        return "".join(str(m + 1) for m in self._stack)

    def to_string(self):
        """The board, rows top to bottom (``x``, ``o``, ``.``) joined by ``/``, then the side
        to move."""
        rows = []
        for r in range(self.rows - 1, -1, -1):
            row = ""
            for c in range(self.width):
                bit = 1 << (C4_STRIDE * c + r)
                row += "x" if self.stones[0] & bit else "o" if self.stones[1] & bit else "."
            rows.append(row)
        return "/".join(rows) + " " + "xo"[self.side_to_move]

    def from_string(self, text):
        """From ``to_string()``'s board (``"......./... x"``) or a string of columns played
        (``"4453"``)."""
        cdef ConnectFour position = ConnectFour(self.width, self.rows)
        text = text.strip()
        if not text or text.isdigit():
            for ch in text:
                try:
                    position.push(position.parse_move(ch))
                except IllegalMoveError as error:
                    raise InvalidPositionError(f"connect-four moves {text!r}: {error}") from None
            position._stack = []
            return position
        fields = text.split()
        rows = fields[0].split("/") if fields else []
        if len(fields) != 2 or len(rows) != self.rows or any(len(r) != self.width for r in rows) \
                or set("".join(rows)) - set("xo.") or fields[1] not in ("x", "o"):
            raise InvalidPositionError(
                f"connect-four position {text!r}: expected {self.rows} rows of {self.width} "
                "cells (x, o, .) top row first, separated by /, then x or o to move; or the "
                "columns played"
            )
        for c in range(self.width):
            column = [rows[self.rows - 1 - r][c] for r in range(self.rows)]
            filled = "".join(column).rstrip(".")
            if "." in filled:
                raise InvalidPositionError(
                    f"connect-four position {text!r}: column {c + 1} has a gap below a stone"
                )
            for r, cell in enumerate(filled):
                position.stones["xo".index(cell)] |= 1ULL << (C4_STRIDE * c + r)
            position.height[c] = len(filled)
            position.count += len(filled)
        xs, os = bin(position.stones[0]).count("1"), bin(position.stones[1]).count("1")
        side = "xo".index(fields[1])
        if xs - os != side:
            raise InvalidPositionError(
                f"connect-four position {text!r}: with {xs} x and {os} o it is "
                f"{'o' if xs > os else 'x'}'s turn" if xs - os in (0, 1)
                else f"connect-four position {text!r}: {xs} x and {os} o cannot happen"
            )
        position.side_to_move = side
        if has_four(position.stones[side]):
            raise InvalidPositionError(
                f"connect-four position {text!r}: the side to move already has four in a row"
            )
        if has_four(position.stones[side ^ 1]) and has_four(position.stones[side]):
            raise InvalidPositionError(f"connect-four position {text!r}: both have four")
        return position

    def move_str(self, move):
        """The column's number, 1 … width; IllegalMoveError for anything else."""
        if not isinstance(move, int) or not 0 <= move < self.width:
            raise IllegalMoveError(
                f"{move!r} is not a connect-four move: a column 0..{self.width - 1}")
        return str(move + 1)

    def parse_move(self, text):
        text = str(text).strip()
        if not text.isdigit() or not 1 <= int(text) <= self.width:
            raise IllegalMoveError(
                f"{text!r} is not a connect-four move: give a column 1..{self.width}")
        move = int(text) - 1
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"column {text} is full" if self.height[move] == self.rows
                else "the game is over"
            )
        return move

    def __str__(self):
        rows = self.to_string().split()[0].split("/")
        lines = [" ".join(row) for row in rows]
        lines.append(" ".join(str(c + 1) for c in range(self.width)))
        lines.append(f"{'xo'[self.side_to_move]} to move")
        return "\n".join(lines)
