# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Move ordering for the alpha-beta family: a staged picker. The moves of a node are tried

1. the transposition table's move (``tt_move``);
2. the noisy moves (``captures``): what the game's ``generate_noisy`` returns — captures and
   promotions in chess — most valuable first by the game's ``order_hint`` (MVV-LVA in chess);
   quiescence orders its noisy moves the same way (``order_noisy``); with ``see``, a noisy
   move whose static exchange (the game's ``exchange``) loses material waits until after
   the killers (with ``losing_last``, until after every quiet move);
3. the two killer moves of the ply (``killers``): quiet moves that caused a cut-off in a
   sibling;
4. with ``countermove``, the quiet move that last refuted the opponent's previous move;
5. the rest by the history heuristic (``history``): how often, weighted by depth², each move
   caused a cut-off anywhere; with ``conthist``, plus how often a move of its class (the
   game's ``move_class``: in chess its piece and target square) did so in answer to the
   class of the move one ply before and of the move two plies before (two continuation
   histories, kept with gravity always); with ``pawn_history``, plus how often a move of
   its class did so in a position of the same structure (the game's ``c_structure_key``:
   in chess the pawns, hashed to one of ``PAWN_HISTORY_ROWS`` rows; with gravity always,
   as Stockfish's pawn history); with ``malus``, a cut-off
   also lowers the history of the later moves tried before it at that node, and every update
   moves a score only part of the way towards ±``HISTORY_MAX`` ("gravity": the table follows
   what the search finds now; ``history_linear``: larger steps, growing with depth linearly
   rather than as its square); with ``quiet_hint``, each quiet move's score also adds the
   game's ``order_hint`` for it, a small static guess that orders the moves the history
   has not seen; with ``threat_order``, the game's ``threat_hints`` for it (chess: a piece
   escaping an attack by a cheaper one, moving into one, giving check), on the history's
   scale;

with ``quiet_cuts`` (and ``captures``), only quiet moves (none of the game's noisy moves)
become killers and countermoves and earn or lose history: a capture that refutes a move is
found by the noisy stage anyway, and would push a quiet killer out; with
``capture_history`` (and ``captures``), the noisy moves keep a history of their own (with
gravity: a cut-off raises the move's and lowers the noisy moves tried before it), which
shifts a noisy move's ``order_hint`` by up to ``CAPTURE_SPREAD`` either way, here and in
quiescence;

and, within a stage and with every stage off, in the order the game generated them (the
sort is stable). Ordering never changes a searcher's value, only how much it searches.
"""

from libc.stdlib cimport calloc, free, malloc

from alfabeta.searchers.context cimport SEARCH_MAX_PLY
from alfabeta.searchers.tt cimport NO_MOVE

cdef enum:
    HISTORY_SIZE = 1 << 16
    HISTORY_MAX = 1 << 14    # ``malus``: history scores stay within ±this
    HISTORY_BONUS_MAX = 1600  # ``malus``: the most one cut-off adds (16·depth² below it)
    LINEAR_BONUS_STEP = 600   # ``history_linear``: a cut-off adds 600·depth − 400,
    LINEAR_BONUS_MAX = 3600   # at most this
    COUNTERMOVE_SIZE = 1 << 12  # countermove slots per side (hashed by the answered move)
    CONT_PLIES = 2              # continuation histories: one and two plies back
    PAWN_HISTORY_ROWS = 512     # ``pawn_history``: rows, by the structure key hashed
    CAPTURE_SPREAD = 32         # ``capture_history`` moves a noisy key by at most this,
    CAPTURE_SHIFT = 9           # one per 2 ** this of history
    LAZY_PICKS = 3              # ``pick`` selects this many moves, then sorts the rest

cdef long long TT_MOVE_KEY = 1LL << 62
cdef long long NOISY_KEY = 1LL << 61     # plus the game's order_hint
cdef long long KILLER_KEY = 1LL << 60    # the second killer: one less
cdef long long COUNTER_KEY = KILLER_KEY - 2  # the countermove: after both killers
cdef long long LOSING_KEY = 1LL << 59    # a noisy move losing material (``see``), + hint
cdef long long LOSING_LAST_KEY = -(1LL << 59)  # … with ``losing_last``: below every quiet key
# a noisy move's key above NOISY_KEY or the losing key: its order_hint (0 … 2**30), with
# ``capture_history`` plus CAPTURE_SPREAD and its history's share (−CAPTURE_SPREAD … +)
cdef long long HINT_SPAN = (1LL << 30) + 2 * CAPTURE_SPREAD + 1


cdef class MovePicker:
    """The ordering state of one search: killers per ply and the history table. ``max_moves``
    is the game's most moves in a position."""

    def __cinit__(self, int max_moves, bint tt_move=False, bint captures=False,
                  bint killers=False, bint history=False, bint see=False, bint malus=False,
                  bint countermove=False, bint conthist=False, bint quiet_hint=False,
                  bint quiet_cuts=False, bint capture_history=False, bint losing_last=False,
                  bint threat_order=False, bint history_linear=False,
                  bint pawn_history=False):
        cdef int i
        self.max_moves = max_moves
        self.use_quiet_cuts = quiet_cuts and captures
        self.use_capture_history = capture_history and captures
        if self.use_capture_history:
            self.capture_history = <long long*> calloc(2 * HISTORY_SIZE, sizeof(long long))
            if self.capture_history == NULL:
                raise MemoryError()
        if self.use_quiet_cuts or self.use_capture_history:
            self.noisy_flags = <unsigned char*> calloc((SEARCH_MAX_PLY + 2) * max_moves, 1)
            if self.noisy_flags == NULL:
                raise MemoryError()
        self.use_tt_move = tt_move
        self.use_captures = captures
        self.use_see = captures and see
        self.losing_key = LOSING_LAST_KEY if losing_last else LOSING_KEY
        self.use_killers = killers
        self.use_history = history
        self.use_malus = history and malus
        self.use_history_linear = history_linear
        self.use_quiet_hint = quiet_hint
        self.use_threat_order = threat_order
        if threat_order:
            self.threat = <int*> calloc(max_moves, sizeof(int))
            if self.threat == NULL:
                raise MemoryError()
        self.active = tt_move or captures or killers or history or countermove or quiet_hint \
            or threat_order
        self.killer = <int*> calloc(2 * (SEARCH_MAX_PLY + 2), sizeof(int))
        self.score = <long long*> calloc(max_moves, sizeof(long long))
        # written by ``order`` before ``pick`` reads them: not cleared (2 MB for chess)
        self.keys = <long long*> malloc((SEARCH_MAX_PLY + 2) * max_moves * sizeof(long long))
        self.sorted_from = <int*> malloc((SEARCH_MAX_PLY + 2) * sizeof(int))
        self.tt_noisy = <unsigned char*> malloc(SEARCH_MAX_PLY + 2)
        self.noisy = <int*> calloc(max_moves, sizeof(int))
        self.is_noisy = <unsigned char*> calloc(max_moves, 1)
        if history:
            self.history = <long long*> calloc(2 * HISTORY_SIZE, sizeof(long long))
        self.use_countermove = countermove
        if countermove:
            self.countermove = <int*> calloc(2 * COUNTERMOVE_SIZE, sizeof(int))
        self.use_conthist = history and conthist
        if self.use_conthist:
            self.conthist = <short*> calloc(CONT_PLIES * MOVE_CLASSES * MOVE_CLASSES,
                                            sizeof(short))
        self.use_pawn_history = history and pawn_history
        if self.use_pawn_history:
            self.pawn_history = <short*> calloc(PAWN_HISTORY_ROWS * MOVE_CLASSES, sizeof(short))
        if self.killer == NULL or self.score == NULL or self.noisy == NULL \
                or self.keys == NULL or self.sorted_from == NULL or self.tt_noisy == NULL \
                or self.is_noisy == NULL \
                or (history and self.history == NULL) \
                or (countermove and self.countermove == NULL) \
                or (self.use_conthist and self.conthist == NULL) \
                or (self.use_pawn_history and self.pawn_history == NULL):
            raise MemoryError()
        for i in range(2 * (SEARCH_MAX_PLY + 2)):
            self.killer[i] = NO_MOVE
        for i in range(2 * COUNTERMOVE_SIZE if countermove else 0):
            self.countermove[i] = NO_MOVE

    def __dealloc__(self):
        free(self.killer)
        free(self.score)
        free(self.keys)
        free(self.sorted_from)
        free(self.tt_noisy)
        free(self.noisy)
        free(self.is_noisy)
        free(self.history)
        free(self.countermove)
        free(self.conthist)
        free(self.pawn_history)
        free(self.noisy_flags)
        free(self.capture_history)
        free(self.threat)

    cdef void new_search(self) noexcept:
        """Start another search with what this one learnt (``keep_history``): the killers
        are forgotten (their plies no longer match), the history, continuation history and
        capture history (and pawn history) are halved, the countermoves kept."""
        cdef int i
        for i in range(2 * (SEARCH_MAX_PLY + 2)):
            self.killer[i] = NO_MOVE
        if self.use_history:
            _halve(self.history, 2 * HISTORY_SIZE)
        if self.use_conthist:
            _halve_short(self.conthist, CONT_PLIES * MOVE_CLASSES * MOVE_CLASSES)
        if self.use_capture_history:
            _halve(self.capture_history, 2 * HISTORY_SIZE)
        if self.use_pawn_history:
            _halve_short(self.pawn_history, PAWN_HISTORY_ROWS * MOVE_CLASSES)

    cdef long long* history_slot(self, int side, int move) noexcept:
        return &self.history[side * HISTORY_SIZE + ((<unsigned int> move * 2654435761u)
                                                    >> 16 & (HISTORY_SIZE - 1))]

    cdef int* countermove_slot(self, int side, int previous) noexcept:
        return &self.countermove[side * COUNTERMOVE_SIZE
                                 + ((<unsigned int> previous * 2654435761u) >> 20
                                    & (COUNTERMOVE_SIZE - 1))]

    cdef short* continuation(self, int back, int earlier) noexcept:
        """``conthist``: the row, by a move's class, of the continuation history ``back`` + 1
        plies back for an ``earlier`` move of that class (NULL for ``NO_CLASS``, or without
        ``conthist``)."""
        if not self.use_conthist or earlier == NO_CLASS:
            return NULL
        return self.conthist + (back * MOVE_CLASSES + earlier) * MOVE_CLASSES

    cdef short* pawn_row(self, Position pos) noexcept:
        """``pawn_history``: the row, by a move's class, for ``pos``'s structure key (NULL
        without ``pawn_history``)."""
        if not self.use_pawn_history:
            return NULL
        return self.pawn_history + ((pos.c_structure_key() * 0x9E3779B97F4A7C15ULL) >> 55
                                    & (PAWN_HISTORY_ROWS - 1)) * MOVE_CLASSES

    cdef long long noisy_score(self, Position pos, int move) noexcept:
        """A noisy move's key above its stage's: the game's ``order_hint``, shifted by its
        capture history (``capture_history``)."""
        if not self.use_capture_history:
            return pos.order_hint(move)
        return pos.order_hint(move) + CAPTURE_SPREAD \
            + (self.capture_slot(pos.side_to_move, move)[0] >> CAPTURE_SHIFT)

    cdef long long history_of(self, int side, int move) noexcept:
        """The history score of ``move`` by ``side`` (0 with history off)."""
        return self.history_slot(side, move)[0] if self.use_history else 0

    cdef long long quiet_score(self, Position pos, int move, short* follow1,
                               short* follow2) noexcept:
        """A quiet ``move``'s history score in ``pos`` as ``order`` keys it before any hint:
        its history, plus its scores in the continuation rows ``follow1`` and ``follow2``
        (``continuation``'s; NULL for none); 0 with history off."""
        cdef long long s
        cdef int c
        if not self.use_history:
            return 0
        s = self.history_slot(pos.side_to_move, move)[0]
        if follow1 != NULL or follow2 != NULL:
            c = class_of(pos, move)
            if follow1 != NULL:
                s += follow1[c]
            if follow2 != NULL:
                s += follow2[c]
        return s

    cdef bint is_killer(self, int ply, int move) noexcept:
        """Is ``move`` one of the ply's killers (always False with killers off)?"""
        return self.use_killers and (self.killer[2 * ply] == move
                                     or self.killer[2 * ply + 1] == move)

    cdef bint is_countermove(self, int side, int previous, int move) noexcept:
        """Is ``move`` by ``side`` the countermove to ``previous`` (always False with
        countermoves off or no previous move)?"""
        return self.use_countermove and previous != NO_MOVE \
            and self.countermove_slot(side, previous)[0] == move

    cdef int order(self, Position pos, int* moves, int count, int ply, int tt_move,
                   int previous, int class1, int class2) except -1:
        """Key ``moves`` for the stages above; ``previous`` is the move that led here
        (NO_MOVE at the root or after a null move), ``class1`` and ``class2`` the classes of
        the moves one and two plies before (``NO_CLASS`` where there is none, or a null
        move). ``pick`` then brings them out in order
        (the sort is stable), one index at a time. Returns how many come before the
        countermove and history stages (the TT move, the winning noisy moves and the
        killers): the moves a late-move reduction leaves alone."""
        cdef int i, m, staged = 0, counter = NO_MOVE
        cdef long long s
        cdef int side = pos.side_to_move
        cdef long long* key = self.keys + ply * self.max_moves
        cdef short* follow1 = self.continuation(0, class1)
        cdef short* follow2 = self.continuation(1, class2)
        cdef short* pawns
        if not self.active:
            return 0
        pawns = self.pawn_row(pos)
        self.tt_noisy[ply] = False
        self.sorted_from[ply] = count
        if self.use_captures:
            pos.mark_noisy(moves, count, self.is_noisy, self.noisy)
        if self.use_countermove and previous != NO_MOVE:
            counter = self.countermove_slot(side, previous)[0]
        if self.use_threat_order:
            pos.threat_hints(moves, count, self.threat)
        for i in range(count):
            m = moves[i]
            s = 0
            if self.use_tt_move and m == tt_move:
                s = TT_MOVE_KEY
                self.tt_noisy[ply] = self.use_captures and self.is_noisy[i]
            elif self.use_captures and self.is_noisy[i]:
                s = (self.losing_key if self.use_see and pos.exchange(m) < 0 else NOISY_KEY) \
                    + self.noisy_score(pos, m)
            elif self.use_killers and m == self.killer[2 * ply]:
                s = KILLER_KEY
            elif self.use_killers and m == self.killer[2 * ply + 1]:
                s = KILLER_KEY - 1
            elif m == counter:
                s = COUNTER_KEY
            else:
                if self.use_history:
                    s = self.quiet_score(pos, m, follow1, follow2)
                if pawns != NULL:
                    s += pawns[class_of(pos, m)]
                if self.use_quiet_hint:
                    s += pos.order_hint(m)
                if self.use_threat_order:
                    s += self.threat[i]
            key[i] = s
            if s >= KILLER_KEY - 1:
                staged += 1
        return staged

    cdef int pick(self, int* moves, int index, int count, int ply) noexcept:
        """The ``index``-th move of the ply's last ``order`` (``moves``: its ``count``
        moves, of which the first ``index`` have been picked), put at ``moves[index]``: the
        first of the highest key among the rest, their order otherwise kept, so that picking
        every index gives the stable sort. The first ``LAZY_PICKS`` are selected one by one
        (a cut-off often comes before the rest are needed); then the rest are sorted at once.
        With every stage off, ``moves[index]`` as generated."""
        cdef long long* key = self.keys + ply * self.max_moves
        cdef unsigned char* flags
        cdef int best, j, m
        cdef long long s
        if not self.active:
            return moves[index]
        if index < self.sorted_from[ply]:
            if index < LAZY_PICKS:
                best = index
                for j in range(index + 1, count):
                    if key[j] > key[best]:
                        best = j
                m, s = moves[best], key[best]
                for j in range(best, index, -1):
                    moves[j], key[j] = moves[j - 1], key[j - 1]
                moves[index], key[index] = m, s
            else:
                _sort_by_score(moves + index, key + index, count - index)
                self.sorted_from[ply] = index
        if self.noisy_flags != NULL:
            flags = self.noisy_flags + ply * self.max_moves
            s = key[index]
            flags[index] = (s == TT_MOVE_KEY and self.tt_noisy[ply]) \
                or NOISY_KEY <= s < NOISY_KEY + HINT_SPAN \
                or self.losing_key <= s < self.losing_key + HINT_SPAN
        return moves[index]

    def ordered(self, Position position, tt_move=None):
        """``position``'s legal moves in the order this picker tries them at the root (ply 0,
        no previous move; ``tt_move`` as the table's move): a view for tests and for anyone
        studying the ordering."""
        cdef int count, i
        cdef int* moves = <int*> calloc(self.max_moves, sizeof(int))
        if moves == NULL:
            raise MemoryError()
        try:
            count = position.generate(moves)
            self.order(position, moves, count, 0, NO_MOVE if tt_move is None else tt_move,
                       NO_MOVE, NO_CLASS, NO_CLASS)
            return [self.pick(moves, i, count, 0) for i in range(count)]
        finally:
            free(moves)

    cdef bint noisy_at(self, int ply, int index) noexcept:
        """With ``quiet_cuts``: is the ``index``-th move of the ply's last ordering a noisy
        one? Always False without it."""
        return self.use_quiet_cuts and self.noisy_flags[ply * self.max_moves + index]

    cdef void reward_noisy(self, int side, int ply, int* moves, int index,
                           int depth) noexcept:
        """``capture_history``: ``moves[index]``, in the ply's last ordering, caused a
        cut-off with ``depth`` left; if it is noisy, its capture history rises, and the noisy
        moves before it fall as much."""
        cdef unsigned char* flags = self.noisy_flags + ply * self.max_moves
        cdef long long bonus = self.bonus(depth)
        cdef int i
        if flags[index]:
            _nudge(self.capture_slot(side, moves[index]), bonus)
        for i in range(index):
            if flags[i]:
                _nudge(self.capture_slot(side, moves[i]), -bonus)

    cdef long long* capture_slot(self, int side, int move) noexcept:
        return &self.capture_history[side * HISTORY_SIZE + (
            (<unsigned int> move * 2654435761u) >> 16 & (HISTORY_SIZE - 1))]

    cdef long long bonus(self, int depth) noexcept:
        """What a cut-off with ``depth`` left adds to a score with gravity (``malus``):
        16·depth², at most ``HISTORY_BONUS_MAX``; with ``history_linear``, 600·depth − 400,
        at most ``LINEAR_BONUS_MAX`` (Stockfish's steps for its history, on this scale)."""
        if self.use_history_linear:
            return min(LINEAR_BONUS_STEP * depth - 400LL, <long long> LINEAR_BONUS_MAX)
        return min(16LL * depth * depth, <long long> HISTORY_BONUS_MAX)

    cdef void penalise(self, int side, int move, int depth) noexcept:
        """``move`` by ``side`` failed low with ``depth`` left: it loses the history a
        cut-off would have earned it (with ``malus``, with gravity)."""
        cdef long long bonus
        if not self.use_history:
            return
        if not self.use_malus:
            self.history_slot(side, move)[0] -= <long long> depth * depth
            return
        bonus = self.bonus(depth)
        _nudge(self.history_slot(side, move), -bonus)

    cdef void order_noisy(self, Position pos, int* moves, int count) noexcept:
        """Sort quiescence's noisy moves by the game's ``order_hint`` (MVV-LVA in chess), most
        promising first; the caller checks ``use_captures``."""
        cdef int i
        for i in range(count):
            self.score[i] = self.noisy_score(pos, moves[i])
        _sort_by_score(moves, self.score, count)

    cdef void reward(self, Position pos, int ply, int move, int depth, int* failed,
                     int failed_count, int failed_index, int previous, int class1,
                     int class2) noexcept:
        """``move``, by the side to move in ``pos``, caused a cut-off at ``ply`` with ``depth``
        left, in answer to ``previous`` (after moves of ``class1`` and ``class2``, as for
        ``order``): remember it as a killer, as the countermove, in the history and the
        continuation histories and the pawn history; with ``malus``, the ``failed`` moves
        (tried before it, after the staged ones; the first is the ply's
        ``failed_index``-th) lose as much history as it gains. With ``quiet_cuts``, only
        the quiet ones count (the caller checks ``move``)."""
        cdef long long bonus
        cdef int i, side = pos.side_to_move
        cdef short* follow1 = self.continuation(0, class1)
        cdef short* follow2 = self.continuation(1, class2)
        cdef short* pawns = self.pawn_row(pos)
        if self.use_killers and self.killer[2 * ply] != move:
            self.killer[2 * ply + 1] = self.killer[2 * ply]
            self.killer[2 * ply] = move
        if self.use_countermove and previous != NO_MOVE:
            self.countermove_slot(side, previous)[0] = move
        if not self.use_history:
            return
        bonus = self.bonus(depth)
        if follow1 != NULL or follow2 != NULL or pawns != NULL:
            _nudge_continuations(follow1, follow2, pawns, class_of(pos, move), bonus)
        if not self.use_malus:
            self.history_slot(side, move)[0] += <long long> depth * depth
            return
        _nudge(self.history_slot(side, move), bonus)
        for i in range(failed_count):
            if self.noisy_at(ply, failed_index + i):
                continue
            _nudge(self.history_slot(side, failed[i]), -bonus)
            if follow1 != NULL or follow2 != NULL or pawns != NULL:
                _nudge_continuations(follow1, follow2, pawns, class_of(pos, failed[i]),
                                     -bonus)


cdef void _halve_short(short* scores, Py_ssize_t count) noexcept:
    """Halve each of ``count`` 16-bit scores (the continuation and pawn histories)."""
    cdef Py_ssize_t i
    for i in range(count):
        scores[i] = scores[i] // 2


cdef void _halve(long long* scores, Py_ssize_t count) noexcept:
    """Halve each of ``count`` scores, rounding towards zero, as ``x // 2`` does in C. Written
    with unsigned shifts and masks (add the sign bit, shift right, put the sign back), which
    SSE2 has for 64-bit lanes, so that gcc vectorises the loop."""
    cdef unsigned long long* raw = <unsigned long long*> scores
    cdef unsigned long long x, sign = 1ULL << 63
    cdef Py_ssize_t i
    for i in range(count):
        x = raw[i] + (raw[i] >> 63)
        raw[i] = (x >> 1) | (x & sign)


cdef inline void _nudge(long long* score, long long bonus) noexcept:
    """Add ``bonus`` to a history score with gravity: the nearer the score already is to
    ±HISTORY_MAX in that direction, the less it moves (it never passes it)."""
    score[0] += bonus - score[0] * (bonus if bonus > 0 else -bonus) // HISTORY_MAX


cdef inline void _nudge_continuations(short* follow1, short* follow2, short* pawns,
                                      int move_class, long long bonus) noexcept:
    """``_nudge`` the slots of ``move_class`` in the class-indexed rows ``follow1`` and
    ``follow2`` (the continuation histories) and ``pawns`` (the pawn history); any may be
    NULL."""
    _nudge_short(follow1, move_class, bonus)
    _nudge_short(follow2, move_class, bonus)
    _nudge_short(pawns, move_class, bonus)


cdef inline void _nudge_short(short* row, int move_class, long long bonus) noexcept:
    """``_nudge`` the 16-bit score ``row[move_class]`` (nothing if ``row`` is NULL)."""
    cdef long long score
    if row != NULL:
        score = row[move_class]
        _nudge(&score, bonus)
        row[move_class] = <short> score


cdef inline void _sort_by_score(int* moves, long long* score, int count) noexcept:
    """Sort ``moves`` by ``score``, highest first, keeping the order of equal scores (an
    insertion sort: move lists are short and mostly in order already)."""
    cdef int i, j, m
    cdef long long s
    for i in range(1, count):
        m, s, j = moves[i], score[i], i - 1
        while j >= 0 and score[j] < s:
            moves[j + 1], score[j + 1] = moves[j], score[j]
            j -= 1
        moves[j + 1], score[j + 1] = m, s
