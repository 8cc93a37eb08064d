"""TRGD against seed-004 §3 and §7 (TRGD-1 … TRGD-11), and the rules the thesis left open."""

import pytest

from alfabeta.core import IllegalMoveError, InvalidOptionError, InvalidPositionError, Result
from alfabeta.core.walk import perft
from alfabeta.games.trgd import ADJACENCY, LINES, lines_score
from alfabeta.searchers.thesis import jug_ab, jugada

THESIS_RULES = "trgd(first_moves=thesis, repetition=0, max_plies=0)"


def test_trgd_1_adjacency_is_symmetric_and_every_line_is_a_path():
    for point, neighbours in ADJACENCY.items():
        for other in neighbours:
            assert point in ADJACENCY[other]
    for a, b, c in LINES:
        middle = next(p for p in (a, b, c) if {x for x in (a, b, c) if x != p} <= set(ADJACENCY[p]))
        assert middle


def test_trgd_2_the_alpha_beta_programs_5_neighbours_typo_is_not_used():
    assert ADJACENCY[5] == (4, 6)


def test_trgd_3_thesis_rules_open_with_exactly_1_2_9_10(catalog):
    position = catalog.game(THESIS_RULES)
    assert [position.move_str(m) for m in position.legal_moves()] == ["1", "2", "9", "10"]
    assert len(catalog.game("trgd").legal_moves()) == 16


def test_trgd_4_after_max_takes_1_min_has_15_placements(catalog):
    position = catalog.game(THESIS_RULES)
    position.push_str("1")
    assert [position.move_str(m) for m in position.legal_moves()] == [str(p) for p in range(2, 17)]


@pytest.mark.parametrize(
    "max_points, min_points, side, thesis_h, max_relative",
    [
        ((), (), 0, 0, 0),
        ((1,), (), 1, -2, 2),
        ((2,), (), 1, -1, 1),
        ((9,), (), 1, -1, 1),
        ((10,), (), 1, -2, 2),
        ((1, 16), (10, 11), 0, 2, 2),
        ((1, 12, 16), (10, 11, 13), 1, -3, 3),
        ((2, 4, 6), (9, 11, 13), 0, 0, 0),
    ],
)
def test_trgd_5_h_values_thesis_sign_and_max_relative(
    catalog, max_points, min_points, side, thesis_h, max_relative
):
    assert lines_score(max_points, min_points) == max_relative
    position = catalog.game("trgd").from_string(
        f"{','.join(map(str, max_points))}/{','.join(map(str, min_points))} {'-' if side else '+'}"
    )
    to_max_view = 1 if side == 0 else -1  # what a searcher does with a side-to-move score
    plain = catalog.evaluator("trgd-lines")
    thesis = catalog.evaluator("trgd-lines(thesis=true)")
    assert to_max_view * plain.evaluate(position) == max_relative
    assert to_max_view * thesis.evaluate(position) == thesis_h
    assert sum(plain.explain(position).values()) == plain.evaluate(position)


def test_trgd_5_completed_lines_score_100():
    assert lines_score((1, 2, 3), (9, 10)) == 100
    # MIN's 9-10-16 is complete (-100); MAX holds 3-4-5 (+1) and 12-13-14 (+1) alone, MIN
    # holds 14-15-16 alone (-1); 10-11-12 is shared (0)
    assert lines_score((4, 12), (9, 10, 16)) == -99


def test_trgd_6_thesis_minimax_from_the_empty_board_to_cota_5(catalog):
    position = catalog.game(THESIS_RULES)
    choice = jugada(position, catalog.evaluator("trgd-lines(thesis=true)"), 5)
    assert choice.nodes == 142_864 and choice.leaves == 131_040
    assert [(position.move_str(m), v) for m, v in choice.root_values] == [
        ("1", -1),
        ("2", 0),
        ("9", 0),
        ("10", -1),
    ]
    assert {position.move_str(m) for m in choice.ties} == {"2", "9"} and choice.value == 0
    max_relative = jugada(position, catalog.evaluator("trgd-lines"), 5)
    assert [v for _, v in max_relative.root_values] == [2, 1, 1, 2]
    assert {position.move_str(m) for m in max_relative.ties} == {"1", "10"}


def test_trgd_6_node_count_is_the_placement_tree(catalog):
    assert perft(catalog.game(THESIS_RULES), 5) == 4 * 15 * 14 * 13 * 12


def test_trgd_7_jug_ab_on_the_empty_board_picks_the_last_maximum(catalog):
    position = catalog.game(THESIS_RULES)
    assert position.thesis_cota() == 1
    thesis = jug_ab(position, catalog.evaluator("trgd-lines(thesis=true)"), 1)
    assert [v for _, v in thesis.root_values] == [-2, -1, -1, -2]
    assert position.move_str(thesis.move) == "9"
    plain = jug_ab(position, catalog.evaluator("trgd-lines"), 1)
    assert position.move_str(plain.move) == "10"


@pytest.mark.parametrize(
    "start, cota, expected, value",
    [
        ("1,2/9,10 +", 3, "3", 100),  # TRGD-8: immediate win by placement
        ("1,7,9/4,12,14 +", 4, "9-8", 100),  # TRGD-9: immediate win by sliding 9 -> 8
        ("1,16/10,11 +", 3, "12", None),  # TRGD-10: block MIN's threat at 12
    ],
)
@pytest.mark.parametrize("thesis_h", [False, True])
def test_trgd_8_9_10_jug_ab_plays_the_thesis_moves(catalog, start, cota, expected, value, thesis_h):
    position = catalog.game(THESIS_RULES).from_string(start)
    assert position.thesis_cota() == cota  # TRGD-11
    evaluator = catalog.evaluator(f"trgd-lines(thesis={thesis_h})")
    choice = jug_ab(position, evaluator, cota)
    assert position.move_str(choice.move) == expected
    if value is not None:
        assert choice.value == value


def test_trgd_11_min_max_cota_is_5_and_jug_ab_cota_grows_with_max_pieces(catalog):
    position = catalog.game(THESIS_RULES)
    cotas = []
    for move in ("1", "2", "9", "10", "3"):
        if position.side_to_move == 0:
            cotas.append(position.thesis_cota())
        position.push_str(move)
    assert cotas == [1, 2, 3]
    searcher = catalog.searcher("thesis-alphabeta")
    result = searcher.search(position.from_string("1,16/10,11 +"), catalog.evaluator("trgd-lines"))
    assert result.depth == 3


def test_a_completed_line_ends_the_game_as_a_loss_for_the_side_to_move(catalog):
    position = catalog.game("trgd").from_string("1,2/9,10 +")
    position.push_str("3")
    assert position.outcome() == Result.LOSS and position.legal_moves() == []


def test_sliding_follows_the_thesis_neighbour_order(catalog):
    position = catalog.game("trgd").from_string("1,7,9/4,12,14 +")
    assert [position.move_str(m) for m in position.legal_moves()] == [
        "1-2",
        "1-8",
        "7-6",
        "7-8",
        "9-8",
        "9-10",
        "9-16",
    ]


def test_no_player_can_ever_be_blocked_so_no_blocked_rule_is_needed():
    """Every three points that are not a line have at least four neighbours outside them, and
    the opponent has only three pieces: a side without a slide must hold a completed line,
    and the game ended when it was made."""
    from itertools import combinations

    lines = {frozenset(line) for line in LINES}
    for triple in combinations(range(1, 17), 3):
        around = {q for p in triple for q in ADJACENCY[p]} - set(triple)
        assert len(around) >= 4 or frozenset(triple) in lines, triple


def test_threefold_repetition_is_a_draw_and_can_be_switched_off(catalog):
    shuffle = ["1-2", "4-3", "2-1", "3-4"] * 2
    for spec, expected in (("trgd", Result.DRAW), ("trgd(repetition=0)", Result.ONGOING)):
        position = catalog.game(spec).from_string("1,5,9/4,12,14 +")
        for move in shuffle:
            assert position.outcome() == Result.ONGOING
            position.push_str(move)
        assert position.outcome() == expected


def test_max_plies_ends_the_game_in_a_draw(catalog):
    position = catalog.game("trgd(max_plies=2)")
    position.push_str("1")
    assert position.outcome() == Result.ONGOING
    position.push_str("5")
    assert position.outcome() == Result.DRAW


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("1,2", "expected"),
        ("1,2,x/ +", "'x' is not a point"),
        ("1,17/ -", "'17' is not a point"),
        ("1,1/2 -", "repeats"),
        ("1,2,3,4/5,6,7 +", "has 4 pieces"),
        ("1/1 -", "both sides"),
        ("1/ +", "MIN's turn"),
        ("1,2,3/9,10,11 *", "side to move"),
        ("/1 -", "MAX moves first"),
        ("9,10,16/1,2,3 +", "already has a line"),
    ],
)
def test_malformed_or_impossible_positions_are_rejected_with_their_reason(catalog, text, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        catalog.game("trgd").from_string(text)


def test_bad_options_are_rejected(catalog):
    for spec in (
        "trgd(first_moves=some)",
        "trgd(first_moves=pass)",
        "trgd(repetition=-1)",
        "trgd(repetition=1)",
        "trgd(max_plies=2.5)",
    ):
        with pytest.raises(InvalidOptionError):
            catalog.game(spec)


def test_moves_read_as_points_and_slides(catalog):
    position = catalog.game("trgd").from_string("1,7,9/4,12,14 +")
    with pytest.raises(IllegalMoveError, match="legal:"):
        position.push_str("9-15")
    assert position.move_str(position.push_str("9-8")) == "9-8"
