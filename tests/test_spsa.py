"""SPSA tuning in the arena: parameters, the gain schedule, θ replayed from recorded games,
the run (deterministic on any executor, resumable) and its command."""

import sqlite3

import pytest
from attrs import frozen

from alfabeta.arena import Player, ResultsDB
from alfabeta.arena.spsa import Parameter, Schedule, Tuning, pair_results, replay
from alfabeta.cli import main
from alfabeta.core import InvalidOptionError


@frozen
class Played:
    """The fields of a GameResult that SPSA reads."""

    pair: int
    players: tuple[str, str]
    winner: int | None


def pair_of(pair, plus_points):
    """Two games of ``pair`` in which plus scores ``plus_points`` (wins minus losses)."""
    first = {2: 0, 1: 0, 0: None, -1: 1, -2: 1}[plus_points]
    second = {2: 1, 1: None, 0: None, -1: None, -2: 0}[plus_points]
    return [Played(pair, ("plus", "minus"), first), Played(pair, ("minus", "plus"), second)]


def depth_tuning(**options):
    options.setdefault("pairs", 6)
    return Tuning(
        "connect-four",
        Player("alphabeta(depth={depth})"),
        [Parameter.parse("depth,2,1,5,1,0.05")],
        random_plies=4,
        seed=3,
        **options,
    )


# ---- parameters ----------------------------------------------------------------------------
def test_a_parameter_reads_fishtests_line_with_the_rate_optional():
    assert Parameter.parse("rfp, 80, 40, 160, 10") == Parameter("rfp", 80, 40, 160, 10, 0.002)
    assert Parameter.parse("rfp,80,40,160,10,0.005").rate == 0.005


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("rfp,80,40,160", "expected name,start,low,high,step"),
        ("rfp,eighty,40,160,10", "must be numbers"),
        ("rfp,nan,40,160,10", "finite"),
        ("rfp,200,40,160,10", "start 200 outside 40 to 160"),
        ("rfp,80,40,160,0", "must be > 0"),
        ("rfp,80,40,160,10,-1", "must be > 0"),
        ("r fp,80,40,160,10", "expected an identifier"),
    ],
)
def test_a_malformed_parameter_is_refused_with_what_is_wrong(text, fragment):
    with pytest.raises(InvalidOptionError, match=fragment):
        Parameter.parse(text)


# ---- the schedule --------------------------------------------------------------------------
def test_the_gains_end_at_step_and_rate_and_start_larger_by_spalls_exponents():
    schedule = Schedule((Parameter("x", 0, -100, 100, 2, 0.002),), pairs=10)
    c, a = schedule.gains(9)
    assert c[0] == pytest.approx(2) and a[0] == pytest.approx(0.002 * 4)
    c, a = schedule.gains(0)
    assert c[0] == pytest.approx(2 * 10**0.101)
    assert a[0] == pytest.approx(0.008 * (11 / 2) ** 0.602)


def test_flips_are_signs_drawn_from_the_seed_and_the_pair():
    parameters = tuple(Parameter(f"p{i}", 0, -9, 9, 1) for i in range(16))
    schedule = Schedule(parameters, pairs=4, seed=7)
    flips = schedule.flips(2)
    assert set(flips) == {-1, 1}
    assert (flips == Schedule(parameters, pairs=4, seed=7).flips(2)).all()
    assert (flips != schedule.flips(3)).any() and (
        flips != Schedule(parameters, 4, 8).flips(2)
    ).any()


def test_the_sides_are_theta_moved_both_ways_rounded_and_kept_in_bounds():
    schedule = Schedule((Parameter("x", 10, 0, 11, 3), Parameter("y", 5, 0, 100, 3)), pairs=1)
    plus, minus = schedule.sides(schedule.start(), 0)  # one pair: c_k = step = 3
    up_x, up_y = schedule.flips(0) > 0
    assert plus == {"x": 11 if up_x else 7, "y": 8 if up_y else 2}  # 13 is out of bounds
    assert minus == {"x": 7 if up_x else 11, "y": 2 if up_y else 8}


# ---- θ from the recorded games ---------------------------------------------------------------
def test_pair_results_count_plus_wins_minus_losses_over_complete_pairs_only():
    games = pair_of(0, 2) + pair_of(1, -1) + pair_of(2, 0) + pair_of(3, 1)[:1]
    assert pair_results(games) == {0: 2, 1: -1, 2: 0}


def test_replay_moves_theta_by_each_pair_from_the_batchs_start_and_stops_at_a_gap():
    parameter = Parameter("x", 50, 0, 100, 4, 0.01)
    schedule = Schedule((parameter,), pairs=6, seed=1)
    games = pair_of(0, 2) + pair_of(1, -1) + pair_of(2, 1) + pair_of(3, 0) + pair_of(5, 2)
    thetas = replay(schedule, 2, games)
    assert len(thetas) == 3  # pairs 0-1 and 2-3; pair 4 is missing
    step = [schedule.increment(p, r)[0] for p, r in [(0, 2), (1, -1), (2, 1), (3, 0)]]
    assert thetas[1][0] == pytest.approx(50 + step[0] + step[1])
    assert thetas[2][0] == pytest.approx(50 + sum(step))
    c, a = schedule.gains(0)
    assert step[0] == pytest.approx(a[0] / c[0] * 2 * schedule.flips(0)[0])


def test_replay_keeps_theta_within_the_bounds():
    schedule = Schedule((Parameter("x", 99, 0, 100, 4, 10.0),), pairs=2)
    toward_high = 2 * int(schedule.flips(0)[0])
    thetas = replay(schedule, 1, pair_of(0, toward_high))
    assert thetas[1][0] == 100


# ---- runs ------------------------------------------------------------------------------------
def test_a_tuning_moves_depth_up_where_deeper_search_wins():
    result = depth_tuning(pairs=12, executor="serial").run()
    thetas = [t[0] for t in result.thetas()]
    assert len(thetas) == 13 and thetas[-1] > 2.5
    assert result.values() == {"depth": round(thetas[-1])}


def test_the_progress_bar_shows_the_values_to_play(capsys):
    from alfabeta.arena.progress import RunProgress

    progress = RunProgress(enabled=True)
    result = depth_tuning(pairs=2, executor="serial").run(progress=progress)
    assert progress.summarise(result.games) == f"depth={result.values()['depth']}"


def test_a_tuning_plays_the_same_games_on_any_executor():
    serial = depth_tuning(batch=2, executor="serial").run()
    pool = depth_tuning(batch=2, concurrency=2).run()
    assert [g.moves for g in serial.games] == [g.moves for g in pool.games]
    assert [list(t) for t in serial.thetas()] == [list(t) for t in pool.thetas()]


def test_a_resumed_tuning_replays_theta_and_plays_the_same_games(tmp_path):
    whole = depth_tuning(batch=2, executor="serial").run()
    db = tmp_path / "t.sqlite"
    depth_tuning(batch=2, executor="serial").run(db=db)
    with sqlite3.connect(db) as connection:  # as if stopped in the middle of batch 1
        connection.execute("DELETE FROM games WHERE game_index >= 5")
        connection.execute("UPDATE runs SET status = 'interrupted'")
    resumed = depth_tuning(batch=2, executor="serial").run(db=db, resume=True)
    assert [g.moves for g in resumed.games] == [g.moves for g in whole.games]
    assert [list(t) for t in resumed.thetas()] == [list(t) for t in whole.thetas()]
    assert ResultsDB(db).run().status == "finished"


@pytest.mark.parametrize(
    "spec, parameters, fragment",
    [
        ("alphabeta(depth=3)", ["depth,2,1,5,1"], "give each parameter one {name} field"),
        ("alphabeta(depth={depth})", ["depth,2,1,5,1", "d,2,1,5,1"], "give each parameter"),
        ("alphabeta(depth={depth})", ["depth,2,1,5,1", "depth,3,1,5,1"], "distinct names"),
        ("alphabeta(depth={depth)", ["depth,2,1,5,1"], "expected '}'"),
    ],
)
def test_a_template_must_hold_one_field_per_parameter(spec, parameters, fragment):
    with pytest.raises(InvalidOptionError, match=fragment):
        Tuning("connect-four", Player(spec), [Parameter.parse(p) for p in parameters])


def test_a_bound_that_makes_no_player_is_refused_before_any_game(tmp_path):
    tuning = Tuning(
        "connect-four",
        Player("negascout(depth=2, lmr_scale={scale})"),
        [Parameter.parse("scale,100,0,200,10")],
        pairs=2,
    )
    with pytest.raises(InvalidOptionError, match=r"parameter scale at 0: .*lmr_scale=0"):
        tuning.run(db=tmp_path / "t.sqlite")
    assert ResultsDB(tmp_path / "t.sqlite").runs() == []


# ---- the command -----------------------------------------------------------------------------
SPSA = ["spsa", "connect-four", "alphabeta(depth={depth})", "--param", "depth,2,1,5,1,0.05"]


def test_the_spsa_command_prints_the_values_and_results_shows_the_run(capsys, tmp_path):
    db = str(tmp_path / "t.sqlite")
    argv = [*SPSA, "--pairs", "6", "--random-plies", "4", "--seed", "3", "--db", db, "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    expected = depth_tuning(executor="serial").run()
    depth = expected.values()["depth"]
    assert "6 of 6 pairs, 6 steps of θ, finished" in out
    assert f"Tuned: alphabeta(depth={depth})" in out
    assert main(["results", db]) == 0
    shown = capsys.readouterr().out
    assert "spsa of connect-four, 12/12 games, finished" in shown
    assert f"depth: 2 -> {expected.thetas()[-1][0]:.2f} (plays {depth}" in shown


def test_results_plots_a_tunings_values(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    db = str(tmp_path / "t.sqlite")
    depth_tuning(executor="serial").run(db=db)
    plot = tmp_path / "theta.png"
    assert main(["results", db, "--plot", str(plot)]) == 0
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--param", "depth,9,1,5,1"], "start 9 outside 1 to 5"),
        (["--pairs", "0"], "pairs=0"),
        (["--resume"], "give --db"),
    ],
)
def test_the_spsa_command_refuses_bad_input(capsys, extra, fragment):
    assert main([*SPSA, *extra]) == 2
    assert fragment in capsys.readouterr().err
