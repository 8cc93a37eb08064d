"""The best-first searcher: the conformance kit, and positions with a known answer."""

from alfabeta import Limit, load_catalog
from alfabeta.testing import check_searcher


def test_it_keeps_the_searcher_contract():
    catalog = load_catalog()
    for game in ("tictactoe", "connect-four(width=5, height=4)", "fibonacci-nim(n=21)"):
        position = catalog.game(game)
        assert (
            check_searcher(
                lambda: catalog.searcher("best-first(nodes=800)"),
                position,
                catalog.default_evaluator(position),
            )
            > 0
        )


def test_it_finds_the_win_and_stops_the_loss_at_tictactoe():
    catalog = load_catalog()
    evaluator = catalog.evaluator("tictactoe-lines")
    win = catalog.game("tictactoe").from_string("xx.oo.... x")
    result = catalog.searcher("best-first").search(win, evaluator, Limit(nodes=2000))
    assert win.move_str(result.move) == "c3" and result.value > 900_000
    block = catalog.game("tictactoe").from_string("xx..o.... o")
    result = catalog.searcher("best-first").search(block, evaluator, Limit(nodes=2000))
    assert block.move_str(result.move) == "c3"


def test_the_node_budget_is_kept():
    catalog = load_catalog()
    position = catalog.game("connect-four")
    result = catalog.searcher("best-first").search(
        position, catalog.default_evaluator(position), Limit(nodes=300)
    )
    assert result.nodes <= 300 + 7 and not result.complete
