"""The chess rules engine: published perft counts, make/unmake and keys at every node, FEN
validation, moves as text, and a cross-check against python-chess on random games."""

import random
import subprocess
import sys

import chess
import chess.polyglot
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alfabeta.core import IllegalMoveError, InvalidPositionError, Limit, Result
from alfabeta.core.walk import divide, perft

START = "startpos"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
SIX = [START, KIWIPETE, POS3, POS4, POS5, POS6]

PERFT = [  # anchors-ecosystem §1.5
    (START, 1, 20),
    (START, 2, 400),
    (START, 3, 8902),
    (START, 4, 197281),
    (KIWIPETE, 1, 48),
    (KIWIPETE, 2, 2039),
    (KIWIPETE, 3, 97862),
    (POS3, 4, 43238),
    (POS3, 5, 674624),
    (POS4, 3, 9467),
    (POS4, 4, 422333),
    (POS5, 3, 62379),
    (POS6, 3, 89890),
]
PERFT_SLOW = [
    (START, 5, 4865609),
    (START, 6, 119060324),
    (KIWIPETE, 4, 4085603),
    (POS5, 4, 2103487),
    (POS6, 4, 3894594),
]


def board(catalog, fen=START):
    return catalog.game("chess").from_string(fen)


@pytest.mark.parametrize("fen, depth, nodes", PERFT)
def test_perft_matches_the_published_counts(catalog, fen, depth, nodes):
    assert perft(board(catalog, fen), depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("fen, depth, nodes", PERFT_SLOW)
def test_perft_deep(catalog, fen, depth, nodes):
    assert perft(board(catalog, fen), depth, bulk=True) == nodes


@pytest.mark.parametrize("fen", SIX)
def test_divide_agrees_with_the_total_and_bulk_with_full(catalog, fen):
    position = board(catalog, fen)
    parts = divide(position, 3)
    assert sum(count for _, count in parts) == perft(position, 3) == perft(position, 3, bulk=True)
    assert [m for m, _ in parts] == position.legal_moves()


@pytest.mark.parametrize("fen", SIX)
def test_make_unmake_restores_key_and_side_at_every_node_of_depth_3(catalog, fen):
    position = board(catalog, fen)
    before = position.to_string(), position.key()
    perft(position, 3, check=True)
    assert (position.to_string(), position.key()) == before


@pytest.mark.parametrize("fen", SIX)
def test_keys_match_a_fresh_computation_and_unmake_restores_the_fen_at_every_node(catalog, fen):
    position = board(catalog, fen)

    def walk(depth):
        assert position.key() == position.recomputed_key()
        if depth:
            before = position.to_string()
            for move in position.legal_moves():
                position.push(move)
                walk(depth - 1)
                position.pop()
                assert position.to_string() == before  # board, rights, clocks: everything

    walk(3 if fen in (START, POS3, POS4) else 2)


def test_the_start_key_is_polyglots():
    from alfabeta import load_catalog

    assert load_catalog(autoload=False).game("chess").key() == 0x463B96181691FC9C


@pytest.mark.parametrize(
    "fen, move, expected",
    [
        # the piece by colour (white pawn … king 0 … 5, black 6 … 11) × 64 + the target square
        (None, "e2e4", 0 * 64 + 28),
        (None, "g1f3", 1 * 64 + 21),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", 11 * 64 + 62),  # castling: the king's
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "a8a1", 9 * 64 + 0),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", 0 * 64 + 57),  # a promotion: the pawn's
    ],
)
def test_a_moves_history_class_is_its_piece_and_target(catalog, fen, move, expected):
    position = board(catalog, fen or START)
    assert position.history_class(position.parse_move(move)) == expected


def test_history_classes_refuse_a_move_that_is_not_legal_here(catalog):
    position = board(catalog)
    e2e5 = 12 | 36 << 6  # the origin and target squares, as the board encodes a move
    with pytest.raises(IllegalMoveError, match="'e2e5' is not a legal move"):
        position.history_class(e2e5)
    with pytest.raises(IllegalMoveError, match="'e2e4' is not a legal move"):
        position.history_class("e2e4")
    # the contract's default: the move itself (Connect Four's columns)
    four = catalog.game("connect-four")
    assert [four.history_class(m) for m in four.legal_moves()] == four.legal_moves()


def test_the_structure_key_follows_the_pawns_alone(catalog):
    start = catalog.game("chess")
    knights_out = board(catalog, "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq -")
    black_to_move = board(catalog, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -")
    e4 = board(catalog, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -")
    # the e-pawns on each other's squares: the same squares, the colours told apart
    swapped = board(catalog, "rnbqkbnr/ppppPppp/8/8/8/8/PPPPpPPP/RNBQKBNR w - -")
    assert start.structure_key() == knights_out.structure_key() == black_to_move.structure_key()
    assert len({start.structure_key(), e4.structure_key(), swapped.structure_key()}) == 3
    assert catalog.game("tictactoe").structure_key() == 0  # the contract's default


@pytest.mark.parametrize(
    "fen, fragment",
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "'X'"),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "covers 7 squares"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "w or b"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling rights"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rook on h1"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1", "rank 6"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "no pawn"),
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "black has 0 kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "white has 2 kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNP w Qkq - 0 1", "first or last rank"),
        ("rnbqkbnr/ppppp1pp/8/7Q/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", "not to move is in check"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "whole numbers"),
    ],
)
def test_every_bad_fen_is_rejected_with_its_own_message(catalog, fen, fragment):
    with pytest.raises(InvalidPositionError, match=fragment.replace("(", r"\(")):
        board(catalog, fen)


@pytest.mark.parametrize("text", ["e2e5", "e7e5", "Nf6", "Ke2", "z9", "", "e2", "O-O", "exd5"])
def test_illegal_or_malformed_moves_leave_the_position_unchanged(catalog, text):
    position = board(catalog)
    before = position.to_string()
    with pytest.raises(IllegalMoveError):
        position.push_str(text)
    assert position.to_string() == before


@pytest.mark.parametrize("move", [-1, 123456, 1 << 40])
def test_a_number_that_encodes_no_move_is_refused_by_push_and_move_str(catalog, move):
    # 123456 has promotion bits 7 (no piece); 1 << 40 is beyond the encoding's 17 bits
    position = board(catalog)
    with pytest.raises(IllegalMoveError, match="not a chess move"):
        position.push(move)
    with pytest.raises(IllegalMoveError, match="not a chess move"):
        position.move_str(move)
    assert position.to_string() == board(catalog).to_string()


@pytest.mark.parametrize(
    "fen",
    [
        "7k/7p/8/8/8/8/1R6/R3K2R w KQ - 0 1",  # castling, rooks sharing a target
        "k7/8/8/3N1N2/8/3N1N2/8/K7 w - - 0 1",  # four knights: square disambiguation
        "7k/8/8/8/8/8/R7/R6K w - - 0 1",  # rooks on one file: rank disambiguation
        "8/P6k/8/8/8/8/8/K7 w - - 0 1",  # promotions
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",  # Ra8#
    ],
)
def test_san_with_disambiguation_and_marks_matches_python_chess(catalog, fen):
    position = board(catalog, fen)
    theirs = chess.Board(fen)
    ours = sorted(position.san(m) for m in position.legal_moves())
    assert ours == sorted(theirs.san(m) for m in theirs.legal_moves)
    for move in position.legal_moves():
        assert position.parse_move(position.san(move)) == move
        assert position.parse_move(position.move_str(move)) == move


def test_san_input_accepts_zero_castling_and_missing_marks(catalog):
    position = board(catalog, "7k/7p/8/8/8/8/1R6/R3K2R w KQ - 0 1")
    assert position.parse_move("0-0") == position.parse_move("e1g1")
    mate = board(catalog, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    assert mate.parse_move("Ra8") == mate.parse_move("Ra8#") == mate.parse_move("a1a8")


def test_checkmate_stalemate_and_draw_rules(catalog):
    mate = board(catalog, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mate.outcome() == Result.LOSS and mate.termination() == "checkmate"
    stalemate = board(catalog, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome() == Result.DRAW and stalemate.termination() == "stalemate"
    fifty = board(catalog, "7k/8/8/8/8/8/8/R6K w - - 100 80")
    assert fifty.outcome() == Result.DRAW and fifty.legal_moves() == []
    bare = board(catalog, "7k/8/8/8/8/8/8/6NK w - - 0 1")
    assert bare.termination() == "insufficient material"
    repeat = board(catalog)
    for move in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert repeat.outcome() == Result.ONGOING
        repeat.push_str(move)
    assert repeat.outcome() == Result.DRAW and repeat.termination() == "repetition"


def test_null_move_is_refused_in_check_and_with_only_king_and_pawns(catalog):
    position = board(catalog, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")
    result = catalog.searcher("alphabeta(depth=4, null_move=2)").search(
        position, catalog.evaluator("material")
    )
    plain = catalog.searcher("alphabeta(depth=4)").search(position, catalog.evaluator("material"))
    assert result.nodes == plain.nodes


@pytest.mark.parametrize("fen", SIX)
def test_every_exact_searcher_finds_the_same_value_at_depth_3(catalog, fen):
    position = board(catalog, fen)
    evaluator = catalog.evaluator("material")
    values = {
        s: catalog.searcher(s).search(position, evaluator, Limit(depth=3)).value
        for s in (
            "minimax",
            "negamax",
            "alphabeta",
            "negascout",
            "scout",
            "mtdf",
            "alphabeta(tt=on, iterative=on, killers=on, history=on)",
            "py-alphabeta",
        )
    }
    assert len(set(values.values())) == 1, values


def compare_with_python_chess(ours, theirs):
    assert ours.to_string() == theirs.fen()
    assert ours.key() == chess.polyglot.zobrist_hash(theirs)
    # our draws are those of the position as it stands (python-chess's claim_draw also
    # counts draws the next move could claim)
    drawn = (
        theirs.is_stalemate()
        or theirs.is_insufficient_material()
        or theirs.is_fifty_moves()
        or theirs.is_repetition(3)
    )
    legal = sorted(ours.move_str(m) for m in ours.legal_moves())
    expected = [] if theirs.is_checkmate() or drawn else sorted(m.uci() for m in theirs.legal_moves)
    assert legal == expected
    assert ours.is_check() == theirs.is_check()
    quiet_checks = [
        m.uci()
        for m in theirs.legal_moves
        if not theirs.is_capture(m) and not m.promotion and theirs.gives_check(m)
    ]
    assert sorted(ours.move_str(m) for m in ours.checking_moves()) == (
        sorted(quiet_checks) if expected else []
    )
    ours_legal = ours.legal_moves()
    their_moves = [chess.Move.from_uci(ours.move_str(m)) for m in ours_legal]
    assert ours.noisy_flags(ours_legal) == [
        theirs.is_capture(m) or m.promotion is not None for m in their_moves
    ]
    outcome = ours.outcome()
    if theirs.is_checkmate():
        assert outcome == Result.LOSS
    elif drawn:
        assert outcome == Result.DRAW
    else:
        assert outcome == Result.ONGOING
    for move in ours.legal_moves()[:8]:
        assert ours.san(move) == theirs.san(chess.Move.from_uci(ours.move_str(move)))


@pytest.mark.parametrize(
    "fen",
    [
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",  # castling checks with the rook
        "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1",  # every knight move uncovers the rook
        "7k/p7/8/8/8/8/1K6/B7 w - - 0 1",  # the king steps off the bishop's diagonal
        "4k3/8/3P4/8/8/8/8/Q3K3 w - - 0 1",  # a pawn check; the queen on files and diagonals
        "4k3/8/8/8/4B3/8/8/4Q1K1 w - - 0 1",  # the bishop uncovers the queen
        "3r1k2/8/8/8/8/8/3b4/3K4 b - - 0 1",  # black: the bishop uncovers the rook
    ],
)
def test_quiet_checks_agree_with_python_chess(catalog, fen):
    ours = board(catalog, fen)
    compare_with_python_chess(ours, chess.Board(ours.to_string()))
    assert ours.checking_moves()  # each position has some


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SIX))
def test_random_games_agree_with_python_chess_at_every_ply(catalog, seed, fen):
    rng = random.Random(seed)
    ours = board(catalog, fen)
    theirs = chess.Board(ours.to_string())
    for _ in range(120):
        compare_with_python_chess(ours, theirs)
        moves = ours.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        theirs.push_san(ours.san(move))
        ours.push(move)


def test_perft_command_prints_nodes_and_divide(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "alfabeta.cli", "perft", "startpos", "3", "--divide"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "e2e4: 600" in done.stdout
    assert "nodes 8902" in done.stdout and "leaves/s" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "alfabeta.cli", "perft", "8/8 w - -", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "ranks" in bad.stderr and "Traceback" not in bad.stderr


def test_a_human_plays_chess_in_san_or_uci_at_a_readable_board():
    moves = "e2e4\nNf3\nBc4\nquit\n"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "alfabeta.cli",
            "play",
            "chess",
            "--first",
            "human",
            "--second",
            "alphabeta(depth=2)",
        ],
        input=moves,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3  # the human quit
    assert "  a b c d e f g h" in done.stdout and "white to move" in done.stdout
    assert "1. player 1: e2e4" in done.stdout and "3. player 1: g1f3" in done.stdout
