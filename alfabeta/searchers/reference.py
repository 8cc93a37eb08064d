"""The reference searchers: short, readable pure-Python versions of the basic algorithms over
the Python position API. They are the oracle the compiled searchers must match — same value,
same move, same node and leaf counts for the same options (design §4).

Conventions shared by all of them:

* ``nodes`` counts every position searched, the root included; ``leaves`` counts evaluator
  calls. A finished game is scored without the evaluator: a win or loss for the side to move
  at ply ``p`` is ``±(WIN - p)``, a draw 0. ``Result.LEAF`` positions and positions at the
  depth limit are scored by the evaluator (side-to-move view).
* Moves are tried in ``legal_moves()`` order; at the root a later move replaces the best one
  only if strictly better, so ties keep the first move.
* ``value`` is from the root mover's point of view. With no depth limit the game is searched
  to its end.
* A node limit is exact; the clock and a stop event are checked every 1,024 nodes. A search
  stopped early returns the best of the root moves it finished (``complete=False``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from attrs import define, field

from alfabeta.core import (
    INFINITY,
    MAX_PLY,
    WIN,
    InvalidOptionError,
    Limit,
    Position,
    Result,
    SearchResult,
    UnsupportedLimitError,
    loss_in,
    win_in,
)
from alfabeta.core.evaluator import as_evaluator
from alfabeta.plugins import hookimpl
from alfabeta.searchers.base import Aborted, Budget, Searcher, choice, each_move

UNLIMITED = 1 << 30


class _Run:
    """State of one search: position, evaluator, counters, budget."""

    def __init__(self, position: Position, evaluator: Any, limit: Limit) -> None:
        self.position = position
        self.evaluator = evaluator
        self.budget = Budget(limit)
        self.depth = UNLIMITED if limit.depth is None else limit.depth
        self.root_side = position.side_to_move
        self.leaves = 0
        self.cutoffs = 0
        self.tt_hits = 0
        self.seldepth = 0

    def static(self, depth: int, ply: int) -> int | None:
        """The side-to-move score of a node that is not expanded, or None to expand it."""
        self.budget.tick()
        self.seldepth = max(self.seldepth, ply)
        status = self.position.outcome()
        if status == Result.WIN:
            return win_in(ply)
        if status == Result.LOSS:
            return loss_in(ply)
        if status == Result.DRAW:
            return 0
        if status == Result.LEAF or depth <= 0:
            self.leaves += 1
            return self.evaluator.evaluate(self.position)
        return None

    def root(self, child_value: Callable[[int, int], tuple[int, tuple]]) -> SearchResult:
        """Search every root move with ``child_value(move, best_so_far)`` (root-mover view)
        and keep the first of the best."""
        self.evaluator.prepare(self.position)
        best_pv: tuple[int | None, ...] = ()
        best_move, best_value, complete = None, -INFINITY, True
        try:
            score = self.static(self.depth, 0)
            if score is not None:
                return self.result(None, score, (), True)
            for move in self.position.legal_moves():
                self.position.apply(move)
                try:
                    value, pv = child_value(move, best_value)
                finally:
                    self.position.retract(move)
                if value > best_value:
                    best_move, best_value, best_pv = move, value, (move, *pv)
        except Aborted:
            complete = False
            if best_move is None:
                moves = self.position.legal_moves()
                best_move, best_value = (moves[0] if moves else None), 0
                best_pv = (best_move,) if moves else ()
        return self.result(best_move, best_value, best_pv, complete)

    def result(self, move: Any, value: Any, pv: Any, complete: Any) -> SearchResult:
        return SearchResult(
            move=move,
            value=value,
            pv=tuple(pv),
            depth=(self.depth if self.depth != UNLIMITED else self.seldepth) if complete else 0,
            nodes=self.budget.nodes,
            leaves=self.leaves,
            tt_hits=self.tt_hits,
            cutoffs=self.cutoffs,
            elapsed=self.budget.elapsed(),
            complete=complete,
        )


def _opponent_error(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
        raise InvalidOptionError(
            f"{instance.name} option {attribute.name}={value!r}: expected a probability in [0, 1)"
        )


def erring_min(values: list[int], error: float) -> int:
    """The opponent-dependent value of a MIN node (seed-003 §1.8): with probability
    ``error`` the opponent misses its best reply and picks one of the others at random, so
    the node is worth (1 − p)·min + p·mean(others), rounded half up."""
    best = min(values)
    if len(values) == 1 or error == 0:
        return best
    others = list(values)
    others.remove(best)
    return math.floor((1 - error) * best + error * sum(others) / len(others) + 0.5)


@define
class PyMinimax(Searcher):
    """MiniMax in its textbook MAX/MIN form (seed-003 §1.1): MAX is the root mover.

    ``opponent_error=p`` values MIN nodes with ``erring_min``: the opponent-dependent MiniMax
    of seed-003 §1.8 (Berliner), which may prefer a losing line where the opponent can err."""

    name = "py-minimax"
    opponent_error: float = field(default=0.0, validator=_opponent_error, kw_only=True)

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """MiniMax to the limit's depth, in plain Python."""
        evaluator = as_evaluator(evaluator)
        run = _Run(position, evaluator, self.limit_for(limit))
        return run.root(lambda move, best: self._value(run, run.depth - 1, 1))

    def _value(self, run: _Run, depth: int, ply: int) -> tuple[int, tuple]:
        """The node's minimax value from the root mover's view, and its principal variation."""
        score = run.static(depth, ply)
        position = run.position
        if score is not None:
            return (score if position.side_to_move == run.root_side else -score), ()
        maximizing = position.side_to_move == run.root_side
        best: int | None = None
        best_pv: tuple[int, ...] = ()
        values: list[int] = []
        for move in each_move(run.position):
            value, pv = self._value(run, depth - 1, ply + 1)
            values.append(value)
            if best is None or (value > best if maximizing else value < best):
                best, best_pv = value, (move, *pv)
        if not maximizing and self.opponent_error:
            best = erring_min(values, self.opponent_error)
        assert best is not None  # static() scores a node without moves
        return best, best_pv


@define
class PyNegamax(Searcher):
    """NegaMax (seed-003 §1.13): one routine, child scores negated, no pruning."""

    name = "py-negamax"

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """NegaMax to the limit's depth, in plain Python."""
        evaluator = as_evaluator(evaluator)
        run = _Run(position, evaluator, self.limit_for(limit))

        def child(move: Any, best: Any) -> tuple[int, tuple]:
            value, pv = self._negamax(run, run.depth - 1, 1)
            return -value, pv

        return run.root(child)

    def _negamax(self, run: _Run, depth: int, ply: int) -> tuple[int, tuple]:
        """The node's value from the side to move's view, and its principal variation."""
        score = run.static(depth, ply)
        if score is not None:
            return score, ()
        best, best_pv = -INFINITY, ()
        for move in each_move(run.position):
            value, pv = self._negamax(run, depth - 1, ply + 1)
            if -value > best:
                best, best_pv = -value, (move, *pv)
        return best, best_pv


@define
class PyAlphaBeta(Searcher):
    """Alpha-beta in negamax form (seed-003 §1.2), cutting when α ≥ β.

    ``fail="hard"`` (the document's version) returns a value clamped to the window: β on a
    cut-off, α when no move raised it; ``fail="soft"`` returns the best value found, which
    may lie outside the window (an upper bound if ≤ α, a lower bound if ≥ β). Leaves are never
    clamped. ``root="shared"`` passes the best root value so far as α to later root moves;
    ``root="independent"`` searches each root move with a full window (the document's literal
    root loop: no pruning at the root's children).
    """

    name = "py-alphabeta"
    fail: str = field(default="hard", validator=choice("hard", "soft"), kw_only=True)
    root: str = field(default="shared", validator=choice("shared", "independent"), kw_only=True)

    def search(
        self,
        position: Position,
        evaluator: Any,
        limit: Limit | None = None,
        on_node: Callable[[str, int, int, int], None] | None = None,
    ) -> SearchResult:
        """Alpha-beta to the limit's depth, in plain Python. ``on_node(position text, alpha,
        beta, value)`` sees every node below the root as it returns, with the window it was
        searched with (side to move's view): for teaching and the web page's tree view."""
        evaluator = as_evaluator(evaluator)
        run = _Run(position, evaluator, self.limit_for(limit))

        def child(move: Any, best: Any) -> tuple[int, tuple]:
            alpha = best if self.root == "shared" else -INFINITY
            value, pv = self._alphabeta(run, run.depth - 1, 1, -INFINITY, -alpha, on_node)
            return -value, pv

        return run.root(child)

    def _alphabeta(
        self,
        run: _Run,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        on_node: Callable[[str, int, int, int], None] | None = None,
    ) -> tuple[int, tuple]:
        value, pv = self._node(run, depth, ply, alpha, beta, on_node)
        if on_node is not None:
            on_node(run.position.to_string(), alpha, beta, value)
        return value, pv

    def _node(
        self,
        run: _Run,
        depth: int,
        ply: int,
        alpha: int,
        beta: int,
        on_node: Callable[[str, int, int, int], None] | None,
    ) -> tuple[int, tuple]:
        score = run.static(depth, ply)
        if score is not None:
            return score, ()
        best, best_pv = -INFINITY, ()
        for move in each_move(run.position):
            value, pv = self._alphabeta(run, depth - 1, ply + 1, -beta, -max(alpha, best), on_node)
            value = -value
            if value > best:
                best, best_pv = value, (move, *pv)
            if best >= beta:
                run.cutoffs += 1
                return (beta if self.fail == "hard" else best), best_pv
        if self.fail == "hard":
            return max(alpha, best), (best_pv if best > alpha else ())
        return best, best_pv


@define
class PySolve(Searcher):
    """Exact game value by exhaustive negamax with a memo table on ``key()``.

    For games whose outcome does not depend on the path (no repetition rule): it solves small
    games to the end (Fibonacci nim, tic-tac-toe) where a plain tree search would revisit the
    same positions exponentially often. ``tt_hits`` counts memo hits; a depth limit is refused.
    ``persistent=True`` keeps the memo between searches (for solving many positions of one
    game; the table is keyed by ``key()`` alone).
    """

    name = "py-solve"
    persistent: bool = field(default=False, validator=choice(True, False), kw_only=True)
    _memo: dict = field(factory=dict, init=False, repr=False, eq=False)

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """The exact value by exhaustive negamax over the memo table, in plain Python."""
        evaluator = as_evaluator(evaluator)
        limit = self.limit_for(limit)
        if limit.depth is not None:
            raise UnsupportedLimitError("py-solve searches to the end; give no depth")
        run = _Run(position, evaluator, limit)
        memo = self._memo if self.persistent else {}

        return run.root(lambda move, best: (_toward_zero(-self._solve(run, memo)), ()))

    def _solve(self, run: _Run, memo: dict[int, int]) -> int:
        """The node's value from the side to move, a proven result counted from this node."""
        key = run.position.key()
        if key in memo:
            run.tt_hits += 1
            return memo[key]
        score = run.static(UNLIMITED, 0)
        if score is None:
            score = -INFINITY
            for _ in each_move(run.position):
                score = max(score, _toward_zero(-self._solve(run, memo)))
        memo[key] = score
        return score


def _toward_zero(score: int) -> int:
    """A child's proven score seen one ply further up: one ply longer to the end."""
    if score >= WIN - MAX_PLY:
        return score - 1
    if score <= -(WIN - MAX_PLY):
        return score + 1
    return score


@hookimpl
def register_searchers(register: Callable[..., None]) -> None:
    """Register the pure-Python reference searchers."""
    register("py-minimax", PyMinimax, description="pure-Python MiniMax (reference oracle)")
    register("py-negamax", PyNegamax, description="pure-Python NegaMax (reference oracle)")
    register(
        "py-alphabeta",
        PyAlphaBeta,
        description="pure-Python alpha-beta, fail=hard|soft, root=shared|independent",
    )
    register(
        "py-solve",
        PySolve,
        description="pure-Python exhaustive solver with a memo table (small acyclic games)",
    )
