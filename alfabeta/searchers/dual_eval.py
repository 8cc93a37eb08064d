"""The dual search of seed-001 (T:2893-2905): the same search run twice on the same position,
once with the plain evaluation and once with the evaluator given (the emotional one), both
principal variations and values kept, and the second search's move played.

``dual-eval(searcher=SPEC)`` wraps any searcher. The plain evaluation is the evaluator's
``plain()`` (the emotional evaluator returns its base terms with ε = 0). With ``log=FILE``
both searches are a fixed-depth alpha-beta (``py-alphabeta``'s tree, node for node) that
writes one JSON line per node, as T's program recorded its trees (T:2925-2950): the search
("plain" or "emotional"), the path of sibling numbers from the root, the depth, the move that
led there, the value from the program's (root mover's) view, and for inner nodes the number of
branches and the chosen one (1-based; none when every move was cut off), for leaves the
evaluator's per-term values.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import IO, Any

from attrs import define, field, frozen

from alfabeta.core import INFINITY, InvalidOptionError, Limit, Position, SearchResult
from alfabeta.core.evaluator import as_evaluator
from alfabeta.plugins import hookimpl
from alfabeta.searchers.base import Searcher
from alfabeta.searchers.reference import PyAlphaBeta, _Run

DEFAULT_SEARCHER = "negascout(tt=on, iterative=on, quiescence=on)"
LOGGED_SEARCHERS = ("alphabeta", "py-alphabeta")


@frozen
class DualResult:
    """Both searches of one position: ``plain`` (ε = 0) and ``emotional`` (the one played)."""

    plain: SearchResult
    emotional: SearchResult

    @property
    def differ(self) -> bool:
        """Whether the two searches chose different moves."""
        return self.plain.move != self.emotional.move


@cache
def _catalog() -> Any:
    from alfabeta.plugins.catalog import load_catalog

    return load_catalog()


def _plain_of(evaluator: Any) -> Any:
    plain = getattr(evaluator, "plain", None)
    if plain is None:
        raise InvalidOptionError(
            f"dual-eval compares an evaluator with its plain base; {evaluator!r} has no "
            "plain() (use emotional)"
        )
    return plain()


@define
class DualEval(Searcher):
    """Search with the plain evaluation and with the given one; return the second's result
    (``last`` holds both). ``searcher`` is the inner searcher's spec; ``log`` a JSON Lines
    file for the node records (then the inner search is a fixed-depth alpha-beta)."""

    name = "dual-eval"
    searcher: str | None = field(default=None, kw_only=True)
    log: str | None = field(default=None, kw_only=True)
    _inner: Any = field(default=None, init=False, repr=False, eq=False)
    _last: DualResult | None = field(default=None, init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        spec = self.searcher or DEFAULT_SEARCHER
        if self.log is not None:
            if self.searcher is not None and self.searcher.split("(")[0].strip() not in (
                LOGGED_SEARCHERS
            ):
                raise InvalidOptionError(
                    f"dual-eval: log= records a fixed-depth alpha-beta's tree; searcher "
                    f"{self.searcher!r} cannot be logged node by node (leave searcher out)"
                )
            self._inner = _LoggedAlphaBeta()
        else:
            self._inner = _catalog().searcher(spec)

    @property
    def last(self) -> DualResult | None:
        """Both results of the latest search."""
        return self._last

    def limit_for(self, limit: Limit | None) -> Limit:
        """The limit, as the inner searcher would take it."""
        own = Limit(depth=self.depth, nodes=self.nodes, time=self.time)
        merged = own.merged(limit)
        if self.log is not None:
            merged = self._inner.limit_for(merged)
            if merged.depth is None:
                raise InvalidOptionError("dual-eval with log= needs a depth limit")
        return merged

    def search(
        self, position: Position, evaluator: Any, limit: Limit | None = None
    ) -> SearchResult:
        """Search with the plain and the given evaluation; play the given evaluation's move."""
        evaluator = as_evaluator(evaluator)
        plain = _plain_of(evaluator)
        limit = self.limit_for(limit)
        if self.log is None:
            first = self._inner.search(position, plain, limit)
            second = self._inner.search(position, evaluator, limit)
        else:
            with open(self.log, "a", encoding="utf-8") as sink:
                first = self._inner.logged(position, plain, limit, sink, "plain")
                second = self._inner.logged(position, evaluator, limit, sink, "emotional")
        self._last = DualResult(first, second)
        return second


def _terms(evaluator: Any, position: Position) -> dict[str, float]:
    report = getattr(evaluator, "report", None)
    if report is not None:
        return {k: t["weighted"] for k, t in report(position)["terms"].items()}
    explain = getattr(evaluator, "explain", None)
    return dict(explain(position)) if explain else {}


class _LoggedAlphaBeta(PyAlphaBeta):
    """``py-alphabeta`` (fail-hard, shared root window) writing a record per node."""

    def logged(
        self, position: Position, evaluator: Any, limit: Limit | None, sink: IO[str], label: str
    ) -> SearchResult:
        run = _Run(position, evaluator, self.limit_for(limit))
        root_side = position.side_to_move
        path: list[int] = []  # sibling numbers from the root to the current node
        values: list[int] = []  # the root moves' values, in order

        def write(record: dict) -> None:
            sink.write(json.dumps({"search": label, **record}) + "\n")

        def node(depth: int, ply: int, alpha: int, beta: int, move: str) -> tuple[int, tuple]:
            score = run.static(depth, ply)
            view = 1 if position.side_to_move == root_side else -1
            record = {
                "path": list(path),
                "sibling": path[-1],
                "depth": ply,
                "move": move,
            }
            if score is not None:
                record.update(value=view * score, leaf=True)
                if not position.is_over():
                    record["terms"] = _terms(evaluator, position)
                write(record)
                return score, ()
            best, best_pv, chosen, branches, cut = -INFINITY, (), None, 0, False
            for index, reply in enumerate(position.legal_moves(), 1):
                branches += 1
                if cut:
                    continue  # counted as a branch, not searched
                name = position.move_str(reply)
                position.apply(reply)
                path.append(index)
                try:
                    value, pv = node(depth - 1, ply + 1, -beta, -max(alpha, best), name)
                finally:
                    path.pop()
                    position.retract(reply)
                if -value > best:
                    best, best_pv, chosen = -value, (reply, *pv), index
                if best >= beta:
                    run.cutoffs += 1
                    cut = True
            raised = cut or best > alpha
            result = beta if cut else max(alpha, best)
            record.update(value=view * result, branches=branches, chosen=chosen if raised else None)
            write(record)
            return result, (best_pv if raised else ())

        def root_child(move: int, best: int) -> tuple[int, tuple]:
            path.append(len(values) + 1)
            try:
                value, pv = node(run.depth - 1, 1, -INFINITY, -best, names[move])
            finally:
                path.pop()
            values.append(-value)
            return -value, pv

        moves = position.legal_moves()
        names = {move: position.move_str(move) for move in moves}
        result = run.root(root_child)
        write(
            {
                "path": [],
                "sibling": 1,
                "depth": 0,
                "move": None,
                "value": result.value,
                "branches": len(moves),
                "chosen": moves.index(result.move) + 1 if result.move in moves else None,
            }
        )
        return result


@hookimpl
def register_searchers(register: Callable[..., None]) -> None:
    """Register dual-eval."""
    register(
        "dual-eval",
        DualEval,
        description="search with the plain and the given (emotional) evaluation, play the "
        "second; log=FILE records every node (seed-001's dual search)",
    )
