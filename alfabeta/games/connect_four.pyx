# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Connect Four, 7 columns × 6 rows, on bitboards (the benchmark game shared with easyAI and
OpenSpiel).

Bit ``7 c + r`` is row ``r`` (0 at the bottom) of column ``c``; the seventh bit of each column
is an always-empty sentinel, so shifts never wrap. A move is a column 0..6 and reads 1..7;
moves are generated centre first (4 3 5 2 6 1 7), the order that makes alpha-beta efficient.
The first player (0) is ``x``. ``to_string()`` lists the columns played so far, e.g. ``"4453"``
(``""`` for the empty board); ``from_string`` replays them. There is no null move: Connect Four
is a game of zugzwang. ``is_tactical`` marks positions where the opponent threatens to win
next move; ``noisy_moves`` are the moves that win or stop such a threat.
"""

from libc.stdint cimport uint64_t

from alfabeta.core.position cimport RESULT_DRAW, RESULT_LOSS, RESULT_ONGOING, Position, splitmix64

from alfabeta.core.errors import IllegalMoveError, InvalidPositionError

cdef int[7] ORDER = [3, 2, 4, 1, 5, 0, 6]
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

    def __init__(self):
        self.max_moves = C4_WIDTH
        self.stones[0] = self.stones[1] = 0
        for c in range(C4_WIDTH):
            self.height[c] = 0
        self.count = 0
        self.side_to_move = 0

    cdef uint64_t occupied(self) noexcept:
        return self.stones[0] | self.stones[1]

    cdef uint64_t playable(self) noexcept:
        """The cell each non-full column would take next."""
        return (self.occupied() + BOTTOM) & BOARD

    cdef int generate(self, int* out) except -1:
        cdef int n = 0, i, c
        if self.c_outcome() != RESULT_ONGOING:
            return 0
        for i in range(C4_WIDTH):
            c = ORDER[i]
            if self.height[c] < C4_HEIGHT:
                out[n] = c
                n += 1
        return n

    cdef int generate_noisy(self, int* out) except -1:
        cdef uint64_t hot = (winning_cells(self.stones[0], self.occupied())
                             | winning_cells(self.stones[1], self.occupied())) & self.playable()
        cdef int n = 0, i, c
        if self.c_outcome() != RESULT_ONGOING:
            return 0
        for i in range(C4_WIDTH):
            c = ORDER[i]
            if self.height[c] < C4_HEIGHT and hot >> (C4_STRIDE * c + self.height[c]) & 1:
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
        if self.count == C4_WIDTH * C4_HEIGHT:
            return RESULT_DRAW
        return RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        # the stones of the side to move plus all stones identify the position (with the
        # side to move, which the stone count fixes)
        return splitmix64(self.stones[self.side_to_move] + self.occupied() + BOTTOM)

    # ---- Python API -------------------------------------------------------------------------
    def options(self):
        return {}

    def columns_played(self):
        return "".join(str(m + 1) for m in self._stack)

    def to_string(self):
        """The board, rows top to bottom (``x``, ``o``, ``.``) joined by ``/``, then the side
        to move."""
        rows = []
        for r in range(C4_HEIGHT - 1, -1, -1):
            row = ""
            for c in range(C4_WIDTH):
                bit = 1 << (C4_STRIDE * c + r)
                row += "x" if self.stones[0] & bit else "o" if self.stones[1] & bit else "."
            rows.append(row)
        return "/".join(rows) + " " + "xo"[self.side_to_move]

    def from_string(self, text):
        """From ``to_string()``'s board (``"......./... x"``) or a string of columns played
        (``"4453"``)."""
        cdef ConnectFour position = ConnectFour()
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
        if len(fields) != 2 or len(rows) != C4_HEIGHT or any(len(r) != C4_WIDTH for r in rows) \
                or set("".join(rows)) - set("xo.") or fields[1] not in ("x", "o"):
            raise InvalidPositionError(
                f"connect-four position {text!r}: expected 6 rows of 7 cells (x, o, .) "
                "top row first, separated by /, then x or o to move; or the columns played"
            )
        for c in range(C4_WIDTH):
            column = [rows[C4_HEIGHT - 1 - r][c] for r in range(C4_HEIGHT)]
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
        return str(move + 1)

    def parse_move(self, text):
        text = str(text).strip()
        if not text.isdigit() or not 1 <= int(text) <= C4_WIDTH:
            raise IllegalMoveError(f"{text!r} is not a connect-four move: give a column 1..7")
        move = int(text) - 1
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"column {text} is full" if self.height[move] == C4_HEIGHT
                else "the game is over"
            )
        return move

    def __str__(self):
        rows = self.to_string().split()[0].split("/")
        lines = [" ".join(row) for row in rows]
        lines.append("1 2 3 4 5 6 7")
        lines.append(f"{'xo'[self.side_to_move]} to move")
        return "\n".join(lines)
