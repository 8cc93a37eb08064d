"""The alpha-beta family's window contracts (``family.pyx``, class ``Family``): one root search
with the window (α, β) returns r such that, with v the exact value at that depth,

* fail-hard: α ≤ r ≤ β; r = α ⇒ v ≤ α; r = β ⇒ v ≥ β; otherwise r = v;
* fail-soft: r ≤ α ⇒ v ≤ r; r ≥ β ⇒ v ≥ r; otherwise r = v;
* PVS, fail-hard: r ≥ α; r = α ⇒ v ≤ α; r ≥ β ⇒ v ≥ r; otherwise r = v;
* PVS, fail-soft: the fail-soft contract.

Checked on every window around v on random trees and on games with wins and draws, with and
without the transposition table."""

import pytest

from alfabeta.core import InvalidOptionError, Limit, UnsupportedLimitError

CASES = [
    *[(f"tree(branching=4, depth=5, seed={seed})", "tree-leaves", 5) for seed in range(6)],
    ("fibonacci-nim(n=18)", "nim-naive", 5),
    ("tictactoe", "tictactoe-lines", 4),
    ("connect-four(width=5, height=4)", "connect-four-threats", 5),
]
CONFIGS = {
    "fail-hard": "alphabeta(fail=hard)",
    "fail-soft": "alphabeta(fail=soft)",
    "fail-hard, tt": "alphabeta(fail=hard, tt=on)",
    "fail-soft, tt": "alphabeta(fail=soft, tt=on)",
    "pvs, fail-hard": "alphabeta(pvs=on, fail=hard)",
    "pvs, fail-soft": "alphabeta(pvs=on, fail=soft)",
    "pvs, fail-soft, tt": "alphabeta(pvs=on, fail=soft, tt=on, killers=on, history=on)",
}


def windows(v):
    """Windows below, around, at and above v, wide and null."""
    for alpha in (v - 300, v - 7, v - 1, v, v + 1, v + 7):
        for width in (1, 2, 8, 600):
            yield alpha, alpha + width


def contract_holds(kind: str, r: int, v: int, alpha: int, beta: int) -> bool:
    if "pvs" in kind and "hard" in kind:
        if r < alpha:
            return False
        return v <= alpha if r == alpha else v >= r if r >= beta else r == v
    if "hard" in kind:
        if not alpha <= r <= beta:
            return False
        return v <= alpha if r == alpha else v >= beta if r == beta else r == v
    return v <= r if r <= alpha else v >= r if r >= beta else r == v


@pytest.mark.parametrize("game, evaluator, depth", CASES)
@pytest.mark.parametrize("kind", CONFIGS)
def test_a_root_search_keeps_its_window_contract(catalog, game, evaluator, depth, kind):
    position = catalog.game(game)
    ev = catalog.evaluator(evaluator, position)
    v = catalog.searcher("negamax").search(position, ev, Limit(depth=depth)).value
    searcher = catalog.searcher(CONFIGS[kind])
    outcomes = set()
    for alpha, beta in windows(v):
        r = searcher.bounded_value(position, ev, alpha, beta, Limit(depth=depth))
        assert contract_holds(kind, r, v, alpha, beta), (kind, alpha, beta, r, v)
        outcomes.add("low" if r <= alpha else "high" if r >= beta else "exact")
    assert outcomes == {"low", "high", "exact"}  # every branch of the contract was reached


def test_fail_soft_bounds_are_tighter_than_the_window(catalog):
    """Below the window, fail-soft returns a bound under α where fail-hard returns α itself,
    with PVS or without."""
    position = catalog.game("tree(branching=4, depth=5, seed=3)")
    ev = catalog.evaluator("tree-leaves", position)
    v = catalog.searcher("negamax").search(position, ev, Limit(depth=5)).value
    alpha, beta, limit = v + 50, v + 60, Limit(depth=5)
    hard = catalog.searcher("alphabeta(fail=hard)").bounded_value(position, ev, alpha, beta, limit)
    soft = catalog.searcher("alphabeta(fail=soft)").bounded_value(position, ev, alpha, beta, limit)
    pvs = catalog.searcher("alphabeta(fail=soft, pvs=on)")
    assert hard == alpha and v <= soft < alpha
    pvs_hard = catalog.searcher("alphabeta(fail=hard, pvs=on)")
    assert v <= pvs.bounded_value(position, ev, alpha, beta, limit) < alpha
    assert pvs_hard.bounded_value(position, ev, alpha, beta, limit) == alpha


def test_a_bounded_search_needs_a_depth_and_a_window(catalog):
    position = catalog.game("tictactoe")
    ev = catalog.evaluator("tictactoe-lines", position)
    searcher = catalog.searcher("alphabeta")
    with pytest.raises(UnsupportedLimitError, match="depth"):
        searcher.bounded_value(position, ev, -1, 1)
    with pytest.raises(InvalidOptionError, match="alpha < beta"):
        searcher.bounded_value(position, ev, 5, 5, Limit(depth=2))
    assert position.to_string() == catalog.game("tictactoe").to_string()
