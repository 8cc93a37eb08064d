"""Every reference case of seed-003 §5 (1–44) through the tree game and the compiled
searchers. "Leaves" counts evaluator calls with repeats; "distinct" the set of leaves."""

import pytest
from conftest import EXACT_SEARCHERS, T1, T2, T3, T4, T5, T6, search_tree

from alfabeta.core import Limit


def run(catalog, searcher, tree, **tree_options):
    """The result and the evaluated leaves."""
    return search_tree(catalog, searcher, tree, **tree_options)[:2]


def test_case_01_minimax_propagates_8(catalog):
    result, _ = run(catalog, "minimax", T1)
    assert (result.value, result.move) == (8, 1)


AB = pytest.mark.parametrize("ab", ["alphabeta", "py-alphabeta"])


@AB
def test_case_02_alphabeta_cuts_the_second_child_after_the_6(catalog, ab):
    result, leaves = run(catalog, ab, T1)
    assert result.value == 8 and leaves == ["1.1", "1.2", "1.3", "2.1", "3.1", "3.2", "3.3"]


@AB
def test_case_03_the_literal_root_loop_evaluates_9(catalog, ab):
    result, leaves = run(catalog, f"{ab}(root=independent)", T1)
    assert result.value == 8 and len(leaves) == 9


@pytest.mark.parametrize("negamax", ["negamax", "py-negamax"])
def test_case_04_negamax_evaluates_9(catalog, negamax):
    result, leaves = run(catalog, negamax, T1)
    assert (result.value, len(leaves)) == (8, 9)


def test_case_05_negascout_on_t1(catalog):
    result, leaves = run(catalog, "negascout", T1)
    assert (result.value, len(leaves), len(set(leaves))) == (8, 7, 7)


def test_case_06_sss_star_order_on_t1(catalog):
    result, leaves = run(catalog, "sss*", T1)
    assert result.value == 8 and leaves == ["1.1", "2.1", "3.1", "3.2", "3.3", "1.2", "1.3"]


def test_case_07_scout_on_t1(catalog):
    result, leaves = run(catalog, "scout", T1)
    assert (result.value, len(leaves)) == (8, 7)


@pytest.mark.parametrize(
    "tree, guess, passes, leaves, distinct",
    [
        (T1, 0, 2, 8, 7),
        (T1, 8, 2, None, None),
        (T1, 100, 4, 10, 7),  # case 8
        (T4, 0, 4, 10, None),
        (T4, 12, 2, 8, None),
        (T4, 100, 4, 11, 8),  # case 26
        (T5, 0, 5, 13, 9),
        (T5, 6, 2, 8, None),
        (T5, 100, 3, 10, 8),  # case 32
    ],
)
def test_cases_08_26_32_mtdf_passes_and_evaluations(catalog, tree, guess, passes, leaves, distinct):
    result, visited = run(catalog, f"mtdf(iterative=off, guess={guess})", tree)
    assert result.passes == passes
    if leaves is not None:
        assert len(visited) == leaves
    if distinct is not None:
        assert len(set(visited)) == distinct


@pytest.mark.parametrize(
    "guess, window, leaves, researches",
    [
        (8, 1, 7, 0),  # case 9: (7, 9), 8 inside
        (9, 2, 7, 0),  # case 10: (7, 11)
        (7, 1, 10, 1),  # case 11: (6, 8): fail-hard returns 8 = β, a fail-high: 3 + 7
        (20, 2, 10, 1),  # case 12: (18, 22): fail-low with 3 leaves, then 7
        (0, 2, 10, 1),  # case 13: (-2, 2): fail-high with 3 leaves, then 7
    ],
)
def test_cases_09_to_13_aspiration_windows(catalog, guess, window, leaves, researches):
    result, visited = run(catalog, f"alphabeta(aspiration={window}, guess={guess})", T1)
    assert (result.value, len(visited), result.researches) == (8, leaves, researches)


def test_case_11_first_pass_of_a_failed_window_evaluates_3(catalog):
    position = catalog.game(f"tree(nodes={T1!r})")
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    catalog.searcher("alphabeta(aspiration=1, guess=7)").search(position, evaluator)
    assert evaluator.visited()[:3] == ["1.1", "1.2", "1.3"]


@pytest.mark.parametrize("minimax", ["minimax", "py-minimax"])
def test_case_14_minimax_on_t2_chooses_c(catalog, minimax):
    result, _ = run(catalog, minimax, T2)
    assert (result.value, result.move) == (31, 2)  # 3.1 at scale 10
    position = catalog.game(f"tree(nodes={T2!r})")
    assert position.scale == 10 and result.value / position.scale == 3.1


def test_case_15_alphabeta_on_t2_examines_h_and_i(catalog):
    _, leaves = run(catalog, "alphabeta", T2)
    assert leaves == ["1.1", "1.2", "1.3", "2.1", "2.2", "2.3"]


def test_case_16_futility_with_margin_0_5_prunes_h_and_i(catalog):
    result, leaves = run(catalog, "alphabeta(futility=50)", T2, scale=100)
    assert leaves == ["1.1", "1.2", "1.3", "2.1"]
    assert (result.value, result.move) == (310, 2)  # a cut keeps the node's value: C, 3.1


def test_case_17_a_margin_below_the_gap_behaves_like_alphabeta(catalog):
    _, leaves = run(catalog, "alphabeta(futility=5)", T2, scale=100)
    assert len(leaves) == 6


def test_case_18_minimax_on_t3_prefers_c(catalog):
    result, _ = run(catalog, "minimax", T3)
    assert (result.value, result.move) == (-4, 2)


@pytest.mark.parametrize("p, move, value", [(0.1, 1, -350), (0.05, 2, -390)])
def test_cases_19_20_an_erring_opponent_changes_the_choice(catalog, p, move, value):
    for searcher in ("minimax", "py-minimax"):
        result, _ = run(catalog, f"{searcher}(opponent_error={p})", T3, scale=100)
        assert (result.move, result.value) == (move, value)


def test_cases_19_20_the_switch_happens_above_one_thirteenth(catalog):
    below, _ = run(catalog, "minimax(opponent_error=0.075)", T3, scale=1000)
    above, _ = run(catalog, "minimax(opponent_error=0.08)", T3, scale=1000)
    assert (below.move, above.move) == (2, 1)


def test_case_21_minimax_on_t4(catalog):
    result, _ = run(catalog, "minimax", T4)
    assert (result.value, result.move) == (12, 1)


@AB
def test_case_22_alphabeta_evaluates_all_of_t4(catalog, ab):
    _, leaves = run(catalog, ab, T4)
    assert leaves == ["1.1.1", "1.1.2", "1.2.1", "1.2.2", "2.1.1", "2.1.2", "2.2.1", "2.2.2"]


@pytest.mark.parametrize("tree, document, variant", [(T4, 11, 9), (T5, 17, 16)])
def test_cases_23_30_negascout_document_version_and_variant(catalog, tree, document, variant):
    _result, leaves = run(catalog, "negascout", tree)
    assert len(leaves) == document
    _, leaves_variant = run(catalog, "negascout(research_leaves=off)", tree)
    assert len(leaves_variant) == variant and set(leaves_variant) == set(leaves)


def test_case_24_sss_star_order_on_t4(catalog):
    _, leaves = run(catalog, "sss*", T4)
    assert leaves == ["1.1.1", "1.1.2", "2.1.1", "2.1.2", "2.2.1", "2.2.2", "1.2.1", "1.2.2"]


@pytest.mark.parametrize("tree, evaluations, distinct", [(T4, 11, 7), (T5, 19, 10)])
def test_cases_25_31_scout(catalog, tree, evaluations, distinct):
    _, leaves = run(catalog, "scout", tree)
    assert (len(leaves), len(set(leaves))) == (evaluations, distinct)


@AB
def test_cases_27_28_t5(catalog, ab):
    result, _ = run(catalog, "minimax", T5)
    assert (result.value, result.move) == (6, 3)
    _, leaves = run(catalog, ab, T5)
    assert leaves == [
        "1.1.1",
        "1.1.2",
        "1.2.1",
        "2.1.1",
        "2.1.2",
        "2.2.1",
        "3.1.1",
        "3.1.2",
        "3.2.1",
        "3.2.2",
    ]


def test_case_29_sss_star_beats_alphabeta_on_t5(catalog):
    _, leaves = run(catalog, "sss*", T5)
    assert leaves == ["1.1.1", "1.1.2", "2.1.1", "2.1.2", "3.1.1", "3.1.2", "3.2.1", "3.2.2"]


def test_cases_33_34_t6(catalog):
    result, _ = run(catalog, "minimax", T6)
    assert (result.value, result.move) == (3, 2)
    _, alphabeta = run(catalog, "alphabeta", T6)
    _, sss = run(catalog, "sss*", T6)
    _, scout = run(catalog, "scout", T6)
    assert (len(alphabeta), len(sss), len(set(scout))) == (12, 8, 13)
    assert "2.1.1.2" in scout and "2.1.1.2" not in alphabeta


@pytest.mark.parametrize("tree", [T1, T4, T5, T6, [[5], [5]], [[5, 9], [5, 1]]])
def test_case_35_every_exact_searcher_finds_the_same_value(catalog, tree):
    values = {s: run(catalog, s, tree)[0].value for s in EXACT_SEARCHERS}
    assert len(set(values.values())) == 1, values


def test_case_40_root_ties_keep_the_first_move(catalog):
    for searcher in ("minimax", "negamax", "alphabeta", "negascout", "scout", "sss*"):
        assert run(catalog, searcher, [[5], [5]])[0].move == 1, searcher


@AB
def test_case_41_alphabeta_cuts_on_equality(catalog, ab):
    _, leaves = run(catalog, ab, [[5, 9], [5, 1]])
    assert leaves == ["1.1", "1.2", "2.1"]


def test_case_42_iterative_deepening_returns_the_deepest_completed_iteration(catalog):
    position = catalog.game("tree(branching=6, depth=7, seed=3)")
    evaluator = catalog.evaluator("tree-leaves")
    full = catalog.searcher("alphabeta(iterative=on)").search(position, evaluator)
    stopped = catalog.searcher("alphabeta(iterative=on)").search(
        position, evaluator, Limit(nodes=full.infos[4].nodes + 10)
    )
    assert not stopped.complete and stopped.depth == 5
    assert (stopped.move, stopped.value) == (full.infos[4].pv[0], full.infos[4].value)


def test_case_44_dewey_labels(catalog):
    position = catalog.game(f"tree(nodes={T4!r})")
    assert position.to_string() == "ε"
    position.push(1)
    position.push(2)
    assert position.to_string() == "1.2"
