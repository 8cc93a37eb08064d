"""Compiled searchers against their pure-Python references: same value, move, principal
variation, node and leaf counts, on every game; and the reference cases on the tree game."""

import threading

import pytest

from alfabeta.core import Limit

GAMES = [
    ("tree(branching=5, depth=5, seed=11)", "tree-leaves", None),
    ("tree(nodes=[[8,12,10],[6,15,9],[14,11,5]])", "tree-leaves", None),
    ("fibonacci-nim(n=18)", "nim-naive", 5),
    ("fibonacci-nim(n=9)", "nim-naive", None),
    ("trgd", "trgd-lines", 3),
    ("trgd(first_moves=thesis, repetition=0)", "trgd-lines(thesis=true)", 4),
    ("trgd", "trgd-lines", 1),
    ("tictactoe", "tictactoe-lines", 3),
    ("connect-four", "connect-four-threats", 5),
    ("deduction(file='tests/data/deduction/kb4.txt', data='j,v,z', goal=a)", "deduction-h", 6),
]
PAIRS = [
    ("py-minimax", "minimax"),
    ("py-negamax", "negamax"),
    ("py-alphabeta", "alphabeta"),
    ("py-alphabeta(fail=soft)", "alphabeta(fail=soft)"),
    ("py-alphabeta(root=independent)", "alphabeta(root=independent)"),
]


def summary(result):
    return (
        result.move,
        result.value,
        result.pv,
        result.nodes,
        result.leaves,
        result.depth,
        result.complete,
    )


@pytest.mark.parametrize("reference, compiled", PAIRS)
@pytest.mark.parametrize("game, evaluator, depth", GAMES)
def test_compiled_matches_the_reference_exactly(
    catalog, reference, compiled, game, evaluator, depth
):
    position = catalog.game(game)
    before = position.to_string(), position.key()
    limit = Limit(depth=depth)
    expected = catalog.searcher(reference).search(position, catalog.evaluator(evaluator), limit)
    got = catalog.searcher(compiled).search(position, catalog.evaluator(evaluator), limit)
    assert summary(got) == summary(expected)
    assert (position.to_string(), position.key()) == before


@pytest.mark.parametrize("reference, compiled", PAIRS)
@pytest.mark.parametrize("nodes", [1, 2, 57, 1000])
def test_node_limits_stop_both_at_the_same_node(catalog, reference, compiled, nodes):
    position = catalog.game("tree(branching=6, depth=6)")
    limit = Limit(nodes=nodes)
    expected = catalog.searcher(reference).search(position, catalog.evaluator("tree-leaves"), limit)
    got = catalog.searcher(compiled).search(position, catalog.evaluator("tree-leaves"), limit)
    assert summary(got) == summary(expected)
    assert got.nodes == nodes and not got.complete and got.move in range(1, 7)


ENDLESS = "trgd(repetition=0)"  # no depth limit and no repetition rule: a search never ends


@pytest.mark.parametrize(
    "searcher",
    ["minimax", "negamax", "alphabeta", "negascout", "aspiration", "mtdf", "null-move"],
)
def test_a_stop_flag_set_from_another_thread_ends_an_infinite_search(catalog, searcher):
    stop = threading.Event()
    position = catalog.game(ENDLESS)
    before = position.to_string()
    timer = threading.Timer(0.1, stop.set)
    timer.start()
    result = catalog.searcher(searcher).search(
        position, catalog.evaluator("trgd-lines"), Limit(infinite=True, stop=stop)
    )
    timer.join()
    assert not result.complete and result.move in position.legal_moves()
    assert position.to_string() == before


@pytest.mark.parametrize("searcher", ["aspiration", "mtdf", "alphabeta(iterative=on)"])
def test_iterative_searchers_keep_to_a_time_limit(catalog, searcher):
    position = catalog.game(ENDLESS)
    result = catalog.searcher(searcher).search(
        position, catalog.evaluator("trgd-lines"), Limit(time=0.1)
    )
    assert not result.complete and result.elapsed < 1.0
    assert result.move == result.infos[-1].pv[0] and result.depth == result.infos[-1].depth


@pytest.mark.parametrize("searcher", ["minimax", "alphabeta", "py-minimax", "negascout"])
def test_fixed_depth_searchers_refuse_a_time_limit(catalog, searcher):
    from alfabeta.core import UnsupportedLimitError

    with pytest.raises(UnsupportedLimitError, match="iterative"):
        catalog.searcher(searcher).search(
            catalog.game("trgd"), catalog.evaluator("trgd-lines"), Limit(time=1.0, depth=3)
        )


@pytest.mark.parametrize(
    "d, leaves", [(4, 906), (5, 4_396), (6, 12_490), (7, 100_698), (8, 468_422)]
)
def test_anchor_tree_leaf_counts_compiled(catalog, d, leaves):
    position = catalog.game(f"tree(branching=8, depth={d}, seed=20240607)")
    result = catalog.searcher("alphabeta").search(position, catalog.evaluator("tree-leaves"))
    assert result.leaves == leaves
    best = catalog.game(f"tree(branching=8, depth={d}, seed=20240607, order=best)")
    minimal = catalog.searcher("alphabeta").search(best, catalog.evaluator("tree-leaves"))
    assert minimal.leaves == 8 ** ((d + 1) // 2) + 8 ** (d // 2) - 1
    assert minimal.value == result.value
