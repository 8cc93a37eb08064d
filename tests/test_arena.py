"""The arena: players, clocks, adjudication, openings, jobs, records, matches and tournaments."""

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from alfabeta import load_catalog
from alfabeta.arena import (
    SPRT,
    Adjudication,
    DrawRule,
    GameJob,
    GameResult,
    Match,
    Opening,
    OpeningError,
    Player,
    RecordsError,
    ResignRule,
    ResultsDB,
    TimeControl,
    Tournament,
    play_job,
)
from alfabeta.arena.adjudication import Adjudicator
from alfabeta.arena.clock import Clock, clock_limit
from alfabeta.arena.openings import choose_opening, read_openings
from alfabeta.arena.records import games_of, read_jsonl_games
from alfabeta.core import (
    InvalidOptionError,
    SearchResult,
    UnknownPluginError,
    UnsupportedLimitError,
)
from alfabeta.plugins import hookimpl

ENGINE = Path(__file__).parent / "data" / "engines" / "scripted_uci.py"
C4 = "connect-four"


def engine(mode: str, *extra: str) -> str:
    words = " ".join([sys.executable, str(ENGINE), mode, *extra])
    return f"uci(command={words!r})"


# ---- time controls and clocks ------------------------------------------------------------
@pytest.mark.parametrize(
    "text, control",
    [
        ("10+0.1", TimeControl(10, 0.1)),
        ("40/60", TimeControl(60, 0, 40)),
        ("40/60+0.5", TimeControl(60, 0.5, 40)),
        ("300", TimeControl(300)),
    ],
)
def test_time_controls_read_and_write_the_cutechess_notation(text, control):
    assert TimeControl.parse(text) == control
    assert str(control) == text


@pytest.mark.parametrize("text", ["", "ten", "40/", "0+0", "-5+1", "inf+0", "0/60"])
def test_bad_time_controls_are_refused(text):
    with pytest.raises(InvalidOptionError, match="time control"):
        TimeControl.parse(text)


def test_a_clock_takes_the_move_adds_the_increment_and_refills_each_period():
    clock = Clock(TimeControl(60, 1, 2))
    assert clock.movestogo == 2
    assert clock.spend(10, margin=0.1) and clock.remaining == 51
    assert clock.movestogo == 1
    assert clock.spend(1, margin=0.1) and clock.remaining == 51 + 60  # 50 + 1, refilled
    assert clock.movestogo == 2


def test_a_move_beyond_the_time_left_and_the_margin_loses_on_time():
    clock = Clock(TimeControl(1))
    assert clock.spend(1.05, margin=0.1)  # within the margin: flag not fallen
    assert not Clock(TimeControl(1)).spend(1.2, margin=0.1)


def test_the_clock_limit_shows_each_side_its_own_time():
    white, black = Clock(TimeControl(10, 0.1)), Clock(TimeControl(5, 0.05))
    limit = clock_limit((white, black), 1)
    assert (limit.wtime, limit.btime, limit.winc, limit.binc) == (10, 5, 0.1, 0.05)
    assert clock_limit((None, black), 0).wtime is None


# ---- adjudication --------------------------------------------------------------------------
def test_resign_after_movecount_own_moves_at_or_below_minus_score():
    judge = Adjudicator(Adjudication(resign=ResignRule(movecount=3, score=600)))
    for ply, (side, score) in enumerate([(0, -600), (1, 600), (0, -700), (1, 650)], 1):
        assert judge.after_move(side, score, ply, ply // 2 + 1) is None
    outcome = judge.after_move(0, -601, 5, 3)
    assert outcome.winner == 1 and "resign" in outcome.reason


def test_a_move_without_a_score_breaks_every_streak():
    judge = Adjudicator(Adjudication(resign=ResignRule(movecount=2, score=100)))
    assert judge.after_move(0, -500, 1, 1) is None
    assert judge.after_move(1, None, 2, 2) is None
    assert judge.after_move(0, -500, 3, 2) is None


def test_draw_when_both_sides_stay_level_from_the_move_number_on():
    judge = Adjudicator(Adjudication(draw=DrawRule(movenumber=3, movecount=2, score=20)))
    scores = [5, -5, 20, -20]  # four level plies = two moves of each side
    outcomes = [judge.after_move(i % 2, s, i + 1, 1 + (i + 1) // 2) for i, s in enumerate(scores)]
    assert outcomes[:3] == [None, None, None]
    assert outcomes[3].winner is None and outcomes[3].reason == "adjudication: draw"


def test_draw_adjudication_waits_for_its_move_number():
    judge = Adjudicator(Adjudication(draw=DrawRule(movenumber=40, movecount=1, score=20)))
    assert judge.after_move(0, 0, 1, 1) is None and judge.after_move(1, 0, 2, 2) is None


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("movecount=3", "missing score"),
        ("movecount=x score=1", "not a whole number"),
        ("moves=3 score=1", "got 'moves=3'"),
        ("movecount=0 score=1", "too small"),
    ],
)
def test_bad_adjudication_rules_are_refused(text, fragment):
    with pytest.raises(InvalidOptionError, match=fragment):
        ResignRule.parse(text)


# ---- players and jobs --------------------------------------------------------------------
def test_players_are_named_by_spec_or_by_a_name_prefix():
    assert Player("negascout(tt=on)").name == "negascout(tt=on)"
    named = Player("ns=negascout(tt=on)", depth=3)
    assert (named.name, named.spec, named.depth, named.kind) == (
        "ns",
        "negascout(tt=on)",
        3,
        "searcher",
    )
    assert Player("human").kind == "human"
    assert Player("uci(command=stockfish)").kind == "uci"


def test_a_job_and_its_result_round_trip_through_json(catalog):
    job = GameJob(
        3,
        1,
        C4,
        (Player("alphabeta(depth=3)", tc="10+0.1"), Player("negamax(depth=2)")),
        Opening(None, ("4", "4"), "x"),
        Adjudication(ResignRule(3, 600), DrawRule(34, 8, 20), 80),
        seed=5,
        version="0",
    )
    assert GameJob.from_dict(json.loads(json.dumps(job.to_dict()))) == job
    result = play_job(
        GameJob(
            0,
            0,
            C4,
            (Player("alphabeta(depth=3)"), Player("alphabeta(depth=1)")),
            Opening(None, ("4",)),
        )
    )
    assert GameResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result
    assert result.opening == ("4",)
    assert result.start == Opening(None, ("4",)).position(catalog.game(C4)).to_string()


def test_a_job_gives_the_same_game_every_time():
    job = GameJob(
        0,
        0,
        C4,
        (Player("alphabeta(depth=4)"), Player("negamax(depth=3)")),
        Opening(None, ("1", "7")),
    )
    first, second = play_job(job), play_job(job)
    assert first.moves == second.moves and first.nodes == second.nodes


# ---- openings ------------------------------------------------------------------------------
def test_both_games_of_a_pair_share_the_opening_with_colours_swapped():
    match = Match(
        C4,
        Player("a=alphabeta(depth=3)"),
        Player("b=alphabeta(depth=1)"),
        games=4,
        random_plies=3,
        seed=11,
    )
    match._prepare(load_catalog(autoload=False))
    first, second, third = match.job(0), match.job(1), match.job(2)
    assert first.opening == second.opening != third.opening
    assert [p.name for p in first.players] == ["a", "b"]
    assert [p.name for p in second.players] == ["b", "a"]
    assert len(first.opening.moves) == 3


def test_random_openings_depend_only_on_seed_and_pair(catalog):
    game = catalog.game(C4)
    assert choose_opening(None, 4, game, 1, 7) == choose_opening(None, 4, game, 1, 7)
    assert choose_opening(None, 4, game, 1, 7) != choose_opening(None, 4, game, 2, 7)


def test_opening_suites_in_the_games_notation_epd_and_pgn(catalog, tmp_path):
    lines = tmp_path / "c4.txt"
    lines.write_text("# two openings\n44\n\n1234\n")
    suite = read_openings(lines, catalog.game(C4))
    assert [o.start for o in suite] == [
        catalog.game(C4).from_string(t).to_string() for t in ("44", "1234")
    ]
    epd = tmp_path / "o.epd"
    epd.write_text('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "e4";\n')
    assert read_openings(epd, catalog.game("chess"))[0].name == "e4"
    pgn = tmp_path / "o.pgn"
    pgn.write_text(
        '[Event "x"]\n[Opening "Italian"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bc4 *\n'
    )
    opening = read_openings(pgn, catalog.game("chess"))[0]
    assert opening.moves == ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
    assert opening.name == "Italian"


def test_the_wide_suite_holds_1000_distinct_balanced_four_move_openings(catalog):
    from alfabeta.games.chess.pgn import read_pgn

    path = Path(__file__).parent.parent / "benchmarks" / "data" / "openings-wide.pgn"
    chess = catalog.game("chess")
    openings = read_openings(path, chess)
    assert len(openings) == 1000
    assert {len(opening.moves) for opening in openings} == {8}
    ends = {" ".join(o.position(chess).to_string().split()[:4]) for o in openings}
    assert len(ends) == 1000
    scores = [int(game.tags["Score"].split("/")[0]) for game in read_pgn(path)]
    assert len(scores) == 1000 and max(abs(score) for score in scores) <= 80


@pytest.mark.parametrize(
    "name, text, fragment",
    [
        ("bad.txt", "99\n", "line 1"),
        ("empty.txt", "# nothing\n", "holds no opening"),
        ("bad.pgn", "1. e4 e5 2. Ke3 *\n", "game 1, ply 3: 'Ke3' is not a legal move"),
        ("bad.epd", "rnbqkbnr/pppppppp/8/8/8/8 w KQkq -\n", "line 1"),
    ],
)
def test_bad_opening_files_name_the_place(catalog, tmp_path, name, text, fragment):
    path = tmp_path / name
    path.write_text(text)
    game = catalog.game("chess" if name.endswith((".pgn", ".epd")) else C4)
    with pytest.raises((OpeningError, ValueError), match=fragment):
        read_openings(path, game)


def test_a_missing_opening_file_is_a_clear_error(catalog, tmp_path):
    with pytest.raises(OpeningError, match="cannot read openings"):
        read_openings(tmp_path / "nope.epd", catalog.game("chess"))


# ---- matches -----------------------------------------------------------------------------
def nim_match(**options):
    return Match(
        "fibonacci-nim(n=12)",
        Player("alphabeta(depth=4)"),
        Player("alphabeta(depth=1)", evaluator="nim-naive"),
        **options,
    )


def moves_by_index(games):
    return {g.index: (g.players, g.moves, g.result) for g in games}


def test_a_fixed_depth_match_is_the_same_serially_and_in_a_process_pool():
    options = dict(games=8, random_plies=2, seed=4)
    serial = Match(
        C4, Player("alphabeta(depth=4)"), Player("negamax(depth=2)"), executor="serial", **options
    ).run()
    pool = Match(
        C4, Player("alphabeta(depth=4)"), Player("negamax(depth=2)"), concurrency=2, **options
    ).run()
    assert moves_by_index(serial.games) == moves_by_index(pool.games)
    assert serial.wdl() == pool.wdl() and serial.wdl().games == 8


@pytest.mark.slow
def test_a_fixed_depth_match_is_the_same_on_a_dask_local_cluster():
    pytest.importorskip("distributed")
    options = dict(games=6, random_plies=2, seed=4)
    serial = nim_match(executor="serial", **options).run()
    dask = nim_match(executor="dask-local:2", **options).run()
    assert moves_by_index(serial.games) == moves_by_index(dask.games)
    assert {g.worker["pid"] for g in dask.games} != {g.worker["pid"] for g in serial.games}


def test_sprt_stops_a_lopsided_match_and_cancels_the_rest():
    result = Match(
        C4,
        Player("alphabeta(depth=5)"),
        Player("alphabeta(depth=1)"),
        games=400,
        random_plies=2,
        seed=3,
        concurrency=2,
        sprt=SPRT(0, 10),
    ).run()
    assert result.status == "decided" and result.decision() == "H1"
    assert len(result.games) < 200
    assert result.llr() >= result.sprt_test.upper_bound
    assert "H1 accepted" in result.summary()[-1]


def test_the_match_report_reads_like_fastchess():
    result = nim_match(games=6, random_plies=3, seed=2, executor="serial").run()
    wdl = result.wdl()
    lines = result.summary()
    assert lines[0] == (
        f"Score of alphabeta(depth=4) vs alphabeta(depth=1): {wdl.wins} - "
        f"{wdl.losses} - {wdl.draws} [{wdl.score:.3f}] 6"
    )
    assert lines[1] == f"Ptnml(0-2): {result.pentanomial()}"
    assert lines[2].startswith("Elo difference: ") and ", LOS: " in lines[2]
    assert result.pentanomial().pairs == 3


class Observer:
    def __init__(self):
        self.calls = []

    @hookimpl
    def move_played(self, position, move, side, result):
        self.calls.append("move")

    @hookimpl
    def game_finished(self, record):
        self.calls.append("game")


def test_observer_hooks_fire_for_every_game_the_arena_plays():
    observer = Observer()
    catalog = load_catalog(autoload=False, plugins=[("observer", observer)])
    result = nim_match(games=2, executor="serial").run(catalog=catalog)
    assert observer.calls.count("game") == 2
    assert observer.calls.count("move") == sum(g.plies for g in result.games)


class Broken:
    """Searchers that fail in the ways plugins do."""

    class Raises:
        def __init__(self, **options):
            pass

        def search(self, position, evaluator, limit=None):
            raise RuntimeError("out of cheese")

    class Illegal:
        def __init__(self, **options):
            pass

        def search(self, position, evaluator, limit=None):
            return SearchResult(move=99, value=0, depth=1, nodes=1, leaves=1)

    @hookimpl
    def register_searchers(self, register):
        register("raises", Broken.Raises)
        register("illegal", Broken.Illegal)


@pytest.mark.parametrize(
    "spec, termination, reason",
    [("raises", "error", "out of cheese"), ("illegal", "illegal move", "illegal move 99")],
)
def test_a_plugin_that_breaks_loses_the_game_and_the_match_goes_on(spec, termination, reason):
    catalog = load_catalog(autoload=False, plugins=[("broken", Broken())])
    result = Match(
        "fibonacci-nim(n=12)",
        Player(spec),
        Player("alphabeta(depth=2)"),
        games=2,
        executor="serial",
    ).run(catalog=catalog)
    assert [g.termination for g in result.games] == [termination, termination]
    assert all(reason in g.reason for g in result.games)
    assert result.wdl().losses == 2


def test_a_tournament_plays_every_encounter_and_ranks_by_points():
    players = [
        Player("d1=alphabeta(depth=1)"),
        Player("d3=alphabeta(depth=3)"),
        Player("d5=alphabeta(depth=5)"),
    ]
    result = Tournament(C4, players, rounds=2, random_plies=2, seed=1, concurrency=2).run()
    assert len(result.games) == 3 * 2 * 2
    standings = result.standings()
    assert sum(s.points for s in standings) == len(result.games)
    assert [s.wdl.games for s in standings] == [8, 8, 8]
    assert standings[0].points >= standings[-1].points
    assert result.pairwise("d1", "d3").games == 4


def test_a_gauntlet_plays_the_first_player_against_each_other():
    players = [Player(f"p{d}=alphabeta(depth={d})") for d in (2, 1, 3)]
    tournament = Tournament(C4, players, gauntlet=True, executor="serial")
    assert tournament.encounters() == [(0, 1), (0, 2)]
    result = tournament.run()
    assert all("p2" in g.players for g in result.games)
    assert result.pairwise("p1", "p3").games == 0


@pytest.mark.parametrize(
    "players, error, fragment",
    [
        (["nosuch", "alphabeta"], UnknownPluginError, "nosuch"),
        (["alphabeta", "alphabeta"], InvalidOptionError, "share a name"),
        (["uci(command=/no/such/engine)", "alphabeta"], InvalidOptionError, "not found"),
        (["uci(depth=3)", "alphabeta"], InvalidOptionError, "needs command"),
    ],
)
def test_bad_players_are_refused_before_any_game(players, error, fragment):
    match = Match("chess", *(Player(p, depth=1) for p in players), games=2, executor="serial")
    with pytest.raises(error, match=fragment):
        match.run()


def test_an_engine_that_cannot_start_is_refused_with_its_stderr_before_any_game(tmp_path):
    db = tmp_path / "run.sqlite"
    match = Match("chess", Player(engine("no-such-mode")), Player("alphabeta(depth=1)"), games=2)
    with pytest.raises(InvalidOptionError) as refused:
        match.run(db=db)
    message = str(refused.value)
    assert "exited (code 2) during 'uci'" in message
    assert "scripted_uci: no mode 'no-such-mode'" in message
    assert not db.exists() or ResultsDB(db).runs() == []


def test_an_option_the_engine_does_not_declare_is_refused_before_any_game():
    typo = engine("good").replace(")", ", MultiPv=2, Hsh=64)")
    match = Match("chess", Player(typo), Player("alphabeta(depth=1)"), games=2)
    with pytest.raises(InvalidOptionError, match=r"has no option 'Hsh' \(it declares: MultiPV\)"):
        match.run()


def test_a_fixed_depth_searcher_cannot_keep_to_a_clock():
    with pytest.raises(UnsupportedLimitError, match="cannot keep to a time"):
        Match(
            C4,
            Player("alphabeta(depth=3)", tc="10+0.1"),
            Player("alphabeta(depth=1)"),
            executor="serial",
        ).run()


# ---- records -----------------------------------------------------------------------------
def test_every_game_is_in_the_database_and_the_jsonl_file(tmp_path):
    db, jsonl = tmp_path / "r.sqlite", tmp_path / "r.jsonl"
    result = nim_match(games=4, seed=1, random_plies=2).run(db=db, jsonl=jsonl)
    store = ResultsDB(db)
    run = store.run()
    assert (run.kind, run.status, run.games, run.requested) == ("match", "finished", 4, 4)
    assert run.manifest["alfabeta"] and run.manifest["plugins"]
    assert store.games(run.id) == result.games
    assert read_jsonl_games(jsonl) == result.games


def test_a_players_games_are_read_from_several_databases(tmp_path):
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    one = nim_match(games=2, seed=1).run(db=first)
    two = nim_match(games=4, seed=2).run(db=second)
    name = one.games[0].players[0]
    assert games_of([first, second], name) == list(one.games) + list(two.games)
    assert games_of([second, first], None) == list(two.games) + list(one.games)
    with pytest.raises(RecordsError, match=r"b\.sqlite' has no game of 'nobody'; its players"):
        games_of([second], "nobody")


def test_resume_plays_only_the_games_not_yet_recorded(tmp_path):
    db = tmp_path / "r.sqlite"
    first = nim_match(games=4, seed=1, random_plies=2).run(db=db)
    more = nim_match(games=8, seed=1, random_plies=2).run(db=db, resume=True)
    whole = nim_match(games=8, seed=1, random_plies=2).run()
    assert moves_by_index(more.games) == moves_by_index(whole.games)
    assert [g.worker["pid"] for g in more.games[:4]] == [g.worker["pid"] for g in first.games]
    assert len(ResultsDB(db).runs()) == 1


def nim_tournament(rounds):
    players = [Player(f"d{d}=alphabeta(depth={d})") for d in (1, 2, 3)]
    return Tournament("fibonacci-nim(n=12)", players, rounds=rounds, random_plies=2, seed=3)


def test_resume_with_more_rounds_extends_a_finished_tournament(tmp_path):
    db = tmp_path / "t.sqlite"
    first = nim_tournament(rounds=1).run(db=db)
    more = nim_tournament(rounds=3).run(db=db, resume=True)
    whole = nim_tournament(rounds=3).run()
    assert len(first.games) == 6 and len(more.games) == 18
    assert moves_by_index(more.games) == moves_by_index(whole.games)
    assert [g.worker["pid"] for g in more.games[:6]] == [g.worker["pid"] for g in first.games]
    [run] = ResultsDB(db).runs()
    assert (run.requested, run.games, run.status) == (18, 18, "finished")


def test_resume_finds_a_tournament_recorded_with_its_rounds_in_its_configuration(tmp_path):
    db = tmp_path / "t.sqlite"
    nim_tournament(rounds=1).run(db=db)
    with sqlite3.connect(db) as connection:  # as alfabeta recorded tournaments before
        [(config,)] = connection.execute("SELECT config FROM runs").fetchall()
        connection.execute("UPDATE runs SET config = ?", (config[:-1] + ', "rounds": 1}',))
    assert len(nim_tournament(rounds=2).run(db=db, resume=True).games) == 12
    assert len(ResultsDB(db).runs()) == 1


def test_resume_needs_a_database_and_a_matching_run(tmp_path):
    with pytest.raises(RecordsError, match="give --db"):
        nim_match(games=2).run(resume=True)
    nim_match(games=2, seed=1).run(db=tmp_path / "r.sqlite")
    with pytest.raises(RecordsError, match="nothing to resume"):
        nim_match(games=2, seed=2).run(db=tmp_path / "r.sqlite", resume=True)


def test_a_corrupt_or_foreign_database_is_refused(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(RecordsError, match="not a results database"):
        ResultsDB(junk)
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as connection:
        connection.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(RecordsError, match="another program's SQLite database"):
        ResultsDB(foreign)


def test_chess_games_are_written_as_pgn_that_python_chess_replays(tmp_path):
    chess_pgn = pytest.importorskip("chess.pgn")
    pgn = tmp_path / "games.pgn"
    result = Match(
        "chess",
        Player("alphabeta(depth=2)", evaluator="material"),
        Player("alphabeta(depth=1)", evaluator="material"),
        games=4,
        random_plies=4,
        seed=9,
        adjudication=Adjudication(max_plies=60),
        concurrency=2,
    ).run(pgn=pgn)
    by_round = {g.index + 1: g for g in result.games}
    with open(pgn, encoding="utf-8") as text:
        games = [g for g in iter(lambda: chess_pgn.read_game(text), None)]
    assert len(games) == 4
    for parsed in games:
        record = by_round[int(parsed.headers["Round"])]
        assert not parsed.errors
        assert parsed.headers["Result"] == record.result
        assert parsed.headers["White"] == record.players[0]
        assert [m.uci() for m in parsed.mainline_moves()] == [*record.opening, *record.moves]
        board = parsed.end().board()
        if record.termination == "normal":
            assert board.outcome(claim_draw=True).result() == record.result
        else:
            assert parsed.headers["Termination"] == "adjudication"


# ---- external engines --------------------------------------------------------------------
@pytest.mark.parametrize(
    "mode, termination",
    [("crash", "crash"), ("stall", "time forfeit"), ("illegal", "illegal move")],
)
def test_an_engine_that_breaks_loses_each_game_and_the_match_completes(mode, termination):
    result = Match(
        "chess",
        Player(engine(mode), tc="1+0.01", margin=0.05),
        Player("alphabeta(depth=1)", evaluator="material"),
        games=2,
        adjudication=Adjudication(max_plies=8),
        concurrency=2,
    ).run()
    assert [g.termination for g in result.games] == [termination, termination]
    assert result.wdl().losses == 2


def test_an_engine_that_hangs_without_a_clock_is_a_stall():
    from alfabeta.arena.engine import UciPlayer, engine_command

    player = UciPlayer(engine_command([sys.executable, str(ENGINE), "stall"]), stall=0.5)
    position = load_catalog(autoload=False).game("chess")
    with pytest.raises(Exception, match="did not answer 'go'") as caught:
        player.choose(position, lambda *a, **k: None)
    assert caught.value.termination == "stall" and player.engine is None


def test_a_crashed_engine_is_restarted_for_the_next_game(tmp_path):
    flag = tmp_path / "crashed"
    result = Match(
        "chess",
        Player(engine("crash-once", str(flag))),
        Player("alphabeta(depth=1)", evaluator="material"),
        games=2,
        adjudication=Adjudication(max_plies=8),
        executor="serial",
    ).run()
    assert [g.termination for g in result.games] == ["crash", "adjudication"]
    assert flag.exists()


@pytest.mark.slow
def test_a_short_match_against_stockfish_at_a_uci_elo():
    stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if stockfish is None:
        pytest.skip("Debian's stockfish is not installed")
    sf = Player(
        f"sf=uci(command={stockfish!r}, UCI_LimitStrength=true, UCI_Elo=1350, Threads=1, Hash=16)",
        tc="2+0.05",
    )
    ours = Player(
        "ab=negascout(tt=on, iterative=on, quiescence=on)", evaluator="standard", tc="2+0.05"
    )
    result = Match(
        "chess",
        ours,
        sf,
        games=2,
        random_plies=2,
        adjudication=Adjudication(max_plies=80),
        concurrency=2,
    ).run()
    assert len(result.games) == 2
    assert all(g.termination in ("normal", "adjudication") for g in result.games)
    assert all(s is not None for g in result.games for s in g.scores)


def test_an_engine_gets_the_players_depth_nodes_and_movetime(tmp_path):
    from alfabeta.arena.engine import go_command
    from alfabeta.core import Limit

    assert go_command(Player("x", depth=3, nodes=500).limit()) == "go depth 3 nodes 500"
    assert go_command(Player("x", movetime=0.25).limit()) == "go movetime 250"
    clock = Limit(wtime=9.5, btime=10.0, winc=0.1, binc=0.1, movestogo=12)
    assert go_command(clock) == "go wtime 9500 btime 10000 winc 100 binc 100 movestogo 12"


# ---- pondering ---------------------------------------------------------------------------
def pondering_player(log: Path):
    from alfabeta.arena.engine import UciPlayer, engine_command

    command = engine_command([sys.executable, str(ENGINE), "ponder", str(log)])
    return UciPlayer(command, {"Ponder": True})


def first_legal(position) -> str:
    return position.move_str(position.legal_moves()[0])


def test_a_pondering_engine_hits_on_the_expected_reply_and_stops_on_another(tmp_path, catalog):
    from alfabeta.core import Limit

    log = tmp_path / "dialogue.txt"
    player = pondering_player(log)
    game = catalog.game("chess").copy()
    clock = Limit(wtime=10.0, btime=10.0, winc=0.1, binc=0.1)
    played, expected = [], []  # the moves, and the reply the engine expected after each of its

    def move_and_reply(reply_index: int) -> None:
        move, _ = player.choose(game, lambda *a, **k: None, clock)
        assert game.move_str(move) == first_legal(game)  # this position's answer, none other
        game.push(move)
        expected.append(first_legal(game))
        reply = game.legal_moves()[reply_index]
        played.extend([game.move_str(move), game.move_str(reply)])
        game.push(reply)

    player.new_game()
    try:
        move_and_reply(0)  # the reply it expects: the first legal one
        move_and_reply(-1)  # a reply it did not expect
        move_and_reply(0)
        player.new_game()  # the last ponder search is still running
    finally:
        player.close()
    lines = log.read_text().splitlines()
    ponders = [line for line in lines if line.startswith("go ponder")]
    assert len(ponders) == 3
    for line in ponders:  # white's clock after its move and increment; black's untouched
        words = line.split()
        assert 9_900 <= int(words[3]) <= 10_100
        assert words[4:] == ["btime", "10000", "winc", "100", "binc", "100"]
    start = f"position fen {game.root_string()}"
    go = "go wtime 10000 btime 10000 winc 100 binc 100"
    handshake = ["uci", "setoption name Ponder value true", "isready", "ucinewgame", "isready"]
    dialogue = [
        *handshake,
        start,
        go,
        f"{start} moves {' '.join(played[:2])}",  # pondering the expected reply
        "ponderhit",  # which came
        f"{start} moves {' '.join([*played[:3], expected[1]])}",
        "stop",  # another reply came
        f"{start} moves {' '.join(played[:4])}",
        go,
        f"{start} moves {' '.join(played[:6])}",
        "stop",  # a new game ends the ponder search left from the last one
        *handshake[3:],
        "quit",
    ]
    assert [line for line in lines if not line.startswith("go ponder")] == dialogue
    assert played[3] != expected[1]


def test_an_engine_ponders_only_with_a_clock_and_only_when_asked(tmp_path, catalog):
    from alfabeta.arena.engine import UciPlayer, engine_command
    from alfabeta.core import Limit

    log = tmp_path / "dialogue.txt"
    game = catalog.game("chess")
    without_clock = pondering_player(log)
    without_clock.choose(game, lambda *a, **k: None, Limit(depth=3))
    without_clock.close()
    command = engine_command([sys.executable, str(ENGINE), "ponder", str(log)])
    not_asked = UciPlayer(command, {"Ponder": False})
    not_asked.choose(game, lambda *a, **k: None, Limit(wtime=5.0, btime=5.0))
    not_asked.close()
    gos = [line for line in log.read_text().splitlines() if line.startswith("go")]
    assert gos == ["go depth 3", "go wtime 5000 btime 5000"]


def test_a_match_with_a_pondering_engine(tmp_path):
    log = tmp_path / "dialogue.txt"
    words = " ".join([sys.executable, str(ENGINE), "ponder", str(log)])
    result = Match(
        "chess",
        Player(f"ponderer=uci(command={words!r}, Ponder=true)", tc="5+0.1"),
        Player(engine("good"), tc="5+0.1"),  # plays the first legal move: the expected one
        games=2,
        adjudication=Adjudication(max_plies=8),
        executor="serial",
    ).run()
    assert [g.termination for g in result.games] == ["adjudication", "adjudication"]
    lines = log.read_text().splitlines()
    # 4 moves a game as white, 4 as black; each but the first of a game is a ponderhit
    assert lines.count("ponderhit") == 6
    assert sum(line.startswith("go wtime") for line in lines) == 2


def test_uci_info_lines_give_the_score_as_a_search_value():
    from alfabeta.arena.engine import parse_info
    from alfabeta.core import WIN

    info = parse_info("info depth 7 seldepth 9 score cp -35 nodes 1234 nps 5 pv e2e4 e7e5")
    assert info == {"depth": 7, "score": -35, "nodes": 1234, "pv": ["e2e4", "e7e5"]}
    assert parse_info("info depth 3 score mate 2 pv a1a8")["score"] == WIN - 3
    assert parse_info("info depth 3 score mate -1")["score"] == -(WIN - 2)
    assert parse_info("info string depth nonsense") == {}
    assert parse_info("info depth 9 multipv 3 score cp 4 pv d2d4")["multipv"] == 3


def test_an_engine_analysis_gives_every_line_of_a_multipv_search(catalog):
    from alfabeta.arena.engine import UciEngine

    engine = UciEngine([sys.executable, str(ENGINE), "good"], {"MultiPV": 3})
    engine.start()
    try:
        best, infos = engine.analyse("position startpos moves e2e4", "go depth 1", 10)
        _, merged = engine.search("position startpos moves e2e4", "go depth 1", 10)
    finally:
        engine.close()
    after_e4 = catalog.game("chess").copy()
    after_e4.push(after_e4.parse_move("e2e4"))
    moves = [after_e4.move_str(m) for m in after_e4.legal_moves()[:3]]
    assert [(i["multipv"], i["score"], i["pv"]) for i in infos] == [
        (1, 12, [moves[0]]),
        (2, 11, [moves[1]]),
        (3, 10, [moves[2]]),
    ]
    assert best == moves[0]
    assert merged == {"depth": 1, "multipv": 3, "score": 10, "pv": [moves[2]]}


def test_the_progress_bar_shows_the_running_score(tmp_path):
    import io

    from alfabeta.arena.progress import RunProgress

    stream = io.StringIO()
    progress = RunProgress(stream, enabled=True)
    result = nim_match(games=2, executor="serial").run(progress=progress)
    assert progress.progress is None  # stopped
    assert "W-D-L" in progress._describe(result.games)


def test_a_worker_of_another_alfabeta_version_is_refused(monkeypatch):
    from alfabeta.arena import ArenaError, jobs

    real = jobs.worker_info
    monkeypatch.setattr(jobs, "worker_info", lambda: {**real(), "alfabeta": "9.9.9"})
    with pytest.raises(ArenaError, match=r"runs alfabeta 9.9.9, this driver"):
        nim_match(games=2, executor="serial").run()


def test_a_human_plays_a_match_at_the_terminal(monkeypatch, capsys):
    squares = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    answers = iter(["?", "z9", *squares * 10])  # a bad square is asked again
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    result = Match("tictactoe", Player("human"), Player("alphabeta(depth=9)"), games=2).run()
    assert [g.players[0] for g in result.games] == ["human", "alphabeta(depth=9)"]
    assert result.wdl().wins == 0  # nobody beats a full-depth search at tic-tac-toe
    out = capsys.readouterr().out
    assert "legal moves:" in out and "not accepted" in out


def test_to_dataframe_needs_pandas_and_says_so():
    result = nim_match(games=2, executor="serial").run()
    try:
        import pandas  # noqa: F401
    except ImportError:
        with pytest.raises(InvalidOptionError, match="pip install pandas"):
            result.to_dataframe()
    else:
        frame = result.to_dataframe()
        assert list(frame["index"]) == [0, 1] and "termination" in frame.columns


class _BreakingExecutor:
    """Runs jobs at once; the ``fail_on``-th submit finds the pool broken, and the
    future before it dies with the pool, as a killed worker makes them."""

    def __init__(self, fail_on):
        self.submits = 0
        self.fail_on = fail_on

    def submit(self, fn, job):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        self.submits += 1
        if self.submits == self.fail_on:
            raise BrokenProcessPool("a child process terminated abruptly")
        future = Future()
        future.set_result(fn(job))
        return future

    def shutdown(self, wait=True, cancel_futures=False):
        pass


def test_a_pool_found_broken_at_submit_is_restarted_and_every_game_played():
    from alfabeta import __version__
    from alfabeta.arena.executors import Backend
    from alfabeta.arena.runner import drive

    class Restartable(Backend):
        restarts = 0

        def restart(self):
            self.restarts += 1
            self.executor = _BreakingExecutor(fail_on=0)
            return True

    match = nim_match(games=6)
    match._prepare(load_catalog())
    backend = Restartable(_BreakingExecutor(fail_on=3), window=2)
    played = []
    stopped = drive(backend, (match.job(i) for i in range(6)), played.append, __version__)
    assert not stopped and backend.restarts == 1
    assert sorted(r.index for r in played) == list(range(6))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--levels", "abc"], "'abc' is not a list of whole numbers"),
        (["--levels", "2000,1000"], "1000: Stockfish takes"),
        (["--openings", "missing.pgn"], "cannot read openings 'missing.pgn'"),
        (["--seed", "-3"], "seed=-3: expected a whole number >= 0"),
    ],
)
def test_the_stockfish_benchmark_refuses_bad_arguments(arguments, message, tmp_path):
    stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if "--levels" not in arguments and stockfish is None:  # looked for before the match
        pytest.skip("Debian's stockfish is not installed")
    script = Path(__file__).parent.parent / "benchmarks" / "arena_vs_stockfish.py"
    db = tmp_path / "games.sqlite"
    done = subprocess.run(
        [sys.executable, str(script), "--levels", "2400", "--db", str(db), *arguments],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not db.exists()  # refused before any game
