"""The chess front-ends: a UCI dialogue driven by python-chess's engine client as a GUI
would, EPD suites, Polyglot books, and the chess bench signature."""

import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.polyglot
import pytest

from alfabeta.cli import main
from alfabeta.games.chess.epd import parse_epd, read_epd, solve
from alfabeta.games.chess.polyglot import PolyglotBook, write_book
from alfabeta.searchers.timeman import MAX_SHARE
from alfabeta.uci import DEFAULT_EVALUATOR, DEFAULT_SEARCHER

ENGINE = [sys.executable, "-m", "alfabeta.cli", "uci"]
EPD = Path(__file__).parent / "data" / "epd" / "verified.epd"
FAST = "negascout(tt=on, iterative=on, killers=on, history=on)"


@pytest.fixture
def engine():
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30) as running:
        running.configure({"Searcher": FAST, "Evaluator": "material"})
        yield running


def test_uci_identifies_itself_and_its_options(engine):
    assert engine.id["name"] == "alfabeta"
    assert {
        "Searcher",
        "Evaluator",
        "Hash",
        "OwnBook",
        "BookFile",
        "Threads",
        "Ponder",
        "Move Overhead",
    } <= set(engine.options)


def test_the_evaluator_option_offers_every_chess_evaluator_and_plays_with_emotional(engine):
    assert set(engine.options["Evaluator"].var) == {
        "standard",
        "bayeschess",
        "cpw",
        "emotional",
        "material",
        "tuned",
        "tuned(endgames=on)",
    }
    engine.configure({"Evaluator": "emotional"})
    board = chess.Board("3q2kr/Q4pnp/8/p2p2p1/4r3/8/5PPP/1R3K2 b - - 0 40")
    assert engine.play(board, chess.engine.Limit(depth=3)).move in board.legal_moves


def test_analyse_with_depth_nodes_and_time_limits(engine):
    board = chess.Board()
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["depth"] == 4 and "score" in info and info["pv"][0] in board.legal_moves
    assert {"nodes", "nps", "time", "seldepth"} <= set(info)
    by_nodes = engine.analyse(board, chess.engine.Limit(nodes=3000))
    assert by_nodes["pv"][0] in board.legal_moves
    start = time.monotonic()
    timed = engine.analyse(board, chess.engine.Limit(time=0.3))
    assert time.monotonic() - start < 2.0 and timed["pv"][0] in board.legal_moves


def test_play_a_few_moves_from_a_position_with_moves(engine):
    board = chess.Board()
    board.push_san("e4")
    for _ in range(6):
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_go_infinite_then_stop_and_isready_during_the_search(engine):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        engine.ping()  # isready answered mid-search
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


@pytest.mark.parametrize(
    "fen, mate, first",
    [
        ("8/8/8/8/8/K2Q4/8/2k5 w - - 0 1", 2, "Qe2"),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "Rd8#"),
    ],
)
def test_mate_in_n_is_reported_in_moves_with_the_mating_move_first(engine, fen, mate, first):
    board = chess.Board(fen)
    info = engine.analyse(board, chess.engine.Limit(depth=2 * mate + 1))
    assert info["score"].relative == chess.engine.Mate(mate)
    assert board.san(info["pv"][0]) == first


def test_the_side_being_mated_sees_a_negative_mate(engine):
    board = chess.Board("8/8/8/8/8/K2Q4/8/2k5 w - - 0 1")
    board.push_san("Qe2")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(-1)


def test_a_game_clock_is_respected(engine):
    board = chess.Board()
    for _ in range(4):
        start = time.monotonic()
        result = engine.play(
            board, chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.1, black_inc=0.1)
        )
        assert time.monotonic() - start < 1.5
        board.push(result.move)


def test_own_book_moves_come_from_the_book_file(engine, tmp_path, catalog):
    game = catalog.game("chess")
    path = tmp_path / "tiny.bin"
    write_book(path, [(game, game.parse_move("b2b3"), 1)])
    engine.configure({"OwnBook": True, "BookFile": str(path)})
    assert engine.play(chess.Board(), chess.engine.Limit(depth=3)).move == chess.Move.from_uci(
        "b2b3"
    )


def raw_dialogue(commands: str) -> str:
    done = subprocess.run(ENGINE, input=commands, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    return done.stdout


def test_bad_positions_and_moves_are_reported_and_survived():
    out = raw_dialogue(
        "uci\nposition fen garbage\nposition startpos moves e2e5\n"
        "nonsense here\nsetoption name Hash value many\nisready\n"
        "position startpos moves e2e4\ngo depth 2\nquit\n"
    )
    lines = out.splitlines()
    assert sum(line.startswith("info string error") for line in lines) == 3
    assert "readyok" in lines and any(line.startswith("bestmove ") for line in lines)
    assert all(
        line.split()[0] in ("id", "option", "uciok", "readyok", "info", "bestmove")
        for line in lines
    )


def test_no_bestmove_before_stop_after_go_infinite():
    with subprocess.Popen(
        ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as engine:
        engine.stdin.write("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo infinite\n")
        engine.stdin.flush()
        time.sleep(0.5)  # the mate in 1 is found at once; bestmove must still wait
        engine.stdin.write("isready\n")
        engine.stdin.flush()
        seen = []
        while True:
            line = engine.stdout.readline().strip()
            seen.append(line)
            if line == "readyok":
                break
        assert not any(line.startswith("bestmove") for line in seen)
        engine.stdin.write("stop\nquit\n")
        engine.stdin.flush()
        rest = engine.stdout.read()
        engine.wait(timeout=30)
    assert "bestmove d1d8" in rest


# ---- EPD ------------------------------------------------------------------------------------
def test_the_shipped_epd_set_is_solved_within_its_node_limit(catalog):
    from alfabeta.core import Limit

    game = catalog.game("chess")
    outcomes = solve(
        read_epd(EPD),
        game,
        catalog.searcher(FAST),
        catalog.evaluator("standard"),
        Limit(nodes=250_000),
    )
    assert [o.record.name for o in outcomes if not o.solved] == []
    assert len(outcomes) == 8


def test_epd_command_prints_solved_over_total(capsys):
    # the default (play) searcher prunes: at depth 6 it finds mates in 4 before some mates in
    # 3, so the command is given the README's node limit
    assert main(["epd", str(EPD), "--nodes", "400000"]) == 0
    out = capsys.readouterr().out
    assert "solved 8/8" in out and "mate3.2" in out


def test_epd_operations_parse_with_quotes_and_several_moves():
    record = parse_epd('8/8/8/8/p4K2/8/Q7/3k4 w - - bm Ke3 Ke4; id "mate; 3.3"; c0 "x";')
    assert record.operations["bm"] == ["Ke3", "Ke4"] and record.name == "mate; 3.3"
    assert record.fen.endswith(" 0 1")


def test_bad_epd_input_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.epd"
    bad.write_text("8/8 w\n")
    assert main(["epd", str(bad), "--depth", "2"]) == 2
    assert "4 position fields" in capsys.readouterr().err
    assert main(["epd", str(EPD)]) == 2  # no limit


# ---- Polyglot books ---------------------------------------------------------------------------
def test_books_we_write_read_the_same_in_python_chess(catalog, tmp_path):
    game = catalog.game("chess")
    after_e4 = game.copy()
    after_e4.push_str("e4")
    castle = game.from_string("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    path = tmp_path / "book.bin"
    write_book(
        path,
        [
            (game, game.parse_move("e2e4"), 7),
            (game, game.parse_move("d2d4"), 3),
            (after_e4, after_e4.parse_move("c7c5"), 5),
            (castle, castle.parse_move("O-O"), 2),
        ],
    )
    with chess.polyglot.open_reader(path) as reader:
        theirs = sorted((e.move.uci(), e.weight) for e in reader.find_all(chess.Board()))
        castling = [e.move.uci() for e in reader.find_all(chess.Board(castle.to_string()))]
    book = PolyglotBook(path)
    ours = sorted((game.move_str(m), w) for m, w in book.entries(game))
    assert ours == theirs == [("d2d4", 3), ("e2e4", 7)]
    assert castling == ["e1g1"] and castle.move_str(book(castle)) == "e1g1"


def test_book_choices_are_weighted_and_seeded(catalog, tmp_path):
    game = catalog.game("chess")
    path = tmp_path / "book.bin"
    write_book(path, [(game, game.parse_move("e2e4"), 3), (game, game.parse_move("d2d4"), 1)])
    picks = [game.move_str(PolyglotBook(path, seed=5)(game)) for _ in range(3)]
    again = [game.move_str(PolyglotBook(path, seed=5)(game)) for _ in range(3)]
    assert picks == again
    book = PolyglotBook(path, seed=9)
    counts = {"e2e4": 0, "d2d4": 0}
    for _ in range(400):
        counts[game.move_str(book(game))] += 1
    assert 240 < counts["e2e4"] < 360  # about 3:1
    assert PolyglotBook(path)(game.from_string("8/8/8/4k3/8/8/3QK3/8 w - - 0 1")) is None


def test_alfabeta_play_builds_the_book_it_is_given(catalog, tmp_path, capsys):
    game = catalog.game("chess")
    path = tmp_path / "book.bin"
    write_book(path, [(game, game.parse_move("g1f3"), 1)])
    args = ["play", "chess", "--first", "alphabeta(depth=1)", "--second", "alphabeta(depth=1)"]
    assert main([*args, "--max-plies", "1", "--book", str(path)]) == 0
    out = capsys.readouterr().out
    assert "moves: g1f3" in out and "nodes 0" in out  # the book answered, nothing searched


def test_a_book_is_a_callable_the_searcher_receives_not_a_path(catalog, tmp_path, capsys):
    from alfabeta.core import InvalidOptionError

    with pytest.raises(InvalidOptionError, match=r"expected a callable.*PolyglotBook"):
        catalog.searcher(f"alphabeta(depth=3, book={str(tmp_path / 'book.bin')!r})")
    args = ["play", "tictactoe", "--first", "alphabeta", "--second", "alphabeta"]
    assert main([*args, "--book", str(tmp_path / "book.bin")]) == 2
    assert "Polyglot book is for chess, not tictactoe" in capsys.readouterr().err


def test_a_broken_book_is_refused(tmp_path):
    from alfabeta.core import InvalidOptionError

    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x00" * 15)
    with pytest.raises(InvalidOptionError, match="16-byte"):
        PolyglotBook(bad)


# ---- bench ----------------------------------------------------------------------------------
def test_the_chess_bench_signature_is_stable(capsys):
    args = ["bench", "chess", "--searchers", FAST, "--depth", "3", "--signature"]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first and int(first) > 0


# The default chess bench's node count, pinned as Stockfish pins its bench: a commit that
# changes it says why (a change to move generation, ordering or search counts).
BENCH_SIGNATURE = 549931


def test_the_default_chess_bench_signature_is_pinned(capsys):
    assert main(["bench", "chess", "--signature"]) == 0
    assert int(capsys.readouterr().out) == BENCH_SIGNATURE


# The engine's own bench: its default searcher and evaluator to depth 8 on the same positions.
# Work that only makes it faster (the evaluator's caches, the picker's lazy selection) keeps
# this count; a change to what the engine searches says why it moves.
ENGINE_BENCH_SIGNATURE = 220032


def test_the_engine_bench_signature_is_pinned(capsys):
    args = ["bench", "chess", "--searchers", DEFAULT_SEARCHER, "--evaluator", DEFAULT_EVALUATOR]
    assert main([*args, "--depth", "8", "--signature"]) == 0
    assert int(capsys.readouterr().out) == ENGINE_BENCH_SIGNATURE


def test_the_chess_bench_has_about_twenty_positions(catalog):
    assert 18 <= len(catalog.game("chess").bench_positions) <= 24


TRANSPORT_SLACK = 0.15
"""Seconds a move may take beyond its hard limit as the test measures it: the pipe, python-chess
and a loaded machine's scheduling, none of which the engine's clock sees."""


@pytest.mark.slow
def test_no_loss_on_time_at_ten_seconds_plus_a_tenth():
    clocks, increment = [10.0, 10.0], 0.1
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30) as engine:
        while not board.is_game_over() and board.ply() < 100:
            side = 0 if board.turn == chess.WHITE else 1
            start = time.monotonic()
            result = engine.play(
                board,
                chess.engine.Limit(
                    white_clock=clocks[0],
                    black_clock=clocks[1],
                    white_inc=increment,
                    black_inc=increment,
                ),
            )
            spent = time.monotonic() - start
            # the time manager's contract: no move spends more than MAX_SHARE of the time left,
            # so the clock shrinks geometrically and the increment keeps it above zero
            assert spent <= MAX_SHARE * clocks[side] + TRANSPORT_SLACK, (board.ply(), clocks)
            clocks[side] -= spent
            assert clocks[side] > 0, f"lost on time at ply {board.ply()}"
            clocks[side] += increment
            board.push(result.move)


def session(lines, *commands):
    """An in-process engine writing to ``lines``, with the FAST searcher, given ``commands``."""
    from alfabeta.uci import Engine

    engine = Engine(lines.append)
    engine.handle("setoption name Searcher value " + FAST)
    for command in commands:
        engine.handle(command)
    return engine


def bestmoves(lines, count=1, seconds=30.0):
    """The moves of the first ``count`` bestmove lines once there are that many, else None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = [line.split()[1] for line in lines if line.startswith("bestmove")]
        if len(found) >= count:
            return found[:count]
        time.sleep(0.01)
    return None


def _pondering(commands, lines):
    return session(lines, "position startpos moves e2e4 e7e5", *commands)


def test_a_ponderhit_after_the_budget_is_spent_plays_at_once():
    lines = []
    engine = _pondering(["go ponder wtime 3000 btime 3000"], lines)
    assert bestmoves(lines, seconds=0.6) is None  # pondering: no move until told
    assert any(line.startswith("info depth") for line in lines)
    engine.handle("ponderhit")  # 0.6 s pondered > 2 × the soft budget (0.05 s)
    assert bestmoves(lines, seconds=5)
    engine.handle("quit")


def test_a_ponderhit_within_the_budget_keeps_searching_on_its_own_clock():
    lines = []
    engine = _pondering(["go ponder wtime 600000 btime 600000"], lines)
    time.sleep(0.2)
    engine.handle("ponderhit")  # 20 s allowed: the search goes on
    assert bestmoves(lines, seconds=1.0) is None
    engine.handle("stop")
    assert bestmoves(lines, seconds=5)
    assert sum(line.startswith("bestmove") for line in lines) == 1
    engine.handle("quit")


def test_move_overhead_is_kept_back_from_the_clock_and_the_movetime():
    lines = []
    engine = session(lines, "uci")
    assert "option name Move Overhead type spin default 30 min 0 max 5000" in lines
    clock = {"wtime": 10_000, "btime": 8_000, "winc": 100, "binc": 100}
    assert engine._limit(clock, False, 0).wtime == pytest.approx(9.97)  # 30 ms by default
    engine.handle("setoption name Move Overhead value 500")
    assert engine.options["Move Overhead"] == 500
    limit = engine._limit(clock, False, 0)
    assert (limit.wtime, limit.btime, limit.winc) == pytest.approx((9.5, 7.5, 0.1))
    assert engine._limit({"movetime": 2_000}, False, 0).time == pytest.approx(1.5)
    assert engine._limit({"wtime": 400, "btime": 400}, False, 0).depth == 1  # nothing left


@pytest.mark.parametrize(
    ("value", "reason"), [("-1", "outside 0..5000"), ("5001", "outside 0..5000"), ("ms", "whole")]
)
def test_an_impossible_move_overhead_is_refused_and_the_old_one_kept(value, reason):
    lines = []
    engine = session(lines, "setoption name Move Overhead value 100")
    engine.handle(f"setoption name Move Overhead value {value}")
    assert engine.options["Move Overhead"] == 100
    assert any(line.startswith("info string error") and reason in line for line in lines)


def test_ponder_is_an_option_and_a_plain_ponder_stop_still_answers():
    lines = []
    engine = _pondering(["uci", "setoption name Ponder value true", "go ponder"], lines)
    assert "option name Ponder type check default false" in lines
    assert engine.options["Ponder"] is True
    engine.handle("stop")
    assert bestmoves(lines, seconds=5)
    engine.handle("quit")


SMP_MIDDLEGAME = "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6"


def test_uci_threads_start_helpers_at_isready_and_quit_ends_them():
    lines = []
    engine = session(
        lines,
        "setoption name Evaluator value material",
        "uci",
        "setoption name Threads value 2",
        "isready",
    )
    assert "option name Threads type spin default 1 min 1 max 64" in lines
    assert lines[-1] == "readyok"
    helpers = engine.helpers.helpers
    assert len(helpers) == 1 and helpers[0].poll() is None
    engine.handle("position fen " + SMP_MIDDLEGAME)
    engine.handle("go depth 6")
    played = bestmoves(lines, 1)
    assert played and engine.position.parse_move(played[0]) in engine.position.legal_moves()
    assert any(line.startswith("info depth 6 ") for line in lines)
    engine.handle("ucinewgame")
    engine.handle("go movetime 200")
    assert bestmoves(lines, 2) is not None
    engine.handle("quit")
    assert engine.helpers is None and helpers[0].wait(5) is not None


def test_uci_threads_with_a_searcher_without_a_table_search_on_one_thread():
    lines = []
    engine = session(
        lines,
        "setoption name Evaluator value material",
        "setoption name Searcher value alphabeta(depth=2)",
        "setoption name Threads value 2",
    )
    engine.handle("go depth 2")
    assert bestmoves(lines, 1) is not None
    assert engine.helpers is None
    assert any("no shared table" in line and "one thread" in line for line in lines)
    engine.handle("quit")


def test_uci_a_killed_helper_leaves_one_thread_and_every_go_its_bestmove():
    lines = []
    engine = session(
        lines,
        "setoption name Evaluator value material",
        "setoption name Threads value 2",
        "isready",
    )
    helper = engine.helpers.helpers[0]
    helper.kill()
    helper.wait()
    engine.handle("go depth 4")
    assert bestmoves(lines, 1) is not None
    assert any("ended unexpectedly; searching on one thread" in line for line in lines)
    assert engine.helpers is None
    engine.handle("go depth 4")  # one thread, on the same table, from now on
    assert bestmoves(lines, 2) is not None
    engine.handle("quit")
