"""Random-playout invariants that every game must keep (seeded, so failures reproduce)."""

import numpy
import pytest

from alfabeta.core import IllegalMoveError
from alfabeta.core.walk import perft
from alfabeta.testing import check_game

GAMES = [
    "fibonacci-nim(n=15)",
    "fibonacci-nim(n=40)",
    "trgd",
    "trgd(first_moves=thesis, repetition=0, max_plies=40)",
    "trgd(repetition=2)",
    "tree(nodes=[[8,12,10],[6,15,9],[14,11,5]])",
    "tree(branching=3, depth=5, seed=7, order=best)",
    "tictactoe",
    "connect-four",
    "chess",
]
MAX_PLIES = 120


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_position_contract(catalog, spec, seed):
    """The conformance kit's game rules (``alfabeta.testing``), one seed at a time."""
    assert check_game(catalog.game(spec), playouts=1, seed=seed, max_plies=MAX_PLIES) > 0


@pytest.mark.parametrize("spec", GAMES)
def test_illegal_and_malformed_moves_leave_the_position_unchanged(catalog, spec):
    position = catalog.game(spec)
    before = position.to_string()
    for bad in ("", "zz", "99", "-1", "1-2-3", "0"):
        with pytest.raises(IllegalMoveError):
            position.push_str(bad)
        assert position.to_string() == before
    # not integers: a bool would pass for move 0 or 1, which most of these games have
    for bad in (10_000, True, False, 1.0, "1", None, numpy.bool_(True)):
        with pytest.raises(IllegalMoveError):
            position.push(bad)
        assert not position.is_legal(bad)
        assert position.to_string() == before


@pytest.mark.parametrize("spec", GAMES)
def test_numpy_integers_are_moves(catalog, spec):
    position = catalog.game(spec)
    move = position.legal_moves()[-1]
    assert position.is_legal(numpy.int64(move))
    position.push(numpy.int64(move))
    played = position.pop()
    assert played == move and type(played) is int


@pytest.mark.parametrize("spec, depth", [(spec, 3) for spec in GAMES])
def test_compiled_walk_finds_make_unmake_exact_at_every_node(catalog, spec, depth):
    position = catalog.game(spec)
    before = position.key()
    assert perft(position, depth, check=True) == perft(position, depth)
    assert position.key() == before
