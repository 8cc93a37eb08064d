"""Laws of the compiled searchers (hypothesis): exact searchers agree; SSS* and NegaScout
evaluate no leaf alpha-beta prunes; MTD(f) from the true value takes two passes; TT,
aspiration and iterative deepening do not change the value; null move keeps its rules."""

import random

import pytest
from conftest import EXACT_SEARCHERS, random_trees
from hypothesis import given, settings
from hypothesis import strategies as st

from alfabeta import load_catalog
from alfabeta.core import WIN, Limit, PythonGame, Result, is_proven
from alfabeta.games.tictactoe import TicTacToe

CATALOG = load_catalog(autoload=False)


def search(spec, tree):
    position = CATALOG.game(f"tree(nodes={tree!r})")
    evaluator = CATALOG.evaluator("tree-leaves(log=true)")
    return CATALOG.searcher(spec).search(position, evaluator), evaluator.visited()


@settings(max_examples=120, deadline=None)
@given(random_trees())
def test_every_exact_searcher_returns_the_same_value(tree):
    values = {spec: search(spec, tree)[0].value for spec in EXACT_SEARCHERS}
    assert len(set(values.values())) == 1, values


@settings(max_examples=150, deadline=None)
@given(random_trees())
def test_sss_star_and_negascout_evaluate_only_leaves_alphabeta_evaluates(tree):
    alphabeta = set(search("alphabeta", tree)[1])
    assert set(search("sss*", tree)[1]) <= alphabeta
    assert set(search("negascout", tree)[1]) <= alphabeta


@settings(max_examples=100, deadline=None)
@given(random_trees())
def test_mtdf_started_at_the_true_value_takes_exactly_two_passes(tree):
    value = search("alphabeta", tree)[0].value
    assert search(f"mtdf(iterative=off, guess={value})", tree)[0].passes == 2


def recurs_at_two_depths(position, depth):
    """Does a position of the ``depth``-ply tree below ``position`` recur with a different
    number of plies left (in TRGD, a placed position reached again by two slides)?"""
    plies_left = {}

    def walk(left):
        plies_left.setdefault(position.key(), set()).add(left)
        if left == 0 or position.is_over():
            return
        for move in position.legal_moves():
            position.apply(move)
            walk(left - 1)
            position.retract(move)

    walk(depth)
    return any(len(lefts) > 1 for lefts in plies_left.values())


def test_the_grafting_check_finds_trgd_slides_that_undo_each_other():
    # 12,16/1,6 + 4: 2,12,16/1,3,6 is placed two plies down, and met again by two slides
    # from 2,12,16/1,4,6 four plies down
    position = CATALOG.game("trgd").from_string("12,16/1,6 + 4")
    assert recurs_at_two_depths(position, 4)
    assert not recurs_at_two_depths(position, 2)
    assert not recurs_at_two_depths(CATALOG.game("tictactoe"), 4)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["trgd", "fibonacci-nim(n=25)", "tictactoe"]),
    st.integers(1, 4),
)
def test_enhancements_that_must_not_change_the_value_do_not(seed, game, depth):
    rng = random.Random(seed)
    position = CATALOG.game(game)
    for _ in range(rng.randrange(6)):
        if not position.legal_moves():
            break
        position.push(rng.choice(position.legal_moves()))
    evaluator = CATALOG.default_evaluator(position)
    limit = Limit(depth=depth)
    expected = CATALOG.searcher("alphabeta").search(position, evaluator, limit).value
    grafting = recurs_at_two_depths(position, depth)
    for spec in (
        "alphabeta(tt=on)",
        "alphabeta(iterative=on)",
        "alphabeta(aspiration=5, iterative=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, malus=on, countermove=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, conthist=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, malus=on, pawn_history=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, quiet_hint=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, threat_order=on)",
        "alphabeta(tt=on, iterative=on, killers=on, history=on, malus=on, tt_reward=on)",
        "alphabeta(tt=on, iterative=on, history=on, malus=on, history_linear=on)",
        "alphabeta(tt=on, iterative=on, captures=on, killers=on, history=on, malus=on, "
        "quiet_cuts=on, capture_history=on)",
        "negascout(tt=on, iterative=on)",
        "negascout(tt=on, iterative=on, tt_ways=2)",
        "negascout(tt=on, iterative=on, pv_cuts=off)",
        "mtdf",
        "minimax",
        "sss*",
        "scout",
    ):
        if grafting and ("tt=on" in spec or spec == "mtdf"):
            # a position met again with fewer plies left is answered from its deeper search
            # (grafting, as in every engine's table): a different value, and a fair one
            continue
        got = CATALOG.searcher(spec).search(position, evaluator, limit)
        if is_proven(got.value) and not is_proven(expected):
            # a table entry from a deeper search of a transposed position (grafting) may show
            # a forced result beyond the horizon: it must be a true one
            plies = WIN - abs(got.value)
            deeper = CATALOG.searcher("alphabeta").search(position, evaluator, Limit(depth=plies))
            assert deeper.value == got.value, spec
            continue
        assert got.value == expected, spec


@pytest.mark.parametrize("game", ["connect-four", "tictactoe"])
def test_without_pv_cuts_a_pv_node_searches_its_line_out(game):
    # the same search again with the table kept: every PV node's entry is deep enough to end
    # it, so with the table's cut-offs the line stops one move down; without them only the
    # null-window nodes take the table's word and the line reaches the horizon
    position, evaluator = CATALOG.game(game), CATALOG.default_evaluator(CATALOG.game(game))
    again = {}
    for cuts in ("on", "off"):
        searcher = CATALOG.searcher(
            f"negascout(tt=on, iterative=on, keep_table=on, pv_cuts={cuts})"
        )
        first = searcher.search(position, evaluator, Limit(depth=6))
        again[cuts] = searcher.search(position, evaluator, Limit(depth=6))
        assert again[cuts].value == first.value
    assert again["on"].value == again["off"].value
    assert len(again["on"].pv) == 1 and len(again["off"].pv) == 6
    assert again["on"].nodes < again["off"].nodes


class NullRecordingGame(TicTacToe):
    """Tic-tac-toe with a pass move that records where null moves happen."""

    def __init__(self):
        super().__init__()
        self.log = []  # (event, stack height)
        self.kinds = []  # the kind of each move on the stack: "move" or "null"

    def push(self, move):
        super().push(move)
        self.kinds.append("move")
        self.log.append(("push", len(self.kinds)))

    def pop(self):
        self.kinds.pop()
        return super().pop()

    def push_null(self):
        if self.outcome() != Result.ONGOING:
            return False
        assert not self.kinds or self.kinds[-1] != "null", "two null moves in a row"
        self.side_to_move ^= 1
        self.kinds.append("null")
        self.log.append(("null", len(self.kinds)))
        return True

    def pop_null(self):
        self.kinds.pop()
        self.side_to_move ^= 1


def test_case_43_null_move_searches_depth_minus_r_minus_1_never_twice_in_a_row():
    game = NullRecordingGame()
    position = PythonGame(game)
    depth, reduction = 6, 2
    CATALOG.searcher(f"alphabeta(null_move={reduction})").search(
        position, CATALOG.evaluator("tictactoe-lines"), Limit(depth=depth)
    )
    nulls = [i for i, (event, _) in enumerate(game.log) if event == "null"]
    assert nulls, "null moves were tried"
    for i in nulls:
        height = game.log[i][1]  # the null move is at ply `height`, depth left depth - height + 1
        below = [h for event, h in game.log[i + 1 :] if event == "push" or event == "null"]
        inside = []
        for h in below:
            if h <= height:
                break
            inside.append(h)
        assert max(inside, default=height) <= height + (depth - height + 1) - reduction - 1
