"""Connect Four: published perft counts, rules, notation, threats, and search."""

import pytest

from alfabeta.core import IllegalMoveError, InvalidPositionError, Limit, Result
from alfabeta.core.walk import perft

# move paths from the empty board (OEIS A212693); at ply 7 the first fours appear
PERFT = [1, 7, 49, 343, 2401, 16807, 117649, 823536]


@pytest.mark.parametrize("depth, count", list(enumerate(PERFT)))
def test_perft_matches_the_published_counts(catalog, depth, count):
    assert perft(catalog.game("connect-four"), depth) == count


@pytest.mark.slow
def test_perft_8(catalog):
    assert perft(catalog.game("connect-four"), 8, check=True) == 5_673_234


def test_moves_are_generated_centre_first_and_full_columns_drop_out(catalog):
    position = catalog.game("connect-four")
    assert [position.move_str(m) for m in position.legal_moves()] == list("4352617")
    for _ in range(6):
        position.push_str("1")
    assert "1" not in [position.move_str(m) for m in position.legal_moves()]
    with pytest.raises(IllegalMoveError, match="column 1 is full"):
        position.push_str("1")


@pytest.mark.parametrize("moves", ["1212121", "1122334", "4455667"])
def test_four_in_a_row_ends_the_game(catalog, moves):
    position = catalog.game("connect-four").from_string(moves[:-1])
    assert position.outcome() == Result.ONGOING
    position.push_str(moves[-1])
    assert position.outcome() == Result.LOSS and position.legal_moves() == []


def test_diagonal_four(catalog):
    # x on a1, b2, c3; column d holds three stones, so x's d4 completes the diagonal
    board = "......./......./......./..xo.../.xox.../xooo..x x"
    position = catalog.game("connect-four").from_string(board)
    assert position.outcome() == Result.ONGOING
    position.push_str("4")
    assert position.outcome() == Result.LOSS


def test_board_strings_round_trip_and_are_validated(catalog):
    position = catalog.game("connect-four").from_string("4453")
    text = position.to_string()
    assert text == "......./......./......./......./...o.../..oxx.. x"
    assert position.from_string(text).key() == position.key()
    for bad, fragment in (
        ("......./......./......./......./...o.../..oxx.. o", "x's turn"),
        ("......./......./......./......./..x..../....... x", "gap"),
        ("xxxx", "expected"),
        ("48", "give a column"),
    ):
        with pytest.raises(InvalidPositionError, match=fragment):
            position.from_string(bad)


def test_searchers_win_at_once_and_block_a_threat(catalog):
    evaluator = catalog.evaluator("connect-four-threats")
    win = catalog.game("connect-four").from_string("121212")
    assert win.move_str(catalog.searcher("alphabeta(depth=2)").search(win, evaluator).move) == "1"
    block = catalog.game("connect-four").from_string("12121")
    result = catalog.searcher("alphabeta(depth=3)").search(block, evaluator)
    assert block.move_str(result.move) == "1"


def test_threats_drive_the_noisy_moves_and_the_tactical_mark(catalog):
    position = catalog.game("connect-four").from_string("12121")
    assert [position.move_str(m) for m in position.noisy_moves()] == ["1"]
    position.push_str("7")
    assert position.noisy_moves() == [0]  # x to move can win in column 1
    # the default mark_noisy looks the picker's moves up among them
    legal = position.legal_moves()
    assert position.noisy_flags(legal) == [move == 0 for move in legal]
    assert sum(position.noisy_flags(legal)) == 1


def test_evaluator_terms_sum_and_are_symmetric(catalog):
    evaluator = catalog.evaluator("connect-four-threats")
    position = catalog.game("connect-four").from_string("445")
    assert sum(evaluator.explain(position).values()) == evaluator.evaluate(position) == -3
    mirrored = catalog.game("connect-four").from_string("443")
    assert evaluator.evaluate(mirrored) == evaluator.evaluate(position)


def test_an_open_three_is_seen_as_a_forced_loss(catalog):
    # x has c1 d1 e1 with b1 and f1 free; o (a1, a2) is to move and loses in 2 plies
    position = catalog.game("connect-four").from_string("41315")
    result = catalog.searcher("alphabeta").search(
        position, catalog.evaluator("connect-four-threats"), Limit(depth=5)
    )
    assert result.value == -(1_000_000 - 2)


def _windows():
    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for c in range(7):
            for r in range(6):
                if 0 <= c + 3 * dc < 7 and 0 <= r + 3 * dr < 6:
                    yield [(c + k * dc, r + k * dr) for k in range(4)]


def _plain_terms(rows, me, them):
    """The evaluator's terms computed the slow, obvious way from the board text."""
    cell = {(c, 5 - i): ch for i, row in enumerate(rows) for c, ch in enumerate(row)}
    terms = {}
    for who, other in ((me, them), (them, me)):
        threes = twos = threats = 0
        for window in _windows():
            marks = [cell[x] for x in window]
            if other in marks:
                continue
            threes += marks.count(who) == 3
            twos += marks.count(who) == 2
        for (c, r), ch in cell.items():
            if ch != ".":
                continue
            for window in _windows():
                if (c, r) in window and all(cell[x] == who for x in window if x != (c, r)):
                    threats += 1
                    break
        centre = sum(cell[(3, r)] == who for r in range(6))
        terms[who] = (16 * threats, 2 * threes, twos, 3 * centre)
    names = ("threat cells", "open threes", "open twos", "centre stones")
    return {name: terms[me][i] - terms[them][i] for i, name in enumerate(names)}


@pytest.mark.parametrize("seed", range(30))
def test_bit_parallel_evaluator_equals_the_window_by_window_count(catalog, seed):
    import random

    rng = random.Random(seed)
    position = catalog.game("connect-four")
    for _ in range(rng.randrange(4, 30)):
        if not position.legal_moves():
            break
        position.push(rng.choice(position.legal_moves()))
    rows, side = position.to_string().split()
    me, them = side, "o" if side == "x" else "x"
    evaluator = catalog.evaluator("connect-four-threats")
    assert evaluator.explain(position) == _plain_terms(rows.split("/"), me, them)
