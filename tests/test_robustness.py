"""Bad input and interruptions through the real commands: every row of the robustness
issue's table as a regression test (the UCI rows are in test_uci_robustness.py)."""

import os
import random
import signal
import subprocess
import sys
import time

import chess
import pytest
from conftest import EXACT_SEARCHERS, default_sigint

from alfabeta.cli import main
from alfabeta.core import IllegalMoveError, InvalidPositionError, Limit
from alfabeta.core.walk import perft

CLI = [sys.executable, "-m", "alfabeta.cli"]


def run(*argv: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=timeout, **kwargs)


@pytest.mark.parametrize(
    "command",
    [
        ["perft", "8/8/8/4k3/8/8/3QK3/8 w - - 99999999999999999999 1", "1"],
        ["perft", "8/8/8/4k3/8/8/3QK3/8 w - - 2147483648 1", "1"],
        [
            "play",
            "chess",
            "--first",
            "alphabeta(depth=1)",
            "--second",
            "alphabeta(depth=1)",
            "--start",
            "8/8/8/4k3/8/8/3QK3/8 w - - 0 99999999999999999999",
        ],
    ],
)
def test_a_fen_with_a_huge_counter_is_bad_input_not_a_traceback(command):
    done = run(*command)
    assert done.returncode == 2, done.stderr
    assert "halfmove must be 0 to 10000 and fullmove 1 to 100000" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_rank_of_nine_squares_is_refused(catalog):
    with pytest.raises(InvalidPositionError, match=r"rank 8 .* has more than 8 squares"):
        catalog.game("chess").from_string(
            "rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        )


def test_an_error_about_a_huge_fen_quotes_only_an_excerpt(catalog):
    huge = "x" * 100_000 + " w - - 0 1"
    with pytest.raises(InvalidPositionError) as caught:
        catalog.game("chess").from_string(huge)
    assert len(str(caught.value)) < 300 and "(100010 characters)" in str(caught.value)


def test_an_empty_start_position_is_refused(capsys):
    code = main(
        [
            "play",
            "chess",
            "--first",
            "alphabeta(depth=1)",
            "--second",
            "alphabeta(depth=1)",
            "--start",
            "",
        ]
    )
    assert code == 2 and "--start is empty" in capsys.readouterr().err


def test_perft_counts_standard_perft_through_draws_by_insufficient_material(capsys):
    assert main(["perft", "R7/8/4b3/2k5/8/8/5K2/8 w - - 0 37", "3"]) == 0
    assert capsys.readouterr().out.startswith("nodes 7533 ")


def _random_positions(count: int, seed: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(rng.randrange(0, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_checkmate() and not board.is_stalemate():
            boards.append(board)
    # bare kings and minor pieces: draws by insufficient material from the start
    boards += [
        chess.Board(f)
        for f in (
            "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3bK3/8/8 b - - 0 1",
            "R7/8/4b3/2k5/8/8/5K2/8 w - - 0 37",
        )
    ]
    return boards


def _python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += _python_chess_perft(board, depth - 1)
        board.pop()
    return total


def test_perft_agrees_with_python_chess_on_random_legal_positions(catalog):
    game = catalog.game("chess")
    for board in _random_positions(300, seed=11):
        ours = perft(game.from_string(board.fen()), 2)
        assert ours == _python_chess_perft(board, 2), board.fen()


def test_a_plain_callable_evaluator_works_with_every_searcher(catalog):
    position = catalog.game("fibonacci-nim(n=9)")

    def heap(p):  # plain function: the side to move likes a small heap for the opponent
        return -int(p.to_string().split()[0])

    values = {
        catalog.searcher(spec).search(position, heap, Limit(depth=3)).value
        for spec in EXACT_SEARCHERS
    }
    assert len(values) == 1
    assert catalog.searcher("mcts(iterations=50)").search(position, heap).move is not None


EXPLODING_PLUGIN = """
from alfabeta.plugins import hookimpl


class Game:
    \"\"\"A plain-Python game whose push raises: the bug a plugin ships.\"\"\"

    name = "exploding"
    default_evaluator = "exploding-zero"

    def __init__(self, **options):
        self.side_to_move = 0

    def legal_moves(self):
        return [1, 2]

    def push(self, move):
        raise ValueError("the board caught fire")

    def pop(self):
        pass

    def outcome(self):
        return 0

    def key(self):
        return 1

    def copy(self):
        return Game()

    def to_string(self):
        return "start"

    def from_string(self, text):
        return Game()

    def move_str(self, move):
        return str(move)

    def parse_move(self, text):
        return int(text)


@hookimpl
def register_games(register):
    register("exploding", Game)


@hookimpl
def register_evaluators(register):
    register("exploding-zero", lambda position: 0, games=("exploding",))
"""
RUN_WITH_PLUGIN = """
import sys
from alfabeta import cli
import exploding_plugin
real = cli.load_catalog
cli.load_catalog = lambda: real(plugins=[("exploding", exploding_plugin)])
sys.exit(cli.main(sys.argv[1:]))
"""


def test_an_exception_in_plugin_code_names_the_plugin_and_the_method(tmp_path):
    (tmp_path / "exploding_plugin.py").write_text(EXPLODING_PLUGIN)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    argv = ["play", "exploding", "--first", "alphabeta(depth=2)", "--second", "alphabeta(depth=2)"]
    quiet = subprocess.run(
        [sys.executable, "-c", RUN_WITH_PLUGIN, *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert quiet.returncode == 1, quiet.stderr
    assert "error in plugin 'exploding'" in quiet.stderr and "Game.push" in quiet.stderr
    assert "the board caught fire" in quiet.stderr and "Traceback" not in quiet.stderr
    loud = subprocess.run(
        [sys.executable, "-c", RUN_WITH_PLUGIN, "--debug", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert loud.returncode == 1 and "Traceback" in loud.stderr


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (
            ["play", "fibonacci-nim", "--first", "alphabeta(depth=10**30)", "--second", "human"],
            "depth",
        ),
        (
            ["bench", "connect-four", "--searchers", "alphabeta(depth=99999999999999999999)"],
            "depth",
        ),
    ],
)
def test_absurd_options_are_bad_input(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_a_fixed_depth_searcher_stopped_by_a_node_limit_reports_no_depth(catalog):
    position = catalog.game("connect-four")
    evaluator = catalog.default_evaluator(position)
    for spec in ("alphabeta", "negamax", "scout", "sss*", "py-alphabeta"):
        result = catalog.searcher(spec).search(position, evaluator, Limit(nodes=50))
        assert not result.complete and result.depth == 0, spec
        assert result.move in position.legal_moves()


def _interrupt(argv: list[str], wait: float = 1.5) -> tuple[subprocess.Popen, float]:
    process = subprocess.Popen(
        [*CLI, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    time.sleep(wait)
    assert process.poll() is None, process.communicate()
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    return process, sent


@pytest.mark.parametrize(
    "argv",
    [
        ["perft", "startpos", "7"],
        ["play", "chess", "--first", "alphabeta(depth=9)", "--second", "alphabeta(depth=9)"],
    ],
)
def test_ctrl_c_stops_a_compiled_search_or_perft_within_a_second(argv):
    process, sent = _interrupt(argv)
    _, err = process.communicate(timeout=10)
    assert time.monotonic() - sent < 1.0 + 0.5  # the signal, plus the interpreter's exit
    assert process.returncode == 130 and err.strip().endswith("alfabeta: interrupted")
    assert "Traceback" not in err


def test_ctrl_c_during_bench_keeps_every_finished_record(tmp_path):
    records = tmp_path / "bench.jsonl"
    process, _ = _interrupt(
        [
            "bench",
            "connect-four",
            "--searchers",
            "negamax",
            "--depth",
            "1-12",
            "--json",
            str(records),
        ],
        wait=3,
    )
    process.communicate(timeout=10)
    assert process.returncode == 130
    lines = records.read_text().splitlines()
    assert lines[0].startswith('{"type": "manifest"') and len(lines) >= 2


def test_deduction_without_recursion_limits_and_with_shared_sub_goals(tmp_path, capsys):
    chain = tmp_path / "chain.txt"
    chain.write_text("".join(f"a{i} -> a{i + 1}\n" for i in range(5000)))
    assert (
        main(["prove", str(chain), "--data", "a0", "--goal", "a5000", "--tree", "--smallest"]) == 0
    )
    out = capsys.readouterr().out
    assert "proving by forward chaining instead" in out and "a5000: by a4999 -> a5000" in out
    rng = random.Random(3)
    layers = [[f"l{k}_{i}" for i in range(100)] for k in range(101)]
    shared = tmp_path / "shared.txt"
    shared.write_text(
        "".join(
            f"{' & '.join(rng.sample(layers[k - 1], 2))} -> l{k}_{i}\n"
            for k in range(1, 101)
            for i in range(100)
        )
    )
    start = time.monotonic()
    data = ",".join(layers[0])
    assert main(["prove", str(shared), "--data", data, "--goal", "l100_7", "--smallest"]) == 0
    assert time.monotonic() - start < 30  # the thesis's unfolding would never finish
    assert "proved l100_7" in capsys.readouterr().out


def test_the_first_run_explains_itself(capsys):
    with pytest.raises(SystemExit) as version:
        main(["--version"])
    assert version.value.code == 0 and capsys.readouterr().out.startswith("alfabeta 0.")
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "plays, searches and measures two-player games" in text and "130" in text
    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    assert "(default: 4)" in capsys.readouterr().out


def test_bench_says_when_depth_overrides_a_spec_and_numbers_its_positions(capsys):
    assert (
        main(
            [
                "bench",
                "connect-four",
                "--searchers",
                "alphabeta(depth=6)",
                "--depth",
                "2",
                "--min-time",
                "0",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "--depth 2 overrides depth=6" in captured.err
    labels = [
        line.split()[1]
        for line in captured.out.splitlines()
        if line.startswith("alphabeta(depth=6)")
    ]
    assert labels == ["#1", "#2", "#3", "#4", "#5"]


def test_no_bench_position_is_already_over(catalog):
    for spec in ("chess", "connect-four", "trgd", "fibonacci-nim", "tictactoe"):
        game = catalog.game(spec)
        for text in getattr(getattr(game, "game", game), "bench_positions", ()):
            assert not game.from_string(text).is_over(), (spec, text)


def test_boards_print_aligned_and_nim_names_a_real_range(catalog):
    lines = str(catalog.game("trgd")).splitlines()[:7]
    assert len({len(line) for line in lines}) == 1
    nim = catalog.game("fibonacci-nim(n=2)")
    nim.push(nim.parse_move("1"))
    nim.push(nim.parse_move("1"))
    assert "1..0" not in str(nim) and "won" in str(nim)


HUGE = "x" * 100_000


@pytest.mark.parametrize(
    "module, function, text",
    [
        ("alfabeta.plugins.spec", "parse_spec", "(" + HUGE),
        ("alfabeta.games.chess.epd", "parse_epd", HUGE),
        ("alfabeta.games.deduction.kb", "parse_knowledge_base", "1" + HUGE + " -> a"),
        ("alfabeta.games.chess.pgn", "parse_pgn", "[" + HUGE),
    ],
)
def test_parsers_quote_only_an_excerpt_of_a_huge_bad_input(module, function, text):
    import importlib

    from alfabeta.core import AlfabetaError

    with pytest.raises(AlfabetaError) as caught:
        getattr(importlib.import_module(module), function)(text)
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize(
    "spec, bad",
    [
        ("chess", [-1, 123456, 1 << 40, "e2e4", None]),
        ("connect-four", [-1, 7, 123456, "4", 3.5, None]),
        ("fibonacci-nim", [0, -1, "x", 3.5, None]),
        ("tictactoe", [-1, 9, 123456, "b2", 3.5, None]),
        ("trgd", [-1, 1 << 20, "1", None]),
        ("tree(branching=3, depth=2)", [0, -1, "1", 3.5, None]),
    ],
)
def test_move_str_refuses_what_is_no_move_of_the_game(catalog, spec, bad):
    # the name of a move is the inverse of parse_move: a value outside the game's encoding
    # is bad input, not a garbled name or a TypeError
    position = catalog.game(spec)
    for move in bad:
        with pytest.raises(IllegalMoveError, match=r"not a .*move"):
            position.move_str(move)
    for move in position.legal_moves():
        assert position.parse_move(position.move_str(move)) == move
