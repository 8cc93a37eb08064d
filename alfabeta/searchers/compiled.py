"""The compiled searchers, registered by name. Each takes the same options as its reference
twin in ``reference.py`` and returns the same SearchResult, counts included, faster."""

from __future__ import annotations

from attrs import define

from alfabeta.core import Limit, Position, SearchResult
from alfabeta.plugins import hookimpl
from alfabeta.searchers import basic
from alfabeta.searchers.reference import PyAlphaBeta, PyMinimax, PyNegamax


@define
class Minimax(PyMinimax):
    """MiniMax in MAX/MIN form, compiled."""

    name = "minimax"

    def search(self, position: Position, evaluator, limit: Limit | None = None) -> SearchResult:
        return basic.search(position, evaluator, self.limit_for(limit), basic.ALGO_MINIMAX)


@define
class Negamax(PyNegamax):
    """NegaMax without pruning, compiled."""

    name = "negamax"

    def search(self, position: Position, evaluator, limit: Limit | None = None) -> SearchResult:
        return basic.search(position, evaluator, self.limit_for(limit), basic.ALGO_NEGAMAX)


@define
class AlphaBeta(PyAlphaBeta):
    """Alpha-beta (fail-hard or fail-soft), compiled; see PyAlphaBeta for the options."""

    name = "alphabeta"

    def search(self, position: Position, evaluator, limit: Limit | None = None) -> SearchResult:
        return basic.search(
            position,
            evaluator,
            self.limit_for(limit),
            basic.ALGO_ALPHABETA,
            self.fail == "soft",
            self.root == "shared",
        )


@hookimpl
def register_searchers(register):
    register("minimax", Minimax, description="MiniMax (compiled)")
    register("negamax", Negamax, description="NegaMax (compiled)")
    register(
        "alphabeta",
        AlphaBeta,
        description="alpha-beta, fail=hard|soft, root=shared|independent (compiled)",
    )
