"""Every hook alfabeta calls, with its exact signature. ``docs/hooks.md`` documents each one and
a test checks that the two agree.

Registration hooks hand the plugin a ``register`` callback into a registry the host owns::

    register(name, factory, *, aliases=(), description="", games=())

``factory`` is called with the options of a ``name(key=value, ...)`` specification. For a game
it returns a Position (or a plain-Python game object, which the host wraps); for a searcher,
an object with ``search(position, evaluator, limit)``; for an evaluator, an Evaluator or a
plain callable ``f(position) -> int``. ``games`` (evaluators only) names the games it applies
to. A name already taken, or a hook that raises, is reported with the plugin's distribution
and the other plugins keep loading.

Observer hooks let plugins follow searches and games without owning them; their return values
are ignored and an observer that raises is reported, not fatal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from alfabeta.plugins.markers import hookspec

if TYPE_CHECKING:
    from alfabeta.arena.play import GameRecord
    from alfabeta.core import Evaluator, Limit, Move, Position, SearchResult, Side

Register = Callable[..., None]


@hookspec
def register_games(register: Register) -> None:
    """Register game factories: ``register("trgd", TRGD, description=...)``."""


@hookspec
def register_searchers(register: Register) -> None:
    """Register searcher factories: ``register("py-alphabeta", PyAlphaBeta, aliases=(...))``."""


@hookspec
def register_evaluators(register: Register) -> None:
    """Register evaluator factories: ``register("trgd-lines", TRGDLines, games=("trgd",))``."""


@hookspec
def search_started(
    position: Position, searcher: Any, evaluator: Evaluator, limit: Limit | None
) -> None:
    """A search is about to start from ``position`` (do not modify it)."""


@hookspec
def search_finished(
    position: Position, searcher: Any, evaluator: Evaluator, result: SearchResult
) -> None:
    """A search from ``position`` returned ``result`` (a SearchResult)."""


@hookspec
def move_played(position: Position, move: Move, side: Side, result: SearchResult | None) -> None:
    """``side`` played ``move``; ``position`` is the position after it. ``result`` is the
    SearchResult that chose the move, or None for a human or book move."""


@hookspec
def game_finished(record: GameRecord) -> None:
    """A game ended; ``record`` is its GameRecord (moves, outcome, players)."""
