"""The conformance kit as a pytest plugin (entry point ``pytest11``), off unless asked for.

``--alfabeta-game SPEC``, ``--alfabeta-evaluator SPEC`` and ``--alfabeta-searcher SPEC``
(each repeatable) add one test per plugin named, run on the plugins installed (the
``alfabeta`` entry points). Evaluators are checked on ``--alfabeta-on GAME`` (default: the
first game the evaluator names), searchers on ``--alfabeta-on`` (default ``tictactoe``) with
that game's default evaluator; ``--alfabeta-exact`` also checks a searcher's value against
minimax on random trees. ``--alfabeta-playouts`` and ``--alfabeta-seed`` set the random
play. A failure names the broken rule: ``[unmake-restores] push then pop restores …``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from alfabeta.core import AlfabetaError
from alfabeta.testing.contract import ContractViolation, check_evaluator, check_game, check_searcher

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

SEARCH_GAME = "tictactoe"
EXACT_TREES = 8


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the ``--alfabeta-…`` options of the conformance kit."""
    group = parser.getgroup("alfabeta", "alfabeta conformance kit")
    group.addoption(
        "--alfabeta-game",
        action="append",
        default=[],
        metavar="SPEC",
        help="check a game plugin against the position contract",
    )
    group.addoption(
        "--alfabeta-evaluator",
        action="append",
        default=[],
        metavar="SPEC",
        help="check an evaluator plugin",
    )
    group.addoption(
        "--alfabeta-searcher",
        action="append",
        default=[],
        metavar="SPEC",
        help="check a searcher plugin",
    )
    group.addoption(
        "--alfabeta-on", metavar="GAME", help="the game evaluators and searchers are checked on"
    )
    group.addoption(
        "--alfabeta-exact",
        action="store_true",
        help="searchers must return the minimax value on random trees",
    )
    group.addoption(
        "--alfabeta-playouts",
        type=int,
        default=6,
        metavar="N",
        help="random games per game checked (default 6)",
    )
    group.addoption(
        "--alfabeta-seed",
        type=int,
        default=0,
        metavar="S",
        help="seed of the random play (default 0)",
    )


class ContractItem(pytest.Item):
    """One plugin checked against its contract."""

    def __init__(self, *, check: Callable[[], Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check

    def runtest(self) -> None:
        """Run the rule's check."""
        self.check()

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        """A broken rule is reported in one line that names it."""
        if isinstance(excinfo.value, (ContractViolation, AlfabetaError)):
            return f"{self.name}: {excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, None, str]:
        """Where pytest reports the rule."""
        return self.path, None, self.name


def _checks(config: pytest.Config) -> list[tuple[str, Callable[[], Any]]]:
    from alfabeta.plugins.catalog import load_catalog

    option = config.getoption
    playouts, seed = option("alfabeta_playouts"), option("alfabeta_seed")
    catalog = None

    def loaded() -> Any:
        nonlocal catalog
        catalog = catalog or load_catalog()
        return catalog

    checks: list[tuple[str, Callable[[], Any]]] = []
    for spec in option("alfabeta_game"):

        def game_check(spec: str = spec) -> int:
            return check_game(loaded().game(spec), playouts, seed)

        checks.append((f"alfabeta-game[{spec}]", game_check))
    for spec in option("alfabeta_evaluator"):

        def evaluator_check(spec: str = spec) -> int:
            game = option("alfabeta_on") or _first_game(loaded(), spec)
            position = loaded().game(game)
            return check_evaluator(
                loaded().evaluator(spec, position), position, max(1, playouts // 2), seed
            )

        checks.append((f"alfabeta-evaluator[{spec}]", evaluator_check))
    for spec in option("alfabeta_searcher"):

        def searcher_check(spec: str = spec) -> int:
            position = loaded().game(option("alfabeta_on") or SEARCH_GAME)
            cases = _exact_cases(loaded(), seed) if option("alfabeta_exact") else ()
            return check_searcher(
                lambda: loaded().searcher(spec),
                position,
                loaded().default_evaluator(position),
                seed=seed,
                exact_cases=cases,
            )

        checks.append((f"alfabeta-searcher[{spec}]", searcher_check))
    return checks


def _first_game(catalog: Catalog, spec: str) -> str:
    from alfabeta.plugins.spec import parse_spec

    name, _ = parse_spec(spec)
    entry = catalog.evaluators.get(name)
    games = tuple(getattr(entry, "games", ()) or ())
    if not games:
        raise AlfabetaError(f"evaluator {name!r} names no game: give --alfabeta-on GAME")
    return games[0]


def _exact_cases(catalog: Catalog, seed: int) -> list:
    """Random trees with their minimax values (from the pure-Python ``py-minimax``)."""
    from alfabeta.core import Limit

    cases = []
    oracle = catalog.searcher("py-minimax")
    for index in range(EXACT_TREES):
        tree = catalog.game(f"tree(branching=3, depth=4, seed={seed * 1000 + index})")
        leaves = catalog.default_evaluator(tree)
        cases.append((tree, leaves, oracle.search(tree, leaves, Limit(depth=64)).value))
    return cases


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add one test item per rule of the kit for the plugin the options name."""
    for name, check in _checks(config):
        items.append(ContractItem.from_parent(session, name=name, check=check))
