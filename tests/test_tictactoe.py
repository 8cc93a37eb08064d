"""The plain-Python game plugin under the reference searchers, through the adapter."""

import pytest

from alfabeta.core import InvalidPositionError, PythonGame, Result


def test_tictactoe_is_a_draw_with_perfect_play(catalog):
    position = catalog.game("tictactoe")
    assert isinstance(position, PythonGame)
    result = catalog.searcher("py-solve").search(position, catalog.evaluator("tictactoe-lines"))
    assert result.value == 0


def test_searchers_take_an_immediate_win_and_block(catalog):
    evaluator = catalog.evaluator("tictactoe-lines")
    win = catalog.game("tictactoe").from_string("xx.oo.... x")
    assert (
        win.move_str(catalog.searcher("py-alphabeta(depth=2)").search(win, evaluator).move) == "c3"
    )
    block = catalog.game("tictactoe").from_string("xx..o.... o")
    assert (
        block.move_str(catalog.searcher("py-minimax(depth=2)").search(block, evaluator).move)
        == "c3"
    )


def test_outcome_and_board(catalog):
    position = catalog.game("tictactoe").from_string("xxxoo.... o")
    assert position.outcome() == Result.LOSS and position.legal_moves() == []
    assert str(position).splitlines()[0] == "3 x x x"


@pytest.mark.parametrize("text", ["xx.oo.... y", "xxxxo.... o", "xx.oo... x", "xxxoo.o.. x"])
def test_impossible_positions_are_rejected(catalog, text):
    with pytest.raises(InvalidPositionError):
        catalog.game("tictactoe").from_string(text)


def test_python_evaluator_is_called_through_the_compiled_slot(catalog):
    position = catalog.game("tictactoe").from_string("x........ o")
    assert catalog.evaluator("tictactoe-lines").evaluate(position) == -3


def test_searches_use_the_unchecked_make_and_unmake(catalog, monkeypatch):
    """The adapter plays a game's own make/unmake in searches: push (which re-validates
    through legal_moves and outcome) is never called there, and the results are the same."""
    from alfabeta.core import Limit
    from alfabeta.games.tictactoe import TicTacToe

    position = catalog.game("tictactoe")
    evaluator = catalog.default_evaluator(position)
    before = catalog.searcher("alphabeta").search(position, evaluator, Limit(depth=5))

    def no_push(self, move):
        raise AssertionError("push called inside a search")

    monkeypatch.setattr(TicTacToe, "push", no_push)
    monkeypatch.setattr(TicTacToe, "pop", no_push)
    fresh = catalog.game("tictactoe")
    after = catalog.searcher("alphabeta").search(fresh, evaluator, Limit(depth=5))
    assert (after.move, after.value, after.nodes) == (before.move, before.value, before.nodes)
