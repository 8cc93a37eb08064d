"""Plugin loading: entry points, fault tolerance, duplicates, block list, autoload switch,
name(key=value) specs, unknown names with suggestions, observer hooks, hook documentation."""

import inspect
import re
import sys
import textwrap
from pathlib import Path

import pytest
import tomllib

from alfabeta import load_catalog
from alfabeta.arena import SearchPlayer, play_game
from alfabeta.core import (
    IncompatibleEvaluatorError,
    InvalidOptionError,
    SpecSyntaxError,
    UnknownPluginError,
)
from alfabeta.plugins import hookimpl, hookspecs
from alfabeta.plugins.catalog import BUILTIN_PLUGINS
from alfabeta.plugins.spec import format_spec, parse_spec

ROOT = Path(__file__).resolve().parent.parent


def make_distribution(
    root: Path, dist: str, version: str, entry_points: dict[str, str], modules: dict[str, str]
) -> None:
    """Write an installed-looking distribution (module files + dist-info) under ``root``."""
    for name, source in modules.items():
        (root / f"{name}.py").write_text(textwrap.dedent(source))
    info = root / f"{dist.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    lines = "\n".join(f"{k} = {v}" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[alfabeta]\n{lines}\n")


GOOD_PLUGIN = """
    from alfabeta.plugins import hookimpl
    from alfabeta.games.tictactoe import TicTacToe

    class TinyGame(TicTacToe):
        name = "tiny"

    @hookimpl
    def register_games(register):
        register("tiny", TinyGame, description="a third-party game")

    @hookimpl
    def register_evaluators(register):
        register("zero", lambda position: 0, games=("tiny",))
"""


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("thirdparty_")]:
        del sys.modules[name]


def test_an_installed_distribution_is_found_through_its_entry_point(site):
    make_distribution(
        site,
        "alfabeta-tiny",
        "1.2.3",
        {"tiny": "thirdparty_tiny"},
        {"thirdparty_tiny": GOOD_PLUGIN},
    )
    catalog = load_catalog()
    assert catalog.failures == []
    entry = catalog.games.get("tiny")
    assert catalog.plugin_info(entry.origin).distribution == "alfabeta-tiny"
    assert catalog.plugin_info(entry.origin).version == "1.2.3"
    position = catalog.game("tiny")
    assert catalog.evaluator("zero", position).evaluate(position) == 0


def test_a_broken_plugin_is_reported_with_its_distribution_and_the_rest_load(site):
    make_distribution(
        site,
        "alfabeta-broken",
        "0.1",
        {"broken": "thirdparty_broken"},
        {"thirdparty_broken": "import not_a_module_anywhere\n"},
    )
    make_distribution(
        site,
        "alfabeta-tiny",
        "1.2.3",
        {"tiny": "thirdparty_tiny"},
        {"thirdparty_tiny": GOOD_PLUGIN},
    )
    catalog = load_catalog()
    [failure] = catalog.failures
    assert (failure.plugin, failure.distribution, failure.version) == (
        "broken",
        "alfabeta-broken",
        "0.1",
    )
    assert "not_a_module_anywhere" in failure.error
    assert "tiny" in catalog.games and "trgd" in catalog.games


def test_a_plugin_whose_hook_raises_is_reported_and_registers_nothing(site):
    make_distribution(
        site,
        "alfabeta-raising",
        "2.0",
        {"raising": "thirdparty_raising"},
        {
            "thirdparty_raising": """
            from alfabeta.plugins import hookimpl

            @hookimpl
            def register_games(register):
                register("half-registered", dict)
                raise RuntimeError("database unavailable")
        """
        },
    )
    catalog = load_catalog()
    [failure] = catalog.failures
    assert "database unavailable" in failure.error and failure.distribution == "alfabeta-raising"
    assert "half-registered" not in catalog.games


def test_a_duplicate_name_is_rejected_and_the_first_registration_kept(site):
    make_distribution(
        site,
        "alfabeta-clash",
        "1.0",
        {"clash": "thirdparty_clash"},
        {
            "thirdparty_clash": """
            from alfabeta.plugins import hookimpl

            @hookimpl
            def register_games(register):
                register("trgd", dict)
                register("clash-game", dict, aliases=("nim",))
                register("fresh-game", dict)
        """
        },
    )
    catalog = load_catalog()
    errors = [f.error for f in catalog.failures]
    assert any("'trgd'" in e and "already registered by games" in e for e in errors)
    assert any("'nim'" in e for e in errors)
    assert catalog.games.get("trgd").origin == "games"
    assert "fresh-game" in catalog.games


def test_blocked_plugins_are_not_loaded(site, monkeypatch):
    make_distribution(
        site,
        "alfabeta-tiny",
        "1.2.3",
        {"tiny": "thirdparty_tiny"},
        {"thirdparty_tiny": GOOD_PLUGIN},
    )
    catalog = load_catalog(block=["tiny", "thesis"])
    assert "tiny" not in catalog.games and "thesis-minimax" not in catalog.searchers
    assert set(catalog.blocked) == {"tiny", "thesis"}
    monkeypatch.setenv("ALFABETA_BLOCK", "tiny")
    assert "tiny" not in load_catalog().games


def test_autoload_off_loads_only_alfabetas_own_plugins(site, monkeypatch):
    make_distribution(
        site,
        "alfabeta-tiny",
        "1.2.3",
        {"tiny": "thirdparty_tiny"},
        {"thirdparty_tiny": GOOD_PLUGIN},
    )
    monkeypatch.setenv("ALFABETA_DISABLE_PLUGIN_AUTOLOAD", "1")
    catalog = load_catalog()
    assert "tiny" not in catalog.games and "trgd" in catalog.games
    assert {p.name for p in catalog.plugins} == set(BUILTIN_PLUGINS)


def test_a_plugin_module_can_be_added_directly():
    import types

    module = types.ModuleType("direct_plugin")
    module.register_searchers = hookimpl(
        lambda register: register("first-move", lambda: _FirstMove())
    )
    catalog = load_catalog(autoload=False, plugins=[("direct", module)])
    assert "first-move" in catalog.searchers


class _FirstMove:
    def search(self, position, evaluator, limit=None):
        from alfabeta.core import SearchResult

        return SearchResult(move=position.legal_moves()[0], value=0, depth=0, nodes=1, leaves=0)


def test_builtin_plugin_list_matches_the_declared_entry_points():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert declared["project"]["entry-points"]["alfabeta"] == BUILTIN_PLUGINS


# ---- names, specs and options ---------------------------------------------------------------
def test_an_unknown_name_lists_what_exists_and_suggests_the_closest(catalog):
    with pytest.raises(UnknownPluginError, match="Did you mean 'py-alphabeta'") as info:
        catalog.searcher("py-alphabta(depth=3)")
    assert "py-minimax" in str(info.value)
    with pytest.raises(UnknownPluginError, match="Did you mean 'trgd'"):
        catalog.game("trgdd")


def test_an_unknown_option_names_the_options_there_are(catalog):
    with pytest.raises(InvalidOptionError, match=r"did you mean 'depth'.*options: depth"):
        catalog.searcher("py-alphabeta(deptj=3)")
    with pytest.raises(InvalidOptionError, match="no option 'm'"):
        catalog.game("fibonacci-nim(m=3)")


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("py-alphabeta(depth=-1)", "depth=-1"),
        ("py-alphabeta(depth=2.5)", "whole number"),
        ("py-alphabeta(fail=medium)", "'hard', 'soft'"),
        ("py-minimax(time=0)", "seconds"),
        ("py-solve(persistent=maybe)", "persistent"),
    ],
)
def test_bad_option_values_fail_at_construction_naming_the_option(catalog, spec, fragment):
    with pytest.raises(InvalidOptionError, match=re.escape(fragment)):
        catalog.searcher(spec)


def test_bad_evaluator_options_and_wrong_game(catalog):
    with pytest.raises(InvalidOptionError, match="thesis"):
        catalog.evaluator("trgd-lines(thesis=3)")
    with pytest.raises(IncompatibleEvaluatorError, match="applies to trgd, not 'tree'"):
        catalog.evaluator("trgd-lines", catalog.game("tree(branching=2, depth=2)"))


def test_specs_parse_words_literals_and_nested_lists():
    assert parse_spec("fibonacci-nim(n=21)") == ("fibonacci-nim", {"n": 21})
    assert parse_spec("alphabeta") == ("alphabeta", {})
    assert parse_spec("negascout(tt=off, depth=6)") == ("negascout", {"tt": False, "depth": 6})
    assert parse_spec("tree(nodes=[[1, 2], [3]], order=best)") == (
        "tree",
        {"nodes": [[1, 2], [3]], "order": "best"},
    )
    assert parse_spec("x(path='a,b', none=None)") == ("x", {"path": "a,b", "none": None})
    assert format_spec("tree", {"order": "best", "depth": 2}) == "tree(order='best', depth=2)"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("alphabeta(3)", "key=value"),
        ("alphabeta(depth=3", "missing ')'"),
        ("alphabeta(depth=3, depth=4)", "given twice"),
        ("3d-game", "name starts with a letter"),
        ("x(a=[1, 2)", "unclosed"),
        ("x(a=1 2)", "column 5"),
    ],
)
def test_malformed_specs_say_what_is_wrong(text, fragment):
    with pytest.raises(SpecSyntaxError, match=re.escape(fragment)):
        parse_spec(text)


# ---- hooks ----------------------------------------------------------------------------------
class Recorder:
    def __init__(self):
        self.calls = []

    @hookimpl
    def search_started(self, position, searcher, evaluator, limit):
        self.calls.append(("search_started", position.to_string()))

    @hookimpl
    def search_finished(self, position, searcher, evaluator, result):
        self.calls.append(("search_finished", result.move))

    @hookimpl
    def move_played(self, position, move, side, result):
        self.calls.append(("move_played", side, move))

    @hookimpl
    def game_finished(self, record):
        self.calls.append(("game_finished", str(record.outcome)))


def test_observer_hooks_follow_a_game():
    recorder = Recorder()
    catalog = load_catalog(autoload=False, plugins=[("recorder", recorder)])
    position = catalog.game("fibonacci-nim(n=4)")
    player = SearchPlayer(catalog.searcher("py-solve"), catalog.evaluator("nim-exact"))
    record = play_game(position, [player, player], notify=catalog.notify)
    assert record.notation == ("1", "1", "2")  # 4 = 3 + 1: take μ(4) = 1, then the rest
    assert recorder.calls == [
        ("search_started", "4 3 0"),
        ("search_finished", 1),
        ("move_played", 0, 1),
        ("search_started", "3 2 1"),
        ("search_finished", 1),
        ("move_played", 1, 1),
        ("search_started", "2 2 0"),
        ("search_finished", 2),
        ("move_played", 0, 2),
        ("game_finished", "player 1 wins (win)"),
    ]


def test_observer_hooks_see_the_searches_of_bench_epd_prove_and_uci(monkeypatch, capsys):
    """Every place alfabeta searches goes through the one helper (plugins/observe.py)."""
    from alfabeta.arena.bench import run_bench
    from alfabeta.cli import main
    from alfabeta.uci import Engine

    recorder = Recorder()
    catalog = load_catalog(autoload=False, plugins=[("recorder", recorder)])
    records = run_bench(catalog, "fibonacci-nim(n=10)", ["alphabeta"], [2], min_time=0)
    assert [c[0] for c in recorder.calls[:2]] == ["search_started", "search_finished"]
    assert sum(c[0] == "search_finished" for c in recorder.calls) >= len(records)

    monkeypatch.setattr("alfabeta.cli.load_catalog", lambda: catalog)
    for argv in (
        ["epd", "tests/data/epd/verified.epd", "--depth", "1", "--searcher", "alphabeta"],
        [
            "prove",
            "tests/data/deduction/kb1.txt",
            "--data",
            "bs,bp",
            "--goal",
            "pd",
            "--searcher",
            "py-alphabeta",
        ],
    ):
        recorder.calls.clear()
        main(argv)
        capsys.readouterr()
        started = [c for c in recorder.calls if c[0] == "search_started"]
        finished = [c for c in recorder.calls if c[0] == "search_finished"]
        assert len(started) == len(finished) > 0, argv[0]

    recorder.calls.clear()
    lines = []
    engine = Engine(lines.append, catalog)
    for command in ("uci", "position startpos moves e2e4", "go depth 2"):
        engine.handle(command)
    engine.finish_search()
    assert [c[0] for c in recorder.calls] == ["search_started", "search_finished"]
    assert any(line.startswith("info depth 2") for line in lines)  # infos still stream


def test_an_observer_that_raises_is_reported_not_fatal():
    class Faulty:
        @hookimpl
        def move_played(self, position, move, side, result):
            raise RuntimeError("disk full")

    catalog = load_catalog(autoload=False, plugins=[("faulty", Faulty())])
    player = SearchPlayer(catalog.searcher("py-solve"), catalog.evaluator("nim-exact"))
    record = play_game(catalog.game("fibonacci-nim(n=4)"), [player, player], notify=catalog.notify)
    assert record.outcome.winner == 0
    assert any("disk full" in f.error and f.plugin == "faulty" for f in catalog.failures)


HOOKS = [
    name
    for name, _ in inspect.getmembers(hookspecs, inspect.isfunction)
    if hasattr(getattr(hookspecs, name), "alfabeta_spec")
]


def test_every_hook_is_specified():
    assert set(HOOKS) == {
        "register_games",
        "register_searchers",
        "register_evaluators",
        "search_started",
        "search_finished",
        "move_played",
        "game_finished",
    }


@pytest.mark.parametrize("name", HOOKS)
def test_hook_is_documented_with_its_exact_signature(name):
    docs = (ROOT / "docs" / "hooks.md").read_text()
    function = getattr(hookspecs, name)
    signature = f"{name}{inspect.signature(function)}".replace("'", "")
    assert f"`{signature}`" in docs, f"docs/hooks.md lacks `{signature}`"


def test_a_compiled_factorys_options_are_read_without_running_its_docstring(tmp_path):
    """The signature Cython embeds is parsed, never executed."""
    from alfabeta.evaluators.chess_eval import BayesChess
    from alfabeta.plugins.registry import Entry

    entry = Entry("evaluator", "bayeschess", BayesChess, "test")
    assert entry.option_names() == ["model", "target", "perturb", "alpha", "style", "seed"]

    marker = tmp_path / "ran"

    class Hidden(type):
        @property
        def __signature__(cls):
            raise ValueError("no signature")

    class Evil(metaclass=Hidden):
        __doc__ = f"Evil(x=open({str(marker)!r}, 'w'), *, y=1, **rest)\n"

    assert Entry("game", "evil", Evil, "test").option_names() is None  # **rest: any option
    assert not marker.exists()
    from alfabeta.plugins.registry import _signature

    assert list(_signature(Evil).parameters) == ["x", "y", "rest"]
