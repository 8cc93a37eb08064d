# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Chess evaluators from the seeds, side to move, centipawns.

* ``bayeschess`` (seed-002 §1): material (P 100, N 300, B 300, R 500, Q 900) + one 8×8 table
  per piece and colour + a check bonus (30). The knight table is the paper's, read in its
  corrected orientation (the print is its transpose); the other tables were written for
  alfabeta in the same style (the paper prints only the knight's); black tables mirror the
  white ones. The 774 parameters (5 values, the check bonus, 12 × 64 cells, cells from a8 to
  h1) are a numpy vector: ``parameters`` reads it, ``set_parameters`` writes it.
* ``cpw`` (seed-000 §1.5): material (100/325/325/500/975) + mobility + king safety (pawn
  shield 8·p₂ + 4·p₃ − 8·open files, minus king tropism with the printed weights and the
  bishop and rook bonuses) + the opponent king's defencelessness (minus its safety).
* ``standard``: a play evaluator — tapered middlegame/endgame material and tables, mobility,
  pawn structure (doubled, isolated, passed), bishop pair, king shelter.
"""

import numpy as np

from alfabeta.core.evaluator cimport EVAL_ERROR, Evaluator
from alfabeta.core.position cimport Position
from alfabeta.games.chess.board cimport (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    Chess,
)

from alfabeta.core.errors import InvalidOptionError

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int ctz "__builtin_ctzll"(unsigned long long) nogil


def _table(rows):
    """A table written rank 8 first (as a board is drawn) → a list indexed a1 = 0 … h8 = 63."""
    cells = [0] * 64
    for i, row in enumerate(rows):
        for file, value in enumerate(row):
            cells[8 * (7 - i) + file] = value
    return cells


# White's view. Knight: seed-002 Cuadro 3, transposed back (T4: b1 = g1 = −30, h7 = −10).
BAYES_TABLES = {
    PAWN: _table([
        [0, 0, 0, 0, 0, 0, 0, 0],
        [20, 20, 20, 20, 20, 20, 20, 20],
        [10, 10, 10, 15, 15, 10, 10, 10],
        [5, 5, 5, 10, 10, 5, 5, 5],
        [0, 0, 5, 10, 10, 5, 0, 0],
        [0, 0, 0, 5, 5, 0, 0, 0],
        [0, 0, 0, -5, -5, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0]]),
    KNIGHT: _table([
        [-10, -10, -10, -10, -10, -10, -10, -10],
        [-10, 0, 0, 0, 0, 0, 0, -10],
        [-10, 0, 5, 5, 5, 5, 0, -10],
        [-10, 0, 5, 10, 10, 5, 0, -10],
        [-10, 0, 5, 10, 10, 5, 0, -10],
        [-10, 0, 5, 5, 5, 5, 0, -10],
        [-10, 0, 0, 0, 0, 0, 0, -10],
        [-10, -30, -10, -10, -10, -10, -30, -10]]),
    BISHOP: _table([
        [-10, -5, -5, -5, -5, -5, -5, -10],
        [-5, 0, 0, 0, 0, 0, 0, -5],
        [-5, 0, 5, 5, 5, 5, 0, -5],
        [-5, 0, 5, 10, 10, 5, 0, -5],
        [-5, 0, 5, 10, 10, 5, 0, -5],
        [-5, 0, 5, 5, 5, 5, 0, -5],
        [-5, 5, 0, 0, 0, 0, 5, -5],
        [-10, -5, -10, -5, -5, -10, -5, -10]]),
    ROOK: _table([
        [0, 0, 0, 0, 0, 0, 0, 0],
        [10, 10, 10, 10, 10, 10, 10, 10],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 5, 5, 0, 0, 0]]),
    QUEEN: _table([[0] * 8] * 8),
    KING: _table([
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [-20, -20, -20, -20, -20, -20, -20, -20],
        [0, 0, -5, -10, -10, -5, 0, 0],
        [0, 10, 15, -5, 0, -5, 20, 5]]),
}
BAYES_VALUES = (100, 300, 300, 500, 900)
BAYES_CHECK = 30
PARAMETER_COUNT = 5 + 1 + 12 * 64
PIECE_NAMES = ("pawn", "knight", "bishop", "rook", "queen", "king")


cdef inline int mirror(int square) noexcept:
    return square ^ 56


cdef class BayesChess(Evaluator):
    """BayesChess's heuristic (see the module docstring); ``parameters`` is the 774-vector
    in the order P N B R Q values, check, then white P N B R Q K tables and black ones, each
    table's cells from a8 to h1.

    Options (``alfabeta.learning.policy``): ``model=FILE`` plays the parameter set a learned
    model selects for the root's phase and ``target`` (``win``, ``not_loss`` or
    ``adaptive``, with ``alpha`` smoothing, ``style=FILE`` classifier and ``seed``);
    ``perturb=SEED`` is self-play's perturbed side. With either, ``prepare(root)`` picks the
    set; the evaluation itself is the same compiled loop."""

    name = "bayeschess"
    games = ("chess",)

    def __init__(self, model=None, target="win", perturb=None, alpha=None, style=None,
                 seed=0):
        given = {"model": model, "target": target, "perturb": perturb, "alpha": alpha,
                 "style": style, "seed": seed}
        defaults = {"model": None, "target": "win", "perturb": None, "alpha": None,
                    "style": None, "seed": 0}
        self.settings = {k: v for k, v in given.items() if v != defaults[k]}
        self.policy = None
        if self.settings:
            from alfabeta.learning.policy import parameter_policy

            self.policy = parameter_policy(model, target, perturb, alpha, style, seed)
            self.use(self.policy.initial())
        else:
            self.set_parameters(default_bayes_parameters())

    def options(self):
        return dict(self.settings)

    @property
    def root_dependent(self):
        """True when the parameters change with the search's root (a model or perturbation):
        scores stored by one search do not hold for the next."""
        return self.policy is not None

    def use(self, params):
        """Play with ``params`` (a BayesChessParams) until the next ``prepare``."""
        if params is not self.current:
            self.set_parameters(params.vector)
            self.current = params

    cpdef prepare(self, Position root):
        """With a model or a perturbation, pick the parameter set for ``root``."""
        if self.policy is not None:
            self.use(self.policy.parameters_for(root))

    def describe(self, Position root):
        """What ``prepare(root)`` decides: phase, target, the opponent's style… (empty for
        the fixed parameters)."""
        return {} if self.policy is None else self.policy.describe(root)

    @property
    def parameters(self):
        """The 774 parameters as a new int32 numpy vector."""
        vector = np.empty(PARAMETER_COUNT, dtype=np.int32)
        for t in range(5):
            vector[t] = self.values[t]
        vector[5] = self.check_bonus
        for colour in range(2):
            for kind in range(6):
                for k in range(64):
                    vector[6 + 64 * (6 * colour + kind) + k] = self.table[colour][kind][
                        mirror(k)]
        return vector

    def set_parameters(self, vector):
        """Replace every parameter (774 integers, in ``parameters`` order)."""
        array = np.asarray(vector)
        if array.shape != (PARAMETER_COUNT,) or not np.issubdtype(array.dtype, np.integer):
            raise InvalidOptionError(
                f"bayeschess parameters: expected {PARAMETER_COUNT} integers, got an array "
                f"of shape {array.shape} and type {array.dtype}")
        for t in range(5):
            self.values[t] = int(array[t])
        self.check_bonus = int(array[5])
        for colour in range(2):
            for kind in range(6):
                for k in range(64):
                    self.table[colour][kind][mirror(k)] = int(
                        array[6 + 64 * (6 * colour + kind) + k])
        self.current = None

    cdef int side_score(self, Chess board, int colour, int* material, int* placement) \
            noexcept:
        cdef int kind, square
        cdef unsigned long long bits
        material[0] = placement[0] = 0
        for kind in range(6):
            bits = board.pieces[colour][kind]
            while bits:
                square = ctz(bits)
                bits &= bits - 1
                if kind < KING:
                    material[0] += self.values[kind]
                placement[0] += self.table[colour][kind][square]
        return material[0] + placement[0]

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int m, p, us
        if not isinstance(position, Chess):
            raise TypeError(f"bayeschess evaluates chess positions, not {position.name}")
        us = position.side_to_move
        cdef int score = self.side_score(<Chess> position, us, &m, &p) \
            - self.side_score(<Chess> position, us ^ 1, &m, &p)
        if (<Chess> position).in_check():
            score -= self.check_bonus  # the opponent is giving check
        return score

    def explain(self, Position position):
        cdef Chess board = <Chess?> position
        cdef int m1, p1, m2, p2, us = board.side_to_move
        self.side_score(board, us, &m1, &p1)
        self.side_score(board, us ^ 1, &m2, &p2)
        return {"material": m1 - m2, "placement": p1 - p2,
                "check": -self.check_bonus if board.in_check() else 0}


def default_bayes_parameters():
    """Cuadro 2's values, check 30, the tables above (black = mirror of white)."""
    vector = np.zeros(PARAMETER_COUNT, dtype=np.int32)
    vector[:5] = BAYES_VALUES
    vector[5] = BAYES_CHECK
    for colour in range(2):
        for kind in range(6):
            for k in range(64):
                square = k ^ 56                      # the k-th cell from a8 to h1
                white_square = square if colour == WHITE else square ^ 56
                vector[6 + 64 * (6 * colour + kind) + k] = BAYES_TABLES[kind][white_square]
    return vector


# ---- CPW (seed-000 §1.5) ---------------------------------------------------------------------
cdef int[5] CPW_VALUES = [100, 325, 325, 500, 975]
cdef unsigned long long FILE_A = 0x0101010101010101ULL


cdef int _shelter(Chess board, int colour) noexcept:
    """The pawn shield h of seed-000 eq. (4): 8 per own pawn on the rank in front of the king,
    4 two ranks in front (per file, the nearer counts), −8 per file with no own pawn; over the
    king's file and its neighbours, ranks relative to the king (−24 … +24)."""
    cdef int king = ctz(board.pieces[colour][KING]), kf = king & 7, kr = king >> 3
    cdef int step = 1 if colour == WHITE else -1, f, total = 0
    cdef unsigned long long pawns = board.pieces[colour][PAWN]
    for f in range(kf - 1, kf + 2):
        if f < 0 or f > 7:
            continue
        if not (pawns & (FILE_A << f)):
            total -= 8
        elif 0 <= kr + step <= 7 and pawns >> (8 * (kr + step) + f) & 1:
            total += 8
        elif 0 <= kr + 2 * step <= 7 and pawns >> (8 * (kr + 2 * step) + f) & 1:
            total += 4
    return total


cdef inline int file_of(int square) noexcept:
    return square & 7


cdef inline int rank_of(int square) noexcept:
    return square >> 3


cdef class CPW(Evaluator):
    """The emotional engine's base evaluation (seed-000 §1.5), in quarter centipawns inside
    and centipawns outside; ``explain`` gives the four terms in centipawns.

    Options (the spec's recommendations are the defaults): ``tropism="seed"`` uses the
    printed 14 − d/2, ``"cpw"`` the Chess Programming Wiki's 14 − d; ``mobility="own"``
    counts the side's legal moves, ``"difference"`` subtracts the opponent's (pseudo-legal)
    moves. The pawn shield looks at the king's file and its neighbours with king-relative
    ranks; a file is open for a king when it holds no pawn of the king's colour."""

    name = "cpw"
    games = ("chess",)

    def __init__(self, tropism="seed", mobility="own"):
        if tropism not in ("seed", "cpw"):
            raise InvalidOptionError(f"cpw option tropism={tropism!r}: expected seed or cpw")
        if mobility not in ("own", "difference"):
            raise InvalidOptionError(
                f"cpw option mobility={mobility!r}: expected own or difference")
        self.tropism, self.mobility_mode = tropism, mobility
        self.tropism_cpw = tropism == "cpw"
        self.mobility_difference = mobility == "difference"

    def options(self):
        return {"tropism": self.tropism, "mobility": self.mobility_mode}

    cdef int shield(self, Chess board, int colour) noexcept:
        return _shelter(board, colour)

    cdef int tropism_quarters(self, Chess board, int colour) noexcept:
        """r of eq. (5) in quarter points, for ``colour``'s king attacked by the other side."""
        cdef int king = ctz(board.pieces[colour][KING]), kf = file_of(king), kr = rank_of(king)
        cdef int enemy = colour ^ 1, kind, square, d, total = 0, base, diagonal, f
        cdef unsigned long long bits, own_pawns = board.pieces[colour][PAWN]
        cdef int[5] weight_quarters = [0, 4, 2, 2, 10]  # ×4: N 1, B 1/2, R 1/2, Q 5/2
        for kind in range(KNIGHT, KING):
            bits = board.pieces[enemy][kind]
            while bits:
                square = ctz(bits)
                bits &= bits - 1
                d = abs(file_of(square) - kf) + abs(rank_of(square) - kr)
                if self.tropism_cpw:
                    base = 4 * (14 - d)
                else:
                    base = 4 * 14 - 2 * d           # (14 − d/2) in quarters
                total += base * weight_quarters[kind] // 4
                if kind == BISHOP:
                    diagonal = min(abs((file_of(square) - rank_of(square)) - (kf - kr)),
                                   abs((file_of(square) + rank_of(square)) - (kf + kr)))
                    if diagonal <= 2:
                        total += 4 * (3 - diagonal)
                elif kind == ROOK:
                    f = file_of(square)
                    if abs(f - kf) <= 1 and not (own_pawns & (FILE_A << f)):
                        total += 4 * 4
        return total

    cdef int safety_quarters(self, Chess board, int colour) noexcept:
        return 4 * self.shield(board, colour) - self.tropism_quarters(board, colour)

    cdef void terms_for(self, Chess board, int colour, int* out) except *:
        """The four terms from ``colour``'s side, in quarter centipawns: material,
        mobility (``colour``'s moves: legal when it is to move, else pseudo-legal), own king
        safety, the other king's defencelessness."""
        cdef int kind, material = 0
        for kind in range(PAWN, KING):
            material += CPW_VALUES[kind] * (popcount(board.pieces[colour][kind])
                                            - popcount(board.pieces[colour ^ 1][kind]))
        out[0] = 4 * material
        out[1] = 4 * board.mobility(colour)
        if self.mobility_difference:
            out[1] -= 4 * board.mobility(colour ^ 1)
        out[2] = self.safety_quarters(board, colour)
        out[3] = -self.safety_quarters(board, colour ^ 1)

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int[4] t
        if not isinstance(position, Chess):
            raise TypeError(f"cpw evaluates chess positions, not {position.name}")
        self.terms_for(<Chess> position, position.side_to_move, t)
        return _round_quarters(t[0] + t[1] + t[2] + t[3])

    def explain(self, Position position):
        """The four terms in centipawns (quarters kept): their sum, rounded, is evaluate()."""
        cdef int[4] t
        self.terms_for(<Chess?> position, position.side_to_move, t)
        return {"material": t[0] / 4.0, "mobility": t[1] / 4.0, "king safety": t[2] / 4.0,
                "opponent king defencelessness": t[3] / 4.0}

    def shield_of(self, Position position, int colour):
        """The pawn-shield term h for ``colour``'s king (for tests and users)."""
        return self.shield(<Chess?> position, colour)

    def tropism_of(self, Position position, int colour):
        """The king-tropism term r (centipawns) against ``colour``'s king."""
        return self.tropism_quarters(<Chess?> position, colour) / 4.0


cdef inline int _round_quarters(int quarters) noexcept:
    """Quarter centipawns to centipawns, halves rounded away from zero."""
    return (quarters + 2) // 4 if quarters >= 0 else -((-quarters + 2) // 4)


# ---- standard ----------------------------------------------------------------------------
cdef int[5] MG_VALUES = [100, 320, 330, 500, 950]
cdef int[5] EG_VALUES = [120, 300, 320, 520, 950]
cdef int[6] PHASE_WEIGHT = [0, 1, 1, 2, 4, 0]
KING_ENDGAME = _table([
    [-30, -20, -10, -10, -10, -10, -20, -30],
    [-20, -10, 0, 0, 0, 0, -10, -20],
    [-10, 0, 10, 15, 15, 10, 0, -10],
    [-10, 0, 15, 20, 20, 15, 0, -10],
    [-10, 0, 15, 20, 20, 15, 0, -10],
    [-10, 0, 10, 15, 15, 10, 0, -10],
    [-20, -10, 0, 0, 0, 0, -10, -20],
    [-30, -20, -10, -10, -10, -10, -20, -30]])
cdef int[64] PST_KING_EG
cdef int[6][64] PST_MG


def _init_standard():
    for kind in range(6):
        for square in range(64):
            PST_MG[kind][square] = BAYES_TABLES[kind][square]
    for square in range(64):
        PST_KING_EG[square] = KING_ENDGAME[square]


_init_standard()


cdef class Standard(Evaluator):
    """Tapered evaluation for play: material and tables blended by game phase (knights and
    bishops 1, rooks 2, queens 4, 24 in all), 4 × mobility (squares the pieces other than
    pawns and king attack, not occupied by own pieces), bishop pair +30, doubled −12,
    isolated −10, passed pawns +10 … +80 by rank, king shelter (the CPW shield, middlegame
    only)."""

    name = "standard"
    games = ("chess",)

    cdef void side(self, Chess board, int colour, int* mg, int* eg) noexcept:
        cdef int kind, square, r, f, advance, ws
        cdef unsigned long long bits, pawns = board.pieces[colour][PAWN]
        cdef unsigned long long enemy_pawns = board.pieces[colour ^ 1][PAWN], ahead
        mg[0] = eg[0] = 0
        for kind in range(6):
            bits = board.pieces[colour][kind]
            while bits:
                square = ctz(bits)
                bits &= bits - 1
                ws = square if colour == WHITE else square ^ 56  # white's view
                if kind < KING:
                    mg[0] += MG_VALUES[kind] + PST_MG[kind][ws]
                    eg[0] += EG_VALUES[kind] + (PST_MG[kind][ws] if kind != PAWN else 0)
                else:
                    mg[0] += PST_MG[KING][ws]
                    eg[0] += PST_KING_EG[ws]
                if kind == PAWN:
                    f, r = square & 7, square >> 3
                    if popcount(pawns & (FILE_A << f)) > 1:
                        mg[0] -= 6
                        eg[0] -= 6
                    if not (pawns & ((FILE_A << (f - 1) if f > 0 else 0)
                                     | (FILE_A << (f + 1) if f < 7 else 0))):
                        mg[0] -= 10
                        eg[0] -= 10
                    if colour == WHITE:
                        ahead = 0 if r == 7 else (0xFFFFFFFFFFFFFFFFULL << (8 * (r + 1)))
                        advance = r
                    else:
                        ahead = (1ULL << (8 * r)) - 1
                        advance = 7 - r
                    ahead &= (FILE_A << f) | (FILE_A << (f - 1) if f > 0 else 0) | (
                        FILE_A << (f + 1) if f < 7 else 0)
                    if not (enemy_pawns & ahead):
                        mg[0] += 5 * advance
                        eg[0] += 12 * advance
        if popcount(board.pieces[colour][BISHOP]) >= 2:
            mg[0] += 30
            eg[0] += 30

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        cdef int mg_us, eg_us, mg_them, eg_them, phase = 0, kind, us, shelter
        if not isinstance(position, Chess):
            raise TypeError(f"standard evaluates chess positions, not {position.name}")
        us = position.side_to_move
        for kind in range(KNIGHT, KING):
            phase += PHASE_WEIGHT[kind] * (popcount((<Chess> position).pieces[0][kind])
                                           + popcount((<Chess> position).pieces[1][kind]))
        if phase > 24:
            phase = 24
        self.side(<Chess> position, us, &mg_us, &eg_us)
        self.side(<Chess> position, us ^ 1, &mg_them, &eg_them)
        shelter = _shelter(<Chess> position, us) - _shelter(<Chess> position, us ^ 1)
        mg_us += 3 * shelter
        mobility = (_pseudo_mobility(<Chess> position, us)
                    - _pseudo_mobility(<Chess> position, us ^ 1))
        return ((mg_us - mg_them) * phase + (eg_us - eg_them) * (24 - phase)) // 24 \
            + 4 * mobility

    def explain(self, Position position):
        return {"total": self.evaluate(position)}


cdef inline int _pseudo_mobility(Chess board, int colour) noexcept:
    return board.piece_mobility(colour)
