"""The procedures of Márquez's 1991 thesis (seed-004 §4), ported faithfully so that its
printed and computed values can be checked, over any game of the position contract.

* ``jugada`` — the Min-Max program (JUGADA/EV, L2295–2321): EV is h at depth ``cota`` or where
  there is no successor, the maximum at even depth and the minimum at odd depth; the move is
  the first of the root children sorted by value, descending (a stable sort), and every tied
  move is reported. The thesis's program has no win detection: here a finished game has no
  successors, so it is scored by h like any leaf.
* ``reachable_graph``, ``kernel`` and ``evaluation_sets`` — the formal game of Ch. I: the
  graph of reachable states, its kernel (Def I.1.6, Prop I.1.7) and the evaluation sets
  V₁, V₂, … of Def I.2.12, over any explicit graph (a dict state -> successor states).
* ``valor_a`` / ``valor_b`` and ``jug_ab`` — the α-β program (L3041–3104, L3288–3384):
  "shallow" α-β in which each child receives only its parent's provisional value (NIL at
  first; a comparison with NIL is false), a TERMINAL test before expansion (a game lost for
  MAX at a MAX node scores −``win_value``, one lost for MIN at a MIN node +``win_value``),
  and MEJOR, which keeps the **last** root child of maximum value. JUG-AB evaluates each root
  child with VALOR-B(child, NIL).

h is the evaluator seen from MAX (the root mover): its side-to-move score, negated at MIN
nodes. ``trgd-lines(thesis=true)`` reproduces the thesis's depth-parity H through this.

Registered as the searchers ``thesis-minimax`` (JUGADA) and ``thesis-alphabeta`` (JUG-AB)
with the option ``cota`` (default: the depth limit; without either, the game's own
``thesis_cota()`` where it has one — TRGD's is the thesis's rule, 1 + MAX's pieces on the
board). The α-β kernel itself (VALOR-A/B, MEJOR) is ``core/thesis_kernel.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import define, field, frozen

from alfabeta.core import InvalidOptionError, Limit, Position, Result, SearchResult
from alfabeta.core.evaluator import as_evaluator
from alfabeta.core.thesis_kernel import mejor, valor
from alfabeta.plugins import hookimpl
from alfabeta.searchers.base import Searcher, each_move, whole

THESIS_WIN = 100  # the α-β program's TERMINAL score


@frozen
class GameGraph:
    """The reachable states of a game from its root, by ``to_string()``: ``successors`` maps a
    state to the states one legal move away; ``ours`` is T (the root mover to move); ``won``
    is G (finished, lost for the opponent to move) and ``lost`` is P (lost for us to move)."""

    root: str
    successors: dict[str, tuple[str, ...]]
    ours: frozenset[str]
    won: frozenset[str]
    lost: frozenset[str]


def reachable_graph(position: Position) -> GameGraph:
    """Explore every state reachable from ``position`` (depth first, each state once)."""
    root_side = position.side_to_move
    successors: dict[str, tuple[str, ...]] = {}
    ours: set[str] = set()
    won: set[str] = set()
    lost: set[str] = set()
    work = position.copy()

    def visit() -> str:
        state = work.to_string()
        if state in successors:
            return state
        successors[state] = ()
        if work.side_to_move == root_side:
            ours.add(state)
        if work.outcome() == Result.LOSS:
            (lost if work.side_to_move == root_side else won).add(state)
        children = []
        for move in work.legal_moves():
            work.apply(move)
            try:
                children.append(visit())
            finally:
                work.retract(move)
        successors[state] = tuple(children)
        return state

    visit()
    return GameGraph(work.to_string(), successors, frozenset(ours), frozenset(won), frozenset(lost))


def kernel(successors: dict) -> set:
    """The kernel of an acyclic graph (Prop I.1.7): K₀ = the sinks; then the states all of
    whose successors have a successor in K so far, and none in it."""
    inside: set = {s for s, succ in successors.items() if not succ}
    changed = True
    while changed:
        changed = False
        for state, succ in successors.items():
            if state in inside or any(t in inside for t in succ):
                continue
            if all(any(u in inside for u in successors[t]) for t in succ):
                inside.add(state)
                changed = True
    return inside


def evaluation_sets(successors: dict, won: set) -> list[set]:
    """V₁, V₂, … of Def I.2.12: V₁ = {s : R(s) ∩ G ≠ ∅}; V_{i+1} = the states not yet in a V
    with a move to a t such that ∅ ≠ R(t) ⊆ V₁ ∪ … ∪ V_i. Stops at the first empty set."""
    levels = [{s for s, succ in successors.items() if any(t in won for t in succ)}]
    so_far = set(levels[0])
    while levels[-1]:
        level = {
            s
            for s, succ in successors.items()
            if s not in so_far
            and any(successors[t] and all(u in so_far for u in successors[t]) for t in succ)
        }
        levels.append(level)
        so_far |= level
    return levels[:-1]


@frozen
class ThesisChoice:
    """What a thesis procedure chose at the root: the move, its value (MAX's view), every root
    child's value in generation order, the moves tied at the best value, and the counts:
    ``nodes`` (calls of EV or VALOR-A/B, i.e. positions below the root) and ``leaves``
    (evaluations of h)."""

    move: int | None
    value: int | None
    root_values: tuple[tuple[int, int | None], ...]
    ties: tuple[int, ...]
    nodes: int
    leaves: int


class _Thesis:
    def __init__(
        self, position: Position, evaluator: Any, cota: int, win_value: int = THESIS_WIN
    ) -> None:
        self.position = position
        self.evaluator = evaluator
        self.cota = cota
        self.win_value = win_value
        self.max_side = position.side_to_move
        self.nodes = 0
        self.leaves = 0

    def h(self) -> int:
        self.leaves += 1
        score = self.evaluator.evaluate(self.position)
        return score if self.position.side_to_move == self.max_side else -score

    # ---- Min-Max ---------------------------------------------------------------------------
    def ev(self, depth: int) -> int:
        self.nodes += 1
        moves = self.position.legal_moves()
        if depth == self.cota or not moves:
            return self.h()
        values = [self.ev(depth + 1) for _ in each_move(self.position)]
        return max(values) if depth % 2 == 0 else min(values)

    # ---- α-β -------------------------------------------------------------------------------
    def terminal(self, at_max_node: bool) -> int | None:
        if self.position.outcome() == Result.LOSS:
            return -self.win_value if at_max_node else self.win_value
        if self.position.outcome() == Result.WIN:
            return self.win_value if at_max_node else -self.win_value
        return None

    def expand(self, depth: int, at_max: bool) -> Any:
        """For ``valor``: the TERMINAL score, h at the depth bound or where no move is left,
        else the children (each yielded with its move made)."""
        self.nodes += 1
        ended = self.terminal(at_max_node=at_max)
        if ended is not None:
            return ended
        if depth == self.cota or not self.position.legal_moves():
            return self.h()
        return (depth + 1 for _ in each_move(self.position))


def _choice(
    run: _Thesis,
    values: Sequence[tuple[int, int | None]],
    move: int | None,
    value: int | None,
) -> ThesisChoice:
    ties = tuple(m for m, v in values if v == value)
    return ThesisChoice(move, value, tuple(values), ties, run.nodes, run.leaves)


def jugada(position: Position, evaluator: Any, cota: int) -> ThesisChoice:
    """The Min-Max program's JUGADA: EV of every root child, sorted descending (stably)."""
    run = _Thesis(position, evaluator, cota)
    evaluator.prepare(position)
    values = [(move, run.ev(1)) for move in each_move(position)]
    ranked = sorted(values, key=lambda mv: mv[1], reverse=True)
    move, value = ranked[0] if ranked else (None, None)
    return _choice(run, values, move, value)


def valor_a(
    position: Position, evaluator: Any, cota: int, win_value: int = THESIS_WIN
) -> tuple[int | None, int, int]:
    """(VALOR-A(root, NIL), nodes visited including the root, leaves evaluated)."""
    run = _Thesis(position, evaluator, cota, win_value)
    evaluator.prepare(position)
    value = valor(run.expand, 0, True, None)
    return value, run.nodes, run.leaves


def jug_ab(
    position: Position, evaluator: Any, cota: int, win_value: int = THESIS_WIN
) -> ThesisChoice:
    """The α-β program's JUG-AB: VALOR-B(child, NIL) for every root child, then MEJOR."""
    run = _Thesis(position, evaluator, cota, win_value)
    evaluator.prepare(position)
    values = [(move, valor(run.expand, 1, False, None)) for move in each_move(position)]
    move, value = mejor(values)
    return _choice(run, values, move, value)


@define
class _ThesisSearcher(Searcher):
    cota: int | None = field(default=None, validator=whole(1), kw_only=True)

    @staticmethod
    def procedure(position: Position, evaluator: Any, cota: int) -> ThesisChoice:
        """The thesis's root procedure (each subclass gives its own)."""
        raise NotImplementedError

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        evaluator = as_evaluator(evaluator)
        limit = self.limit_for(limit)
        cota = self.cota or limit.depth
        if cota is None:
            game_cota = getattr(position, "thesis_cota", None)
            if game_cota is None:
                raise InvalidOptionError(f"{self.name} needs cota=N (or a depth limit)")
            cota = game_cota()
        choice = self.procedure(position, evaluator, cota)
        return SearchResult(
            move=choice.move,
            value=choice.value or 0,
            depth=cota,
            nodes=choice.nodes + 1,
            leaves=choice.leaves,
            pv=(choice.move,) if choice.move is not None else (),
        )


@define
class ThesisMinimax(_ThesisSearcher):
    """JUGADA/EV of the thesis's Min-Max program."""

    name = "thesis-minimax"

    @staticmethod
    def procedure(position: Position, evaluator: Any, cota: Any) -> ThesisChoice:
        """The thesis's JUGADA."""
        return jugada(position, evaluator, cota)


@define
class ThesisAlphaBeta(_ThesisSearcher):
    """JUG-AB with VALOR-A/VALOR-B and MEJOR of the thesis's α-β program."""

    name = "thesis-alphabeta"

    @staticmethod
    def procedure(position: Position, evaluator: Any, cota: Any) -> ThesisChoice:
        """The thesis's JUG-AB."""
        return jug_ab(position, evaluator, cota)


@hookimpl
def register_searchers(register: Callable[..., None]) -> None:
    """Register the thesis's two programs."""
    register(
        "thesis-minimax",
        ThesisMinimax,
        description="the 1991 thesis's Min-Max program (JUGADA/EV), option cota",
    )
    register(
        "thesis-alphabeta",
        ThesisAlphaBeta,
        description="the 1991 thesis's shallow α-β (JUG-AB, VALOR-A/B, MEJOR), option cota",
    )
