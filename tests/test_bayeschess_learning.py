"""BayesChess learning (seed-002 §2–§5): T7–T23, model files, the learning database,
self-play through the arena, the adaptive evaluator and the ``bayeschess`` command."""

import itertools
import json
import random
import sqlite3

import numpy as np
import pytest

from alfabeta.arena import Player
from alfabeta.arena.adjudication import Adjudication
from alfabeta.arena.records import RecordsError
from alfabeta.arena.runner import RunInterrupted
from alfabeta.cli import main
from alfabeta.core import InvalidOptionError
from alfabeta.learning.database import LearningDB
from alfabeta.learning.model import BayesModel, ModelError
from alfabeta.learning.naive_bayes import Outcome, TwoClassNaiveBayes, preferred_argmax
from alfabeta.learning.network import BayesianNetwork, Node
from alfabeta.learning.params import (
    PARAMETER_COUNT,
    VARIABLES,
    BayesChessParams,
    Phase,
    game_phase,
    perturbed_states,
    state_values,
    variable_index,
)
from alfabeta.learning.selfplay import SelfPlay, game_rows
from alfabeta.learning.style import (
    CUADRO_6,
    PAPER_PRIOR_COUNTS,
    StyleClassifier,
    features,
    target_for,
)

FIGURE_6 = "r4rk1/p1B1b1pp/2b2n2/3p1p2/8/2PBPN2/PP3PPP/RN3RK1 b - - 0 20"
G, P, T = Outcome.WIN, Outcome.LOSS, Outcome.DRAW
A, M, F = Phase.OPENING, Phase.MIDDLEGAME, Phase.ENDGAME

# Cuadro 4 (L149): phase, pawn, knight, bishop, rook, queen, check, pawn a8, pawn b8, result
CUADRO_4 = [
    (A, 120, 180, 240, 700, 540, 42, -6, 0, P),
    (M, 120, 360, 360, 600, 1260, 36, 3, 0, P),
    (F, 120, 420, 180, 400, 720, 42, -3, 3, P),
    (A, 140, 360, 420, 300, 1080, 18, 0, 6, G),
    (M, 100, 300, 360, 500, 1260, 42, 3, 0, G),
    (F, 80, 180, 240, 400, 900, 42, 6, 6, G),
    (A, 120, 420, 420, 400, 720, 18, -6, 3, T),
    (M, 140, 300, 360, 500, 1260, 42, 3, 0, T),
    (F, 120, 420, 180, 600, 900, 30, 0, 6, T),
]
CUADRO_4_VARIABLES = ["pawn", "knight", "bishop", "rook", "queen", "check"]
CUADRO_4_VARIABLES += ["white-pawn@a8", "white-pawn@b8"]

# Cuadro 5 (L155–173): p(pawn = 60, 80, 100, 120, 140 | phase, result) as printed
CUADRO_5 = {
    (A, G): (0.2, 0.3, 0.1, 0.1, 0.3),
    (A, P): (0.1, 0.1, 0.1, 0.2, 0.5),
    (A, T): (0.3, 0.1, 0.2, 0.4, 0.1),
    (M, G): (0.3, 0.1, 0.4, 0.1, 0.2),
    (M, P): (0.2, 0.2, 0.2, 0.3, 0.1),
    (M, T): (0.3, 0.1, 0.1, 0.1, 0.4),
    (F, G): (0.2, 0.2, 0.1, 0.3, 0.2),
    (F, P): (0.3, 0.1, 0.1, 0.2, 0.3),
    (F, T): (0.2, 0.2, 0.2, 0.3, 0.1),
}


def cuadro_5_learner(scale=110):
    """A one-variable learner whose rows, normalised, are Cuadro 5's; each (phase, result)
    has ``scale`` rows (110 makes the 1.1-sum rows whole numbers too)."""
    learner = TwoClassNaiveBayes(1)
    for (phase, result), row in CUADRO_5.items():
        counts = np.rint(np.array(row) / sum(row) * scale).astype(int)
        assert counts.sum() == scale
        for state, count in enumerate(counts):
            learner.partial_fit([phase] * count, [result] * count, [[state]] * count)
    return learner


def states_of(values_by_name):
    """A states vector: the named variables at the state whose value is given, others base."""
    values = state_values(BayesChessParams.default().vector)
    states = np.full(PARAMETER_COUNT, 2, dtype=np.uint8)
    for name, value in values_by_name.items():
        i = variable_index(name)
        (where,) = np.nonzero(values[i] == value)
        assert len(where) == 1, f"{value} is not a state of {name}: {values[i]}"
        states[i] = where[0]
    return states


def board(catalog, fen="startpos"):
    return catalog.game("chess").from_string(fen)


def played(catalog, moves, fen="startpos"):
    position = board(catalog, fen)
    for text in moves.split():
        position.push(position.parse_move(text))
    return position


# ---- parameters, states, phase -----------------------------------------------------------
def test_t6_774_variables_in_the_evaluator_order():
    assert len(VARIABLES) == PARAMETER_COUNT == 5 + 1 + 12 * 64
    assert VARIABLES[:6] == ("pawn", "knight", "bishop", "rook", "queen", "check")
    default = BayesChessParams.default()
    assert default.vector[variable_index("white-knight@b1")] == -30
    assert default.vector[variable_index("black-knight@b8")] == -30
    assert default.piece_values == (100, 300, 300, 500, 900) and default.check_bonus == 30


def test_t7_five_states_of_each_base():
    values = state_values(np.array([100, 300, 500, 900, 30]))
    assert values.tolist() == [
        [60, 80, 100, 120, 140],
        [180, 240, 300, 360, 420],
        [300, 400, 500, 600, 700],
        [540, 720, 900, 1080, 1260],
        [18, 24, 30, 36, 42],
    ]
    # zero and small cells move in steps of 3 (Cuadro 4's a8/b8 pawn cells); the middle
    # state is always the base
    assert state_values(np.array([0, 5, -30])).tolist() == [
        [-6, -3, 0, 3, 6],
        [-1, 2, 5, 8, 11],
        [-42, -36, -30, -24, -18],
    ]
    default = BayesChessParams.default().vector
    assert np.array_equal(state_values(default)[:, 2], default)


def test_t8_cuadro_4_rows_are_states_of_their_variables():
    values = state_values(BayesChessParams.default().vector)
    for row in CUADRO_4:
        for name, value in zip(CUADRO_4_VARIABLES, row[1:-1], strict=True):
            assert value in values[variable_index(name)], (name, value)
    games = [CUADRO_4[i : i + 3] for i in range(0, 9, 3)]
    for game in games:
        assert [r[0] for r in game] == [A, M, F]
        assert len({r[-1] for r in game}) == 1


def test_t9_each_predictor_has_45_entries():
    learner = TwoClassNaiveBayes(PARAMETER_COUNT)
    assert learner.cpt()[:, :, 0, :].size == 45
    assert learner.cpt().shape == (3, 3, PARAMETER_COUNT, 5)


def test_params_convert_between_states_and_values():
    base = BayesChessParams.default()
    states = perturbed_states(7, M)
    params = BayesChessParams.from_states(base, states)
    values = state_values(base.vector)
    assert np.array_equal(params.vector, values[np.arange(PARAMETER_COUNT), states])
    assert BayesChessParams.from_states(base, np.full(PARAMETER_COUNT, 2)) == base
    assert params.tables.shape == (2, 6, 64)
    with pytest.raises(InvalidOptionError):
        BayesChessParams(np.zeros(10, dtype=np.int32))
    with pytest.raises(InvalidOptionError):
        BayesChessParams.from_states(base, np.full(PARAMETER_COUNT, 5))


def test_perturbation_is_seeded_per_phase_and_uniform():
    assert np.array_equal(perturbed_states(3, A), perturbed_states(3, A))
    assert not np.array_equal(perturbed_states(3, A), perturbed_states(3, M))
    assert not np.array_equal(perturbed_states(3, A), perturbed_states(4, A))
    counts = np.bincount(np.concatenate([perturbed_states(s, A) for s in range(40)]))
    assert len(counts) == 5 and counts.min() > 0.18 * counts.sum()
    with pytest.raises(InvalidOptionError):
        perturbed_states(-1, A)


def test_t12_t15_game_phase(catalog):
    assert game_phase(board(catalog)) == A  # T12
    assert (
        game_phase(
            board(catalog, "startpos").from_string(
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 10"
            )
        )
        == A
    )
    middlegame = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 11"
    assert game_phase(board(catalog, middlegame)) == M  # T13
    assert game_phase(board(catalog, FIGURE_6)) == F  # T14: no queens
    few = "4k3/8/8/3q4/8/8/3Q4/R3K2R w - - 0 30"  # queens on, 4 pieces
    assert game_phase(board(catalog, few)) == F  # T15
    nine = "1nb1kbn1/8/8/3q4/8/8/3Q4/1NB1KB2 w - - 0 30"  # queens on, nine pieces
    assert game_phase(board(catalog, nine)) == F
    ten = "1nb1kbn1/8/8/3q4/8/8/3Q4/1NB1KBN1 w - - 0 30"
    assert game_phase(board(catalog, ten)) == M


def test_phase_and_result_labels_parse():
    assert Phase.parse("M") == M and Phase.parse("endgame") == F and Phase.parse("apertura") == A
    assert Outcome.parse("GANAN") == G and Outcome.parse("T") == T
    for bad in ("X", ""):
        with pytest.raises(InvalidOptionError):
            Phase.parse(bad)


# ---- the network -----------------------------------------------------------------------
def test_t10_per_table_mpe_on_cuadro_5():
    learner = cuadro_5_learner()
    cpt = learner.cpt()
    values = (60, 80, 100, 120, 140)
    expected = {
        (M, G): 100,
        (A, P): 140,
        (A, T): 120,
        (M, P): 120,
        (M, T): 140,
        (F, G): 120,
        (F, T): 120,
        (A, G): 80,  # tie 80/140: the one nearer the base
        (F, P): 60,  # tie 60/140: equally near, the lower
    }
    chosen = {key: values[int(preferred_argmax(cpt[key])[0])] for key in expected}
    assert chosen == expected
    assert [values[int(learner.select(phase, "win")[0])] for phase in Phase] == [80, 100, 120]


def test_ties_prefer_the_base_state_then_the_nearest_then_the_lower():
    rows = np.array(
        [[0.2, 0.3, 0.1, 0.1, 0.3], [0.3, 0.1, 0.1, 0.2, 0.3], [0.2] * 5, [0.4, 0, 0, 0.2, 0.4]]
    )
    assert preferred_argmax(rows).tolist() == [1, 0, 2, 0]


def test_not_loss_maximises_the_pooled_win_or_draw_table():
    learner = cuadro_5_learner()  # equal rows per result: G and T weigh the same
    values = (60, 80, 100, 120, 140)
    chosen = {phase: values[int(learner.select(phase, "not_loss")[0])] for phase in Phase}
    assert chosen == {A: 60, M: 140, F: 120}  # seed-002 §6.11 (a)


def test_t11_per_table_argmax_is_the_joint_mpe():
    rng = np.random.default_rng(11)
    for trial in range(30):
        variables = int(rng.integers(2, 4))
        learner = TwoClassNaiveBayes(variables, alpha=float(trial % 2))
        rows = int(rng.integers(5, 40))
        learner.fit(
            rng.integers(0, 3, rows),
            rng.integers(0, 3, rows),
            rng.integers(0, 5, (rows, variables)),
        )
        cpt = learner.cpt()
        for phase, result in itertools.product(range(3), range(3)):

            def joint(x, cpt=cpt, phase=phase, result=result):
                return np.prod([cpt[phase, result, i, s] for i, s in enumerate(x)])

            best = max(joint(x) for x in itertools.product(range(5), repeat=variables))
            table = cpt[phase, result]
            assert joint(preferred_argmax(table)) == pytest.approx(best, rel=1e-12)


def test_t16_partial_fit_equals_fit():
    rng = np.random.default_rng(16)
    phases, results = rng.integers(0, 3, 50), rng.integers(0, 3, 50)
    states = rng.integers(0, 5, (50, 20))
    whole = TwoClassNaiveBayes(20).fit(phases, results, states)
    parts = TwoClassNaiveBayes(20).partial_fit(phases[:17], results[:17], states[:17])
    parts.partial_fit(phases[17:], results[17:], states[17:])
    assert np.array_equal(whole.counts, parts.counts)
    assert np.array_equal(whole.class_counts, parts.class_counts)
    assert np.array_equal(whole.cpt(1.0), parts.cpt(1.0))


def test_t17_learning_cuadro_4():
    learner = TwoClassNaiveBayes(PARAMETER_COUNT)
    rows = [states_of(dict(zip(CUADRO_4_VARIABLES, r[1:-1], strict=True))) for r in CUADRO_4]
    learner.fit([r[0] for r in CUADRO_4], [r[-1] for r in CUADRO_4], np.array(rows))
    cpt = learner.cpt()
    pawn, queen = variable_index("pawn"), variable_index("queen")
    assert cpt[A, P, pawn, 3] == 1.0  # p(pawn = 120 | A, P)
    for result in Outcome:
        assert cpt[M, result, queen, 4] == 1.0  # p(queen = 1260 | M, ·)
    model = BayesModel(learner)
    assert model.parameters(M, "win").piece_values[4] == 1260
    assert model.parameters(A, "win").piece_values == (140, 360, 420, 300, 1080)


def test_laplace_smoothing_and_unseen_classes():
    learner = TwoClassNaiveBayes(1)
    learner.fit([0, 0], [0, 0], [[4], [4]])
    assert learner.cpt(0)[0, 0, 0].tolist() == [0, 0, 0, 0, 1]
    assert learner.cpt(1)[0, 0, 0].tolist() == pytest.approx([1 / 7] * 4 + [3 / 7])
    assert learner.cpt(0)[2, 1, 0].tolist() == [0.2] * 5  # never seen: uniform
    assert learner.select(2, "win").tolist() == [2]  # … so the base
    with pytest.raises(InvalidOptionError):
        learner.partial_fit([0], [3], [[0]])
    with pytest.raises(InvalidOptionError):
        learner.partial_fit([0], [0], [[5]])
    with pytest.raises(InvalidOptionError):
        learner.select(0, "draw")


def test_t18_cuadro_1_network():
    def binary(p0):
        return np.array([p0, 1 - p0])

    network = BayesianNetwork(
        [
            Node("X1", 2, (), binary(0.2)),
            Node("X2", 2, ("X1",), np.array([binary(0.8), binary(0.8)])),
            Node("X3", 2, ("X1",), np.array([binary(0.2), binary(0.05)])),
            Node(
                "X4",
                2,
                ("X2", "X3"),
                np.array([[binary(0.8), binary(0.8)], [binary(0.8), binary(0.05)]]),
            ),
            Node("X5", 2, ("X3",), np.array([binary(0.8), binary(0.6)])),
        ]
    )
    assert network.free_parameters() == 11 and network.joint_parameters() == 31
    zeros = dict.fromkeys(("X1", "X2", "X3", "X4", "X5"), 0)
    ones = dict.fromkeys(zeros, 1)
    assert network.joint(zeros) == pytest.approx(0.02048)
    assert network.joint(ones) == pytest.approx(0.05776)
    total = sum(
        network.joint(dict(zip(zeros, bits, strict=True)))
        for bits in itertools.product((0, 1), repeat=5)
    )
    assert total == pytest.approx(1.0)


# ---- the style classifier and the policy -------------------------------------------------
def test_t19_paper_priors_and_no_evidence():
    classifier = StyleClassifier(alpha=0, prior_counts=PAPER_PRIOR_COUNTS)
    classifier.fit([row for row, _ in CUADRO_6], [label for _, label in CUADRO_6])
    assert classifier.priors().round(4).tolist() == [0.4208, 0.4783, 0.1009]
    assert classifier.predict((None, None, None, None)) == "positional"
    assert StyleClassifier.paper().predict((None, None, None, None)) == "positional"


@pytest.mark.parametrize("alpha", [0, 1])
def test_t20_cuadro_6_is_reproduced(alpha):
    classifier = StyleClassifier(alpha).fit(
        [row for row, _ in CUADRO_6], [label for _, label in CUADRO_6]
    )
    assert [classifier.predict(row) for row, _ in CUADRO_6] == [label for _, label in CUADRO_6]


def test_t21_laplace_posterior():
    classifier = StyleClassifier(1).fit(
        [row for row, _ in CUADRO_6], [label for _, label in CUADRO_6]
    )
    posterior = classifier.predict_proba(("e4", "same", "2", "1"))
    assert posterior == pytest.approx(
        {"attacking": 16 / 27, "positional": 2 / 27, "mixed": 1 / 3}, rel=1e-12
    )


def test_t22_policy():
    chooser = random.Random(22)
    assert target_for("attacking", chooser) == "not_loss"
    assert target_for("positional", chooser) == "win"
    draws = [target_for("mixed", chooser) for _ in range(2000)]
    assert 0.45 < draws.count("win") / len(draws) < 0.55
    assert {target_for("mixed", random.Random(5)) for _ in range(3)} == {
        target_for("mixed", random.Random(5))
    }


def test_t23_features(catalog):
    assert features(played(catalog, "e4"), 0)[0] == "e4"
    assert features(played(catalog, "d4 Nf6"), 1)[0] == "Nf6"
    assert features(played(catalog, "b3"), 0)[0] == "other"
    assert features(played(catalog, "e4 e5"), 1)[0] == "other"  # 1…e5 is not listed
    assert features(board(catalog), 0)[0] is None  # not moved yet
    # white castled long, black short: opposite wings
    opposite = "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 15"
    assert features(board(catalog, opposite), 0)[1] == "opposite"
    same = "r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 15"
    assert features(board(catalog, same), 0)[1] == "same"
    centre = "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 15"
    assert features(board(catalog, centre), 0)[1] == "same"
    # white pieces beyond the third rank: Ng5, Bc4 (Nc3 is not); capped at 2
    advanced = "r1bq1rk1/pppp1ppp/2n2n2/4p1N1/2B1P3/2N5/PPPP1PPP/R1BQK2R w KQ - 0 8"
    assert features(board(catalog, advanced), 0)[2] == "2"
    assert features(board(catalog, advanced), 1)[2] == "0"
    # white pawns storming the black king on g8: g5 and h5 (f2 has not moved); e5 is not
    storm = "r1bq1rk1/pppp1pp1/2n2n2/4P1PP/8/8/PPPP1P2/RNBQKBNR w KQ - 0 12"
    assert features(board(catalog, storm), 0)[3] == "2"
    assert features(board(catalog, storm), 1)[3] == "0"


def test_style_model_file_round_trip_and_errors(tmp_path):
    classifier = StyleClassifier.paper()
    path = classifier.save(tmp_path / "style.json")
    again = StyleClassifier.load(path)
    for row, _ in CUADRO_6:
        assert again.predict_proba(row) == pytest.approx(classifier.predict_proba(row))
    data = json.loads(path.read_text())
    data["counts"][0] = [[1, 2]]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(ModelError, match="shape"):
        StyleClassifier.load(tmp_path / "bad.json")
    del data["alpha"]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(ModelError, match=r"bad\.json': it has no 'alpha' entry"):
        StyleClassifier.load(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text("[1, 2]")
    with pytest.raises(ModelError, match="not an alfabeta style model"):
        StyleClassifier.load(tmp_path / "other.json")


# ---- model files -------------------------------------------------------------------------
def a_model(games=3):
    learner = cuadro_5_learner()
    big = TwoClassNaiveBayes(PARAMETER_COUNT, alpha=1.0)
    big.counts[:, :, 0] = learner.counts[:, :, 0]
    big.class_counts[...] = learner.class_counts
    big.counts[:, :, 1:, 2] = learner.class_counts[:, :, None]
    return BayesModel(big, seed=4, games=games)


def test_model_round_trip(tmp_path):
    model = a_model()
    npz, meta = model.save(tmp_path / "m")
    assert (npz.name, meta.name) == ("m.npz", "m.json")
    info = json.loads(meta.read_text())
    assert info["format"] == "alfabeta-bayeschess-model" and info["version"] == 1
    assert info["arrays"]["counts"] == {"shape": [3, 3, 774, 5], "dtype": "int64"}
    assert (info["alpha"], info["seed"], info["games"], info["rows"]) == (1.0, 4, 3, 990)
    for path in (tmp_path / "m", npz, meta):
        again = BayesModel.load(path)
        assert np.array_equal(again.learner.counts, model.learner.counts)
        assert again.base == model.base and again.alpha == 1.0 and again.games == 3
        for phase in Phase:
            assert again.parameters(phase, "win") == model.parameters(phase, "win")


def _rewrite(path, **arrays):
    with np.load(path) as data:
        contents = dict(data)
    contents.update(arrays)
    np.savez(path, **contents)


def test_corrupt_models_are_refused(tmp_path):
    model = a_model()
    npz, meta = model.save(tmp_path / "m")
    npz.write_bytes(npz.read_bytes()[:200])
    with pytest.raises(ModelError, match="unreadable"):
        BayesModel.load(meta)
    model.save(tmp_path / "m")
    _rewrite(npz, counts=model.learner.counts[:, :, :10])
    with pytest.raises(ModelError, match=r"counts is int64\[3, 3, 10, 5\]"):
        BayesModel.load(meta)
    model.save(tmp_path / "m")
    _rewrite(npz, base=np.full(774, np.nan))
    with pytest.raises(ModelError, match="base is float64"):
        BayesModel.load(meta)
    model.save(tmp_path / "m")
    _rewrite(npz, counts=np.where(model.learner.counts > 5, -1, model.learner.counts))
    with pytest.raises(ModelError, match="negative"):
        BayesModel.load(meta)
    model.save(tmp_path / "m")
    bumped = model.learner.counts.copy()
    bumped[0, 0, 3, 1] += 1
    _rewrite(npz, counts=bumped)
    with pytest.raises(ModelError, match="do not add up"):
        BayesModel.load(meta)


def test_a_pickle_or_a_foreign_file_is_refused(tmp_path):
    import pickle

    model = a_model()
    npz, meta = model.save(tmp_path / "m")
    objects = np.empty(3, dtype=object)
    objects[:] = [1, "two", 3.0]
    np.savez(npz, counts=objects, class_counts=model.learner.class_counts, base=model.base.vector)
    with pytest.raises(ModelError, match="unreadable"):
        BayesModel.load(meta)  # allow_pickle=False refuses object arrays
    npz.write_bytes(pickle.dumps({"counts": 1}))
    with pytest.raises(ModelError, match="unreadable"):
        BayesModel.load(meta)
    meta.write_text('{"format": "alfabeta-solved-table", "version": 1}')
    with pytest.raises(ModelError, match="not an alfabeta BayesChess model"):
        BayesModel.load(meta)
    meta.write_text("not json")
    with pytest.raises(ModelError, match="not JSON"):
        BayesModel.load(meta)
    with pytest.raises(ModelError, match="no such file"):
        BayesModel.load(tmp_path / "missing")


# ---- the evaluator with a model ------------------------------------------------------------
def test_a_model_picks_the_parameters_by_phase_and_target(catalog, tmp_path):
    model = a_model()
    model.save(tmp_path / "m")
    spec = f'bayeschess(model="{tmp_path / "m.json"}")'
    evaluator = catalog.evaluator(spec)
    assert evaluator.root_dependent
    for fen, phase in (("startpos", A), (FIGURE_6, F)):
        position = board(catalog, fen)
        evaluator.prepare(position)
        assert np.array_equal(evaluator.parameters, model.parameters(phase, "win").vector)
        assert evaluator.describe(position)["phase"] == phase.name.lower()
    not_loss = catalog.evaluator(spec[:-1] + ", target=not_loss)")
    not_loss.prepare(board(catalog))
    assert np.array_equal(not_loss.parameters, model.parameters(A, "not_loss").vector)
    # the same compiled score with the chosen parameters
    fixed = catalog.evaluator("bayeschess")
    fixed.set_parameters(model.parameters(F, "win").vector)
    evaluator.prepare(board(catalog, FIGURE_6))
    assert evaluator.evaluate(board(catalog, FIGURE_6)) == fixed.evaluate(board(catalog, FIGURE_6))
    assert not catalog.evaluator("bayeschess").root_dependent


@pytest.mark.parametrize(
    "options, message",
    [
        ("target=win2", None),
        ('model="nowhere.json"', "no such file"),
        ("perturb=-1", "perturbation seed"),
        ("perturb=1, target=not_loss", "takes no target"),
        ("target=not_loss", "need model"),
    ],
)
def test_bad_evaluator_options_are_clear_errors(catalog, options, message):
    from alfabeta.core import AlfabetaError

    with pytest.raises(AlfabetaError, match=message):
        catalog.evaluator(f"bayeschess({options})")


def test_the_perturbed_evaluator_draws_a_set_per_phase(catalog):
    evaluator = catalog.evaluator("bayeschess(perturb=9)")
    base = BayesChessParams.default()
    for fen, phase in (("startpos", A), (FIGURE_6, F)):
        evaluator.prepare(board(catalog, fen))
        expected = BayesChessParams.from_states(base, perturbed_states(9, phase))
        assert np.array_equal(evaluator.parameters, expected.vector)


def test_adaptation_follows_the_opponents_style(catalog, tmp_path):
    a_model().save(tmp_path / "m")
    evaluator = catalog.evaluator(f'bayeschess(model="{tmp_path / "m.json"}", target=adaptive)')
    # the opponent (White) opens 1.e4 and castles long against Black's short castle
    attacker = "e4 e5 Nf3 Nc6 Be2 Nf6 Nc3 Be7 d3 O-O Be3 d6 Qd2 Be6 O-O-O a6"
    position = board(catalog)
    targets = []
    for text in attacker.split():
        position.push(position.parse_move(text))
        if position.side_to_move == 1:
            evaluator.prepare(position)
            report = evaluator.describe(position)
            targets.append(report["target"])
    assert report["features"] == ("e4", "opposite", "0", "0")
    assert report["style"] == "attacking" and targets[-1] == "not_loss"
    assert game_phase(position) == A  # move 9: still the opening
    assert np.array_equal(evaluator.parameters, a_model().parameters(A, "not_loss").vector)
    # a quiet opponent: 1.d4, castles on the same wing, no pawn storm
    quiet = played(catalog, "d4 d5 Nf3 Nf6 e3 e6 Bd3 Be7 O-O O-O b3 b6 Ne5")
    evaluator.prepare(quiet)
    report = evaluator.describe(quiet)
    assert report["style"] == "positional" and report["target"] == "win"
    # a take-back undoes what the moves taught
    position.pop()
    position.pop()
    assert evaluator.describe(position)["features"][1] == "same"


def test_the_uci_engine_reports_the_adaptive_target(tmp_path):
    import subprocess
    import sys

    a_model().save(tmp_path / "m")
    commands = (
        "\n".join(
            [
                "uci",
                f'setoption name Evaluator value bayeschess(model="{tmp_path / "m.json"}", '
                "target=adaptive)",
                "position startpos moves e2e4 e7e5 g1f3 b8c6 f1e2 g8f6 b1c3 f8e7 d2d3 e8g8 "
                "c1e3 d7d6 d1d2 c8e6 e1c1",
                "go depth 1",
                "isready",
                "quit",
            ]
        )
        + "\n"
    )
    output = subprocess.run(
        [sys.executable, "-m", "alfabeta.cli", "uci"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "info string bayeschess phase opening target not_loss" in output
    assert "style attacking" in output and "bestmove" in output


# ---- the learning database and self-play ---------------------------------------------------
def learn(tmp_path, name, games, executor="serial", concurrency=1, seed=5):
    run = SelfPlay(
        "chess",
        Player("alphabeta", depth=1),
        games=games,
        seed=seed,
        executor=executor,
        concurrency=concurrency,
        adjudication=Adjudication(max_plies=60),
    )
    return run.run(tmp_path / name, tmp_path / f"{name}.sqlite")


def test_self_play_rows_are_the_perturbed_sides_phases(catalog, tmp_path):
    result = learn(tmp_path, "sp", 4)
    games = result.match.games
    assert [g.players for g in games] == [("base", "perturbed"), ("perturbed", "base")] * 2
    learning = LearningDB(tmp_path / "sp.sqlite")
    phases, results, states = learning.rows(result.run_id)
    expected = [sorted(game_rows(g, 5, catalog), key=lambda r: r[0]) for g in games]
    assert phases.tolist() == [int(r[0]) for rows in expected for r in rows]
    assert np.array_equal(states, np.array([r[1] for rows in expected for r in rows]))
    assert len(phases) == result.model.learner.rows
    for game in games:
        rows = game_rows(game, 5, catalog)
        assert rows[0][0] == A and len(rows) == len({r[0] for r in rows})
        side = game.players.index("perturbed")
        assert {r[2] for r in rows} == {
            Outcome.DRAW
            if game.winner is None
            else Outcome.WIN
            if game.winner == side
            else Outcome.LOSS
        }
    assert learning.games(result.run_id) == [0, 1, 2, 3]
    fitted = TwoClassNaiveBayes(PARAMETER_COUNT).fit(phases, results, states)
    saved = BayesModel.load(tmp_path / "sp.json")
    assert np.array_equal(saved.learner.counts, fitted.counts) and saved.games == 4
    # the rows export as Cuadro 4
    count = learning.export_csv(result.run_id, tmp_path / "rows.csv", BayesChessParams.default())
    lines = (tmp_path / "rows.csv").read_text().splitlines()
    assert count == len(lines) - 1 and lines[0].startswith("phase,pawn,knight,bishop,rook")
    assert lines[1].split(",")[0] == "A" and lines[1].split(",")[-1] in (
        "GANAN",
        "PIERDEN",
        "TABLAS",
    )
    learning.close()


@pytest.mark.parametrize("executor", ["local", "dask-local:2"])
def test_learning_is_the_same_on_every_executor(tmp_path, executor):
    serial = learn(tmp_path, "serial", 4)
    other = learn(tmp_path, "other", 4, executor=executor, concurrency=2)
    assert [g.moves for g in serial.match.games] == [g.moves for g in other.match.games]
    assert np.array_equal(serial.model.learner.counts, other.model.learner.counts)


def test_an_interrupted_run_resumes_without_counting_a_game_twice(tmp_path, monkeypatch):
    whole = learn(tmp_path, "whole", 6)
    from alfabeta.learning import selfplay

    calls = {"n": 0}
    original = selfplay.game_rows

    def interrupt_after_three(*args):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return original(*args)

    monkeypatch.setattr(selfplay, "game_rows", interrupt_after_three)
    with pytest.raises(RunInterrupted):
        learn(tmp_path, "cut", 6)
    monkeypatch.setattr(selfplay, "game_rows", original)
    kept = BayesModel.load(tmp_path / "cut.json")
    assert kept.games == 3
    resumed = learn(tmp_path, "cut", 6)
    assert resumed.resumed and resumed.model.games == 6
    assert np.array_equal(resumed.model.learner.counts, whole.model.learner.counts)
    again = learn(tmp_path, "cut", 6)  # nothing left to play: nothing is added
    assert np.array_equal(again.model.learner.counts, whole.model.learner.counts)


def test_a_corrupt_learning_row_or_database_is_a_clear_error(tmp_path):
    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database at all" * 50)
    with pytest.raises(RecordsError, match="not a learning database"):
        LearningDB(tmp_path / "junk.sqlite")
    result = learn(tmp_path, "sp", 2)
    with sqlite3.connect(tmp_path / "sp.sqlite") as connection:
        connection.execute("UPDATE bayes_rows SET states = x'0102' WHERE game_index = 1")
    learning = LearningDB(tmp_path / "sp.sqlite")
    with pytest.raises(RecordsError, match="corrupt"):
        learning.rows(result.run_id)
    learning.close()


# ---- the command -----------------------------------------------------------------------------
def test_the_command_learns_shows_exports_and_classifies(tmp_path, capsys):
    model = str(tmp_path / "bc")
    assert (
        main(
            [
                "bayeschess",
                "learn",
                "--games",
                "2",
                "--model",
                model,
                "--depth",
                "1",
                "--max-plies",
                "40",
                "--executor",
                "serial",
                "--quiet",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "2 games (perturbed side W-D-L" in out and "opening    rows:" in out
    assert main(["bayeschess", "show", model + ".npz", "--phase", "A", "--var", "queen"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["result", "540", "720", "900", "1080", "1260", "rows"]
    assert [line.split()[0] for line in out[2:5]] == ["GANAN", "PIERDEN", "TABLAS"]
    assert out[-1].startswith("selected for not_loss:")
    assert main(["bayeschess", "export", model + ".sqlite", "--csv", str(tmp_path / "r.csv")]) == 0
    assert "rows of run 1 written" in capsys.readouterr().out
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        '[White "Attacker"]\n[Black "Someone"]\n[Result "*"]\n\n'
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Nc3 Be7 5. d3 O-O 6. Be3 d6 7. Qd2 Be6 "
        "8. O-O-O a6 *\n\n"
        '[White "Someone"]\n[Black "Quiet"]\n[Result "*"]\n\n'
        "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Bf5 *\n"
    )
    assert (
        main(
            [
                "bayeschess",
                "train-style",
                str(pgn),
                "--player",
                "Attacker=atacante",
                "--player",
                "Quiet=posicional",
                "--out",
                str(tmp_path / "s.json"),
            ]
        )
        == 0
    )
    assert "2 games" in capsys.readouterr().out
    assert (
        main(
            [
                "bayeschess",
                "style",
                str(pgn),
                "--player",
                "Attacker",
                "--model",
                str(tmp_path / "s.json"),
            ]
        )
        == 0
    )
    assert "Attacker: attacking 1" in capsys.readouterr().out
    assert main(["bayeschess", "show", str(tmp_path / "nothing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["bayeschess", "show", model, "--var", "king"]) == 2
    assert "unknown BayesChess variable" in capsys.readouterr().err
    assert (
        main(
            [
                "bayeschess",
                "train-style",
                str(pgn),
                "--player",
                "Attacker=wild",
                "--out",
                str(tmp_path / "x.json"),
            ]
        )
        == 2
    )
