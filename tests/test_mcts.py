"""MCTS (UCT): seeded and deterministic, takes wins, honours its budgets."""

import threading

import pytest

from alfabeta.core import Limit, UnsupportedLimitError


def test_same_seed_same_search_and_another_seed_may_differ(catalog):
    position = catalog.game("connect-four")
    evaluator = catalog.evaluator("connect-four-threats")
    first = catalog.searcher("mcts(iterations=2000, seed=7)").search(position, evaluator)
    second = catalog.searcher("mcts(iterations=2000, seed=7)").search(position, evaluator)
    assert (first.move, first.value, first.nodes, first.leaves) == (
        second.move,
        second.value,
        second.nodes,
        second.leaves,
    )
    assert first.nodes == 2000 and first.complete


@pytest.mark.parametrize(
    "game, start, move",
    [
        ("connect-four", "121212", "1"),  # win at once
        ("connect-four", "12121", "1"),  # stop the four
        ("tictactoe", "xx.oo.... x", "c3"),  # win at once
    ],
)
def test_mcts_finds_the_decisive_move(catalog, game, start, move):
    position = catalog.game(game).from_string(start)
    result = catalog.searcher("mcts(iterations=4000)").search(
        position, catalog.default_evaluator(position)
    )
    assert position.move_str(result.move) == move


def test_mcts_refuses_a_depth_and_honours_nodes_time_and_stop(catalog):
    position = catalog.game("trgd")
    evaluator = catalog.evaluator("trgd-lines")
    with pytest.raises(UnsupportedLimitError, match="depth"):
        catalog.searcher("mcts").search(position, evaluator, Limit(depth=3))
    assert catalog.searcher("mcts").search(position, evaluator, Limit(nodes=300)).nodes == 300
    timed = catalog.searcher("mcts").search(position, evaluator, Limit(time=0.05))
    assert timed.elapsed < 1.0 and timed.move in position.legal_moves()
    stop = threading.Event()
    threading.Timer(0.05, stop.set).start()
    stopped = catalog.searcher("mcts").search(position, evaluator, Limit(infinite=True, stop=stop))
    assert stopped.move in position.legal_moves()
    assert position.to_string() == catalog.game("trgd").to_string()


def test_mcts_scores_explicit_tree_leaves_by_their_sign(catalog):
    position = catalog.game("tree(nodes=[[-5, -3], [2, 4], [-1, -9]])")
    result = catalog.searcher("mcts(iterations=500)").search(
        position, catalog.evaluator("tree-leaves")
    )
    assert result.move == 2 and result.value > 0
