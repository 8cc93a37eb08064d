"""The conformance kit for plugin authors.

The game, evaluator and searcher contracts as checks (``check_game``, ``check_evaluator``,
``check_searcher``) that raise :class:`ContractViolation` naming the broken rule, and a pytest
plugin that runs them::

    pytest --alfabeta-game "mygame(size=5)" --alfabeta-evaluator mine --alfabeta-searcher best

(see ``alfabeta.testing.plugin``; ``RULES`` lists every rule)."""

from alfabeta.testing.contract import (
    RULES,
    ContractViolation,
    check_evaluator,
    check_game,
    check_searcher,
    playout_positions,
)

__all__ = [
    "RULES",
    "ContractViolation",
    "check_evaluator",
    "check_game",
    "check_searcher",
    "playout_positions",
]
