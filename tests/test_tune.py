"""The ``tuned`` evaluator and Texel's method (``alfabeta tune``)."""

import gzip
import json
import math
import os
import random
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from conftest import random_game_positions

from alfabeta.arena.executors import ArenaError
from alfabeta.cli import main
from alfabeta.core import InvalidOptionError, Limit
from alfabeta.evaluators.tuned import (
    MAX_WEIGHT,
    Tuned,
    attack_inputs,
    feature_names,
    features,
    load_net,
    load_weights,
    prior_weights,
)
from alfabeta.games.chess.board import ChessGame
from alfabeta.games.chess.pgn import PgnError, read_pgn
from alfabeta.learning import residual, texel
from alfabeta.plugins.catalog import load_catalog

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/5k2/8/3P4/8/8/5K2/8 b - - 0 1",
    "4r1k1/1b3ppp/p7/1p6/3B4/1P3N2/P4PPP/3R2K1 b - - 3 24",
]


def linear_score(position, mg, eg):
    """The tapered dot product of the position's features with the ``mg`` and ``eg`` weights,
    for the side to move, rounded (halves away from zero)."""
    counts, phase = features(position)
    sign = 1 if position.side_to_move == 0 else -1
    total = sign * (int(np.dot(mg, counts)) * phase + int(np.dot(eg, counts)) * (24 - phase))
    rounded = (abs(total) + 12) // 24
    return rounded if total >= 0 else -rounded


def write_weights(path, mg, eg):
    """Write a weights file of ``mg`` and ``eg`` (no network); its path as a string."""
    path.write_text(json.dumps({"features": feature_names(), "mg": mg, "eg": eg}))
    return str(path)


def dot_product_score(position):
    """The linear score, plus the shipped residual network's (``residual.scores``)."""
    score = linear_score(position, *load_weights())
    net = load_net()
    if net is not None:
        rows = np.array([texel.input_rows(position.to_string())], dtype=np.int16)
        mover, attacks = np.array([position.side_to_move]), np.array([attack_inputs(position)])
        score += int(residual.scores(net, rows, mover, attacks)[0])
    return score


@pytest.mark.parametrize("fen", POSITIONS)
def test_the_score_is_the_tapered_dot_product_of_features_and_weights(fen):
    position = ChessGame(fen)
    assert Tuned().evaluate(position) == dot_product_score(position)


def test_a_remembered_score_is_always_the_score_of_the_same_position():
    # one evaluator scores the positions of random games, then all of them again in reverse
    # order: most come back from its cache, the few whose slot another position took since
    # are computed again; every score is the position's own
    positions = random_game_positions(40, 80, seed=11)
    evaluator = Tuned()
    first = [evaluator.evaluate(p) for p in positions]
    again = [evaluator.evaluate(p) for p in reversed(positions)][::-1]
    assert len(positions) > 2000
    assert first == again == [dot_product_score(p) for p in positions]


def test_evaluators_with_other_weights_do_not_share_remembered_scores(tmp_path):
    position = ChessGame(POSITIONS[2])
    mg, eg = load_weights()
    doubled = write_weights(tmp_path / "doubled.json", (2 * mg).tolist(), (2 * eg).tolist())
    linear = Tuned()
    linear.set_net(None)  # the shipped linear weights alone, as doubled
    shipped = linear.evaluate(position)  # now remembered by that evaluator only
    assert abs(shipped) > 1  # so a shared cache's answer could not pass for the doubled one
    assert abs(Tuned(weights=doubled).evaluate(position) - 2 * shipped) <= 1  # rounding


def test_the_largest_weights_still_score_the_exact_tapered_dot_product(tmp_path):
    # the evaluator adds mg and eg packed in one integer; weights of ±MAX_WEIGHT, every sign
    # mixed, on random games' positions (with the extreme material and mobility of random
    # play) must not carry one into the other
    rng = random.Random(5)
    count = len(feature_names())
    signs = [[rng.choice((-1, 1)) for _ in range(count)] for _ in range(2)]
    mg, eg = ([MAX_WEIGHT * s for s in part] for part in signs)
    linear = Tuned(weights=write_weights(tmp_path / "largest.json", mg, eg))
    for position in random_game_positions(12, 120, seed=6):
        assert linear.evaluate(position) == linear_score(position, mg, eg)


def test_a_weight_beyond_the_largest_is_refused_with_the_bound(tmp_path):
    mg, eg = (w.tolist() for w in load_weights())
    mg[3] = MAX_WEIGHT + 1
    with pytest.raises(InvalidOptionError, match=f"within ±{MAX_WEIGHT}"):
        Tuned(weights=write_weights(tmp_path / "beyond.json", mg, eg))


@pytest.mark.parametrize("fen", POSITIONS)
def test_a_colour_flipped_position_scores_the_same_for_the_side_to_move(fen):
    position = ChessGame(fen)
    assert Tuned().evaluate(position) == Tuned().evaluate(position.mirror())


def test_features_count_what_they_name():
    counts, phase = features(ChessGame("8/5k2/8/3P4/8/8/5K2/8 b - - 0 1"))
    named = dict(zip(feature_names(), counts, strict=True))
    assert phase == 0
    assert named["material pawn"] == 1 and named["passed rank 5"] == 1
    assert named["isolated"] == 1 and named["tempo"] == -1
    assert named["table pawn d5"] == 1 and named["table king c2"] == 0  # f2 and f7 cancel
    start, phase = features(ChessGame())
    nonzero = {name: count for name, count in zip(feature_names(), start, strict=True) if count}
    assert phase == 24 and nonzero == {"tempo": 1}  # the rest is symmetric


@pytest.mark.parametrize(
    "fen, expected",
    [
        # Nc4 and Re4 attacked by the d5 pawn; the rook defends the knight, nothing the rook;
        # the free passed d-pawn (rank 4 for black) is 3 moves from e1 and 4 from a8
        (
            "k7/8/8/3p4/2N1R3/8/8/4K3 w - - 0 1",
            {"threat by pawn": 2, "hanging": 1, "passed free": -3, "passed king distance": 3},
        ),
        # Bg4 attacks Rd1 (defended by the king): a threat, not a hanging piece; king danger
        # ⌊(3·2)²/10⌋ = 3 for the rook on d7 and d8, less ⌊(2·2)²/10⌋ = 1 for the bishop
        (
            "4k3/8/8/8/6b1/8/8/3RK3 w - - 0 1",
            {"threat by minor": 1, "hanging": 0, "king danger": 2},
        ),
        # Na1 reaches b3 and c2, but the a4 pawn holds b3: one safe square (kings have none)
        (
            "k7/8/8/8/p7/8/8/N3K3 w - - 0 1",
            {"mobility knight": 1, "low mobility knight": 1, "mobility knight 1": 1},
        ),
        # Qg5 attacks g7 in the king's zone: ⌊5²/10⌋ = 2; only the king holds g7 (weak). Re8
        # and Qd8 would be safe checks (f7 and h7, which the queen also reaches, are held).
        # The whole attack: 5 units, 3 for the attacker, 14 and 10 for the rook's and the
        # queen's checks, 3 for the weak square: ⌊35²/25⌋ = 49
        (
            "6k1/5ppp/8/6Q1/8/8/8/4R1K1 w - - 0 1",
            {
                "king danger": 2,
                "king zone attacks": 1,
                "weak king zone": 1,
                "safe check rook": 1,
                "safe check queen": 1,
                "safe check knight": 0,
                "king attack": 49,
            },
        ),
        # Ng5 attacks f7 and h7 (4 units, 3 for the attacker), Re8 is a safe check (14), f7
        # and h7 are weak (6): 27, halved without a queen: ⌊13²/25⌋ = 6
        ("6k1/5ppp/8/6N1/8/8/8/4R1K1 w - - 0 1", {"king attack": 6, "weak king zone": 2}),
        # Rd1 attacks d7 and d8 (6 units, 3 for the attacker, 6 for the two weak squares):
        # 15, halved: ⌊7²/25⌋ = 1
        ("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", {"king attack": 1, "king danger": 3}),
        # the e6 pawn (rank 6 counts 12) has e7 and e8 free of the enemy, and its king holds e7
        (
            "8/3K4/1k2P3/8/8/8/8/8 w - - 0 1",
            {"passed safe path": 12, "passed safe stop": 12, "passed defended stop": 12},
        ),
        # … but not against a rook on e8, which also attacks e7
        (
            "4r3/8/1k2P3/8/8/8/8/4K3 w - - 0 1",
            {"passed safe path": 0, "passed safe stop": 0, "passed defended stop": 0},
        ),
        # a passed pawn on rank 3 does not count
        ("8/8/1k6/8/8/4P3/8/4K3 w - - 0 1", {"passed rank 3": 1, "passed safe path": 0}),
        # Ra1 attacks the queen; Qe4+ is safe, Qd1+ is not (the king and rook hold d1)
        ("4k3/8/8/8/q7/8/8/R3K3 w - - 0 1", {"threat by rook": -1, "safe check queen": -1}),
        # f6 and h6 storm the g8 king and take g7, which only the king holds
        ("6k1/5p1p/5PpP/8/8/8/8/6K1 w - - 0 1", {"pawn storm": 2, "weak king zone": 1}),
        ("6k1/8/8/3N4/8/8/8/6K1 w - - 0 1", {"safe check knight": 1}),
    ],
)
def test_threats_king_danger_and_passed_pawn_features(fen, expected):
    counts, _ = features(ChessGame(fen))
    named = dict(zip(feature_names(), counts, strict=True))
    assert {name: named[name] for name in expected} == expected


@pytest.mark.parametrize(
    "fen, expected",
    [
        # d4 and e4 side by side (d4 defended by c3 too); c3 alone. Files d and e by the
        # white king hold pawns, none by the black one; e1 is two moves from c3
        (
            "4k3/8/8/8/3PP3/2P5/8/4K3 w - - 0 1",
            {
                "connected rank 4": 2,
                "connected rank 3": 0,
                "phalanx": 2,
                "king open files": -2,
                "king pawn distance": 2,
            },
        ),
        # Ne5 defended by d4, and no black pawn on the d- or f-file can ever attack it
        ("4k3/7p/8/4N3/3P4/8/8/4K3 w - - 0 1", {"outpost knight": 1, "king pawn distance": 0}),
        # … but f7 can (f6), so e5 is no outpost
        ("4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", {"outpost knight": 0, "king open files": 0}),
        # Bc1 (dark) shares its colour with d2, not e2; it reaches b2 and a3
        (
            "4k3/8/8/8/8/8/3PP3/2B1K3 w - - 0 1",
            {"bad bishop": 1, "connected rank 2": 2, "low mobility bishop": 2},
        ),
        ("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", {"rook seventh": 1, "low mobility rook": 3}),
        # Nd2 stands behind d3, a king's move from e1; one minor piece is no mating force
        (
            "4k3/8/8/8/8/3P4/3N4/4K3 w - - 0 1",
            {"minor behind pawn": 1, "king protector": 1, "mop-up edge": 0},
        ),
        # two knights cannot mate a bare king; a bishop and a knight can: e8 is 0 + 3 from the
        # centre and 7 moves from e1
        ("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1", {"mop-up edge": 0, "mop-up kings": 0}),
        ("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", {"mop-up edge": 3, "mop-up kings": 0}),
        ("3k4/8/8/8/8/8/8/2B1KN2 b - - 0 1", {"mop-up edge": 3, "mop-up kings": 0}),
        # Bb2 sees d4 and e5 on the long diagonal, three king moves from e1 …
        ("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", {"long diagonal bishop": 1, "king protector": 3}),
        # … but not past a pawn on d4
        ("4k3/8/8/8/3P4/8/1B6/4K3 w - - 0 1", {"long diagonal bishop": 0}),
        # Rh1 has g1 only, on the king's side of it; the bare e8 king is 0 + 3 from the centre
        # and 7 moves from f1
        (
            "4k3/8/8/8/8/8/6PP/5K1R w - - 0 1",
            {"trapped rook": 1, "mop-up edge": 3, "mop-up kings": 0},
        ),
        # e4-e5 would attack Nd6 safely, and the knight attacks the undefended e4; black's
        # knight and white's pawn both reach f5; white's space is 11 safe squares and e2, e3
        # behind e4, black's 10 (e4 takes d5 and f5)
        (
            "4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1",
            {"threat by pawn push": 1, "weak pawn attacked": -1, "restricted": -1, "space": 3},
        ),
        # … which f6 would take
        ("4k3/8/3n1p2/8/4P3/8/8/4K3 w - - 0 1", {"threat by pawn push": 0}),
        # Ra1 has ten safe squares, on the queenside of its cell (a1 over h1)
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            {"mobility rook": 10, "mobility rook 10": 1, "table rook a1 over h1": 1},
        ),
        # both kings on b1 in their own view: the folded cell cancels, the side does not
        # (white's on the kingside, black's on the queenside)
        ("1k6/8/8/8/8/8/8/6K1 w - - 0 1", {"table king b1": 0, "table king b1 over g1": -2}),
        # the g1 king: f2 (rank 2) and g3 (rank 3) before it, a black pawn on g4 blocked by
        # g3, no pawn on the h-file. The g8 king: g4 (its rank 5) before it, g3 (its rank 6)
        # blocked by it, f2 (its rank 7) storming the f-file, which holds no black pawn, and
        # the h-file as empty as white's
        (
            "6k1/8/8/8/6p1/6P1/5P2/6K1 w - - 0 1",
            {
                "shelter c-file rank 2": 1,
                "shelter b-file rank 3": 1,
                "storm blocked rank 4": 1,
                "shelter b-file rank 5": -1,
                "storm blocked rank 6": -1,
                "shelter c-file none": -1,
                "storm c-file rank 7": -1,
                "storm c-file none": 1,
                "shelter a-file none": 0,
                "storm a-file none": 0,
            },
        ),
        # black's a7-b7 phalanx on its second rank; the a1 king has two open files, a8 none
        (
            "k7/pp6/8/8/8/8/8/K7 w - - 0 1",
            {"connected rank 2": -2, "phalanx": -2, "king open files": 2, "king pawn distance": -1},
        ),
        # Rd1 on the black queen's file; from d2, which the king also holds, it attacks her
        (
            "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1",
            {"rook queen file": 1, "slider on queen": 1, "knight on queen": 0},
        ),
        # Qd6 on black's half, where the a7 pawn can never attack it …
        ("4k3/p7/3Q4/8/8/8/8/4K3 w - - 0 1", {"queen infiltration": 1}),
        # … but the e7 pawn can
        ("4k3/4p3/3Q4/8/8/8/8/4K3 w - - 0 1", {"queen infiltration": 0}),
        # no pawn on files e–h by the g1 king; d7 stands on the c–f flank of the e8 king
        ("4k3/3p4/8/8/8/8/8/6K1 w - - 0 1", {"pawnless flank": 1}),
        # Rh1 attacks h4 … h8 in the g8 king's camp (e–h, ranks 4–8), attacked by nothing
        # else; white's own camp: f1, f2, g1, g2, h1 … h5 (9), black's: f7, f8, g7, h7, h8 (5)
        ("6k1/8/8/8/8/8/8/6KR w - - 0 1", {"king flank attack": 5, "king flank defence": 4}),
        # Nb1 reaches c3, a knight's move from the queen on d5
        ("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1", {"knight on queen": 1}),
        # Bc1's diagonal holds g5, behind the knight on e3
        ("4k3/8/8/6p1/8/4n3/8/2B1K3 w - - 0 1", {"bishop xray pawns": 1}),
        # Nc3 attacks the d5 pawn, which nothing defends: weak, and hanging
        (
            "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1",
            {"threat by minor on pawn": 1, "weak hanging": 1, "threat by rook on pawn": 0},
        ),
        # the e7 knight, held once (by its king) and attacked once (by Re1), is weak
        (
            "4k3/4n3/8/8/8/8/8/4RK2 w - - 0 1",
            {"threat by rook on knight": 1, "weak hanging": 0, "threat by king": 0},
        ),
        # … and so is the d5 knight that only its queen holds
        (
            "3qk3/8/8/3n4/8/8/8/3RK3 w - - 0 1",
            {"threat by rook on knight": 1, "weak queen guard": 1, "weak hanging": 0},
        ),
        # the c6 pawn holds d5 strongly: a bishop still threatens the knight, a rook would not
        (
            "4k3/8/2p5/3n4/8/8/6B1/4K3 w - - 0 1",
            {"threat by minor on knight": 1, "weak hanging": 0},
        ),
        # the e4 pawn, which no black piece attacks, attacks the d5 knight
        ("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", {"safe pawn threat": 1, "weak hanging": 1}),
        # Kh1 attacks the g2 knight, which nothing defends
        ("4k3/8/8/8/8/8/6n1/7K w - - 0 1", {"threat by king": 1, "weak hanging": 1}),
    ],
)
def test_pawn_and_piece_placement_features(fen, expected):
    counts, _ = features(ChessGame(fen))
    named = dict(zip(feature_names(), counts, strict=True))
    assert {name: named[name] for name in expected} == expected


def test_fitting_recovers_known_weights_from_synthetic_results():
    rng = np.random.default_rng(7)
    true = np.array([100.0, -40.0, 25.0, 0.0, 60.0, -15.0])
    x = rng.integers(-3, 4, size=(5000, len(true))).astype(np.float32)
    k = 0.004
    result = 1 / (1 + np.exp(-k * (x @ true)))  # expected scores: the model is exact
    assert texel.fit_scale(x, result, true) == pytest.approx(k, rel=1e-3)
    weights, losses = texel.fit(x, result, np.zeros(len(true)), k, epochs=3000, rate=1.0)
    assert np.abs(weights - true).max() < 0.5
    assert losses[-1] < 1e-6 < losses[0]


def test_a_fit_keeps_its_weights_within_what_tuned_reads(monkeypatch, tmp_path):
    # a runaway fit (here a stand-in for one) is written within ±MAX_WEIGHT, so that its
    # file loads rather than being refused after the fit
    count = len(feature_names())
    rng = np.random.default_rng(3)
    positions = texel.Positions(
        rng.integers(-2, 3, size=(50, count)), rng.integers(0, 25, 50), rng.random(50)
    )
    runaway = np.resize([5 * MAX_WEIGHT, -5 * MAX_WEIGHT, 7.4], 2 * count)
    monkeypatch.setattr(texel, "fit", lambda *args, **kwargs: (runaway, [0.2, 0.1]))
    start = load_weights()
    result = texel.tune(positions, start, epochs=1, rate=1.0, l2=0.0, net_decay=0.0)
    assert result.mg[:3].tolist() == [MAX_WEIGHT, -MAX_WEIGHT, 7]
    texel.write_weights(tmp_path / "clipped.json", result, {})
    mg, eg = load_weights(tmp_path / "clipped.json")
    assert mg.tolist() == result.mg.tolist() and eg.tolist() == result.eg.tolist()


def test_the_pull_towards_the_start_keeps_unseen_features_there():
    x = np.zeros((200, 3), dtype=np.float32)
    x[:, 0] = 1
    result = np.full(200, 0.7)
    start = np.array([0.0, 50.0, -20.0])
    weights, _ = texel.fit(x, result, start, 0.004, epochs=500, rate=1.0, l2=1.0)
    assert weights[1:] == pytest.approx(start[1:])
    assert 1 / (1 + np.exp(-0.004 * weights[0])) == pytest.approx(0.685, abs=0.01)


def test_fixed_groups_keep_their_start_weights_while_the_rest_are_fitted():
    names = feature_names()
    free = texel.free_weights(["table"])
    tables = [name.startswith("table ") for name in names]
    # the 192 folded cells and the 192 terms that tell a cell's two sides apart
    assert free.tolist() == [not cell for cell in tables] * 2 and sum(tables) == 384
    mop_up = [name in ("mop-up edge", "mop-up kings") for name in names]
    assert texel.free_weights(["mop-up"]).tolist() == [not term for term in mop_up] * 2
    rng = np.random.default_rng(3)
    true = np.array([80.0, -30.0, 45.0, 10.0])
    x = rng.integers(-3, 4, size=(4000, len(true))).astype(np.float32)
    result = 1 / (1 + np.exp(-0.004 * (x @ true)))
    start = np.array([0.0, 0.0, 45.0, 0.0])
    mask = np.array([True, True, False, True])
    weights, _ = texel.fit(x, result, start, 0.004, epochs=3000, rate=1.0, free=mask)
    assert weights[2] == 45.0
    assert np.abs(weights[mask] - true[mask]).max() < 0.5


def test_a_bad_group_or_start_file_is_refused_before_the_data_is_read(tmp_path, capsys):
    # x.epd does not exist: these errors come first, not "no EPD file"
    argv = ["tune", "--positions", "x.epd", "--out", str(tmp_path / "w.json")]
    assert main([*argv, "--fixed", "kings"]) == 2
    assert "cannot keep 'kings' fixed; the groups are material, table" in capsys.readouterr().err
    broken = tmp_path / "start.json"
    broken.write_text("{not json")
    assert main([*argv, "--start", str(broken)]) == 2
    assert "start.json': cannot read" in capsys.readouterr().err


@pytest.fixture(scope="module")
def games_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("tune") / "games.sqlite"
    status = main(
        [
            "match", "chess", "alphabeta(depth=1)", "alphabeta(depth=2)",
            "--evaluator", "standard", "--games", "4", "--max-plies", "80",
            "--db", str(path), "--quiet",
        ]
    )  # fmt: skip
    assert status == 0
    return path


def test_a_plot_without_the_plot_extra_is_refused_before_the_work(tmp_path, capsys, monkeypatch):
    # as if matplotlib were not installed: tune refuses before it reads a file (here a
    # missing one), bench before it searches, each naming the extra
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    plot, missing = str(tmp_path / "loss.png"), str(tmp_path / "missing.epd")
    assert main(["tune", "--positions", missing, "--out", str(tmp_path / "w"), "--plot", plot]) == 2
    assert "pip install 'alfabeta[plot]'" in capsys.readouterr().err
    argv = ["bench", "chess", "--depth", "1", "--min-time", "0", "--plain", "--plot", plot]
    assert main(argv) == 2
    printed = capsys.readouterr()
    assert "pip install 'alfabeta[plot]'" in printed.err and "nodes" not in printed.out


def test_tune_fits_the_games_and_writes_weights_data_and_a_plot(games_db, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out, data, plot = tmp_path / "w.json", tmp_path / "d.epd", tmp_path / "loss.png"
    argv = ["tune", "--games", str(games_db), "--out", str(out), "--epochs", "30"]
    assert main([*argv, "--data", str(data), "--plot", str(plot)]) == 0
    written = json.loads(out.read_text())
    assert written["positions"] == len(data.read_text().splitlines()) > 20
    assert written["losses"][-1] < written["losses"][0]
    assert plot.stat().st_size > 1000
    tempo = written["mg"][written["features"].index("tempo")]
    assert Tuned(weights=str(out)).evaluate(ChessGame()) == tempo  # the rest is symmetric
    again = tmp_path / "again.json"
    assert main(["tune", "--positions", str(data), "--out", str(again), "--epochs", "30"]) == 0
    assert json.loads(again.read_text())["mg"] == written["mg"]  # the same positions, same fit
    fixed = tmp_path / "fixed.json"
    assert main(["tune", "--positions", str(data), "--out", str(fixed), "--epochs", "30",
                 "--fixed", "table", "--fixed", "material"]) == 0  # fmt: skip
    kept = json.loads(fixed.read_text())
    prior_mg, prior_eg = prior_weights()
    cells = [
        i for i, name in enumerate(kept["features"]) if name.split()[0] in ("table", "material")
    ]
    assert [kept["mg"][i] for i in cells] == [prior_mg[i] for i in cells]
    assert [kept["eg"][i] for i in cells] == [prior_eg[i] for i in cells]
    assert kept["fixed"] == ["table", "material"] and kept["mg"] != [int(v) for v in prior_mg]
    assert "positions, k" in capsys.readouterr().out


def test_holdout_keeps_evenly_spread_runs_of_positions_out():
    rows = np.arange(1000)
    positions = texel.Positions(rows[:, None], np.zeros(1000), np.zeros(1000))
    fitted, held = texel.split(positions, 0.1)
    assert held.counts[:, 0].tolist() == [r for r in rows if r // 10 % 10 == 9]  # every 10th run
    assert len(fitted) == 900 and not set(fitted.counts[:, 0]) & set(held.counts[:, 0])
    assert len(texel.split(positions, 0.0)[1]) == 0
    with pytest.raises(InvalidOptionError, match="--holdout"):
        texel.split(positions, 1.0)


def test_linear_scores_in_pieces_are_the_whole_design_matrix_product_exactly(monkeypatch):
    # the network's targets must not change with the piece size (the BLAS takes rows four at
    # a time, and each piece is a multiple of that)
    samples = [(p.to_string(), 0.5, None) for p in random_game_positions(20, 60, seed=31)]
    positions = texel.labelled(samples)
    weights = np.concatenate(prior_weights()).astype(np.int64)
    whole = texel.design(positions) @ weights.astype(np.float32)
    monkeypatch.setattr(texel, "DESIGN_CHUNK", 64)
    assert len(positions) > 64 * 10 and len(positions) % 64
    assert np.array_equal(texel.linear_scores(positions, weights), whole)


def test_positions_are_read_into_columns_that_grow_without_changing_a_row(monkeypatch):
    samples = [
        (p.to_string(), 0.5, 7 * i) for i, p in enumerate(random_game_positions(4, 30, seed=5))
    ]
    samples[3] = (samples[3][0], 1.0, None)  # no search score: NaN
    whole = texel.labelled(samples)
    monkeypatch.setattr(texel, "LOAD_ROWS", 4)  # grown 4, 5, 6, 7, 8, 10, … rows
    grown = texel.labelled(samples)
    assert len(grown) == len(samples) > 20
    for name in ("counts", "phase", "result", "searched", "pieces", "mover"):
        a, b = getattr(whole, name), getattr(grown, name)
        assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True), name
    for row, (fen, result, score) in enumerate(samples):
        position = ChessGame(fen)
        counts, phase = features(position)
        sign = 1 if position.side_to_move == 0 else -1
        assert grown.counts[row].tolist() == counts.tolist() and grown.phase[row] == phase
        assert grown.result[row] == result and grown.pieces[row].tolist() == texel.input_rows(fen)
        assert grown.mover[row] == position.side_to_move
        assert (
            math.isnan(grown.searched[row])
            if score is None
            else grown.searched[row] == sign * score
        )


def test_tune_with_holdout_fits_the_rest_and_reports_the_held_out_loss(games_db, tmp_path, capsys):
    data, out = tmp_path / "d.epd", tmp_path / "w.json"
    assert main(["tune", "--games", str(games_db), "--out", str(out), "--epochs", "1",
                 "--data", str(data)]) == 0  # fmt: skip
    lines = data.read_text().splitlines()
    index = texel.Positions(
        np.arange(len(lines))[:, None], np.zeros(len(lines)), np.zeros(len(lines))
    )
    kept = texel.split(index, 0.25)[0].counts[:, 0]
    rest = tmp_path / "rest.epd"
    rest.write_text("\n".join(lines[i] for i in kept) + "\n")
    alone, split = tmp_path / "alone.json", tmp_path / "split.json"
    argv = ["tune", "--epochs", "40", "--start", "shipped"]
    assert main([*argv, "--positions", str(rest), "--out", str(alone)]) == 0
    assert main([*argv, "--positions", str(data), "--out", str(split), "--holdout", "0.25"]) == 0
    alone_fit, split_fit = json.loads(alone.read_text()), json.loads(split.read_text())
    assert split_fit["mg"] == alone_fit["mg"] and split_fit["eg"] == alone_fit["eg"]
    assert alone_fit["held_out_losses"] is None and split_fit["holdout"] == 0.25
    held = texel.split(texel.labelled(texel.epd_positions([data])), 0.25)[1]
    weights = np.array(split_fit["mg"] + split_fit["eg"], dtype=np.float64)
    after = texel.loss(texel.design(held), held.result, weights, split_fit["k"])
    assert split_fit["held_out_losses"][1] == pytest.approx(after, abs=1e-7)
    assert "held-out games' positions: loss" in capsys.readouterr().out
    assert main([*argv, "--positions", str(data), "--out", str(split), "--holdout", "1"]) == 2
    assert "--holdout" in capsys.readouterr().err


def test_prior_weights_are_the_start_of_the_first_fit(tmp_path):
    mg, eg = prior_weights()
    assert list(mg[:5]) == [100, 320, 330, 500, 950] and list(eg[:5]) == [120, 300, 320, 520, 950]
    assert load_weights("prior")[0].tolist() == mg.tolist()


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "cannot read"),
        ('{"features": [], "mg": [], "eg": []}', f"expected {len(feature_names())}"),
        ("[1, 2]", r"cannot read \(it is not a JSON object\)"),
        ('{"mg": [], "eg": []}', r"cannot read \(it has no 'features' entry\)"),
    ],
)
def test_a_broken_weights_file_is_refused_with_its_name(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InvalidOptionError, match=message):
        Tuned(weights=str(path))


def test_tune_refuses_missing_data_and_lines_without_results(tmp_path, capsys):
    assert main(["tune", "--out", str(tmp_path / "w.json")]) == 2
    assert main(["tune", "--games", str(tmp_path / "none.sqlite"), "--out", "w.json"]) == 2
    epd = tmp_path / "bad.epd"
    epd.write_text("8/5k2/8/3P4/8/8/5K2/8 b - - bm Kf6;\n")
    assert main(["tune", "--positions", str(epd), "--out", str(tmp_path / "w.json")]) == 2
    epd.write_text('8/5k2/8/3P4/8/8/5K2/8 b - - c9 "1-0";\n8/5k2/8/3P4/8/8/5K2 b - - c9 "0-1";\n')
    assert main(["tune", "--positions", str(epd), "--out", str(tmp_path / "w.json")]) == 2
    errors = capsys.readouterr().err
    assert "needs data" in errors and "no results database" in errors and "bad.epd:1" in errors
    assert "bad.epd:2: FEN '8/5k2/8/3P4/8/8/5K2 b - - 0 1': the board has 7 ranks" in errors


def test_a_database_without_chess_games_is_refused_with_what_tune_needs(tmp_path, capsys):
    db = tmp_path / "connect-four.sqlite"
    argv = ["match", "connect-four", "alphabeta(depth=1)", "alphabeta(depth=2)", "--quiet"]
    assert main([*argv, "--db", str(db)]) == 0
    assert main(["tune", "--games", str(db), "--out", str(tmp_path / "w.json")]) == 2
    assert (
        "no quiet positions with a result were found: it fits the chess evaluator to "
        "finished chess games" in capsys.readouterr().err
    )
    assert not (tmp_path / "w.json").exists()


def test_a_match_pgn_gives_tune_the_same_positions_as_its_database(tmp_path):
    db, pgn = tmp_path / "games.sqlite", tmp_path / "games.pgn"
    status = main(
        [
            "match", "chess", "alphabeta(depth=1)", "alphabeta(depth=2)",
            "--evaluator", "standard", "--games", "4", "--max-plies", "80",
            "--db", str(db), "--pgn", str(pgn), "--quiet",
        ]
    )  # fmt: skip
    assert status == 0
    from_db = list(texel.game_positions([db]))
    assert len(from_db) > 20 and list(texel.pgn_positions([pgn])) == from_db


KINGS_AND_PAWN = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
WALK = ("Kd2", "Kd8", "Kd3", "Kd7", "Ke4", "Ke6")


def test_pgn_games_start_from_their_fen_tag_and_unfinished_ones_are_left_out(tmp_path):
    pgn = tmp_path / "walk.pgn"
    moves = "1. Kd2 Kd8 2. Kd3 Kd7 3. Ke4 Ke6"
    pgn.write_text(
        f'[Event "walk"]\n[Result "0-1"]\n[SetUp "1"]\n[FEN "{KINGS_AND_PAWN}"]\n\n{moves} 0-1\n\n'
        f'[Event "unfinished"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
    )
    position, expected = ChessGame(KINGS_AND_PAWN), []
    for ply, move in enumerate(WALK):
        if ply >= texel.SKIP_PLIES:
            expected.append((position.to_string(), 0.0, None))  # black won: white's share 0
        position.push(position.parse_move(move))
    assert list(texel.pgn_positions([pgn])) == expected


def test_a_gzip_pgn_reads_as_the_plain_one_and_a_cut_one_is_refused_with_its_name(tmp_path):
    text = f'[Event "walk"]\n[Result "0-1"]\n[FEN "{KINGS_AND_PAWN}"]\n\n1. Kd2 Kd8 2. Kd3 0-1\n'
    plain, packed, cut = tmp_path / "g.pgn", tmp_path / "g.pgn.gz", tmp_path / "cut.pgn.gz"
    plain.write_text(text * 300)
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    cut.write_bytes(packed.read_bytes()[: packed.stat().st_size // 2])
    assert read_pgn(packed) == read_pgn(plain) and len(read_pgn(plain)) == 300
    with pytest.raises(PgnError, match=r"cannot read PGN file '.*cut\.pgn\.gz': EOFError"):
        read_pgn(cut)
    with pytest.raises(PgnError, match=r"plain\.pgn\.gz': BadGzipFile"):
        read_pgn(plain.rename(tmp_path / "plain.pgn.gz"))


def test_tune_refuses_a_missing_pgn_an_illegal_move_and_a_pgn_without_results(tmp_path, capsys):
    out = str(tmp_path / "w.json")
    assert main(["tune", "--pgn", str(tmp_path / "none.pgn"), "--out", out]) == 2
    illegal = tmp_path / "illegal.pgn"
    illegal.write_text('[Event "a"]\n[Result "1-0"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n')
    assert main(["tune", "--pgn", str(illegal), "--out", out]) == 2
    unfinished = tmp_path / "unfinished.pgn"
    unfinished.write_text('[Event "a"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n')
    assert main(["tune", "--pgn", str(unfinished), "--out", out]) == 2
    errors = capsys.readouterr().err
    assert "no PGN file at" in errors and "none.pgn" in errors
    assert "game 1, ply 3: 'Ke3' is not a legal move" in errors
    assert "no quiet positions with a result were found" in errors
    assert not Path(out).exists()


def test_distinct_keeps_each_position_once_with_its_mean_result_and_samples_by_hash():
    start, after_e4 = ChessGame(), ChessGame()
    after_e4.push(after_e4.parse_move("e2e4"))
    later = start.to_string().replace(" 0 1", " 0 9")  # the same position, a later move
    samples = [(start.to_string(), 1.0, None), (after_e4.to_string(), 0.0, None),
               (later, 0.0, None), (start.to_string(), 0.5, None)]  # fmt: skip
    kept = texel.distinct(samples, 1.0)
    assert [(fen, r) for fen, r, _ in kept] == [(start.to_string(), 0.5),
                                                (after_e4.to_string(), 0.0)]  # fmt: skip
    rng = random.Random(5)
    many = []
    for _ in range(30):
        position = ChessGame()
        for _ in range(20):
            position.push(rng.choice(position.legal_moves()))
            many.append((position.to_string(), 1.0, None))
    everything = texel.distinct(many, 1.0)
    half = texel.distinct(many, 0.5)
    fens = {fen for fen, _, _ in half}
    assert 0.35 * len(everything) < len(half) < 0.65 * len(everything)
    assert fens == {fen for fen, _, _ in texel.distinct(list(reversed(many)), 0.5)}
    with pytest.raises(InvalidOptionError, match="--sample"):
        texel.distinct(many, 0.0)


def test_search_scores_are_the_default_search_to_the_depth_in_any_number_of_processes(
    monkeypatch,
):
    samples = [(fen, 0.5, None) for fen in POSITIONS[1:4]]
    alone = texel.search_scores(samples, 2)  # one chunk: one searcher for all three
    catalog = load_catalog()
    game = catalog.game("chess")
    expected = [  # a fresh searcher per position
        catalog.searcher(game.play_searcher)
        .search(ChessGame(fen), catalog.playing_evaluator(game), Limit(depth=2))
        .value
        for fen, _, _ in samples
    ]
    assert [score for _, _, score in alone] == expected
    monkeypatch.setattr(texel, "LABEL_CHUNK", 1)  # a task per position: two processes share them
    assert texel.search_scores(samples, 2, concurrency=2) == alone


def test_a_labels_journal_keeps_every_finished_chunk_and_a_rerun_searches_only_the_rest(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(texel, "LABEL_CHUNK", 2)
    samples = [(fen, 0.5, None) for fen in POSITIONS[:5]]
    searched = []
    real_chunk = texel._search_chunk

    def counted(fens, depth):
        searched.extend(fens)
        if len(searched) > 4:
            raise KeyboardInterrupt  # Ctrl-C during the third chunk
        return real_chunk(fens, depth)

    monkeypatch.setattr(texel, "_search_chunk", counted)
    journal = tmp_path / "labels.txt"
    with pytest.raises(texel.LabellingInterrupted, match=r"4 of 5 positions scored"):
        texel.search_scores(samples, 2, journal=journal)
    assert len(journal.read_text().splitlines()) == 4  # two chunks were finished
    with journal.open("a") as handle:
        handle.write(f"2 {POSITIONS[4]} 1")  # a line a killed run cut short
    searched.clear()
    monkeypatch.setattr(texel, "_search_chunk", real_chunk)
    resumed = texel.search_scores(samples, 2, journal=journal)
    assert resumed == texel.search_scores(samples, 2)
    assert len(journal.read_text().splitlines()) == 5  # the cut line dropped, the fifth added
    assert texel.search_scores(samples, 3, journal=journal) == texel.search_scores(samples, 3)
    assert len(journal.read_text().splitlines()) == 10  # another depth is searched anew
    with pytest.raises(InvalidOptionError, match="cannot write the labels journal"):
        texel.search_scores(samples, 2, journal=tmp_path / "no-such-dir" / "labels.txt")
    journal.write_text(f"2 {POSITIONS[0]} many\n2 {POSITIONS[1]} 5\n")
    with pytest.raises(InvalidOptionError, match=r"labels\.txt:1: not a labels journal line"):
        texel.search_scores(samples, 2, journal=journal)


def killed_worker_chunk(fens, depth, marker):
    """A labelling chunk whose process is killed: every time without a ``marker`` file, the
    first time only with one (it creates the file)."""
    if marker is None or not os.path.exists(marker):
        if marker is not None:
            open(marker, "w").close()
        os._exit(9)
    return texel._search_chunk(fens, depth)


def test_a_labelling_whose_process_is_killed_goes_on_on_a_new_pool_and_loses_nothing(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(texel, "LABEL_CHUNK", 1)
    samples = [(fen, 0.5, None) for fen in POSITIONS[:5]]
    expected = texel.search_scores(samples, 2)
    journal = tmp_path / "labels.txt"
    marker = str(tmp_path / "killed-once")
    monkeypatch.setattr(texel, "_search_chunk", partial(killed_worker_chunk, marker=marker))
    assert texel.search_scores(samples, 2, concurrency=2, journal=journal) == expected
    assert os.path.exists(marker)
    assert len(journal.read_text().splitlines()) == 5
    monkeypatch.setattr(texel, "_search_chunk", partial(killed_worker_chunk, marker=None))
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:2]))
    with pytest.raises(ArenaError, match=r"pool died 4 times; 2 of 5 positions scored \(0 by"):
        texel.search_scores(samples, 2, concurrency=2, journal=journal)
    assert len(journal.read_text().splitlines()) == 2


def test_tune_stopped_by_ctrl_c_says_how_many_scores_it_kept_and_where(
    monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(texel, "LABEL_CHUNK", 2)
    real_chunk = texel._search_chunk
    calls = []

    def stopped_after_one_chunk(fens, depth):
        calls.append(fens)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return real_chunk(fens, depth)

    monkeypatch.setattr(texel, "_search_chunk", stopped_after_one_chunk)
    data, journal = tmp_path / "p.epd", tmp_path / "labels.txt"
    data.write_text("".join(f"{fen} [0.5];\n" for fen in POSITIONS[:5]))
    argv = ["tune", "--positions", str(data), "--label-depth", "2", "--blend", "0.5",
            "--out", str(tmp_path / "w.json")]  # fmt: skip
    assert main([*argv, "--labels", str(journal)]) == 130
    err = capsys.readouterr().err
    assert f"interrupted: 2 of 5 positions scored (2 by this run), kept in '{journal}'" in err
    assert len(journal.read_text().splitlines()) == 2
    calls.clear()  # the rerun starts after the journal's two: stopped again at its second chunk
    assert main([*argv, "--labels", str(journal)]) == 130
    assert "4 of 5 positions scored (2 by this run)" in capsys.readouterr().err
    calls.clear()
    assert main(argv) == 130
    assert "2 of 5 positions scored (2 by this run), not kept (--labels FILE keeps them)" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "w.json").exists()


def test_an_external_engine_labels_to_the_depth_alfabeta_uci_as_its_own_search_does(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(texel, "LABEL_CHUNK", 2)
    samples = [(fen, 0.5, None) for fen in POSITIONS[1:4]]
    engine = f"{sys.executable} -m alfabeta.cli uci"
    journal = tmp_path / "labels.txt"
    labelled = texel.search_scores(samples, 2, 2, journal, engine=engine)
    assert labelled == texel.search_scores(samples, 2)
    tag = texel.journal_tag(2, engine)
    assert tag.startswith("2/") and " " not in tag
    assert {line.split()[0] for line in journal.read_text().splitlines()} == {tag}
    # the journal's engine labels are not alfabeta's own at that depth: those are searched
    assert texel.read_journal(journal, "2") == {}
    assert texel.read_journal(journal, tag) == {fen: score for fen, _, score in labelled}


def test_an_engine_that_cannot_label_is_refused_with_its_name(tmp_path, capsys):
    with pytest.raises(InvalidOptionError, match="--label-engine 'no-such-engine': cannot start"):
        texel.search_scores([(POSITIONS[0], 0.5, None)], 1, engine="no-such-engine")
    silent = tmp_path / "silent.py"  # says uciok and readyok, then nothing but bestmove
    silent.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    answer = {'uci': 'uciok', 'isready': 'readyok', 'go': 'bestmove e2e4'}.get(word)\n"
        "    if answer: print(answer, flush=True)\n"
        "    if word == 'quit': break\n"
    )
    with pytest.raises(InvalidOptionError, match="gave no score for"):
        texel.search_scores([(POSITIONS[0], 0.5, None)], 1, engine=f"{sys.executable} {silent}")
    argv = ["tune", "--positions", "x.epd", "--out", str(tmp_path / "w.json")]
    assert main([*argv, "--label-depth", "1", "--label-engine", "no-such-engine"]) == 2
    assert "--label-engine 'no-such-engine': cannot start" in capsys.readouterr().err
    assert main([*argv, "--label-engine", "stockfish"]) == 2
    assert "--label-engine needs --label-depth" in capsys.readouterr().err


def test_blended_targets_mix_results_with_the_search_scores_expected_result():
    start = ChessGame().to_string()  # POSITIONS[4]: black to move, the score is black's
    positions = texel.labelled([(start, 1.0, 100), (POSITIONS[4], 0.0, 100)])
    assert positions.searched.tolist() == [100.0, -100.0]
    k = 0.006
    expected = [0.25 + 0.75 / (1 + math.exp(-0.6)), 0.75 / (1 + math.exp(0.6))]
    assert texel.targets(positions, k, 0.25).tolist() == pytest.approx(expected)
    assert texel.targets(positions, k, 1.0).tolist() == [1.0, 0.0]
    unsearched = texel.labelled([(start, 1.0, None)])
    with pytest.raises(InvalidOptionError, match="--label-depth"):
        texel.targets(unsearched, k, 0.5)


def test_tune_labels_by_search_writes_the_scores_and_refits_the_same_from_them(
    games_db, tmp_path, capsys
):
    data, out, again = tmp_path / "d.epd", tmp_path / "w.json", tmp_path / "again.json"
    argv = ["tune", "--epochs", "20", "--blend", "0.5", "--holdout", "0.25"]
    journal = tmp_path / "labels.txt"
    assert main([*argv, "--games", str(games_db), "--sample", "0.5", "--label-depth", "1",
                 "--concurrency", "2", "--labels", str(journal), "--data", str(data),
                 "--out", str(out)]) == 0  # fmt: skip
    lines = data.read_text().splitlines()
    assert lines and all(" ce " in line for line in lines)
    assert len(journal.read_text().splitlines()) == len(lines)  # distinct positions: one each
    first = texel.search_scores(list(texel.epd_positions([data]))[:1], 1)[0]
    assert f" ce {first[2]};" in lines[0]
    # alfabeta's own UCI engine as the external labeller: the same scores
    by_engine, uci = tmp_path / "e.epd", f"{sys.executable} -m alfabeta.cli uci"
    assert main([*argv, "--games", str(games_db), "--sample", "0.5", "--label-depth", "1",
                 "--label-engine", uci, "--concurrency", "2", "--data", str(by_engine),
                 "--out", str(again)]) == 0  # fmt: skip
    assert by_engine.read_text() == data.read_text()
    assert main([*argv, "--positions", str(data), "--out", str(again)]) == 0
    fitted, refitted = json.loads(out.read_text()), json.loads(again.read_text())
    assert fitted["mg"] == refitted["mg"] and fitted["blend"] == 0.5
    results_only = tmp_path / "results.json"
    assert main(["tune", "--epochs", "20", "--positions", str(data), "--out",
                 str(results_only)]) == 0  # fmt: skip
    assert json.loads(results_only.read_text())["mg"] != fitted["mg"]
    capsys.readouterr()
    assert main(["tune", "--games", str(games_db), "--blend", "0.5", "--out", str(out)]) == 2
    assert "--label-depth" in capsys.readouterr().err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--blend", "1.5"], "--blend"),
        (["--sample", "0"], "--sample"),
        (["--label-depth", "0"], "--label-depth"),
        (["--labels", "j.txt"], "add --label-depth"),
        (["--out", "/no-such-dir/w.json"], "cannot write '/no-such-dir/w.json'"),
        (["--label-depth", "1", "--labels", "/no-such-dir/j.txt"], "cannot write"),
    ],
)
def test_impossible_labelling_options_are_refused_before_the_data_is_read(
    tmp_path, capsys, extra, message
):
    argv = ["tune", "--positions", str(tmp_path / "x.epd"), "--out", str(tmp_path / "w.json")]
    assert main([*argv, *extra]) == 2
    assert message in capsys.readouterr().err


def test_epd_results_may_be_shares_but_not_beyond_one(tmp_path):
    good, bad = tmp_path / "good.epd", tmp_path / "bad.epd"
    good.write_text("8/5k2/8/3P4/8/8/5K2/8 b - - [0.75]; ce -40;\n")
    assert [(r, s) for _, r, s in texel.epd_positions([good])] == [(0.75, -40)]
    bad.write_text('8/5k2/8/3P4/8/8/5K2/8 b - - c9 "2-0";\n')
    with pytest.raises(InvalidOptionError, match=r"bad\.epd:1"):
        list(texel.epd_positions([bad]))
    bad.write_text("8/5k2/8/3P4/8/8/5K2/8 b - - [1.5];\n")
    with pytest.raises(InvalidOptionError, match="not in 0"):
        list(texel.epd_positions([bad]))


def test_an_unreadable_epd_file_or_labels_journal_is_refused_with_its_name(tmp_path):
    text = "8/5k2/8/3P4/8/8/5K2/8 b - - [0.75];\n" * 2000
    cut, squeezed = tmp_path / "cut.epd.gz", gzip.compress(text.encode())
    cut.write_bytes(squeezed[: len(squeezed) // 2])
    (tmp_path / "plain.epd.gz").write_text(text)
    (tmp_path / "binary.epd").write_bytes(b"8/5k2/8/3P4/8/8/5K2/8 b - - [\xff];\n")
    for name, error in [
        ("cut.epd.gz", "EOFError"),
        ("plain.epd.gz", "BadGzipFile"),
        ("binary.epd", "UnicodeDecodeError"),
    ]:
        with pytest.raises(
            InvalidOptionError, match=rf"{name}' is not readable EPD text \({error}"
        ):
            list(texel.epd_positions([tmp_path / name]))
    journal = tmp_path / "labels.txt"
    journal.write_bytes(f"2 {POSITIONS[0]} 5\n".encode() + b"2 \xfe\n")
    with pytest.raises(InvalidOptionError, match=r"labels\.txt' is not a labels journal"):
        texel.read_journal(journal, "2")
