# cython: language_level=3, boundscheck=False, wraparound=False
"""Gaskell–Whinihan Fibonacci nim (seed-004 §2).

One pile of ``n`` objects. The first move takes at least one object but not the whole pile;
afterwards each player takes at least one and at most twice what the previous player took.
Whoever takes the last object wins. State ⟨n, q⟩: ``n`` objects left, ``q`` the most that may
be taken; the initial state is ⟨n, n−1⟩ and taking ``m`` leads to ⟨n−m, 2m⟩. With n = 1 no
move is legal and the first player has lost (the spec's treatment of the degenerate case).

A move is the number of objects taken; ``legal_moves()`` lists 1..min(q, n) ascending.
``to_string()`` is ``"n q side"``, e.g. ``"15 14 0"``.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, realloc

from alfabeta.core.position cimport (
    RESULT_LOSS,
    RESULT_ONGOING,
    Position,
    splitmix64,
)

from alfabeta.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError

MAX_PILE = 10_000_000


cpdef long long smallest_summand(long long n) except -1:
    """μ(n): the smallest Fibonacci number in n's Zeckendorf decomposition (n >= 1)."""
    cdef long long a = 1, b = 2, rest = n, smallest = n
    if n < 1:
        raise ValueError(f"μ(n) needs n >= 1, got {n}")
    while rest > 0:
        a, b = 1, 2
        while b <= rest:
            a, b = b, a + b
        rest -= a
        smallest = a
    return smallest


def zeckendorf(long long n):
    """The Zeckendorf decomposition of n >= 1: non-consecutive Fibonacci numbers, largest first."""
    if n < 1:
        raise ValueError(f"the Zeckendorf decomposition needs n >= 1, got {n}")
    parts = []
    while n > 0:
        a, b = 1, 2
        while b <= n:
            a, b = b, a + b
        parts.append(a)
        n -= a
    return parts


def winning_for_side_to_move(long long n, long long q):
    """The theorem of seed-004 §2.4: the side to move in ⟨n, q⟩ wins iff n ≤ q or μ(n) ≤ q."""
    return n >= 1 and (n <= q or smallest_summand(n) <= q)


cdef class FibonacciNim(Position):
    """Fibonacci nim with a pile of ``n`` objects (option ``n``, default 15)."""

    name = "fibonacci-nim"
    bench_positions = ("15 14 0", "21 20 0", "33 12 0", "40 39 0")
    default_evaluator = "nim-exact"

    def __init__(self, n=15):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PILE:
            raise InvalidOptionError(
                f"fibonacci-nim option n={n!r}: expected a pile size from 1 to {MAX_PILE}"
            )
        self.pile = n
        self._set(n, n - 1, 0)

    def __dealloc__(self):
        free(self.q_stack)

    cdef int _allocate(self, int capacity) except -1:
        cdef int* grown = <int*> realloc(self.q_stack, (capacity + 1) * sizeof(int))
        if grown == NULL:
            raise MemoryError()
        self.q_stack = grown
        self.capacity = capacity + 1
        return 0

    def _set(self, int n, int q, int side):
        self.n, self.q, self.side_to_move = n, q, side
        self.max_moves = max(1, n)  # q may grow after a move, n only shrinks
        self.top = 0
        self._allocate(n)
        self._stack = []

    cdef int generate(self, int* out) except -1:
        cdef int most = self.q if self.q < self.n else self.n
        cdef int m
        for m in range(1, most + 1):
            out[m - 1] = m
        return most if most > 0 else 0

    cdef int make(self, int move) except -1:
        self.q_stack[self.top] = self.q
        self.top += 1
        self.n -= move
        self.q = 2 * move
        self.side_to_move ^= 1
        return 0

    cdef int unmake(self, int move) except -1:
        self.top -= 1
        self.q = self.q_stack[self.top]
        self.n += move
        self.side_to_move ^= 1
        return 0

    cdef int c_outcome(self) except -1:
        if self.n == 0 or self.q == 0:
            return RESULT_LOSS
        return RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        return splitmix64((<uint64_t> self.n << 33) ^ (<uint64_t> self.q << 1) ^ self.side_to_move)

    # ---- Python API -------------------------------------------------------------------------
    path_independent = True  # outcome() reads ⟨n, q⟩ alone: retrograde analysis applies

    def options(self):
        return {"n": self.pile}

    def to_string(self):
        return f"{self.n} {self.q} {self.side_to_move}"

    def from_string(self, text):
        fields = text.split()
        if len(fields) not in (2, 3):
            raise InvalidPositionError(
                f"fibonacci-nim position {text!r}: expected 'n q [side]', e.g. '15 14 0'"
            )
        names = ("n (objects left)", "q (most that may be taken)", "side (0 or 1)")
        values = []
        for name, field in zip(names, fields):
            try:
                values.append(int(field))
            except ValueError:
                raise InvalidPositionError(
                    f"fibonacci-nim position {text!r}: {name} must be an integer, got {field!r}"
                ) from None
        n, q = values[0], values[1]
        side = values[2] if len(values) == 3 else 0
        if not 0 <= n <= MAX_PILE:
            raise InvalidPositionError(f"fibonacci-nim position {text!r}: n must be 0..{MAX_PILE}")
        if not 0 <= q <= 2 * MAX_PILE:
            raise InvalidPositionError(f"fibonacci-nim position {text!r}: q must be >= 0")
        if side not in (0, 1):
            raise InvalidPositionError(f"fibonacci-nim position {text!r}: side must be 0 or 1")
        position = FibonacciNim(max(self.pile, n, 1))
        position.pile = self.pile
        position._set(n, q, side)
        return position

    def move_str(self, move):
        """The number of objects taken; IllegalMoveError for anything but a count ≥ 1."""
        if not isinstance(move, int) or move < 1:
            raise IllegalMoveError(f"{move!r} is not a fibonacci-nim move: a count of 1 or more")
        return str(move)

    def parse_move(self, text):
        try:
            move = int(str(text).strip())
        except ValueError:
            raise IllegalMoveError(
                f"{text!r} is not a move: give the number of objects to take"
            ) from None
        most = min(self.q, self.n)
        if not 1 <= move <= most:
            raise IllegalMoveError(
                f"taking {move} is not legal: {self.n} objects left, take 1..{most}"
                if most > 0 else f"taking {move} is not legal: the game is over"
            )
        return move

    def __str__(self):
        most = min(self.q, self.n)
        left = f"{self.n} object{'s' if self.n != 1 else ''} left"
        if most <= 0:
            return f"{left}: player {2 - self.side_to_move} took the last and won"
        if most == 1:
            return f"{left}, player {self.side_to_move + 1} must take 1"
        return f"{left}, player {self.side_to_move + 1} may take 1..{most}"
