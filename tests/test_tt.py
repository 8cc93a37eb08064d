"""The transposition table a searcher keeps between searches."""

import pytest

from alfabeta.core import InvalidOptionError, Limit
from alfabeta.searchers.tt import ENTRY_BYTES, TranspositionTable, table_bytes


def test_a_second_search_of_the_same_game_starts_from_the_first_ones_table(catalog):
    searcher = catalog.searcher("negascout(tt=on, iterative=on, keep_table=on)")
    evaluator = catalog.evaluator("connect-four-threats")
    position = catalog.game("connect-four").from_string("4453")
    first = searcher.search(position, evaluator, Limit(depth=7))
    again = searcher.search(position, evaluator, Limit(depth=7))
    assert again.nodes < first.nodes and again.tt_hits > 0
    assert (again.move, again.value) == (first.move, first.value)
    searcher.new_game()
    assert searcher.search(position, evaluator, Limit(depth=7)).nodes == first.nodes
    assert searcher.table.hashfull() > 0


def test_the_table_is_cleared_for_another_game_or_evaluator(catalog):
    searcher = catalog.searcher("alphabeta(tt=on, keep_table=on)")
    leaves = catalog.evaluator("tree-leaves")
    a = catalog.game("tree(nodes=[[3, 5], [2, 9]])")
    b = catalog.game("tree(nodes=[[30, 1], [20, 40]])")  # the same node keys, other values
    assert searcher.search(a, leaves, Limit(depth=2)).value == 3
    assert searcher.search(b, leaves, Limit(depth=2)).value == 20
    position = catalog.game("connect-four").from_string("4453")
    threats = catalog.evaluator("connect-four-threats")

    def fresh_nodes():
        return catalog.searcher("alphabeta(tt=on)").search(position, threats, Limit(depth=5)).nodes

    assert searcher.search(position, threats, Limit(depth=5)).nodes == fresh_nodes()
    searcher.search(position, lambda p: 0, Limit(depth=5))  # another evaluator fills it
    assert searcher.search(position, threats, Limit(depth=5)).nodes == fresh_nodes()


def test_a_root_dependent_evaluator_never_reuses_the_table(catalog):
    searcher = catalog.searcher("negascout(tt=on, iterative=on, keep_table=on)")
    emotional = catalog.evaluator("emotional")
    position = catalog.game("chess")
    first = searcher.search(position, emotional, Limit(depth=3))
    assert searcher.search(position, emotional, Limit(depth=3)).nodes == first.nodes


def test_the_table_refuses_an_impossible_size():
    with pytest.raises(InvalidOptionError, match="1 … 4096"):
        TranspositionTable(0)
    table = TranspositionTable(1)
    assert len(table) == 1 << 15 and table.hashfull() == 0 and table.mb == 1
    table.resize(2)
    assert len(table) == 1 << 16


def test_without_keep_table_every_search_starts_from_an_empty_table(catalog):
    searcher = catalog.searcher("negascout(tt=on, iterative=on)")
    evaluator = catalog.evaluator("connect-four-threats")
    position = catalog.game("connect-four").from_string("4453")
    first = searcher.search(position, evaluator, Limit(depth=7))
    assert searcher.search(position, evaluator, Limit(depth=7)).nodes == first.nodes


def test_entries_never_straddle_a_cache_line_and_sizes_stay_powers_of_two():
    assert 64 % ENTRY_BYTES == 0  # a probe is one cache line, as its prefetch
    for mb in (1, 2, 16, 64):  # a power of two of MiB is used whole
        assert table_bytes(mb) == mb * 1024 * 1024
        assert len(TranspositionTable(mb)) == mb * 1024 * 1024 // ENTRY_BYTES
    assert len(TranspositionTable(24)) == len(TranspositionTable(16))  # the count stays 2^k
