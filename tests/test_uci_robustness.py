"""The UCI engine under bad input, as a GUI (or a fuzzer) would send it, over a real pipe:
it stays alive, answers every isready, sends exactly one legal bestmove per go, and prints
nothing but protocol."""

import subprocess
import sys

import chess
import pytest

ENGINE = [sys.executable, "-m", "alfabeta.cli", "uci"]
PROTOCOL = ("id", "option", "uciok", "readyok", "info", "bestmove")
FAST = "setoption name Searcher value negascout(tt=on, iterative=on)\n"


def dialogue(commands: str, timeout: float = 60) -> list[str]:
    done = subprocess.run(
        ENGINE, input=commands + "quit\n", capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(line.split()[0] in PROTOCOL for line in lines if line.strip()), lines
    return lines


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def notes(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string")]


def legal_from_start(move: str) -> bool:
    return chess.Move.from_uci(move) in chess.Board().legal_moves


@pytest.mark.parametrize("counter", ["99999999999999999999 1", "0 2147483648"])
def test_a_fen_with_a_huge_move_counter_is_refused_and_the_engine_plays_on(counter):
    lines = dialogue(f"position fen 8/8/8/4k3/8/8/3QK3/8 w - - {counter}\nisready\ngo depth 1\n")
    assert any("halfmove must be 0 to" in note for note in notes(lines))
    assert "readyok" in lines and legal_from_start(bestmoves(lines)[0])


@pytest.mark.parametrize(
    "go, note",
    [
        ("go depth nan", "go depth 'nan' is not a number: using 1"),
        ("go depth abc", "go depth 'abc' is not a number: using 1"),
        ("go depth -1", "go depth -1 is out of range: using 1"),
        ("go depth 0", "go depth 0 is out of range: using 1"),
        ("go nodes -5", "go nodes -5 is out of range: using 1"),
        ("go winc -100000 depth 1", "go winc -100000 is out of range: using 0"),
        ("go depth 99999999999999999999", "is out of range: using 100"),
        ("go wtime 0 btime 0", "no time left on the clock"),
    ],
)
def test_every_go_gets_one_legal_bestmove_and_a_note_on_what_was_changed(go, note):
    lines = dialogue(FAST + f"{go}\nisready\n")
    assert any(note in line for line in notes(lines)), notes(lines)
    moves = bestmoves(lines)
    assert len(moves) == 1 and legal_from_start(moves[0])


@pytest.mark.parametrize(
    "go", ["go wtime 99999999999999999999", "go wtime inf", "go movetime 1e400", "go infinite"]
)
def test_an_unbounded_go_still_ends_with_one_bestmove_at_stop(go):
    lines = dialogue(FAST + f"{go}\nisready\nstop\nisready\n")
    assert lines.count("readyok") == 2
    moves = bestmoves(lines)
    assert len(moves) == 1 and legal_from_start(moves[0])


@pytest.mark.parametrize(
    "interrupt", ["go depth 2", "ucinewgame", "position startpos", "setoption name Hash value 8"]
)
def test_a_command_during_an_infinite_search_stops_it_instead_of_deadlocking(interrupt):
    lines = dialogue(FAST + f"go infinite\nisready\n{interrupt}\nisready\nstop\n", timeout=30)
    assert lines.count("readyok") == 2
    moves = bestmoves(lines)
    expected = 2 if interrupt.startswith("go") else 1
    assert len(moves) == expected and all(legal_from_start(m) for m in moves)


def test_searchmoves_restricts_the_root_moves():
    lines = dialogue(
        FAST + "go searchmoves e2e4 depth 2\ngo searchmoves a2a3 h2h3 depth 2\n"
        "go searchmoves z9z9 depth 1\n"
    )
    moves = bestmoves(lines)
    assert moves[0] == "e2e4" and moves[1] in ("a2a3", "h2h3")
    assert any("'z9z9' is not legal here" in note for note in notes(lines))
    assert legal_from_start(moves[2])


@pytest.mark.parametrize(
    "option, value, fragment",
    [
        ("Hash", "999999999", "outside 1..4096; kept 16"),
        ("Hash", "99999999999999999999999", "outside 1..4096; kept 16"),
        ("Hash", "many", "needs a whole number"),
        ("Threads", "65", "outside 1..64; kept 1"),
        ("Threads", "0", "outside 1..64; kept 1"),
        ("Searcher", "nonsense(", "missing ')'"),
        ("Evaluator", "nope", "unknown evaluator 'nope'"),
        ("BookFile", "/no/such/book.bin", "/no/such/book.bin"),
        ("OwnBook", "maybe", "true or false"),
    ],
)
def test_a_rejected_setoption_says_why_and_keeps_the_previous_value(option, value, fragment):
    lines = dialogue(FAST + f"setoption name {option} value {value}\ngo depth 2\n")
    assert any(fragment in note for note in notes(lines)), notes(lines)
    moves = bestmoves(lines)
    assert len(moves) == 1 and legal_from_start(moves[0])
    assert not any("error" in note for note in notes(lines)[1:])  # the search itself is fine


def test_a_searcher_that_cannot_take_the_limit_still_answers_with_a_legal_move():
    lines = dialogue("setoption name Searcher value mcts\ngo depth 3\n")
    assert any("mcts has no depth" in note for note in notes(lines))
    assert legal_from_start(bestmoves(lines)[0])


def test_a_fixed_depth_searcher_with_a_clock_falls_back_to_a_legal_move():
    lines = dialogue("setoption name Searcher value alphabeta(depth=2)\ngo wtime 1000 btime 1000\n")
    assert any("cannot keep to a time" in note for note in notes(lines))
    assert legal_from_start(bestmoves(lines)[0])


def test_bestmove_0000_only_where_there_is_no_legal_move():
    lines = dialogue("position fen 7k/5QQ1/8/8/8/8/8/K7 b - - 0 1\ngo depth 2\n")
    assert bestmoves(lines) == ["0000"]


def test_the_table_carries_over_between_moves_and_ucinewgame_clears_it():
    def search() -> list[str]:
        engine.stdin.write("position startpos moves e2e4 e7e5\ngo depth 5\n")
        lines = []
        while not lines or not lines[-1].startswith("bestmove"):
            lines.append(engine.stdout.readline().strip())
        return lines

    def numbers(lines: list[str], depth: int) -> dict[str, int]:
        line = next(x for x in lines if x.startswith(f"info depth {depth} "))
        words = line.split()
        return {key: int(words[words.index(key) + 1]) for key in ("nodes", "hashfull")}

    with subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    ) as engine:
        engine.stdin.write(FAST.replace("iterative=on)", "iterative=on, keep_table=on)"))
        first, second = search(), search()
        engine.stdin.write("ucinewgame\n")
        third = search()
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        assert engine.wait(timeout=30) == 0
    assert numbers(second, 5)["nodes"] < numbers(first, 5)["nodes"]  # the first search's hits
    assert numbers(second, 1)["hashfull"] > numbers(first, 1)["hashfull"]
    assert numbers(third, 5) == numbers(first, 5)  # a cleared table: the same search again
