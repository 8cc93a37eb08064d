"""Fibonacci nim against seed-004 §2 and §7 (NIM-1 … NIM-9)."""

import pytest

from alfabeta.core import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Result,
    is_proven,
)
from alfabeta.games.fibonacci_nim import smallest_summand, winning_for_side_to_move, zeckendorf
from alfabeta.searchers.thesis import evaluation_sets, kernel, reachable_graph

# §2.4: n -> (μ(n), all winning first moves); n absent from WINNING loses for the first player
TABLE = {
    1: (1, ()),
    2: (2, ()),
    3: (3, ()),
    4: (1, (1,)),
    5: (5, ()),
    6: (1, (1,)),
    7: (2, (2,)),
    8: (8, ()),
    9: (1, (1,)),
    10: (2, (2,)),
    11: (3, (3,)),
    12: (1, (1,)),
    13: (13, ()),
    14: (1, (1,)),
    15: (2, (2,)),
    16: (3, (3,)),
    17: (1, (1, 4)),
    18: (5, (5,)),
    19: (1, (1, 6)),
    20: (2, (2,)),
    21: (21, ()),
    22: (1, (1,)),
    23: (2, (2,)),
    24: (3, (3,)),
    25: (1, (1, 4)),
    26: (5, (5,)),
    27: (1, (1, 6)),
    28: (2, (2, 7)),
    29: (8, (8,)),
    30: (1, (1, 9)),
}


def test_nim_5_zeckendorf_of_15_is_13_plus_2():
    assert zeckendorf(15) == [13, 2]
    assert zeckendorf(33) == [21, 8, 3, 1]


@pytest.mark.parametrize("n", sorted(TABLE))
def test_nim_3_mu_column(n):
    assert smallest_summand(n) == TABLE[n][0]


def test_nim_9_initial_state_and_move_rule(catalog):
    position = catalog.game("fibonacci-nim(n=15)")
    assert position.to_string() == "15 14 0" and position.legal_moves() == list(range(1, 15))
    position.push(4)
    assert (position.n, position.q, position.side_to_move) == (11, 8, 1)


def test_nim_6_sample_game_is_legal_and_b_wins(catalog):
    position = catalog.game("fibonacci-nim(n=15)")
    for take in (4, 3, 2, 1, 1, 1, 1, 2):
        position.push_str(str(take))
    assert position.n == 0 and position.outcome() == Result.LOSS
    assert position.side_to_move == 0  # A is to move and has lost: B took the last objects


def test_n_equal_1_is_a_first_player_loss_with_no_legal_move(catalog):
    position = catalog.game("fibonacci-nim(n=1)")
    assert position.legal_moves() == [] and position.outcome() == Result.LOSS


@pytest.mark.parametrize("n", sorted(TABLE))
def test_nim_1_2_3_exhaustive_search_finds_the_table(catalog, n):
    position = catalog.game(f"fibonacci-nim(n={n})")
    evaluator = catalog.evaluator("nim-naive")
    result = catalog.searcher("py-solve").search(position, evaluator)
    first_player_wins = bool(TABLE[n][1])
    assert (result.value > 0) == first_player_wins and is_proven(result.value)
    winners = []
    for move in position.legal_moves():
        position.push(move)
        child = catalog.searcher("py-solve").search(position, evaluator)
        position.pop()
        if child.value < 0:
            winners.append(move)
    assert tuple(winners) == TABLE[n][1]
    if first_player_wins:
        assert result.move in winners and smallest_summand(n) in winners


def test_nim_1_strategy_move_for_15_takes_2_leaving_13_with_q_4(catalog):
    position = catalog.game("fibonacci-nim(n=15)")
    result = catalog.searcher("py-alphabeta(depth=1)").search(
        position, catalog.evaluator("nim-exact")
    )
    assert result.move == 2
    position.push(result.move)
    assert position.to_string() == "13 4 1"


def test_nim_4_search_to_the_end_agrees_with_the_theorem_for_every_state_below_60(catalog):
    searcher = catalog.searcher("py-solve(persistent=true)")
    evaluator = catalog.evaluator("nim-naive")
    base = catalog.game("fibonacci-nim(n=59)")
    for n in range(1, 60):
        for q in range(1, n + 1):
            position = base.from_string(f"{n} {q} 0")
            won = searcher.search(position, evaluator).value > 0
            assert won == winning_for_side_to_move(n, q), (n, q)


def test_alphabeta_to_the_end_agrees_with_the_theorem_on_small_piles(catalog):
    searcher, evaluator = catalog.searcher("py-alphabeta"), catalog.evaluator("nim-naive")
    base = catalog.game("fibonacci-nim(n=14)")
    for n in range(1, 15):
        for q in range(1, n + 1):
            value = searcher.search(base.from_string(f"{n} {q} 0"), evaluator).value
            assert (value > 0) == winning_for_side_to_move(n, q), (n, q)


def test_exact_evaluator_agrees_with_the_theorem(catalog):
    evaluator = catalog.evaluator("nim-exact")
    base = catalog.game("fibonacci-nim(n=40)")
    for n in range(0, 41):
        for q in range(0, 2 * n + 2):
            value = evaluator.evaluate(base.from_string(f"{n} {q} 1"))
            assert (value > 0) == winning_for_side_to_move(n, q)


def _triple(state):
    n, q, side = map(int, state.split())
    return (n, q, 1 - side)  # the thesis's i: 1 when "we" (the root mover) are to move


def test_nim_8_full_reachable_graph_from_15_has_150_states_and_t_minus_k_is_v(catalog):
    graph = reachable_graph(catalog.game("fibonacci-nim(n=15)"))
    assert len(graph.successors) == 150 and len(graph.ours) == 76
    k = kernel(graph.successors)
    levels = evaluation_sets(graph.successors, graph.won)
    v = set().union(*levels)
    assert graph.ours - k == v
    assert [len(level) for level in levels] == [41, 1, 5, 8, 2, 1]
    assert "15 14 0" in levels[5]
    assert {_triple(s) for s in v} == {
        _triple(s)
        for s in graph.ours
        if int(s.split()[0]) >= 1 and winning_for_side_to_move(*map(int, s.split()[:2]))
    }


def test_nim_7_restricted_graph_of_figure_2_1_gives_the_printed_v_sets():
    """A always plays the strategy (take n if n ≤ q, else μ(n)); B plays every m with
    n − m > 2m, or takes 1 when there is none (seed-004 §2.3)."""
    successors, won = {}, set()
    work = [(15, 14, 1)]
    while work:
        n, q, i = state = work.pop()
        if state in successors:
            continue
        if n == 0:
            successors[state] = ()
            if i == 0:
                won.add(state)
            continue
        if i == 1:
            takes = [n if n <= q else smallest_summand(n)]
        else:
            takes = [m for m in range(1, min(q, n) + 1) if n - m > 2 * m] or [1]
        successors[state] = tuple((n - m, 2 * m, 1 - i) for m in takes)
        work.extend(successors[state])
    assert len(successors) == 20
    levels = evaluation_sets(successors, won)
    assert levels == [
        {(2, 2, 1)},
        {(4, 2, 1)},
        {(7, 2, 1), (6, 4, 1)},
        {(10, 2, 1), (9, 4, 1), (11, 4, 1), (10, 6, 1), (9, 8, 1)},
        {(12, 2, 1)},
        {(15, 14, 1)},
    ]


def test_bad_options_positions_and_moves_are_explained(catalog):
    with pytest.raises(InvalidOptionError, match="pile size"):
        catalog.game("fibonacci-nim(n=0)")
    position = catalog.game("fibonacci-nim(n=15)")
    with pytest.raises(InvalidPositionError, match="q"):
        position.from_string("15 x 0")
    with pytest.raises(InvalidPositionError, match="side"):
        position.from_string("15 3 2")
    with pytest.raises(IllegalMoveError, match=r"take 1..14"):
        position.push_str("15")
