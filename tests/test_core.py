import pickle
import threading

import pytest
from attrs.exceptions import FrozenInstanceError

from alfabeta.core import (
    WIN,
    AlfabetaError,
    EmptyStackError,
    FunctionEvaluator,
    GameProtocolError,
    IllegalMoveError,
    InvalidOptionError,
    Limit,
    Outcome,
    PythonGame,
    Result,
    SearchResult,
    is_proven,
    loss_in,
    win_in,
)
from alfabeta.core import position as position_module
from alfabeta.games.tictactoe import TicTacToe


def test_result_codes_match_the_c_level_codes():
    assert {r.name: int(r) for r in Result} == position_module.RESULT_CODES


def test_mate_scores_rank_shorter_wins_higher_and_are_proven():
    assert win_in(3) > win_in(5) > 0 > loss_in(5) > loss_in(3)
    assert win_in(0) == WIN and loss_in(2) == -(WIN - 2)
    assert is_proven(win_in(40)) and is_proven(loss_in(40)) and not is_proven(5000)


def test_errors_are_alfabeta_errors_and_natural_builtins():
    assert issubclass(IllegalMoveError, AlfabetaError) and issubclass(IllegalMoveError, ValueError)
    assert issubclass(EmptyStackError, IndexError)


@pytest.mark.parametrize(
    "field, value", [("depth", -1), ("nodes", 2.5), ("time", 0), ("depth", True), ("wtime", -3.0)]
)
def test_limit_rejects_impossible_values_naming_the_field(field, value):
    with pytest.raises(InvalidOptionError, match=field):
        Limit(**{field: value})


def test_limit_infinite_needs_a_stop_event():
    with pytest.raises(InvalidOptionError, match="stop"):
        Limit(infinite=True)
    assert Limit(infinite=True, stop=threading.Event()).infinite


def test_limit_merge_lets_the_other_limit_win_field_by_field():
    merged = Limit(depth=6, nodes=100).merged(Limit(depth=0, time=1.5))
    assert (merged.depth, merged.nodes, merged.time) == (0, 100, 1.5)


def test_values_are_frozen():
    result = SearchResult(move=1, value=0, depth=1, nodes=1, leaves=1)
    with pytest.raises(FrozenInstanceError):
        result.value = 3
    assert str(Outcome(None, "draw")) == "draw (draw)"
    assert str(Outcome(1, "win")) == "player 2 wins (win)"


def test_python_game_adapter_runs_a_plain_game_through_the_c_contract():
    position = PythonGame(TicTacToe())
    assert position.legal_moves() == list(range(9))
    position.push(4)
    assert position.side_to_move == 1 and position.move_stack == (4,)
    twin = pickle.loads(pickle.dumps(position))
    assert twin.to_string() == position.to_string() and twin.move_stack == (4,)
    assert position.pop() == 4 and position.to_string() == TicTacToe().to_string()


def test_python_game_adapter_names_what_a_broken_game_lacks():
    class NotAGame:
        def legal_moves(self):
            return []

    with pytest.raises(GameProtocolError, match="push"):
        PythonGame(NotAGame())


def test_python_game_adapter_rejects_non_int_moves():
    class StringMoves(TicTacToe):
        def legal_moves(self):
            return ["a1"]

    with pytest.raises(GameProtocolError, match="moves must be ints"):
        PythonGame(StringMoves()).legal_moves()


def test_function_evaluator_rejects_a_non_int_score():
    evaluator = FunctionEvaluator(lambda position: 0.5, name="halves")
    with pytest.raises(GameProtocolError, match="must return an int"):
        evaluator.evaluate(PythonGame(TicTacToe()))


def test_the_compiled_score_constants_agree_with_core_scores():
    from alfabeta.core import scores
    from alfabeta.searchers.context import score_constants

    assert score_constants() == {
        "MAX_PLY": scores.MAX_PLY,
        "WIN": scores.WIN,
        "INFINITY": scores.INFINITY,
    }
