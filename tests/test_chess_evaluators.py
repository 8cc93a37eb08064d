"""Chess evaluators: seed-002 T1–T6 (BayesChess), seed-000's terms (cpw), symmetry, explain."""

import random

import chess
import numpy as np
import pytest

from alfabeta.core import InvalidOptionError

FIGURE_6 = "r4rk1/p1B1b1pp/2b2n2/3p1p2/8/2PBPN2/PP3PPP/RN3RK1 b - - 0 20"  # seed-002 §4.3
EVALUATORS = [
    "material",
    "bayeschess",
    "cpw",
    "cpw(tropism=cpw, mobility=difference)",
    "emotional",
    "emotional(matrix=table5, goal=enclose, clamp=on)",
    "standard",
    "tuned",
]


def board(catalog, fen="startpos"):
    return catalog.game("chess").from_string(fen)


def cell(vector, colour, kind, square):
    """A table cell of the 774-vector: tables white P..K then black, cells a8 … h1."""
    file, rank = "abcdefgh".index(square[0]), int(square[1])
    return vector[6 + 64 * (6 * colour + kind) + 8 * (8 - rank) + file]


def test_t1_the_start_position_is_level(catalog):
    for name in ("material", "bayeschess"):
        assert catalog.evaluator(name).evaluate(board(catalog)) == 0


def test_t2_figure_6_is_a_knight_and_two_pawns_for_white(catalog):
    position = board(catalog, FIGURE_6)
    assert catalog.evaluator("material").evaluate(position) == -500  # Black to move
    assert (
        catalog.evaluator("material").evaluate(position.from_string(FIGURE_6.replace(" b ", " w ")))
        == 500
    )


def test_t3_t6_piece_values_check_bonus_and_774_parameters(catalog):
    vector = catalog.evaluator("bayeschess").parameters
    assert vector.shape == (774,) and vector.dtype == np.int32
    assert list(vector[:6]) == [100, 300, 300, 500, 900, 30]


def test_t4_the_knight_table_is_read_in_its_corrected_orientation(catalog):
    vector = catalog.evaluator("bayeschess").parameters
    expected = {
        "b1": -30,
        "g1": -30,
        "d4": 10,
        "e4": 10,
        "d5": 10,
        "e5": 10,
        "c3": 5,
        "a1": -10,
        "h8": -10,
        "b2": 0,
        "h7": -10,
    }
    assert {sq: cell(vector, 0, 1, sq) for sq in expected} == expected
    mirrored = {sq[0] + str(9 - int(sq[1])): v for sq, v in expected.items()}
    assert {sq: cell(vector, 1, 1, sq) for sq in mirrored} == mirrored  # black = mirror


def test_t5_the_knight_part_of_the_figure_6_score(catalog):
    evaluator = catalog.evaluator("bayeschess")
    knights_only = np.zeros(774, dtype=np.int32)
    for colour in (0, 1):
        start = 6 + 64 * (6 * colour + 1)
        knights_only[start : start + 64] = evaluator.parameters[start : start + 64]
    evaluator.set_parameters(knights_only)
    # White: Nb1 −30 + Nf3 +5; Black: Nf6 +5; from Black's view +30
    assert evaluator.evaluate(board(catalog, FIGURE_6)) == 30


def test_parameters_can_be_read_changed_and_are_validated(catalog):
    evaluator = catalog.evaluator("bayeschess")
    vector = evaluator.parameters
    vector[4] = 1000  # queen
    evaluator.set_parameters(vector)
    assert evaluator.parameters[4] == 1000
    for bad in (np.zeros(773, dtype=np.int32), np.zeros(774, dtype=float), [1, 2]):
        with pytest.raises(InvalidOptionError, match="774"):
            evaluator.set_parameters(bad)


def test_the_check_bonus_goes_to_the_side_giving_check(catalog):
    evaluator = catalog.evaluator("bayeschess")
    checked = board(catalog, "4k3/8/8/8/8/8/8/4RK2 b - - 0 1")
    assert checked.is_check()
    assert evaluator.explain(checked)["check"] == -30


@pytest.mark.parametrize(
    "fen, colour, shield",
    [
        ("startpos", 0, 24),
        ("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", 0, 24),
        ("6k1/8/8/8/8/7P/5PP1/6K1 w - - 0 1", 0, 20),
        ("6k1/8/8/8/8/8/8/6K1 w - - 0 1", 0, -24),
        ("6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1", 1, 24),
        ("6k1/8/8/8/8/8/8/K7 w - - 0 1", 0, -16),  # a corner king has two files
    ],
)
def test_cpw_pawn_shield(catalog, fen, colour, shield):
    assert catalog.evaluator("cpw").shield_of(board(catalog, fen), colour) == shield


def test_cpw_shield_stays_within_its_bounds(catalog):
    evaluator = catalog.evaluator("cpw")
    rng = random.Random(5)
    for _ in range(30):
        position = board(catalog)
        for _ in range(rng.randrange(60)):
            if not position.legal_moves():
                break
            position.push(rng.choice(position.legal_moves()))
        for colour in (0, 1):
            assert -24 <= evaluator.shield_of(position, colour) <= 24


def test_cpw_king_tropism_with_the_printed_weights_and_bonuses(catalog):
    # a white queen on e1 against the black king on e8: d = 7
    queen = board(catalog, "4k3/8/8/8/8/8/8/K3Q3 b - - 0 1")
    assert catalog.evaluator("cpw").tropism_of(queen, 1) == (14 - 7 / 2) * 5 / 2
    assert catalog.evaluator("cpw(tropism=cpw)").tropism_of(queen, 1) == (14 - 7) * 5 / 2
    # a bishop on the king's diagonal (+3), one diagonal away (+2)
    same = board(catalog, "4k3/8/8/8/B7/8/8/K7 b - - 0 1")  # a4-e8
    near = board(catalog, "4k3/8/8/8/8/B7/8/K7 w - - 0 1")  # a3
    assert catalog.evaluator("cpw").tropism_of(same, 1) == (14 - 8 / 2) / 2 + 3  # d = 4 + 4
    assert catalog.evaluator("cpw").tropism_of(near, 1) == (14 - 9 / 2) / 2 + 2  # d = 4 + 5
    # a rook on an open file next to the king (+4)
    rook = board(catalog, "4k3/8/8/8/8/8/8/K2R4 w - - 0 1")
    assert catalog.evaluator("cpw").tropism_of(rook, 1) == (14 - 8 / 2) / 2 + 4


@pytest.mark.parametrize("name", EVALUATORS)
def test_a_mirrored_position_with_colours_swapped_scores_the_same(catalog, name):
    evaluator = catalog.evaluator(name)
    rng = random.Random(11)
    for _ in range(25):
        theirs = chess.Board()
        for _ in range(rng.randrange(50)):
            moves = list(theirs.legal_moves)
            if not moves:
                break
            theirs.push(rng.choice(moves))
        if theirs.is_game_over():
            continue
        ours = board(catalog, theirs.fen())
        mirrored = board(catalog, theirs.mirror().fen())
        assert evaluator.evaluate(ours) == evaluator.evaluate(mirrored), theirs.fen()


@pytest.mark.parametrize("name", EVALUATORS)
def test_explain_terms_sum_to_evaluate(catalog, name):
    evaluator = catalog.evaluator(name)
    for fen in (
        "startpos",
        FIGURE_6,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ):
        position = board(catalog, fen)
        total = sum(evaluator.explain(position).values())
        # cpw keeps quarter points in its terms; evaluate rounds the sum to centipawns
        assert (
            round(total) == evaluator.evaluate(position)
            or abs(total - evaluator.evaluate(position)) <= 0.5
        )


def test_evaluators_refuse_other_games(catalog):
    with pytest.raises(TypeError, match="chess positions"):
        catalog.evaluator("cpw").evaluate(catalog.game("trgd"))
    with pytest.raises(InvalidOptionError, match="tropism"):
        catalog.evaluator("cpw(tropism=none)")


def test_tuned_fifty_shrinks_the_score_as_the_fifty_move_clock_runs(catalog):
    plain, damped = catalog.evaluator("tuned"), catalog.evaluator("tuned(fifty=200)")
    assert repr(damped) == "tuned(fifty=200)"
    fen = "4k3/8/8/8/8/8/4P3/4K2R {} - - {} 70"
    for side in "wb":
        fresh = plain.evaluate(board(catalog, fen.format(side, 0)))
        assert fresh != 0
        for clock, times in ((0, 200), (60, 140), (150, 50)):
            position = board(catalog, fen.format(side, clock))
            assert plain.evaluate(position) == fresh  # the clock is not part of the score
            # fresh × times / 200, halves rounded away from zero
            expected = (abs(fresh) * times + 100) // 200 * (1 if fresh > 0 else -1)
            assert damped.evaluate(position) == expected
            assert damped.evaluate(position) == expected  # the same from its cache
        for clock in (200, 900):  # from a clock of ``fifty`` on: level
            assert damped.evaluate(board(catalog, fen.format(side, clock))) == 0
        # explain gives the damping its own share, so its terms still sum to evaluate
        position = board(catalog, fen.format(side, 60))
        terms = damped.explain(position)
        assert round(terms["fifty-move clock"]) == damped.evaluate(position) - fresh
        assert abs(sum(terms.values()) - damped.evaluate(position)) <= 0.5


@pytest.mark.parametrize("fifty", [-1, 1, 99, 10001, True, 150.5, "x"])
def test_tuned_refuses_a_fifty_it_cannot_play(catalog, fifty):
    with pytest.raises(InvalidOptionError, match="fifty"):
        catalog.evaluator(f"tuned(fifty={fifty})")
