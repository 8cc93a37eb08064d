"""Random-playout invariants that every game must keep (seeded, so failures reproduce)."""

import copy
import pickle
import random

import pytest

from alfabeta.core import IllegalMoveError, Result
from alfabeta.core.walk import perft

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


def check_position(position):
    moves = position.legal_moves()
    status = position.outcome()
    assert (status == Result.ONGOING) == bool(moves), "legal moves exist exactly while ongoing"
    assert len(moves) == len(set(moves)) <= position.max_moves
    text, key = position.to_string(), position.key()
    again = position.from_string(text)
    assert again.to_string() == text and again.key() == key
    history_dependent = getattr(position, "termination", lambda: "")() == "repetition"
    assert again.outcome() == status or history_dependent
    twin = pickle.loads(pickle.dumps(position))
    assert twin.to_string() == text and twin.key() == key
    assert twin.move_stack == position.move_stack
    for move in moves:
        assert position.parse_move(position.move_str(move)) == move
        position.push(move)
        position.pop()
        assert position.to_string() == text and position.key() == key
    return moves


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_position_contract(catalog, spec, seed):
    rng = random.Random(seed)
    position = catalog.game(spec)
    for _ in range(MAX_PLIES):
        moves = check_position(position)
        if not moves:
            break
        snapshot = position.copy()
        position.push(rng.choice(moves))
        assert (
            snapshot.to_string() != position.to_string()
            or snapshot.key() != position.key()
            or position.name == "tictactoe"
        )
        independent = copy.copy(position)
        if independent.legal_moves():
            independent.push(independent.legal_moves()[0])
            assert independent.move_stack != position.move_stack
    while position.move_stack:
        position.pop()
    assert position.to_string() == catalog.game(spec).to_string()


@pytest.mark.parametrize("spec", GAMES)
def test_illegal_and_malformed_moves_leave_the_position_unchanged(catalog, spec):
    position = catalog.game(spec)
    before = position.to_string()
    for bad in ("", "zz", "99", "-1", "1-2-3", "0"):
        with pytest.raises(IllegalMoveError):
            position.push_str(bad)
        assert position.to_string() == before
    with pytest.raises(IllegalMoveError):
        position.push(10_000)
    assert position.to_string() == before


@pytest.mark.parametrize("spec, depth", [(spec, 3) for spec in GAMES])
def test_compiled_walk_finds_make_unmake_exact_at_every_node(catalog, spec, depth):
    position = catalog.game(spec)
    before = position.key()
    assert perft(position, depth, check=True) == perft(position, depth)
    assert position.key() == before
