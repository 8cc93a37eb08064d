# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess endgame knowledge that an evaluation's terms cannot see: which material draws.

``endgame_score(board, score)`` corrects an evaluator's ``score`` (centipawns, the side to
move's view); the stronger side is the one ``score`` favours. In order:

- **king and pawn against king**: the exact result, from a bitbase (``kpk``). A draw scores 0;
  a win scores the pawn's side at least 0, plus ``KNOWN_WIN``, so that the search heads for it.
- **bishop and knight against a bare king**: a win, but only in a corner of the bishop's
  colour, further than a search sees from the middle of the board. The score is replaced by
  one that leads there, for the bishop's side: ``KNOWN_WIN``, plus ``CORNER_STEP`` for each
  step (a file or a rank) the lone king stands nearer such a corner than 14, plus
  ``EDGE_STEP`` for each step it stands from the centre (0 … 6, as the mop-up terms count),
  plus ``KINGS_STEP`` for each king move the kings are nearer than 7. Nothing else counts: the
  search sees a piece left hanging.
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
It is built on first use by retrograde analysis: a position where the pawn promotes safely
(the queening square is free and the lone king is not next to it, or the pawn's king is) is
won; one where the lone king takes the pawn, is stalemated or can be, is drawn; then, until
nothing changes, the pawn's side to move wins if a move reaches a won position and draws if
every move reaches a drawn one, and the lone king to move draws if a move reaches a drawn
position and loses if every move reaches a won one. What is left undecided is a draw.
"""

from libc.stdlib cimport abs

from alfabeta.core.position cimport Position
from alfabeta.games.chess.board cimport (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    WHITE,
    Chess,
    centre_distance,
    king_distance,
)

from alfabeta.core.errors import InvalidPositionError


cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil


cdef enum:
    KNOWN_WIN = 400  # added to a won king-and-pawn ending's score
    CORNER_STEP = 20  # KBNK: per step (file or rank) the lone king is nearer a bishop's corner
    EDGE_STEP = 10    # … per step it is further from the centre
    KINGS_STEP = 10   # … per king move it is nearer the other king
    UNKNOWN = 0
    INVALID = 1
    DRAW = 2
    WIN = 3
    KPK_CELLS = 24  # the pawn's squares: files a–d, ranks 2–7
    KPK_SIZE = 2 * KPK_CELLS * 64 * 64

cdef unsigned long long FILE_A = 0x0101010101010101ULL
cdef unsigned long long FILE_H = FILE_A << 7
cdef unsigned long long DARK_SQUARES = 0xAA55AA55AA55AA55ULL  # a1, c1, …, b2, …
cdef int[5] UNITS = [0, 3, 3, 5, 9]  # pawn (not counted) … queen
cdef unsigned char[KPK_SIZE] kpk_table
cdef bint kpk_built = False


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


cdef int bishop_knight_score(Chess board, int strong) noexcept:
    """The score (``strong``'s view) of ``strong``'s king, bishop and knight against a bare
    king (the module docstring), or -1 for any other material."""
    cdef unsigned long long bishops = board.pieces[strong][BISHOP]
    cdef unsigned long long knights = board.pieces[strong][KNIGHT]
    cdef int lone_king, king, corner, f, r
    if not bare(board, strong ^ 1) or popcount(bishops) != 1 or popcount(knights) != 1 \
            or board.occupied_by[strong] != board.pieces[strong][KING] | bishops | knights:
        return -1
    king, lone_king = ctz(board.pieces[strong][KING]), ctz(board.pieces[strong ^ 1][KING])
    f, r = lone_king & 7, lone_king >> 3
    if bishops & DARK_SQUARES:  # a1 and h8: the steps to the nearer
        corner = min(f + r, 14 - f - r)
    else:  # h1 and a8
        corner = min(7 - f + r, f + 7 - r)
    return KNOWN_WIN + CORNER_STEP * (14 - corner) + EDGE_STEP * centre_distance(lone_king) \
        + KINGS_STEP * (7 - king_distance(king, lone_king))


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
            value = bishop_knight_score(board, strong)
            if value >= 0:
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


def endgame(Position position, int score):
    """``score`` (the side to move's view) as ``endgame_score`` corrects it."""
    if not isinstance(position, Chess):
        raise InvalidPositionError(f"endgame corrects chess scores, not {position.name}")
    return endgame_score(<Chess> position, score)
