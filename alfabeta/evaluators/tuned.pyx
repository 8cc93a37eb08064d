# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""``tuned``: a tapered chess evaluation that is linear in its weights, so that Texel's method
(``alfabeta tune``, ``alfabeta.learning.texel``) can fit them to game results.

A position is described by ``FEATURE_COUNT`` counts, each white's minus black's (``features``):
material, piece-square cells (the board folded left–right: 32 cells a piece), passed pawns by
rank, doubled, isolated and backward pawns, safe mobility per piece, the bishop pair, rooks on
open and half-open files, the king's pawn shield, attacks on the king's zone (counted, and
weighted by the attacker and squared: king danger), pieces attacked by pawns, rooks and queens
attacked by minor pieces, hanging pieces, free passed pawns and the kings' race to a passed
pawn's stop square, the move (the side to move's tempo), connected pawns by rank and pawn
phalanxes, knight and bishop outposts, bishops hemmed in by their own pawns, rooks on the
seventh rank, open files by the king, the king's distance to its nearest pawn, the first
three squares of each piece's mobility again, the kinds of piece that can check the enemy
king safely, the weak squares of its zone, pawns storming it, queens attacked by rooks,
minor pieces behind pawns and their distance to their king, bishops on the long diagonals,
rooks shut in by their king, pieces a safe pawn push would attack, space, weak pawns
attacked, squares both sides attack, against a bare king, its distance from the centre
and from the other king (mop-up: kept at its hand-set weights, ``tune --fixed mop-up``), and
each piece's mobility once more as a count of its own (a knight with 0 … 8 safe squares, a
bishop 0 … 13, a rook 0 … 14, a queen 0 … 27), whatever curve the fit gives it; and, for
each piece-square cell, how much more a piece is worth on its queenside square (files a–d)
than on the kingside mirror square (+1 there, −1 on e–h): the tables need not be symmetric;
the whole attack on the enemy king squared (the zone's units with the attackers, safe checks
and weak squares, halved without a queen); how free a passed pawn's way is (no square ahead
held or attacked by the enemy, nor its stop square, or its stop square defended); and the
king's pawn shelter and the enemy's pawn storm on its file and each neighbour, by file and
rank; rooks on a queen's file, bishops' x-rays on enemy pawns, queens where no enemy pawn can
reach them, the attack on the enemy king's flank and the defence of one's own, a king on a
flank without pawns, the safe squares from which a knight or slider would attack the
enemy queen, and Stockfish's threats by attacker (minor piece, rook, king, safe pawn) and
victim.
Every feature has a middlegame and an endgame weight; the score is

    score = s · (mg · counts × phase + eg · counts × (24 − phase)) / 24, rounded

with the phase of ``standard`` (knights and bishops 1, rooks 2, queens 4, at most 24) and s = 1
when white is to move, −1 when black is; halves round away from zero (so a colour-flipped
position scores the same). The shipped weights (``data/tuned.json``) are a Texel fit from the
hand-set ``prior_weights`` to results blended with Stockfish's scores of the positions
(``alfabeta tune … --label-engine stockfish --blend``; docs/chess-engine.md has the recipe and
its data); ``tuned(weights=FILE)`` plays another fit.

A weights file may also hold a residual network (``alfabeta tune --net H``,
``alfabeta.learning.residual``), fitted after the linear weights to what they miss: its
score (``net_score``), in centipawns for the side to move, is added to the rounded linear
score. Its inputs are the pieces by colour, kind and square, seen from each side, and, when
the file has ``attacks`` weights (``tune --net-attacks``), each side's attack on the other's
king (``attack_inputs``); it is integer arithmetic throughout, so a score is the same on every
machine.

``tuned(endgames=on)`` (the chess engine's) then corrects the score where the material is a
known draw or win, which no sum of terms sees: a king-and-pawn bitbase, a distance-to-mate
table for bishop and knight, lone minor pieces, the wrong bishop, opposite bishops
(``alfabeta.evaluators.endgames``).
"""

import functools
import json
import os
from importlib import resources

from libc.stdint cimport int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

import numpy as np

from alfabeta.core.buffers cimport prefetch_address
from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position
from alfabeta.evaluators.endgames cimport build_tables, endgame_score
from alfabeta.games.chess.board cimport (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    AttackTables,
    Chess,
    attack_tables,
    centre_distance,
    king_distance,
    piece_attacks,
)

from alfabeta.core import arrayfile
from alfabeta.core.errors import InvalidOptionError

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil
    int clz "__builtin_clzll"(unsigned long long) nogil

cdef enum:
    F_MATERIAL = 0        # pawn … queen
    F_TABLE = 5           # 6 pieces × 32 cells: rank × 4 + folded file, white's view
    F_PASSED = 197        # a passed pawn on relative rank 2 … 7
    F_DOUBLED = 203       # pawns behind another own pawn on the file
    F_ISOLATED = 204
    F_BACKWARD = 205      # unsupported, its stop square held by an enemy pawn
    F_MOBILITY = 206      # knight … queen: attacked squares, not own, not held by enemy pawns
    F_BISHOP_PAIR = 210
    F_ROOK_OPEN = 211
    F_ROOK_HALF_OPEN = 212
    F_SHIELD = 213        # own pawns one or two ranks before the king, its file and the next
    F_KING_ZONE = 214     # attacks of knights … queens on the enemy king's zone
    F_PAWN_THREAT = 215   # own knights … queens attacked by an enemy pawn
    F_MINOR_THREAT = 216  # own rooks and queens attacked by an enemy knight or bishop
    F_HANGING = 217       # own knights … queens attacked and not defended
    F_KING_DANGER = 218   # the attack on the enemy king: min(units, 50)² / 10 (KING_UNITS)
    F_PASSED_FREE = 219   # a passed pawn whose stop square is empty, × its relative rank
    F_PASSED_KING = 220   # (enemy king's − own king's distance to the stop square) × rank
    F_TEMPO = 221
    F_CONNECTED = 222     # a pawn beside or defended by an own pawn, on relative rank 2 … 7
    F_PHALANX = 228       # a pawn with an own pawn beside it on its rank
    F_OUTPOST = 229       # knight, bishop on relative rank 4 … 6, pawn-defended, out of pawn reach
    F_BAD_BISHOP = 231    # own pawns on a bishop's square colour, summed over the bishops
    F_ROOK_SEVENTH = 232  # a rook on relative rank 7
    F_KING_OPEN = 233     # files among the king's and its neighbours with no own pawn
    F_KING_PAWN = 234     # the king's distance to its nearest own pawn (0 without pawns)
    F_LOW_MOBILITY = 235  # knight … queen: min(mobility, 3), a steeper first few squares
    F_SAFE_CHECK = 239    # knight … queen: 1 if it can check the enemy king on a safe square
    F_WEAK_ZONE = 243     # enemy king zone squares we attack and only its king or queen hold
    F_PAWN_STORM = 244    # own pawns on relative rank 4 … 6 by the enemy king's file
    F_ROOK_THREAT = 245   # own queens attacked by an enemy rook
    F_MINOR_BEHIND_PAWN = 246  # a knight or bishop with a pawn (either's) just before it
    F_KING_PROTECTOR = 247     # knights' and bishops' distance to their own king
    F_LONG_DIAGONAL = 248      # a bishop that sees two centre squares, only pawns blocking it
    F_TRAPPED_ROOK = 249       # a rook with at most 3 safe squares, shut in by its own king
    F_PUSH_THREAT = 250        # enemy pieces a safe pawn push would attack
    F_SPACE = 251              # safe squares of files c–f, relative ranks 2–4 (more behind pawns)
    F_WEAK_PAWN = 252          # enemy pawns no enemy pawn defends, that we attack
    F_RESTRICTED = 253         # squares the enemy attacks that we attack too, not by pawns
    F_MOPUP_EDGE = 254         # a bare enemy king's distance from the centre (see ``mop_up``)
    F_MOPUP_KINGS = 255        # 7 − the kings' distance, in the same endings
    F_MOBILITY_COUNT = 256     # knight 0 … 8, bishop 0 … 13, rook 0 … 14, queen 0 … 27 squares
    F_TABLE_SIDE = 322    # 6 pieces × 32 cells: +1 on files a–d, −1 on the mirror square e–h
    F_KING_ATTACK = 514   # the whole attack on the enemy king, squared (``king_attack_counts``)
    F_PASSED_PATH = 515   # passed pawns on relative ranks 4 … 7: way, stop (``passer_counts``)
    F_SHELTER = 518       # the king's file and its neighbours: own pawn by folded file × rank
    F_STORM = 546         # … the nearest enemy pawn by folded file × rank, unless blocked
    F_STORM_BLOCKED = 574  # … an enemy pawn just before an own pawn, by rank 3 … 7
    F_ROOK_QUEEN_FILE = 579    # a rook on a file with a queen (either's)
    F_BISHOP_XRAY = 580        # enemy pawns on a bishop's diagonals, through any piece
    F_QUEEN_INFILTRATION = 581  # a queen on the enemy's half where no enemy pawn can reach it
    F_FLANK_ATTACK = 582       # squares of the enemy king's flank and camp we attack, + twice
    F_FLANK_DEFENCE = 583      # squares of our own king's flank and camp we attack
    F_PAWNLESS_FLANK = 584     # our king on a flank without pawns (either's)
    F_KNIGHT_ON_QUEEN = 585    # safe squares a knight of ours reaches to attack the enemy queen
    F_SLIDER_ON_QUEEN = 586    # … a bishop or rook of ours, the square attacked twice by us
    F_THREAT_BY_MINOR = 587    # enemy pawn … queen our minor pieces attack (``threat_by_counts``)
    F_THREAT_BY_ROOK = 592     # weak enemy pawn … queen our rooks attack
    F_THREAT_BY_KING = 597     # weak enemy pieces our king attacks
    F_WEAK_HANGING = 598       # weak enemy pieces not defended, or attacked twice and not pawns
    F_WEAK_QUEEN_GUARD = 599   # weak enemy pieces their queen defends
    F_SAFE_PAWN_THREAT = 600   # enemy knights … queens our safe pawns attack
    FEATURE_COUNT = 601
    PHASE_TOTAL = 24
    KING_DANGER_CAP = 50
    KING_ATTACK_CAP = 100
    CACHE_SLOTS = 1 << 16  # scores remembered per evaluator (512 KiB; see ``Tuned``)
    NET_INPUTS = 768       # the residual network's inputs: colour × kind × square, one view
    NET_ONE = 1024         # the residual network's fixed point: 1.0 as an integer
    NET_MAX_HIDDEN = 256
    NET_MAX_BUCKETS = 8    # sets of output weights, chosen by the pieces on the board
    NET_MAX_KING_BUCKETS = 8  # sets of a view's input rows, chosen by its own king's square
    NET_MAX_INPUT = 960    # |input weight| at most: 32 of them and a bias fit an int16
    NET_MAX_BIAS = 2047
    NET_MAX_OUTPUT = 2047  # |output weight| at most: 512 products of them fit an int
    NET_REFRESH = 16       # more pieces changed than this: the accumulators summed afresh
    NET_ATTACKS = 16       # the network's attack inputs: 8 for each side (``attack_inputs``)
    PAWN_BITS = 12         # pawn structures remembered per evaluator: 2 ** this (192 KiB)
    MOBILITY_SPAN = 28     # a piece attacks 0 … 27 squares

cdef unsigned long long FILE_A = 0x0101010101010101ULL
cdef unsigned long long FILE_H = FILE_A << 7
cdef unsigned long long LIGHT_SQUARES = 0x55AA55AA55AA55AAULL
cdef unsigned long long CENTRE = (1ULL << 27) | (1ULL << 28) | (1ULL << 35) | (1ULL << 36)
cdef unsigned long long SPACE_WHITE = 0x3C3C3C00ULL  # files c–f, ranks 2–4
cdef unsigned long long SPACE_BLACK = 0x003C3C3C00000000ULL  # … ranks 7–5
cdef const AttackTables* TABLES = attack_tables()
cdef int[6] PHASE_WEIGHT = [0, 1, 1, 2, 4, 0]
cdef int[6] KING_UNITS = [0, 2, 2, 3, 5, 0]  # per attacked square of the enemy king's zone
# ``F_KING_ATTACK``'s units: per piece attacking the zone, per kind that can check safely,
# per weak square of the zone
cdef int ATTACKER_UNITS = 3
cdef int[6] CHECK_UNITS = [0, 12, 8, 14, 10, 0]
cdef int WEAK_UNITS = 3
# where each kind's mobility counts start (F_MOBILITY_COUNT: one feature per count)
cdef int[5] MOBILITY_COUNT_AT = [0, F_MOBILITY_COUNT, F_MOBILITY_COUNT + 9,
                                 F_MOBILITY_COUNT + 23, F_MOBILITY_COUNT + 38]
MOBILITY_COUNTS = (9, 14, 15, 28)  # the number of mobility counts of knight … queen
MAX_WEIGHT = 30000  # |weight| at most: the packed sums (``pack``) keep within ±2³¹


# ``Tuned`` remembers the pawn structure's share of the score: the pawns' material and cells
# and the doubled, isolated, backward and passed pawns (weighted, white minus black), and each
# side's passed pawns; and, for the kings on ``kings`` (white's square + 64 × black's; −1:
# none yet), the share of the features of the pawns and the two kings (``king_pawn_counts``).
cdef struct PawnEntry:
    unsigned long long white
    unsigned long long black
    long long score  # packed (``pack``)
    unsigned long long passed[2]
    int kings
    long long king_score  # packed
    bint used


cdef struct AttackMaps:
    unsigned long long pawns    # squares a side's pawns attack
    unsigned long long by_kind[5]  # … its knights, bishops, rooks, queens (by kind; 0 unused)
    unsigned long long every    # … any of its pieces, the king included
    unsigned long long twice    # … two of them or more
    int units                   # its attack units on the enemy king's zone (``KING_UNITS``)
    int attackers               # its knights … queens that attack that zone
    int safe_checks             # its kinds of piece that can check safely (``king_attack_counts``)
    int weak                    # the zone's squares it attacks that only the king or queen hold


# Where the features go: with ``counts`` set, each feature's count is added to it (for
# ``features`` and the fit); with ``counts`` NULL, the count times the feature's packed weights
# (``pack``) is added to ``score`` at once (``evaluate``: no dot product over every feature),
# a piece's material and table cell in one step from ``psq`` (``Tuned.psq``), and a piece's
# three mobility terms in one step from ``mobility``.
cdef struct Sums:
    int* counts
    const long long* weights
    const long long* psq
    const long long* mobility
    long long score


cdef inline long long pack(long long mg, long long eg) noexcept:
    """``mg`` and ``eg`` in one integer, mg × 2³² + eg, so that one addition adds both: a sum
    of packed values is the packed sum while its mg and eg stay within ±2³¹. Weights within
    ±``MAX_WEIGHT`` see to that: a position's counts, white's and black's, add up to a few
    thousand at most."""
    return mg * 4294967296LL + eg


cdef inline int packed_eg(long long packed) noexcept:
    """The eg of a ``pack``: its low 32 bits, signed."""
    return <int32_t> <uint32_t> packed


cdef inline int packed_mg(long long packed) noexcept:
    """The mg of a ``pack``."""
    return <int> ((packed - packed_eg(packed)) >> 32)


cdef inline void add(Sums* sums, int feature, int amount) noexcept:
    """Add ``amount`` of ``feature`` to ``sums``."""
    if sums.counts != NULL:
        sums.counts[feature] += amount
    else:
        sums.score += sums.weights[feature] * amount


cdef inline void add_placement(Sums* sums, int kind, int ws, int sign) noexcept:
    """Add a ``kind`` on the white-view square ``ws``: its material and cell, times ``sign``."""
    if sums.counts == NULL:
        sums.score += sign * sums.psq[64 * kind + ws]
    else:
        add(sums, F_TABLE + 32 * kind + cell(ws), sign)
        add(sums, F_TABLE_SIDE + 32 * kind + cell(ws), sign if (ws & 7) < 4 else -sign)
        if kind != KING:
            add(sums, F_MATERIAL + kind, sign)


cdef inline int mobility_weight(const int* weights, int kind, int mobility) noexcept:
    """The weight of a ``kind`` (knight … queen) that attacks ``mobility`` squares: its
    mobility, low-mobility and mobility-count terms together."""
    return weights[F_MOBILITY + kind - 1] * mobility \
        + weights[F_LOW_MOBILITY + kind - 1] * (mobility if mobility < 3 else 3) \
        + weights[MOBILITY_COUNT_AT[kind] + mobility]


PIECES = ("pawn", "knight", "bishop", "rook", "queen", "king")


def feature_names():
    """The name of every feature, in weight order."""
    names = [f"material {p}" for p in PIECES[:5]]
    names += [f"table {p} {'abcd'[c % 4]}{c // 4 + 1}" for p in PIECES for c in range(32)]
    names += [f"passed rank {r}" for r in range(2, 8)]
    names += ["doubled", "isolated", "backward"]
    names += [f"mobility {p}" for p in PIECES[1:5]]
    names += ["bishop pair", "rook open file", "rook half-open file", "king shield",
              "king zone attacks", "threat by pawn", "threat by minor", "hanging",
              "king danger", "passed free", "passed king distance", "tempo"]
    names += [f"connected rank {r}" for r in range(2, 8)]
    names += ["phalanx", "outpost knight", "outpost bishop", "bad bishop", "rook seventh",
              "king open files", "king pawn distance"]
    names += [f"low mobility {p}" for p in PIECES[1:5]]
    names += [f"safe check {p}" for p in PIECES[1:5]]
    names += ["weak king zone", "pawn storm", "threat by rook"]
    names += ["minor behind pawn", "king protector", "long diagonal bishop", "trapped rook",
              "threat by pawn push", "space", "weak pawn attacked", "restricted",
              "mop-up edge", "mop-up kings"]
    names += [f"mobility {p} {count}" for p, counts in zip(PIECES[1:5], MOBILITY_COUNTS)
              for count in range(counts)]
    names += [f"table {p} {'abcd'[c % 4]}{c // 4 + 1} over {'hgfe'[c % 4]}{c // 4 + 1}"
              for p in PIECES for c in range(32)]
    names += ["king attack", "passed safe path", "passed safe stop", "passed defended stop"]
    names += [f"{kind} {'abcd'[f]}-file {'none' if r == 0 else f'rank {r + 1}'}"
              for kind in ("shelter", "storm") for f in range(4) for r in range(7)]
    names += [f"storm blocked rank {r + 1}" for r in range(2, 7)]
    names += ["rook queen file", "bishop xray pawns", "queen infiltration", "king flank attack",
              "king flank defence", "pawnless flank", "knight on queen", "slider on queen"]
    names += [f"threat by {attacker} on {victim}" for attacker in ("minor", "rook")
              for victim in ("pawn", "knight", "bishop", "rook", "queen")]
    names += ["threat by king", "weak hanging", "weak queen guard", "safe pawn threat"]
    return names


cdef inline int cell(int square) noexcept:
    """A white-view square's cell in the folded table (files e–h mirror d–a)."""
    cdef int f = square & 7
    return (square >> 3) * 4 + (f if f < 4 else 7 - f)


cdef inline unsigned long long pawn_attacks(unsigned long long pawns, int colour) noexcept:
    if colour == WHITE:
        return ((pawns & ~FILE_A) << 7) | ((pawns & ~FILE_H) << 9)
    return ((pawns & ~FILE_A) >> 9) | ((pawns & ~FILE_H) >> 7)


cdef inline unsigned long long adjacent_files(int f) noexcept:
    return (FILE_A << (f - 1) if f > 0 else 0) | (FILE_A << (f + 1) if f < 7 else 0)


cdef inline unsigned long long ahead_of(int square, int colour) noexcept:
    """The ranks before ``square`` from ``colour``'s side (its pawns' way forward)."""
    cdef int r = square >> 3
    if colour == WHITE:
        return 0 if r == 7 else (0xFFFFFFFFFFFFFFFFULL << (8 * (r + 1)))
    return (1ULL << (8 * r)) - 1


cdef inline int stop_square(int square, int colour, int* rel) noexcept:
    """The square before ``colour``'s pawn on ``square`` (its stop square), with the pawn's
    relative rank (0-based) in ``rel``; −1 on the last rank, which has none."""
    rel[0] = square >> 3 if colour == WHITE else 7 - (square >> 3)
    if rel[0] == 7:
        return -1
    return square + 8 if colour == WHITE else square - 8


cdef inline int round_div(long long a, int b) noexcept:
    """a / b rounded to the nearest integer, halves away from zero (b > 0)."""
    return <int> ((a + b // 2) // b if a >= 0 else -((-a + b // 2) // b))


cdef unsigned long long pawn_structure(unsigned long long pawns,
                                       unsigned long long enemy_pawns, int colour, int sign,
                                       Sums* sums) noexcept:
    """Add the features of ``colour``'s ``pawns`` that depend on the pawns alone (doubled,
    isolated, backward, passed and connected by rank, phalanx), times ``sign``, to ``sums``;
    return its passed pawns."""
    cdef int them = colour ^ 1, square, f, r, rel
    cdef unsigned long long bits = pawns, ahead, front, passed = 0, beside
    cdef unsigned long long defended = pawn_attacks(pawns, colour)
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        f, r = square & 7, square >> 3
        rel = r if colour == WHITE else 7 - r
        ahead = ahead_of(square, colour)
        if colour == WHITE:
            front = 1ULL << (square + 8) if r < 7 else 0
        else:
            front = 1ULL << (square - 8) if r > 0 else 0
        if pawns & ahead & (FILE_A << f):
            add(sums, F_DOUBLED, sign)
        beside = pawns & adjacent_files(f) & (0xFFULL << (8 * r))
        if beside:
            add(sums, F_PHALANX, sign)
        if beside or defended >> square & 1:
            add(sums, F_CONNECTED + rel - 1, sign)
        if not (enemy_pawns & ahead & ((FILE_A << f) | adjacent_files(f))):
            add(sums, F_PASSED + rel - 1, sign)
            passed |= 1ULL << square
        if not (pawns & adjacent_files(f)):
            add(sums, F_ISOLATED, sign)
        elif not (pawns & adjacent_files(f) & ~ahead) \
                and front & pawn_attacks(enemy_pawns, them):
            add(sums, F_BACKWARD, sign)
    return passed


cdef inline void mop_up(Chess board, int colour, int sign, Sums* sums) noexcept:
    """Add the mop-up features, times ``sign``, when the enemy has only its king and
    ``colour`` a rook, a queen or a bishop and another minor piece: the enemy king's distance
    from the centre (king moves to d4–e5, files and ranks summed, 0 … 6) and the kings'
    nearness. (With enemy pawns left, a king on the edge is as often one escorting its pawn
    home.)"""
    cdef int them = colour ^ 1, king, enemy_king
    if board.occupied_by[them] != board.pieces[them][KING]:
        return
    if not (board.pieces[colour][ROOK] | board.pieces[colour][QUEEN]) and (
            not board.pieces[colour][BISHOP]
            or popcount(board.pieces[colour][KNIGHT] | board.pieces[colour][BISHOP]) < 2):
        return
    king, enemy_king = ctz(board.pieces[colour][KING]), ctz(board.pieces[them][KING])
    add(sums, F_MOPUP_EDGE, sign * centre_distance(enemy_king))
    add(sums, F_MOPUP_KINGS, sign * (7 - king_distance(king, enemy_king)))


cdef inline void side_counts(Chess board, int colour, int sign, Sums* sums,
                             AttackMaps* maps) noexcept:
    """Add ``colour``'s features but the threats and ``pawn_structure``'s,
    ``king_pawn_counts``' and ``passer_counts``', times ``sign``, to ``sums``, and fill
    ``maps`` with what its pawns, each kind of piece and all of them attack
    (``threat_counts``, ``king_attack_counts``)."""
    cdef int them = colour ^ 1, kind, square, ws, f, rel, king, enemy_king, units = 0
    cdef int mobility
    cdef unsigned long long bits
    cdef unsigned long long pawns = board.pieces[colour][PAWN]
    cdef unsigned long long enemy_pawns = board.pieces[them][PAWN]
    cdef unsigned long long own = board.occupied_by[colour]
    cdef unsigned long long occupied = board.occupied_by[0] | board.occupied_by[1]
    cdef unsigned long long unsafe = pawn_attacks(enemy_pawns, them)
    cdef unsigned long long all_pawns = pawns | enemy_pawns
    cdef unsigned long long zone, attacks
    enemy_king = ctz(board.pieces[them][KING])
    king = ctz(board.pieces[colour][KING])
    zone = piece_attacks(TABLES, KING, enemy_king, occupied) | (1ULL << enemy_king)
    maps.pawns = pawn_attacks(pawns, colour)
    maps.by_kind[KNIGHT] = maps.by_kind[BISHOP] = maps.by_kind[ROOK] = maps.by_kind[QUEEN] = 0
    maps.every = maps.pawns | piece_attacks(TABLES, KING, king, occupied)
    maps.twice = maps.pawns & maps.every
    maps.attackers = 0
    # weighted, the pawns' material and cells come with the pawn structure (``count_features``)
    for kind in range(PAWN if sums.counts != NULL else KNIGHT, 6):
        bits = board.pieces[colour][kind]
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            ws = square if colour == WHITE else square ^ 56
            add_placement(sums, kind, ws, sign)
            if kind == PAWN or kind == KING:
                continue
            attacks = piece_attacks(TABLES, kind, square, occupied)
            maps.twice |= maps.every & attacks
            maps.every |= attacks
            maps.by_kind[kind] |= attacks
            mobility = popcount(attacks & ~own & ~unsafe)
            if sums.counts == NULL:
                sums.score += sign * sums.mobility[MOBILITY_SPAN * kind + mobility]
            else:
                add(sums, F_MOBILITY + kind - 1, sign * mobility)
                add(sums, F_LOW_MOBILITY + kind - 1, sign * (mobility if mobility < 3 else 3))
                add(sums, MOBILITY_COUNT_AT[kind] + mobility, sign)
            add(sums, F_KING_ZONE, sign * popcount(attacks & zone))
            units += KING_UNITS[kind] * popcount(attacks & zone)
            if attacks & zone:
                maps.attackers += 1
            rel = ws >> 3
            if kind <= BISHOP:
                add(sums, F_KING_PROTECTOR, sign * king_distance(square, king))
                if rel < 7 and all_pawns >> (square + 8 if colour == WHITE else square - 8) & 1:
                    add(sums, F_MINOR_BEHIND_PAWN, sign)
                if 3 <= rel <= 5 and maps.pawns >> square & 1 \
                        and not (enemy_pawns & ahead_of(square, colour)
                                 & adjacent_files(square & 7)):
                    add(sums, F_OUTPOST + kind - KNIGHT, sign)
                if kind == BISHOP:
                    add(sums, F_BAD_BISHOP, sign * popcount(
                        pawns & (LIGHT_SQUARES if LIGHT_SQUARES >> square & 1
                                 else ~LIGHT_SQUARES)))
                    if popcount(piece_attacks(TABLES, BISHOP, square, all_pawns) & CENTRE) > 1:
                        add(sums, F_LONG_DIAGONAL, sign)
            elif kind == ROOK:
                f = square & 7
                if not (pawns & (FILE_A << f)):
                    add(sums, F_ROOK_OPEN if not (enemy_pawns & (FILE_A << f))
                        else F_ROOK_HALF_OPEN, sign)
                if rel == 6:
                    add(sums, F_ROOK_SEVENTH, sign)
                if mobility <= 3 and ((king & 7) < 4) == (f < (king & 7)):
                    add(sums, F_TRAPPED_ROOK, sign)
    maps.units = units
    if units > KING_DANGER_CAP:
        units = KING_DANGER_CAP
    add(sums, F_KING_DANGER, sign * (units * units // 10))
    if popcount(board.pieces[colour][BISHOP]) >= 2:
        add(sums, F_BISHOP_PAIR, sign)
    mop_up(board, colour, sign, sums)


cdef inline int nearest_rank(unsigned long long pawns, int colour) noexcept:
    """The relative rank (0-based, ``colour``'s view) of the pawn nearest ``colour``'s first
    rank among ``pawns`` on one file; 0 without one."""
    if not pawns:
        return 0
    if colour == WHITE:
        return ctz(pawns) >> 3
    return 7 - ((63 - clz(pawns)) >> 3)


cdef inline void shelter_counts(Chess board, int colour, int sign, Sums* sums) noexcept:
    """Add the pawns around ``colour``'s king, times ``sign``, to ``sums``: on its file and
    each neighbour, by the file folded (a–d) and the relative rank of the nearest own pawn
    not behind the king (shelter) and of the nearest enemy pawn (storm; blocked when it
    stands just before that own pawn); a file without one counts as "none"."""
    cdef int king = ctz(board.pieces[colour][KING]), f, folded, ours, theirs
    cdef int kr = king >> 3
    cdef unsigned long long not_behind, own, enemy
    if colour == WHITE:
        not_behind = ~((1ULL << (8 * kr)) - 1)
    else:
        not_behind = 0xFFFFFFFFFFFFFFFFULL if kr == 7 else (1ULL << (8 * (kr + 1))) - 1
    for f in range((king & 7) - 1 if king & 7 else 0, (king & 7) + 2 if (king & 7) < 7 else 8):
        own = board.pieces[colour][PAWN] & not_behind & (FILE_A << f)
        enemy = board.pieces[colour ^ 1][PAWN] & not_behind & (FILE_A << f)
        ours = nearest_rank(own, colour)
        theirs = nearest_rank(enemy, colour)
        folded = f if f < 4 else 7 - f
        add(sums, F_SHELTER + 7 * folded + ours, sign)
        if ours and theirs == ours + 1:
            add(sums, F_STORM_BLOCKED + theirs - 2, sign)  # theirs ≥ 2: ours ≥ 1
        else:
            add(sums, F_STORM + 7 * folded + theirs, sign)


cdef inline unsigned long long flank_files(int king) noexcept:
    """The files of the flank of a king on ``king``: a–c, a–d, c–f, e–h or f–h."""
    cdef int f = king & 7
    cdef unsigned long long files
    if f == 0:
        files = 0x07ULL
    elif f <= 2:
        files = 0x0FULL
    elif f <= 4:
        files = 0x3CULL
    elif f <= 6:
        files = 0xF0ULL
    else:
        files = 0xE0ULL
    return files * FILE_A


cdef inline unsigned long long king_flank(int king, int colour) noexcept:
    """The flank of ``colour``'s king on ``king``, on the five ranks of its side (its camp)."""
    return flank_files(king) & (0x000000FFFFFFFFFFULL if colour == WHITE
                                else 0xFFFFFFFFFF000000ULL)


cdef inline void king_pawn_counts(Chess board, int colour, int sign, unsigned long long passed,
                                  Sums* sums) noexcept:
    """Add ``colour``'s features that depend on the pawns and the two kings alone, times
    ``sign``, to ``sums`` (``passed``: its passed pawns): the kings' race to each passed
    pawn's stop square, the pawn storm on the enemy king, the shield, the open files and the
    nearest pawn by its king, the shelter and storm (``shelter_counts``) and a pawnless
    flank (``Tuned`` remembers their share with the pawn structure's)."""
    cdef int them = colour ^ 1, square, f, r, rel, stop, nearest, near_file
    cdef int king = ctz(board.pieces[colour][KING]), enemy_king = ctz(board.pieces[them][KING])
    cdef unsigned long long pawns = board.pieces[colour][PAWN], bits = passed
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        stop = stop_square(square, colour, &rel)
        if stop < 0:
            continue
        add(sums, F_PASSED_KING,
            sign * rel * (king_distance(enemy_king, stop) - king_distance(king, stop)))
    add(sums, F_PAWN_STORM, sign * popcount(
        pawns & ((FILE_A << (enemy_king & 7)) | adjacent_files(enemy_king & 7))
        & (0x0000FFFFFF000000ULL if colour == WHITE else 0x000000FFFFFF0000ULL)))
    f = king & 7
    for r in range(1, 3):
        rel = (king >> 3) + (r if colour == WHITE else -r)
        if 0 <= rel <= 7:
            add(sums, F_SHIELD, sign * popcount(
                pawns & (0xFFULL << (8 * rel)) & ((FILE_A << f) | adjacent_files(f))))
    for near_file in range(f - 1 if f > 0 else 0, f + 2 if f < 7 else 8):
        if not (pawns & (FILE_A << near_file)):
            add(sums, F_KING_OPEN, sign)
    if pawns:
        nearest = 7
        bits = pawns
        while bits:
            square = ctz(bits)
            bits &= bits - 1
            if king_distance(king, square) < nearest:
                nearest = king_distance(king, square)
        add(sums, F_KING_PAWN, sign * nearest)
    shelter_counts(board, colour, sign, sums)
    if not ((pawns | board.pieces[them][PAWN]) & flank_files(king)):
        add(sums, F_PAWNLESS_FLANK, sign)


cdef inline void flank_counts(Chess board, int colour, int sign, Sums* sums, AttackMaps* mine,
                              AttackMaps* theirs) noexcept:
    """Add ``colour``'s rooks on a queen's file, its bishops' x-rays on enemy pawns, its
    queens infiltrated, its attack on the enemy king's flank and defence of its own king's,
    and its safe ways to attack the enemy queen, times ``sign``, to ``sums``."""
    cdef int them = colour ^ 1, square
    cdef int king = ctz(board.pieces[colour][KING]), enemy_king = ctz(board.pieces[them][KING])
    cdef unsigned long long occupied = board.occupied_by[0] | board.occupied_by[1]
    cdef unsigned long long queens = board.pieces[WHITE][QUEEN] | board.pieces[BLACK][QUEEN]
    cdef unsigned long long enemy_pawns = board.pieces[them][PAWN]
    cdef unsigned long long bits, reach, flank, safe
    bits = board.pieces[colour][ROOK]
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        if queens & (FILE_A << (square & 7)):
            add(sums, F_ROOK_QUEEN_FILE, sign)
    bits = board.pieces[colour][BISHOP]
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        add(sums, F_BISHOP_XRAY, sign * popcount(piece_attacks(TABLES, BISHOP, square, 0)
                                                 & enemy_pawns))
    # every square an enemy pawn may yet attack: its attacks, filled towards our side
    reach = theirs.pawns
    if them == WHITE:
        reach |= reach << 8
        reach |= reach << 16
        reach |= reach << 32
    else:
        reach |= reach >> 8
        reach |= reach >> 16
        reach |= reach >> 32
    bits = board.pieces[colour][QUEEN]
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        if (square >> 3 >= 4 if colour == WHITE else square >> 3 <= 3) \
                and not (reach >> square & 1):
            add(sums, F_QUEEN_INFILTRATION, sign)
    flank = king_flank(enemy_king, them)
    add(sums, F_FLANK_ATTACK, sign * (popcount(flank & mine.every)
                                      + popcount(flank & mine.twice)))
    flank = king_flank(king, colour)
    add(sums, F_FLANK_DEFENCE, sign * popcount(flank & mine.every))
    if popcount(board.pieces[them][QUEEN]) == 1:
        square = ctz(board.pieces[them][QUEEN])
        safe = ~board.occupied_by[colour] & ~theirs.pawns
        add(sums, F_KNIGHT_ON_QUEEN, sign * popcount(
            piece_attacks(TABLES, KNIGHT, square, occupied) & mine.by_kind[KNIGHT] & safe))
        add(sums, F_SLIDER_ON_QUEEN, sign * popcount(
            ((piece_attacks(TABLES, BISHOP, square, occupied) & mine.by_kind[BISHOP])
             | (piece_attacks(TABLES, ROOK, square, occupied) & mine.by_kind[ROOK]))
            & safe & mine.twice))


cdef inline void threat_counts(Chess board, int colour, int sign, Sums* sums, AttackMaps* mine,
                               AttackMaps* theirs) noexcept:
    """Add ``colour``'s threatened pieces, times ``sign``, to ``sums``."""
    cdef unsigned long long majors = board.pieces[colour][ROOK] | board.pieces[colour][QUEEN]
    cdef unsigned long long pieces = board.pieces[colour][KNIGHT] | board.pieces[colour][BISHOP] \
        | majors
    add(sums, F_PAWN_THREAT, sign * popcount(pieces & theirs.pawns))
    add(sums, F_MINOR_THREAT, sign * popcount(
        majors & (theirs.by_kind[KNIGHT] | theirs.by_kind[BISHOP])))
    add(sums, F_ROOK_THREAT, sign * popcount(board.pieces[colour][QUEEN] & theirs.by_kind[ROOK]))
    add(sums, F_HANGING, sign * popcount(pieces & theirs.every & ~mine.every))


cdef inline void threat_by_counts(Chess board, int colour, int sign, Sums* sums, AttackMaps* mine,
                                  AttackMaps* theirs) noexcept:
    """Add ``colour``'s threats on enemy pieces, by attacker and victim, times ``sign``, to
    ``sums`` (Stockfish's classical threats). An enemy piece is strongly protected when an
    enemy pawn defends it or the enemy attacks its square twice and we do not; weak when
    we attack it and it is not strongly protected. Knights and bishops count their attacks
    on weak pieces and on strongly protected ones other than pawns; rooks and the king on
    weak ones; weak pieces that nothing defends, or that we attack twice and are not pawns,
    are counted again (``F_WEAK_HANGING``), and so are weak pieces their queen defends."""
    cdef int them = colour ^ 1, kind
    cdef unsigned long long enemies = board.occupied_by[them] & ~board.pieces[them][KING]
    cdef unsigned long long non_pawns = enemies & ~board.pieces[them][PAWN]
    cdef unsigned long long strong = theirs.pawns | (theirs.twice & ~mine.twice)
    cdef unsigned long long weak = enemies & ~strong & mine.every
    cdef unsigned long long minors = ((non_pawns & strong) | weak) \
        & (mine.by_kind[KNIGHT] | mine.by_kind[BISHOP])
    cdef unsigned long long rooks = weak & mine.by_kind[ROOK]
    cdef unsigned long long safe_pawns
    for kind in range(PAWN, KING):
        add(sums, F_THREAT_BY_MINOR + kind, sign * popcount(minors & board.pieces[them][kind]))
        add(sums, F_THREAT_BY_ROOK + kind, sign * popcount(rooks & board.pieces[them][kind]))
    add(sums, F_THREAT_BY_KING, sign * popcount(
        weak & piece_attacks(TABLES, KING, ctz(board.pieces[colour][KING]), 0)))
    add(sums, F_WEAK_HANGING, sign * popcount(weak & (~theirs.every | (non_pawns & mine.twice))))
    add(sums, F_WEAK_QUEEN_GUARD, sign * popcount(weak & theirs.by_kind[QUEEN]))
    safe_pawns = board.pieces[colour][PAWN] & (~theirs.every | mine.every)
    add(sums, F_SAFE_PAWN_THREAT, sign * popcount(pawn_attacks(safe_pawns, colour) & non_pawns))


cdef inline void king_attack_counts(Chess board, int colour, int sign, Sums* sums, AttackMaps* mine,
                                    AttackMaps* theirs) noexcept:
    """Add ``colour``'s attack on the enemy king, times ``sign``, to ``sums``: the kinds of
    piece that can give a safe check (on a square the enemy does not attack), the squares
    of the king's zone we attack that only its king or queen defend (weak), and the whole
    attack squared: the zone's units plus ``ATTACKER_UNITS`` per attacker, ``CHECK_UNITS``
    per kind with a safe check and ``WEAK_UNITS`` per weak square, halved without a queen,
    at most ``KING_ATTACK_CAP``, squared / 25."""
    cdef int king = ctz(board.pieces[colour ^ 1][KING])
    cdef unsigned long long occupied = board.occupied_by[0] | board.occupied_by[1]
    cdef unsigned long long safe = ~board.occupied_by[colour] & ~theirs.every
    cdef unsigned long long diagonals = piece_attacks(TABLES, BISHOP, king, occupied)
    cdef unsigned long long lines = piece_attacks(TABLES, ROOK, king, occupied)
    cdef unsigned long long checks[5]
    cdef int kind, weak, attack = mine.units + ATTACKER_UNITS * mine.attackers
    checks[KNIGHT] = piece_attacks(TABLES, KNIGHT, king, occupied)
    checks[BISHOP], checks[ROOK], checks[QUEEN] = diagonals, lines, diagonals | lines
    mine.safe_checks = 0
    for kind in range(KNIGHT, KING):
        if checks[kind] & mine.by_kind[kind] & safe:
            add(sums, F_SAFE_CHECK + kind - KNIGHT, sign)
            attack += CHECK_UNITS[kind]
            mine.safe_checks += 1
    weak = popcount(piece_attacks(TABLES, KING, king, occupied) & mine.every
                    & ~(theirs.pawns | theirs.by_kind[KNIGHT] | theirs.by_kind[BISHOP]
                        | theirs.by_kind[ROOK]))
    add(sums, F_WEAK_ZONE, sign * weak)
    mine.weak = weak
    attack += WEAK_UNITS * weak
    if not board.pieces[colour][QUEEN]:
        attack //= 2
    if attack > KING_ATTACK_CAP:
        attack = KING_ATTACK_CAP
    add(sums, F_KING_ATTACK, sign * (attack * attack // 25))


cdef inline void passer_counts(Chess board, int colour, int sign, unsigned long long passed,
                               Sums* sums, AttackMaps* mine, AttackMaps* theirs) noexcept:
    """Add how free the way of ``colour``'s passed pawns (``passed``) is, times ``sign``, to
    ``sums``: each pawn whose stop square is empty counts its relative rank (0-based);
    and on relative ranks 4 … 7, a pawn counting 2, 7, 12, 17 on ranks 4, 5, 6, 7: no square
    before it to the end of its file held by an enemy piece or attacked by the enemy; its
    stop square not so; its stop square attacked by our own pieces."""
    cdef int square, rel, weight, stop
    cdef unsigned long long bits = passed, way
    cdef unsigned long long unsafe = theirs.every | board.occupied_by[colour ^ 1]
    cdef unsigned long long occupied = board.occupied_by[0] | board.occupied_by[1]
    while bits:
        square = ctz(bits)
        bits &= bits - 1
        stop = stop_square(square, colour, &rel)
        if stop < 0:
            continue
        if not (occupied >> stop & 1):
            add(sums, F_PASSED_FREE, sign * rel)
        if rel < 3:
            continue
        weight = 5 * rel - 13
        way = ahead_of(square, colour) & (FILE_A << (square & 7))
        if not (way & unsafe):
            add(sums, F_PASSED_PATH, sign * weight)
        if not (unsafe >> stop & 1):
            add(sums, F_PASSED_PATH + 1, sign * weight)
        if mine.every >> stop & 1:
            add(sums, F_PASSED_PATH + 2, sign * weight)


cdef inline void pressure_counts(Chess board, int colour, int sign, Sums* sums, AttackMaps* mine,
                                 AttackMaps* theirs) noexcept:
    """Add ``colour``'s pressure on the enemy, times ``sign``, to ``sums``: enemy pieces a
    safe pawn push would attack, space, weak enemy pawns attacked and restricted squares."""
    cdef int them = colour ^ 1
    cdef unsigned long long pawns = board.pieces[colour][PAWN]
    cdef unsigned long long empty = ~(board.occupied_by[0] | board.occupied_by[1])
    cdef unsigned long long targets = board.occupied_by[them] & ~board.pieces[them][PAWN] \
        & ~board.pieces[them][KING]
    cdef unsigned long long pushes, safe, behind
    if colour == WHITE:
        pushes = (pawns << 8) & empty
        pushes |= ((pushes & 0xFF0000ULL) << 8) & empty
        safe = SPACE_WHITE & ~pawns & ~theirs.pawns
        behind = pawns >> 8
        behind |= behind >> 8
        behind |= behind >> 8
    else:
        pushes = (pawns >> 8) & empty
        pushes |= ((pushes & 0xFF0000000000ULL) >> 8) & empty
        safe = SPACE_BLACK & ~pawns & ~theirs.pawns
        behind = pawns << 8
        behind |= behind << 8
        behind |= behind << 8
    pushes &= ~theirs.pawns & (mine.every | ~theirs.every)
    add(sums, F_PUSH_THREAT, sign * popcount(pawn_attacks(pushes, colour) & targets))
    add(sums, F_SPACE, sign * (popcount(safe) + popcount(safe & behind & ~theirs.every)))
    add(sums, F_WEAK_PAWN, sign * popcount(board.pieces[them][PAWN] & ~theirs.pawns & mine.every))
    add(sums, F_RESTRICTED, sign * popcount(theirs.every & mine.every & ~mine.pawns))


cdef inline void side_attack_inputs(Chess board, int colour, AttackMaps* mine,
                                    int* inputs) noexcept:
    """``colour``'s attack on the enemy king as 8 of the network's inputs: the squares of the
    king's zone (its square and those next to it) that ``colour``'s pawns, knights, bishops,
    rooks and queens attack (each kind's squares counted once), its pieces that attack the
    zone, its kinds of piece that can check safely and the zone's weak squares
    (``king_attack_counts``)."""
    cdef int kind, king = ctz(board.pieces[colour ^ 1][KING])
    cdef unsigned long long zone = piece_attacks(TABLES, KING, king, 0) | (1ULL << king)
    inputs[0] = popcount(mine.pawns & zone)
    for kind in range(KNIGHT, KING):
        inputs[kind] = popcount(mine.by_kind[kind] & zone)
    inputs[5], inputs[6], inputs[7] = mine.attackers, mine.safe_checks, mine.weak


cdef int count_features(Chess board, Sums* sums, PawnEntry* pawns, int* attacks) noexcept:
    """Add the features (white minus black) to ``sums`` and return the phase, 0 … 24.
    ``pawns``: with ``sums`` weighted, the slot that remembers the pawn structure's share
    and the kings' with it (``Tuned``); NULL when counting. ``attacks``: where the
    network's ``NET_ATTACKS`` attack inputs go (white's attack on black's king, then
    black's on white's), or NULL."""
    cdef int kind, phase = 0
    cdef AttackMaps white, black
    cdef Sums pawn_sums
    cdef PawnEntry counted
    cdef unsigned long long white_pawns = board.pieces[WHITE][PAWN]
    cdef unsigned long long black_pawns = board.pieces[BLACK][PAWN], bits
    cdef int kings
    if pawns == NULL:
        pawns = &counted
        pawns.passed[WHITE] = pawn_structure(white_pawns, black_pawns, WHITE, 1, sums)
        pawns.passed[BLACK] = pawn_structure(black_pawns, white_pawns, BLACK, -1, sums)
        king_pawn_counts(board, WHITE, 1, pawns.passed[WHITE], sums)
        king_pawn_counts(board, BLACK, -1, pawns.passed[BLACK], sums)
    else:
        if not pawns.used or pawns.white != white_pawns or pawns.black != black_pawns:
            pawn_sums = sums[0]
            pawn_sums.score = 0
            pawns.passed[WHITE] = pawn_structure(white_pawns, black_pawns, WHITE, 1,
                                                 &pawn_sums)
            pawns.passed[BLACK] = pawn_structure(black_pawns, white_pawns, BLACK, -1,
                                                 &pawn_sums)
            bits = white_pawns
            while bits:
                add_placement(&pawn_sums, PAWN, ctz(bits), 1)
                bits &= bits - 1
            bits = black_pawns
            while bits:
                add_placement(&pawn_sums, PAWN, ctz(bits) ^ 56, -1)
                bits &= bits - 1
            pawns.white, pawns.black, pawns.used = white_pawns, black_pawns, True
            pawns.score = pawn_sums.score
            pawns.kings = -1
        kings = ctz(board.pieces[WHITE][KING]) + 64 * ctz(board.pieces[BLACK][KING])
        if pawns.kings != kings:
            pawn_sums = sums[0]
            pawn_sums.score = 0
            king_pawn_counts(board, WHITE, 1, pawns.passed[WHITE], &pawn_sums)
            king_pawn_counts(board, BLACK, -1, pawns.passed[BLACK], &pawn_sums)
            pawns.kings, pawns.king_score = kings, pawn_sums.score
        sums.score += pawns.score + pawns.king_score
    side_counts(board, WHITE, 1, sums, &white)
    side_counts(board, BLACK, -1, sums, &black)
    threat_counts(board, WHITE, 1, sums, &white, &black)
    threat_counts(board, BLACK, -1, sums, &black, &white)
    king_attack_counts(board, WHITE, 1, sums, &white, &black)
    king_attack_counts(board, BLACK, -1, sums, &black, &white)
    passer_counts(board, WHITE, 1, pawns.passed[WHITE], sums, &white, &black)
    passer_counts(board, BLACK, -1, pawns.passed[BLACK], sums, &black, &white)
    pressure_counts(board, WHITE, 1, sums, &white, &black)
    pressure_counts(board, BLACK, -1, sums, &black, &white)
    flank_counts(board, WHITE, 1, sums, &white, &black)
    flank_counts(board, BLACK, -1, sums, &black, &white)
    threat_by_counts(board, WHITE, 1, sums, &white, &black)
    threat_by_counts(board, BLACK, -1, sums, &black, &white)
    if attacks != NULL:
        side_attack_inputs(board, WHITE, &white, attacks)
        side_attack_inputs(board, BLACK, &black, attacks + NET_ATTACKS // 2)
    add(sums, F_TEMPO, 1 if board.side_to_move == WHITE else -1)
    for kind in range(KNIGHT, KING):
        phase += PHASE_WEIGHT[kind] * (popcount(board.pieces[0][kind])
                                       + popcount(board.pieces[1][kind]))
    return phase if phase < PHASE_TOTAL else PHASE_TOTAL


def prior_weights():
    """Hand-set weights, the start of the first fit (``alfabeta tune --start prior``):
    ``standard``'s material and tables (folded by averaging a square with its mirror),
    passed pawns 5/12 per rank, doubled −6, isolated −10, backward −8, mobility 4, bishop
    pair 30, rooks on open/half-open files 20/10, shield 10, king zone 4, a piece attacked by
    a pawn −45/−35, a rook or queen by a minor piece −30/−20, hanging −25/−15, king danger
    1/0, a free passed pawn 2/6 per rank, the kings' race to its stop square 0/2 per rank,
    tempo 10/5, connected pawns 2 per rank, phalanx 5, knight/bishop outposts 20/10 and
    10/5, bad bishop −3/−5 a pawn, rook on the seventh 10/20, open files by the king −10/0,
    the king's distance to its pawns 0/−5, 4 for each of the first 3 squares of mobility (on
    top of mobility's own 4), a safe check 20/5 for each kind of piece that has one, a weak
    square of the enemy king's zone 5/0, pawn storm 5/0, a queen attacked by a rook −30/−20,
    a minor piece behind a pawn 15/5, its distance to its king −5/−4, a long-diagonal
    bishop 40/0, a trapped rook −40/−5, a pawn push's threat 30/25, space 2/0, a weak pawn
    attacked 5/10, a restricted square 5/5, and mop-up 0/10 per step of the bare king from
    the centre and 0/5 per step the kings are nearer than 7; the mobility counts, the
    tables' queenside-over-kingside terms, the king attack, the passed pawns' way, the
    shelter, the storm, the flank features (``flank_counts``) and the threats by attacker
    and victim (``threat_by_counts``) start at 0."""
    from alfabeta.evaluators.chess_eval import BAYES_TABLES, KING_ENDGAME

    mg = np.zeros(FEATURE_COUNT, dtype=np.int64)
    eg = np.zeros(FEATURE_COUNT, dtype=np.int64)
    mg[F_MATERIAL:F_MATERIAL + 5] = [100, 320, 330, 500, 950]
    eg[F_MATERIAL:F_MATERIAL + 5] = [120, 300, 320, 520, 950]
    for kind in range(6):
        for square in range(64):
            if (square & 7) < 4:
                index = F_TABLE + 32 * kind + cell(square)
                mirrored = square ^ 7
                mg[index] = (BAYES_TABLES[kind][square] + BAYES_TABLES[kind][mirrored]) // 2
                if kind == KING:
                    eg[index] = (KING_ENDGAME[square] + KING_ENDGAME[mirrored]) // 2
                elif kind != PAWN:
                    eg[index] = mg[index]
    for rank in range(1, 7):
        mg[F_PASSED + rank - 1], eg[F_PASSED + rank - 1] = 5 * rank, 12 * rank
    for index, (m, e) in {F_DOUBLED: (-6, -6), F_ISOLATED: (-10, -10), F_BACKWARD: (-8, -8),
                          F_BISHOP_PAIR: (30, 30), F_ROOK_OPEN: (20, 10),
                          F_ROOK_HALF_OPEN: (10, 5), F_SHIELD: (10, 0), F_KING_ZONE: (4, 0),
                          F_PAWN_THREAT: (-45, -35), F_MINOR_THREAT: (-30, -20),
                          F_HANGING: (-25, -15), F_KING_DANGER: (1, 0), F_PASSED_FREE: (2, 6),
                          F_PASSED_KING: (0, 2), F_TEMPO: (10, 5)}.items():
        mg[index], eg[index] = m, e
    for kind in range(4):
        mg[F_MOBILITY + kind] = eg[F_MOBILITY + kind] = 4
        mg[F_LOW_MOBILITY + kind] = eg[F_LOW_MOBILITY + kind] = 4
    for rank in range(1, 7):
        mg[F_CONNECTED + rank - 1] = eg[F_CONNECTED + rank - 1] = 2 * rank
    for index, (m, e) in {F_PHALANX: (5, 5), F_OUTPOST: (20, 10), F_OUTPOST + 1: (10, 5),
                          F_BAD_BISHOP: (-3, -5), F_ROOK_SEVENTH: (10, 20),
                          F_KING_OPEN: (-10, 0), F_KING_PAWN: (0, -5), F_WEAK_ZONE: (5, 0),
                          F_PAWN_STORM: (5, 0), F_ROOK_THREAT: (-30, -20)}.items():
        mg[index], eg[index] = m, e
    for kind in range(4):
        mg[F_SAFE_CHECK + kind], eg[F_SAFE_CHECK + kind] = 20, 5
    for index, (m, e) in {F_MINOR_BEHIND_PAWN: (15, 5), F_KING_PROTECTOR: (-5, -4),
                          F_LONG_DIAGONAL: (40, 0), F_TRAPPED_ROOK: (-40, -5),
                          F_PUSH_THREAT: (30, 25), F_SPACE: (2, 0), F_WEAK_PAWN: (5, 10),
                          F_RESTRICTED: (5, 5), F_MOPUP_EDGE: (0, 10),
                          F_MOPUP_KINGS: (0, 5)}.items():
        mg[index], eg[index] = m, e
    return mg, eg


def default_weights_path():
    """The shipped weights file."""
    return resources.files("alfabeta.evaluators").joinpath("data/tuned.json")


def read_weights_file(source):
    """A weights file's JSON, parsed once for each version of the file (its modification time
    and size): an evaluator reads its weights and its network from one parse."""
    status = os.stat(source)
    return _parsed(str(source), status.st_mtime_ns, status.st_size)


@functools.lru_cache(maxsize=8)
def _parsed(name, modified, size):
    with open(name, encoding="utf-8") as handle:
        return json.load(handle)


def unreadable(source, error, part=""):
    """The InvalidOptionError for a weights file (``part``: what of it) that ``error`` kept
    from being read."""
    return InvalidOptionError(
        f"tuned weights {str(source)!r}: cannot read {part}({arrayfile.problem_text(error)})")


def load_weights(path=None):
    """(mg, eg) int arrays from a weights file written by ``alfabeta tune`` (JSON with
    ``features``, ``mg`` and ``eg``; None: the shipped file; ``"prior"``: ``prior_weights``);
    a file that does not fit raises InvalidOptionError."""
    if path == "prior":
        return prior_weights()
    source = default_weights_path() if path is None else path
    try:
        data = read_weights_file(source)
        if not isinstance(data, dict):
            raise TypeError("it is not a JSON object")
        names, mg, eg = data["features"], data["mg"], data["eg"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise unreadable(source, error) from None
    if names != feature_names() or len(mg) != FEATURE_COUNT or len(eg) != FEATURE_COUNT \
            or not all(isinstance(v, int) and abs(v) <= MAX_WEIGHT for v in mg + eg):
        raise InvalidOptionError(
            f"tuned weights {str(source)!r}: expected {FEATURE_COUNT} integer mg and eg "
            f"weights within ±{MAX_WEIGHT} for the features of this alfabeta (see "
            "tuned.feature_names())")
    return np.array(mg, dtype=np.int64), np.array(eg, dtype=np.int64)


NET_ACTIVATIONS = ("crelu", "screlu")
"""A network's activations: each view's accumulator clipped to [0, 1] (``crelu``), or clipped
and squared (``screlu``)."""


def load_net(path=None):
    """The residual network of a weights file (None: the shipped file's), as a dict of
    ``hidden`` (its width), ``buckets`` (its sets of output weights: 1 unless the file says),
    ``king_buckets`` (the set of input rows a view takes with its own king on each of the 64
    squares, in its own orientation: all 0 unless the file says), ``activation`` (one of
    ``NET_ACTIVATIONS``: ``"screlu"`` squares each clipped accumulator c, c² // NET_ONE,
    before the output weights; ``"crelu"``, unless the file says, does not), ``input`` (sets ×
    NET_INPUTS × hidden, NET_ONE to 1.0), ``bias`` (hidden), ``output`` (buckets
    × 2 × hidden, each bucket's centipawns per unit of the side to move's clipped
    accumulator, then the other side's; the bucket of a position with n pieces on the board
    is (n − 1) × buckets // 32), ``offset`` (centipawns) and ``attacks`` (NET_ATTACKS ×
    hidden weights of the attack inputs, ``attack_inputs``, as the input rows; None unless
    the file has them); None when the file has none (``"prior"`` has none). A network that
    does not fit raises InvalidOptionError."""
    if path == "prior":
        return None
    source = default_weights_path() if path is None else path
    try:
        net = read_weights_file(source).get("net")
        if net is None:
            return None
        if not isinstance(net, dict):
            raise TypeError("it is not a JSON object")
        hidden, buckets = net["hidden"], net.get("buckets", 1)
        parts = {name: np.asarray(net[name]) for name in ("input", "bias", "output")}
        if "attacks" in net:
            parts["attacks"] = np.asarray(net["attacks"])
        king_buckets = np.asarray(net.get("king_buckets", [0] * 64))
        offset = net["offset"]
        activation = net.get("activation", "crelu")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise unreadable(source, error, "the network ") from None
    if king_buckets.shape != (64,) or king_buckets.dtype.kind != "i" \
            or not 0 <= king_buckets.min() <= king_buckets.max() < NET_MAX_KING_BUCKETS:
        raise InvalidOptionError(
            f"tuned weights {str(source)!r}: the network's king_buckets must be 64 integers, "
            f"the input set of each square, from 0 to {NET_MAX_KING_BUCKETS - 1}")
    if activation not in NET_ACTIVATIONS:
        raise InvalidOptionError(
            f"tuned weights {str(source)!r}: the network's activation must be one of "
            f"{', '.join(map(repr, NET_ACTIVATIONS))}, not {activation!r}")
    sets = int(king_buckets.max()) + 1
    sizes = isinstance(hidden, int) and isinstance(buckets, int)
    shapes = {"input": (sets * NET_INPUTS * hidden,) if sizes else None,
              "bias": (hidden,), "output": (2 * hidden * buckets,) if sizes else None,
              "attacks": (NET_ATTACKS * hidden,) if sizes else None}
    if not sizes or not 1 <= hidden <= NET_MAX_HIDDEN or not 1 <= buckets <= NET_MAX_BUCKETS \
            or any(parts[name].shape != shape or parts[name].dtype.kind != "i"
                   for name, shape in shapes.items() if name in parts) \
            or max(np.abs(parts[name]).max() for name in ("input", "attacks") if name in parts) \
            > NET_MAX_INPUT \
            or np.abs(parts["bias"]).max() > NET_MAX_BIAS \
            or np.abs(parts["output"]).max() > NET_MAX_OUTPUT or not isinstance(offset, int):
        raise InvalidOptionError(
            f"tuned weights {str(source)!r}: the network must have 1 to {NET_MAX_HIDDEN} "
            f"hidden units, 1 to {NET_MAX_BUCKETS} buckets, king sets × {NET_INPUTS} × hidden "
            f"input weights within ±{NET_MAX_INPUT} (as any {NET_ATTACKS} × hidden attack "
            f"weights), hidden biases within ±{NET_MAX_BIAS}, buckets × 2 × hidden output "
            f"weights within ±{NET_MAX_OUTPUT}, all integers, and an integer offset")
    parts = {name: part.astype(np.int64) for name, part in parts.items()}
    parts["input"] = parts["input"].reshape(sets * NET_INPUTS, hidden)
    parts["attacks"] = parts["attacks"].reshape(NET_ATTACKS, hidden) if "attacks" in parts \
        else None
    return {"hidden": hidden, "buckets": buckets, "offset": offset,
            "activation": activation, "king_buckets": king_buckets.astype(np.int64), **parts}


def features(Position position):
    """The position's feature counts (white minus black, an int64 vector) and its phase."""
    cdef int[FEATURE_COUNT] counts
    cdef Chess board = <Chess?> position
    cdef Sums sums
    cdef int i
    for i in range(FEATURE_COUNT):
        counts[i] = 0
    sums.counts = counts
    phase = count_features(board, &sums, NULL, NULL)
    return np.array([counts[i] for i in range(FEATURE_COUNT)], dtype=np.int64), phase


cdef void count_attack_inputs(Chess board, int* attacks) noexcept:
    """Fill ``attacks`` with the network's attack inputs of ``board`` (``attack_inputs``)."""
    cdef int[FEATURE_COUNT] counts
    cdef Sums sums
    cdef int i
    for i in range(FEATURE_COUNT):
        counts[i] = 0
    sums.counts = counts
    count_features(board, &sums, NULL, attacks)


def attack_inputs(Position position):
    """The network's ``NET_ATTACKS`` attack inputs of a chess position (an int8 vector):
    white's attack on black's king (the king's zone squares its pawns, knights, bishops, rooks
    and queens attack, its attackers of the zone, its kinds of safe check, the zone's weak
    squares), then black's on white's. A view reads its own side's eight first."""
    cdef int[NET_ATTACKS] attacks
    count_attack_inputs(<Chess?> position, attacks)
    return np.array([attacks[i] for i in range(NET_ATTACKS)], dtype=np.int8)


ATTACK_INPUTS = NET_ATTACKS
"""The number of the network's attack inputs (``attack_inputs``)."""


cdef uint64_t CACHE_TAG = ~<uint64_t> 0xFFFF


ctypedef fused view_sum:
    int16_t  # the accumulator as it stands
    int  # with the attack inputs added


cdef inline int view_share(const view_sum* sums, const int16_t* weights, int hidden,
                           bint squared) noexcept:
    """One view's share of the network's output, in NET_ONE units of centipawns: Σ
    clip(sums[j], 0, NET_ONE) × weights[j], each clipped sum squared over NET_ONE first when
    ``squared`` (c² // NET_ONE ≤ NET_ONE: 512 products of them fit an int too). Integer sums,
    the same in either type; from int16 sums the compiler multiplies and adds 16 lanes at a
    time with AVX2 (8 without)."""
    cdef int total = 0, j
    cdef view_sum a
    if squared:
        for j in range(hidden):  # min and max: vectorised
            a = sums[j]
            a = 0 if a < 0 else (NET_ONE if a > NET_ONE else a)
            total += ((<int> a * a) >> 10) * weights[j]
    else:
        for j in range(hidden):
            a = sums[j]
            a = 0 if a < 0 else (NET_ONE if a > NET_ONE else a)
            total += a * weights[j]
    return total


cdef class Tuned(Evaluator):
    """The linear tapered evaluation above, with the shipped weights or ``weights=FILE``.

    The score is a function of the position, so each evaluator remembers the last score of
    every one of ``CACHE_SLOTS`` slots, indexed by the low 16 bits of the position's key: a
    slot holds the key's other 48 bits and the score (offset into 16 bits) in one word, so a
    hit is a full key match and a slot is never read half-written. It also remembers the
    pawn structure's share of the score (``PawnEntry``) in ``2 ** PAWN_BITS`` slots, a hit
    being a match of both sides' pawns, and with it the share of the features of the pawns
    and the two kings, for the squares the kings last stood on."""

    name = "tuned"
    games = ("chess",)
    cdef int[FEATURE_COUNT] mg
    cdef int[FEATURE_COUNT] eg
    cdef long long[FEATURE_COUNT] packed  # mg and eg, packed (``pack``)
    # a piece's material and table weight, by kind and white-view square, packed
    cdef long long[6 * 64] psq
    # a piece's mobility terms, by kind and attacked squares (``mobility_weight``), packed
    cdef long long[MOBILITY_SPAN * 5] mobility
    cdef object weights_file
    cdef int fifty  # the score times (fifty − halfmove clock) / fifty; 0: not scaled
    cdef bint endgames  # scores corrected by ``endgame_score``
    cdef uint64_t* cache
    cdef PawnEntry* pawn_cache
    cdef int hidden  # the residual network's width; 0: none
    cdef int buckets  # its sets of output weights
    cdef bint squared  # each clipped accumulator squared before the output weights (SCReLU)
    cdef int king_sets  # its sets of input rows
    cdef int[64] king_bucket  # the set a view takes with its own king on each square
    cdef int16_t* net_input  # king_sets × NET_INPUTS × hidden, then the hidden biases
    cdef int16_t[NET_MAX_BUCKETS * 2 * NET_MAX_HIDDEN] net_output  # buckets × 2 × hidden
    cdef int net_offset
    cdef bint reads_attacks  # the network has attack inputs (``attack_inputs``)
    cdef int16_t[NET_ATTACKS * NET_MAX_HIDDEN] net_attack  # NET_ATTACKS × hidden
    # the last network score's accumulators (white's view, black's), the pieces they sum and
    # the first input row of each view's set
    cdef int16_t[2][NET_MAX_HIDDEN] accumulator
    cdef unsigned long long[2][6] accumulated
    cdef int[2] view_base

    def __cinit__(self):
        self.cache = <uint64_t*> calloc(CACHE_SLOTS, sizeof(uint64_t))
        self.pawn_cache = <PawnEntry*> calloc(1 << PAWN_BITS, sizeof(PawnEntry))
        if self.cache == NULL or self.pawn_cache == NULL:
            raise MemoryError("cannot allocate the tuned evaluator's score cache")

    def __dealloc__(self):
        free(self.cache)
        free(self.pawn_cache)
        free(self.net_input)

    cdef PawnEntry* pawn_slot(self, Chess board) noexcept:
        """The slot of the position's pawns in the pawn-structure cache."""
        cdef uint64_t h = (board.pieces[WHITE][PAWN] * 0x9E3779B97F4A7C15ULL) \
            ^ (board.pieces[BLACK][PAWN] * 0xC2B2AE3D27D4EB4FULL)
        return &self.pawn_cache[h >> (64 - PAWN_BITS)]

    def __init__(self, weights=None, fifty=0, endgames=False):
        if not isinstance(endgames, bool):
            raise InvalidOptionError(f"tuned endgames={endgames!r}: expected on or off")
        if isinstance(fifty, bool) or not isinstance(fifty, int) or not (
                fifty == 0 or 100 <= fifty <= 10000):
            raise InvalidOptionError(
                f"tuned fifty={fifty!r}: expected 0 (off) or a whole number 100 to 10000")
        self.weights_file = weights
        self.fifty = fifty
        self.endgames = endgames
        if endgames:
            build_tables()  # now, not in the middle of a timed search
        mg, eg = load_weights(weights)
        self.set_net(load_net(weights))
        for i in range(FEATURE_COUNT):
            self.mg[i], self.eg[i] = mg[i], eg[i]
            self.packed[i] = pack(mg[i], eg[i])
        for kind in range(6):
            for square in range(64):
                i = F_TABLE + 32 * kind + cell(square)
                j = i - F_TABLE + F_TABLE_SIDE  # the cell's queenside-over-kingside term
                side = 1 if (square & 7) < 4 else -1
                self.psq[64 * kind + square] = self.packed[i] + side * self.packed[j] + (
                    self.packed[F_MATERIAL + kind] if kind != KING else 0)
        for kind in range(KNIGHT, KING):
            for mobility in range(MOBILITY_COUNTS[kind - 1]):
                self.mobility[MOBILITY_SPAN * kind + mobility] = pack(
                    mobility_weight(self.mg, kind, mobility),
                    mobility_weight(self.eg, kind, mobility))

    def set_net(self, net):
        """Play ``net`` (a ``load_net`` dict, or None for no network)."""
        cdef int i, hidden = 0 if net is None else net["hidden"]
        free(self.net_input)
        self.net_input = NULL
        self.hidden = hidden
        if not hidden:
            return
        self.buckets = net["buckets"]
        self.squared = net.get("activation") == "screlu"
        self.king_sets = int(net["king_buckets"].max()) + 1
        for i in range(64):
            self.king_bucket[i] = net["king_buckets"][i]
        self.net_input = <int16_t*> malloc(
            (self.king_sets * NET_INPUTS + 1) * hidden * sizeof(int16_t))
        if self.net_input == NULL:
            raise MemoryError("cannot allocate the tuned evaluator's network")
        weights = np.concatenate([net["input"].ravel(), net["bias"]]).astype(np.int16)
        outputs = np.ascontiguousarray(net["output"], dtype=np.int16)
        cdef const int16_t[::1] view = weights
        memcpy(self.net_input, &view[0], len(weights) * sizeof(int16_t))
        view = outputs
        memcpy(self.net_output, &view[0], len(outputs) * sizeof(int16_t))
        self.net_offset = net["offset"]
        self.reads_attacks = net.get("attacks") is not None
        if self.reads_attacks:
            view = np.ascontiguousarray(net["attacks"].ravel(), dtype=np.int16)
            memcpy(self.net_attack, &view[0], NET_ATTACKS * hidden * sizeof(int16_t))
        for i in range(CACHE_SLOTS):
            self.cache[i] = 0
        for i in range(12):  # every square: the first score is summed afresh
            self.accumulated[i // 6][i % 6] = ~0ULL
        self.view_base[0] = self.view_base[1] = -1

    cdef inline void net_row(self, int colour, int kind, int square, int sign) noexcept:
        """Add (``sign`` 1) or take away (−1) a piece's input rows, each to its view."""
        cdef int hidden = self.hidden, j
        cdef int16_t* white_view = self.accumulator[0]
        cdef int16_t* black_view = self.accumulator[1]
        cdef const int16_t* row = self.net_input + (
            self.view_base[0] + 384 * colour + 64 * kind + square) * hidden
        cdef const int16_t* mirrored = self.net_input + (
            self.view_base[1] + 384 * (colour ^ 1) + 64 * kind + (square ^ 56)) * hidden
        if sign > 0:
            for j in range(hidden):
                white_view[j] += row[j]
                black_view[j] += mirrored[j]
        else:
            for j in range(hidden):
                white_view[j] -= row[j]
                black_view[j] -= mirrored[j]

    cdef int net_score(self, Chess board, const int* attacks) noexcept:
        """The residual network's score for the side to move, in centipawns: each view's
        accumulator (the hidden biases plus the input rows of its pieces, from the set of its
        own king's square; black's view has the colours swapped and the board mirrored; with
        ``reads_attacks``, plus each of the ``attacks`` inputs, its own side's first, times
        its row), clipped to [0, NET_ONE] (and squared, over NET_ONE, when ``squared``), the side to
        move's first, times the output weights of the position's bucket (by the pieces on the
        board), over NET_ONE, plus the offset.

        The accumulators are the last score's, updated by the pieces that differ from its
        position (in a search, mostly a few), or summed afresh when more than
        ``NET_REFRESH`` do or a king changes its view's set: integer sums, the same either
        way. The weights' bounds
        (``load_net``) keep every final sum of pieces within int16, and with the attack
        inputs within int."""
        cdef int hidden = self.hidden, colour, kind, i, j, changed = 0, pieces, mover
        cdef int white_base = 0, black_base = 0, count
        cdef unsigned long long now, before, bits
        cdef const int16_t* bias
        cdef const int16_t* row
        cdef int[2][NET_MAX_HIDDEN] sums
        cdef const int16_t* output
        cdef const int16_t* second_output
        for colour in range(2):
            for kind in range(6):
                changed += popcount(board.pieces[colour][kind] ^ self.accumulated[colour][kind])
        pieces = popcount(board.occupied_by[WHITE] | board.occupied_by[BLACK])
        output = self.net_output + min((pieces - 1) * self.buckets // 32, self.buckets - 1) \
            * 2 * hidden
        # a pointer of its own: output[hidden + j] may wrap under -fwrapv, and the loop over
        # it would not be vectorised
        second_output = output + hidden
        if board.pieces[WHITE][KING]:
            white_base = self.king_bucket[ctz(board.pieces[WHITE][KING])] * NET_INPUTS
        if board.pieces[BLACK][KING]:
            black_base = self.king_bucket[ctz(board.pieces[BLACK][KING]) ^ 56] * NET_INPUTS
        if changed > NET_REFRESH or white_base != self.view_base[0] \
                or black_base != self.view_base[1]:
            self.view_base[0], self.view_base[1] = white_base, black_base
            bias = self.net_input + self.king_sets * NET_INPUTS * hidden
            for j in range(hidden):
                self.accumulator[0][j] = self.accumulator[1][j] = bias[j]
            for colour in range(2):
                for kind in range(6):
                    self.accumulated[colour][kind] = 0
        for colour in range(2):
            for kind in range(6):
                now, before = board.pieces[colour][kind], self.accumulated[colour][kind]
                bits = before & ~now
                while bits:
                    self.net_row(colour, kind, ctz(bits), -1)
                    bits &= bits - 1
                bits = now & ~before
                while bits:
                    self.net_row(colour, kind, ctz(bits), 1)
                    bits &= bits - 1
                self.accumulated[colour][kind] = now
        mover = board.side_to_move
        if not self.reads_attacks:  # each view's share from its int16 sums as they stand
            return round_div(
                view_share(self.accumulator[mover], output, hidden, self.squared)
                + view_share(self.accumulator[mover ^ 1], second_output, hidden, self.squared),
                NET_ONE) + self.net_offset
        for colour in range(2):
            for j in range(hidden):
                sums[colour][j] = self.accumulator[colour][j]
            for i in range(NET_ATTACKS):  # black's view reads black's attack first
                count = attacks[i if colour == WHITE else i ^ (NET_ATTACKS // 2)]
                row = self.net_attack + i * hidden
                if count:
                    for j in range(hidden):
                        sums[colour][j] += count * row[j]
        return round_div(
            view_share(sums[mover], output, hidden, self.squared)
            + view_share(sums[mover ^ 1], second_output, hidden, self.squared),
            NET_ONE) + self.net_offset

    def options(self):
        chosen = {} if self.weights_file is None else {"weights": self.weights_file}
        if self.fifty:
            chosen["fifty"] = self.fifty
        if self.endgames:
            chosen["endgames"] = True
        return chosen

    cdef inline int scaled(self, Chess board, int score) noexcept:
        """``score`` shrunk toward a draw as the fifty-move counter runs: times (``fifty`` −
        halfmove clock) / ``fifty``, rounded, and 0 from a clock of ``fifty`` on."""
        if self.fifty == 0:
            return score
        return round_div(<long long> score * max(self.fifty - board.halfmove, 0), self.fifty)

    cdef void prefetch(self, Position position) noexcept:
        """Start loading the position's slot of the score cache."""
        prefetch_address(&self.cache[position.c_key() & (CACHE_SLOTS - 1)])

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        if not isinstance(position, Chess):
            raise TypeError(f"tuned evaluates chess positions, not {position.name}")
        return self.scaled(<Chess> position, self.unscaled(<Chess> position))

    cdef inline int unscaled(self, Chess position) noexcept:
        """The score before ``scaled``: from the cache, or computed (``terms_score``, then
        ``endgame_score`` with ``endgames``) and remembered there."""
        cdef int score
        cdef uint64_t key, slot, index
        key = position.c_key()
        index = key & (CACHE_SLOTS - 1)
        slot = self.cache[index]
        if slot != 0 and (slot & CACHE_TAG) == (key & CACHE_TAG):
            return <int> (slot & 0xFFFF) - 32768
        score = self.terms_score(position)
        if self.endgames:
            score = endgame_score(position, score)
        if -32768 <= score <= 32767:
            self.cache[index] = (key & CACHE_TAG) | <uint64_t> (score + 32768)
        return score

    cdef int terms_score(self, Chess position) noexcept:
        """The features' tapered score, rounded, plus the network's."""
        cdef Sums sums
        cdef int phase, score
        cdef int[NET_ATTACKS] attacks
        cdef long long mg, eg
        sums.counts = NULL
        sums.weights, sums.psq, sums.mobility = self.packed, self.psq, self.mobility
        sums.score = 0
        phase = count_features(position, &sums, self.pawn_slot(position),
                               <int*> attacks if self.hidden and self.reads_attacks else NULL)
        mg, eg = packed_mg(sums.score), packed_eg(sums.score)
        if position.side_to_move != WHITE:
            mg, eg = -mg, -eg
        score = round_div(mg * phase + eg * (PHASE_TOTAL - phase), PHASE_TOTAL)
        if self.hidden:
            score += self.net_score(position, attacks)
        return score

    def explain(self, Position position):
        """Each feature group's share of the score (side to move's view, tapered,
        unrounded), with ``endgames``' correction and ``fifty``'s damping as groups of their
        own: their sum rounds to ``evaluate`` (and is ``evaluate`` when ``endgames`` corrects
        the score)."""
        counts, phase = features(position)
        sign = 1 if position.side_to_move == WHITE else -1
        groups = {}
        for name, c, mg, eg in zip(feature_names(), counts, self.mg, self.eg):
            if c:
                group = " ".join(name.split()[:1 if name.startswith("table") else 2])
                value = sign * c * (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL
                groups[group] = groups.get(group, 0.0) + float(value)
        cdef int[NET_ATTACKS] attacks
        if self.hidden:
            count_attack_inputs(<Chess?> position, attacks)
            groups["network"] = float(self.net_score(<Chess> position, attacks))
        if self.endgames:
            plain = self.terms_score(<Chess> position)
            corrected = endgame_score(<Chess> position, plain)
            # a correction takes the terms' rounding with it: the groups then sum to it exactly
            groups["endgame"] = 0.0 if corrected == plain else corrected - sum(groups.values())
        if self.fifty and (<Chess?> position).halfmove:
            plain = self.unscaled(<Chess> position)
            groups["fifty-move clock"] = float(self.scaled(<Chess> position, plain) - plain)
        return groups
