"""The ``alfabeta`` command: listings, games between searchers, a human at the terminal, and
exit codes a script can rely on."""

import subprocess
import sys

import pytest

from alfabeta.cli import main


def alfabeta(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "alfabeta.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_plugins_lists_every_kind_with_its_origin(capsys):
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    for name in (
        "fibonacci-nim",
        "trgd",
        "tree",
        "tictactoe",
        "py-alphabeta",
        "py-minimax",
        "py-negamax",
        "thesis-alphabeta",
        "trgd-lines",
        "nim-exact",
        "tree-leaves",
    ):
        assert f"  {name} " in out
    assert "games:" in out and "searchers:" in out and "evaluators:" in out
    assert "failed:" not in out


def test_play_between_two_searchers_prints_moves_and_the_result(capsys):
    code = main(
        ["play", "fibonacci-nim(n=21)", "--first", "py-alphabeta(depth=4)", "--second", "py-solve"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "result: player 2 wins (win)" in out  # 21 is a Fibonacci number: the first loses
    assert out.count(" nodes ") >= 2 and "moves: " in out


def test_play_honours_a_start_position_and_quiet(capsys):
    code = main(
        [
            "play",
            "trgd",
            "--start",
            "1,2/9,10 +",
            "--first",
            "py-alphabeta(depth=1)",
            "--second",
            "py-alphabeta(depth=1)",
            "--quiet",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and out == "moves: 3\nresult: player 1 wins (line)\n"


def test_play_adjudicates_at_max_plies(capsys):
    assert (
        main(
            [
                "play",
                "trgd",
                "--first",
                "py-alphabeta(depth=1)",
                "--second",
                "py-alphabeta(depth=1)",
                "--max-plies",
                "4",
                "--quiet",
            ]
        )
        == 0
    )
    assert "draw (adjudication after 4 plies)" in capsys.readouterr().out


def test_a_human_is_shown_the_board_and_asked_again_after_bad_input():
    cells = "\n".join(f"{f}{r}" for r in "123" for f in "abc")  # each cell, taken ones too
    done = alfabeta(
        "play", "tictactoe", "--first", "human", "--second", "py-solve", stdin=f"z9\n?\n{cells}\n"
    )
    assert done.returncode == 0, done.stderr
    assert "not accepted: 'z9' is not a tictactoe move" in done.stdout
    assert "legal moves: a3 b3 c3 a2 b2 c2 a1 b1 c1" in done.stdout
    assert "not accepted: c1 is not legal here" in done.stdout  # the solver took c1
    assert "  a b c" in done.stdout and "result: player 2 wins" in done.stdout


def test_a_human_quitting_ends_with_exit_status_3():
    done = alfabeta(
        "play", "trgd", "--first", "human", "--second", "py-minimax(depth=1)", stdin="quit\n"
    )
    assert done.returncode == 3 and "abandoned" in done.stderr


@pytest.mark.parametrize(
    "args, fragment",
    [
        (
            ["play", "trgdd", "--first", "py-minimax", "--second", "py-minimax"],
            "Did you mean 'trgd'",
        ),
        (["play", "trgd", "--first", "py-minimax(deep=2)", "--second", "py-minimax"], "no option"),
        (
            [
                "play",
                "trgd",
                "--first",
                "py-minimax",
                "--second",
                "py-minimax",
                "--evaluator",
                "nim-exact",
            ],
            "applies to fibonacci-nim",
        ),
        (
            [
                "play",
                "trgd",
                "--start",
                "1,2,3,4/ +",
                "--first",
                "py-minimax",
                "--second",
                "py-minimax",
            ],
            "has 4 pieces",
        ),
        (["play", "trgd", "--first", "py-minimax(depth=", "--second", "py-minimax"], "missing ')'"),
    ],
)
def test_bad_input_is_a_one_line_error_and_exit_status_2(args, fragment):
    done = alfabeta(*args)
    assert done.returncode == 2
    assert fragment in done.stderr and "Traceback" not in done.stderr


def test_usage_errors_exit_with_status_2():
    done = alfabeta("play", "trgd", "--depth")
    assert done.returncode == 2 and "--depth" in done.stderr


def test_play_without_players_is_the_engine_against_itself_with_the_strong_evaluator():
    done = alfabeta("play", "chess", "--depth", "2", "--max-plies", "4")
    assert done.returncode == 0, done.stderr
    assert "negascout(" in done.stdout and "captures=True" in done.stdout
    first = done.stdout.split("moves: ")[1].split()[0]
    assert first in ("b1c3", "g1f3", "e2e4", "d2d4", "e2e3")  # not material's 1.a3 (every move 0)
    assert "result: draw (adjudication" in done.stdout
