"""The compiled searchers, registered by name.

``minimax``, ``negamax`` and ``alphabeta`` take the options of their reference twins in
``reference.py`` and return the same SearchResult, counts included. ``alphabeta`` also takes
every enhancement of the family (see ``family.pyx``); ``negascout``, ``aspiration``,
``null-move``, ``mtdf``, ``mt-sss*`` and ``mt-dual*`` are presets of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from attrs import define, field

from alfabeta.core import (
    InvalidOptionError,
    Limit,
    Position,
    SearchResult,
    UnsupportedLimitError,
)
from alfabeta.core.evaluator import as_evaluator
from alfabeta.plugins import hookimpl
from alfabeta.searchers import (  # type: ignore[attr-defined]  # compiled modules
    basic,
    family,
    mcts,
    scout,
    sss,
    timeman,
)
from alfabeta.searchers.base import Searcher, choice, whole
from alfabeta.searchers.proof_number import ProofNumber
from alfabeta.searchers.reference import PyAlphaBeta, PyMinimax, PyNegamax
from alfabeta.searchers.tt import TranspositionTable

FLAG = choice(True, False)
CONTEMPT_MAX = 500  # a draw is worth at most five pawns either way


@define
class Minimax(PyMinimax):
    """MiniMax in MAX/MIN form, compiled."""

    name = "minimax"
    compiled = True

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """MiniMax to the limit's depth; the same result as ``py-minimax``."""
        evaluator = as_evaluator(evaluator)
        return basic.search(
            position, evaluator, self.limit_for(limit), basic.ALGO_MINIMAX, self.opponent_error
        )


@define
class Negamax(PyNegamax):
    """NegaMax without pruning, compiled."""

    name = "negamax"
    compiled = True

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """NegaMax to the limit's depth; the same result as ``py-negamax``."""
        evaluator = as_evaluator(evaluator)
        return basic.search(position, evaluator, self.limit_for(limit), basic.ALGO_NEGAMAX)


def _callable_book(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and not callable(value):
        raise InvalidOptionError(
            f"{instance.name} option book={str(value)[:40]!r}: expected a callable "
            "(position -> move or None); for a Polyglot file, build one with "
            "alfabeta.games.chess.polyglot.PolyglotBook(path), or give the file to "
            "`alfabeta play --book` or the UCI option BookFile"
        )


def _optional_int(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        whole(-(10**9))(instance, attribute, value)


@define
class AlphaBeta(PyAlphaBeta):
    """Alpha-beta with the family's enhancements as options, all off by default (then it is
    exactly ``py-alphabeta``). Sizes and margins are in score points; 0 switches them off."""

    name = "alphabeta"
    compiled = True
    pvs: bool = field(default=False, validator=FLAG, kw_only=True)
    research_leaves: bool = field(default=True, validator=FLAG, kw_only=True)
    tt: bool = field(default=False, validator=FLAG, kw_only=True)
    tt_mb: int = field(default=16, validator=whole(1, 4096), kw_only=True)
    tt_ways: int = field(default=1, validator=whole(1, 2), kw_only=True)
    iterative: bool = field(default=False, validator=FLAG, kw_only=True)
    tt_move: bool = field(default=True, validator=FLAG, kw_only=True)
    pv_cuts: bool = field(default=True, validator=FLAG, kw_only=True)
    captures: bool = field(default=False, validator=FLAG, kw_only=True)
    killers: bool = field(default=False, validator=FLAG, kw_only=True)
    history: bool = field(default=False, validator=FLAG, kw_only=True)
    malus: bool = field(default=False, validator=FLAG, kw_only=True)
    countermove: bool = field(default=False, validator=FLAG, kw_only=True)
    conthist: bool = field(default=False, validator=FLAG, kw_only=True)
    quiet_hint: bool = field(default=False, validator=FLAG, kw_only=True)
    threat_order: bool = field(default=False, validator=FLAG, kw_only=True)
    history_linear: bool = field(default=False, validator=FLAG, kw_only=True)
    pawn_history: bool = field(default=False, validator=FLAG, kw_only=True)
    quiet_cuts: bool = field(default=False, validator=FLAG, kw_only=True)
    capture_history: bool = field(default=False, validator=FLAG, kw_only=True)
    quiescence: bool = field(default=False, validator=FLAG, kw_only=True)
    qs_tt: bool = field(default=False, validator=FLAG, kw_only=True)
    qs_checks: bool = field(default=False, validator=FLAG, kw_only=True)
    null_move: int = field(default=0, validator=whole(0), kw_only=True)
    verified: bool = field(default=False, validator=FLAG, kw_only=True)
    aspiration: int = field(default=0, validator=whole(0), kw_only=True)
    guess: int | None = field(default=None, validator=_optional_int, kw_only=True)
    futility: int = field(default=0, validator=whole(0), kw_only=True)
    lmr: int = field(default=0, validator=whole(0), kw_only=True)
    lmr_log: bool = field(default=False, validator=FLAG, kw_only=True)
    lmr_scale: int = field(default=100, validator=whole(1, 1000), kw_only=True)
    lmr_history: bool = field(default=False, validator=FLAG, kw_only=True)
    lmr_cut: int = field(default=0, validator=whole(0, 3), kw_only=True)
    lmr_tt_noisy: bool = field(default=False, validator=FLAG, kw_only=True)
    lmr_counter: bool = field(default=False, validator=FLAG, kw_only=True)
    lmr_deeper: bool = field(default=False, validator=FLAG, kw_only=True)
    lmr_cutoffs: bool = field(default=False, validator=FLAG, kw_only=True)
    tt_static: bool = field(default=False, validator=FLAG, kw_only=True)
    tt_reward: bool = field(default=False, validator=FLAG, kw_only=True)
    tt_pv: bool = field(default=False, validator=FLAG, kw_only=True)
    correction: bool = field(default=False, validator=FLAG, kw_only=True)
    null_adaptive: bool = field(default=False, validator=FLAG, kw_only=True)
    null_depth: int = field(default=6, validator=whole(1, 64), kw_only=True)
    verify_depth: int = field(default=0, validator=whole(0), kw_only=True)
    widen: bool = field(default=False, validator=FLAG, kw_only=True)
    repetition: bool = field(default=False, validator=FLAG, kw_only=True)
    cycle: bool = field(default=False, validator=FLAG, kw_only=True)
    contempt: int = field(default=0, validator=whole(-CONTEMPT_MAX, CONTEMPT_MAX), kw_only=True)
    mate_distance: bool = field(default=False, validator=FLAG, kw_only=True)
    rfp: int = field(default=0, validator=whole(0), kw_only=True)
    rfp_improving: bool = field(default=False, validator=FLAG, kw_only=True)
    razor: int = field(default=0, validator=whole(0), kw_only=True)
    delta: int = field(default=0, validator=whole(0), kw_only=True)
    improving: bool = field(default=False, validator=FLAG, kw_only=True)
    see_prune: int = field(default=0, validator=whole(0), kw_only=True)
    history_prune: int = field(default=0, validator=whole(0), kw_only=True)
    probcut: int = field(default=0, validator=whole(0), kw_only=True)
    iir: bool = field(default=False, validator=FLAG, kw_only=True)
    see: bool = field(default=False, validator=FLAG, kw_only=True)
    losing_last: bool = field(default=False, validator=FLAG, kw_only=True)
    evasions: bool = field(default=False, validator=FLAG, kw_only=True)
    lmp: bool = field(default=False, validator=FLAG, kw_only=True)
    lmp_base: int = field(default=3, validator=whole(0, 256), kw_only=True)
    lmp_trend: bool = field(default=False, validator=FLAG, kw_only=True)
    spare_checks: bool = field(default=False, validator=FLAG, kw_only=True)
    frontier: int = field(default=0, validator=whole(0), kw_only=True)
    adaptive_time: bool = field(default=False, validator=FLAG, kw_only=True)
    node_time: bool = field(default=False, validator=FLAG, kw_only=True)
    moves_to_go: int = field(default=timeman.MOVES_TO_GO, validator=whole(1, 1000), kw_only=True)
    time_horizon: int = field(default=0, validator=whole(0, 1000), kw_only=True)
    extensions: int = field(default=0, validator=whole(0), kw_only=True)
    extend_from: int = field(default=0, validator=whole(0), kw_only=True)
    check_see: bool = field(default=False, validator=FLAG, kw_only=True)
    mate_threat: bool = field(default=False, validator=FLAG, kw_only=True)
    singular: bool = field(default=False, validator=FLAG, kw_only=True)
    singular_depth: int = field(default=7, validator=whole(2, 64), kw_only=True)
    singular_negative: bool = field(default=False, validator=FLAG, kw_only=True)
    secondary: int = field(default=0, validator=whole(0), kw_only=True)
    book: Callable | None = field(default=None, validator=_callable_book, kw_only=True, repr=False)
    keep_table: bool = field(default=False, validator=FLAG, kw_only=True)
    keep_history: bool = field(default=False, validator=FLAG, kw_only=True)
    _table: TranspositionTable | None = field(default=None, init=False, repr=False, eq=False)
    _picker: Any = field(default=None, init=False, repr=False, eq=False)
    _kept_for: tuple | None = field(default=None, init=False, repr=False, eq=False)

    @property
    def table(self) -> TranspositionTable | None:
        """The transposition table (``tt=on``), allocated once; with ``keep_table=on`` its
        entries are kept between searches, so the next search of the same game starts from
        what this one stored. None with ``tt`` off."""
        if self.tt and self._table is None:
            self._table = TranspositionTable(self.tt_mb, two_way=self.tt_ways == 2)
        return self._table

    def use_table(self, table: TranspositionTable) -> None:
        """Search on ``table`` from now on: the one Lazy SMP helpers share (``smp.py``)."""
        if not (self.tt and self.iterative):
            raise InvalidOptionError(
                f"{self.name}: searching with helpers on a shared table needs tt=on and "
                "iterative=on"
            )
        self._table = table

    def help_search(
        self, position: Position, evaluator: Any, table: TranspositionTable, stop: Any
    ) -> SearchResult:
        """A Lazy SMP helper's search (``smp.py``): ``position`` on ``table``, which the main
        search uses too (so it is never cleared here), with no limit but ``stop``; the
        history carries over as in ``search``."""
        if self.keep_history and self._picker is None:
            self._picker = family.new_picker(position, self._family_options())
        return family.search(
            position,
            as_evaluator(evaluator),
            Limit(infinite=True, stop=stop),
            self._family_options(),
            table=table,
            picker=self._picker,
        )

    def moves_left(self, position: Position) -> int:
        """The moves a clock that does not say is spent over at ``position``
        (``timeman.moves_left`` with ``moves_to_go`` and ``time_horizon``)."""
        return timeman.moves_left(position, self.moves_to_go, self.time_horizon)

    def new_game(self) -> None:
        """Forget what earlier searches stored and learnt (UCI's ``ucinewgame``)."""
        if self._table is not None:
            self._table.clear()
        self._picker = None

    def _kept_for_search(self, position: Position, evaluator: Any) -> tuple[Any, Any]:
        """The table and the move picker (or None) a search starts from. The table is
        cleared first unless ``keep_table`` is on and it was filled for this game (with its
        options) and evaluator, and the evaluator does not score relative to each search's
        root (``root_dependent``): stored values hold only for the same scoring. With
        ``keep_history``, the picker of the last search of the same game and evaluator
        (its history halved by the search), else None: a fresh one."""
        identity = (position.name, repr(position.options()), repr(evaluator))
        same = identity == self._kept_for
        self._kept_for = identity
        table = self.table
        if table is not None and (
            not self.keep_table or not same or getattr(evaluator, "root_dependent", False)
        ):
            table.clear()
        if not self.keep_history:
            return table, None
        if self._picker is None or not same:
            self._picker = family.new_picker(position, self._family_options())
        return table, self._picker

    def _family_options(self) -> dict:
        return {
            "fail_soft": self.fail == "soft",
            "shared_root": self.root == "shared",
            "pvs": self.pvs,
            "research_leaves": self.research_leaves,
            "tt": self.tt,
            "tt_mb": self.tt_mb,
            "tt_ways": self.tt_ways,
            "iterative": self.iterative,
            "tt_move": self.tt_move,
            "pv_cuts": self.pv_cuts,
            "captures": self.captures,
            "killers": self.killers,
            "history": self.history,
            "malus": self.malus,
            "countermove": self.countermove,
            "conthist": self.conthist,
            "quiet_hint": self.quiet_hint,
            "threat_order": self.threat_order,
            "history_linear": self.history_linear,
            "pawn_history": self.pawn_history,
            "quiet_cuts": self.quiet_cuts,
            "capture_history": self.capture_history,
            "quiescence": self.quiescence,
            "qs_tt": self.qs_tt,
            "qs_checks": self.qs_checks,
            "null_r": self.null_move,
            "verified": self.verified,
            "aspiration": self.aspiration,
            "futility": self.futility,
            "lmr": self.lmr,
            "lmr_log": self.lmr_log,
            "lmr_scale": self.lmr_scale,
            "lmr_history": self.lmr_history,
            "lmr_cut": self.lmr_cut,
            "lmr_tt_noisy": self.lmr_tt_noisy,
            "lmr_counter": self.lmr_counter,
            "lmr_deeper": self.lmr_deeper,
            "lmr_cutoffs": self.lmr_cutoffs,
            "tt_static": self.tt_static,
            "tt_reward": self.tt_reward,
            "tt_pv": self.tt_pv,
            "correction": self.correction,
            "null_adaptive": self.null_adaptive,
            "null_depth": self.null_depth,
            "verify_depth": self.verify_depth,
            "widen": self.widen,
            "repetition": self.repetition,
            "cycle": self.cycle,
            "contempt": self.contempt,
            "mate_distance": self.mate_distance,
            "rfp": self.rfp,
            "rfp_improving": self.rfp_improving,
            "razor": self.razor,
            "delta": self.delta,
            "improving": self.improving,
            "see_prune": self.see_prune,
            "history_prune": self.history_prune,
            "probcut": self.probcut,
            "iir": self.iir,
            "see": self.see,
            "losing_last": self.losing_last,
            "evasions": self.evasions,
            "lmp": self.lmp,
            "lmp_base": self.lmp_base,
            "lmp_trend": self.lmp_trend,
            "spare_checks": self.spare_checks,
            "frontier": self.frontier,
            "extensions": self.extensions,
            "extend_from": self.extend_from,
            "check_see": self.check_see,
            "mate_threat": self.mate_threat,
            "singular": self.singular,
            "singular_depth": self.singular_depth,
            "singular_negative": self.singular_negative,
            "secondary": self.secondary,
            "mtd": False,
            "mtd_start": 0,
        }

    def limit_for(self, limit: Limit | None) -> Limit:
        """As ``Searcher.limit_for``, but an iterative search also keeps to a time or a clock."""
        if self.iterative:
            return Limit(depth=self.depth, nodes=self.nodes, time=self.time).merged(limit)
        return super().limit_for(limit)

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None, on_info: Any = None
    ) -> SearchResult:
        """Search; ``on_info(info, seldepth, hashfull)`` follows each completed iteration."""
        evaluator = as_evaluator(evaluator)
        limit = self.limit_for(limit)
        limit, soft_budget = timeman.for_move(
            limit, position.side_to_move, self.moves_left(position)
        )
        clock = None
        if soft_budget is not None:
            clock = timeman.IterationClock(
                soft_budget,
                len(position.legal_moves()),
                adaptive=self.adaptive_time,
                node_share=self.node_time,
            )
        table, picker = self._kept_for_search(position, evaluator)
        return family.search(
            position,
            evaluator,
            limit,
            self._family_options(),
            self.book,
            self.guess,
            on_info,
            table,
            clock,
            picker,
        )

    def bounded_value(
        self, position: Position, evaluator: Any, alpha: int, beta: int, limit: Limit | None = None
    ) -> int:
        """One search of the root to a fixed depth with the window (alpha, beta) — the test
        MTD(f) and aspiration windows are made of — returning the value under the window
        contract of ``family.pyx`` (fail-hard, fail-soft or PVS, as the options say)."""
        evaluator = as_evaluator(evaluator)
        limit = self.limit_for(limit)
        if limit.depth is None:
            raise UnsupportedLimitError(f"{self.name}: a bounded search needs a depth limit")
        if not alpha < beta:
            raise InvalidOptionError(f"window ({alpha}, {beta}): expected alpha < beta")
        return family.bounded(
            position,
            evaluator,
            limit,
            self._family_options(),
            alpha,
            beta,
            self._kept_for_search(position, evaluator)[0],
        )


@define
class NegaScout(AlphaBeta):
    """NegaScout / PVS (seed-003 §1.14): the document's version by default."""

    name = "negascout"
    pvs: bool = field(default=True, validator=FLAG, kw_only=True)


@define
class Aspiration(AlphaBeta):
    """Iterative deepening with an aspiration window of ±50 around the previous value."""

    name = "aspiration"
    iterative: bool = field(default=True, validator=FLAG, kw_only=True)
    aspiration: int = field(default=50, validator=whole(1), kw_only=True)


@define
class NullMove(AlphaBeta):
    """Alpha-beta with null-move pruning, R = 2."""

    name = "null-move"
    null_move: int = field(default=2, validator=whole(1), kw_only=True)


@define
class MTDF(AlphaBeta):
    """MTD(f): null-window passes of the memory-enhanced test (fail-soft alpha-beta with a
    transposition table), iterative deepening, the previous value as the first guess;
    ``driver="sss"`` starts every iteration at +∞ (MT-SSS*), ``"dual"`` at −∞ (MT-DUAL*)."""

    name = "mtdf"
    fail: str = field(default="soft", validator=choice("soft"), kw_only=True)
    tt: bool = field(default=True, validator=choice(True), kw_only=True)
    iterative: bool = field(default=True, validator=FLAG, kw_only=True)
    driver: str = field(default="f", validator=choice("f", "sss", "dual"), kw_only=True)

    def _family_options(self) -> dict:
        options = super()._family_options()
        options.update(mtd=True, mtd_start={"f": 0, "sss": 1, "dual": -1}[self.driver])
        return options


@define
class MTSSS(MTDF):
    """MT-SSS*: MTD starting from +∞ (SSS* as a sequence of null-window tests)."""

    name = "mt-sss*"
    driver: str = field(default="sss", validator=choice("sss"), kw_only=True)


@define
class MTDual(MTDF):
    """MT-DUAL*: MTD starting from −∞."""

    name = "mt-dual*"
    driver: str = field(default="dual", validator=choice("dual"), kw_only=True)


@define
class Scout(Searcher):
    """Pearl's Scout: EVAL with TEST (seed-003 §1.16), compiled."""

    name = "scout"
    compiled = True

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """Scout to the limit's depth."""
        evaluator = as_evaluator(evaluator)
        return scout.search(position, evaluator, self.limit_for(limit))


@define
class SSS(Searcher):
    """Stockman's SSS* with an OPEN list, left-most ties first (seed-003 §1.15), compiled."""

    name = "sss*"
    compiled = True

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """SSS* to the limit's depth."""
        evaluator = as_evaluator(evaluator)
        return sss.search(position, evaluator, self.limit_for(limit), False)


@define
class Dual(Searcher):
    """Dual*: SSS* with the roles of MAX and MIN exchanged, compiled."""

    name = "dual*"
    compiled = True

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """Dual* to the limit's depth."""
        evaluator = as_evaluator(evaluator)
        return sss.search(position, evaluator, self.limit_for(limit), True)


def _exploration(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise InvalidOptionError(f"mcts option c={value!r}: expected a number >= 0")


@define
class MCTS(Searcher):
    """Monte Carlo tree search with UCT, seeded (see ``mcts.pyx``). ``iterations`` (default
    1000 when no node, time or stop limit is given); ``c`` the exploration constant;
    ``playout_plies`` caps a random game (then it counts as a draw). A depth limit has no
    meaning here and is refused; a time limit is honoured (MCTS is anytime)."""

    name = "mcts"
    compiled = True
    c: float = field(default=1.4142135623730951, validator=_exploration, kw_only=True)
    seed: int = field(default=0, validator=whole(0), kw_only=True)
    playout_plies: int = field(default=400, validator=whole(1), kw_only=True)
    iterations: int | None = field(default=None, validator=whole(1), kw_only=True)

    def limit_for(self, limit: Limit | None) -> Limit:
        """The limit; a depth has no meaning for MCTS and is refused."""
        merged = Limit(nodes=self.nodes, time=self.time).merged(limit)
        if self.depth is not None or merged.depth is not None:
            raise UnsupportedLimitError("mcts has no depth: limit iterations, nodes or time")
        return merged

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """MCTS to the limit (iterations, nodes, time, or the mover's clock)."""
        evaluator = as_evaluator(evaluator)
        # a clock becomes the mover's hard limit: MCTS is anytime and has no iterations to stop
        limit, _ = timeman.for_move(self.limit_for(limit), position.side_to_move)
        iterations = self.iterations
        if iterations is None and limit.nodes is None and limit.time is None and limit.stop is None:
            iterations = 1000
        return mcts.search(
            position, evaluator, limit, self.c, self.seed, self.playout_plies, iterations or 0
        )


@hookimpl
def register_searchers(register: Callable[..., None]) -> None:
    """Register the compiled searchers."""
    register("minimax", Minimax, description="MiniMax (compiled)")
    register("negamax", Negamax, description="NegaMax (compiled)")
    register(
        "alphabeta",
        AlphaBeta,
        description="alpha-beta with every enhancement as an option (compiled)",
    )
    register("negascout", NegaScout, aliases=("pvs",), description="NegaScout / PVS (compiled)")
    register(
        "aspiration",
        Aspiration,
        description="iterative deepening with aspiration windows (compiled)",
    )
    register("null-move", NullMove, description="alpha-beta with null-move pruning (compiled)")
    register("mtdf", MTDF, description="MTD(f) over a memory-enhanced test (compiled)")
    register("mt-sss*", MTSSS, description="MT-SSS*: MTD from +infinity (compiled)")
    register("mt-dual*", MTDual, description="MT-DUAL*: MTD from -infinity (compiled)")
    register("scout", Scout, description="Pearl's Scout, TEST and EVAL (compiled)")
    register("sss*", SSS, description="Stockman's SSS* with an OPEN list (compiled)")
    register("dual*", Dual, description="Dual*, the mirror of SSS* (compiled)")
    register(
        "pn",
        ProofNumber,
        aliases=("df-pn",),
        description="depth-first proof-number search: proves a win, loss or draw (compiled)",
    )
    register(
        "mcts",
        MCTS,
        aliases=("uct",),
        description="Monte Carlo tree search with UCT, seeded (compiled)",
    )
