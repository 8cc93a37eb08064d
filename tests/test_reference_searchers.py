"""The reference searchers on the tree game: seed-003 §5 cases 1–4, 14, 18, 21–22, 27–28, 33,
39–41, the thesis's worked tree (seed-004 §4.5, TREE-1 … TREE-3) and anchors-perf's tree."""

import re
import threading

import pytest
from conftest import T1, T3, T4, T5, T6, search_tree

from alfabeta.core import Limit, UnsupportedLimitError
from alfabeta.searchers.thesis import valor_a

run = search_tree


@pytest.mark.parametrize(
    "searcher", ["py-minimax", "py-negamax", "py-alphabeta", "py-alphabeta(fail=soft)", "py-solve"]
)
@pytest.mark.parametrize(
    "tree, value, move",
    [
        (T1, 8, 1),  # case 1
        (T4, 12, 1),  # case 21
        (T5, 6, 3),  # case 27
        (T6, 3, 2),  # case 33
    ],
)
def test_exact_searchers_find_the_minimax_value_and_move(catalog, searcher, tree, value, move):
    result, _, _ = run(catalog, searcher, tree)
    assert (result.value, result.move) == (value, move)


def test_case_18_minimax_on_t3_values_b_at_minus_5_and_c_at_minus_4(catalog):
    result, _, position = run(catalog, "py-minimax", T3)
    assert result.move == 2 and result.value == -4
    evaluator = catalog.evaluator("tree-leaves")
    for move, value in ((1, -5), (2, -4)):
        position.push(move)
        child = catalog.searcher("py-minimax").search(position, evaluator)
        position.pop()
        assert -child.value == value  # the child's value is from MIN's side


def test_case_40_minimax_keeps_the_first_of_tied_root_moves(catalog):
    for searcher in ("py-minimax", "py-negamax", "py-alphabeta"):
        assert run(catalog, searcher, [[5], [5]])[0].move == 1


@pytest.mark.parametrize("fail", ["hard", "soft"])
def test_fail_hard_and_fail_soft_visit_the_same_leaves(catalog, fail):
    for tree in (T1, T4, T5, T6):
        hard = run(catalog, "py-alphabeta", tree)[1]
        assert run(catalog, f"py-alphabeta(fail={fail})", tree)[1] == hard


@pytest.mark.parametrize("b, d", [(2, 3), (3, 3), (4, 4), (3, 6), (8, 4), (8, 5), (8, 6)])
def test_case_39_alphabeta_on_perfectly_ordered_trees_evaluates_the_minimal_tree(catalog, b, d):
    position = catalog.game(f"tree(branching={b}, depth={d}, order=best)")
    result = catalog.searcher("py-alphabeta").search(position, catalog.evaluator("tree-leaves"))
    assert result.leaves == b ** ((d + 1) // 2) + b ** (d // 2) - 1


@pytest.mark.parametrize("d, leaves", [(4, 906), (5, 4_396), (6, 12_490)])
def test_anchor_tree_leaf_counts_in_index_order(catalog, d, leaves):
    position = catalog.game(f"tree(branching=8, depth={d}, seed=20240607)")
    evaluator = catalog.evaluator("tree-leaves")
    alphabeta = catalog.searcher("py-alphabeta").search(position, evaluator)
    assert alphabeta.leaves == leaves


@pytest.mark.slow
@pytest.mark.parametrize("d, leaves", [(7, 100_698), (8, 468_422)])
def test_anchor_tree_leaf_counts_deep(catalog, d, leaves):
    position = catalog.game(f"tree(branching=8, depth={d}, seed=20240607)")
    alphabeta = catalog.searcher("py-alphabeta").search(position, catalog.evaluator("tree-leaves"))
    assert alphabeta.leaves == leaves


def test_exact_searchers_agree_on_the_anchor_tree(catalog):
    position = catalog.game("tree(branching=4, depth=6, seed=3)")
    evaluator = catalog.evaluator("tree-leaves")
    values = {
        s: catalog.searcher(s).search(position, evaluator).value
        for s in ("py-minimax", "py-negamax", "py-alphabeta", "py-alphabeta(fail=soft)")
    }
    assert len(set(values.values())) == 1, values


# ---- the thesis's worked α-β tree (seed-004 §4.5) ----------------------------------------
THESIS_H = {
    "11111": 1,
    "11112": 2,
    "11113": -1,
    "11121": -2,
    "11122": 3,
    "11211": 1,
    "11212": 2,
    "11221": 3,
    "11231": 1,
    "11232": -2,
    "11233": 0,
    "12111": 1,
    "12112": 0,
    "12121": -1,
    "12122": 1,
    "12123": 2,
    "13111": -1,
    "13112": 1,
    "13211": 0,
    "13221": 2,
    "13311": 1,
    "13312": -2,
}
THESIS_SUCES = {
    "1": "11 12 13",
    "11": "111 112",
    "111": "1111 1112",
    "1111": "11111 11112 11113",
    "1112": "11121 11122",
    "112": "1121 1122 1123",
    "1121": "11211 11212",
    "1122": "11221",
    "1123": "11231 11232 11233",
    "12": "121",
    "121": "1211 1212",
    "1211": "12111 12112",
    "1212": "12121 12122 12123",
    "13": "131 132 133",
    "131": "1311",
    "1311": "13111 13112",
    "132": "1321 1322",
    "1321": "13211",
    "1322": "13221",
    "133": "1331",
    "1331": "13311 13312",
}


def thesis_tree(name="1"):
    if name in THESIS_H:
        return THESIS_H[name]
    return [thesis_tree(child) for child in THESIS_SUCES[name].split()]


def test_tree_2_the_thesis_tree_has_43_nodes_and_22_leaves(catalog):
    position = catalog.game(f"tree(nodes={thesis_tree()!r})")
    from alfabeta.core.walk import perft

    sizes = [perft(position, d) for d in range(5)]
    assert sizes == [1, 3, 6, 11, 22] and sum(sizes) == 43 and len(THESIS_H) == 22


def test_tree_1_and_2_minimax_values(catalog):
    result, _, position = run(catalog, "py-minimax", thesis_tree())
    assert result.value == 0 and result.move == 2  # node 12
    evaluator = catalog.evaluator("tree-leaves")
    for path, value in (("1", -1), ("1.1", -1), ("2", 0), ("3", -2)):
        node = position.from_string(path)
        child = catalog.searcher("py-minimax").search(node, evaluator).value
        assert (child if node.side_to_move == 0 else -child) == value


def test_tree_3_the_thesis_shallow_alphabeta_visits_25_nodes_and_11_leaves(catalog):
    position = catalog.game(f"tree(nodes={thesis_tree()!r})")
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    value, nodes, leaves = valor_a(position, evaluator, cota=10)
    assert (value, nodes, leaves) == (0, 25, 11)
    assert [label.replace(".", "") for label in evaluator.visited()] == [
        "1111",
        "1112",
        "1113",
        "1121",
        "1211",
        "1212",
        "2111",
        "2112",
        "2121",
        "3111",
        "3112",
    ]


def test_tree_3_deep_alphabeta_visits_24_nodes_and_10_leaves(catalog):
    result, leaves, _ = run(catalog, "py-alphabeta", thesis_tree())
    assert (result.value, result.move, result.nodes, result.leaves) == (0, 2, 24, 10)
    assert "3.1.1.2" not in leaves


def test_tree_1_jug_ab_chooses_12_with_value_0(catalog):
    position = catalog.game(f"tree(nodes={thesis_tree()!r})")
    result = catalog.searcher("thesis-alphabeta(cota=10)").search(
        position, catalog.evaluator("tree-leaves")
    )
    assert (result.move, result.value) == (2, 0)


# ---- limits --------------------------------------------------------------------------------
def test_a_node_limit_is_exact_and_returns_a_legal_move(catalog):
    position = catalog.game("tree(branching=8, depth=6)")
    evaluator = catalog.evaluator("tree-leaves")
    for searcher in ("py-minimax", "py-alphabeta"):
        result = catalog.searcher(searcher).search(position, evaluator, Limit(nodes=500))
        assert result.nodes == 500 and not result.complete and result.move in range(1, 9)


def test_a_set_stop_event_ends_an_infinite_search_with_a_legal_move(catalog):
    stop = threading.Event()
    stop.set()
    position = catalog.game("tree(branching=8, depth=7)")
    result = catalog.searcher("py-negamax").search(
        position, catalog.evaluator("tree-leaves"), Limit(infinite=True, stop=stop)
    )
    assert not result.complete and result.move in range(1, 9) and result.nodes <= 1024


@pytest.mark.parametrize("limit", [Limit(time=0.5), Limit(wtime=10.0, btime=10.0)])
def test_time_and_clock_limits_are_refused_by_fixed_depth_reference_searchers(catalog, limit):
    position = catalog.game("tree(branching=2, depth=2)")
    with pytest.raises(UnsupportedLimitError, match="time or a clock"):
        catalog.searcher("py-alphabeta").search(position, catalog.evaluator("tree-leaves"), limit)


def test_same_search_twice_gives_the_same_counts(catalog):
    position = catalog.game("trgd")
    evaluator = catalog.evaluator("trgd-lines")
    first = catalog.searcher("py-alphabeta(depth=3)").search(position, evaluator)
    second = catalog.searcher("py-alphabeta(depth=3)").search(position, evaluator)
    assert (first.move, first.value, first.nodes, first.leaves, first.pv) == (
        second.move,
        second.value,
        second.nodes,
        second.leaves,
        second.pv,
    )


def test_a_tree_can_come_from_a_json_file(catalog, tmp_path):
    path = tmp_path / "t1.json"
    path.write_text("[[8, 12, 10], [6, 15, 9], [14, 11, 5]]")
    position = catalog.game(f"tree(file={str(path)!r})")
    result = catalog.searcher("py-alphabeta").search(position, catalog.evaluator("tree-leaves"))
    assert (result.value, result.move, result.leaves) == (8, 1, 7)


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("tree(file='/no/such/file.json')", "No such file"),
        ("tree(nodes=[[1, []]])", "empty list"),
        ("tree(nodes=[[1, 'x']])", "expected a number"),
        ("tree(branching=1, depth=3)", "branching >= 2"),
        ("tree(nodes=[[1]], branching=2)", "exactly one source"),
        ("tree(nodes=[[1]], order=random)", "order"),
    ],
)
def test_bad_tree_specifications_are_explained(catalog, spec, fragment):
    from alfabeta.core import InvalidOptionError

    with pytest.raises(InvalidOptionError, match=re.escape(fragment)):
        catalog.game(spec)
