"""The search core's shared parts: the clock rule (``timeman``), the staged move picker, SSS*'s
OPEN heap on a large tree, and the result every compiled searcher reports."""

import pytest

from alfabeta.core import InvalidOptionError, Limit, UnsupportedLimitError
from alfabeta.searchers import timeman
from alfabeta.searchers.timeman import MoveBudget, for_move, move_budget

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


# ---- time management ------------------------------------------------------------------------
def test_the_clock_rule_gives_each_side_its_own_budget():
    clock = Limit(wtime=60.0, btime=30.0, winc=1.0, binc=2.0)
    # white: 60/30 + 0.8·1 = 2.8 s a move; hard 3 × 2.8 (under 40 % of 60); soft half of 2.8
    assert move_budget(clock, 0) == MoveBudget(soft=pytest.approx(1.4), hard=pytest.approx(8.4))
    # black: 30/30 + 0.8·2 = 2.6; hard 7.8
    assert move_budget(clock, 1) == MoveBudget(soft=pytest.approx(1.3), hard=pytest.approx(7.8))
    moves_to_go = Limit(wtime=60.0, btime=60.0, movestogo=10)
    assert move_budget(moves_to_go, 0) == MoveBudget(soft=3.0, hard=18.0)
    # a searcher assuming 20 moves left: 60/20 + 0.8 = 3.8 s; the clock's own count wins
    assert move_budget(clock, 0, 20) == MoveBudget(
        soft=pytest.approx(1.9), hard=pytest.approx(11.4)
    )
    assert move_budget(moves_to_go, 0, 20) == MoveBudget(soft=3.0, hard=18.0)
    # a short clock: never more than 40 % of what is left, never under MIN_HARD
    assert move_budget(Limit(wtime=0.02, btime=9.0), 0).hard == timeman.MIN_HARD
    assert move_budget(Limit(wtime=1.0, btime=9.0), 0).hard == pytest.approx(0.1)


def test_a_clock_with_no_time_left_is_refused():
    with pytest.raises(UnsupportedLimitError, match="no time left"):
        move_budget(Limit(wtime=0.0, btime=5.0), 0)


def test_for_move_turns_a_clock_into_a_hard_time_and_a_soft_budget():
    plain = Limit(depth=3, time=2.0)
    assert for_move(plain, 0) == (plain, None)
    timed, soft = for_move(Limit(wtime=60.0, btime=60.0, time=0.5, depth=9), 1)
    assert (timed.time, timed.depth, timed.wtime, soft) == (0.5, 9, None, pytest.approx(1.0))


def test_a_searcher_spends_its_clock_over_the_moves_it_assumes_left(catalog):
    position = catalog.game("chess")
    clock = Limit(wtime=0.6, btime=0.6)

    def spent(spec):
        searcher = catalog.searcher(spec)
        return searcher.search(position, catalog.evaluator("material"), clock).elapsed

    # 0.6/1000 s a move: stopped at the shortest hard limit, 0.01 s
    assert spent("negascout(iterative=on, tt=on, moves_to_go=1000)") < 0.08
    # 0.6/2 s a move: hard 40 % of 0.6 s, and no iteration starts after half that
    assert spent("negascout(iterative=on, tt=on, moves_to_go=2)") > 0.11
    # a horizon of move 1000 at move 1: 999 moves left, so the shortest hard limit again
    assert spent("negascout(iterative=on, tt=on, moves_to_go=2, time_horizon=1000)") < 0.08


def test_a_time_horizon_spends_the_clock_over_the_moves_left_before_it(catalog):
    opening = catalog.game("chess")
    middlegame = opening.from_string(KIWIPETE.replace("0 1", "0 23"))
    late = opening.from_string(KIWIPETE.replace("0 1", "0 40"))
    # horizon 45: move 1 has 44 moves left, move 23 22, move 40 5, raised to moves_to_go's 12
    assert [timeman.moves_left(p, 12, 45) for p in (opening, middlegame, late)] == [44, 22, 12]
    assert timeman.moves_left(middlegame, 12) == 12  # no horizon: moves_to_go alone
    # a game that numbers no moves keeps moves_to_go
    assert timeman.moves_left(catalog.game("connect-four"), 12, 45) == 12
    searcher = catalog.searcher("negascout(iterative=on, tt=on, time_horizon=45, moves_to_go=12)")
    assert searcher.moves_left(middlegame) == 22
    assert catalog.searcher("negascout(iterative=on, tt=on)").moves_left(middlegame) == 30


def test_a_time_horizon_must_be_a_move_number(catalog):
    with pytest.raises(InvalidOptionError, match="time_horizon"):
        catalog.searcher("negascout(iterative=on, time_horizon=-1)")


def test_mcts_keeps_to_the_movers_clock_not_the_first_players(catalog):
    position = catalog.game("connect-four")
    position.push(position.legal_moves()[3])  # the second player to move
    evaluator = catalog.evaluator("connect-four-threats")
    limit = Limit(wtime=1000.0, btime=0.25)  # black may spend at most 40 % of 0.25 s
    result = catalog.searcher("mcts").search(position, evaluator, limit)
    assert result.nodes > 0 and result.elapsed < 0.1 + 0.2  # its hard limit, plus slack


# ---- move ordering ----------------------------------------------------------------------------
def test_noisy_moves_first_change_the_work_not_the_value(catalog):
    position = catalog.game("chess").from_string(KIWIPETE)
    evaluator = catalog.evaluator("material")
    base = "alphabeta(depth=4, tt=on, killers=on, history=on"
    quiet = catalog.searcher(base + ")").search(position, evaluator)
    noisy = catalog.searcher(base + ", captures=on)").search(position, evaluator)
    assert noisy.value == quiet.value
    assert noisy.nodes < quiet.nodes * 0.7  # captures ordered by MVV-LVA cut earlier (0.57)


def test_the_picker_keeps_generation_order_when_every_stage_is_off(catalog):
    position = catalog.game("tree(branching=3, depth=3, seed=5)")
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    catalog.searcher("alphabeta(captures=on, tt_move=off)").search(position, evaluator)
    ordered = evaluator.visited()
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    catalog.searcher("py-alphabeta").search(position, evaluator)
    assert ordered == evaluator.visited()  # a game with no noisy moves: nothing reordered


# ---- SSS* at scale ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, states, leaves, digest",
    [
        ("sss*", 594_552, 271_421, "2aa855fc4ed77bc6"),
        ("dual*", 526_536, 314_957, "1e2a521fb1181877"),
    ],
)
def test_sss_on_a_uniform_tree_of_branching_8_and_depth_8(catalog, name, states, leaves, digest):
    """The OPEN heap takes the states in the same order as the old linear scan: the counts and
    the set of leaves evaluated are those measured before it (and within alpha-beta's)."""
    import hashlib

    position = catalog.game("tree(branching=8, depth=8, seed=20240607)")
    evaluator = catalog.evaluator("tree-leaves(log=true)")
    result = catalog.searcher(name).search(position, evaluator, Limit(depth=8))
    visited = sorted(set(evaluator.visited()))
    assert (result.nodes, result.leaves, result.complete) == (states, leaves, True)
    assert hashlib.sha256(repr(visited).encode()).hexdigest()[:16] == digest
    reference = catalog.searcher("alphabeta").search(position, catalog.evaluator("tree-leaves"))
    assert (result.value, result.move) == (reference.value, reference.move)


# ---- one result for every searcher ------------------------------------------------------------
@pytest.mark.parametrize(
    "spec", ["minimax", "negamax", "alphabeta", "scout", "sss*", "dual*", "mcts(iterations=50)"]
)
def test_every_compiled_searcher_reports_the_same_fields(catalog, spec):
    position = catalog.game("tictactoe")
    evaluator = catalog.evaluator("tictactoe-lines")
    limit = None if spec.startswith("mcts") else Limit(depth=2)
    result = catalog.searcher(spec).search(position, evaluator, limit)
    assert result.move in position.legal_moves() and result.complete
    assert result.elapsed > 0 and result.nodes > 0 and result.pv[0] == result.move
    stopped = catalog.searcher(spec).search(position, evaluator, Limit(nodes=1, depth=None))
    if not spec.startswith("mcts"):
        assert not stopped.complete and stopped.move == position.legal_moves()[0]
        assert stopped.pv == (stopped.move,) and stopped.depth == 0


def test_quiescence_ordered_by_mvv_lva_keeps_its_value_at_a_fraction_of_the_work(catalog):
    """Issue 15's case: quiescence in generation order searched 43.5 M nodes on Kiwipete at
    depth 2; ordered by the game's order_hint (captures=on) it needs about 1,200."""
    spec = "alphabeta(depth={d}, quiescence=on, tt=on, killers=on, history=on{extra})"
    evaluator = catalog.evaluator("standard")
    kiwipete = catalog.game("chess").from_string(KIWIPETE)
    ordered = catalog.searcher(spec.format(d=2, extra=", captures=on")).search(kiwipete, evaluator)
    assert ordered.complete and ordered.nodes < 5_000
    compared, plain_nodes, fast_nodes = 0, 0, 0
    for fen in catalog.game("chess").bench_positions[:8]:
        position = catalog.game("chess").from_string(fen)
        plain = catalog.searcher(spec.format(d=1, extra="")).search(
            position, evaluator, Limit(nodes=300_000)
        )
        if not plain.complete:
            continue  # generation order can explode: compare where it finishes
        fast = catalog.searcher(spec.format(d=1, extra=", captures=on")).search(position, evaluator)
        assert fast.value == plain.value  # ordering changes the work, never the value
        compared, plain_nodes, fast_nodes = (
            compared + 1,
            plain_nodes + plain.nodes,
            fast_nodes + fast.nodes,
        )
    assert compared >= 3 and fast_nodes < plain_nodes
