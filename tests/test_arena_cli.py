"""The arena's commands as a user runs them: match, tournament, results, and what survives
Ctrl-C and a killed worker."""

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import default_sigint

from alfabeta.arena import ResultsDB
from alfabeta.arena.records import read_jsonl_games
from alfabeta.cli import main

SLOW_MATCH = [
    "match",
    "chess",
    "alphabeta(depth=3)",
    "alphabeta(depth=2)",
    "--evaluator",
    "material",
    "--max-plies",
    "60",
    "--random-plies",
    "4",
    "--seed",
    "5",
]


def run_cli(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_match_prints_score_pentanomial_elo_and_terminations(capsys, tmp_path):
    code, out, _ = run_cli(
        capsys,
        "match",
        "fibonacci-nim(n=12)",
        "deep=alphabeta(depth=4)",
        "alphabeta(depth=1)",
        "--evaluator",
        "2:nim-naive",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--db",
        str(tmp_path / "r.sqlite"),
    )
    assert code == 0
    lines = out.splitlines()
    assert re.fullmatch(
        r"Score of deep vs alphabeta\(depth=1\): \d+ - \d+ - \d+ \[\d\.\d{3}\] 4", lines[0]
    )
    assert re.fullmatch(r"Ptnml\(0-2\): \[\d+, \d+, \d+, \d+, \d+\]", lines[1])
    assert re.match(r"Elo difference: \S+ \+/- \S+, LOS: \d+\.\d %, DrawRatio: \d+\.\d %", lines[2])
    assert lines[3].startswith("Terminations: normal 4")
    game = ResultsDB(tmp_path / "r.sqlite").games(1)[1]
    assert game.players == ("alphabeta(depth=1)", "deep")


def test_match_with_sprt_says_when_it_stopped(capsys):
    code, out, _ = run_cli(
        capsys,
        "match",
        "connect-four",
        "alphabeta(depth=5)",
        "alphabeta(depth=1)",
        "--games",
        "300",
        "--random-plies",
        "2",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0 elo1=10 alpha=0.05 beta=0.05",
    )
    assert code == 0
    assert re.search(r"SPRT \[0\.00, 10\.00\]: LLR \d+\.\d\d \(-2\.94, 2\.94\) - H1 accepted", out)
    assert "Stopped after" in out and "of 300 games: the SPRT decided" in out


def test_tournament_prints_a_crosstable_and_results_shows_it_again(capsys, tmp_path):
    db = str(tmp_path / "t.sqlite")
    code, out, _ = run_cli(
        capsys,
        "tournament",
        "connect-four",
        "a=alphabeta(depth=1)",
        "b=alphabeta(depth=3)",
        "c=alphabeta(depth=5)",
        "--rounds",
        "2",
        "--random-plies",
        "2",
        "--concurrency",
        "2",
        "--db",
        db,
        "--plain",
    )
    assert code == 0
    header = out.splitlines()[0].split()
    assert header == ["Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw", "1", "2", "3"]
    rows = [line.split() for line in out.splitlines()[1:4]]
    assert sorted(row[1] for row in rows) == ["a", "b", "c"]
    assert all(row[4] == "8" for row in rows)
    assert "12 games" in out
    code, again, _ = run_cli(capsys, "results", db, "--plain", "--csv", str(tmp_path / "t.csv"))
    assert code == 0 and "run 1: tournament of connect-four, 12/12 games, finished" in again
    assert [line.split()[1] for line in again.splitlines()[2:5]] == [r[1] for r in rows]
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 13


def test_results_plots_elo_with_its_interval(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    db = str(tmp_path / "r.sqlite")
    run_cli(
        capsys,
        "match",
        "connect-four",
        "alphabeta(depth=3)",
        "alphabeta(depth=1)",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--db",
        db,
    )
    code, _, _ = run_cli(capsys, "results", db, "--plot", str(tmp_path / "elo.png"))
    assert code == 0 and (tmp_path / "elo.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["match", "connect-four", "nosuch", "alphabeta"], "unknown searcher 'nosuch'"),
        (["match", "connect-four", "alphabeta", "negamax", "--tc", "fast"], "time control"),
        (["match", "connect-four", "alphabeta", "negamax", "--depth", "3:2"], "no player 3"),
        (["match", "connect-four", "alphabeta", "negamax", "--resume"], "give --db"),
        (["match", "connect-four", "alphabeta", "negamax", "--pgn", "x.pgn"], "for chess"),
        (
            ["match", "connect-four", "alphabeta", "negamax", "--sprt", "elo0=5 elo1=0"],
            "must be below",
        ),
        (
            ["match", "connect-four", "alphabeta", "negamax", "--resign", "score=3"],
            "missing movecount",
        ),
        (["match", "connect-four", "alphabeta", "negamax", "--executor", "ray://x"], "--executor"),
        (["tournament", "connect-four", "alphabeta"], "at least two"),
        (["results", "missing.sqlite"], "no results database"),
    ],
)
def test_bad_arena_input_is_a_clear_error_with_exit_2(
    capsys, tmp_path, monkeypatch, argv, fragment
):
    monkeypatch.chdir(tmp_path)
    code, _out, err = run_cli(capsys, *argv)
    assert code == 2 and fragment in err
    assert "Traceback" not in err


def _games_in(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.fixture
def started():
    """Starts match processes; any still running when the test ends is killed."""
    processes = []

    def start(tmp_path: Path, *extra: str) -> subprocess.Popen:
        argv = [
            sys.executable,
            "-m",
            "alfabeta.cli",
            *SLOW_MATCH,
            "--db",
            str(tmp_path / "r.sqlite"),
            "--jsonl",
            str(tmp_path / "r.jsonl"),
            "--pgn",
            str(tmp_path / "r.pgn"),
            *extra,
        ]
        processes.append(
            subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=tmp_path,
                preexec_fn=default_sigint,
            )
        )
        return processes[-1]

    yield start
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _wait_for_games(db: Path, count: int, process: subprocess.Popen, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while _games_in(db) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no games recorded in time"
        time.sleep(0.05)


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _check_records(tmp_path: Path, expected: int | None = None) -> list:
    store = ResultsDB(tmp_path / "r.sqlite")
    games = store.games(store.run().id)
    indices = [g.index for g in games]
    assert len(indices) == len(set(indices))
    assert sorted(g.index for g in read_jsonl_games(tmp_path / "r.jsonl")) == sorted(indices)
    rounds = re.findall(r'\[Round "(\d+)"\]', (tmp_path / "r.pgn").read_text())
    assert sorted(int(r) - 1 for r in rounds) == sorted(indices)
    if expected is not None:
        assert sorted(indices) == list(range(expected))
    return games


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_ctrl_c_or_kill_keeps_every_finished_game_and_resume_completes_the_match(
    tmp_path, started, stop
):
    process = started(tmp_path, "--games", "24", "--concurrency", "2")
    _wait_for_games(tmp_path / "r.sqlite", 3, process)
    process.send_signal(stop)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    said = re.search(r"interrupted: (\d+) games recorded; --resume plays the rest", err)
    assert said, err
    kept = _check_records(tmp_path)
    assert 3 <= len(kept) == int(said.group(1)) < 24
    assert ResultsDB(tmp_path / "r.sqlite").run().status == "interrupted"

    resumed = started(tmp_path, "--games", "24", "--concurrency", "2", "--resume")
    out, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert "Score of alphabeta(depth=3) vs alphabeta(depth=2)" in out and "] 24" in out
    games = _check_records(tmp_path, 24)
    kept_moves = {g.index: g.moves for g in kept}
    assert all(g.moves == kept_moves[g.index] for g in games if g.index in kept_moves)
    finished = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [r["resumed"] for r in finished if r["type"] == "run"] == [False, True]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_a_killed_worker_loses_no_finished_game_and_the_match_completes(tmp_path, started):
    process = started(tmp_path, "--games", "16", "--concurrency", "2")
    _wait_for_games(tmp_path / "r.sqlite", 2, process)
    servers = [
        pid
        for pid in _descendants(process.pid)
        if b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]
    workers = [pid for server in servers[:1] for pid in _descendants(server)]
    assert workers  # pool workers are forked from the fork server
    os.kill(workers[0], signal.SIGKILL)
    _out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    _check_records(tmp_path, 16)


MATCH_SCRIPT = """
import sys
from alfabeta.arena import Adjudication, Match, Player, RunInterrupted
match = Match("chess", Player("alphabeta(depth=3)", evaluator="material"),
              Player("alphabeta(depth=2)", evaluator="material"), games=24,
              adjudication=Adjudication(max_plies=60), random_plies=4, seed=5, concurrency=2)
try:
    match.run(db=sys.argv[1])
except RunInterrupted as stopped:
    print(stopped.games)
    sys.exit(130)
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_sigterm_stops_a_scripted_match_with_sigint_ignored_and_ends_its_workers(tmp_path):
    """A script's ``Match.run`` in the background (SIGINT ignored, as a shell starts it
    there) stopped by a plain ``kill``: the games kept, the run marked interrupted, no
    worker left behind."""
    db = tmp_path / "r.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-c", MATCH_SCRIPT, str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
        start_new_session=True,  # its own process group, for the cleanup below
    )
    try:
        _wait_for_games(db, 3, process)
        workers = _descendants(process.pid)
        assert workers
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 130, err
        store = ResultsDB(db)
        assert store.run().status == "interrupted"
        assert 3 <= len(store.games(store.run().id)) == int(out) < 24
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived the run"
            time.sleep(0.05)
    finally:  # whatever failed, leave no process of the run behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
