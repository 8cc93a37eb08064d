"""The conformance kit (``alfabeta.testing``): it passes every built-in game, evaluator and
searcher, and it catches seeded faults, naming the rule each breaks."""

import math
import sys
from types import SimpleNamespace

import pytest
from conftest import run_ok

from alfabeta.core import IllegalMoveError, InvalidPositionError, Limit, Result
from alfabeta.games.chess.board import ChessGame
from alfabeta.plugins import hookimpl
from alfabeta.plugins.catalog import load_catalog
from alfabeta.testing import RULES, ContractViolation, check_evaluator, check_game, check_searcher

pytest_plugins = ["pytester"]

DEDUCTION = 'deduction(file=tests/data/deduction/kb1.txt, data="bs,bp", goal=pd)'
BUILTIN_GAMES = [
    "chess",
    "connect-four(width=5, height=4)",
    "fibonacci-nim(n=21)",
    "trgd",
    "tictactoe",
    "tree(branching=3, depth=4, seed=3)",
    DEDUCTION,
]
EXACT = [
    "mt-sss*",
    "mt-dual*",
    "minimax",
    "negamax",
    "alphabeta",
    "negascout",
    "scout",
    "sss*",
    "dual*",
    "mtdf",
    "py-minimax",
    "py-negamax",
    "py-alphabeta",
]


class Pile:
    """Take 1–3 stones; who takes the last wins. ``plies`` counts the moves made."""

    name = "pile"
    max_moves = 3
    default_evaluator = "pile-exact"

    def __init__(self, n=13):
        self.n, self.side_to_move, self.plies, self.history = n, 0, 0, []

    def legal_moves(self):
        return [m for m in (1, 2, 3) if m <= self.n]

    def push(self, move):
        if move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r}")
        self.n -= move
        self.side_to_move ^= 1
        self.plies += 1
        self.history.append(move)

    def pop(self):
        move = self.history.pop()
        self.n += move
        self.side_to_move ^= 1
        self.plies -= 1
        return move

    def outcome(self):
        return Result.LOSS if self.n == 0 else Result.ONGOING

    def key(self):
        return self.n * 1_000 + self.plies * 2 + self.side_to_move

    def copy(self):
        twin = type(self)(self.n)
        twin.side_to_move, twin.plies, twin.history = self.side_to_move, self.plies, [*self.history]
        return twin

    def to_string(self):
        return f"{self.n} {self.side_to_move} {self.plies}"

    def from_string(self, text):
        try:
            n, side, plies = (int(x) for x in text.split())
        except ValueError:
            raise InvalidPositionError(f"pile position {text!r}") from None
        twin = type(self)(n)
        twin.side_to_move, twin.plies = side, plies
        return twin

    def move_str(self, move):
        return str(move)

    def parse_move(self, text):
        if not str(text).isdigit() or int(text) not in self.legal_moves():
            raise IllegalMoveError(f"{text!r} is not a move")
        return int(text)


class ForgetfulUnmake(Pile):
    def pop(self):  # forgets to count the ply back
        move = self.history.pop()
        self.n += move
        self.side_to_move ^= 1
        return move


class KeyWithoutSide(Pile):
    def to_string(self):
        return f"{self.n} {self.side_to_move}"

    def from_string(self, text):
        n, side = (int(x) for x in text.split())
        twin = type(self)(n)
        twin.side_to_move = side
        return twin

    def key(self):  # the side to move is left out
        return self.n


class StuckAtFive(Pile):
    def legal_moves(self):  # no move at 5 stones, yet the game goes on
        return [] if self.n == 5 else super().legal_moves()


def nan_evaluator(position):
    return math.nan


def pile_exact(position):
    """Lost for the side to move exactly on a multiple of four stones."""
    return -1000 if int(position.to_string().split()[0]) % 4 == 0 else 1000


class Vandal:
    """A searcher that leaves a move played on the position."""

    def search(self, position, evaluator, limit=None):
        evaluator.prepare(position)
        move = position.legal_moves()[0]
        position.push(move)
        from alfabeta.core import SearchResult

        return SearchResult(move=move, value=0, pv=(move,), depth=1, nodes=1, leaves=1)


FAULTS = SimpleNamespace(
    register_games=hookimpl(
        lambda register: (
            [
                register("pile", Pile),
                register("forgetful-unmake", ForgetfulUnmake),
                register("key-without-side", KeyWithoutSide),
                register("stuck-at-five", StuckAtFive),
            ]
            and None
        )
    ),
    register_evaluators=hookimpl(
        lambda register: (
            [
                register("nan", nan_evaluator),
                register("pile-exact", pile_exact),
            ]
            and None
        )
    ),
    register_searchers=hookimpl(lambda register: register("vandal", Vandal)),
)


@pytest.fixture(scope="module")
def faults():
    return load_catalog(autoload=False, block=(), plugins=[("faults", FAULTS)])


@pytest.mark.parametrize("spec", BUILTIN_GAMES)
def test_every_builtin_game_keeps_the_contract(catalog, spec):
    assert check_game(catalog.game(spec), playouts=4, seed=1) > 10


@pytest.mark.parametrize(
    "spec, game",
    [
        ("material", "chess"),
        ("bayeschess", "chess"),
        ("cpw", "chess"),
        ("emotional", "chess"),
        ("standard", "chess"),
        ("connect-four-threats", "connect-four"),
        ("trgd-lines", "trgd"),
        ("nim-exact", "fibonacci-nim"),
        ("nim-naive", "fibonacci-nim"),
        ("tree-leaves", "tree(branching=3, depth=4, seed=3)"),
        ("tictactoe-lines", "tictactoe"),
        ("deduction-h", DEDUCTION),
    ],
)
def test_every_builtin_evaluator_keeps_the_contract(catalog, spec, game):
    position = catalog.game(game)
    assert check_evaluator(catalog.evaluator(spec, position), position, playouts=2) > 0


def test_the_solved_evaluator_keeps_the_contract(catalog, tmp_path):
    from alfabeta.solvers.retrograde import solve_table

    position = catalog.game("tictactoe")
    table, _ = solve_table(position)
    table.save(tmp_path / "ttt")
    evaluator = catalog.evaluator(f'solved(table="{tmp_path / "ttt"}")', position)
    assert check_evaluator(evaluator, position, playouts=4) > 0


def test_a_chess_evaluator_in_the_white_view_breaks_the_mirror_rule(catalog):
    position = catalog.game("chess")
    material = catalog.evaluator("material")

    def white_view(board):
        value = material.evaluate(board)
        return value if board.side_to_move == 0 else -value

    with pytest.raises(ContractViolation, match=r"\[evaluator-mirror\]"):
        check_evaluator(white_view, position, playouts=3)


@pytest.mark.slow
def test_the_builtins_pass_the_kit_through_its_pytest_plugin(tmp_path):
    """As a plugin author runs it: ``pytest --alfabeta-…`` in a folder of its own."""
    games = [arg for spec in BUILTIN_GAMES[:-1] for arg in ("--alfabeta-game", spec)]
    evaluators = [
        arg
        for spec in ("material", "cpw", "standard", "emotional")
        for arg in ("--alfabeta-evaluator", spec)
    ]
    searchers = [arg for spec in EXACT for arg in ("--alfabeta-searcher", spec)]
    out = run_ok(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *games,
            *evaluators,
            *searchers,
            "--alfabeta-exact",
        ],
        tmp_path,
    )
    count = (len(games) + len(evaluators) + len(searchers)) // 2
    assert f"{count} passed" in out


def exact_cases(catalog):
    cases = []
    for seed in range(4):
        tree = catalog.game(f"tree(branching=3, depth=4, seed={seed})")
        leaves = catalog.default_evaluator(tree)
        value = catalog.searcher("py-minimax").search(tree, leaves, Limit(depth=64)).value
        cases.append((tree, leaves, value))
    return cases


@pytest.mark.parametrize("spec", EXACT)
def test_every_exact_searcher_keeps_the_contract(catalog, spec):
    position = catalog.game("tictactoe")
    assert check_searcher(
        lambda: catalog.searcher(spec),
        position,
        catalog.default_evaluator(position),
        exact_cases=exact_cases(catalog),
    )


@pytest.mark.parametrize(
    "spec",
    [
        "null-move",
        "aspiration",
        "mcts(iterations=200)",
        "pn",
        "thesis-alphabeta",
        "thesis-minimax",
        "py-solve",
        "negascout(tt=on, iterative=on)",
    ],
)
def test_the_other_builtin_searchers_keep_the_contract(catalog, spec):
    position = catalog.game("connect-four(width=5, height=4)")
    assert (
        check_searcher(
            lambda: catalog.searcher(spec), position, catalog.default_evaluator(position)
        )
        > 0
    )


def test_dual_eval_keeps_the_searcher_contract(catalog):
    position = catalog.game("chess")
    assert (
        check_searcher(
            lambda: catalog.searcher("dual-eval(searcher=alphabeta)"),
            position,
            catalog.evaluator("emotional"),
            depth=2,
            playouts=1,
        )
        > 0
    )


@pytest.mark.parametrize(
    "game, rule",
    [
        ("forgetful-unmake", "unmake-restores"),
        ("key-without-side", "key"),
        ("stuck-at-five", "legal-moves"),
    ],
)
def test_the_kit_names_the_rule_a_broken_game_breaks(faults, game, rule):
    assert check_game(faults.game("pile"), playouts=6) > 0  # the sound version passes
    with pytest.raises(ContractViolation) as caught:
        check_game(faults.game(game), playouts=6)
    assert caught.value.rule == rule
    assert str(caught.value).startswith(f"[{rule}] {RULES[rule]}")


class ClassOutOfRange(ChessGame):
    """Chess whose g1f3 falls outside the continuation histories' classes."""

    def history_class(self, move):
        return 768 if self.move_str(move) == "g1f3" else super().history_class(move)

    def copy(self):  # the kit plays its games on copies
        return ClassOutOfRange(self.to_string())


def test_the_kit_names_a_move_class_out_of_range():
    assert check_game(ChessGame(), playouts=1, max_plies=4) > 0
    with pytest.raises(ContractViolation, match=r"\[move-class\].*g1f3 at .* has the class 768"):
        check_game(ClassOutOfRange(), playouts=1, max_plies=4)


def test_the_kit_catches_an_evaluator_returning_nan(faults):
    position = faults.game("pile")
    with pytest.raises(ContractViolation, match=r"\[evaluator-int\].*nan"):
        check_evaluator(faults.evaluator("nan", position), position)


def test_the_kit_catches_a_searcher_that_moves_the_position(faults):
    position = faults.game("pile")
    with pytest.raises(
        ContractViolation,
        match=r"\[searcher-position\] .*'13 0 0' became "
        r"'12 1 1'",
    ):
        check_searcher(
            lambda: faults.searcher("vandal"), position, faults.evaluator("nan", position)
        )


def test_the_pytest_plugin_runs_and_reports_rules(pytester, faults, monkeypatch):
    monkeypatch.setattr("alfabeta.plugins.catalog.load_catalog", lambda **_: faults)
    result = pytester.runpytest_inprocess(
        "--alfabeta-game",
        "pile",
        "--alfabeta-game",
        "key-without-side",
        "--alfabeta-searcher",
        "alphabeta",
        "--alfabeta-exact",
        "--alfabeta-on",
        "pile",
        "-p",
        "no:cacheprovider",
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*alfabeta-game*key-without-side*[[]key[]] equal states*"])


def test_the_plugin_is_idle_unless_asked(pytester):
    pytester.makepyfile("def test_nothing():\n    pass\n")
    result = pytester.runpytest_inprocess()
    result.assert_outcomes(passed=1)
