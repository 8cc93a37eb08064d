"""Solvers: retrograde analysis and df-pn against minimax, the literature and each other; the
solved tables on disk; `alfabeta solve`."""

import json
import random
from pathlib import Path

import numpy as np
import pytest
from conftest import random_trees
from hypothesis import given, settings

from alfabeta.cli import main
from alfabeta.core import Limit, is_proven
from alfabeta.core.scores import plies_to_end
from alfabeta.games.deduction.kb import KnowledgeBase
from alfabeta.games.deduction.proof import is_valid_derivation, prove_with
from alfabeta.solvers.graph import SolverError, retrograde, state_graph
from alfabeta.solvers.pns import DfPn
from alfabeta.solvers.proof import prove, verify
from alfabeta.solvers.retrograde import SolvedTable, solve_table
from alfabeta.solvers.solve import solve

EPD = Path(__file__).parent / "data" / "epd" / "verified.epd"


def minimax(tree, maximizing=True):
    if not isinstance(tree, list):
        return tree
    values = [minimax(child, not maximizing) for child in tree]
    return max(values) if maximizing else min(values)


def random_position(start, rng, low, high):
    """A position ``low`` to ``high`` random plies after ``start``; None if the game ended."""
    walk = start.copy()
    for _ in range(rng.randrange(low, high)):
        if walk.is_over():
            break
        walk.push(rng.choice(walk.legal_moves()))
    return None if walk.is_over() else walk


# ---- proof-number search --------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(random_trees())
def test_pn_proves_a_win_exactly_when_minimax_is_positive_and_the_strategy_replays(catalog, tree):
    position = catalog.game(f"tree(nodes={tree!r})")
    leaves = catalog.evaluator("tree-leaves")
    search = DfPn(position, 0, evaluator=leaves)
    answer, _, _ = search.run()
    assert answer == ("proved" if minimax(tree) > 0 else "disproved")
    if answer == "proved":
        strategy = search.proof_tree()
        assert verify(position, strategy, 0, evaluator=leaves)
    assert position.to_string() == catalog.game(f"tree(nodes={tree!r})").to_string()


def test_a_tampered_strategy_does_not_verify(catalog):
    position = catalog.game("fibonacci-nim(n=20)")
    result = prove(position)
    assert result.value == "win" and verify(position, result.strategy, 0)
    wrong = {"move": 1, "then": result.strategy["then"]}  # taking 1 is not the winning move
    assert not verify(position, wrong, 0)
    missing = dict(result.strategy["then"]["replies"])
    missing.pop(next(iter(missing)))
    assert not verify(position, {"move": 2, "then": {"replies": missing}}, 0)


@pytest.mark.parametrize(
    "spec",
    [
        "tictactoe",
        "fibonacci-nim(n=13)",
        "fibonacci-nim(n=55)",
        "connect-four(width=4, height=4)",
    ],
)
def test_pn_and_retrograde_agree_on_small_games(catalog, spec):
    position = catalog.game(spec)
    table, _ = solve_table(position)
    rng = random.Random(5)
    for _ in range(25):
        walk = random_position(position, rng, 0, 8)
        if walk is None:
            continue
        value, distance = table.of(walk)
        result = prove(walk)
        assert result.value == {1: "win", 0: "draw", -1: "loss"}[value], walk.to_string()
        if value:
            assert result.plies >= distance  # a strategy is never faster than best play


def test_pn_searcher_plays_the_deductive_game_exactly_when_forward_chaining_derives(catalog):
    rng = random.Random(11)
    evaluator = None
    for _ in range(80):
        atoms = [f"a{i}" for i in range(10)]
        rules = []
        for _ in range(rng.randint(1, 25)):
            head = rng.randrange(len(atoms) - 1)
            premises = rng.sample(range(head + 1, len(atoms)), rng.randint(1, min(3, 9 - head)))
            rules.append((atoms[head], [atoms[p] for p in premises]))
        data = [a for a in atoms if rng.random() < 0.35]
        kb = KnowledgeBase.from_rules(rules)
        text = "; ".join(str(c) for c in kb.clauses)
        position = catalog.game(f"deduction(rules={text!r}, data={','.join(data)!r}, goal='a0')")
        evaluator = evaluator or catalog.evaluator("deduction-h", position)
        found = prove_with(position, catalog.searcher("pn"), evaluator)
        derivable = "a0" in kb.first_rules(data)
        assert found.proved == derivable
        if derivable:
            assert is_valid_derivation(found.proof, position.knowledge_base, data)


def test_a_cycle_is_never_a_proof_and_makes_a_disproof_unknown(catalog):
    position = catalog.game("trgd(repetition=0)")
    search = DfPn(position, 0, nodes=200_000)
    answer, _, _ = search.run()
    assert answer == "unknown" and search.cycle_seen


def test_pn_searcher_reports_proven_values(catalog):
    nim = catalog.game("fibonacci-nim(n=20)")
    result = catalog.searcher("pn").search(nim, catalog.evaluator("nim-exact"))
    assert result.move == 2 and is_proven(result.value) and result.value > 0
    lost = catalog.searcher("pn").search(
        catalog.game("fibonacci-nim(n=21)"), catalog.evaluator("nim-exact")
    )
    assert is_proven(lost.value) and lost.value < 0 and plies_to_end(lost.value) == 16
    drawn = catalog.searcher("pn").search(
        catalog.game("tictactoe"), catalog.evaluator("tictactoe-lines")
    )
    assert drawn.value == 0 and drawn.complete


# ---- chess mates ----------------------------------------------------------------------------
MATES = [
    (
        line.split(" bm ")[0] + " 0 1",
        int(line.split('"mate in ')[1][0]),
        line.split(" bm ")[1].split(";")[0].split(),
    )
    for line in EPD.read_text().splitlines()
    if '"mate in' in line
]


@pytest.mark.parametrize("fen, n, best", MATES)
def test_dfpn_finds_each_mate_of_the_epd_set_and_no_shorter_one(catalog, fen, n, best):
    position = catalog.game("chess").from_string(fen)
    found = solve(position, "chess", mate=n)
    assert found.value == "win" and (found.distance + 1) // 2 == n
    assert position.san(position.parse_move(found.best_moves[0])) in best
    if n > 1:
        assert solve(position, "chess", mate=n - 1).value == "no win"
    alphabeta = catalog.searcher("alphabeta(tt=on, iterative=on)").search(
        position, catalog.evaluator("material"), Limit(depth=2 * n - 1)
    )
    assert plies_to_end(alphabeta.value) == found.distance


# ---- retrograde analysis --------------------------------------------------------------------
def fibonacci_numbers(limit):
    a, b, found = 1, 2, set()
    while a <= limit:
        found.add(a)
        a, b = b, a + b
    return found


def test_fibonacci_nim_is_lost_for_the_first_player_exactly_at_fibonacci_numbers(catalog):
    fibonacci = fibonacci_numbers(100)
    for n in range(2, 101):
        table, _ = solve_table(catalog.game(f"fibonacci-nim(n={n})"))
        value, _ = table.of(catalog.game(f"fibonacci-nim(n={n})"))
        assert (value == -1) == (n in fibonacci), n


@pytest.mark.parametrize(
    "width, height, states",
    [(4, 4, 161_029), (5, 4, 3_945_711)],
)
def test_connect_four_small_boards_are_draws_as_published(catalog, width, height, states):
    # Tromp solved every board with width + height <= 15; his and Steininger's tables
    # (github.com/ChristopheSteininger/c4) give 4x4 and 5x4 as draws. 161,029 is the number
    # of positions of the 4x4 board reachable in play.
    position = catalog.game(f"connect-four(width={width}, height={height})")
    table, _ = solve_table(position)
    assert table.of(position) == (0, -1)
    if width == 4:
        assert len(table) == states


def test_tictactoe_has_5478_positions_and_is_a_draw(catalog):
    table, _ = solve_table(catalog.game("tictactoe"))
    assert len(table) == 5478 and table.of(catalog.game("tictactoe")) == (0, -1)
    assert sum(table.counts().values()) == 5478


def test_trgd_values_agree_with_depth_limited_alphabeta_and_the_start_is_a_draw(catalog):
    start = catalog.game("trgd(repetition=0)")
    table, note = solve_table(catalog.game("trgd"))
    assert note is not None and "repetition" in note
    assert table.of(start) == (0, -1)
    searcher = catalog.searcher("alphabeta(tt=on, iterative=on)")
    evaluator = catalog.evaluator("trgd-lines")
    rng = random.Random(2)
    checked = 0
    while checked < 60:
        walk = random_position(start, rng, 4, 30)
        if walk is None:
            continue
        value, distance = table.of(walk)
        result = searcher.search(walk, evaluator, Limit(depth=7))
        if is_proven(result.value):
            assert (value, distance) == (
                (1 if result.value > 0 else -1),
                plies_to_end(result.value),
            )
        else:
            assert value == 0 or distance > 7, walk.to_string()
        checked += 1


def test_the_state_graph_leaves_the_root_as_it_was_and_refuses_too_many_states(catalog):
    position = catalog.game("connect-four(width=4, height=4)")
    position.push(1)
    before = (position.to_string(), position.key(), position.move_stack)
    with pytest.raises(SolverError, match="more than 1,000 states"):
        state_graph(position, max_states=1000)
    assert (position.to_string(), position.key(), position.move_stack) == before
    graph = state_graph(position)
    value, distance = retrograde(graph)
    assert (position.to_string(), position.key()) == before[:2]
    assert len(value) == len(distance) == len(graph["keys"])


def test_retrograde_refuses_explicit_trees_and_path_dependent_games(catalog):
    with pytest.raises(SolverError, match="evaluator"):
        state_graph(catalog.game("tree(nodes=[[1, 2], [3]])"))
    with pytest.raises(SolverError, match="path"):
        solve_table(catalog.game("chess"))


# ---- tables on disk --------------------------------------------------------------------------
def test_a_table_round_trips_and_plays_perfectly(catalog, tmp_path):
    table, _ = solve_table(catalog.game("fibonacci-nim(n=20)"))
    table.save(tmp_path / "nim")
    again = SolvedTable.load(tmp_path / "nim.npz")
    assert np.array_equal(again.keys, table.keys) and np.array_equal(again.value, table.value)
    evaluator = catalog.evaluator(f"solved(table={str(tmp_path / 'nim')!r})")
    one_ply = catalog.searcher("alphabeta(depth=1)")
    position = catalog.game("fibonacci-nim(n=20)")
    while not position.is_over():  # the table plays both sides: the first player wins
        _value, _distance = again.of(position)
        move = one_ply.search(position, evaluator).move
        assert move in again.best_moves(position)
        position.push(move)
    assert len(position.move_stack) % 2 == 1  # the first player took the last object
    with pytest.raises(Exception, match="solved table is of fibonacci-nim"):
        one_ply.search(catalog.game("tictactoe"), evaluator)


@pytest.mark.parametrize("damage", ["pickle", "shape", "truncated", "foreign", "order"])
def test_a_corrupt_table_is_refused_with_a_clear_error(catalog, tmp_path, damage):
    table, _ = solve_table(catalog.game("fibonacci-nim(n=8)"))
    arrays, meta = table.save(tmp_path / "t")
    if damage == "pickle":
        np.savez(
            arrays,
            keys=np.array([object()], dtype=object),
            value=table.value,
            distance=table.distance,
        )
    elif damage == "shape":
        np.savez(arrays, keys=table.keys[:-1], value=table.value, distance=table.distance)
    elif damage == "truncated":
        arrays.write_bytes(arrays.read_bytes()[:40])
    elif damage == "foreign":
        meta.write_text(json.dumps({"format": "something else"}))
    else:
        np.savez(arrays, keys=table.keys[::-1].copy(), value=table.value, distance=table.distance)
    with pytest.raises(SolverError):
        SolvedTable.load(tmp_path / "t")


# ---- the command -----------------------------------------------------------------------------
def test_solve_command_prints_the_value_distance_and_best_moves(capsys, tmp_path):
    assert main(["solve", "fibonacci-nim(n=21)", "--table", str(tmp_path / "nim")]) == 0
    out = capsys.readouterr().out
    assert "fibonacci-nim: loss for player 1 (to move) in 16 plies" in out
    assert (tmp_path / "nim.npz").exists() and (tmp_path / "nim.json").exists()
    assert main(["solve", "connect-four(width=4, height=4)", "--json"]) == 0
    account = json.loads(capsys.readouterr().out)
    assert (account["value"], account["method"], account["states"]) == (
        "draw",
        "retrograde",
        161029,
    )
    assert main(["solve", "chess", "8/8/8/8/8/K2Q4/8/2k5 w - - 0 1", "--mate", "2", "--tree"]) == 0
    out = capsys.readouterr().out
    assert "mate in 2" in out and "best moves: d3e2" in out and "if " in out
    assert main(["solve", "fibonacci-nim(n=20)", "--method", "pn", "--json", "--tree"]) == 0
    assert json.loads(capsys.readouterr().out)["strategy"]["move"] == "2"


def test_solve_command_refuses_bad_requests(capsys):
    assert main(["solve", "chess", "--mate", "0"]) == 2
    assert main(["solve", "tictactoe", "--mate", "2", "--method", "retrograde"]) == 2
    assert main(["solve", "chess", "--method", "retrograde"]) == 2
    assert main(["solve", "fibonacci-nim(n=1)"]) == 2  # nothing to solve: the game is over
    assert main(["solve", "fibonacci-nim(n=20)", "--method", "pn", "--table", "x"]) == 2
    assert main(["solve", "tictactoe", "--table", "/nonexistent/dir/t"]) == 2
    err = capsys.readouterr().err
    assert "--mate" in err and "game is over" in err


def test_a_proof_larger_than_any_tree_is_checked_as_the_dag_it_is(catalog):
    # n = 55 is a Fibonacci number: lost for the first player. Its proof, written out as a
    # tree, has millions of nodes; replayed as a DAG it is checked position by position.
    result = prove(catalog.game("fibonacci-nim(n=55)"), tree_limit=10_000)
    assert result.value == "loss" and result.strategy is None
    table, _ = solve_table(catalog.game("fibonacci-nim(n=55)"))
    assert result.plies >= table.of(catalog.game("fibonacci-nim(n=55)"))[1]
