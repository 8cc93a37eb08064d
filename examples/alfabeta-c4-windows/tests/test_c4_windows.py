"""The c4-windows evaluator: the conformance kit, and a value worked by hand."""

from alfabeta import Limit, load_catalog
from alfabeta.testing import check_evaluator


def test_it_keeps_the_evaluator_contract():
    catalog = load_catalog()
    for spec in ("connect-four", "connect-four(width=5, height=4)"):
        position = catalog.game(spec)
        assert check_evaluator(catalog.evaluator("c4-windows", position), position) > 0


def test_a_centre_stone_is_worth_its_windows():
    catalog = load_catalog()
    position = catalog.game("connect-four")
    evaluator = catalog.evaluator("c4-windows", position)
    assert evaluator.evaluate(position) == 0
    position.push_str("4")  # x in the centre of the bottom row: 7 windows hold it
    assert evaluator.evaluate(position) == -7  # o to move


def test_a_searcher_plays_with_it():
    catalog = load_catalog()
    position = catalog.game("connect-four")
    result = catalog.searcher("negascout(depth=4)").search(
        position, catalog.evaluator("c4-windows", position), Limit(depth=4)
    )
    assert position.move_str(result.move) == "4"
