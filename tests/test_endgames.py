"""Chess endgame knowledge: the KPK bitbase against python-chess's rules, the corrections
``tuned(endgames=on)`` makes to known draws and wins, and the default engine's bishop-and-knight
mates."""

import random

import chess
import pytest

from alfabeta.arena import SearchPlayer, play_game
from alfabeta.core import InvalidOptionError, InvalidPositionError, Limit, Outcome
from alfabeta.evaluators.endgames import endgame, kbnk, kbnk_longest, kpk

KNOWN_WIN = 400  # endgames.pyx: added to a won king-and-pawn ending's score
KBNK_WIN = 1000  # endgames.pyx: a won KBNK ending's score, less its plies to mate


def board(catalog, fen):
    return catalog.game("chess").from_string(fen)


@pytest.mark.parametrize(
    ("fen", "result"),
    [
        # the lone king holds the opposition in front of the pawn's key squares
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", "draw"),
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", "win"),
        # the king on the sixth rank in front of its pawn wins whoever moves
        ("3k4/8/3K4/3P4/8/8/8/8 w - - 0 1", "win"),
        ("3k4/8/3K4/3P4/8/8/8/8 b - - 0 1", "win"),
        # a rook's pawn with the lone king in its corner
        ("k7/8/1K6/P7/8/8/8/8 w - - 0 1", "draw"),
        ("8/8/8/8/8/k7/p7/K7 w - - 0 1", "draw"),
        # the rule of the square, the double step included
        ("8/8/8/8/7k/8/P7/K7 w - - 0 1", "win"),
        ("8/8/8/8/7k/8/P7/K7 b - - 0 1", "win"),
        ("8/8/8/6k1/8/8/P7/7K w - - 0 1", "win"),
        ("8/8/8/6k1/8/8/P7/7K b - - 0 1", "draw"),
        # black's pawn: the same opposition, colours swapped
        ("8/8/8/4p3/4k3/8/4K3/8 b - - 0 1", "draw"),
        ("8/8/8/4p3/4k3/8/4K3/8 w - - 0 1", "win"),
        # stalemate in front of the pawn
        ("5k2/5P2/5K2/8/8/8/8/8 b - - 0 1", "draw"),
    ],
)
def test_kpk_knows_the_textbook_positions(catalog, fen, result):
    position = board(catalog, fen)
    assert kpk(position) == result
    assert kpk(position.mirror()) == result  # colours swapped
    flipped = chess.Board(fen).transform(chess.flip_horizontal).fen()
    assert kpk(board(catalog, flipped)) == result  # files mirrored


def python_chess_result(catalog, b):
    """The pawn side's result after one move by python-chess's rules, the bitbase scoring the
    positions it reaches: a promotion to a queen or rook wins when it mates, or when the lone
    king neither is stalemated nor can take the new piece."""
    pawn_side = chess.WHITE if b.pieces(chess.PAWN, chess.WHITE) else chess.BLACK
    moves = list(b.legal_moves)
    if b.turn == pawn_side:
        for move in moves:
            b.push(move)
            try:
                if move.promotion in (chess.QUEEN, chess.ROOK):
                    replies = list(b.legal_moves)
                    if b.is_checkmate() or (replies and not any(map(b.is_capture, replies))):
                        return "win"
                elif move.promotion is None and kpk(board(catalog, b.fen())) == "win":
                    return "win"
            finally:
                b.pop()
        return "draw"
    if not moves:
        return "win" if b.is_check() else "draw"
    for move in moves:
        if b.is_capture(move):
            return "draw"
        b.push(move)
        after = kpk(board(catalog, b.fen()))
        b.pop()
        if after == "draw":
            return "draw"
    return "win"


def test_kpk_agrees_with_python_chess_one_move_deep(catalog):
    """Each entry is what its moves make it (the bitbase's own rules are not used to check it):
    on a seeded sample of legal positions of either colour and any file."""
    rng = random.Random(15)
    checked = 0
    while checked < 1500:
        pawn, king, lone = rng.randrange(8, 56), rng.randrange(64), rng.randrange(64)
        colour = rng.choice((chess.WHITE, chess.BLACK))
        b = chess.Board(None)
        b.set_piece_at(pawn, chess.Piece(chess.PAWN, colour))
        b.set_piece_at(king, chess.Piece(chess.KING, colour))
        b.set_piece_at(lone, chess.Piece(chess.KING, not colour))
        b.turn = rng.choice((chess.WHITE, chess.BLACK))
        if len({pawn, king, lone}) < 3 or not b.is_valid():
            continue
        assert kpk(board(catalog, b.fen())) == python_chess_result(catalog, b), b.fen()
        checked += 1


def test_kpk_refuses_other_positions(catalog):
    with pytest.raises(InvalidPositionError, match="king and a pawn against a king"):
        kpk(board(catalog, "startpos"))
    with pytest.raises(InvalidPositionError, match="chess positions"):
        kpk(catalog.game("tictactoe"))


def python_chess_plies(catalog, b):
    """The plies to mate (None: a draw) of a king, bishop and knight against a king after one
    move by python-chess's rules, the table scoring the positions it reaches: the pieces' side
    takes its quickest win, the lone king its longest loss, and a capture draws."""
    if b.is_checkmate():
        return 0
    after = []
    for move in b.legal_moves:
        if b.is_capture(move):
            after.append(None)
            continue
        b.push(move)
        after.append(0 if b.is_checkmate() else kbnk(board(catalog, b.fen())))
        b.pop()
    wins = [plies for plies in after if plies is not None]
    if b.pieces(chess.BISHOP, b.turn):
        return min(wins) + 1 if wins else None
    return max(wins) + 1 if wins and len(wins) == len(after) else None


def test_kbnk_agrees_with_python_chess_one_move_deep(catalog):
    """Each entry is what its moves make it (the table's own move generation is not used to
    check it): on a seeded sample of legal positions of either colour, turned every way."""
    rng = random.Random(99)
    checked = drawn = 0
    while checked < 1500:
        king, bishop, knight, lone = rng.sample(range(64), 4)
        colour = rng.choice((chess.WHITE, chess.BLACK))
        b = chess.Board(None)
        for square, kind in ((king, chess.KING), (bishop, chess.BISHOP), (knight, chess.KNIGHT)):
            b.set_piece_at(square, chess.Piece(kind, colour))
        b.set_piece_at(lone, chess.Piece(chess.KING, not colour))
        b.turn = rng.choice((chess.WHITE, chess.BLACK))
        if not b.is_valid():
            continue
        expected = python_chess_plies(catalog, b)
        assert kbnk(board(catalog, b.fen())) == expected, b.fen()
        checked += 1
        drawn += expected is None
    assert 0 < drawn < checked // 4  # draws are the hanging pieces and stalemates


@pytest.mark.parametrize(
    ("fen", "plies"),
    [
        ("7k/4N3/6K1/4B3/8/8/8/8 b - - 0 1", 0),  # mated: Be5 checks, Ne7 and Kg6 cover
        ("7k/4N3/6K1/8/5B2/8/8/8 w - - 0 1", 1),  # Be5#
        ("7k/4N3/6K1/8/5B2/8/8/8 b - - 0 1", None),  # stalemated
        ("8/8/8/8/8/3k4/2NB4/6K1 b - - 0 1", None),  # the lone king takes an undefended piece
    ],
)
def test_kbnk_knows_short_mates_and_draws(catalog, fen, plies):
    assert kbnk(board(catalog, fen)) == plies
    assert kbnk(board(catalog, fen).mirror()) == plies  # colours swapped


def test_kbnk_longest_mate_is_thirty_three_moves(catalog):
    """The longest bishop-and-knight mate, with best play, is 33 moves (65 plies)."""
    plies, fen = kbnk_longest()
    assert plies == 65
    assert kbnk(board(catalog, fen)) == 65
    assert kbnk(board(catalog, fen).mirror()) == 65


def test_kbnk_refuses_other_positions(catalog):
    with pytest.raises(InvalidPositionError, match="bishop and knight against a king"):
        kbnk(board(catalog, "8/8/8/3k4/8/8/2NNK3/8 b - - 0 1"))
    with pytest.raises(InvalidPositionError, match="chess positions"):
        kbnk(catalog.game("tictactoe"))


@pytest.fixture(scope="module")
def plain(catalog):
    return catalog.evaluator("tuned")


@pytest.fixture(scope="module")
def knowing(catalog):
    return catalog.evaluator("tuned(endgames=on)")


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", lambda s: 0),  # drawn KPK
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", lambda s: min(s, 0) - KNOWN_WIN),  # won KPK
        ("8/8/8/3k4/8/8/3BK3/8 w - - 0 1", lambda s: 0),  # a lone bishop cannot mate
        ("8/8/8/3k4/8/8/2NNK3/8 b - - 0 1", lambda s: 0),  # nor two knights, in practice
        # a bishop and a knight against a king: 1000 less the table's plies to mate
        ("8/8/8/3k4/8/8/2NBK3/8 b - - 0 1", lambda s: -(KBNK_WIN - 56)),
        ("8/8/8/8/8/8/3BK1N1/k7 w - - 0 1", lambda s: KBNK_WIN - 21),  # the right corner
        ("k7/8/8/8/8/8/2NBK3/8 w - - 0 1", lambda s: KBNK_WIN - 53),  # the wrong one
        ("7k/4N3/6K1/8/5B2/8/8/8 w - - 0 1", lambda s: KBNK_WIN - 1),  # Be5#
        ("7k/4N3/6K1/8/5B2/8/8/8 b - - 0 1", lambda s: 0),  # stalemated
        ("8/8/8/8/8/3k4/2NB4/6K1 b - - 0 1", lambda s: 0),  # it takes a piece
        ("8/8/8/2k5/8/8/3RK3/3b4 w - - 0 1", lambda s: int(s * 4 / 64)),  # rook v bishop
        ("8/8/8/2k5/8/2r5/3RK3/3B4 w - - 0 1", lambda s: int(s * 14 / 64)),  # R+B v R
        ("8/8/8/2k5/8/8/3QK3/3r4 w - - 0 1", lambda s: s),  # a queen beats a rook
        ("k7/8/P7/P7/8/8/3B4/4K3 w - - 0 1", lambda s: 0),  # the wrong bishop
        ("k7/8/P7/P7/8/8/4B3/4K3 w - - 0 1", lambda s: s),  # the right bishop
        ("8/8/1k6/8/P7/P7/8/4K3 w - - 0 1", lambda s: s),  # the lone king too far away
        ("8/5k2/4bpp1/8/2P5/1PB2K2/8/8 w - - 0 1", lambda s: int(s / 2)),  # bishops of
        ("8/5k2/3b1pp1/8/2P5/1PB2K2/8/8 w - - 0 1", lambda s: s),  # opposite colours, same
        ("startpos", lambda s: s),
    ],
)
def test_endgames_corrects_known_draws_and_wins_only(catalog, plain, knowing, fen, expected):
    position = board(catalog, fen)
    score = plain.evaluate(position)
    assert knowing.evaluate(position) == expected(score) == endgame(position, score)
    assert knowing.evaluate(position.mirror()) == knowing.evaluate(position)
    terms = knowing.explain(position)
    assert round(sum(terms.values())) == knowing.evaluate(position)
    assert terms["endgame"] == pytest.approx(expected(score) - score, abs=0.501)  # and rounding


@pytest.mark.slow
@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/KBN5 w - - 0 1",
        "k7/8/8/8/8/8/8/1BNK4 w - - 0 1",  # the lone king in the wrong corner
        "8/8/3k4/8/8/8/8/2B1KN2 w - - 0 1",
        "7k/8/8/8/8/8/8/KNB5 w - - 0 1",  # the right corner, the pieces far away
        "8/8/1K6/8/2B5/k2N4/8/8 b - - 0 1",  # session 88's fifty-move draw, the clock reset
    ],
)
def test_the_default_engine_mates_with_bishop_and_knight_within_fifty_moves(catalog, fen):
    game = catalog.game("chess")
    player = SearchPlayer(
        catalog.searcher(game.play_searcher), catalog.playing_evaluator(game), Limit(depth=20)
    )
    record = play_game(game.from_string(fen), [player, player])
    assert record.outcome == Outcome(0, "checkmate")  # white (0) has the pieces in every start


def test_endgames_is_an_option_that_round_trips(catalog, knowing):
    assert repr(knowing) == "tuned(endgames=True)"
    assert repr(catalog.evaluator(repr(knowing))) == repr(knowing)
    assert repr(catalog.evaluator("tuned(endgames=off)")) == "tuned()"
    with pytest.raises(InvalidOptionError, match="endgames"):
        catalog.evaluator("tuned(endgames=2)")
