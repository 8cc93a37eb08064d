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
  depth-preferred replacement (``tt_ways=2``: pairs of slots, the shallower replaced); mate
  scores stored relative to the node;
* ``iterative``: depth 1, 2, … (§1.9); the result is the last completed iteration's;
* ordering (``ordering.pyx``, a staged picker): ``tt_move`` first, then the noisy moves by the
  game's ``order_hint`` (``captures``), two ``killers`` per ply, the ``history`` heuristic
  (``malus``: with gravity, and a penalty for the moves that failed before a cut-off), and
  with ``countermove`` the move that last refuted the previous one, before the history;
  ``conthist`` adds to each quiet move's history its class's (the game's ``move_class``)
  histories in answer to the classes of the moves one and two plies before;
  ``pawn_history`` its class's history under the game's ``c_structure_key`` (the pawns);
  ``quiet_hint`` adds the game's static ``order_hint`` for it, ``threat_order`` the game's
  ``threat_hints`` (escaping or entering attacks, checks); ``keep_history`` (kept by the
  searcher) carries the history into the next search, halved; ``quiet_cuts``: only quiet
  moves become killers and countermoves and earn (or, with ``malus``, lose) history;
  ``capture_history`` orders the noisy moves of each victim class by how often each caused
  a cut-off (and, with gravity, how often it failed before another noisy move did);
* ``quiescence``: at the horizon, stand pat then follow ``generate_noisy`` moves (§1.4);
  ``evasions``: a tactical position (in check, in chess) met there does not stand pat but
  searches every move; ``qs_tt`` (with ``tt``): every quiescence node below the horizon's
  asks the table and stores its result as a depth-0 entry, as the horizon's own does;
  ``qs_checks``: quiescence's first node (the horizon's) also follows the game's quiet
  checks (``generate_checks``, after the noisy moves; with ``see``, not those that lose the
  piece), and the side in check answers with every move instead of standing pat;
* ``null_r``: null-move pruning with reduction R (§1.11), searched at depth − R − 1 with the
  window (β−1, β), never twice in a row, skipped where ``make_null`` refuses (no pass move or
  a zugzwang-prone position); ``verified`` re-checks a null-move cut with a search of the
  node at depth − R, from ``verify_depth`` on; ``null_adaptive`` tries it only where the
  static score reaches β, with R + depth/``null_depth`` (6 unless set) + (static − β)/200
  (at most R + 3 from the margin);
* ``aspiration``: a root window of ± that many points around the previous iteration's value
  (or ``guess``); a result on or outside an edge is a failure and is searched again with a
  full window (§1.12); ``widen`` instead moves only the failed edge, doubling the margin each
  time, and opens the window fully after ``WIDEN_TRIES`` failures;
* ``repetition``: a position that repeats one on the search's path (the game's ``repeats``:
  any earlier position since the root, within the fifty-move window) is a draw — the side
  that could avoid the repetition would have; threefold repetitions and the fifty-move rule
  before the root are the game's own outcome;
* ``cycle`` (with ``repetition``): a node whose side to move can reach a repetition by one
  move (the game's ``upcoming_repetition``: one on the search's path, or a position before
  the root that occurred twice already) is worth at least a draw: before the table is
  asked, a window below 0 ends it with 0, and otherwise α rises to 0 and a result below
  0 counts as 0 — a score stored on another path cannot hide the draw;
* ``contempt``: a draw (a finished game's, a repetition's, ``cycle``'s) is worth
  −``contempt`` to the side to move at the root and +``contempt`` to the other (0 unless
  set): above 0 the root side avoids draws, below 0 it seeks them, as against a stronger
  opponent; the draw values above are these then;
* ``mate_distance``: mate-distance pruning — a node ``ply`` plies deep can score no better
  than a mate on the next ply and no worse than being mated here, so the window narrows to
  that and a node whose window closes returns at once;
* ``rfp``: reverse futility pruning — at a null-window node with depth ≤ ``RFP_DEPTH`` that is
  not tactical, a static score at least ``rfp`` × depth above β returns the static score;
* ``razor``: razoring (with ``quiescence``) — at a null-window node with depth ≤
  ``RAZOR_DEPTH`` that is not tactical, a static score at least ``razor`` × depth below α asks
  quiescence with the window (α, α+1); a result ≤ α ends the node with it;
* ``delta``: delta pruning in quiescence — a noisy move whose static exchange gain plus
  ``delta`` cannot lift the stand-pat score above α is not searched (a fail-soft result
  counts it as that bound);
* ``improving`` (with ``lmr``): the static score of every node below the root that is not
  tactical is compared with the one two plies up (the same side's); where it has fallen, the
  late moves of a null-window node are reduced one ply more;
* ``rfp_improving`` (with ``rfp``): reverse futility's margin is one ply less (``rfp`` ×
  (depth − 1)) at a node whose static score rose since two plies up (the same side's);
* ``tt_static`` (with ``tt``): the pruning above (and ``improving``, ``probcut``) takes as
  the node's static score the table's bound for it where that lies beyond the evaluator's
  on the bound's side;
* ``tt_reward`` (with ``tt``): where the table's bound ends a node, a quiet table move is
  rewarded as a cut-off by it would be (killer, countermove, history) when the bound reached
  β, and loses as much history when it stayed at or below α, as Stockfish updates its
  statistics on a table cut-off;
* ``tt_pv`` (with ``tt`` and ``lmr``): a node remembers in the table whether it has been on
  the principal variation (a PV node's entry is marked, and the mark stays with the
  position's entry); the late moves of a null-window node that has been are reduced a ply
  less, as Stockfish reduces less at its ``ttPv`` nodes;
* ``correction``: the pruning above takes as the node's static score the evaluator's plus a
  correction learnt in the search: per side to move and the game's ``c_structure_key``
  (chess: the pawns), a running average of how far the searched results of nodes with that
  key fell from their static score (a result that is a bound counts only on the bound's
  side; with ``quiet_cuts``, a cut-off by a noisy move teaches nothing: the gain was
  material, not an error of the evaluator);
* ``iir``: internal iterative reduction — a node of depth ≥ ``IIR_DEPTH`` the table has no
  move for is searched one ply shallower (its ordering is poor; the next iteration is not);
* ``lmp``: late-move pruning — at a null-window node of depth ≤ ``QUIET_PRUNE_DEPTH`` that
  is not tactical, the moves after the picker's staged ones (TT move, winning noisy moves,
  killers) are skipped from move ``lmp_base`` (3 unless set) + depth² on, with ``lmp_trend``
  from half that where the static score fell since two plies up (the same side's, as
  Stockfish halves its count where the position is not improving); ``spare_checks``
  searches those that leave the opponent tactical (give check) all the same;
* ``frontier``: futility pruning — at such a node of depth ≤ ``FRONTIER_DEPTH`` whose static
  score plus ``frontier`` × depth cannot reach α, those moves are skipped after the first;
* ``see_prune``: at a null-window node of depth ≤ ``SEE_PRUNE_DEPTH`` that is not tactical,
  a move after the first whose static exchange (the game's ``exchange``: for a quiet move,
  what the opponent wins by taking the piece moved) is below −``see_prune`` × depth is not
  searched;
* ``history_prune`` (with ``history``, ``captures`` and ``quiet_cuts``): at such a node of
  depth ≤ ``HISTORY_PRUNE_DEPTH``, a quiet move after the staged ones whose history is below
  −``history_prune`` × (depth − 1) is skipped unless it leaves the opponent tactical (gives
  check), as Stockfish prunes by its continuation history;
* ``probcut`` (with ``quiescence``): at a null-window node of depth ≥ ``PROBCUT_DEPTH`` that
  is not tactical, after the null move, a noisy move whose static exchange could lift the
  static score to β' = β + ``probcut`` and that then reaches β' both in quiescence and
  ``PROBCUT_REDUCTION`` plies shallower ends the node: the full search would most likely
  reach β too;
* ``see``: with ``captures``, noisy moves that lose material by the game's static exchange
  (``exchange``) are tried after the killers, and quiescence skips them; ``losing_last``
  tries them after the quiet moves instead, so that late-move pruning (``lmp``) skips them
  before any quiet move;
* ``futility``: the survey's "poda de inutilidades" (§1.3): once a node's window, wider than
  the margin to begin with, has narrowed to the margin or less, its other moves are not
  searched (a node cannot improve by enough to matter);
* ``lmr``: late-move reductions ("búsqueda sesgada", §1.7): from the lmr-th move on, at depth
  ≥ 3, moves other than the TT move and killers (and, with ``captures``, the noisy moves
  that do not lose material) are searched one ply shallower with a null window, and again at
  full depth if they beat α; ``lmr_log`` reduces by ⌊0.75 + ln(depth)·ln(move number)/2.25
  × ``lmr_scale``/100⌋ (``lmr_scale`` 100 unless set) plies instead of one (one less at a
  PV node and for a move that leaves the opponent in a tactical position; none below one),
  never below depth 1; ``lmr_history`` (with ``lmr_log`` and ``malus``) takes a ply less
  per ``LMR_HISTORY_STEP`` of the move's history score and adds one per that much below
  zero; ``lmr_cut`` reduces the late moves of a node that expects a cut-off (a null-window
  node below a PV node's later moves, and every other ply below it) that many plies more;
  ``lmr_tt_noisy`` (with ``quiet_cuts``) one ply more where the table's move is noisy;
  ``lmr_counter`` (with ``countermove``) leaves the countermove unreduced, as the killers;
  ``lmr_deeper``: a reduced move that beats α is searched again a ply deeper than the node's
  other moves when it beat α by more than ``DEEPER_MARGIN`` + ``DEEPER_STEP`` × its
  reduction, and a ply shallower when it did not beat the node's best by the plies left
  (with ``pvs``, if that is no deeper than the reduced search, the reduced result stands),
  as Stockfish adjusts its re-search by the reduced result; ``lmr_cutoffs``: at a
  null-window node, late moves are reduced a ply more when the nodes one ply below it
  (its children and their cousins searched since its parent began) have cut off more than
  ``CUTOFFS_MANY`` times, as Stockfish reduces by its ``cutoffCnt``;
* ``extensions``: a position the game marks tactical (``is_tactical``) is searched one ply
  deeper, at most that many times along a path ("continuación heurística", §1.10);
  ``extend_from``: only at the horizon (depth ≤ 0, where quiescence would stand pat) and at
  depth ≥ this (0: everywhere), as Stockfish extends checks only deep in the tree;
  ``check_see``: above the horizon, not when the move that made the position tactical loses
  material by static exchange (a check that hangs the checking piece);
  ``mate_threat`` (with ``null_move`` and fail-soft bounds, which carry the mate out): a
  node whose null move is mated (the opponent, given a free move, mates) is searched one
  ply deeper, counted against ``extensions``;
* ``singular``: singular extensions (with ``tt`` and ``extensions``) — below the root, when
  the table holds a lower bound L for a node of depth ≥ ``singular_depth`` (7 unless set)
  from at most ``SINGULAR_REACH`` plies shallower, the node is first searched without its
  table move at half the depth with the null window below s = L − ``SINGULAR_MARGIN`` ×
  depth; if nothing reaches s, the table move is searched one ply deeper (an extension,
  counted against ``extensions``); if s ≥ β, several moves beat β and the node returns s
  (multi-cut); with ``singular_negative``, if L ≥ β without either, the table move is
  searched one ply shallower (a negative extension, as in Stockfish);
* ``secondary``: the chosen root move is searched that many plies deeper; if it then scores
  below the best other move, that move is played ("búsqueda secundaria", §1.5);
* ``mtd``: MTD(f) (§1.18) — null-window passes of the memory-enhanced test (fail-soft
  alpha-beta with the table) from the first guess; ``mtd_start`` +1/-1 starts at +∞ or −∞
  (MT-SSS*, MT-DUAL*).
"""

cimport cython
from libc.math cimport log
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint64_t

from alfabeta.core.evaluator cimport Evaluator
from alfabeta.core.position cimport RESULT_DRAW, RESULT_LEAF, RESULT_ONGOING, Position
from alfabeta.searchers.context cimport (
    SCORE_INF,
    SCORE_WIN,
    SEARCH_MAX_PLY,
    UNLIMITED,
    SearchContext,
    finished_score,
    is_finished,
    leaf_score,
    ply_moves,
    pv_clear,
    pv_set,
    spend_node,
)
from alfabeta.searchers.ordering cimport NO_CLASS, MovePicker, class_of
from alfabeta.searchers.tt cimport (
    NO_MOVE,
    PROVEN,
    Entry,
    TranspositionTable,
    from_table,
    table_depth,
)

from alfabeta.core import SearchInfo

cdef enum:
    RFP_DEPTH = 6        # reverse futility prunes at depth ≤ this (deeper margins are too wide)
    RAZOR_DEPTH = 2      # razoring at depth ≤ this
    IIR_DEPTH = 4        # internal iterative reduction from this depth on
    WIDEN_TRIES = 5      # aspiration windows widened this many times before a full window
    QUIET_PRUNE_DEPTH = 3  # late-move pruning at depth ≤ this
    FRONTIER_DEPTH = 2   # futility pruning of quiet moves at depth ≤ this
    SEE_PRUNE_DEPTH = 4  # ``see_prune`` at depth ≤ this
    HISTORY_PRUNE_DEPTH = 3  # ``history_prune`` at depth ≤ this
    PROBCUT_DEPTH = 5    # ``probcut`` at depth ≥ this,
    PROBCUT_REDUCTION = 4  # its searches this many plies shallower than the node
    SINGULAR_REACH = 3   # ``singular``: a table bound from at most this many plies shallower,
    SINGULAR_MARGIN = 2  # s = the bound − this × depth
    ALL_MOVES = 1 << 30  # a quiet_limit that skips nothing
    NO_STATIC = -(1 << 30)  # ``improving``: no static score known at that ply
    LMR_HISTORY_STEP = 8192  # ``lmr_history``: a ply less (more) per this much history (malus)
    DEEPER_MARGIN = 40   # ``lmr_deeper``: a ply deeper beyond α + this
    DEEPER_STEP = 6      # + this per ply of the reduction
    CUTOFFS_MANY = 3     # ``lmr_cutoffs``: a ply more beyond this many cut-offs a ply below
    CORRECTION_BITS = 14     # ``correction``: 2 ** this slots per side to move,
    CORRECTION_GRAIN = 256   # each holding points × this,
    CORRECTION_DIFF = 400    # learning a result's distance from the static score up to this,
    CORRECTION_RATE = 16     # with weight min(depth + 1, this) / 256


cdef struct Options:
    bint fail_soft
    bint shared_root
    bint pvs
    bint research_leaves
    bint tt
    bint pv_cuts
    bint iterative
    bint quiescence
    bint qs_tt
    bint qs_checks
    int null_r
    bint verified
    int aspiration
    int futility
    int lmr
    bint lmr_log
    bint lmr_history
    bint tt_static
    bint tt_reward
    bint tt_pv
    bint correction
    int lmr_cut
    bint lmr_tt_noisy
    bint lmr_counter
    bint lmr_deeper
    bint lmr_cutoffs
    int verify_depth
    bint null_adaptive
    int null_depth
    bint widen
    bint repetition
    bint cycle
    int contempt
    bint mate_distance
    int rfp
    bint rfp_improving
    int razor
    int delta
    bint improving
    bint static_trend  # ``improving``, ``rfp_improving`` or ``lmp_trend``: static scores kept
    int see_prune
    int history_prune
    int probcut
    bint iir
    bint see
    bint evasions
    bint lmp
    int lmp_base
    bint lmp_trend
    bint spare_checks
    int frontier
    int extensions
    int extend_from
    bint check_see
    bint mate_threat
    bint singular
    int singular_depth
    bint singular_negative
    int secondary
    bint mtd
    int mtd_start


cdef int[64][64] _lmr_table_made  # the last table ``_fill_lmr_table`` computed …
cdef int _lmr_table_scale = -1    # … and its ``lmr_scale``


cdef void _fill_lmr_table(int[64][64] table, int lmr_scale) noexcept:
    """Fill ``table`` with ``lmr_log``'s reductions for ``lmr_scale``, computed once per scale
    rather than per search (4,096 logarithms cost as much as a small search)."""
    global _lmr_table_scale
    cdef int d, n
    if lmr_scale != _lmr_table_scale:
        for d in range(1, 64):
            for n in range(1, 64):
                _lmr_table_made[d][n] = <int> (0.75 + log(d) * log(n) / 2.25
                                               * (lmr_scale / 100.0))
        _lmr_table_scale = lmr_scale
    memcpy(table, _lmr_table_made, sizeof(_lmr_table_made))


@cython.final
cdef class Family:
    """One search of the family: the options, the move picker and the table. The window
    contracts of ``root``, ``node`` and ``quiesce`` (v is the node's true value at the
    depth searched, r what the method returns, (α, β) its window):

    * fail-hard (``fail=hard``, ``pvs`` off): α ≤ r ≤ β; r = α means v ≤ α, r = β means
      v ≥ β, and α < r < β means r = v.
    * fail-soft (``fail=soft``, ``pvs`` off): r ≤ α means v ≤ r, r ≥ β means v ≥ r, and
      α < r < β means r = v: a bound as tight as the search found.
    * ``pvs`` on, ``fail=hard``: r ≥ α; r = α means v ≤ α (fail-hard below), r ≥ β means
      v ≥ r (soft above: a cut-off returns the refuting value), and α < r < β means r = v.
    * ``pvs`` on, ``fail=soft``: the fail-soft contract — a node whose moves all fail low
      returns the best of their bounds.

    These hold for every node the search expands (the root included; tested in
    ``tests/test_window_contracts.py``). A node scored without expanding it — a finished game,
    the evaluator at the horizon without quiescence — returns its exact value, which keeps
    the fail-soft contract under every option.
    """

    cdef SearchContext ctx
    cdef Position pos         # ctx.pos, kept here too: the hot paths reach it in one step
    cdef Options o
    cdef TranspositionTable table
    cdef MovePicker picker
    cdef int root_best        # best value among the finished root moves of this pass
    cdef long long root_start  # the node count when this pass's root moves began
    cdef long long root_best_nodes  # the nodes the pass's best root move took
    cdef int[SEARCH_MAX_PLY + 2] path  # the move made at each ply (NO_MOVE: a null move)
    cdef int[SEARCH_MAX_PLY + 2] path_class  # ``conthist``: its class (NO_CLASS: a null move)
    cdef int[SEARCH_MAX_PLY + 2] excluded  # ``singular``: the move a ply's test leaves out
    cdef int[SEARCH_MAX_PLY + 2] static_at  # ``static_trend``: each ply's static score
    cdef bint[SEARCH_MAX_PLY + 2] worsening  # ``static_trend``: the ply's static score fell
    cdef bint[SEARCH_MAX_PLY + 2] cut_expected  # ``lmr_cut``: the ply's node expects a cut-off
    # ``lmr_cutoffs``: the cut-offs at the ply since the node two plies up began
    cdef int[SEARCH_MAX_PLY + 4] cutoff_count
    cdef bint[SEARCH_MAX_PLY + 2] on_pv  # ``tt_pv``: the ply's node is or has been a PV node
    cdef int[SEARCH_MAX_PLY + 2] raw_static  # ``correction``: the ply's evaluator score
    # ``check_see``: the ply's position was made tactical by a move that loses material
    cdef bint[SEARCH_MAX_PLY + 2] losing_check
    cdef int* correction      # ``correction``: per side, CORRECTION_GRAIN × points
    # ``lmr_log``: [depth][move number] → ⌊0.75 + ln(depth)·ln(move number)/2.25 × lmr_scale/100⌋
    cdef int[64][64] lmr_table

    def __cinit__(self, SearchContext ctx, dict options, TranspositionTable table=None,
                  MovePicker picker=None):
        cdef int i
        self.ctx = ctx
        self.pos = ctx.pos
        o = options
        self.o.fail_soft = o["fail_soft"]
        self.o.shared_root = o["shared_root"]
        self.o.pvs = o["pvs"]
        self.o.research_leaves = o["research_leaves"]
        self.o.tt = o["tt"]
        self.o.pv_cuts = o["pv_cuts"]
        self.o.iterative = o["iterative"]
        self.o.quiescence = o["quiescence"]
        self.o.qs_tt = o["qs_tt"] and o["tt"] and o["quiescence"]
        self.o.qs_checks = o["qs_checks"]
        self.o.null_r = o["null_r"]
        self.o.verified = o["verified"]
        self.o.aspiration = o["aspiration"]
        self.o.futility = o["futility"]
        self.o.lmr = o["lmr"]
        self.o.lmr_log = o["lmr_log"]
        self.o.lmr_history = o["lmr_history"] and o["lmr_log"] and o["malus"] and o["history"]
        self.o.lmr_cut = o["lmr_cut"]
        self.o.lmr_tt_noisy = o["lmr_tt_noisy"]
        self.o.lmr_counter = o["lmr_counter"] and o["countermove"]
        self.o.lmr_deeper = o["lmr_deeper"]
        self.o.lmr_cutoffs = o["lmr_cutoffs"]
        self.o.tt_static = o["tt_static"] and o["tt"]
        self.o.tt_reward = o["tt_reward"] and o["tt"]
        self.o.tt_pv = o["tt_pv"] and o["tt"] and o["lmr"] > 0
        self.o.correction = o["correction"]
        if self.o.correction:
            self.correction = <int*> calloc(2 << CORRECTION_BITS, sizeof(int))
            if self.correction == NULL:
                raise MemoryError("cannot allocate the correction history")
        self.o.verify_depth = o["verify_depth"]
        self.o.null_adaptive = o["null_adaptive"]
        self.o.null_depth = o["null_depth"]
        self.o.widen = o["widen"]
        self.o.repetition = o["repetition"]
        self.o.cycle = o["cycle"] and o["repetition"]
        self.o.contempt = o["contempt"]
        self.o.mate_distance = o["mate_distance"]
        self.o.rfp = o["rfp"]
        self.o.razor = o["razor"] if o["quiescence"] else 0
        self.o.delta = o["delta"]
        self.o.improving = o["improving"] and o["lmr"] > 0
        self.o.rfp_improving = o["rfp_improving"] and o["rfp"] > 0
        self.o.static_trend = self.o.improving or self.o.rfp_improving \
            or (o["lmp_trend"] and o["lmp"])
        self.o.see_prune = o["see_prune"]
        self.o.history_prune = o["history_prune"] if o["history"] and o["quiet_cuts"] \
            and o["captures"] else 0
        self.o.probcut = o["probcut"] if o["quiescence"] else 0
        self.o.iir = o["iir"]
        self.o.see = o["see"] and o["captures"]
        self.o.evasions = o["evasions"]
        self.o.lmp = o["lmp"]
        self.o.lmp_base = o["lmp_base"]
        self.o.lmp_trend = o["lmp_trend"] and o["lmp"]
        self.o.spare_checks = o["spare_checks"]
        self.o.frontier = o["frontier"]
        self.o.extensions = o["extensions"]
        self.o.extend_from = o["extend_from"]
        self.o.check_see = o["check_see"]
        self.o.mate_threat = o["mate_threat"] and o["null_r"] > 0 and o["fail_soft"]
        self.o.singular = o["singular"] and o["tt"]
        self.o.singular_depth = o["singular_depth"]
        self.o.singular_negative = o["singular_negative"]
        self.o.secondary = o["secondary"]
        self.o.mtd = o["mtd"]
        self.o.mtd_start = o["mtd_start"]
        if self.o.tt:
            self.table = table if table is not None else \
                TranspositionTable(o["tt_mb"], o["tt_ways"] == 2)
        if self.o.lmr_log:
            _fill_lmr_table(self.lmr_table, options["lmr_scale"])
        for i in range(SEARCH_MAX_PLY + 2):
            self.excluded[i] = NO_MOVE
            self.static_at[i] = NO_STATIC
            self.worsening[i] = False
            self.cut_expected[i] = False
            self.on_pv[i] = False
            self.raw_static[i] = NO_STATIC
        for i in range(SEARCH_MAX_PLY + 4):
            self.cutoff_count[i] = 0
        self.picker = picker if picker is not None else new_picker(ctx.pos, options)

    def __dealloc__(self):
        free(self.correction)

    # ---- the parts of a node ------------------------------------------------------------
    cdef inline int evaluate(self) except? -2147483647:
        return leaf_score(self.ctx)

    cdef inline int draw_score(self, int ply) noexcept:
        """A draw's score for the side to move ``ply`` plies below the root (``contempt``)."""
        return self.o.contempt if ply & 1 else -self.o.contempt

    cdef inline int outcome_score(self, int status, int ply) noexcept:
        """A finished game's score for the side to move, a draw at its ``draw_score``."""
        return self.draw_score(ply) if status == RESULT_DRAW else finished_score(status, ply)

    cdef inline int enter(self, int ply, int* depth, int* extended, int* status,
                          bint* done) except? -2147483647:
        """Count the node and read its outcome. A finished game, a repetition
        (``repetition``) or the deepest ply is scored at once (``done``); a LEAF gets depth 0
        (it is scored after the table is asked, as in Plaat's MT); a tactical position may
        extend ``depth``."""
        done[0] = True
        pv_clear(self.ctx, ply)
        if spend_node(self.ctx):
            return 0
        if ply > self.ctx.seldepth:
            self.ctx.seldepth = ply
        status[0] = self.pos.c_outcome()
        if is_finished(status[0]):
            return self.outcome_score(status[0], ply)
        if self.o.repetition and ply > 0 and self.pos.repeats(ply):
            return self.draw_score(ply)
        if ply >= SEARCH_MAX_PLY:
            return self.evaluate()
        done[0] = False
        if status[0] == RESULT_LEAF:
            depth[0] = 0
        elif self.o.extensions and extended[0] < self.o.extensions \
                and (depth[0] <= 0 or depth[0] >= self.o.extend_from
                     and not self.losing_check[ply]) and self.pos.is_tactical():
            depth[0] += 1
            extended[0] += 1
        return 0

    cdef inline bint probe(self, uint64_t key, int depth, int ply, int* alpha, int* beta,
                           int* tt_move, int* score, bint may_cut) noexcept:
        """Ask the table: its move goes to ``tt_move``; an entry deep enough narrows the
        window, or (``may_cut``) ends the node with ``score`` — True then."""
        cdef Entry* entry = self.table.probe(key)
        cdef int lower, upper
        if entry == NULL:
            return False
        self.ctx.tt_hits += 1
        tt_move[0] = entry.move
        if not may_cut or entry.depth < table_depth(depth):
            return False
        lower = from_table(entry.lower, ply)
        upper = from_table(entry.upper, ply)
        if lower >= beta[0]:
            score[0] = lower if self.o.fail_soft else beta[0]
            return True
        if upper <= alpha[0]:
            score[0] = upper if self.o.fail_soft else alpha[0]
            return True
        if lower == upper:
            score[0] = lower
            return True
        if lower > alpha[0]:
            alpha[0] = lower
        if upper < beta[0]:
            beta[0] = upper
        return False

    cdef inline int horizon(self, uint64_t key, int ply, int alpha, int beta,
                            int status) except? -2147483647:
        """Depth 0: quiescence (or the evaluator), stored in the table as a depth-0 entry."""
        cdef int score
        if self.o.quiescence and status != RESULT_LEAF:
            score = self.quiesce(ply, alpha, beta, self.o.qs_checks, False)
        else:
            score = self.evaluate()
        if self.o.tt and not self.ctx.aborted and self.excluded[ply] == NO_MOVE:
            self.table.store(key, 0, ply, score, alpha, beta, NO_MOVE)
        return score

    cdef int quiesce(self, int ply, int alpha, int beta, bint checks,
                     bint evade) except? -2147483647:
        """Quiescence: the better of standing pat (the evaluator) and the noisy moves, each
        searched the same way, then, with ``checks``, the game's quiet checks
        (``generate_checks``), whose answers are searched with ``evade``. A tactical position
        (in check) met with ``evade`` or ``evasions`` cannot stand pat and tries all its
        moves. This node is already counted. Fail-hard: the result is clamped to [α, β];
        fail-soft: a bound as tight as found, never below the stand-pat score."""
        cdef bint evading = (evade or self.o.evasions) and self.pos.is_tactical()
        cdef int stand, best, value, count, i, gain, stage
        cdef int* moves
        if evading:  # every reply is searched; no legal move was scored by the outcome
            stand = -(SCORE_WIN - ply)
        else:
            stand = self.evaluate()
            if stand >= beta:
                return stand if self.o.fail_soft else beta
        best = stand
        if ply >= SEARCH_MAX_PLY:
            if evading:
                best = self.evaluate()
            return best if self.o.fail_soft or best > alpha else alpha
        moves = ply_moves(self.ctx, ply)
        count = self.pos.generate(moves) if evading else self.pos.generate_noisy(moves)
        if self.picker.use_captures:
            self.picker.order_noisy(self.pos, moves, count)
        # stage 0: the noisy moves (or every move, evading); stage 1 (``checks``): quiet checks
        for stage in range(2 if checks and not evading else 1):
            if stage == 1:
                count = self.pos.generate_checks(moves)  # the noisy moves are done with
            for i in range(count):
                if stage == 1:
                    if self.o.see and self.pos.exchange(moves[i]) < 0:
                        continue
                elif (self.o.see or self.o.delta) and not evading:
                    gain = self.pos.exchange(moves[i])
                    if self.o.see and gain < 0:
                        continue
                    if self.o.delta and stand + gain + self.o.delta <= (
                            alpha if alpha > best else best):
                        if stand + gain + self.o.delta > best:
                            best = stand + gain + self.o.delta
                        continue
                value = self.quiesce_child(moves[i], ply, alpha if alpha > best else best,
                                           beta, stage == 1)
                if self.ctx.aborted:
                    return 0
                if value > best:
                    best = value
                if best >= beta:
                    return best if self.o.fail_soft else beta
        if self.o.fail_soft:
            return best
        return best if best > alpha else alpha

    cdef inline int quiesce_child(self, int move, int ply, int alpha, int beta,
                                  bint evade) except? -2147483647:
        """The value of ``move`` in quiescence for the node at ``ply``, its reply searched
        with the window (α, β) (``evade``: in check, it searches all its moves). The move
        is made and unmade here; 0 once the search is aborted."""
        cdef int status, value
        self.pos.make(move)
        self.ctx.ev.prefetch(self.pos)
        if spend_node(self.ctx):
            self.pos.unmake(move)
            return 0
        if ply + 1 > self.ctx.seldepth:
            self.ctx.seldepth = ply + 1
        status = self.pos.c_outcome()
        if is_finished(status):
            value = -self.outcome_score(status, ply + 1)
        elif status == RESULT_LEAF:
            value = -self.evaluate()
        else:
            value = -self.quiesce_stored(ply + 1, -beta, -alpha, evade)
        self.pos.unmake(move)
        return value

    cdef inline int quiesce_stored(self, int ply, int alpha, int beta,
                                   bint evade) except? -2147483647:
        """``quiesce`` below quiescence's first node; with ``qs_tt``, the table is asked
        first and the result stored, as a depth-0 entry like the horizon's."""
        cdef uint64_t key
        cdef int alpha_orig = alpha, beta_orig = beta, tt_move = NO_MOVE, score = 0
        if not self.o.qs_tt:
            return self.quiesce(ply, alpha, beta, False, evade)
        key = self.pos.c_key()
        if self.probe(key, 0, ply, &alpha, &beta, &tt_move, &score, True):
            return score
        score = self.quiesce(ply, alpha, beta, False, evade)
        if not self.ctx.aborted:
            self.table.store(key, 0, ply, score, alpha_orig, beta_orig, NO_MOVE)
        return score

    cdef inline bint null_move_cut(self, int depth, int ply, int beta, int extended,
                                   int reduction, int* score, bint* threatened) except -1:
        """Null-move pruning: pass, search at depth − R − 1 with the window (β−1, β) (R is
        ``reduction``); a result ≥ β (confirmed by a search of this node at depth − R when
        ``verified`` and depth ≥ ``verify_depth``) ends the node with ``score`` — True
        then. Where the game refuses the pass, False. ``threatened``: with ``mate_threat``,
        whether the pass was mated."""
        cdef int value
        if not self.pos.make_null():
            return False
        self.follow(ply, NO_MOVE)
        self.cut_expected[ply + 1] = not self.cut_expected[ply]
        self.losing_check[ply + 1] = False
        value = -self.node(depth - reduction - 1, ply + 1, -beta, -beta + 1, False, extended)
        self.pos.unmake_null()
        threatened[0] = self.o.mate_threat and value <= -PROVEN
        if self.ctx.aborted:
            score[0] = 0
            return True
        if value >= beta and self.o.verified and depth >= self.o.verify_depth:
            value = self.node(depth - reduction, ply, beta - 1, beta, False, extended)
            if self.ctx.aborted:
                score[0] = 0
                return True
        if value < beta:
            return False
        pv_clear(self.ctx, ply)
        score[0] = value if self.o.fail_soft and value < PROVEN else beta
        return True

    cdef inline void follow(self, int ply, int move) noexcept:
        """Record ``move`` (NO_MOVE: a null move), not yet made, as the one made at ``ply``,
        with its class for the continuation histories (``conthist``)."""
        self.path[ply] = move
        if self.picker.use_conthist:
            self.path_class[ply] = NO_CLASS if move == NO_MOVE else class_of(self.pos, move)

    cdef inline int class_before(self, int ply, int back) noexcept:
        """``conthist``: the class of the move made ``back`` plies before ``ply``'s node
        (NO_CLASS above the root)."""
        return self.path_class[ply - back] if ply >= back else NO_CLASS

    cdef inline int child(self, int move, int index, int depth, int ply, int alpha, int beta,
                          int tt_move, int extended, int staged,
                          int best) except? -2147483647:
        """The value of ``move`` (the ``index``-th tried; the picker put ``staged`` moves
        before the history stage) for this node, searched with the window (α, β): reduced
        first when late (``lmr``), with a null window then a re-search when it may beat α
        (``pvs``), or with the full window. ``best``: the node's best value so far
        (``lmr_deeper``). The move is made and unmade here."""
        cdef Options* o = &self.o
        cdef int value = 0, reduction, full = depth - 1
        cdef bint reduced_stands = False
        cdef bint leaf_child, pv_node = beta - alpha > 1
        cdef long long history = 0
        # decided before the move is made, which changes the side to move
        cdef bint late = o.lmr and index >= o.lmr and depth >= 3 and move != tt_move \
            and not self.picker.is_killer(ply, move) \
            and (not self.picker.use_captures or index >= staged) \
            and not (o.lmr_counter and ply > 0 and self.picker.is_countermove(
                self.pos.side_to_move, self.path[ply - 1], move))
        if late and o.lmr_history:
            history = self.picker.quiet_score(
                self.pos, move, self.picker.continuation(0, self.class_before(ply, 1)),
                self.picker.continuation(1, self.class_before(ply, 2)))
        self.follow(ply, move)
        # a null-window search below a PV node expects a cut-off; below a null-window node,
        # the opposite of what that node expects
        self.cut_expected[ply + 1] = index > 0 if pv_node else not self.cut_expected[ply]
        self.pos.make(move)
        if o.check_see:
            self.losing_check[ply + 1] = self.pos.is_tactical() and self.losing_move(move)
        if late:
            reduction = self.reduction(depth, index, pv_node, history)
            # the picker put the table's move first; noisy_at is False without quiet_cuts
            if o.lmr_tt_noisy and tt_move != NO_MOVE and self.picker.noisy_at(ply, 0):
                reduction += 1
            if not pv_node:
                if o.tt_pv and self.on_pv[ply]:
                    reduction -= 1
                if o.improving and self.worsening[ply]:
                    reduction += 1
                if o.lmr_cut and self.cut_expected[ply]:
                    reduction += o.lmr_cut
                if o.lmr_cutoffs and self.cutoff_count[ply + 1] > CUTOFFS_MANY:
                    reduction += 1
            if reduction > depth - 2:
                reduction = depth - 2
            if reduction > 0:
                value = -self.node(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, True,
                                   extended)
                if self.ctx.aborted or value <= alpha:
                    self.pos.unmake(move)
                    return value
                self.ctx.researches += 1
                if o.lmr_deeper:
                    full += (value > alpha + DEEPER_MARGIN + DEEPER_STEP * reduction) \
                        - (value < best + full)
                    reduced_stands = full <= depth - 1 - reduction
        if o.pvs and index > 0:
            if not reduced_stands:
                value = -self.node(full, ply + 1, -alpha - 1, -alpha, True, extended)
            if not self.ctx.aborted and alpha < value < beta:
                leaf_child = not o.research_leaves and (
                    (full <= 0 and not o.quiescence)
                    or self.pos.c_outcome() != RESULT_ONGOING)
                if not leaf_child:
                    self.ctx.researches += 1
                    self.cut_expected[ply + 1] = False
                    value = -self.node(full, ply + 1, -beta, -value, True, extended)
        else:
            if pv_node:
                self.cut_expected[ply + 1] = False
            value = -self.node(full, ply + 1, -beta, -alpha, True, extended)
        self.pos.unmake(move)
        return value

    cdef inline bint losing_move(self, int move) except -1:
        """Does ``move``, just made, lose material by static exchange? (It is unmade for
        the exchange and made again.)"""
        cdef bint losing
        self.pos.unmake(move)
        losing = self.pos.exchange(move) < 0
        self.pos.make(move)
        return losing

    cdef inline int reduction(self, int depth, int index, bint pv_node,
                              long long history) except? -2147483647:
        """How many plies ``lmr`` takes off the ``index``-th move (made already) of a node
        of ``depth``: one, or with ``lmr_log`` the table's, less one at a PV node and less
        one when the move leaves the opponent tactical, kept to at least one ply of depth;
        with ``lmr_history``, also a ply less per ``LMR_HISTORY_STEP`` of the move's
        ``history`` (a ply more per that much below zero)."""
        cdef int r
        if not self.o.lmr_log:
            return 1
        r = self.lmr_table[depth if depth < 64 else 63][index + 1 if index < 63 else 63]
        if pv_node:
            r -= 1
        if self.o.lmr_history:
            r -= <int> (history // LMR_HISTORY_STEP)
        if r > 0 and self.pos.is_tactical():
            r -= 1
        if r > depth - 2:
            r = depth - 2
        return r

    cdef inline int moves_loop(self, int depth, int ply, int alpha, int beta, uint64_t key,
                               int tt_move, int extended, int alpha_orig,
                               int beta_orig, int quiet_limit,
                               int singular) except? -2147483647:
        """Search the moves of an expanded node in the picker's order and keep the best;
        (α, β) may have been narrowed by the table from (alpha_orig, beta_orig), the window
        the result is stored against. From the ``quiet_limit``-th move on, the moves after
        the picker's staged ones are skipped (the first move is always searched; with
        ``spare_checks``, so are those that give check). At the root (ply 0) every move
        gets the original α unless ``shared_root``, and the best finished value is kept for
        a stopped search. ``singular`` (−1, 0 or 1) plies more for the
        table's move; the ply's ``excluded`` move is not searched (nor the result stored)."""
        cdef Options* o = &self.o
        cdef int count, i, m, a, value, score, best = -SCORE_INF, best_move = NO_MOVE
        cdef int excluded = self.excluded[ply]
        cdef int staged = 0, previous = self.path[ply - 1] if ply > 0 else NO_MOVE
        cdef int see_floor = 0
        cdef long long history_floor = 0, nodes_before = 0
        cdef int* moves = ply_moves(self.ctx, ply)
        cdef bint quiet_node = (o.see_prune or o.history_prune) and ply > 0 \
            and beta - alpha == 1 and not self.pos.is_tactical()
        cdef bint see_pruning = o.see_prune and quiet_node and depth <= SEE_PRUNE_DEPTH
        cdef bint history_pruning = o.history_prune and quiet_node \
            and depth <= HISTORY_PRUNE_DEPTH
        if see_pruning:
            see_floor = -o.see_prune * depth
        if history_pruning:
            history_floor = -o.history_prune * (depth - 1)
        count = self.pos.generate(moves)
        if self.picker.active:
            staged = self.picker.order(self.pos, moves, count, ply, tt_move, previous,
                                       self.class_before(ply, 1), self.class_before(ply, 2))
        if ply == 0:
            self.root_start = self.ctx.nodes
        for i in range(count):
            m = self.picker.pick(moves, i, count, ply)
            if i >= quiet_limit and i >= staged and i > 0:
                if not o.spare_checks:
                    break
                if not self.gives_check(m):
                    continue
            if m == excluded:
                continue
            if see_pruning and i > 0 and best > -PROVEN and self.pos.exchange(m) < see_floor:
                continue
            if history_pruning and i >= staged and i > 0 and best > -PROVEN \
                    and not self.picker.noisy_at(ply, i) \
                    and self.picker.history_of(self.pos.side_to_move, m) < history_floor \
                    and not self.gives_check(m):
                continue
            a = alpha if o.pvs or alpha > best else best
            if ply == 0 and not o.shared_root:
                a = alpha_orig
            if ply == 0:
                nodes_before = self.ctx.nodes
            if singular and m == tt_move:
                value = self.child(m, i, depth + singular, ply, a, beta, tt_move,
                                   extended + (singular > 0), staged, best)
            else:
                value = self.child(m, i, depth, ply, a, beta, tt_move, extended, staged, best)
            if self.ctx.aborted:
                return 0
            if o.pvs:
                if value > alpha or (i == 0 and value > best):
                    pv_set(self.ctx, ply, m)
                    best_move = m
                    if ply == 0:
                        self.root_best = value
                        self.root_best_nodes = self.ctx.nodes - nodes_before
                if value > best:
                    best = value
                if value > alpha:
                    alpha = value
                if alpha >= beta:
                    return self.cut(key, depth, ply, moves, i, staged, alpha, alpha_orig,
                                    beta_orig)
            else:
                if value > best:
                    best, best_move = value, m
                    pv_set(self.ctx, ply, m)
                    if ply == 0:
                        self.root_best = value
                        self.root_best_nodes = self.ctx.nodes - nodes_before
                if best >= beta:
                    return self.cut(key, depth, ply, moves, i, staged,
                                    best if o.fail_soft else beta, alpha_orig, beta_orig)
            if o.futility and beta_orig - alpha_orig > o.futility and \
                    beta - (alpha if alpha > best else best) <= o.futility:
                break
        if o.pvs:
            # fail-soft PVS: the best value found, a bound under α when nothing raised it
            score = best if o.fail_soft and best > -SCORE_INF else alpha
        elif o.fail_soft:
            score = best
        elif best <= alpha:
            pv_clear(self.ctx, ply)
            score = alpha
        else:
            score = best
        if o.correction:
            self.learn_correction(depth, ply, score, alpha_orig, beta_orig)
        if o.tt and excluded == NO_MOVE:
            self.table.store(key, depth, ply, score, alpha_orig, beta_orig, best_move)
        return score

    cdef inline bint gives_check(self, int move) except -1:
        """Does ``move`` leave the opponent in a tactical position (in check, in chess)?"""
        cdef bint tactical
        self.pos.make(move)
        tactical = self.pos.is_tactical()
        self.pos.unmake(move)
        return tactical

    cdef inline int cut(self, uint64_t key, int depth, int ply, int* moves, int index,
                        int staged, int score, int alpha_orig, int beta_orig) noexcept:
        """A beta cut-off by ``moves[index]`` (the picker put ``staged`` moves first): count
        it, reward the move (and, with ``malus``, penalise the moves tried before it after
        the staged ones; with ``quiet_cuts``, only a quiet move; with ``capture_history``, a
        noisy move and the noisy moves before it in their own table), store the bound."""
        cdef int move = moves[index]
        self.ctx.cutoffs += 1
        if self.o.lmr_cutoffs:
            self.cutoff_count[ply] += 1
        if self.picker.use_capture_history:
            self.picker.reward_noisy(self.pos.side_to_move, ply, moves, index, depth)
        if not self.picker.noisy_at(ply, index):
            self.picker.reward(self.pos, ply, move, depth, moves + staged,
                               index - staged if index > staged else 0, staged,
                               self.path[ply - 1] if ply > 0 else NO_MOVE,
                               self.class_before(ply, 1), self.class_before(ply, 2))
            if self.o.correction:
                self.learn_correction(depth, ply, score, alpha_orig, beta_orig)
        if self.o.tt and self.excluded[ply] == NO_MOVE:
            self.table.store(key, depth, ply, score, alpha_orig, beta_orig, move)
        return score

    cdef int reward_table_move(self, int ply, int depth, int move,
                               bint reached_beta) except -1:
        """``tt_reward``: the table's bound for this node, ``depth`` plies deep, ended it.
        A quiet ``move`` (the table's) is rewarded as a cut-off by it would be when the bound
        ``reached_beta``, and otherwise (it stayed at or below α) loses as much history."""
        cdef unsigned char noisy = False
        self.pos.mark_noisy(&move, 1, &noisy, ply_moves(self.ctx, ply))
        if noisy:
            return 0
        if reached_beta:
            self.picker.reward(self.pos, ply, move, depth, NULL, 0, 0,
                               self.path[ply - 1] if ply > 0 else NO_MOVE,
                               self.class_before(ply, 1), self.class_before(ply, 2))
        else:
            self.picker.penalise(self.pos.side_to_move, move, depth)
        return 0

    # ---- root and node ------------------------------------------------------------------
    cdef int node(self, int depth, int ply, int alpha, int beta, bint null_ok,
                  int extended) except? -2147483647:
        """The value of the position ``ply`` plies below the root, searched ``depth`` plies
        deep with the window (α, β), under the class's window contract. Tries, in turn: the
        outcome, mate distance, the table's bound, the horizon, reverse futility and a null
        move (``null_ok``; neither at the root), then the moves. ``extended`` counts the
        extensions on the path so far."""
        cdef int status = RESULT_ONGOING, score = 0, tt_move = NO_MOVE
        cdef int alpha_orig = alpha, beta_orig = beta, quiet_limit = ALL_MOVES
        cdef uint64_t key = 0
        cdef bint done, excluding = self.excluded[ply] != NO_MOVE, multi_cut = False
        cdef bint threatened = False, drawn = False
        cdef int singular = 0, draw = self.draw_score(ply)
        if self.o.static_trend:
            self.static_at[ply] = NO_STATIC
            self.worsening[ply] = False
        if self.o.correction:
            self.raw_static[ply] = NO_STATIC
        if self.o.lmr_cutoffs:
            self.cutoff_count[ply + 2] = 0
        if self.o.tt:
            key = self.pos.c_key()
            self.table.prefetch(key)
        self.ctx.ev.prefetch(self.pos)
        score = self.enter(ply, &depth, &extended, &status, &done)
        if done:
            return score
        if self.o.mate_distance and ply > 0:
            if alpha < -(SCORE_WIN - ply):
                alpha = -(SCORE_WIN - ply)
            if beta > SCORE_WIN - ply - 1:
                beta = SCORE_WIN - ply - 1
            if alpha >= beta:
                return alpha
        if self.o.cycle and ply > 0 and depth > 0 and alpha < draw \
                and self.pos.upcoming_repetition(ply):
            if beta <= draw:
                return draw
            alpha, drawn = draw, True  # a repetition is a move away: at least a draw
        if self.o.tt:
            if self.probe(key, depth, ply, &alpha, &beta, &tt_move, &score,
                          (ply > 0 or self.o.mtd) and not excluding
                          and (self.o.pv_cuts or beta - alpha == 1)):
                if self.o.tt_reward and tt_move != NO_MOVE and depth > 0 \
                        and (score >= beta or score <= alpha):
                    self.reward_table_move(ply, depth, tt_move, score >= beta)
                return draw if drawn and score < draw else score
        if depth <= 0:
            score = self.horizon(key, ply, alpha, beta, status)
            return draw if drawn and score < draw else score
        if self.o.tt_pv:
            self.on_pv[ply] = beta_orig - alpha_orig > 1 or self.table.was_pv(key)
        if ply > 0 and not excluding and self.prune(key, depth, ply, alpha, beta, null_ok,
                                                    extended, &score, &quiet_limit,
                                                    &threatened):
            return draw if drawn and score < draw else score
        if threatened and extended < self.o.extensions:
            depth += 1
            extended += 1
        if self.o.iir and self.o.tt and tt_move == NO_MOVE and depth >= IIR_DEPTH:
            depth -= 1
        if self.o.singular and ply > 0 and not excluding and tt_move != NO_MOVE \
                and depth >= self.o.singular_depth and extended < self.o.extensions:
            singular = self.singular_test(key, depth, ply, beta, tt_move, extended, &score,
                                          &multi_cut)
            if self.ctx.aborted:
                return 0
            if multi_cut:
                return score
        score = self.moves_loop(depth, ply, alpha, beta, key, tt_move, extended, alpha_orig,
                                beta_orig, quiet_limit, singular)
        if self.o.tt_pv and self.on_pv[ply] and not excluding and not self.ctx.aborted:
            self.table.mark_pv(key)
        return draw if drawn and score < draw else score

    cdef int singular_test(self, uint64_t key, int depth, int ply, int beta, int tt_move,
                           int extended, int* score, bint* multi_cut) except? -2147483647:
        """``singular``: is the table's move far better than every other? When the table holds
        a lower bound L for this node from at least depth − ``SINGULAR_REACH``, the node is
        searched without the move at half the depth with the null window below s = L −
        ``SINGULAR_MARGIN`` × depth. Returns the plies the table's move is searched deeper:
        1 when nothing else reaches s (the move is singular); 0 with ``multi_cut`` set when
        s ≥ β as well (several moves beat β: the node is cut with ``score`` = s); with
        ``singular_negative``, −1 when L ≥ β (the move need not be searched as deep); else 0."""
        cdef Entry* entry = self.table.probe(key)
        cdef int lower, target, value
        if entry == NULL or entry.move != tt_move or entry.depth < depth - SINGULAR_REACH:
            return 0
        lower = from_table(entry.lower, ply)
        if lower <= -PROVEN or lower >= PROVEN:
            return 0
        target = lower - SINGULAR_MARGIN * depth
        self.excluded[ply] = tt_move
        value = self.node((depth - 1) // 2, ply, target - 1, target, False, extended)
        self.excluded[ply] = NO_MOVE
        if self.ctx.aborted:
            return 0
        if value < target:
            return 1
        if target >= beta:
            score[0] = target
            multi_cut[0] = True
            return 0
        if self.o.singular_negative and lower >= beta:
            return -1
        return 0

    cdef inline int static_score(self, uint64_t key, int ply) except? -2147483647:
        """The node's static score for pruning: the evaluator's, or with ``tt_static`` the
        table's bound for the node where it lies beyond it on the bound's side (a lower
        bound above it, an upper bound below it; never a proven result)."""
        cdef int static = self.evaluate(), bound
        cdef Entry* entry
        if self.o.correction:
            self.raw_static[ply] = static
            static += self.correction_slot()[0] // CORRECTION_GRAIN
        if not self.o.tt_static:
            return static
        entry = self.table.probe(key)
        if entry == NULL:
            return static
        bound = from_table(entry.lower, ply)
        if static < bound < PROVEN:
            return bound
        bound = from_table(entry.upper, ply)
        if -PROVEN < bound < static:
            return bound
        return static

    cdef inline int* correction_slot(self) noexcept:
        """``correction``: the slot of the side to move and the game's structure key."""
        cdef uint64_t h = self.pos.c_structure_key() * 0x9E3779B97F4A7C15ULL
        return &self.correction[(self.pos.side_to_move << CORRECTION_BITS)
                                + <int> (h >> (64 - CORRECTION_BITS))]

    cdef inline void learn_correction(self, int depth, int ply, int score, int alpha_orig,
                                      int beta_orig) noexcept:
        """``correction``: move the node's slot towards how far ``score`` (searched ``depth``
        deep with the window (alpha_orig, beta_orig)) lies from the node's evaluator score,
        where that score is known and the result says something about it."""
        cdef int raw = self.raw_static[ply], diff, weight
        cdef int* slot
        if raw == NO_STATIC or not -PROVEN < score < PROVEN \
                or self.excluded[ply] != NO_MOVE \
                or score <= alpha_orig and score >= raw or score >= beta_orig and score <= raw:
            return
        diff = score - raw
        if diff > CORRECTION_DIFF:
            diff = CORRECTION_DIFF
        elif diff < -CORRECTION_DIFF:
            diff = -CORRECTION_DIFF
        weight = depth + 1 if depth + 1 < CORRECTION_RATE else CORRECTION_RATE
        slot = self.correction_slot()
        slot[0] = (slot[0] * (256 - weight) + diff * CORRECTION_GRAIN * weight) // 256

    cdef inline bint prune(self, uint64_t key, int depth, int ply, int alpha, int beta,
                           bint null_ok, int extended, int* score,
                           int* quiet_limit, bint* threatened) except -1:
        """The node's forward pruning, below the root: reverse futility (``rfp``), razoring
        (``razor``), then the null move (``null_r``, ``null_ok``) and ProbCut (``probcut``) —
        True when one ends the node, with ``score`` — and how many moves are tried before
        the quiet ones are skipped (``lmp``, ``frontier``; ``quiet_limit`` is left alone
        otherwise). With ``improving``, ``rfp_improving`` or ``lmp_trend``, it also records the
        node's static score and whether it fell (``worsening``); with ``mate_threat``,
        ``threatened`` says whether the null move was mated."""
        cdef Options* o = &self.o
        cdef int static = 0, reduction = o.null_r
        cdef bint tactical, known = False, rising = False
        cdef int value, earlier
        if not o.rfp and not o.razor and not o.null_r and not o.lmp and not o.frontier \
                and not o.improving and not o.probcut:
            return False
        tactical = (o.rfp or o.razor or o.null_adaptive or o.lmp or o.frontier or o.improving
                    or o.probcut) \
            and self.pos.is_tactical()
        if o.static_trend and not tactical:
            static, known = self.static_score(key, ply), True
            self.static_at[ply] = static
            earlier = self.static_at[ply - 2] if ply >= 2 else NO_STATIC
            self.worsening[ply] = earlier != NO_STATIC and static < earlier
            rising = o.rfp_improving and earlier != NO_STATIC and static > earlier
        if o.rfp and not tactical and beta - alpha == 1 and depth <= RFP_DEPTH \
                and -PROVEN < beta < PROVEN:
            if not known:
                static, known = self.static_score(key, ply), True
            if static - o.rfp * (depth - rising) >= beta:
                score[0] = static if o.fail_soft or o.pvs else beta
                return True
        if o.razor and not tactical and beta - alpha == 1 and depth <= RAZOR_DEPTH \
                and -PROVEN < alpha < PROVEN:
            if not known:
                static, known = self.static_score(key, ply), True
            if static + o.razor * depth <= alpha:
                value = self.quiesce(ply, alpha, alpha + 1, self.o.qs_checks, False)
                if self.ctx.aborted:
                    score[0] = 0
                    return True
                if value <= alpha:
                    score[0] = value if o.fail_soft else alpha
                    return True
        if (o.lmp or o.frontier) and not tactical and beta - alpha == 1 \
                and depth <= QUIET_PRUNE_DEPTH and alpha > -PROVEN:
            if o.lmp:
                quiet_limit[0] = o.lmp_base + depth * depth
                if o.lmp_trend and self.worsening[ply]:
                    quiet_limit[0] //= 2
            if o.frontier and depth <= FRONTIER_DEPTH:
                if not known:
                    static, known = self.static_score(key, ply), True
                if static + o.frontier * depth <= alpha:
                    quiet_limit[0] = 1
        if o.null_r and null_ok and depth > o.null_r and beta < PROVEN and not (
                o.null_adaptive and tactical):
            if o.null_adaptive and not known:
                static, known = self.static_score(key, ply), True
            if not o.null_adaptive or static >= beta:
                if o.null_adaptive:
                    reduction += depth // o.null_depth + min(3, (static - beta) // 200)
                if self.null_move_cut(depth, ply, beta, extended, reduction, score,
                                      threatened):
                    return True
        if o.probcut and not tactical and beta - alpha == 1 and depth >= PROBCUT_DEPTH \
                and -PROVEN < beta < PROVEN - o.probcut:
            if not known:
                static = self.static_score(key, ply)
            return self.probcut_cut(depth, ply, beta, extended, static, score)
        return False

    cdef bint probcut_cut(self, int depth, int ply, int beta, int extended, int static,
                          int* score) except -1:
        """``probcut``: with β' = β + ``probcut``, each noisy move whose static exchange could
        lift the ``static`` score to β' is searched with the window (β'−1, β'), first by
        quiescence, then, if it holds, ``PROBCUT_REDUCTION`` plies shallower than the node;
        a move that holds both times ends the node with its value (a lower bound, stored at
        the depth it was searched to) — True then."""
        cdef int raised = beta + self.o.probcut
        cdef int count, i, value
        cdef int* moves = ply_moves(self.ctx, ply)
        count = self.pos.generate_noisy(moves)
        if self.picker.use_captures:
            self.picker.order_noisy(self.pos, moves, count)
        for i in range(count):
            if static + self.pos.exchange(moves[i]) < raised:
                continue
            self.follow(ply, moves[i])
            self.cut_expected[ply + 1] = not self.cut_expected[ply]
            self.losing_check[ply + 1] = False
            self.pos.make(moves[i])
            value = -self.node(0, ply + 1, -raised, -raised + 1, True, extended)
            if not self.ctx.aborted and value >= raised:
                value = -self.node(depth - PROBCUT_REDUCTION, ply + 1, -raised, -raised + 1,
                                   True, extended)
            self.pos.unmake(moves[i])
            if self.ctx.aborted:
                score[0] = 0
                return True
            if value >= raised:
                if self.o.tt:
                    self.table.store(self.pos.c_key(), depth - PROBCUT_REDUCTION + 1, ply,
                                     value, raised - 1, raised, moves[i])
                score[0] = value if self.o.fail_soft or self.o.pvs else beta
                return True
        return False

    cdef int root(self, int depth, int alpha, int beta) except? -2147483647:
        """The root searched ``depth`` plies with the window (α, β), under the class's
        window contract. Unlike ``node``: no null move, and the table only orders the moves
        (it ends the root only in MTD(f), whose passes are memory-enhanced tests); the best
        root move so far is kept in ``root_best`` and the principal variation at ply 0."""
        self.root_best = 0
        self.root_start, self.root_best_nodes = self.ctx.nodes, 0  # set again for its moves
        self.cut_expected[0] = False
        return self.node(depth, 0, alpha, beta, False, 0)

    cdef double best_share(self) noexcept:
        """The share of the last root pass's nodes (those below its moves) its best move
        took (0 to 1)."""
        cdef long long spent = self.ctx.nodes - self.root_start
        return <double> self.root_best_nodes / spent if spent > 0 else 0.0

    # ---- drivers ----------------------------------------------------------------------------
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
        cdef int value, low, high, delta
        if self.o.mtd:
            if self.o.mtd_start:
                guess = self.o.mtd_start * SCORE_INF
            return self.mtd(depth, guess if has_guess or self.o.mtd_start else 0)
        if self.o.aspiration and has_guess:
            delta = self.o.aspiration
            low, high = guess - delta, guess + delta
            for _ in range(WIDEN_TRIES if self.o.widen else 1):
                value = self.root(depth, low, high)
                self.ctx.passes += 1
                if self.ctx.aborted or low < value < high:
                    return value
                self.ctx.researches += 1
                delta *= 2
                if value <= low:
                    low = max(-SCORE_INF, low - delta)
                else:
                    high = min(SCORE_INF, max(value, high) + delta)
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
            entry = self.table.probe(self.ctx.pos.c_key())
            if entry != NULL and entry.move != NO_MOVE:
                return entry.move, (entry.move,)
        return None, ()


def new_picker(Position position, dict options):
    """A move picker for searches of ``position``'s game with the family's ``options``."""
    o = options
    return MovePicker(position.max_moves, tt_move=o["tt_move"] and o["tt"],
                      captures=o["captures"], killers=o["killers"], history=o["history"],
                      see=o["see"], malus=o["malus"], countermove=o["countermove"],
                      conthist=o["conthist"], quiet_hint=o["quiet_hint"],
                      quiet_cuts=o["quiet_cuts"], capture_history=o["capture_history"],
                      losing_last=o["losing_last"], threat_order=o["threat_order"],
                      history_linear=o["history_linear"], pawn_history=o["pawn_history"])


def search(Position position, Evaluator evaluator, limit, dict options, book=None,
           guess=None, on_info=None, TranspositionTable table=None, clock=None,
           MovePicker picker=None):
    """Run the family search; see the module docstring for the options. ``book(position)``
    may answer with a move before any search. ``on_info(info, seldepth, hashfull)`` is
    called after every completed iteration; no iteration starts once
    ``clock.stop_after(move, value, elapsed, best_share)`` (a ``timeman.IterationClock``;
    ``best_share``: the share of the iteration's last pass's nodes its best move took) says
    so. With
    ``tt`` on, the search uses ``table`` (kept by the caller between searches) or a fresh
    one; likewise ``picker`` (from ``new_picker``), whose history it starts from, halved."""
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef Family family = Family(ctx, options, table, picker)
    cdef int target = ctx.depth_limit
    cdef int depth, value, best_value = 0, start
    cdef bint has_guess = guess is not None
    cdef int g = guess if guess is not None else 0
    if book is not None:
        move = book(position)
        if move is not None and move in position.legal_moves():
            return ctx.result(move, 0, (move,), 0, True)
    evaluator.prepare(position)
    if family.o.tt:
        family.table.new_search()
    if picker is not None:
        picker.new_search()
    if target == 0 or position.c_outcome() != RESULT_ONGOING:
        value = family.root(target, -SCORE_INF, SCORE_INF)
        return ctx.result(None, value, (), target, not ctx.aborted)
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
        if value >= SCORE_WIN - depth // 2 or value <= -(SCORE_WIN - depth // 2):
            break  # a mate within half the depth: reductions hide no shorter one any more
        if clock is not None and clock.stop_after(best_move, value, ctx.elapsed(),
                                                  family.best_share()):
            break
    if best_move is None:
        best_move, best_pv = ctx.fallback()
    if not ctx.aborted and family.o.secondary and done:
        best_move, best_value, best_pv = _secondary(family, done, best_move, best_value,
                                                    best_pv)
    # depth: the deepest completed iteration (0 when a limit stopped the first one)
    return ctx.result(best_move, best_value, best_pv, done if done or ctx.aborted else target,
                      not ctx.aborted, tuple(infos))


def bounded(Position position, Evaluator evaluator, limit, dict options, int alpha, int beta,
            TranspositionTable table=None):
    """One search of the root to the limit's depth with the window (α, β) — the test that
    MTD(f) and aspiration windows are built from — returning the value under the window
    contract of ``Family``. The position is left as it was."""
    cdef SearchContext ctx = SearchContext(position, evaluator, limit)
    cdef Family family = Family(ctx, options, table)
    evaluator.prepare(position)
    value = family.root(ctx.depth_limit, alpha, beta)
    ctx.reraise()
    return value


cdef tuple _secondary(Family family, int depth, int move, int value, tuple pv):
    """Search the chosen move ``secondary`` plies deeper; if it falls below the best other
    root move (searched at the original depth), play that one instead."""
    cdef SearchContext ctx = family.ctx
    cdef Position pos = ctx.pos
    cdef int deep, other_value = -SCORE_INF, v, i, count
    cdef int* moves
    other_move = None
    pos.make(move)
    deep = -family.node(depth + family.o.secondary - 1, 1, -SCORE_INF, SCORE_INF, True, 0)
    pos.unmake(move)
    moves = ply_moves(ctx, 0)
    count = pos.generate(moves)
    for i in range(count):
        if moves[i] == move or ctx.aborted:
            continue
        pos.make(moves[i])
        v = -family.node(depth - 1, 1, -SCORE_INF, -other_value, True, 0)
        pos.unmake(moves[i])
        if not ctx.aborted and v > other_value:
            other_value, other_move = v, moves[i]
    if ctx.aborted or other_move is None or deep >= other_value:
        return move, value, pv
    return other_move, other_value, (other_move,)
