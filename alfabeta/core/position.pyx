# cython: language_level=3, boundscheck=False, wraparound=False
"""The Position base type: C-level virtual methods for searchers, and the Python API every
game shares (legal_moves, push, pop, outcome, key, copy, strings, pickling), built once here
on top of the C-level methods."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from numbers import Integral
from operator import index

from alfabeta.core.errors import EmptyStackError, IllegalMoveError
from alfabeta.core.result import Result


cdef extern from *:
    """
    #ifndef ALFABETA_BUILD_FLAGS
    #define ALFABETA_BUILD_FLAGS "unknown"
    #endif
    """
    const char* ALFABETA_BUILD_FLAGS

BUILD_FLAGS = ALFABETA_BUILD_FLAGS.decode()
"""The extra compiler flags setup.py built the compiled core with: the processor's
instructions (``-mavx2``…) and, in a profile-guided build, ``-fprofile-use``; ``unknown``
for a build by other means."""

# The C-level outcome codes by name, for checking that ``Result`` mirrors them.
RESULT_CODES = {"ONGOING": RESULT_ONGOING, "WIN": RESULT_WIN, "LOSS": RESULT_LOSS,
                "DRAW": RESULT_DRAW, "LEAF": RESULT_LEAF}


cdef uint64_t splitmix64(uint64_t x) noexcept nogil:
    """A fixed 64-bit mixer: deterministic Zobrist tables and hashes across runs."""
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


def _rebuild(cls, options, root, moves):
    """Unpickle: a fresh position from its options and root string, then the moves replayed."""
    position = cls(**options).from_string(root)
    for move in moves:
        position.push(move)
    return position


cdef object move_number(object move):
    """``move`` as a Python int if it is an integer (numpy's too), else None. A bool is not a
    move, though Python counts True as 1."""
    if isinstance(move, bool) or not isinstance(move, Integral):
        return None
    return index(move)


cdef enum:
    MOVES_LEGAL, MOVES_NOISY, MOVES_CHECKS  # which generator ``_moves`` asks


cdef class Position:
    """A mutable game state with make/unmake.

    Subclasses implement the C-level methods (``generate``, ``make``, ``unmake``,
    ``c_outcome``, ``c_key``, and optionally ``generate_noisy``, ``mark_noisy``,
    ``generate_checks``, ``order_hint``, ``move_class``, ``threat_hints``, ``exchange``,
    ``repeats``, ``upcoming_repetition``,
    ``make_null``, ``unmake_null``, ``is_tactical``, ``c_structure_key``;
    ``make_null`` returns False where the game has no pass move or the position is
    zugzwang-prone, and null-move pruning is then skipped) and the
    Python methods ``options``, ``to_string``, ``from_string``,
    ``move_str``, ``parse_move`` and ``__str__``; this base builds the rest of the Python API.
    ``side_to_move`` is a field each game keeps current in make/unmake.
    """

    name = "position"

    def __cinit__(self, *args, **kwargs):
        self._stack = []
        self._root = None
        self.max_moves = 1

    # ---- C level: overridden by every game -------------------------------------------------
    cdef int generate(self, int* out) except -1:
        raise NotImplementedError(f"{type(self).__name__} does not generate moves")

    cdef int generate_all(self, int* out) except -1:
        """The moves the rules of movement allow, even where a draw rule (repetition, fifty
        moves, insufficient material) has ended the game: what perft counts. By default
        the legal moves."""
        return self.generate(out)

    cdef int generate_noisy(self, int* out) except -1:
        return 0

    cdef int mark_noisy(self, int* moves, int count, unsigned char* flags,
                        int* scratch) except -1:
        """Set ``flags[i]`` to whether ``moves[i]`` (moves of this position) is one of
        ``generate_noisy``'s, for the move picker; ``scratch`` has room for ``max_moves``
        moves. Default: the noisy moves are generated into ``scratch`` and each move looked
        up there; a game that can tell a noisy move by itself (chess: a capture or a
        promotion) overrides it to save that generation."""
        cdef int i, j, noisy_count = self.generate_noisy(scratch)
        for i in range(count):
            flags[i] = False
            for j in range(noisy_count):
                if scratch[j] == moves[i]:
                    flags[i] = True
                    break
        return 0

    cdef int generate_checks(self, int* out) except -1:
        """The quiet moves (none of ``generate_noisy``'s) that leave the opponent in a
        tactical position: checks, in chess. Quiescence may follow them at its first ply
        (``qs_checks``). Default: none."""
        return 0

    cdef int make(self, int move) except -1:
        raise NotImplementedError(f"{type(self).__name__} does not make moves")

    cdef int unmake(self, int move) except -1:
        raise NotImplementedError(f"{type(self).__name__} does not unmake moves")

    cdef bint make_null(self) except -1:
        return False

    cdef int unmake_null(self) except -1:
        return 0

    cdef bint is_tactical(self) except -1:
        """True where the game wants a search extended ("continuación heurística"): a threat
        to answer, a king in check. Default: never."""
        return False

    cdef int order_hint(self, int move) noexcept:
        """How promising a move is, for ordering: higher is tried first. A noisy move: from 0
        to 2**30 (MVV-LVA in chess). A quiet move: a small static guess from −64 to 64 that
        orders quiet moves the history knows nothing of (``quiet_hint``; chess: how much
        better the piece stands). Default: 0, the generation order."""
        return 0

    cdef int move_class(self, int move) noexcept:
        """The class of a legal ``move`` of this position, 0 … ``MOVE_CLASSES`` − 1, for the
        picker's continuation histories (``conthist``), which learn what answers what by
        class: moves that a reply treats alike share one (chess: the moving piece and its
        target square, as Stockfish's piece-to histories). Default: the move modulo
        ``MOVE_CLASSES``."""
        return <int> (<unsigned int> move % MOVE_CLASSES)

    cdef void threat_hints(self, int* moves, int count, int* out) noexcept:
        """For the picker's ``threat_order``: ``out[i]`` (−2**15 … 2**15) is added to the
        history score of ``moves[i]`` where that move is quiet (noisy moves' values are
        ignored): what the position's threats say of it (chess: a piece attacked by a
        cheaper one moving out of that attack, a piece moved into one, a move that gives
        check). Default: 0 for each."""
        cdef int i
        for i in range(count):
            out[i] = 0

    cdef int exchange(self, int move) noexcept:
        """The static exchange value of a noisy ``move`` for the side making it: what it wins
        (in the evaluator's units) once every capture on the target square that pays has been
        made (chess: SEE). Negative means the move loses material. Default: 0 (unknown: never
        pruned)."""
        return 0

    cdef bint repeats(self, int plies) noexcept:
        """Has this position occurred before, within the last ``plies`` plies (a search's
        path from its root)? A search scores such a repetition as a draw: the side that
        could avoid it would. Default: never (games without repetitions)."""
        return False

    cdef bint upcoming_repetition(self, int plies) noexcept:
        """Can the side to move, by one legal move, reach a position that repeats: one
        within the last ``plies`` plies (the search's path), or an earlier one that has
        occurred twice already? A search may then count the node at least a draw.
        Default: never."""
        return False

    cdef int c_outcome(self) except -1:
        raise NotImplementedError(f"{type(self).__name__} has no outcome()")

    cdef uint64_t c_key(self) except? 0:
        raise NotImplementedError(f"{type(self).__name__} has no key()")

    cdef uint64_t c_structure_key(self) noexcept:
        """A hash of the slow-changing part of the position that an evaluator's errors
        follow (chess: the pawns), for the search's ``correction`` history. Default: 0, one
        correction per side to move."""
        return 0

    # ---- Python API ------------------------------------------------------------------------
    def legal_moves(self):
        """The legal moves, in the game's generation order (the order searchers use)."""
        return self._moves(MOVES_LEGAL)

    def noisy_moves(self):
        """The moves quiescence search may follow (captures, promotions...); empty by default."""
        return self._moves(MOVES_NOISY)

    def checking_moves(self):
        """The quiet moves that leave the opponent in a tactical position (checks, in chess);
        empty by default."""
        return self._moves(MOVES_CHECKS)

    def noisy_flags(self, moves):
        """For each of ``moves`` (moves of this position), whether the game's ``mark_noisy``
        calls it noisy: the move picker's view, which must agree with ``noisy_moves()``."""
        cdef int count = len(moves), i
        cdef int* buffer = <int*> malloc((count + self.max_moves) * sizeof(int))
        cdef unsigned char* flags = <unsigned char*> malloc(count + 1)
        try:
            if buffer == NULL or flags == NULL:
                raise MemoryError()
            for i in range(count):
                buffer[i] = moves[i]
            self.mark_noisy(buffer, count, flags, buffer + count)
            return [bool(flags[i]) for i in range(count)]
        finally:
            free(buffer)
            free(flags)

    def history_class(self, move):
        """The class (``move_class``, 0 … 767) the picker's continuation histories file the
        legal ``move`` under. IllegalMoveError for a move that is not legal here."""
        number = move_number(move)
        if number is None or number not in set(self.legal_moves()):
            raise IllegalMoveError(
                f"{self.move_str(move) if number is not None else move!r} is not a legal "
                f"move in {self.name} position {self.to_string()!r}")
        return self.move_class(number)

    def threat_scores(self, moves):
        """For each of ``moves`` (legal moves of this position), the game's ``threat_hints``:
        what the picker's ``threat_order`` adds to a quiet move's history score.
        IllegalMoveError for a move that is not legal here."""
        cdef int count = len(moves), i
        legal = set(self.legal_moves())
        for move in moves:
            if move not in legal:
                raise IllegalMoveError(
                    f"{self.move_str(move) if isinstance(move, int) else move!r} is not a "
                    f"legal move in {self.name} position {self.to_string()!r}")
        cdef int* buffer = <int*> malloc((2 * count + 1) * sizeof(int))
        if buffer == NULL:
            raise MemoryError()
        try:
            for i in range(count):
                buffer[i] = moves[i]
            self.threat_hints(buffer, count, buffer + count)
            return [buffer[count + i] for i in range(count)]
        finally:
            free(buffer)

    cdef list _moves(self, int kind):
        """One of the generators' moves as a list."""
        cdef int* buffer = <int*> malloc(self.max_moves * sizeof(int))
        cdef int count
        if buffer == NULL:
            raise MemoryError()
        try:
            if kind == MOVES_LEGAL:
                count = self.generate(buffer)
            elif kind == MOVES_NOISY:
                count = self.generate_noisy(buffer)
            else:
                count = self.generate_checks(buffer)
            return [buffer[i] for i in range(count)]
        finally:
            free(buffer)

    def is_legal(self, move):
        """Whether ``move`` is one of ``legal_moves()``: an integer (numpy's too), never a
        bool, which Python would take for move 0 or 1."""
        number = move_number(move)
        return number is not None and number in self.legal_moves()

    def push(self, move):
        """Play ``move`` (an integer from ``legal_moves()`` or ``parse_move``).

        Raises IllegalMoveError, leaving the position unchanged, if it is not legal here."""
        number = move_number(move)
        if number is None:
            raise IllegalMoveError(
                f"{move!r} is not a move: a move is an integer from legal_moves() "
                f"({self.name} position {self.to_string()!r})"
            )
        if number not in self.legal_moves():
            raise IllegalMoveError(
                f"{self.move_str(number)} is not a legal move in {self.name} position "
                f"{self.to_string()!r}"
            )
        if not self._stack:
            self._root = self.to_string()
        self.make(number)
        self._stack.append(number)

    def apply(self, int move):
        """Make ``move`` with no legality check and no move-stack entry: for search code that
        takes its moves from ``legal_moves()``. Undo it with ``retract(move)``."""
        self.make(move)

    def retract(self, int move):
        """Undo ``apply(move)``."""
        self.unmake(move)

    def push_str(self, text):
        """Parse ``text`` with ``parse_move`` and play it; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self):
        """Take back the last pushed move and return it."""
        if not self._stack:
            raise EmptyStackError(f"no move to take back in {self.name} position")
        move = self._stack.pop()
        self.unmake(move)
        return move

    @property
    def move_stack(self):
        """The moves pushed since this position was created or set, oldest first."""
        return tuple(self._stack)

    def outcome(self):
        """``Result.ONGOING``, or how the game ended for the side to move."""
        return Result(self.c_outcome())

    def is_over(self):
        return self.c_outcome() != RESULT_ONGOING

    def key(self):
        """A 64-bit hash of the full state, side to move included."""
        return self.c_key()

    def structure_key(self):
        """The hash ``correction`` keys its history by (``c_structure_key``; 0 by default)."""
        return self.c_structure_key()

    def options(self):
        """The keyword options this game was built with (``type(self)(**options())``)."""
        return {}

    def root_string(self):
        """``to_string()`` of the position before the first move of ``move_stack``."""
        return self._root if self._stack else self.to_string()

    def copy(self):
        """An independent position with the same state and move stack."""
        return _rebuild(type(self), self.options(), self.root_string(), self._stack)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_rebuild, (type(self), self.options(), self.root_string(), tuple(self._stack)))

    def __repr__(self):
        return f"<{type(self).__name__} {self.to_string()!r}>"

    # ---- to be provided by each game --------------------------------------------------------
    def to_string(self):
        raise NotImplementedError

    def from_string(self, text):
        """A new position of this game (same options) set from ``text``."""
        raise NotImplementedError

    def move_str(self, move):
        return str(move)

    def parse_move(self, text):
        """The move that ``text`` names in this position; IllegalMoveError if none."""
        for move in self.legal_moves():
            if self.move_str(move) == text.strip():
                return move
        raise IllegalMoveError(f"{text!r} is not a legal move in {self.to_string()!r}")
