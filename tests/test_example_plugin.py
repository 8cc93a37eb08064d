"""The example third-party plugin in examples/ works with everything already there."""

import importlib.util
from pathlib import Path

from alfabeta import load_catalog
from alfabeta.core import Limit

PLUGIN = (
    Path(__file__).parent.parent
    / "examples"
    / "alfabeta-subtraction"
    / "alfabeta_subtraction"
    / "plugin.py"
)


def load_example():
    spec = importlib.util.spec_from_file_location("alfabeta_subtraction_plugin", PLUGIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return load_catalog(autoload=False, plugins=[("subtraction", module)])


def test_the_example_plugin_registers_and_every_searcher_plays_it_exactly():
    catalog = load_example()
    assert catalog.failures == [] and "subtraction" in catalog.games
    position = catalog.game("subtraction(n=21, k=3)")
    evaluator = catalog.default_evaluator(position)
    for spec in ("alphabeta", "negascout", "mtdf(iterative=off)", "py-alphabeta", "minimax"):
        result = catalog.searcher(spec).search(position, evaluator, Limit(depth=4))
        assert result.move == 1, spec  # 21 - 1 = 20, a multiple of 4: the opponent loses


def test_the_example_declares_its_entry_point():
    import tomllib

    project = tomllib.loads((PLUGIN.parent.parent / "pyproject.toml").read_text())
    assert project["project"]["entry-points"]["alfabeta"] == {
        "subtraction": "alfabeta_subtraction.plugin"
    }
