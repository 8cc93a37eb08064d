# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The alpha-beta family, compiled: one negamax search whose enhancements are options.

With every option off it is plain alpha-beta, node for node the same as ``basic.pyx`` and
``reference.py``. The options (seed-003 §1, design §4):

* ``fail_soft``; ``shared_root`` (α passed between root moves);
* ``pvs``: NegaScout/PVS (§1.14) — later moves get a null window (α, α+1) and a re-search
  on (v, β) when they fail high; ``research_leaves`` keeps the document's re-search even when
  the child is a leaf (off: the leaf's value is already exact);
* ``tt``: a transposition table (§1.17) of ``tt_mb`` MB, keyed by ``c_key()``, holding a lower
  and an upper bound per entry (EXACT when they meet), the depth and the best move;
  depth-preferred replacement; mate scores stored relative to the node;
* ``iterative``: depth 1, 2, … (§1.9); the result is the last completed iteration's;
* ordering: ``tt_move`` first, two ``killers`` per ply, the ``history`` heuristic;
* ``quiescence``: at the horizon, stand pat then follow ``generate_noisy`` moves (§1.4);
* ``null_r``: null-move pruning with reduction R (§1.11), searched at depth − R − 1 with the
  window (β−1, β), never twice in a row, skipped where ``make_null`` refuses (no pass move or
  a zugzwang-prone position); ``verified`` re-checks a null-move cut with a search of the
  node at depth − R;
* ``aspiration``: a root window of ± that many points around the previous iteration's value
  (or ``guess``); a result on or outside an edge is a failure and is searched again with a
  full window (§1.12);
* ``futility``: the survey's "poda de inutilidades" (§1.3): once a node's window, wider than
  the margin to begin with, has narrowed to the margin or less, its other moves are not
  searched (a node cannot improve by enough to matter);
* ``lmr``: late-move reductions ("búsqueda sesgada", §1.7): from the lmr-th move on, at depth
  ≥ 3, moves other than the TT move and killers are searched one ply shallower with a null
  window, and again at full depth if they beat α;
* ``extensions``: a position the game marks tactical (``is_tactical``) is searched one ply
  deeper, at most that many times along a path ("continuación heurística", §1.10);
* ``secondary``: the chosen root move is searched that many plies deeper; if it then scores
  below the best other move, that move is played ("búsqueda secundaria", §1.5);
* ``mtd``: MTD(f) (§1.18) — null-window passes of the memory-enhanced test (fail-soft
  alpha-beta with the table) from the first guess; ``mtd_start`` +1/-1 starts at +∞ or −∞
  (MT-SSS*, MT-DUAL*).
"""

cimport cython
from libc.stdint cimport int16_t, int32_t, uint64_t
from libc.stdlib cimport calloc, free

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport (
    RESULT_DRAW,
    RESULT_LEAF,
    RESULT_LOSS,
    RESULT_ONGOING,
    RESULT_WIN,
    Position,
)
from alfabeta.searchers.context cimport SCORE_INF, SCORE_WIN, SEARCH_MAX_PLY, SearchContext, ply_moves, pv_clear, pv_set, spend_node
from alfabeta.searchers.tt cimport (
    NO_MOVE,
    PROVEN,
    Entry,
    TranspositionTable,
    from_table,
    table_depth,
)

from alfabeta.core import SearchInfo, SearchResult

cdef enum:
    HISTORY_SIZE = 1 << 16
    UNLIMITED = 1 << 30


cdef struct Options:
    bint fail_soft
    bint shared_root
    bint pvs
    bint research_leaves
    bint tt
    bint iterative
    bint tt_move
    bint killers
    bint history
    bint quiescence
    int null_r
    bint verified
    int aspiration
    int futility
    int lmr
    int extensions
    int secondary
    bint mtd
    int mtd_start


@cython.final
cdef class Family:
    cdef SearchContext ctx
    cdef Options o
    cdef TranspositionTable table
    cdef int* killer
    cdef long long* history
    cdef long long* order_score
    cdef bint ordering
    cdef int root_best        # best value among the finished root moves of this pass

    def __cinit__(self, SearchContext ctx, dict options, TranspositionTable table=None):
        self.ctx = ctx
        o = options
        self.o.fail_soft = o["fail_soft"]
        self.o.shared_root = o["shared_root"]
        self.o.pvs = o["pvs"]
        self.o.research_leaves = o["research_leaves"]
        self.o.tt = o["tt"]
        self.o.iterative = o["iterative"]
        self.o.tt_move = o["tt_move"] and o["tt"]
        self.o.killers = o["killers"]
        self.o.history = o["history"]
        self.o.quiescence = o["quiescence"]
        self.o.null_r = o["null_r"]
        self.o.verified = o["verified"]
        self.o.aspiration = o["aspiration"]
        self.o.futility = o["futility"]
        self.o.lmr = o["lmr"]
        self.o.extensions = o["extensions"]
        self.o.secondary = o["secondary"]
        self.o.mtd = o["mtd"]
        self.o.mtd_start = o["mtd_start"]
        self.ordering = self.o.tt_move or self.o.killers or self.o.history
        if self.o.tt:
            self.table = table if table is not None else TranspositionTable(o["tt_mb"])
        self.killer = <int*> calloc(2 * (SEARCH_MAX_PLY + 2), sizeof(int))
        if self.o.history:
            self.history = <long long*> calloc(2 * HISTORY_SIZE, sizeof(long long))
        self.order_score = <long long*> calloc(ctx.pos.max_moves, sizeof(long long))
        if self.killer == NULL \
                or (self.o.history and self.history == NULL) or self.order_score == NULL:
            raise MemoryError()
        for i in range(2 * (SEARCH_MAX_PLY + 2)):
            self.killer[i] = NO_MOVE

    def __dealloc__(self):
        free(self.killer)
        free(self.history)
        free(self.order_score)

    # ---- transposition table ----------------------------------------------------------------
    cdef inline Entry* probe(self, uint64_t key) noexcept:
        return self.table.probe(key)

    cdef inline void store(self, uint64_t key, int depth, int ply, int value, int alpha,
                           int beta, int move) noexcept:
        self.table.store(key, depth, ply, value, alpha, beta, move)

    # ---- move ordering ----------------------------------------------------------------------
    cdef inline long long* history_slot(self, int side, int move) noexcept:
        return &self.history[side * HISTORY_SIZE + ((<unsigned int> move * 2654435761u)
                                                    >> 16 & (HISTORY_SIZE - 1))]

    cdef bint is_killer(self, int ply, int move) noexcept:
        return self.o.killers and (self.killer[2 * ply] == move or self.killer[2 * ply + 1] == move)

    cdef void order(self, int* moves, int count, int ply, int tt_move) noexcept:
        """Stable sort: TT move, killers, then history counts; equal scores keep the
        generation order."""
        cdef int i, j, m
        cdef long long s
        cdef int side = self.ctx.pos.side_to_move
        for i in range(count):
            m = moves[i]
            s = 0
            if self.o.tt_move and m == tt_move:
                s = 1LL << 62
            elif self.o.killers and m == self.killer[2 * ply]:
                s = 1LL << 61
            elif self.o.killers and m == self.killer[2 * ply + 1]:
                s = (1LL << 61) - 1
            elif self.o.history:
                s = self.history_slot(side, m)[0]
            self.order_score[i] = s
        for i in range(1, count):
            m, s, j = moves[i], self.order_score[i], i - 1
            while j >= 0 and self.order_score[j] < s:
                moves[j + 1], self.order_score[j + 1] = moves[j], self.order_score[j]
                j -= 1
            moves[j + 1], self.order_score[j + 1] = m, s

    cdef void reward(self, int ply, int move, int depth) noexcept:
        """A move that caused a cut-off: remember it as a killer and in the history."""
        if self.o.killers and self.killer[2 * ply] != move:
            self.killer[2 * ply + 1] = self.killer[2 * ply]
            self.killer[2 * ply] = move
        if self.o.history:
            self.history_slot(self.ctx.pos.side_to_move, move)[0] += <long long> depth * depth

    # ---- the search -------------------------------------------------------------------------
    cdef inline int evaluate(self) except? -2147483647:
        self.ctx.leaves += 1
        return self.ctx.ev.evaluate(self.ctx.pos)

    cdef int quiesce(self, int ply, int alpha, int beta) except? -2147483647:
        """Stand pat, then the noisy moves; this node is already counted."""
        cdef SearchContext ctx = self.ctx
        cdef Position pos = ctx.pos
        cdef int stand = self.evaluate(), best, value, count, i, status
        cdef int* moves
        if stand >= beta:
            return stand if self.o.fail_soft else beta
        best = stand
        if ply >= SEARCH_MAX_PLY:
            return best if self.o.fail_soft or best > alpha else alpha
        moves = ply_moves(ctx, ply)
        count = pos.generate_noisy(moves)
        for i in range(count):
            pos.make(moves[i])
            if spend_node(ctx):
                pos.unmake(moves[i])
                return 0
            if ply + 1 > ctx.seldepth:
                ctx.seldepth = ply + 1
            status = pos.c_outcome()
            if status == RESULT_WIN:
                value = -(SCORE_WIN - ply - 1)
            elif status == RESULT_LOSS:
                value = SCORE_WIN - ply - 1
            elif status == RESULT_DRAW:
                value = 0
            elif status == RESULT_LEAF:
                value = -self.evaluate()
            else:
                value = -self.quiesce(ply + 1, -beta, -(alpha if alpha > best else best))
            pos.unmake(moves[i])
            if ctx.aborted:
                return 0
            if value > best:
                best = value
            if best >= beta:
                return best if self.o.fail_soft else beta
        if self.o.fail_soft:
            return best
        return best if best > alpha else alpha

    cdef int search(self, int depth, int ply, int alpha, int beta, bint null_ok,
                    int extended) except? -2147483647:
        cdef SearchContext ctx = self.ctx
        cdef Position pos = ctx.pos
        cdef Options* o = &self.o
        cdef int status, score, count, i, m, value, best = -SCORE_INF, best_move = NO_MOVE
        cdef int alpha_orig = alpha, beta_orig = beta, tt_move = NO_MOVE, a, lower, upper
        cdef int child_depth
        cdef bint reduced, leaf_child
        cdef uint64_t key = 0
        cdef Entry* entry
        cdef int* moves
        pv_clear(ctx, ply)
        if spend_node(ctx):
            return 0
        if ply > ctx.seldepth:
            ctx.seldepth = ply
        status = pos.c_outcome()
        if status == RESULT_WIN:
            return SCORE_WIN - ply
        if status == RESULT_LOSS:
            return -(SCORE_WIN - ply)
        if status == RESULT_DRAW:
            return 0
        if ply >= SEARCH_MAX_PLY:
            return self.evaluate()
        if status == RESULT_LEAF:
            depth = 0  # scored by the evaluator, after the table is asked (as in Plaat's MT)
        elif o.extensions and extended < o.extensions and pos.is_tactical():
            depth += 1
            extended += 1
        if o.tt:
            key = pos.c_key()
            entry = self.probe(key)
            if entry != NULL:
                ctx.tt_hits += 1
                tt_move = entry.move
                if entry.depth >= table_depth(depth) and (ply > 0 or o.mtd):
                    lower = from_table(entry.lower, ply)
                    upper = from_table(entry.upper, ply)
                    if lower >= beta:
                        return lower if o.fail_soft else beta
                    if upper <= alpha:
                        return upper if o.fail_soft else alpha
                    if lower == upper:
                        return lower
                    if lower > alpha:
                        alpha = lower
                    if upper < beta:
                        beta = upper
        if depth <= 0:
            if o.quiescence and status != RESULT_LEAF:
                score = self.quiesce(ply, alpha, beta)
            else:
                score = self.evaluate()
            if o.tt and not ctx.aborted:
                self.store(key, 0, ply, score, alpha, beta, NO_MOVE)
            return score
        if o.null_r and null_ok and ply > 0 and depth > o.null_r and beta < PROVEN \
                and pos.make_null():
            value = -self.search(depth - o.null_r - 1, ply + 1, -beta, -beta + 1, False,
                                 extended)
            pos.unmake_null()
            if ctx.aborted:
                return 0
            if value >= beta:
                if o.verified:
                    value = self.search(depth - o.null_r, ply, beta - 1, beta, False, extended)
                    if ctx.aborted:
                        return 0
                if value >= beta:
                    pv_clear(ctx, ply)
                    return value if o.fail_soft and value < PROVEN else beta
        moves = ply_moves(ctx, ply)
        count = pos.generate(moves)
        if self.ordering:
            self.order(moves, count, ply, tt_move)
        for i in range(count):
            m = moves[i]
            a = alpha if o.pvs or alpha > best else best
            if ply == 0 and not o.shared_root:
                a = alpha_orig
            pos.make(m)
            reduced = False
            if o.lmr and i >= o.lmr and depth >= 3 and m != tt_move \
                    and not self.is_killer(ply, m):
                value = -self.search(depth - 2, ply + 1, -a - 1, -a, True, extended)
                reduced = ctx.aborted or value <= a
                if not reduced:
                    ctx.researches += 1
            if not reduced:
                if o.pvs and i > 0:
                    value = -self.search(depth - 1, ply + 1, -a - 1, -a, True, extended)
                    if not ctx.aborted and a < value < beta:
                        leaf_child = not o.research_leaves and (
                            (depth - 1 <= 0 and not o.quiescence)
                            or pos.c_outcome() != RESULT_ONGOING)
                        if not leaf_child:
                            ctx.researches += 1
                            value = -self.search(depth - 1, ply + 1, -beta, -value, True,
                                                 extended)
                else:
                    value = -self.search(depth - 1, ply + 1, -beta, -a, True, extended)
            pos.unmake(m)
            if ctx.aborted:
                return 0
            if o.pvs:
                if value > alpha or (i == 0 and value > best):
                    pv_set(ctx, ply, m)
                    best_move = m
                    if ply == 0:
                        self.root_best = value
                if value > best:
                    best = value
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    ctx.cutoffs += 1
                    self.reward(ply, m, depth)
                    if o.tt:
                        self.store(key, depth, ply, alpha, alpha_orig, beta_orig, m)
                    return alpha
            else:
                if value > best:
                    best, best_move = value, m
                    pv_set(ctx, ply, m)
                    if ply == 0:
                        self.root_best = value
                if best >= beta:
                    ctx.cutoffs += 1
                    self.reward(ply, m, depth)
                    score = best if o.fail_soft else beta
                    if o.tt:
                        self.store(key, depth, ply, score, alpha_orig, beta_orig, m)
                    return score
            if o.futility and beta_orig - alpha_orig > o.futility and \
                    beta - (alpha if alpha > best else best) <= o.futility:
                break
        if o.pvs:
            score = alpha
        elif o.fail_soft:
            score = best
        elif best <= alpha:
            pv_clear(ctx, ply)
            score = alpha
        else:
            score = best
        if o.tt:
            self.store(key, depth, ply, score, alpha_orig, beta_orig, best_move)
        return score

    # ---- drivers ----------------------------------------------------------------------------
    cdef int root(self, int depth, int alpha, int beta) except? -2147483647:
        self.root_best = 0
        return self.search(depth, 0, alpha, beta, True, 0)

    cdef int mtd(self, int depth, int guess) except? -2147483647:
        """MTD(f): null-window passes until the bounds meet."""
        cdef int g = guess, lower = -SCORE_INF, upper = SCORE_INF, beta
        while lower < upper:
            beta = g + 1 if g == lower else g
            g = self.root(depth, beta - 1, beta)
            self.ctx.passes += 1
            if self.ctx.aborted:
                return 0
            if g < beta:
                upper = g
            else:
                lower = g
        return g

    cdef int iteration(self, int depth, int guess, bint has_guess) except? -2147483647:
        cdef int value, low, high
        if self.o.mtd:
            if self.o.mtd_start:
                guess = self.o.mtd_start * SCORE_INF
            return self.mtd(depth, guess if has_guess or self.o.mtd_start else 0)
        if self.o.aspiration and has_guess:
            low, high = guess - self.o.aspiration, guess + self.o.aspiration
            value = self.root(depth, low, high)
            self.ctx.passes += 1
            if self.ctx.aborted or low < value < high:
                return value
            self.ctx.researches += 1
            self.ctx.passes += 1
        return self.root(depth, -SCORE_INF, SCORE_INF)

    cdef int hashfull(self) noexcept:
        """Per mille of the first 1,000 table entries in use (UCI's hashfull)."""
        return self.table.hashfull() if self.o.tt else 0

    cdef object root_move(self):
        cdef Entry* entry
        cdef tuple line = self.ctx.pv_line(0)
        if line:
            return line[0], line
        if self.o.tt:
            entry = self.probe(self.ctx.pos.c_key())
            if entry != NULL and entry.move != NO_MOVE:
                return entry.move, (entry.move,)
        return None, ()


def search(Position position, Evaluator evaluator, limit, dict options, book=None,
           guess=None, on_info=None, TranspositionTable table=None):
    """Run the family search; see the module docstring for the options. ``on_info(info,
    seldepth, hashfull)`` is called after every completed iteration. With ``tt`` on, the
    search uses ``table`` (kept by the caller between searches) or a fresh one."""
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef Family family = Family(ctx, options, table)
    cdef int target = UNLIMITED if limit.depth is None else limit.depth
    cdef int depth, value, best_value = 0, start
    cdef bint has_guess = guess is not None
    cdef int g = guess if guess is not None else 0
    soft_budget = options.get("soft_budget")
    if book is not None:
        move = book(position)
        if move is not None and move in position.legal_moves():
            return SearchResult(move=move, value=0, depth=0, nodes=0, leaves=0, pv=(move,))
    evaluator.prepare(position)
    if target == 0 or position.c_outcome() != RESULT_ONGOING:
        value = family.root(target, -SCORE_INF, SCORE_INF)
        return _result(ctx, None, value, (), target, not ctx.aborted, ())
    infos, best_move, best_pv, done = [], None, (), 0
    if family.o.iterative and target == UNLIMITED:
        target = SEARCH_MAX_PLY - 1
    start = 1 if family.o.iterative else target
    for depth in range(start, target + 1):
        value = family.iteration(depth, g, has_guess)
        if ctx.aborted:
            if best_move is None:  # no iteration finished: the best root move finished
                best_move, best_pv = family.root_move()
                best_value = family.root_best if best_move is not None else 0
            break
        best_move, best_pv = family.root_move()
        best_value, done, g, has_guess = value, depth, value, True
        info = SearchInfo(depth=depth if depth != UNLIMITED else ctx.seldepth, value=value,
                          nodes=ctx.nodes, elapsed=ctx.elapsed(), pv=best_pv)
        infos.append(info)
        if on_info is not None:
            on_info(info, ctx.seldepth, family.hashfull())
        if value >= SCORE_WIN - depth or value <= -(SCORE_WIN - depth):
            break  # a proven result no deeper search changes
        if soft_budget is not None and ctx.elapsed() >= soft_budget:
            break
    if best_move is None:
        legal = position.legal_moves()
        best_move, best_pv = (legal[0], (legal[0],)) if legal else (None, ())
    if not ctx.aborted and family.o.secondary and done:
        best_move, best_value, best_pv = _secondary(family, done, best_move, best_value,
                                                    best_pv)
    # depth: the deepest completed iteration (0 when a limit stopped the first one)
    return _result(ctx, best_move, best_value, best_pv, done if done or ctx.aborted else target,
                   not ctx.aborted, tuple(infos))


cdef tuple _secondary(Family family, int depth, int move, int value, tuple pv):
    """Search the chosen move ``secondary`` plies deeper; if it falls below the best other
    root move (searched at the original depth), play that one instead."""
    cdef SearchContext ctx = family.ctx
    cdef Position pos = ctx.pos
    cdef int deep, other_value = -SCORE_INF, v, i, count
    cdef int* moves
    other_move = None
    pos.make(move)
    deep = -family.search(depth + family.o.secondary - 1, 1, -SCORE_INF, SCORE_INF, True, 0)
    pos.unmake(move)
    moves = ply_moves(ctx, 0)
    count = pos.generate(moves)
    for i in range(count):
        if moves[i] == move or ctx.aborted:
            continue
        pos.make(moves[i])
        v = -family.search(depth - 1, 1, -SCORE_INF, -other_value, True, 0)
        pos.unmake(moves[i])
        if not ctx.aborted and v > other_value:
            other_value, other_move = v, moves[i]
    if ctx.aborted or other_move is None or deep >= other_value:
        return move, value, pv
    return other_move, other_value, (other_move,)


cdef object _result(SearchContext ctx, move, int value, tuple pv, int depth, bint complete,
                    tuple infos):
    ctx.reraise()
    return SearchResult(
        move=move, value=value, pv=pv, depth=depth if depth != UNLIMITED else ctx.seldepth,
        nodes=ctx.nodes, leaves=ctx.leaves, tt_hits=ctx.tt_hits, cutoffs=ctx.cutoffs,
        researches=ctx.researches, passes=ctx.passes, elapsed=ctx.elapsed(),
        complete=complete, infos=infos)
