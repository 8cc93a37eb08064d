"""The alpha-beta family's enhancements, each on a position where it matters."""

import pytest

from alfabeta.cli import main
from alfabeta.core import WIN, Limit, is_proven

LOST_IN_2 = "41315"  # connect four: x's open three c1-d1-e1; o to move loses in two plies


def c4(catalog, start=""):
    return catalog.game("connect-four").from_string(start), catalog.evaluator(
        "connect-four-threats"
    )


def test_quiescence_follows_noisy_moves_past_the_horizon(catalog):
    position, evaluator = c4(catalog, LOST_IN_2)
    plain = catalog.searcher("alphabeta(depth=1)").search(position, evaluator)
    quiet = catalog.searcher("alphabeta(depth=1, quiescence=on)").search(position, evaluator)
    assert not is_proven(plain.value)
    assert quiet.value == -(WIN - 2) and quiet.nodes > plain.nodes


def test_extensions_deepen_positions_the_game_marks_tactical(catalog):
    position, evaluator = c4(catalog, LOST_IN_2)
    extended = catalog.searcher("alphabeta(depth=1, extensions=1)").search(position, evaluator)
    assert extended.value == -(WIN - 2)


def test_secondary_search_abandons_a_move_that_fails_deeper(catalog):
    # at depth 1 both moves look equal (inner nodes score 0); two plies on, the first loses
    position = catalog.game("tree(nodes=[[-5, -5], [3, 3]])")
    evaluator = catalog.evaluator("tree-leaves")
    plain = catalog.searcher("alphabeta(depth=1)").search(position, evaluator)
    checked = catalog.searcher("alphabeta(depth=1, secondary=1)").search(position, evaluator)
    assert (plain.move, checked.move) == (1, 2)


def test_late_move_reductions_save_nodes_and_re_search_what_beats_alpha(catalog):
    position, evaluator = c4(catalog)
    full = catalog.searcher("alphabeta(depth=7)").search(position, evaluator)
    reduced = catalog.searcher("alphabeta(depth=7, lmr=2)").search(position, evaluator)
    assert reduced.nodes < full.nodes and reduced.researches > 0


def test_the_book_hook_answers_without_searching(catalog):
    position, evaluator = c4(catalog)
    from alfabeta.searchers.compiled import AlphaBeta

    searcher = AlphaBeta(depth=6, book=lambda p: 3 if not p.move_stack else None)
    result = searcher.search(position, evaluator)
    assert (result.move, result.nodes) == (3, 0)
    position.push(3)
    assert searcher.search(position, evaluator).nodes > 0  # out of book: a real search


@pytest.mark.parametrize("verified", ["off", "on"])
def test_null_move_prunes_sliding_positions_and_verification_costs_nodes(catalog, verified):
    position = catalog.game("trgd").from_string("1,5,9/4,12,14 + 6")
    evaluator = catalog.evaluator("trgd-lines")
    plain = catalog.searcher("alphabeta(depth=6)").search(position, evaluator)
    null = catalog.searcher(f"alphabeta(depth=6, null_move=2, verified={verified})").search(
        position, evaluator
    )
    assert null.nodes < plain.nodes and null.move in position.legal_moves()


def test_no_null_move_during_placement(catalog):
    position = catalog.game("trgd")
    evaluator = catalog.evaluator("trgd-lines")
    plain = catalog.searcher("alphabeta(depth=4)").search(position, evaluator)
    null = catalog.searcher("alphabeta(depth=4, null_move=2)").search(position, evaluator)
    assert (null.nodes, null.value) == (plain.nodes, plain.value)


def test_a_game_clock_sets_the_time_for_a_move(catalog):
    position = catalog.game("trgd(repetition=0)")
    result = catalog.searcher("aspiration").search(
        position, catalog.evaluator("trgd-lines"), Limit(wtime=2.0, btime=2.0, winc=0.0)
    )
    assert result.elapsed < 0.8 and result.infos and result.move in position.legal_moves()


def test_per_iteration_infos_deepen_and_end_with_the_result(catalog):
    position, evaluator = c4(catalog)
    result = catalog.searcher("negascout(iterative=on, tt=on, depth=6)").search(position, evaluator)
    assert [info.depth for info in result.infos] == [1, 2, 3, 4, 5, 6]
    assert result.infos[-1].value == result.value and result.infos[-1].pv[0] == result.move
    assert [info.nodes for info in result.infos] == sorted(info.nodes for info in result.infos)


def test_the_same_search_twice_gives_the_same_counts(catalog):
    position, evaluator = c4(catalog, "4453")
    spec = "negascout(tt=on, iterative=on, killers=on, history=on, lmr=3, depth=7)"
    first = catalog.searcher(spec).search(position, evaluator)
    second = catalog.searcher(spec).search(position, evaluator)
    assert (first.move, first.value, first.nodes, first.leaves, first.tt_hits, first.pv) == (
        second.move,
        second.value,
        second.nodes,
        second.leaves,
        second.tt_hits,
        second.pv,
    )


def test_bench_plot_draws_a_png_or_says_what_to_install(tmp_path, capsys):
    path = tmp_path / "nodes.png"
    code = main(
        [
            "bench",
            "connect-four",
            "--searchers",
            "alphabeta,negascout",
            "--depth",
            "2-3",
            "--min-time",
            "0",
            "--plot",
            str(path),
        ]
    )
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert code == 2 and "pip install 'alfabeta[plot]'" in capsys.readouterr().err
    else:
        assert code == 0 and path.read_bytes().startswith(b"\x89PNG")


def test_bad_family_options_fail_at_construction(catalog):
    from alfabeta.core import InvalidOptionError

    for spec in (
        "alphabeta(null_move=-1)",
        "mtdf(driver=tree)",
        "alphabeta(tt_mb=0)",
        "mcts(c=-1)",
        "negascout(pvs=maybe)",
    ):
        with pytest.raises(InvalidOptionError):
            catalog.searcher(spec)
