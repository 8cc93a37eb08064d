"""Laws of the reference searchers on random trees (hypothesis)."""

from conftest import random_trees
from hypothesis import given, settings

from alfabeta import load_catalog

CATALOG = load_catalog(autoload=False)


def search(spec, tree):
    position = CATALOG.game(f"tree(nodes={tree!r})")
    evaluator = CATALOG.evaluator("tree-leaves(log=true)")
    result = CATALOG.searcher(spec).search(position, evaluator)
    return result, evaluator.visited()


@settings(max_examples=150, deadline=None)
@given(random_trees())
def test_every_exact_searcher_finds_the_same_value(tree):
    values = {
        spec: search(spec, tree)[0].value
        for spec in (
            "py-minimax",
            "py-negamax",
            "py-alphabeta",
            "py-alphabeta(fail=soft)",
            "py-alphabeta(root=independent)",
            "py-solve",
        )
    }
    assert len(set(values.values())) == 1, values


@settings(max_examples=150, deadline=None)
@given(random_trees())
def test_alphabeta_evaluates_a_subset_of_minimax_leaves_in_the_same_order(tree):
    minimax_leaves = search("py-minimax", tree)[1]
    hard = search("py-alphabeta", tree)[1]
    soft = search("py-alphabeta(fail=soft)", tree)[1]
    assert hard == soft
    remaining = iter(minimax_leaves)
    assert all(leaf in remaining for leaf in hard)  # an ordered subsequence


@settings(max_examples=100, deadline=None)
@given(random_trees())
def test_the_minimax_move_achieves_the_minimax_value(tree):
    result, _ = search("py-minimax", tree)
    child = tree[result.move - 1]
    position = CATALOG.game(f"tree(nodes={tree!r})")
    position.push(result.move)
    below = CATALOG.searcher("py-minimax").search(position, CATALOG.evaluator("tree-leaves"))
    assert -below.value == result.value or (not isinstance(child, list) and child == result.value)
