# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess endgame knowledge that an evaluation's terms cannot see: which material draws.

``endgame_score(board, score)`` corrects an evaluator's ``score`` (centipawns, the side to
move's view); the stronger side is the one ``score`` favours. In order:

- **king and pawn against king**: the exact result, from a bitbase (``kpk``). A draw scores 0;
  a win scores the pawn's side at least 0, plus ``KNOWN_WIN``, so that the search heads for it.
- **bishop and knight against a bare king**: the exact distance to mate, from a table
  (``kbnk``): a win scores ``KBNK_WIN`` less the plies to mate for the pieces' side, so that
  the search heads for the quickest mate (the longest is 65 plies, mate in 33); a draw (the
  lone king takes an undefended piece, or is stalemated) scores 0.
- **no pawns, at most a minor piece**: a stronger side with no pawns and at most a knight or
  a bishop cannot mate: 0. Nor, in practice, two knights against a bare king: 0.
- **no pawns, at most a minor piece ahead** (a rook against a minor piece, a rook and a minor
  piece against a rook, a queen against two minor pieces): the score times 4/64 when the weaker
  side keeps at most a minor piece, 14/64 otherwise (these cases, their material count of
  3/3/5/9 and the factors are Stockfish's classical evaluation's).
- **rook pawns and the wrong bishop**: pawns all on the a-file (or all on the h-file), with no
  piece or a bishop that does not control the queening square, against a bare king on the
  queening square or next to it: 0.
- **bishops of opposite colours**, each side's only piece: the score halved.

Everything else keeps its score. The rules are symmetric: a position with colours swapped
scores the same.

The bitbase holds, for the pawn on files a–d and ranks 2–7, each king square and the side to
move, whether the pawn's side wins (2 × 24 × 64 × 64 entries; a pawn on files e–h is mirrored).
It is built when first needed (``build_tables``: when a ``tuned(endgames=on)`` is made, not in
the middle of a timed search) by retrograde analysis: a position where the pawn promotes
safely (the queening square is free and the lone king is not next to it, or the pawn's king
is) is won; one where the lone king takes the pawn, is stalemated or can be, is drawn; then, until
nothing changes, the pawn's side to move wins if a move reaches a won position and draws if
every move reaches a drawn one, and the lone king to move draws if a move reaches a drawn
position and loses if every move reaches a won one. What is left undecided is a draw.

The KBNK table holds, for each side to move, the plies to mate of every position, turned by
the board's eight symmetries so that the pieces' king stands in the triangle a1–d1–d4 (10 × 64
× 64 × 64 entries a side). It is built with the bitbase (about half a second) by retrograde
analysis, a ply at a time from the positions where the lone king is mated: a position with the
pieces to move is won in n + 1 plies if a move reaches one lost in n, found by taking the moves
back; one with the lone king to move is lost in n + 2 plies when every move reaches a position
won in at most n + 1 and none takes a piece safely. What is never reached is a draw.
"""

from libc.stdlib cimport abs

from alfabeta.core.position cimport Position
from alfabeta.games.chess.board cimport (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    NO_SQUARE,
    PAWN,
    WHITE,
    AttackTables,
    Chess,
    attack_tables,
    king_distance,
    slider_attacks,
)

from alfabeta.core.errors import InvalidPositionError
from alfabeta.games.chess.board import fen_placement


cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil


cdef enum:
    KNOWN_WIN = 400  # added to a won king-and-pawn ending's score
    KBNK_WIN = 1000  # a won KBNK ending's score, less its plies to mate
    UNKNOWN = 0
    INVALID = 1
    DRAW = 2
    WIN = 3
    KPK_CELLS = 24  # the pawn's squares: files a–d, ranks 2–7
    KPK_SIZE = 2 * KPK_CELLS * 64 * 64
    KBNK_SIZE = 10 * 64 * 64 * 64  # the strong king's triangle, the bishop, knight, lone king
    KBNK_INVALID = 255

cdef unsigned long long FILE_A = 0x0101010101010101ULL
cdef unsigned long long FILE_H = FILE_A << 7
cdef unsigned long long DARK_SQUARES = 0xAA55AA55AA55AA55ULL  # a1, c1, …, b2, …
cdef int[5] UNITS = [0, 3, 3, 5, 9]  # pawn (not counted) … queen
cdef unsigned char[KPK_SIZE] kpk_table
cdef bint kpk_built = False
cdef const AttackTables* TABLES = attack_tables()
# KBNK: for each side to move (0: the pieces', 1: the lone king's), 0 for a draw or 1 + the
# plies to mate; the board's symmetries (``transformed``) and the king's triangle slots
cdef unsigned char[2][KBNK_SIZE] kbnk_table
cdef bint kbnk_built = False
cdef int[8][64] kbnk_symmetry
cdef int[64] kbnk_king_transform
cdef int[64] kbnk_king_slot
cdef int[10] kbnk_slot_square


cdef inline bint white_pawn_attacks(int pawn, int square) noexcept:
    return (square >> 3) == (pawn >> 3) + 1 and abs((square & 7) - (pawn & 7)) == 1


cdef inline int kpk_index(int white_to_move, int white_king, int black_king, int pawn) noexcept:
    """The entry of white's king, pawn (files a–d, ranks 2–7) and black's king."""
    return ((((pawn >> 3) - 1) * 4 + (pawn & 7)) * 4096 + white_king * 64 + black_king) * 2 \
        + (0 if white_to_move else 1)


cdef int king_steps(int square, int* targets) noexcept:
    """The squares next to ``square`` into ``targets``; returns how many."""
    cdef int df, dr, f, r, n = 0
    for dr in range(-1, 2):
        for df in range(-1, 2):
            f, r = (square & 7) + df, (square >> 3) + dr
            if (df or dr) and 0 <= f < 8 and 0 <= r < 8:
                targets[n] = r * 8 + f
                n += 1
    return n


cdef unsigned char kpk_rules(bint white_to_move, int wk, int bk, int pawn) noexcept:
    """What a position is before any move is looked at: INVALID, WIN, DRAW or UNKNOWN."""
    cdef int[8] steps
    cdef int n, i, moves = 0, stop = pawn + 8
    if wk == bk or wk == pawn or bk == pawn or king_distance(wk, bk) <= 1:
        return INVALID
    if white_to_move:
        if white_pawn_attacks(pawn, bk):
            return INVALID
        if pawn >> 3 == 6 and stop != wk and stop != bk and (
                king_distance(bk, stop) > 1 or king_distance(wk, stop) == 1):
            return WIN
        return UNKNOWN
    n = king_steps(bk, steps)
    for i in range(n):
        if king_distance(steps[i], wk) <= 1 or white_pawn_attacks(pawn, steps[i]):
            continue
        if steps[i] == pawn:
            return DRAW  # takes the undefended pawn
        moves += 1
    if moves == 0:
        return WIN if white_pawn_attacks(pawn, bk) else DRAW  # mated or stalemated
    return UNKNOWN


cdef unsigned char kpk_step(bint white_to_move, int wk, int bk, int pawn) noexcept:
    """An UNKNOWN position decided from its successors' entries, or still UNKNOWN."""
    cdef int[8] steps
    cdef int n, i, stop = pawn + 8
    cdef bint undecided = False
    cdef unsigned char r
    if white_to_move:
        n = king_steps(wk, steps)
        for i in range(n):
            if steps[i] == pawn or king_distance(steps[i], bk) <= 1:
                continue
            r = kpk_table[kpk_index(False, steps[i], bk, pawn)]
            if r == WIN:
                return WIN
            undecided |= r == UNKNOWN
        if pawn >> 3 < 6 and stop != wk and stop != bk:
            r = kpk_table[kpk_index(False, wk, bk, stop)]
            if r == WIN:
                return WIN
            undecided |= r == UNKNOWN
            if pawn >> 3 == 1 and stop + 8 != wk and stop + 8 != bk:
                r = kpk_table[kpk_index(False, wk, bk, stop + 8)]
                if r == WIN:
                    return WIN
                undecided |= r == UNKNOWN
        return UNKNOWN if undecided else DRAW
    n = king_steps(bk, steps)
    for i in range(n):
        if king_distance(steps[i], wk) <= 1 or white_pawn_attacks(pawn, steps[i]):
            continue
        r = kpk_table[kpk_index(True, wk, steps[i], pawn)]
        if r == DRAW:
            return DRAW
        undecided |= r == UNKNOWN
    return UNKNOWN if undecided else WIN


cdef void build_kpk() noexcept:
    """Fill ``kpk_table`` (module docstring)."""
    global kpk_built
    cdef int cell, wk, bk, pawn, side, index
    cdef bint changed = True
    for cell in range(KPK_CELLS):
        pawn = (cell // 4 + 1) * 8 + cell % 4
        for wk in range(64):
            for bk in range(64):
                for side in range(2):
                    kpk_table[kpk_index(side == 0, wk, bk, pawn)] = kpk_rules(
                        side == 0, wk, bk, pawn)
    while changed:
        changed = False
        for cell in range(KPK_CELLS):
            pawn = (cell // 4 + 1) * 8 + cell % 4
            for wk in range(64):
                for bk in range(64):
                    for side in range(2):
                        index = kpk_index(side == 0, wk, bk, pawn)
                        if kpk_table[index] == UNKNOWN:
                            kpk_table[index] = kpk_step(side == 0, wk, bk, pawn)
                            changed |= kpk_table[index] != UNKNOWN
    for index in range(KPK_SIZE):
        if kpk_table[index] == UNKNOWN:
            kpk_table[index] = DRAW
    kpk_built = True


cdef bint kpk_win(Chess board, int strong) noexcept:
    """Whether ``strong``, with a king and its one pawn against a bare king, wins."""
    cdef int flip = 0 if strong == WHITE else 56
    cdef int pawn = ctz(board.pieces[strong][PAWN]) ^ flip
    cdef int wk = ctz(board.pieces[strong][KING]) ^ flip
    cdef int bk = ctz(board.pieces[strong ^ 1][KING]) ^ flip
    if not kpk_built:
        build_kpk()
    if pawn & 7 > 3:
        pawn, wk, bk = pawn ^ 7, wk ^ 7, bk ^ 7
    return kpk_table[kpk_index(board.side_to_move == strong, wk, bk, pawn)] == WIN


cdef inline int material_units(Chess board, int colour) noexcept:
    cdef int kind, total = 0
    for kind in range(KNIGHT, KING):
        total += UNITS[kind] * popcount(board.pieces[colour][kind])
    return total


cdef inline bint bare(Chess board, int colour) noexcept:
    return board.occupied_by[colour] == board.pieces[colour][KING]


cdef inline unsigned long long bit(int square) noexcept:
    return 1ULL << square


cdef inline int transformed(int transform, int square) noexcept:
    """``square`` under one of the board's eight symmetries: bit 0 mirrors the files, bit 1
    the ranks, bit 2 then swaps files and ranks."""
    cdef int f = square & 7, r = square >> 3
    if transform & 1:
        f = 7 - f
    if transform & 2:
        r = 7 - r
    if transform & 4:
        f, r = r, f
    return r * 8 + f


cdef void build_kbnk_symmetries() noexcept:
    """Fill ``kbnk_symmetry``, ``kbnk_king_transform``, ``kbnk_king_slot`` and
    ``kbnk_slot_square``: the transform taking each king square into the triangle a1–d1–d4."""
    cdef int transform, square, f, r, slot = 0
    for transform in range(8):
        for square in range(64):
            kbnk_symmetry[transform][square] = transformed(transform, square)
    for square in range(64):
        f, r = square & 7, square >> 3
        kbnk_king_slot[square] = -1
        transform = (1 if f > 3 else 0) | (2 if r > 3 else 0)
        f, r = min(f, 7 - f), min(r, 7 - r)
        if r > f:
            transform |= 4
        kbnk_king_transform[square] = transform
        if transform == 0:  # already in the triangle
            kbnk_king_slot[square] = slot
            kbnk_slot_square[slot] = square
            slot += 1


cdef inline int kbnk_index(int king, int bishop, int knight, int lone) noexcept:
    """The entry of a position (the strong side's king, bishop and knight, the lone king),
    turned so that the strong king stands in the triangle a1–d1–d4 and, when it stands on the
    diagonal a1–d4, the first of the other pieces off it below it: one entry a position."""
    cdef int transform = kbnk_king_transform[king]
    cdef int[3] others = [bishop, knight, lone]
    cdef int i, square, f, r
    square = kbnk_symmetry[transform][king]
    if square & 7 == square >> 3:
        for i in range(3):
            square = kbnk_symmetry[transform][others[i]]
            f, r = square & 7, square >> 3
            if f != r:
                if r > f:
                    transform ^= 4  # then mirrored in the diagonal
                break
    return ((kbnk_king_slot[kbnk_symmetry[transform][king]] * 64
             + kbnk_symmetry[transform][bishop]) * 64
            + kbnk_symmetry[transform][knight]) * 64 + kbnk_symmetry[transform][lone]


cdef inline bint kbnk_attacks(int king, int bishop, int knight, int square,
                              unsigned long long occupied) noexcept:
    """Whether the strong side's pieces attack ``square``, ``occupied`` blocking the bishop
    (a captured piece's square is passed as NO_SQUARE)."""
    if king_distance(king, square) <= 1:
        return True
    if knight != NO_SQUARE and TABLES.knight[knight] & bit(square):
        return True
    return bishop != NO_SQUARE and slider_attacks(TABLES, bishop, occupied) & bit(square) != 0


cdef int kbnk_lone_moves(int king, int bishop, int knight, int lone, int* targets) noexcept:
    """The lone king's legal moves to empty squares into ``targets``; returns how many, or
    -1 when it can take an undefended piece (a draw)."""
    cdef unsigned long long pieces = bit(king) | bit(bishop) | bit(knight)
    cdef unsigned long long steps = TABLES.king[lone]
    cdef int target, n = 0
    if steps & bit(bishop) and not kbnk_attacks(king, NO_SQUARE, knight, bishop, 0):
        return -1
    if steps & bit(knight) and not kbnk_attacks(king, bishop, NO_SQUARE, knight, bit(king)):
        return -1
    steps &= ~pieces
    while steps:
        target = ctz(steps)
        steps &= steps - 1
        if not kbnk_attacks(king, bishop, knight, target, pieces):
            targets[n] = target
            n += 1
    return n


cdef bint kbnk_lone_lost(int king, int bishop, int knight, int lone) noexcept:
    """Whether every move of the lone king leads to a position already known to be won."""
    cdef int[8] targets
    cdef int i, n = kbnk_lone_moves(king, bishop, knight, lone, targets)
    if n <= 0:
        return False
    for i in range(n):
        if kbnk_table[0][kbnk_index(king, bishop, knight, targets[i])] == 0:
            return False
    return True


cdef inline bint kbnk_mark_won(int king, int bishop, int knight, int lone, int value) noexcept:
    """Mark the position with the strong side to move won (``value``) if it is legal (the lone
    king not in check) and not known yet; returns whether it marked it."""
    cdef int index
    if kbnk_attacks(king, bishop, knight, lone, bit(king) | bit(knight)):
        return False
    index = kbnk_index(king, bishop, knight, lone)
    if kbnk_table[0][index] != 0:
        return False
    kbnk_table[0][index] = value
    return True


cdef void build_kbnk() noexcept:
    """Fill ``kbnk_table`` by retrograde analysis (module docstring)."""
    global kbnk_built
    cdef int[8] targets
    cdef int index, king, bishop, knight, lone, square, n, plies
    cdef unsigned long long occupied, sources
    cdef bint found = True
    build_kbnk_symmetries()
    for index in range(KBNK_SIZE):
        king, bishop = kbnk_slot_square[index >> 18], (index >> 12) & 63
        knight, lone = (index >> 6) & 63, index & 63
        kbnk_table[0][index] = kbnk_table[1][index] = 0
        if king == bishop or king == knight or king == lone or bishop == knight \
                or bishop == lone or knight == lone or king_distance(king, lone) <= 1 \
                or kbnk_index(king, bishop, knight, lone) != index:
            kbnk_table[0][index] = kbnk_table[1][index] = KBNK_INVALID
            continue
        occupied = bit(king) | bit(bishop) | bit(knight)
        if kbnk_attacks(king, bishop, knight, lone, occupied):
            kbnk_table[0][index] = KBNK_INVALID  # the lone king in check, the other side to move
            if kbnk_lone_moves(king, bishop, knight, lone, targets) == 0:
                kbnk_table[1][index] = 1  # mated: 0 plies
    plies = 0
    while found:
        found = False
        for index in range(KBNK_SIZE):  # lost in ``plies``: the strong side's moves into it
            if kbnk_table[1][index] != plies + 1:
                continue
            king, bishop = kbnk_slot_square[index >> 18], (index >> 12) & 63
            knight, lone = (index >> 6) & 63, index & 63
            occupied = bit(king) | bit(bishop) | bit(knight) | bit(lone)
            sources = TABLES.king[king] & ~occupied & ~TABLES.king[lone]
            while sources:
                square = ctz(sources)
                sources &= sources - 1
                found |= kbnk_mark_won(square, bishop, knight, lone, plies + 2)
            sources = TABLES.knight[knight] & ~occupied
            while sources:
                square = ctz(sources)
                sources &= sources - 1
                found |= kbnk_mark_won(king, bishop, square, lone, plies + 2)
            sources = slider_attacks(TABLES, bishop, occupied) & ~occupied
            while sources:
                square = ctz(sources)
                sources &= sources - 1
                found |= kbnk_mark_won(king, square, knight, lone, plies + 2)
        for index in range(KBNK_SIZE):  # won in ``plies`` + 1: the lone king's moves into it
            if kbnk_table[0][index] != plies + 2:
                continue
            king, bishop = kbnk_slot_square[index >> 18], (index >> 12) & 63
            knight, lone = (index >> 6) & 63, index & 63
            occupied = bit(king) | bit(bishop) | bit(knight)
            sources = TABLES.king[lone] & ~occupied & ~TABLES.king[king]
            while sources:
                square = ctz(sources)
                sources &= sources - 1
                n = kbnk_index(king, bishop, knight, square)
                if kbnk_table[1][n] == 0 and kbnk_lone_lost(king, bishop, knight, square):
                    kbnk_table[1][n] = plies + 3
                    found = True
        plies += 2
    kbnk_built = True


cdef int kbnk_plies(Chess board, int strong) noexcept:
    """The plies to mate, with best play, of ``strong``'s king, bishop and knight against the
    bare king, whoever is to move; -1 for a draw (the lone king takes a piece, or is
    stalemated)."""
    cdef int value
    if not kbnk_built:
        build_kbnk()
    value = kbnk_table[0 if board.side_to_move == strong else 1][kbnk_index(
        ctz(board.pieces[strong][KING]), ctz(board.pieces[strong][BISHOP]),
        ctz(board.pieces[strong][KNIGHT]), ctz(board.pieces[strong ^ 1][KING]))]
    return -1 if value == 0 or value == KBNK_INVALID else value - 1


cdef inline bint bishop_and_knight(Chess board, int strong) noexcept:
    """Whether ``strong`` has a king, a bishop and a knight, and the other side a bare king."""
    cdef unsigned long long bishops = board.pieces[strong][BISHOP]
    cdef unsigned long long knights = board.pieces[strong][KNIGHT]
    return bare(board, strong ^ 1) and popcount(bishops) == 1 and popcount(knights) == 1 \
        and board.occupied_by[strong] == board.pieces[strong][KING] | bishops | knights


cdef void build_tables() noexcept:
    """Build the KPK bitbase and the KBNK table, if not built yet (about half a second)."""
    if not kpk_built:
        build_kpk()
    if not kbnk_built:
        build_kbnk()


cdef int endgame_score(Chess board, int score) noexcept:
    """``score`` corrected by the rules of the module docstring."""
    cdef int strong, weak, units_strong, units_weak, queening, value
    cdef unsigned long long pawns, bishops, pieces
    cdef unsigned long long all_pawns = board.pieces[WHITE][PAWN] | board.pieces[BLACK][PAWN]
    cdef unsigned long long occupied = board.occupied_by[WHITE] | board.occupied_by[BLACK]
    if popcount(occupied) == 3 and popcount(all_pawns) == 1:
        strong = WHITE if board.pieces[WHITE][PAWN] else BLACK
        if not kpk_win(board, strong):
            return 0
        value = score if board.side_to_move == strong else -score
        value = max(value, 0) + KNOWN_WIN
        return value if board.side_to_move == strong else -value
    if popcount(occupied) == 4:
        for strong in range(2):
            if bishop_and_knight(board, strong):
                value = kbnk_plies(board, strong)
                value = 0 if value < 0 else KBNK_WIN - value
                return value if board.side_to_move == strong else -value
    if score == 0:
        return 0
    strong = board.side_to_move if score > 0 else board.side_to_move ^ 1
    weak = strong ^ 1
    pawns = board.pieces[strong][PAWN]
    if not pawns:
        units_strong, units_weak = material_units(board, strong), material_units(board, weak)
        if units_strong <= 3 or (units_strong == 6 and popcount(board.pieces[strong][KNIGHT]) == 2
                                 and bare(board, weak)):
            return 0
        if units_strong - units_weak <= 3:
            return score * (4 if units_weak <= 3 else 14) // 64
        return score
    pieces = board.occupied_by[strong] & ~pawns & ~board.pieces[strong][KING]
    bishops = board.pieces[strong][BISHOP]
    if bare(board, weak) and pieces == bishops and popcount(bishops) <= 1 and (
            not pawns & ~FILE_A or not pawns & ~FILE_H):
        queening = (ctz(pawns) & 7) + (56 if strong == WHITE else 0)
        if (not bishops or (bool(bishops & DARK_SQUARES) != bool(DARK_SQUARES >> queening & 1))) \
                and king_distance(ctz(board.pieces[weak][KING]), queening) <= 1:
            return 0
    bishops = board.pieces[WHITE][BISHOP] | board.pieces[BLACK][BISHOP]
    if occupied & ~all_pawns & ~board.pieces[WHITE][KING] & ~board.pieces[BLACK][KING] == bishops \
            and popcount(board.pieces[WHITE][BISHOP]) == 1 \
            and popcount(board.pieces[BLACK][BISHOP]) == 1 \
            and popcount(bishops & DARK_SQUARES) == 1:
        return score // 2
    return score


def kpk(Position position):
    """``"win"`` or ``"draw"``: the result for the pawn's side of a position of a king and a
    pawn against a king, by the bitbase. Any other position raises InvalidPositionError."""
    cdef Chess board
    cdef unsigned long long occupied, pawns
    if not isinstance(position, Chess):
        raise InvalidPositionError(f"kpk probes chess positions, not {position.name}")
    board = <Chess> position
    occupied = board.occupied_by[WHITE] | board.occupied_by[BLACK]
    pawns = board.pieces[WHITE][PAWN] | board.pieces[BLACK][PAWN]
    if popcount(occupied) != 3 or popcount(pawns) != 1:
        raise InvalidPositionError(
            f"kpk probes a king and a pawn against a king, not {board.to_string()!r}")
    return "win" if kpk_win(board, WHITE if board.pieces[WHITE][PAWN] else BLACK) else "draw"


def kbnk(Position position):
    """The plies to mate, with best play, of a king, bishop and knight against a bare king,
    whoever is to move (0: the lone king is mated), or None for a draw (the lone king takes an
    undefended piece, or is stalemated), by the table. Any other position raises
    InvalidPositionError."""
    cdef Chess board
    cdef int strong, plies
    if not isinstance(position, Chess):
        raise InvalidPositionError(f"kbnk probes chess positions, not {position.name}")
    board = <Chess> position
    for strong in range(2):
        if bishop_and_knight(board, strong):
            plies = kbnk_plies(board, strong)
            return None if plies < 0 else plies
    raise InvalidPositionError(
        f"kbnk probes a king, bishop and knight against a king, not {board.to_string()!r}")


def kbnk_longest():
    """The longest win of the KBNK table: its plies to mate and a position (FEN) that takes
    them, white's king, bishop and knight to move."""
    cdef int index, best = 0, best_index = 0
    cdef int king, bishop, knight, lone
    if not kbnk_built:
        build_kbnk()
    for index in range(KBNK_SIZE):
        if kbnk_table[0][index] != KBNK_INVALID and kbnk_table[0][index] > best:
            best, best_index = kbnk_table[0][index], index
    king, bishop = kbnk_slot_square[best_index >> 18], (best_index >> 12) & 63
    knight, lone = (best_index >> 6) & 63, best_index & 63
    return best - 1, fen_placement({king: "K", bishop: "B", knight: "N", lone: "k"}) + " w - - 0 1"


def endgame(Position position, int score):
    """``score`` (the side to move's view) as ``endgame_score`` corrects it."""
    if not isinstance(position, Chess):
        raise InvalidPositionError(f"endgame corrects chess scores, not {position.name}")
    return endgame_score(<Chess> position, score)
