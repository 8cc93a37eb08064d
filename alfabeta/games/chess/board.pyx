# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess on bitboards behind the position contract: legal move generation (castling, en
passant, promotions), make/unmake with an undo stack, Polyglot-compatible Zobrist keys, a null
move, noisy moves (captures and promotions) for quiescence, and the end of the game:
checkmate, stalemate, the fifty-move rule, threefold repetition, insufficient material.

Squares are 0 (a1) … 63 (h8). A move is ``from | to << 6 | promotion << 12 | flag << 15``
(promotion a piece type 1–4; flag 1 double push, 2 en passant, 3 castling); it reads as UCI
(``e2e4``, ``e7e8q``). White is player 0.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport uint64_t

from alfabeta.core.position cimport (
    RESULT_DRAW,
    RESULT_LOSS,
    RESULT_ONGOING,
    Position,
    splitmix64,
)

from alfabeta.core.errors import IllegalMoveError, InvalidPositionError, excerpt
from alfabeta.games.chess.polyglot_keys import POLYGLOT_RANDOM

cdef extern from *:
    int ctz "__builtin_ctzll"(unsigned long long) nogil
    int clz "__builtin_clzll"(unsigned long long) nogil
    int popcount "__builtin_popcountll"(unsigned long long) nogil

cdef uint64_t[64] KNIGHT_ATTACKS
cdef uint64_t[64] KING_ATTACKS
cdef uint64_t[2][64] PAWN_ATTACKS
cdef uint64_t[8][64] RAYS           # N, E, NE, NW (increasing) then S, W, SE, SW
cdef uint64_t[64][64] BETWEEN       # the squares strictly between two on a line; 0 off one
cdef uint64_t[781] ZOBRIST
# sliding attacks by magic multiplication: a slider's attacks on ``square`` are
# SLIDES[BASE[square] + ((occupied & MASK[square]) * MAGIC[square] >> SHIFT[square])] with the
# bishop's tables at 0 … 63 and the rook's at 64 … 127, filled by ``_init_magics``
cdef uint64_t[128] SLIDER_MASK      # the squares whose occupation can block (no edges)
# the multipliers, bishops' (a1 … h8) then rooks': any that sends the occupations of a mask
# to slots without mixing two different attack sets works; these were found by a seeded
# random search over sparse 64-bit numbers, and ``_init_magics`` checks them as it fills
cdef uint64_t[128] SLIDER_MAGIC = [
    0x10102002004A1420ULL, 0x8020040400584008ULL, 0x10510800811201C8ULL,
    0x5204042080000088ULL, 0x2204106880000002ULL, 0x1401042004000000ULL,
    0x0400880410042004ULL, 0x0028208200A02020ULL, 0x1500241990010E00ULL,
    0x8001200182020A40ULL, 0x40004101030B0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020A00ULL,
    0x8000088400880520ULL, 0x0405004010040100ULL, 0x1005823210040108ULL,
    0x2708008102040011ULL, 0x4048200404009100ULL, 0x0018104101400024ULL,
    0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006E080100C3040ULL, 0x0501044A11041800ULL, 0x9020300008004045ULL,
    0x0894080000220040ULL, 0x1001010083104000ULL, 0x5004030040900080ULL,
    0x000400422C012400ULL, 0x0002128698404812ULL, 0x1010108404900440ULL,
    0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xA010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL,
    0x802A02020000B098ULL, 0x0009015090004060ULL, 0x4000821082081001ULL,
    0x0100210040420800ULL, 0x0800004010488A00ULL, 0x2000081104004040ULL,
    0x4C8E029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008A0101600000ULL, 0x3040003412080021ULL,
    0x3040290220884800ULL, 0x4A1500401041004AULL, 0x8010200282020781ULL,
    0x0020203142209091ULL, 0x0070300600902110ULL, 0x0040808800B62048ULL,
    0x0000810400C44420ULL, 0x00080400440C0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810D00080ULL, 0x0400530411080200ULL,
    0x4040702400932244ULL, 0x1080004008801020ULL, 0x0840092002C03000ULL,
    0x1900200010400900ULL, 0x0880100008000480ULL, 0x4200100420080200ULL,
    0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL,
    0x0408800800100280ULL, 0x000A001201040820ULL, 0x8848800200840080ULL,
    0x4001000100040200ULL, 0x0442000102105084ULL, 0x9080010020804100ULL,
    0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL,
    0x00000A0001768104ULL, 0x0000800080204009ULL, 0x2010004140002001ULL,
    0x9800200280100080ULL, 0x1000100080080080ULL, 0x0442000A00049020ULL,
    0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL,
    0x0610008410800800ULL, 0x0400802402800800ULL, 0xC100020080800400ULL,
    0x0002000802000401ULL, 0x0182085882000401ULL, 0x0220204000808000ULL,
    0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL,
    0x8300842444820011ULL, 0x0088403882010200ULL, 0x0820400080210100ULL,
    0x0110910040A00300ULL, 0x0801100280080480ULL, 0x0242009008200600ULL,
    0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL,
    0x7000100004200901ULL, 0x8002002004100802ULL, 0x30010002084C0007ULL,
    0x0888221800813004ULL, 0x4000002840840112ULL
]
cdef int[128] SLIDER_SHIFT          # 64 − the number of squares in the mask
cdef int[128] SLIDER_BASE           # where the square's attacks start in SLIDES
cdef uint64_t[5248 + 102400] SLIDES  # 2 ** mask bits per square: bishops', then rooks'
cdef int[64] CASTLE_KEEP            # castling bits that survive a move touching the square
cdef int[8] DIRECTION_STEP = [8, 1, 9, 7, -8, -1, -7, -9]
cdef int[8] DIRECTION_FILE = [0, 1, 1, -1, 0, -1, 1, -1]

cdef uint64_t LIGHT_SQUARES = 0x55AA55AA55AA55AAULL
cdef uint64_t RANK_1 = 0xFFULL
cdef uint64_t RANK_8 = 0xFF00000000000000ULL
cdef int FLAG_DOUBLE = 1, FLAG_EP = 2, FLAG_CASTLE = 3
cdef int[6] ORDER_VALUE = [1, 3, 3, 5, 9, 0]  # pawn … king, for MVV-LVA ordering only
# ``threat_hints``, on the history's scale (±2**14): a piece escaping an attack by a cheaper
# one, moving into an attack by a pawn, a minor piece or a rook, and a move giving check
cdef int[6] THREAT_ESCAPE = [0, 5000, 5000, 8000, 16000, 0]
cdef int[6][3] THREAT_ENTER = [[0, 0, 0], [5000, 0, 0], [5000, 0, 0], [11000, 8000, 0],
                               [25000, 19000, 16000], [0, 0, 0]]
cdef int THREAT_CHECK = 5000
cdef uint64_t FILE_A_BITS = 0x0101010101010101ULL
cdef uint64_t FILE_H_BITS = 0x8080808080808080ULL
# pawn … king, centipawns, for the static exchange evaluation (the king: more than all else)
cdef int[6] EXCHANGE_VALUE = [100, 320, 330, 500, 900, 20000]
# QUIET_PLACE[side][piece][square]: how good a square is for a piece, for ordering quiet
# moves only (``order_hint``): pawns forward and central, knights and bishops central, rooks
# on the seventh rank, the queen a little central, the king at home
cdef int[2][6][64] QUIET_PLACE


def _init_tables():
    cdef int sq, f, r, d, t, nf, nr, side, rel, centre
    for sq in range(64):
        f, r = sq % 8, sq // 8
        centre = 3 - max(abs(2 * f - 7), abs(2 * r - 7)) // 2  # 3 in the centre, 0 at the edge
        for side in range(2):
            rel = r if side == WHITE else 7 - r
            QUIET_PLACE[side][PAWN][sq] = 2 * rel + (2 if f in (3, 4) else 1 if f in (2, 5)
                                                     else 0)
            QUIET_PLACE[side][KNIGHT][sq] = 4 * centre
            QUIET_PLACE[side][BISHOP][sq] = 2 * centre
            QUIET_PLACE[side][ROOK][sq] = 4 if rel == 6 else 0
            QUIET_PLACE[side][QUEEN][sq] = centre
            QUIET_PLACE[side][KING][sq] = -3 * rel - centre
        KNIGHT_ATTACKS[sq] = KING_ATTACKS[sq] = 0
        for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                KNIGHT_ATTACKS[sq] |= 1ULL << (8 * (r + dr) + f + df)
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (df or dr) and 0 <= f + df < 8 and 0 <= r + dr < 8:
                    KING_ATTACKS[sq] |= 1ULL << (8 * (r + dr) + f + df)
        PAWN_ATTACKS[0][sq] = PAWN_ATTACKS[1][sq] = 0
        for df in (-1, 1):
            if 0 <= f + df < 8:
                if r < 7:
                    PAWN_ATTACKS[0][sq] |= 1ULL << (8 * (r + 1) + f + df)
                if r > 0:
                    PAWN_ATTACKS[1][sq] |= 1ULL << (8 * (r - 1) + f + df)
        for d in range(8):
            RAYS[d][sq] = 0
            nf, nr = f, r
            while True:
                nf += DIRECTION_FILE[d]
                nr += (1 if DIRECTION_STEP[d] in (8, 9, 7) else -1 if DIRECTION_STEP[d] in
                       (-8, -7, -9) else 0)
                if not (0 <= nf < 8 and 0 <= nr < 8):
                    break
                RAYS[d][sq] |= 1ULL << (8 * nr + nf)
        CASTLE_KEEP[sq] = 15
    for sq in range(64):
        for t in range(64):
            BETWEEN[sq][t] = 0
        for d in range(8):
            for t in range(64):
                if RAYS[d][sq] >> t & 1:
                    BETWEEN[sq][t] = RAYS[d][sq] & ~RAYS[d][t] & ~(1ULL << t)
    CASTLE_KEEP[4] = 15 & ~3      # e1: white loses both
    CASTLE_KEEP[7] = 15 & ~1      # h1
    CASTLE_KEEP[0] = 15 & ~2      # a1
    CASTLE_KEEP[60] = 15 & ~12    # e8
    CASTLE_KEEP[63] = 15 & ~4     # h8
    CASTLE_KEEP[56] = 15 & ~8     # a8
    for t in range(781):
        ZOBRIST[t] = POLYGLOT_RANDOM[t]


_init_tables()


# ``upcoming_repetition``'s cuckoo tables (Marcel van Kervinck's method): every move of a
# knight, bishop, rook, queen or king between two squares it attacks on an empty board, by
# the key it changes (the piece on both squares and the side to move), each in one of its
# two slots: the key's low 13 bits or the next 13 above bit 16.
cdef enum:
    CUCKOO_SLOTS = 8192
    CUCKOO_MOVES = 3668  # reversible moves of pieces between two squares, both colours
cdef uint64_t[8192] CUCKOO_KEY
cdef int[8192] CUCKOO_SQUARES  # the lower square times 64 plus the higher


cdef inline int cuckoo_first(uint64_t key) noexcept:
    return key & (CUCKOO_SLOTS - 1)


cdef inline int cuckoo_second(uint64_t key) noexcept:
    return (key >> 16) & (CUCKOO_SLOTS - 1)


def _init_cuckoo():
    cdef int code, kind, low, high, slot, squares, count = 0
    cdef uint64_t reach, key, kept
    for slot in range(CUCKOO_SLOTS):
        CUCKOO_KEY[slot], CUCKOO_SQUARES[slot] = 0, 0
    for code in range(12):
        kind = code % 6
        if kind == PAWN:
            continue
        for low in range(64):
            reach = KNIGHT_ATTACKS[low] if kind == KNIGHT else KING_ATTACKS[low] \
                if kind == KING else 0
            if kind == BISHOP or kind == QUEEN:
                reach |= RAYS[2][low] | RAYS[3][low] | RAYS[6][low] | RAYS[7][low]
            if kind == ROOK or kind == QUEEN:
                reach |= RAYS[0][low] | RAYS[1][low] | RAYS[4][low] | RAYS[5][low]
            for high in range(low + 1, 64):
                if not reach >> high & 1:
                    continue
                key = piece_key(code, low) ^ piece_key(code, high) ^ ZOBRIST[780]
                squares = 64 * low + high
                slot = cuckoo_first(key)
                while True:  # take the slot; whatever held it moves to its other slot
                    kept, CUCKOO_KEY[slot], key = CUCKOO_KEY[slot], key, CUCKOO_KEY[slot]
                    squares, CUCKOO_SQUARES[slot] = CUCKOO_SQUARES[slot], squares
                    if kept == 0:
                        break
                    slot = cuckoo_second(key) if slot == cuckoo_first(key) \
                        else cuckoo_first(key)
                count += 1
    if count != CUCKOO_MOVES:
        raise AssertionError(f"cuckoo tables: {count} moves, expected {CUCKOO_MOVES}")


_init_cuckoo()


cdef inline bint key_seen(const uint64_t* keys, int at, int oldest) noexcept:
    """Did the position ``at`` plies into the game occur before it (the same side to move),
    from ``oldest`` on?"""
    cdef int i = at - 2
    while i >= oldest and i >= 0:
        if keys[i] == keys[at]:
            return True
        i -= 2
    return False


cdef inline uint64_t piece_key(int code, int square) noexcept:
    """Polyglot: kind = 2 × type + 1 for white; offset 64 × kind + square."""
    cdef int kind = 2 * (code % 6) + (1 if code < 6 else 0)
    return ZOBRIST[64 * kind + square]


cdef inline uint64_t castle_key(int rights) noexcept:
    cdef uint64_t key = 0
    if rights & 1:
        key ^= ZOBRIST[768]
    if rights & 2:
        key ^= ZOBRIST[769]
    if rights & 4:
        key ^= ZOBRIST[770]
    if rights & 8:
        key ^= ZOBRIST[771]
    return key


cdef inline uint64_t ray(int d, int square, uint64_t occupied) noexcept:
    cdef uint64_t attacks = RAYS[d][square], blockers = attacks & occupied
    cdef int b
    if blockers:
        b = ctz(blockers) if d < 4 else 63 - clz(blockers)
        attacks ^= RAYS[d][b]
    return attacks


cdef inline uint64_t ray_attacks(bint rook, int square, uint64_t occupied) noexcept:
    """A slider's attacks found ray by ray (the magic tables are filled from these)."""
    if rook:
        return ray(0, square, occupied) | ray(1, square, occupied) \
            | ray(4, square, occupied) | ray(5, square, occupied)
    return ray(2, square, occupied) | ray(3, square, occupied) | ray(6, square, occupied) \
        | ray(7, square, occupied)


cdef AttackTables TABLES = AttackTables(
    &KNIGHT_ATTACKS[0], &KING_ATTACKS[0], &SLIDER_MASK[0], &SLIDER_MAGIC[0], &SLIDER_SHIFT[0],
    &SLIDER_BASE[0], &SLIDES[0])


cdef const AttackTables* attack_tables() noexcept:
    return &TABLES


cdef inline uint64_t bishop_attacks(int square, uint64_t occupied) noexcept:
    return slider_attacks(&TABLES, square, occupied)


cdef inline uint64_t rook_attacks(int square, uint64_t occupied) noexcept:
    return slider_attacks(&TABLES, 64 + square, occupied)


def _init_magics():
    """Fill the sliders' magic tables from ``SLIDER_MAGIC``: for each square, the attacks of
    every occupation of its mask, at the slot its magic product sends it to. Raises
    ImportError if two occupations with different attacks meet (a wrong multiplier)."""
    cdef uint64_t mask, edge, sub, attacks
    cdef int slot, square, d, index, bits, base = 0
    cdef bint rook
    cdef unsigned char[4096] filled  # which of the square's slots hold attacks already
    for slot in range(128):
        rook, square = slot >= 64, slot & 63
        mask = 0
        for d in range(8):
            if (d in (0, 1, 4, 5)) != rook or not RAYS[d][square]:
                continue
            edge = 1ULL << (63 - clz(RAYS[d][square]) if d < 4 else ctz(RAYS[d][square]))
            mask |= RAYS[d][square] & ~edge
        bits = popcount(mask)
        for index in range(1 << bits):
            filled[index] = 0
        sub = 0
        while True:  # every subset of the mask (carry-rippler)
            attacks = ray_attacks(rook, square, sub)
            index = <int> ((sub * SLIDER_MAGIC[slot]) >> (64 - bits))
            if filled[index] and SLIDES[base + index] != attacks:
                raise ImportError(f"the magic multiplier of slot {slot} mixes two attack sets")
            filled[index] = 1
            SLIDES[base + index] = attacks
            sub = (sub - mask) & mask
            if sub == 0:
                break
        SLIDER_MASK[slot], SLIDER_SHIFT[slot], SLIDER_BASE[slot] = mask, 64 - bits, base
        base += 1 << bits


_init_magics()


cdef inline int encode(int origin, int target, int promotion, int flag) noexcept:
    return origin | target << 6 | promotion << 12 | flag << 15


cdef class Chess(Position):
    """A chess position; see the module docstring. Build one from a FEN with
    ``Chess(fen=...)`` or ``position.from_string(fen)``."""

    name = "chess"

    def __cinit__(self, *args, **kwargs):
        self.capacity = 256
        self.undo = <Undo*> PyMem_Malloc(self.capacity * sizeof(Undo))
        self.keys = <uint64_t*> PyMem_Malloc(self.capacity * sizeof(uint64_t))
        if self.undo == NULL or self.keys == NULL:
            raise MemoryError()
        self.max_moves = CHESS_MAX_MOVES
        self.cached_ply = self.checked_ply = -1

    def __dealloc__(self):
        PyMem_Free(self.undo)
        PyMem_Free(self.keys)

    cdef int _grow(self) except -1:
        cdef Undo* undo = <Undo*> PyMem_Realloc(self.undo, 2 * self.capacity * sizeof(Undo))
        if undo == NULL:
            raise MemoryError()
        self.undo = undo
        cdef uint64_t* keys = <uint64_t*> PyMem_Realloc(
            self.keys, 2 * self.capacity * sizeof(uint64_t))
        if keys == NULL:
            raise MemoryError()
        self.keys = keys
        self.capacity *= 2
        return 0

    def _clear(self):
        cdef int c, t, s
        for c in range(2):
            self.occupied_by[c] = 0
            for t in range(6):
                self.pieces[c][t] = 0
        for s in range(64):
            self.board[s] = EMPTY
        self.castling, self.ep, self.halfmove, self.fullmove = 0, NO_SQUARE, 0, 1
        self.side_to_move, self.key_base, self.ply = WHITE, 0, 0
        self.cached_ply = self.checked_ply = -1

    cdef void put(self, int square, int code) noexcept:
        cdef uint64_t bit = 1ULL << square
        self.board[square] = code
        self.pieces[code // 6][code % 6] |= bit
        self.occupied_by[code // 6] |= bit
        self.key_base ^= piece_key(code, square)

    cdef void remove(self, int square) noexcept:
        cdef int code = self.board[square]
        cdef uint64_t bit = 1ULL << square
        self.board[square] = EMPTY
        self.pieces[code // 6][code % 6] &= ~bit
        self.occupied_by[code // 6] &= ~bit
        self.key_base ^= piece_key(code, square)

    def _finish_setup(self):
        """Keys and the repetition history after pieces and state are set."""
        self.key_base ^= castle_key(self.castling)
        if self.side_to_move == WHITE:
            self.key_base ^= ZOBRIST[780]
        self.keys[0] = self.c_key()
        self.ply = 0
        self._stack = []

    # ---- attacks --------------------------------------------------------------------------
    cdef bint attacked(self, int square, int by) noexcept:
        return self.attacked_through(square, by, self.occupied_by[0] | self.occupied_by[1])

    cdef bint attacked_through(self, int square, int by, uint64_t occupied) noexcept:
        """Does ``by`` attack ``square`` when only ``occupied`` squares block its sliders?"""
        cdef uint64_t* p = self.pieces[by]
        if PAWN_ATTACKS[by ^ 1][square] & p[PAWN]:
            return True
        if KNIGHT_ATTACKS[square] & p[KNIGHT]:
            return True
        if KING_ATTACKS[square] & p[KING]:
            return True
        if bishop_attacks(square, occupied) & (p[BISHOP] | p[QUEEN]):
            return True
        return (rook_attacks(square, occupied) & (p[ROOK] | p[QUEEN])) != 0

    cdef bint in_check(self) noexcept:
        cdef uint64_t king = self.pieces[self.side_to_move][KING]
        if self.checked_ply != self.ply or self.checked_key != self.key_base:
            self.checked = king != 0 and self.attacked(ctz(king), self.side_to_move ^ 1)
            self.checked_ply, self.checked_key = self.ply, self.key_base
        return self.checked

    # ---- move generation ------------------------------------------------------------------
    cdef int pseudo(self, int* out, bint noisy_only) noexcept:
        cdef int us = self.side_to_move, them = us ^ 1, n = 0, origin, target, p
        cdef uint64_t own = self.occupied_by[us], enemy = self.occupied_by[them]
        cdef uint64_t occupied = own | enemy, empty = ~occupied, targets, bits
        cdef uint64_t promotion_rank = RANK_8 if us == WHITE else RANK_1
        cdef int forward = 8 if us == WHITE else -8
        cdef uint64_t double_rank = 0xFF0000ULL if us == WHITE else 0xFF0000000000ULL
        # pawns
        bits = self.pieces[us][PAWN]
        while bits:
            origin = ctz(bits)
            bits &= bits - 1
            target = origin + forward
            if empty >> target & 1:
                if (1ULL << target) & promotion_rank:
                    for p in range(QUEEN, PAWN, -1):
                        out[n] = encode(origin, target, p, 0)
                        n += 1
                elif not noisy_only:
                    out[n] = encode(origin, target, 0, 0)
                    n += 1
                    if (1ULL << target) & double_rank and empty >> (target + forward) & 1:
                        out[n] = encode(origin, target + forward, 0, FLAG_DOUBLE)
                        n += 1
            targets = PAWN_ATTACKS[us][origin] & enemy
            while targets:
                target = ctz(targets)
                targets &= targets - 1
                if (1ULL << target) & promotion_rank:
                    for p in range(QUEEN, PAWN, -1):
                        out[n] = encode(origin, target, p, 0)
                        n += 1
                else:
                    out[n] = encode(origin, target, 0, 0)
                    n += 1
            if self.ep != NO_SQUARE and PAWN_ATTACKS[us][origin] >> self.ep & 1:
                out[n] = encode(origin, self.ep, 0, FLAG_EP)
                n += 1
        # pieces
        for p in range(KNIGHT, KING + 1):
            bits = self.pieces[us][p]
            while bits:
                origin = ctz(bits)
                bits &= bits - 1
                if p == KNIGHT:
                    targets = KNIGHT_ATTACKS[origin]
                elif p == BISHOP:
                    targets = bishop_attacks(origin, occupied)
                elif p == ROOK:
                    targets = rook_attacks(origin, occupied)
                elif p == QUEEN:
                    targets = bishop_attacks(origin, occupied) | rook_attacks(origin, occupied)
                else:
                    targets = KING_ATTACKS[origin]
                targets &= enemy if noisy_only else ~own
                while targets:
                    target = ctz(targets)
                    targets &= targets - 1
                    out[n] = encode(origin, target, 0, 0)
                    n += 1
        # castling: rights, empty path, king not in check and not crossing an attacked square
        if not noisy_only and self.castling & (3 if us == WHITE else 12):
            origin = 4 if us == WHITE else 60
            if self.castling & (1 if us == WHITE else 4) and not occupied & (
                    0x60ULL << (origin - 4)) and not self.attacked(origin, them) \
                    and not self.attacked(origin + 1, them) \
                    and not self.attacked(origin + 2, them):
                out[n] = encode(origin, origin + 2, 0, FLAG_CASTLE)
                n += 1
            if self.castling & (2 if us == WHITE else 8) and not occupied & (
                    0xEULL << (origin - 4)) and not self.attacked(origin, them) \
                    and not self.attacked(origin - 1, them) \
                    and not self.attacked(origin - 2, them):
                out[n] = encode(origin, origin - 2, 0, FLAG_CASTLE)
                n += 1
        return n

    cdef uint64_t pinned(self) noexcept:
        """The mover's pieces pinned to its king by an enemy slider: each the one piece
        between the king and an enemy slider that would attack it along that line."""
        cdef int us = self.side_to_move, them = us ^ 1, king
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1], result = 0
        cdef uint64_t snipers, blockers
        if not self.pieces[us][KING]:
            return 0
        king = ctz(self.pieces[us][KING])
        snipers = (rook_attacks(king, 0) & (self.pieces[them][ROOK] | self.pieces[them][QUEEN])) \
            | (bishop_attacks(king, 0) & (self.pieces[them][BISHOP] | self.pieces[them][QUEEN]))
        while snipers:
            blockers = BETWEEN[king][ctz(snipers)] & occupied
            snipers &= snipers - 1
            if blockers and not (blockers & (blockers - 1)) and blockers & self.occupied_by[us]:
                result |= blockers
        return result

    cdef int legal(self, int* out, bint noisy_only) except -1:
        """Pseudo-legal moves that do not leave the mover's king attacked, in ``pseudo``'s
        order. A king move is legal when no enemy piece attacks its target with the king
        gone from its square. Another move of a piece not pinned to the king is legal out of
        check, and in check when it takes the one checker or steps between it and the king
        (a pinned piece never answers a check). Moves of pinned pieces out of check and en
        passant are tried on the board."""
        cdef int count = self.pseudo(out, noisy_only), n = 0, i, us = self.side_to_move, m
        cdef int origin, king_square
        cdef uint64_t pinned = self.pinned(), king = self.pieces[us][KING]
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1], checkers
        cdef uint64_t answers = 0  # in check: the squares a move other than the king's must reach
        cdef bint check = self.in_check(), ok
        if check:
            king_square = ctz(king)
            checkers = self.attackers_to(king_square, occupied) & self.occupied_by[us ^ 1]
            if not (checkers & (checkers - 1)):
                answers = checkers | BETWEEN[king_square][ctz(checkers)]
        for i in range(count):
            m = out[i]
            origin = m & 63
            if king >> origin & 1:
                ok = not self.attacked_through((m >> 6) & 63, us ^ 1, occupied ^ king)
            elif (m >> 15) == FLAG_EP or (pinned >> origin & 1 and not check):
                self.make(m)
                ok = not self.attacked(ctz(self.pieces[us][KING]), us ^ 1)
                self.unmake(m)
            elif check:
                ok = not (pinned >> origin & 1) and answers >> ((m >> 6) & 63) & 1
            else:
                ok = True
            if ok:
                out[n] = m
                n += 1
        return n

    cdef bint any_legal(self) except -1:
        cdef int[CHESS_MAX_MOVES] moves
        cdef int count = self.pseudo(moves, False), i, us = self.side_to_move
        cdef bint ok
        for i in range(count):
            self.make(moves[i])
            ok = not self.attacked(ctz(self.pieces[us][KING]), us ^ 1)
            self.unmake(moves[i])
            if ok:
                return True
        return False

    cdef int cache_legal(self) except -1:
        """Fill the legal-move cache for the current position (if it is not filled yet; the
        key leaves the en-passant square out, which the moves depend on)."""
        if self.cached_ply != self.ply or self.cached_key != self.key_base \
                or self.cached_ep != self.ep:
            self.cached_count = self.legal(self.cached_moves, False)
            self.cached_ply, self.cached_key, self.cached_ep = self.ply, self.key_base, self.ep
        return self.cached_count

    cdef bint has_legal_move(self) except -1:
        """Whether any legal move exists, cheaply when not in check: an unpinned piece with a
        target, or a king step to a square no enemy attacks (no slider can see through the
        king's square when it is not in check); otherwise the full legal list decides."""
        cdef int us = self.side_to_move, them = us ^ 1, square
        cdef uint64_t own = self.occupied_by[us], enemy = self.occupied_by[them]
        cdef uint64_t occupied = own | enemy, pinned, bits, targets
        cdef int forward = 8 if us == WHITE else -8
        if self.in_check():
            return self.cache_legal() > 0
        pinned = self.pinned()
        bits = self.pieces[us][KNIGHT] & ~pinned
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            if KNIGHT_ATTACKS[square] & ~own:
                return True
        bits = (self.pieces[us][BISHOP] | self.pieces[us][QUEEN]) & ~pinned
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            if bishop_attacks(square, occupied) & ~own:
                return True
        bits = (self.pieces[us][ROOK] | self.pieces[us][QUEEN]) & ~pinned
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            if rook_attacks(square, occupied) & ~own:
                return True
        bits = self.pieces[us][PAWN] & ~pinned
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            if not (occupied >> (square + forward) & 1) or PAWN_ATTACKS[us][square] & enemy:
                return True
        square = ctz(self.pieces[us][KING])
        targets = KING_ATTACKS[square] & ~own
        while targets:
            if not self.attacked(ctz(targets), them):
                return True
            targets &= targets - 1
        return self.cache_legal() > 0  # only pinned pieces, en passant or castling are left

    cdef int generate(self, int* out) except -1:
        cdef int i, count
        if self.rule_draw():
            return 0
        count = self.cache_legal()
        for i in range(count):
            out[i] = self.cached_moves[i]
        return count

    cdef int generate_all(self, int* out) except -1:
        cdef int i, count = self.cache_legal()
        for i in range(count):
            out[i] = self.cached_moves[i]
        return count

    cdef int generate_noisy(self, int* out) except -1:
        if self.rule_draw():
            return 0
        return self.legal(out, True)

    cdef int mark_noisy(self, int* moves, int count, unsigned char* flags,
                        int* scratch) except -1:
        """A legal move is noisy when it captures (en passant too) or promotes."""
        cdef int i, move
        cdef bint draw = self.rule_draw()
        for i in range(count):
            move = moves[i]
            flags[i] = not draw and (self.board[(move >> 6) & 63] != EMPTY
                                     or (move >> 12) & 7 or (move >> 15) == FLAG_EP)
        return 0

    cdef int generate_checks(self, int* out) except -1:
        """The quiet legal moves (no capture, no promotion) that give check."""
        cdef int i, move, n = 0
        if self.rule_draw():
            return 0
        for i in range(self.cache_legal()):
            move = self.cached_moves[i]
            if self.board[(move >> 6) & 63] == EMPTY and not (move >> 12) & 7 \
                    and (move >> 15) != FLAG_EP and self.gives_check(move):
                out[n] = move
                n += 1
        return n

    cdef bint gives_check(self, int move) except -1:
        """Does the legal ``move`` check the opponent's king? On the bitboards: the moved
        piece's own attack, or a slider it uncovers; castling, en passant and promotions
        are made and unmade."""
        cdef int origin = move & 63, target = (move >> 6) & 63, us = self.side_to_move
        cdef int kind = self.board[origin] % 6, king
        cdef uint64_t* own = self.pieces[us]
        cdef uint64_t moved = (1ULL << origin) | (1ULL << target), occupied
        cdef uint64_t diagonal = own[BISHOP] | own[QUEEN], straight = own[ROOK] | own[QUEEN]
        cdef bint check
        if (move >> 15) == FLAG_EP or (move >> 15) == FLAG_CASTLE or (move >> 12) & 7:
            self.make(move)
            check = self.in_check()
            self.unmake(move)
            return check
        if not self.pieces[us ^ 1][KING]:
            return False
        king = ctz(self.pieces[us ^ 1][KING])
        if kind == PAWN:
            if PAWN_ATTACKS[us][target] >> king & 1:
                return True
        elif kind == KNIGHT:
            if KNIGHT_ATTACKS[target] >> king & 1:
                return True
        if diagonal >> origin & 1:  # a slider moves: it checks from its new square
            diagonal ^= moved
        if straight >> origin & 1:
            straight ^= moved
        occupied = (self.occupied_by[0] | self.occupied_by[1] | moved) ^ (1ULL << origin)
        return (bishop_attacks(king, occupied) & diagonal
                or rook_attacks(king, occupied) & straight) != 0

    cdef int order_hint(self, int move) noexcept:
        """MVV-LVA for a noisy move: the most valuable victim first (a promotion counts the
        piece it makes), the least valuable attacker first among equal victims. A quiet
        move: how much better its piece stands on the target square (``QUIET_PLACE``);
        castling, 8."""
        cdef int origin = move & 63, target = (move >> 6) & 63, promotion = (move >> 12) & 7
        cdef int piece = self.board[origin] % 6
        cdef int victim = PAWN if (move >> 15) == FLAG_EP else self.board[target] % 6
        cdef int gain = (ORDER_VALUE[victim] if self.board[target] != EMPTY
                         or (move >> 15) == FLAG_EP else 0)
        if promotion:
            gain += ORDER_VALUE[promotion] - ORDER_VALUE[PAWN]
        elif not gain:
            if (move >> 15) == FLAG_CASTLE:
                return 8
            return (QUIET_PLACE[self.side_to_move][piece][target]
                    - QUIET_PLACE[self.side_to_move][piece][origin])
        return 16 * gain + KING - piece

    cdef int move_class(self, int move) noexcept:
        """The moving piece (by colour, 0 … 11) and its target square: piece × 64 + target
        (castling is the king's move to its square)."""
        return self.board[move & 63] * 64 + ((move >> 6) & 63)

    cdef void threat_hints(self, int* moves, int count, int* out) noexcept:
        """Threats for ordering quiet moves, from the enemy's attacks by pawns, by minor
        pieces and by rooks (the occupancy before the move): a queen attacked by a rook or
        less, a rook by a minor piece or less, a knight or bishop by a pawn gains
        ``THREAT_ESCAPE[kind]`` by moving to a square no such piece attacks; a piece not
        attacked so loses ``THREAT_ENTER[kind][by]`` by moving into an attack of a pawn
        (``by`` 0), a minor piece (1) or a rook (2); a move that gives check directly (from
        its target square) gains ``THREAT_CHECK``. Noisy moves get 0."""
        cdef int us = self.side_to_move, them = us ^ 1, i, move, origin, target, kind
        cdef int king = ctz(self.pieces[them][KING])
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1], bits, to
        cdef uint64_t pawns = self.pieces[them][PAWN], by_pawn, by_minor, by_rook, threatened
        cdef uint64_t[6] checks
        if them == WHITE:
            by_pawn = ((pawns << 9) & ~FILE_A_BITS) | ((pawns << 7) & ~FILE_H_BITS)
        else:
            by_pawn = ((pawns >> 7) & ~FILE_A_BITS) | ((pawns >> 9) & ~FILE_H_BITS)
        by_minor = by_pawn
        bits = self.pieces[them][KNIGHT]
        while bits:
            by_minor |= KNIGHT_ATTACKS[ctz(bits)]
            bits &= bits - 1
        bits = self.pieces[them][BISHOP]
        while bits:
            by_minor |= bishop_attacks(ctz(bits), occupied)
            bits &= bits - 1
        by_rook = by_minor
        bits = self.pieces[them][ROOK]
        while bits:
            by_rook |= rook_attacks(ctz(bits), occupied)
            bits &= bits - 1
        threatened = (self.pieces[us][QUEEN] & by_rook) | (self.pieces[us][ROOK] & by_minor) \
            | ((self.pieces[us][KNIGHT] | self.pieces[us][BISHOP]) & by_pawn)
        checks[PAWN] = PAWN_ATTACKS[them][king]
        checks[KNIGHT] = KNIGHT_ATTACKS[king]
        checks[BISHOP] = bishop_attacks(king, occupied)
        checks[ROOK] = rook_attacks(king, occupied)
        checks[QUEEN] = checks[BISHOP] | checks[ROOK]
        checks[KING] = 0
        for i in range(count):
            move = moves[i]
            origin, target = move & 63, (move >> 6) & 63
            out[i] = 0
            if self.board[target] != EMPTY or (move >> 12) & 7 or (move >> 15) == FLAG_EP:
                continue
            kind = self.board[origin] % 6
            to = 1ULL << target
            if checks[kind] & to:
                out[i] += THREAT_CHECK
            if threatened >> origin & 1:
                if not (to & (by_rook if kind == QUEEN else by_minor if kind == ROOK
                              else by_pawn)):
                    out[i] += THREAT_ESCAPE[kind]
            elif to & by_pawn:
                out[i] -= THREAT_ENTER[kind][0]
            elif to & by_minor:
                out[i] -= THREAT_ENTER[kind][1]
            elif to & by_rook:
                out[i] -= THREAT_ENTER[kind][2]

    # ---- make / unmake ----------------------------------------------------------------------
    cdef int make(self, int move) except -1:
        cdef int origin = move & 63, target = (move >> 6) & 63, promotion = (move >> 12) & 7
        cdef int flag = move >> 15, us = self.side_to_move, code = self.board[origin]
        cdef int captured_square = target
        cdef Undo* u
        if self.ply + 1 >= self.capacity:
            self._grow()
        u = &self.undo[self.ply]
        u.move, u.castling, u.ep, u.halfmove, u.key = move, self.castling, self.ep, \
            self.halfmove, self.key_base
        if flag == FLAG_EP:
            captured_square = target - 8 if us == WHITE else target + 8
        u.captured = self.board[captured_square]
        if u.captured != EMPTY:
            self.remove(captured_square)
        self.remove(origin)
        self.put(target, code if not promotion else us * 6 + promotion)
        if flag == FLAG_CASTLE:
            if target > origin:
                self.remove(target + 1)
                self.put(target - 1, us * 6 + ROOK)
            else:
                self.remove(target - 2)
                self.put(target + 1, us * 6 + ROOK)
        self.key_base ^= castle_key(self.castling)
        self.castling &= CASTLE_KEEP[origin] & CASTLE_KEEP[target]
        self.key_base ^= castle_key(self.castling)
        self.ep = (origin + target) // 2 if flag == FLAG_DOUBLE else NO_SQUARE
        self.halfmove = 0 if code % 6 == PAWN or u.captured != EMPTY else self.halfmove + 1
        if us == BLACK:
            self.fullmove += 1
        self.side_to_move = us ^ 1
        self.key_base ^= ZOBRIST[780]
        self.ply += 1
        self.keys[self.ply] = self.c_key()
        return 0

    cdef int unmake(self, int move) except -1:
        cdef int origin = move & 63, target = (move >> 6) & 63, promotion = (move >> 12) & 7
        cdef int flag = move >> 15, us, code
        cdef Undo* u
        self.ply -= 1
        u = &self.undo[self.ply]
        self.side_to_move ^= 1
        us = self.side_to_move
        if us == BLACK:
            self.fullmove -= 1
        code = self.board[target]
        self.remove(target)
        self.put(origin, code if not promotion else us * 6 + PAWN)
        if flag == FLAG_CASTLE:
            if target > origin:
                self.remove(target - 1)
                self.put(target + 1, us * 6 + ROOK)
            else:
                self.remove(target + 1)
                self.put(target - 2, us * 6 + ROOK)
        if u.captured != EMPTY:
            self.put(target if flag != FLAG_EP else (target - 8 if us == WHITE else target + 8),
                     u.captured)
        self.castling, self.ep, self.halfmove, self.key_base = u.castling, u.ep, u.halfmove, \
            u.key
        return 0

    cdef bint make_null(self) except -1:
        """A pass for null-move pruning; refused in check and in king-and-pawn positions
        (where zugzwang is likely)."""
        cdef int us = self.side_to_move
        cdef Undo* u
        if self.in_check() or not (self.pieces[us][KNIGHT] | self.pieces[us][BISHOP]
                                   | self.pieces[us][ROOK] | self.pieces[us][QUEEN]):
            return False
        if self.ply + 1 >= self.capacity:
            self._grow()
        u = &self.undo[self.ply]
        u.move, u.captured, u.castling, u.ep, u.halfmove, u.key = -1, EMPTY, self.castling, \
            self.ep, self.halfmove, self.key_base
        self.ep = NO_SQUARE
        self.halfmove += 1
        self.side_to_move ^= 1
        self.key_base ^= ZOBRIST[780]
        self.ply += 1
        self.keys[self.ply] = self.c_key()
        return True

    cdef int unmake_null(self) except -1:
        cdef Undo* u
        self.ply -= 1
        u = &self.undo[self.ply]
        self.side_to_move ^= 1
        self.castling, self.ep, self.halfmove, self.key_base = u.castling, u.ep, u.halfmove, \
            u.key
        return 0

    cdef bint is_tactical(self) except -1:
        return self.in_check()

    cdef uint64_t attackers_to(self, int square, uint64_t occupied) noexcept:
        """Every piece of either colour, among ``occupied``, that attacks ``square`` when
        only ``occupied`` squares block."""
        cdef uint64_t* w = self.pieces[WHITE]
        cdef uint64_t* b = self.pieces[BLACK]
        cdef uint64_t diagonal = w[BISHOP] | b[BISHOP] | w[QUEEN] | b[QUEEN]
        cdef uint64_t straight = w[ROOK] | b[ROOK] | w[QUEEN] | b[QUEEN]
        return occupied & (
            (PAWN_ATTACKS[BLACK][square] & w[PAWN])
            | (PAWN_ATTACKS[WHITE][square] & b[PAWN])
            | (KNIGHT_ATTACKS[square] & (w[KNIGHT] | b[KNIGHT]))
            | (KING_ATTACKS[square] & (w[KING] | b[KING]))
            | (bishop_attacks(square, occupied) & diagonal)
            | (rook_attacks(square, occupied) & straight))

    cdef int exchange(self, int move) noexcept:
        """SEE: the material ``move`` wins once both sides have made every capture on its
        target square that pays, least valuable attacker first, x-rays included (pins are
        not looked at; a king captures only where no enemy attacker is left). Centipawns
        (``EXCHANGE_VALUE``); a promotion gains the new piece less the pawn."""
        cdef int origin = move & 63, target = (move >> 6) & 63, promotion = (move >> 12) & 7
        cdef int flag = move >> 15, side = self.side_to_move ^ 1, depth = 0, kind
        cdef int[32] gain
        cdef int on_square = EXCHANGE_VALUE[self.board[origin] % 6]
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1], mine, least
        if flag == FLAG_CASTLE:
            return 0
        gain[0] = EXCHANGE_VALUE[self.board[target] % 6] if self.board[target] != EMPTY else 0
        occupied ^= 1ULL << origin
        if flag == FLAG_EP:
            gain[0] = EXCHANGE_VALUE[PAWN]
            occupied ^= 1ULL << (target - 8 if side == BLACK else target + 8)
        if promotion:
            gain[0] += EXCHANGE_VALUE[promotion] - EXCHANGE_VALUE[PAWN]
            on_square = EXCHANGE_VALUE[promotion]
        while depth < 31:
            mine = self.attackers_to(target, occupied) & self.occupied_by[side]
            if not mine:
                break
            for kind in range(PAWN, KING + 1):
                least = mine & self.pieces[side][kind]
                if least:
                    break
            if kind == KING and self.attackers_to(target, occupied ^ (least & -least)) \
                    & self.occupied_by[side ^ 1]:
                break  # the king may not capture into an attack
            depth += 1
            gain[depth] = on_square - gain[depth - 1]
            on_square = EXCHANGE_VALUE[kind]
            occupied ^= least & -least
            side ^= 1
        while depth > 0:
            if -gain[depth] < gain[depth - 1]:
                gain[depth - 1] = -gain[depth]
            depth -= 1
        return gain[0]

    cdef bint repeats(self, int plies) noexcept:
        """Has this position (same key) occurred within the last ``plies`` plies, since the
        last capture or pawn move?"""
        return key_seen(self.keys, self.ply, self.ply - min(plies, self.halfmove))

    cdef bint upcoming_repetition(self, int plies) noexcept:
        """Since the last capture or pawn move and the last null move: is there a position
        ``i`` (odd, at least 3) plies back whose key differs from this one's by one move of
        one of the mover's pieces (the cuckoo tables) over empty squares? Within the
        search's path (``i`` < ``plies``) that is enough; before it, the position must have
        occurred before as well, so that the move makes it a threefold. The move is legal:
        the position it reaches occurred, with the mover not in check."""
        cdef int end = self.halfmove if self.halfmove < self.ply else self.ply
        cdef int i, slot, low, high, piece
        cdef uint64_t key = self.keys[self.ply], moved
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1]
        if end < 3:
            return False
        for i in range(1, end + 1):
            if self.undo[self.ply - i].move == -1:
                return False  # no cycle through a pass
            if i < 3 or not i & 1:
                continue
            moved = key ^ self.keys[self.ply - i]
            slot = cuckoo_first(moved)
            if CUCKOO_KEY[slot] != moved:
                slot = cuckoo_second(moved)
                if CUCKOO_KEY[slot] != moved:
                    continue
            low, high = CUCKOO_SQUARES[slot] >> 6, CUCKOO_SQUARES[slot] & 63
            piece = self.board[low] if self.board[low] != EMPTY else self.board[high]
            if BETWEEN[low][high] & occupied or piece // 6 != self.side_to_move:
                continue
            if i < plies or key_seen(self.keys, self.ply - i, self.ply - self.halfmove):
                return True
        return False

    cdef int piece_mobility(self, int color) noexcept:
        """Squares attacked by ``color``'s knights, bishops, rooks and queens that its own
        pieces do not occupy (a cheap mobility: no move generation)."""
        cdef uint64_t occupied = self.occupied_by[0] | self.occupied_by[1]
        cdef uint64_t own = self.occupied_by[color], bits
        cdef int total = 0, square
        bits = self.pieces[color][KNIGHT]
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            total += popcount(KNIGHT_ATTACKS[square] & ~own)
        bits = self.pieces[color][BISHOP] | self.pieces[color][QUEEN]
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            total += popcount(bishop_attacks(square, occupied) & ~own)
        bits = self.pieces[color][ROOK] | self.pieces[color][QUEEN]
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            total += popcount(rook_attacks(square, occupied) & ~own)
        return total

    cdef int mobility(self, int color) except -1:
        """Legal moves of ``color`` if it is to move; pseudo-legal ones (no castling, no en
        passant) of the other side."""
        cdef int[CHESS_MAX_MOVES] moves
        cdef int count, castling = self.castling, ep = self.ep
        if color == self.side_to_move:
            return self.legal(moves, False)
        self.side_to_move ^= 1
        self.castling, self.ep = 0, NO_SQUARE
        count = self.pseudo(moves, False)
        self.side_to_move ^= 1
        self.castling, self.ep = castling, ep
        return count

    # ---- the end of the game --------------------------------------------------------------
    cdef bint rule_draw(self) noexcept:
        """Fifty moves, threefold repetition or insufficient material (checkmate on the
        fiftieth move still counts: the caller checks mate first)."""
        cdef int seen = 1, i
        cdef uint64_t key
        if self.halfmove >= 100:
            return True
        if self.halfmove >= 4:
            key = self.keys[self.ply]
            i = self.ply - 2
            while i >= 0 and i >= self.ply - self.halfmove:
                if self.keys[i] == key:
                    seen += 1
                    if seen >= 3:
                        return True
                i -= 2
        return self._insufficient(WHITE) and self._insufficient(BLACK)

    cdef bint _insufficient(self, int color) noexcept:
        """No mate is possible for ``color`` with any play (python-chess's rule)."""
        cdef uint64_t own = self.occupied_by[color], other = self.occupied_by[color ^ 1]
        cdef uint64_t bishops = self.pieces[0][BISHOP] | self.pieces[1][BISHOP]
        cdef uint64_t kings = self.pieces[0][KING] | self.pieces[1][KING]
        cdef uint64_t queens = self.pieces[0][QUEEN] | self.pieces[1][QUEEN]
        cdef uint64_t pawns = self.pieces[0][PAWN] | self.pieces[1][PAWN]
        cdef uint64_t knights = self.pieces[0][KNIGHT] | self.pieces[1][KNIGHT]
        if own & (self.pieces[color][PAWN] | self.pieces[color][ROOK]
                  | self.pieces[color][QUEEN]):
            return False
        if own & knights:
            return popcount(own) <= 2 and not (other & ~kings & ~queens)
        if own & bishops:
            return (not (bishops & LIGHT_SQUARES) or not (bishops & ~LIGHT_SQUARES)) \
                and not pawns and not knights
        return True

    cdef int c_outcome(self) except -1:
        if not self.has_legal_move():
            return RESULT_LOSS if self.in_check() else RESULT_DRAW
        if self.rule_draw():
            return RESULT_DRAW
        return RESULT_ONGOING

    cdef uint64_t c_key(self) except? 0:
        """The Polyglot key: the en-passant file counts when a pawn of the side to move
        stands next to the pawn that just made a double step."""
        cdef uint64_t key = self.key_base
        if self.ep != NO_SQUARE and PAWN_ATTACKS[self.side_to_move ^ 1][self.ep] & \
                self.pieces[self.side_to_move][PAWN]:
            key ^= ZOBRIST[772 + self.ep % 8]
        return key

    cdef uint64_t c_structure_key(self) noexcept:
        """The pawns of both sides."""
        return splitmix64(self.pieces[WHITE][PAWN]) ^ splitmix64(~self.pieces[BLACK][PAWN])


STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MAX_HALFMOVE = 10_000   # far beyond any game (the 75-move rule ends one at 150), within a C int
MAX_FULLMOVE = 100_000  # the longest possible game has under 6,000 moves
PIECE_LETTERS = "PNBRQKpnbrqk"
FILES = "abcdefgh"
CASTLING_HOMES = {"K": (4, 7, WHITE), "Q": (4, 0, WHITE), "k": (60, 63, BLACK),
                  "q": (60, 56, BLACK)}
CASTLING_BITS = {"K": 1, "Q": 2, "k": 4, "q": 8}


def square_name(int square):
    return FILES[square % 8] + str(square // 8 + 1)


def parse_square(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        return None
    return FILES.index(text[0]) + 8 * (int(text[1]) - 1)


def fen_placement(pieces):
    """The FEN piece-placement field of ``pieces``, a mapping of square (0 = a1 … 63 = h8) to
    piece letter (``K``, ``n``, …)."""
    rows = []
    for row in range(7, -1, -1):
        line, gap = "", 0
        for square in range(8 * row, 8 * row + 8):
            if square not in pieces:
                gap += 1
                continue
            if gap:
                line, gap = line + str(gap), 0
            line += pieces[square]
        rows.append(line + (str(gap) if gap else ""))
    return "/".join(rows)


cdef class ChessGame(Chess):
    """The ``chess`` game: a Chess position with the Python API (FEN, UCI, SAN)."""

    name = "chess"
    default_evaluator = "material"
    # the strongest configuration, measured in matches (issue 15's note): what the UCI engine,
    # ``alfabeta play``'s "engine" player and the web page play when not told otherwise
    play_searcher = (
        "negascout(tt=on, iterative=on, killers=on, history=on, quiescence=on, null_move=2, "
        "aspiration=50, captures=on, extensions=16, lmr=2, lmr_log=on, null_adaptive=on, "
        "widen=on, repetition=on, mate_distance=on, rfp=80, iir=on, see=on, keep_table=on, "
        "razor=200, see_prune=80, probcut=150, adaptive_time=on, lmr_scale=160, "
        "capture_history=on, quiet_cuts=on, tt_static=on, null_depth=3, keep_history=on, malus=on, "
        "countermove=on, fail=soft, node_time=on, cycle=on, time_horizon=45, moves_to_go=12, "
        "lmp=on, lmp_base=12, conthist=on, lmr_history=on, lmr_deeper=on)"
    )
    play_evaluator = "tuned(endgames=on)"
    # the bench set: openings, the perft positions, middlegames and endgames (~20)
    bench_positions = (
        "startpos",
        "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6",
        "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
        "rnbq1rk1/ppp1bppp/4pn2/3p2B1/2PP4/2N1P3/PP3PPP/R2QKBNR w KQ - 1 6",
        "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 2 6",
        "rnbqk1nr/pp3ppp/4p3/2ppP3/3P4/P1P5/2P2PPP/R1BQKBNR b KQkq - 0 6",
        "rnbqkb1r/ppp2ppp/1n6/4p3/8/2N3P1/PP1PPPBP/R1BQK1NR w KQkq - 2 6",
        "rn1qkbnr/pp3ppp/4p3/2ppPb2/3P4/5N2/PPP1BPPP/RNBQK2R w KQkq - 0 6",
        "rn1qk2r/p1ppbppp/bp2pn2/8/2PP4/1P3NP1/P2BPP1P/RN1QKB1R w KQkq - 3 7",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r4rk1/p1B1b1pp/2b2n2/3p1p2/8/2PBPN2/PP3PPP/RN3RK1 b - - 0 20",
        "8/8/4k3/8/2p5/8/2P1K3/8 w - - 0 1",
        "8/5pk1/6p1/8/8/6P1/5PK1/3R4 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 0 23",
    )

    def __init__(self, fen=None):
        self._set_fen(STARTING_FEN if fen is None else fen)

    def options(self):
        return {}

    # ---- FEN --------------------------------------------------------------------------------
    def _set_fen(self, text):
        if not isinstance(text, str):
            raise InvalidPositionError(f"a FEN is a string, not {type(text).__name__}")
        shown = excerpt(text)
        fields = text.split()
        if fields and fields[0] == "startpos":
            fields = STARTING_FEN.split()
        if len(fields) not in (4, 6):
            raise InvalidPositionError(
                f"FEN {shown}: expected 6 fields (board, side, castling, en passant, halfmove, "
                f"fullmove) or 4, got {len(fields)}")
        placement, side, castling, ep = fields[:4]
        self._clear()
        ranks = placement.split("/")
        if len(ranks) != 8:
            raise InvalidPositionError(f"FEN {shown}: the board has {len(ranks)} ranks, not 8")
        for row, rank in enumerate(ranks):
            file = 0
            for ch in rank:
                if ch in "12345678":
                    file += int(ch)
                elif ch in PIECE_LETTERS:
                    if file >= 8:
                        raise InvalidPositionError(
                            f"FEN {shown}: rank {8 - row} ({rank[:12]!r}) has more than 8 "
                            "squares")
                    self.put(8 * (7 - row) + file, PIECE_LETTERS.index(ch))
                    file += 1
                else:
                    raise InvalidPositionError(
                        f"FEN {shown}: {ch!r} in rank {8 - row} is not a piece letter or 1-8")
            if file != 8:
                raise InvalidPositionError(
                    f"FEN {shown}: rank {8 - row} ({rank!r}) covers {file} squares, not 8")
        if side not in ("w", "b"):
            raise InvalidPositionError(f"FEN {shown}: side to move must be w or b, not {side!r}")
        self.side_to_move = WHITE if side == "w" else BLACK
        for color, name in ((WHITE, "white"), (BLACK, "black")):
            kings = popcount(self.pieces[color][KING])
            if kings != 1:
                raise InvalidPositionError(
                    f"FEN {shown}: {name} has {kings} kings; each side needs exactly one")
            if popcount(self.pieces[color][PAWN]) > 8 or popcount(self.occupied_by[color]) > 16:
                raise InvalidPositionError(f"FEN {shown}: {name} has too many pieces")
        if (self.pieces[WHITE][PAWN] | self.pieces[BLACK][PAWN]) & (RANK_1 | RANK_8):
            raise InvalidPositionError(f"FEN {shown}: a pawn stands on the first or last rank")
        if castling != "-":
            if any(c not in "KQkq" for c in castling) or len(set(castling)) != len(castling) \
                    or "".join(sorted(castling, key="KQkq".index)) != castling:
                raise InvalidPositionError(
                    f"FEN {shown}: castling rights {castling!r} must be - or letters of KQkq "
                    "in that order")
            for right in castling:
                king, rook, color = CASTLING_HOMES[right]
                if self.board[king] != color * 6 + KING or self.board[rook] != color * 6 + ROOK:
                    raise InvalidPositionError(
                        f"FEN {shown}: castling right {right} needs the "
                        f"{'white' if color == WHITE else 'black'} king on "
                        f"{square_name(king)} and a rook on {square_name(rook)}")
                self.castling |= CASTLING_BITS[right]
        if ep != "-":
            square = parse_square(ep)
            expected_rank = "6" if self.side_to_move == WHITE else "3"
            if square is None or ep[1] != expected_rank:
                raise InvalidPositionError(
                    f"FEN {shown}: en-passant square {ep!r} must be - or a square on rank "
                    f"{expected_rank}")
            pushed = square - 8 if self.side_to_move == WHITE else square + 8
            origin = square + 8 if self.side_to_move == WHITE else square - 8
            if self.board[pushed] != (self.side_to_move ^ 1) * 6 + PAWN \
                    or self.board[square] != EMPTY or self.board[origin] != EMPTY:
                raise InvalidPositionError(
                    f"FEN {shown}: en-passant square {ep} but no pawn can just have moved "
                    "two squares past it")
            self.ep = square
        if len(fields) == 6:
            try:
                halfmove, fullmove = int(fields[4]), int(fields[5])
            except ValueError:
                raise InvalidPositionError(
                    f"FEN {shown}: halfmove and fullmove must be whole numbers") from None
            if not (0 <= halfmove <= MAX_HALFMOVE and 1 <= fullmove <= MAX_FULLMOVE):
                raise InvalidPositionError(
                    f"FEN {shown}: halfmove must be 0 to {MAX_HALFMOVE} and fullmove 1 to "
                    f"{MAX_FULLMOVE}")
            self.halfmove, self.fullmove = halfmove, fullmove
        if self.attacked(ctz(self.pieces[self.side_to_move ^ 1][KING]), self.side_to_move):
            raise InvalidPositionError(
                f"FEN {shown}: the side not to move is in check")
        self._finish_setup()

    def from_string(self, text):
        return ChessGame(text)

    def to_string(self):
        """The FEN; the en-passant square is written only when a legal capture uses it."""
        placed = fen_placement(
            {square: PIECE_LETTERS[self.board[square]] for square in range(64)
             if self.board[square] != EMPTY})
        rights = "".join(c for c in "KQkq" if self.castling & CASTLING_BITS[c]) or "-"
        ep = "-"
        if self.ep != NO_SQUARE and any(
                (m >> 15) == FLAG_EP for m in self.legal_moves()):
            ep = square_name(self.ep)
        return (f"{placed} {'w' if self.side_to_move == WHITE else 'b'} {rights} {ep} "
                f"{self.halfmove} {self.fullmove}")

    fen = to_string

    def mirror(self):
        """The colour-flipped position (board upside down, white and black swapped, the other
        side to move): every side-to-move evaluator scores it as this one."""
        fields = self.to_string().split()
        rows = [row.swapcase() for row in reversed(fields[0].split("/"))]
        rights = "".join(sorted(fields[2].swapcase(), key="KQkq".index)) if fields[2] != "-" \
            else "-"
        ep = "-" if fields[3] == "-" else fields[3][0] + str(9 - int(fields[3][1]))
        side = "b" if fields[1] == "w" else "w"
        return self.from_string(
            f"{'/'.join(rows)} {side} {rights} {ep} {fields[4]} {fields[5]}")

    # ---- moves as text ----------------------------------------------------------------------
    def move_str(self, move):
        """The move in UCI notation (``e2e4``, ``e7e8q``)."""
        promotion = (move >> 12) & 7 if isinstance(move, int) else 0
        if not isinstance(move, int) or move < 0 or move >> 17 or promotion > QUEEN:
            raise IllegalMoveError(f"{move!r} is not a chess move")
        return square_name(move & 63) + square_name((move >> 6) & 63) + (
            "nbrq"[promotion - 1] if promotion else "")

    def san(self, move):
        """The move in standard algebraic notation, with + or # (the move must be legal)."""
        legal = self.legal_moves()
        if move not in legal:
            raise IllegalMoveError(f"{self.move_str(move)} is not legal in {self.to_string()}")
        origin, target, promotion = move & 63, (move >> 6) & 63, (move >> 12) & 7
        code = self.board[origin]
        if move >> 15 == FLAG_CASTLE:
            text = "O-O" if target > origin else "O-O-O"
        elif code % 6 == PAWN:
            capture = origin % 8 != target % 8
            text = (FILES[origin % 8] + "x" if capture else "") + square_name(target) + (
                "=" + "NBRQ"[promotion - 1] if promotion else "")
        else:
            rivals = [m & 63 for m in legal if (m >> 6) & 63 == target and m != move
                      and self.board[m & 63] == code]
            hint = ""
            if rivals:
                if all(r % 8 != origin % 8 for r in rivals):
                    hint = FILES[origin % 8]
                elif all(r // 8 != origin // 8 for r in rivals):
                    hint = str(origin // 8 + 1)
                else:
                    hint = square_name(origin)
            capture = "x" if self.board[target] != EMPTY else ""
            text = "NBRQK"[code % 6 - 1] + hint + capture + square_name(target)
        self.make(move)
        try:
            if self.in_check():
                text += "#" if not self.any_legal() else "+"
        finally:
            self.unmake(move)
        return text

    def parse_move(self, text):
        """A move from UCI (``e2e4``) or SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q+``)."""
        raw = str(text).strip()
        legal = self.legal_moves()
        for move in legal:
            if self.move_str(move) == raw:
                return move
        plain = raw.rstrip("+#!?").replace("0-0-0", "O-O-O").replace("0-0", "O-O")
        for move in legal:
            if self.san(move).rstrip("+#") == plain:
                return move
        if len(raw) in (4, 5) and parse_square(raw[:2]) is not None \
                and parse_square(raw[2:4]) is not None:
            raise IllegalMoveError(f"{raw} is not a legal move in {self.to_string()}")
        raise IllegalMoveError(
            f"{excerpt(raw)} is not a legal move in {self.to_string()} (give UCI like e2e4 or SAN "
            "like Nf3)" if legal else f"{excerpt(raw)}: the game is over")

    def termination(self):
        """Why the game ended: checkmate, stalemate, fifty moves, repetition, insufficient
        material ("" while it goes on)."""
        if not self.any_legal():
            return "checkmate" if self.in_check() else "stalemate"
        if self.halfmove >= 100:
            return "fifty moves"
        if self._insufficient(WHITE) and self._insufficient(BLACK):
            return "insufficient material"
        return "repetition" if self.rule_draw() else ""

    def is_check(self):
        return self.in_check()

    def see(self, move):
        """The static exchange value of ``move`` (UCI or SAN text, or a move code) for the
        side to move, in centipawns: see ``exchange``."""
        code = self.parse_move(move) if isinstance(move, str) else move
        return self.exchange(code)

    def is_quiet(self):
        """Not in check, and no capture or promotion wins material by static exchange: a
        position whose static score means what it says (Texel tuning's positions)."""
        cdef int[CHESS_MAX_MOVES] moves
        cdef int count, i
        if self.in_check():
            return False
        count = self.legal(moves, True)
        for i in range(count):
            if self.exchange(moves[i]) > 0:
                return False
        return True

    def repeats_within(self, int plies):
        """Has this position occurred within the last ``plies`` plies (see ``repeats``)?"""
        return self.repeats(plies)

    def reaches_repetition(self, int plies):
        """Can the side to move reach a repetition by one move (see
        ``upcoming_repetition``)?"""
        return self.upcoming_repetition(plies)

    def recomputed_key(self):
        """The Polyglot key computed from scratch (the incremental one must equal it)."""
        cdef uint64_t key = castle_key(self.castling)
        cdef int square
        for square in range(64):
            if self.board[square] != EMPTY:
                key ^= piece_key(self.board[square], square)
        if self.side_to_move == WHITE:
            key ^= ZOBRIST[780]
        if self.ep != NO_SQUARE and PAWN_ATTACKS[self.side_to_move ^ 1][self.ep] & \
                self.pieces[self.side_to_move][PAWN]:
            key ^= ZOBRIST[772 + self.ep % 8]
        return key

    def piece_at(self, square):
        """The piece letter on a square (``"a1"`` or 0–63), or None."""
        if isinstance(square, str):
            square = parse_square(square)
        code = self.board[square]
        return None if code == EMPTY else PIECE_LETTERS[code]

    def __str__(self):
        rows = []
        for row in range(7, -1, -1):
            cells = []
            for file in range(8):
                code = self.board[8 * row + file]
                cells.append("." if code == EMPTY else PIECE_LETTERS[code])
            rows.append(f"{row + 1} " + " ".join(cells))
        rows.append("  a b c d e f g h")
        rows.append(f"{'white' if self.side_to_move == WHITE else 'black'} to move"
                    + (", in check" if self.in_check() else ""))
        return "\n".join(rows)
