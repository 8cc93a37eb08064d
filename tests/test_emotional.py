"""The emotional evaluator (seed-000/001): the 16 reference cases of the spec's §5.3, the FCM's
attractor rule, and the compiled evaluator against a plain-Python twin of its formula."""

import itertools
import random
from pathlib import Path

import chess
import numpy as np
import pytest
from conftest import EXACT_SEARCHERS

from alfabeta.core import InvalidOptionError, Limit
from alfabeta.evaluators.appraisal import (
    ENCLOSE,
    ESCAPE_CHECK,
    GAIN_ADVANTAGE,
    GOALS,
    RANGES,
    SAFE_POSITION,
    avatar,
    label,
    multipliers,
    relevance,
    select_goal,
)
from alfabeta.evaluators.fcm import FCM, NODES, threshold

TABLE5 = np.loadtxt(Path(__file__).parent / "data" / "seed000_table5.txt")
EPSILON_A = -0.986541  # Table 5's final relief

# A Table 4: base terms at the 11 leaves (BM, Mov, SegR, column 4 = the opponent's safety)
TABLE4 = [
    (-75, 35, -28.75, -44, -24.75),
    (-75, 37, -36, -45.5, -28.5),
    (-75, 34, -25.25, -44, -22.25),
    (-75, 38, -26.5, -45.5, -18),
    (-75, 39, -48.5, -45.25, -39.25),
    (425, 40, -43.25, -47.25, 469),
    (-75, 29, -51, -44.5, -52.5),
    (425, 34, -45.75, -45.75, 459),
    (-75, 37, -26.75, -50.5, -14.25),
    (900, 37, 0.75, -44.25, 982),
    (-75, 30, -26.75, -44.75, -27),
]
# A Table 6: the same leaves weighed with ε = −0.98654 and the "escape check" factors
TABLE6 = [
    (25.09, 919.57, -1159.23, -131.33, -83.23),
    (25.09, 972.12, -1451.56, -135.81, -318.53),
    (25.09, 893.3, -1018.11, -131.33, 31.62),
    (25.09, 998.4, -1068.51, -135.81, 90.79),
    (25.09, 1024.67, -1955.57, -135.06, -770.75),
    (-142.2, 1050.94, -1743.89, -141.03, -694.11),
    (25.09, 761.93, -2056.38, -132.83, -1136.52),
    (-142.2, 893.3, -1844.69, -136.56, -957.03),
    (25.09, 972.12, -1078.59, -150.74, 69.36),
    (-301.13, 972.12, 30.24, -132.08, 833.31),
    (25.09, 788.21, -1078.59, -133.57, -131.72),
]
CASES = {  # T §5.2: (start FEN, moves with the model, end, moves without it, end)
    1: (
        "3qr1k1/R3n1p1/2r1pp1p/1Q1p4/3P4/2B2N2/1PP2PPP/R5K1 b - - 0 21",
        "Qc8 Qb7 Qxb7 Rxb7 g6",
        "4r1k1/1R2n3/2r1pppp/3p4/3P4/2B2N2/1PP2PPP/R5K1",
        "Rb6 Qd7 Qxd7 Rxd7 Rc6 Raa7",
        "4r1k1/R2Rn1p1/2r1pp1p/3p4/3P4/2B2N2/1PP2PPP/6K1",
    ),
    2: (
        "5qkr/ppp3pp/3p2n1/3P1p2/2PR4/P5Q1/1P2rPPP/2B2RK1 b - - 0 28",
        "Qf7 Qd3 Rxb2 Bxb2 Qxd5 cxd5",
        "6kr/ppp3pp/3p2n1/3P1p2/3R4/P2Q4/1B3PPP/5RK1",
        "Qf6 Qd3 Re7 Rd1 Ne5 Qxf5 Qxf5",
        "6kr/ppp1r1pp/3p4/3Pnq2/2PR4/P7/1P3PPP/2BR2K1",
    ),
    3: (
        "3q2kr/Q4pnp/8/p2p2p1/4r3/8/5PPP/1R3K2 b - - 0 40",
        "Re8 Rb5 Qd6 Qxa5 Qxh2 Rxd5",
        "4r1kr/5pnp/8/Q2R2p1/8/8/5PPq/5K2",
        "Rc4 Kg1 d4 Qa6 Rb4 Rxb4 axb4",
        "3q2kr/5pnp/Q7/6p1/1p1p4/8/5PPP/6K1",
    ),
}


def board(catalog, fen):
    return catalog.game("chess").from_string(fen)


# ---- 1–3: the map --------------------------------------------------------------------------
def test_case_1_the_threshold_function():
    values = threshold([0, 1, -0.5, -0.63, -1.5])
    assert values == pytest.approx([0, 0.986614, -0.848284, -0.917817, -0.998894], abs=1e-6)
    assert threshold(0.3) == pytest.approx(np.tanh(2.5 * 0.3))


def test_case_2_table_5_is_reproduced_row_by_row_under_the_table5_matrix():
    run = FCM("table5").run(TABLE5[0])
    assert run.converged and run.updates == 25
    assert run.states.shape == (26, 7)
    assert np.max(np.abs(run.states - TABLE5)) <= 1e-6
    assert run.epsilon == pytest.approx(EPSILON_A, abs=1e-6)


def test_case_3_the_printed_matrix_moves_the_opponent_king_node_at_once():
    run = FCM("printed").run(TABLE5[0])
    assert run.states[1][NODES.index("IndROp")] == pytest.approx(-0.5546, abs=1e-4)
    expected = [-0.996509, -0.999381, -0.930917, 0, -0.710413, -0.995249, -0.416961]
    assert run.final == pytest.approx(expected, abs=1e-6)


def test_the_map_refuses_a_malformed_state_or_matrix():
    with pytest.raises(InvalidOptionError, match="7 finite values"):
        FCM().run([0, 0, 0])
    with pytest.raises(InvalidOptionError, match=r"\[-1, 1\]"):
        FCM().run([0, 0, 0, 2, 0, 0, 0])
    with pytest.raises(InvalidOptionError, match="unknown FCM matrix"):
        FCM("transposed")
    assert not FCM(max_updates=3).run(TABLE5[0]).converged


# ---- the attractor rule of §5.2 ------------------------------------------------------------
ATTRACTORS = {
    "table5": (0.97226, 0.98654, 0.54248, 0, 0.71041, 0.99525, 0),
    "printed": (0.99651, 0.99938, 0.93092, 0, 0.71041, 0.99525, 0.41696),
}
SAFETY_ATTRACTOR = (0.71041, 0.83246, 0.41696, 0, 0, 0.71041, 0)


@pytest.mark.parametrize("matrix", ["table5", "printed"])
def test_every_crisp_input_converges_to_the_attractor_its_signs_select(matrix):
    rng = np.random.default_rng(7)
    fcm = FCM(matrix)
    for bm, mov, seg, ind in itertools.product((-1, 0, 1), repeat=4):
        if bm + 0.5 * mov != 0:
            expected = np.sign(bm + 0.5 * mov) * np.array(ATTRACTORS[matrix])
        elif seg != 0:
            expected = np.sign(seg) * np.array(SAFETY_ATTRACTOR)
        else:
            expected = np.zeros(7)
        for _ in range(5):
            emotions = rng.uniform(-1, 1, 3)
            run = fcm.run([*emotions, bm, mov, seg, ind])
            assert run.converged
            assert run.final == pytest.approx(expected, abs=2e-5), (bm, mov, seg, ind)


# ---- 4, 5, 9: relevance ---------------------------------------------------------------------
def test_case_4_the_escape_check_factors_are_exact_not_the_printed_rounding():
    factors = relevance((0.05, 0.3, 0.6, 0.05), -0.7)
    assert factors == pytest.approx((1.352796, -25.618352, -39.857541, -2.011938), abs=1e-6)
    assert [round(r, 2) for r in factors] == [1.35, -25.62, -39.86, -2.01]
    assert ESCAPE_CHECK.relevance == factors


CUADRO_4_5 = {
    SAFE_POSITION: (-0.78782822, 5.31094891, 27.90027855, 3.81671309),
    GAIN_ADVANTAGE: (-0.46957055, 11.62189781, 8.63342618, 3.81671309),
    ENCLOSE: (-0.68174233, 5.31094891, 8.63342618, 18.26685237),
}
CUADRO_4_5_PRINTED = {
    SAFE_POSITION: (-0.78782, 5.31094, 27.90027, 3.81671),
    GAIN_ADVANTAGE: (-0.46957, 11.62189, 8.63342, 3.81671),
    ENCLOSE: (-0.68174, 5.31094, 8.63342, 18.26685),
}


@pytest.mark.parametrize("goal", list(CUADRO_4_5))
def test_case_5_cuadro_4_5_is_eq_11_at_epsilon_ref_one_truncated(goal):
    assert goal.relevance == pytest.approx(CUADRO_4_5[goal], abs=1e-8)
    truncated = tuple(np.trunc(np.array(goal.relevance) * 1e5) / 1e5)
    assert truncated == pytest.approx(CUADRO_4_5_PRINTED[goal], abs=1e-9)


@pytest.mark.parametrize("goal", list(GOALS.values()), ids=list(GOALS))
def test_case_9_at_epsilon_ref_the_ranges_stand_in_the_desired_proportions(goal):
    factors = goal.relevance
    weights = multipliers(factors, goal.epsilon_ref)
    total = sum(RANGES)
    assert total == 8646
    shares = [span * w / total for span, w in zip(RANGES, weights, strict=True)]
    assert shares == pytest.approx(goal.eta, abs=1e-12)
    assert sum(span * r for span, r in zip(RANGES, factors, strict=True)) == pytest.approx(
        0, abs=1e-9
    )


def test_relevance_refuses_impossible_proportions():
    with pytest.raises(InvalidOptionError, match="sum to 1"):
        relevance((0.5, 0.5, 0.5, 0.5), 1.0)
    with pytest.raises(InvalidOptionError, match="other than 0"):
        relevance((0.25, 0.25, 0.25, 0.25), 0.0)
    with pytest.raises(InvalidOptionError, match="4 proportions"):
        relevance((0.5, 0.5), 1.0)


# ---- 6, 7, 10: the worked example ------------------------------------------------------------
def weighed(row, factors, epsilon):
    bm, mov, seg, col4, _ = row
    weights = multipliers(factors, epsilon)
    return [w * p for w, p in zip(weights, (bm, mov, seg, col4), strict=True)]


def test_case_6_table_6_is_table_4_times_the_multipliers():
    run = FCM("table5").run(TABLE5[0])
    for row, printed in zip(TABLE4, TABLE6, strict=True):
        terms = weighed(row, ESCAPE_CHECK.relevance, run.epsilon)
        total = terms[0] + terms[1] + terms[2] - terms[3]
        assert [*terms, total] == pytest.approx(list(printed), abs=0.01)


def test_case_7_table_4_totals_subtract_the_opponent_safety_column():
    for bm, mov, seg, col4, total in TABLE4:
        assert bm + mov + seg - col4 == total


def constructed_tree(values):
    """Case 10: Kh8 → {W1: [1], W2: [2]}, Kf8 → {W3: [3, 4], W4: [5, 6]},
    Kh7 → {W5: [7], W6: [8, 9], W7: [10, 11]} (leaf k is values[k − 1])."""
    v = [round(x, 2) for x in values]
    return [[[v[0]], [v[1]]], [[v[2], v[3]], [v[4], v[5]]], [[v[6]], [v[7], v[8]], [v[9], v[10]]]]


@pytest.mark.parametrize("spec", EXACT_SEARCHERS)
def test_case_10_base_picks_kf8_and_emotion_picks_kh8_through_the_searchers(catalog, spec):
    epsilon = FCM("table5").run(TABLE5[0]).epsilon
    base = [row[4] for row in TABLE4]
    emotional = []
    for row in TABLE4:
        terms = weighed(row, ESCAPE_CHECK.relevance, epsilon)
        emotional.append(terms[0] + terms[1] + terms[2] - terms[3])
    leaves = catalog.evaluator("tree-leaves")
    searcher = catalog.searcher(spec)
    for values, move, value in ((base, 2, -18), (emotional, 1, -318.53)):
        tree = catalog.game(f"tree(nodes={constructed_tree(values)!r}, scale=100)")
        result = searcher.search(tree, leaves)
        assert result.move == move  # 1 Kh8, 2 Kf8, 3 Kh7
        assert result.value / 100 == pytest.approx(value, abs=0.01)


def test_case_11_the_minimal_tree_of_width_3_and_depth_3_has_11_leaves(catalog):
    tree = catalog.game("tree(branching=3, depth=3, order=best)")
    result = catalog.searcher("alphabeta").search(tree, catalog.evaluator("tree-leaves"))
    assert result.leaves == 3**2 + 3**1 - 1


# ---- 12, 14, 15: goals, labels, avatars --------------------------------------------------
def test_case_12_the_goal_selector():
    assert select_goal(0, 1, in_check=False) is GAIN_ADVANTAGE  # even, safe
    assert select_goal(-1, 0, in_check=False) is GAIN_ADVANTAGE  # disadvantage, neutral
    assert select_goal(1, 1, in_check=False) is ENCLOSE  # advantage, safe
    assert select_goal(1, -1, in_check=False) is SAFE_POSITION  # unsafe comes first
    assert select_goal(0, -1, in_check=False) is SAFE_POSITION
    assert select_goal(1, 1, in_check=True) is ESCAPE_CHECK


def test_case_14_the_labels_of_table_1():
    assert label("Aliv", -0.98654) == "fear"
    assert label("Aliv", 0.5) == "neutral"  # the boundary is inclusive
    assert label("Aliv", 0.5000001) == "relief"
    assert label("Aliv", -0.5) == "neutral"
    assert label("Mov", 0) == "immobile"
    assert label("Mov", 0.01) == "mobile"
    assert label("IndROp", 0.9) == "defenceless"
    assert label("SegR", 0.9) == "safe"


def test_case_15_the_avatar_bands_of_figure_5_4():
    assert [avatar(x) for x in (-0.80, -0.75, -0.25, 0.25, 0.26, 0.75, 0.76)] == list("bcddeef")
    assert avatar(0.9, "lost") == "a" and avatar(-0.9, "won") == "g"


# ---- 16: the decoded diagrams of T --------------------------------------------------------
@pytest.mark.parametrize("case", sorted(CASES))
def test_case_16_t_s_move_lists_map_each_start_diagram_onto_its_end(catalog, case):
    start, with_model, end_with, without_model, end_without = CASES[case]
    for moves, end in ((with_model, end_with), (without_model, end_without)):
        position = board(catalog, start)
        for san in moves.split():
            position.push(position.parse_move(san))
        assert position.to_string().split()[0] == end


# ---- the evaluator --------------------------------------------------------------------------
def random_positions(count, seed=3):
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        theirs = chess.Board()
        for _ in range(rng.randrange(0, 60)):
            moves = list(theirs.legal_moves)
            if not moves or theirs.is_game_over():
                break
            theirs.push(rng.choice(moves))
        if not theirs.is_game_over():
            fens.append(theirs.fen())
    return fens


def test_case_8_with_no_emotion_the_evaluation_is_the_base_one(catalog):
    for options in ("", "mobility=difference", "tropism=cpw, mobility=difference"):
        plain = catalog.evaluator(f"emotional(epsilon=0, {options})".replace(", )", ")"))
        cpw = catalog.evaluator(f"cpw({options})")
        for fen in random_positions(40):
            root = board(catalog, fen)
            plain.prepare(root)
            assert plain.evaluate(root) == cpw.evaluate(root)  # the program is to move
            for move in root.legal_moves()[:3]:
                root.push(move)
                if "difference" in options:  # antisymmetric terms: any side to move
                    assert plain.evaluate(root) == cpw.evaluate(root)
                else:  # the program's terms, seen from its opponent (now to move)
                    theirs = cpw.explain(root)
                    ours = {k: t["raw"] for k, t in plain.report(root)["terms"].items()}
                    assert ours["material"] == -theirs["material"]
                    assert ours["king safety"] == -theirs["opponent king defencelessness"]
                    assert ours["opponent king defencelessness"] == -theirs["king safety"]
                    assert plain.evaluate(root) == -round_half_away(sum(ours.values()))
                root.pop()


def round_half_away(value):
    return int(np.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


def twin(evaluator, position):
    """The formula in plain Python: Σ (1 + r·ε)·p over the program's raw terms, the side to
    move's view, rounded half away from zero."""
    report = evaluator.report(position)
    raw = [term["raw"] for term in report["terms"].values()]
    weights = multipliers(evaluator.appraisal.relevance, evaluator.appraisal.epsilon)
    score = sum(w * p for w, p in zip(weights, raw, strict=True))
    if position.side_to_move != report["program"]:
        score = -score
    return round_half_away(score)


def test_the_compiled_evaluator_equals_its_plain_python_twin(catalog):
    evaluator = catalog.evaluator("emotional")
    for fen in random_positions(60, seed=11):
        root = board(catalog, fen)
        evaluator.prepare(root)
        assert evaluator.evaluate(root) == twin(evaluator, root)
        for move in root.legal_moves()[:4]:
            root.push(move)
            assert evaluator.evaluate(root) == twin(evaluator, root)
            root.pop()


def test_colour_mirror_symmetry(catalog):
    evaluator = catalog.evaluator("emotional(mobility=difference)")
    for fen in random_positions(40, seed=5):
        theirs = chess.Board(fen)
        ours, mirrored = board(catalog, fen), board(catalog, theirs.mirror().fen())
        evaluator.prepare(ours)
        first = (evaluator.evaluate(ours), evaluator.appraisal.epsilon, evaluator.appraisal.goal)
        evaluator.prepare(mirrored)
        second = (evaluator.evaluate(mirrored), evaluator.appraisal.epsilon)
        assert first[:2] == pytest.approx(second), fen
        assert evaluator.appraisal.goal == first[2]


@pytest.mark.parametrize("spec", EXACT_SEARCHERS)
def test_every_exact_searcher_agrees_at_depth_3_with_emotional(catalog, spec):
    evaluator = catalog.evaluator("emotional")
    reference = catalog.searcher("alphabeta")
    searcher = catalog.searcher(spec)
    for fen in random_positions(2, seed=17):
        expected = reference.search(board(catalog, fen), evaluator, Limit(depth=3)).value
        assert searcher.search(board(catalog, fen), evaluator, Limit(depth=3)).value == expected


# ---- the dual search ------------------------------------------------------------------------
def test_the_logged_dual_search_walks_py_alphabetas_tree_and_records_every_node(catalog, tmp_path):
    import json

    log = tmp_path / "nodes.jsonl"
    position = board(catalog, CASES[1][0])
    evaluator = catalog.evaluator("emotional")
    dual = catalog.searcher(f"dual-eval(log={str(log)!r})")
    played = dual.search(position, evaluator, Limit(depth=2))
    reference = catalog.searcher("py-alphabeta")
    for result, used in ((dual.last.plain, evaluator.plain()), (dual.last.emotional, evaluator)):
        expected = reference.search(board(catalog, CASES[1][0]), used, Limit(depth=2))
        assert (result.move, result.value, result.nodes) == (
            expected.move,
            expected.value,
            expected.nodes,
        )
    assert played == dual.last.emotional
    records = [json.loads(line) for line in log.read_text().splitlines()]
    for name, result in (("plain", dual.last.plain), ("emotional", dual.last.emotional)):
        mine = [r for r in records if r["search"] == name]
        assert len(mine) == result.nodes  # one record per node, the root included
        root = next(r for r in mine if r["depth"] == 0)
        assert root["value"] == result.value
        assert root["branches"] == len(position.legal_moves())
        assert position.legal_moves()[root["chosen"] - 1] == result.move
        leaves = [r for r in mine if r.get("leaf")]
        assert len(leaves) == result.leaves
        assert set(leaves[0]["terms"]) == {
            "material",
            "mobility",
            "king safety",
            "opponent king defencelessness",
        }


def test_the_dual_search_needs_an_evaluator_with_a_plain_base(catalog):
    dual = catalog.searcher("dual-eval(searcher=alphabeta)")
    with pytest.raises(InvalidOptionError, match="plain"):
        dual.search(board(catalog, CASES[2][0]), catalog.evaluator("cpw"), Limit(depth=1))
    with pytest.raises(InvalidOptionError, match="cannot be logged"):
        catalog.searcher("dual-eval(searcher=negascout, log='x.jsonl')")


# ---- the commands ---------------------------------------------------------------------------
def test_fcm_command_prints_table_5(capsys):
    from alfabeta.cli import main

    assert main(["fcm", "--input", "0,0,0,0,-1,-1,0", "--matrix", "table5", "--plain"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["Des", "Aliv", "Exc", "BM", "Mov", "SegR", "IndROp"]
    rows = [line.split() for line in out if line.startswith("V[")]
    assert len(rows) == 26
    assert np.array([[float(x) for x in row[1:]] for row in rows]) == pytest.approx(
        TABLE5, abs=1e-6
    )
    assert "converged after 25 updates" in out
    assert out[-1] == "ε = -0.986541 (fear)"


def test_fcm_command_plots_and_refuses_bad_input(tmp_path, capsys):
    from alfabeta.cli import main

    assert main(["fcm", "--plot", str(tmp_path / "run.png"), "--json"]) == 0
    assert (tmp_path / "run.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["fcm", "--input", "0,0,1"]) == 2
    assert main(["fcm", "--input", "a,b"]) == 2
    assert "7 numbers" in capsys.readouterr().err


def test_explain_shows_the_appraisal_and_the_weighted_terms(capsys):
    import json

    from alfabeta.cli import main

    fen = CASES[3][0]
    assert main(["explain", fen, "--evaluator", "emotional", "--json"]) == 0
    account = json.loads(capsys.readouterr().out)
    assert account["program"] == "black"
    assert account["appraisal"]["inputs"]["BM"] == 1  # +1025 cp: advantage
    assert account["appraisal"]["goal"] == "enclose"
    terms = account["terms"]
    assert terms["material"]["raw"] == 1025
    for term in terms.values():
        assert term["weighted"] == pytest.approx(term["raw"] * term["multiplier"])
    assert account["evaluate"] == round_half_away(sum(t["weighted"] for t in terms.values()))
    assert main(["explain", fen, "--evaluator", "cpw", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "material" in out and "evaluate (side to move):" in out


def test_explain_dual_prints_both_lines(capsys, tmp_path):
    from alfabeta.cli import main

    log = tmp_path / "n.jsonl"
    args = ["explain", CASES[2][0], "--evaluator", "emotional", "--dual", "--depth", "2"]
    assert main([*args, "--log", str(log), "--plain"]) == 0
    out = capsys.readouterr().out
    assert "plain      value" in out and "emotional  value" in out and "plays: " in out
    assert log.stat().st_size > 0
    assert main(["explain", CASES[2][0], "--log", str(log)]) == 2


def test_clamp_and_magnitude_change_only_the_multipliers_they_name():
    factors = SAFE_POSITION.relevance
    published = multipliers(factors, -0.7001)
    assert published[2] == pytest.approx(-18.533, abs=1e-3)  # fear inverts king safety
    assert multipliers(factors, -0.7001, clamp=True) == tuple(max(0.0, w) for w in published)
    assert multipliers(factors, -0.7001, magnitude=True) == multipliers(factors, 0.7001)
    assert multipliers(factors, 0.5, magnitude=True) == multipliers(factors, 0.5)


def test_the_evaluator_refuses_impossible_options(catalog):
    for spec, fragment in (
        ("emotional(matrix=other)", "unknown FCM matrix"),
        ("emotional(goal=win)", "unknown goal"),
        ("emotional(eta=[0.5, 0.5])", "eta"),
        ("emotional(eta=[0.6, 0.2, 0.2, 0.2])", "sum to 1"),
        ("emotional(epsilon_ref=0)", "other than 0"),
        ("emotional(epsilon=2)", "epsilon"),
        ("emotional(relevance=[1, 2, 3])", "four factors"),
        ("emotional(relevance=[1, 2, 3, 4], eta=[0.25, 0.25, 0.25, 0.25])", "not both"),
        ("emotional(clamp=3)", "clamp"),
        ("emotional(eta={'winning': [0.25, 0.25, 0.25, 0.25]})", "unknown goal"),
        ("emotional(tolerance=0)", "tolerance"),
        ("emotional(shield_safe=-5)", "shield_unsafe < shield_safe"),
    ):
        with pytest.raises(InvalidOptionError, match=fragment):
            catalog.evaluator(spec)


def test_per_goal_proportions_and_direct_factors_reach_the_multipliers(catalog):
    root = board(catalog, CASES[3][0])  # advantage: the goal is enclose
    eta = {"enclose": [0.25, 0.25, 0.25, 0.25]}
    evaluator = catalog.evaluator(f"emotional(eta={eta!r}, epsilon_ref=0.5, epsilon=0.5)")
    evaluator.prepare(root)
    shares = [
        span * w / sum(RANGES)
        for span, w in zip(RANGES, evaluator.appraisal.multipliers, strict=True)
    ]
    assert shares == pytest.approx([0.25] * 4)
    direct = catalog.evaluator("emotional(relevance=[1, 2, 3, 4], epsilon=0.5)")
    direct.prepare(root)
    assert direct.appraisal.multipliers == (1.5, 2.0, 2.5, 3.0)
