# cython: language_level=3
from libc.stdint cimport uint64_t

from alfabeta.core.position cimport Position

cdef enum:
    WHITE = 0
    BLACK = 1
    PAWN = 0
    KNIGHT = 1
    BISHOP = 2
    ROOK = 3
    QUEEN = 4
    KING = 5
    EMPTY = -1
    NO_SQUARE = -1
    CHESS_MAX_MOVES = 256
    MAX_GAME_PLIES = 2048


cdef struct Undo:
    int move
    int captured        # piece code (color * 6 + type) or EMPTY
    int castling
    int ep
    int halfmove
    uint64_t key


# The attack tables, shared with the evaluators so that they look attacks up inline (a method
# call per piece cost about 3 % of the search's instructions): a slider's attacks on a square are
# slides[base[slot] + ((occupied & mask[slot]) * magic[slot] >> shift[slot])], the slot being
# the square for a bishop and 64 + the square for a rook (``board.pyx`` fills the tables).
cdef struct AttackTables:
    const uint64_t* knight
    const uint64_t* king
    const uint64_t* mask
    const uint64_t* magic
    const int* shift
    const int* base
    const uint64_t* slides

cdef const AttackTables* attack_tables() noexcept


cdef inline uint64_t slider_attacks(const AttackTables* tables, int slot,
                                    uint64_t occupied) noexcept:
    cdef uint64_t product = (occupied & tables.mask[slot]) * tables.magic[slot]
    return tables.slides[tables.base[slot] + <int> (product >> tables.shift[slot])]


cdef inline uint64_t piece_attacks(const AttackTables* tables, int kind, int square,
                                   uint64_t occupied) noexcept:
    """The squares a ``kind`` (knight … king) on ``square`` attacks, ``occupied`` blocking."""
    if kind == KNIGHT:
        return tables.knight[square]
    if kind == BISHOP:
        return slider_attacks(tables, square, occupied)
    if kind == ROOK:
        return slider_attacks(tables, 64 + square, occupied)
    if kind == QUEEN:
        return slider_attacks(tables, square, occupied) \
            | slider_attacks(tables, 64 + square, occupied)
    return tables.king[square]


cdef inline int king_distance(int a, int b) noexcept:
    """King moves from square ``a`` to ``b`` (the larger of the file and rank distances)."""
    cdef int files = (a & 7) - (b & 7), ranks = (a >> 3) - (b >> 3)
    if files < 0:
        files = -files
    if ranks < 0:
        ranks = -ranks
    return files if files > ranks else ranks


cdef inline int centre_distance(int square) noexcept:
    """King moves from ``square`` to the centre d4–e5, files and ranks summed (0 … 6)."""
    cdef int f = square & 7, r = square >> 3
    return (3 - f if f < 4 else f - 4) + (3 - r if r < 4 else r - 4)

cdef class Chess(Position):
    cdef readonly uint64_t[2][6] pieces     # pieces[color][type]
    cdef readonly uint64_t[2] occupied_by    # per color
    cdef int[64] board                       # piece code or EMPTY
    cdef readonly int castling               # bits: 1 K, 2 Q, 4 k, 8 q
    cdef readonly int ep                     # en-passant target square, or NO_SQUARE
    cdef readonly int halfmove
    cdef readonly int fullmove
    cdef uint64_t key_base                   # Polyglot key without the en-passant term
    cdef Undo* undo
    cdef uint64_t* keys                      # key after each ply, for repetition
    cdef int ply
    cdef int capacity
    # the legal moves of the position at ``cached_ply`` (c_outcome computes them and
    # generate reuses them: a searcher asks for both at every node)
    cdef int cached_ply
    cdef uint64_t cached_key
    cdef int cached_ep
    cdef int cached_count
    cdef int[256] cached_moves
    # whether the mover is in check in the position at ``checked_ply`` with ``checked_key``
    # (the search asks two or three times a node: its outcome, extension, pruning)
    cdef int checked_ply
    cdef uint64_t checked_key
    cdef bint checked

    cdef int _grow(self) except -1
    cdef bint attacked(self, int square, int by) noexcept
    cdef bint attacked_through(self, int square, int by, uint64_t occupied) noexcept
    cdef bint in_check(self) noexcept
    cdef bint gives_check(self, int move) except -1
    cdef int pseudo(self, int* out, bint noisy_only) noexcept
    cdef uint64_t pinned(self) noexcept
    cdef int legal(self, int* out, bint noisy_only) except -1
    cdef bint any_legal(self) except -1
    cdef int cache_legal(self) except -1
    cdef bint has_legal_move(self) except -1
    cdef bint rule_draw(self) noexcept
    cdef bint _insufficient(self, int color) noexcept
    cdef int order_hint(self, int move) noexcept
    cdef int move_class(self, int move) noexcept
    cdef void threat_hints(self, int* moves, int count, int* out) noexcept
    cdef uint64_t attackers_to(self, int square, uint64_t occupied) noexcept
    cdef int exchange(self, int move) noexcept
    cdef bint repeats(self, int plies) noexcept
    cdef bint upcoming_repetition(self, int plies) noexcept
    cdef int mobility(self, int color) except -1
    cdef int piece_mobility(self, int color) noexcept
    cdef void put(self, int square, int code) noexcept
    cdef void remove(self, int square) noexcept


cdef class ChessGame(Chess):
    pass
