"""The tuned evaluator's residual network: the evaluator computes what the reference computes,
keeps the colour symmetry, refuses a network that does not fit, and the fit learns what the
linear score cannot say."""

import json
import random

import numpy as np
import pytest
from conftest import random_game_positions

from alfabeta.cli import main
from alfabeta.core import InvalidOptionError
from alfabeta.evaluators.tuned import (
    ATTACK_INPUTS,
    Tuned,
    attack_inputs,
    default_weights_path,
    load_net,
    load_weights,
)
from alfabeta.games.chess.board import ChessGame
from alfabeta.learning import residual, texel


def random_positions(count, seed):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = ChessGame()
        for _ in range(rng.randrange(4, 120)):
            moves = position.legal_moves()
            if not moves or position.is_over():
                break
            position.push(rng.choice(moves))
        positions.append(position)
    return positions


def random_net(hidden, seed, buckets=1, king_buckets=1, activation="crelu"):
    rng = np.random.default_rng(seed)
    king_map = residual.KING_BUCKETS[king_buckets]
    return {
        "hidden": hidden,
        "activation": activation,
        "buckets": buckets,
        "king_buckets": np.array(king_map),
        "input": rng.integers(-960, 961, size=(king_buckets * texel.NET_INPUTS, hidden)),
        "bias": rng.integers(-2047, 2048, size=hidden),
        "output": rng.integers(-300, 301, size=2 * hidden * buckets),
        "offset": 7,
    }


def weights_with(net, path):
    data = json.loads(default_weights_path().read_text())
    data["net"] = {
        "hidden": net["hidden"],
        "activation": net["activation"],
        "buckets": net["buckets"],
        "king_buckets": [int(v) for v in net["king_buckets"]],
        "offset": net["offset"],
        "input": [int(v) for v in np.ravel(net["input"])],
        "bias": [int(v) for v in net["bias"]],
        "output": [int(v) for v in net["output"]],
    }
    if net.get("attacks") is not None:
        data["net"]["attacks"] = [int(v) for v in np.ravel(net["attacks"])]
    path.write_text(json.dumps(data))
    return str(path)


def linear_only(path=None):
    """The linear weights of a file (None: the shipped file) without its network."""
    evaluator = Tuned(weights=path)
    evaluator.set_net(None)
    return evaluator


def assert_the_evaluator_adds_the_reference(path, positions):
    """``tuned`` playing the weights file ``path`` adds to its linear score exactly what the
    reference computes for the file's network."""
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    attacks = np.array([attack_inputs(p) for p in positions])
    played, linear = Tuned(weights=path), linear_only(path)
    got = [played.evaluate(p) - linear.evaluate(p) for p in positions]
    assert got == residual.scores(load_net(path), rows, mover, attacks).tolist()


@pytest.mark.parametrize("activation", ["crelu", "screlu"])
def test_the_evaluator_adds_the_network_the_reference_computes(tmp_path, activation):
    net = random_net(12, seed=3, activation=activation)
    with_net, linear = Tuned(weights=weights_with(net, tmp_path / "net.json")), linear_only()
    positions = random_positions(300, seed=5)
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    expected = residual.scores(net, rows, mover)
    got = [with_net.evaluate(p) - linear.evaluate(p) for p in positions]
    assert got == expected.tolist()
    assert len(set(got)) > 100  # the network tells the positions apart


def test_screlu_squares_each_clipped_sum_before_the_output_weights(tmp_path):
    # the same weights score otherwise squared; at the widest network and the largest
    # weights (every unit saturated) the evaluator's integer sum still matches the reference
    net = random_net(16, seed=51, activation="screlu")
    positions = random_positions(200, seed=52)
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    squared = residual.scores(net, rows, mover)
    assert squared.tolist() != residual.scores({**net, "activation": "crelu"}, rows, mover).tolist()
    clipped = np.array([[0, 512, 1024, 100]])
    assert residual.activated(clipped, net).tolist() == [[0, 256, 1024, 9]]
    widest = {
        **random_net(256, seed=53, activation="screlu"),
        "bias": np.full(256, 2047),
        "input": np.zeros((768, 256), dtype=int),
        "output": np.full(512, 2047),
    }
    path = weights_with(widest, tmp_path / "widest.json")
    assert_the_evaluator_adds_the_reference(path, positions[:20])
    assert residual.scores(widest, rows[:1], mover[:1])[0] == 512 * 2047 + 7


def test_each_bucket_of_output_weights_scores_its_piece_counts(tmp_path):
    # 8 buckets of 4 piece counts each; the evaluator picks the one the reference picks
    net = random_net(8, seed=31, buckets=8)
    with_net, linear = Tuned(weights=weights_with(net, tmp_path / "net.json")), linear_only()
    positions = random_positions(300, seed=32)
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    buckets = residual.output_bucket(rows, 8)
    assert set(buckets.tolist()) >= {4, 5, 6, 7}
    pieces = [sum(c.isalpha() for c in p.to_string().split()[0]) for p in positions]
    assert buckets.tolist() == [(count - 1) // 4 for count in pieces]
    got = [with_net.evaluate(p) - linear.evaluate(p) for p in positions]
    assert got == residual.scores(net, rows, mover).tolist()
    # the same weights in one bucket score differently: the bucket's weights are used
    single = {**net, "buckets": 1, "output": net["output"][:16]}
    assert got != residual.scores(single, rows, mover).tolist()


def test_each_king_bucket_gives_its_view_its_own_input_rows(tmp_path):
    # 4 sets of input rows, chosen by each view's own king; along games (kings crossing
    # from set to set) the evaluator's updated sums are the reference's
    net = random_net(8, seed=41, king_buckets=4)
    path = weights_with(net, tmp_path / "net.json")
    positions, rng = random_game_positions(8, 120, seed=42), random.Random(42)
    walk = positions + positions[::-1] + rng.sample(positions, 200)
    rows = np.array([texel.input_rows(p.to_string()) for p in walk], dtype=np.int16)
    mover = np.array([p.side_to_move for p in walk])
    king_map = residual.king_map(net)
    white = residual.king_rows(rows, king_map) // texel.NET_INPUTS
    black = residual.king_rows(residual.mirrored(rows), king_map) // texel.NET_INPUTS
    assert {int(row[0]) for row in white} == {0, 1, 2, 3} and len({*black[:, 0]}) >= 3
    evaluator, linear = Tuned(weights=path), linear_only()
    got = [evaluator.evaluate(p) - linear.evaluate(p) for p in walk]
    assert got == residual.scores(net, rows, mover).tolist()
    assert got == [Tuned(weights=path).evaluate(p) - linear.evaluate(p) for p in walk]
    # the same weights read as one set score differently: the sets are used
    single = {**net, "king_buckets": np.zeros(64, dtype=int), "input": net["input"][:768]}
    assert got != residual.scores(single, rows, mover).tolist()
    for position in walk[:100]:
        assert evaluator.evaluate(position) == evaluator.evaluate(position.mirror())


def test_king_rows_move_a_view_to_its_own_kings_set():
    # white's king on g1: the kingside set of its first two ranks (1); black's, on b8, seen
    # from black's side as b1: the queenside's (0); the padding goes after the last set
    rows = np.array([texel.input_rows("1k6/8/8/8/8/8/5PPP/6K1 w - - 0 1")], dtype=np.int16)
    king_map = np.array(residual.KING_BUCKETS[4])
    white = residual.king_rows(rows, king_map)[0]
    assert white.tolist() == [r + 768 for r in rows[0][:5]] + [4 * 768] * 27
    black = residual.king_rows(residual.mirrored(rows), king_map)[0]
    assert black.tolist() == residual.mirrored(rows)[0][:5].tolist() + [4 * 768] * 27
    walked = np.array([texel.input_rows("8/8/8/8/8/1k6/6K1/8 w - - 0 1")], dtype=np.int16)
    assert residual.king_rows(walked, king_map)[0][0] // 768 == 1  # g2: still at home
    assert residual.king_rows(residual.mirrored(walked), king_map)[0][0] // 768 == 2  # b6


def test_the_reference_scores_the_same_in_chunks_of_any_size(monkeypatch):
    net = random_net(8, seed=13)
    positions = random_positions(50, seed=14)
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    whole = residual.scores(net, rows, mover)
    monkeypatch.setattr(residual, "SCORE_CHUNK", 7)
    assert residual.scores(net, rows, mover).tolist() == whole.tolist()
    assert residual.scores(net, rows[:0], mover[:0]).tolist() == []


def test_a_score_updated_from_the_last_position_is_the_score_summed_afresh(tmp_path):
    # along games, and back, each score updates the last one's sums by the pieces that moved
    # (a few); a new evaluator for each position sums them all
    net = random_net(24, seed=11)
    path = weights_with(net, tmp_path / "net.json")
    positions, rng = random_game_positions(6, 100, seed=3), random.Random(3)
    walk = positions + positions[::-1] + rng.sample(positions, 200)
    evaluator = Tuned(weights=path)
    updated = [evaluator.evaluate(p) for p in walk]
    assert updated == [Tuned(weights=path).evaluate(p) for p in walk]
    rows = np.array([texel.input_rows(p.to_string()) for p in walk], dtype=np.int16)
    mover = np.array([p.side_to_move for p in walk])
    linear = linear_only()
    assert [u - linear.evaluate(p) for u, p in zip(updated, walk, strict=True)] == residual.scores(
        net, rows, mover
    ).tolist()


def test_a_colour_flipped_position_scores_the_same_with_a_network(tmp_path):
    evaluator = Tuned(weights=weights_with(random_net(16, seed=4), tmp_path / "net.json"))
    for position in random_positions(100, seed=6):
        assert evaluator.evaluate(position) == evaluator.evaluate(position.mirror())


def test_explain_gives_the_network_its_share(tmp_path):
    evaluator = Tuned(weights=weights_with(random_net(8, seed=2), tmp_path / "net.json"))
    position = random_positions(1, seed=9)[0]
    shares = evaluator.explain(position)
    linear = linear_only().evaluate(position)
    assert shares["network"] == evaluator.evaluate(position) - linear != 0
    assert round(sum(shares.values())) == evaluator.evaluate(position)


def test_attack_inputs_count_each_sides_attack_on_the_enemy_king():
    # white's knight on g5 attacks f7 and h7 of black's king's zone, its bishop on c4 f7:
    # two attackers, no safe check, no weak square; black's bishop on c5 attacks f2, which
    # only white's king holds (a weak square)
    fen = "r1bq1rk1/pppp1ppp/2n2n2/2b1p1N1/2B1P3/8/PPPP1PPP/RNBQK2R w KQ - 0 1"
    white = [0, 2, 1, 0, 0, 2, 0, 0]
    black = [0, 0, 1, 0, 0, 1, 0, 1]
    assert attack_inputs(ChessGame(fen)).tolist() == white + black
    assert attack_inputs(ChessGame(fen).mirror()).tolist() == black + white
    # the queen can check safely on d8, and attacks none of the zone's squares
    checks = attack_inputs(ChessGame("6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1"))
    assert checks.tolist() == [0, 0, 0, 0, 0, 0, 1, 0] + [0] * 8
    # the pawns on f6 and h6 both attack g7 (counted once; f6's e7 is outside the zone),
    # which only black's king holds: a weak square
    storm = attack_inputs(ChessGame("6k1/5p1p/5PpP/8/8/8/8/6K1 w - - 0 1"))
    assert storm[: ATTACK_INPUTS // 2].tolist() == [1, 0, 0, 0, 0, 0, 0, 1]


@pytest.mark.parametrize("activation", ["crelu", "screlu"])
def test_the_evaluator_adds_the_attack_rows_the_reference_computes(tmp_path, activation):
    # each view adds its own side's attack first; along games the evaluator's sums (pieces
    # updated, attacks added per score) are the reference's, and differ from the network
    # without its attack rows
    net = random_net(12, seed=61, king_buckets=4, activation=activation)
    net["attacks"] = np.random.default_rng(62).integers(-960, 961, size=(ATTACK_INPUTS, 12))
    path = weights_with(net, tmp_path / "net.json")
    positions = random_game_positions(6, 100, seed=63)
    assert_the_evaluator_adds_the_reference(path, positions)
    rows = np.array([texel.input_rows(p.to_string()) for p in positions], dtype=np.int16)
    mover = np.array([p.side_to_move for p in positions])
    attacks = np.array([attack_inputs(p) for p in positions])
    with_attacks = residual.scores(net, rows, mover, attacks)
    without = residual.scores({**net, "attacks": None}, rows, mover)
    assert np.mean(with_attacks != without) > 0.5
    evaluator = Tuned(weights=path)
    for position in positions[::25]:
        assert evaluator.evaluate(position) == evaluator.evaluate(position.mirror())
        assert evaluator.explain(position)["network"] == (
            evaluator.evaluate(position) - linear_only().evaluate(position)
        )
    with pytest.raises(ValueError, match="attack inputs"):
        residual.scores(net, rows, mover)


def test_input_rows_number_the_pieces_by_colour_kind_and_square():
    rows = texel.input_rows("4k3/8/8/8/8/8/8/R3K2n w - - 0 1")
    assert rows[:4] == [384 + 5 * 64 + 60, 3 * 64 + 0, 5 * 64 + 4, 384 + 64 + 7]
    assert rows[4:] == [texel.NET_INPUTS] * 28
    assert residual.mirrored(np.array(rows[:4])).tolist() == [
        5 * 64 + 4,
        384 + 3 * 64 + 56,
        384 + 5 * 64 + 60,
        64 + 63,
    ]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"hidden": 0}, "1 to 256 hidden units"),
        ({"hidden": 300}, "1 to 256 hidden units"),
        ({"bias": [1, 2]}, "hidden bias"),
        ({"input": [961] * (768 * 4)}, "input weights within ±960"),
        ({"bias": [2048] * 4}, "hidden biases within ±2047"),
        ({"output": [2048] * 8}, "output weights within ±2047"),
        ({"offset": 1.5}, "integer offset"),
        ({"output": "none"}, "2 × hidden output weights"),
        ({"bias": [0.5, 1, 2, 3]}, "all integers"),
        ({"buckets": 9, "output": [0] * 72}, "1 to 8 buckets"),
        ({"buckets": 0, "output": []}, "1 to 8 buckets"),
        ({"buckets": 2}, "buckets × 2 × hidden output weights"),
        ({"king_buckets": [1] * 64}, "king sets × 768 × hidden input weights"),
        ({"king_buckets": [0] * 63}, "king_buckets must be 64 integers"),
        ({"king_buckets": [8] * 64}, "from 0 to 7"),
        ({"king_buckets": [-1] * 64}, "from 0 to 7"),
        ({"king_buckets": "wing"}, "king_buckets must be 64 integers"),
        ({"activation": "relu"}, "activation must be one of 'crelu', 'screlu', not 'relu'"),
        ({"attacks": [0] * (16 * 4 - 1)}, "16 × hidden attack weights"),
        ({"attacks": [961] * (16 * 4)}, "within ±960 \\(as any 16 × hidden attack weights"),
        ({"attacks": [0.5] * (16 * 4)}, "all integers"),
    ],
)
def test_a_network_that_does_not_fit_is_refused_with_the_file_named(tmp_path, change, message):
    path = weights_with(random_net(4, seed=1), tmp_path / "net.json")
    data = json.loads((tmp_path / "net.json").read_text())
    data["net"].update(change)
    (tmp_path / "net.json").write_text(json.dumps(data))
    with pytest.raises(InvalidOptionError, match=message) as refused:
        Tuned(weights=path)
    assert "net.json" in str(refused.value)


def test_a_network_that_is_not_an_object_or_lacks_an_entry_cannot_be_read(tmp_path):
    data = json.loads(default_weights_path().read_text())
    data["net"] = [1, 2, 3]
    (tmp_path / "net.json").write_text(json.dumps(data))
    with pytest.raises(
        InvalidOptionError, match=r"net\.json.*cannot read the network \(it is not a JSON object\)"
    ):
        Tuned(weights=str(tmp_path / "net.json"))
    data["net"] = {"input": [], "bias": [], "output": [], "offset": 0}
    (tmp_path / "net.json").write_text(json.dumps(data))
    with pytest.raises(InvalidOptionError, match=r"the network \(it has no 'hidden' entry\)"):
        Tuned(weights=str(tmp_path / "net.json"))


def test_the_shipped_weights_and_prior_load_their_network_or_none():
    shipped = json.loads(default_weights_path().read_text())
    assert (load_net() is None) == ("net" not in shipped)
    assert load_net("prior") is None


@pytest.mark.parametrize("activation", ["crelu", "screlu"])
def test_the_fit_learns_what_the_linear_score_cannot_say(activation):
    # the targets add 200 centipawns for white when white's queen and a white knight stand
    # on the same half of the board: no sum of per-piece terms says that, a network can
    samples = [(p.to_string(), 0.5, None) for p in random_positions(2000, seed=8)]
    data = texel.labelled(samples)
    queen, knight = 4 * 64, 1 * 64  # white's rows: kind × 64 + square

    def together(rows):
        queens = [r - queen for r in rows if queen <= r < queen + 64]
        knights = [r - knight for r in rows if knight <= r < knight + 64]
        return bool(queens) and any((queens[0] & 7) // 4 == (n & 7) // 4 for n in knights)

    bonus = np.array([200.0 if together(rows) else 0.0 for rows in data.pieces.tolist()])
    assert 0.2 < np.mean(bonus > 0) < 0.8
    k, linear = 0.005, np.zeros(len(samples))
    goal = 1 / (1 + np.exp(-k * bonus))
    before = residual.net_loss(None, data.pieces, data.mover, linear, goal, k)
    net, losses = residual.fit_net(
        data.pieces,
        data.mover,
        linear,
        goal,
        k,
        hidden=16,
        epochs=200,
        rate=3e-3,
        decay=0.0,
        activation=activation,
    )
    assert losses[-1] < 0.3 * before
    assert residual.net_loss(net, data.pieces, data.mover, linear, goal, k) == losses[-1]


def test_the_fit_learns_the_attack_on_the_king_from_the_attack_inputs():
    # the targets add 150 centipawns per white piece attacking black's king's zone and take
    # as many off per black piece attacking white's: the pieces' squares say it roughly, the
    # attack inputs exactly; their rows start at 0, so the fit starts where the other does
    data = texel.labelled([(p.to_string(), 0.5, None) for p in random_positions(2000, seed=71)])
    bonus = 150.0 * (data.attacks[:, 5].astype(float) - data.attacks[:, ATTACK_INPUTS // 2 + 5])
    assert 0.2 < np.mean(bonus != 0) < 0.8
    k, linear = 0.005, np.zeros(len(data))
    goal = 1 / (1 + np.exp(-k * bonus))
    losses = {}
    for name, attacks in (("pieces", None), ("attacks", data.attacks)):
        net, losses[name] = residual.fit_net(
            data.pieces, data.mover, linear, goal, k, 16, 40, rate=3e-3, decay=0.0, attacks=attacks
        )
    assert losses["attacks"][-1] < 0.5 * losses["pieces"][-1]
    assert net["attacks"].shape == (ATTACK_INPUTS, 16) and np.abs(net["attacks"]).max() > 0
    assert (
        residual.net_loss(net, data.pieces, data.mover, linear, goal, k, data.attacks)
        == (losses["attacks"][-1])
    )


def test_the_fit_is_the_same_from_the_same_seed():
    data = texel.labelled([(p.to_string(), 0.5, None) for p in random_positions(500, seed=4)])
    goal = np.linspace(0.2, 0.8, len(data))
    inputs, linear = texel.net_inputs(data), np.zeros(len(data))
    fits = [residual.fit_net(*inputs, linear, goal, 0.005, 8, 3, seed=s)[0] for s in (1, 1, 2)]
    assert all(np.array_equal(fits[0][part], fits[1][part]) for part in ("input", "bias", "output"))
    assert not np.array_equal(fits[0]["input"], fits[2]["input"])


def test_tune_refuses_an_impossible_network_before_the_data_is_read(tmp_path, capsys):
    argv = ["tune", "--positions", str(tmp_path / "missing.epd"), "--out", str(tmp_path / "w")]
    assert main([*argv, "--net", "300"]) != 0
    assert "--net" in capsys.readouterr().err
    assert main([*argv, "--net", "8", "--net-epochs", "0"]) != 0
    assert "--net-epochs" in capsys.readouterr().err
    assert main([*argv, "--net-positions", str(tmp_path / "more.epd")]) != 0
    assert "--net-positions needs --net" in capsys.readouterr().err
    assert main([*argv, "--net-attacks"]) != 0
    assert "--net-attacks needs --net" in capsys.readouterr().err
    for decay in ("1", "-0.1"):
        assert main([*argv, "--net", "8", "--net-decay", decay]) != 0
        assert "--net-decay" in capsys.readouterr().err
    for buckets in ("0", "9"):
        assert main([*argv, "--net", "8", "--net-buckets", buckets]) != 0
        assert "--net-buckets" in capsys.readouterr().err
    assert main([*argv, "--net", "8", "--net-king-buckets", "3"]) != 0
    assert "--net-king-buckets" in capsys.readouterr().err
    assert main([*argv, "--net", "8", "--net-activation", "relu"]) != 0
    assert "--net-activation must be one of crelu, screlu" in capsys.readouterr().err


def write_epd(path, positions, scored=True):
    """Positions with a result each (a third of them each result) and, when ``scored``, a
    score."""
    lines = [
        f"{' '.join(p.to_string().split()[:4])} [{i % 3 / 2}];"
        + (f" ce {(i * 37) % 201 - 100};" if scored else "")
        for i, p in enumerate(positions)
    ]
    path.write_text("\n".join(lines) + "\n")


def test_tune_with_a_network_writes_it_and_the_evaluator_plays_it(tmp_path, capsys):
    data, out = tmp_path / "positions.epd", tmp_path / "w.json"
    positions = random_positions(400, seed=12)
    write_epd(data, positions, scored=False)
    argv = ["tune", "--positions", str(data), "--out", str(out), "--epochs", "20"]
    assert main([*argv, "--net", "4", "--net-epochs", "3", "--holdout", "0.2"]) == 0
    printed = capsys.readouterr().out
    assert "residual network of 4 hidden units" in printed and "held-out" in printed
    written = json.loads(out.read_text())
    assert written["net"]["hidden"] == 4 and len(written["net_losses"]) == 3
    assert written["net_held_out_loss"] is not None and written["net_epochs"] == 3
    assert "attacks" not in written["net"]
    assert_the_evaluator_adds_the_reference(str(out), positions)


def test_tune_with_net_attacks_writes_their_rows_and_the_evaluator_plays_them(tmp_path, capsys):
    data, out = tmp_path / "positions.epd", tmp_path / "w.json"
    positions = random_positions(400, seed=13)
    write_epd(data, positions, scored=False)
    argv = ["tune", "--positions", str(data), "--out", str(out), "--epochs", "20", "--net", "4"]
    assert main([*argv, "--net-epochs", "3", "--net-attacks", "--holdout", "0.2"]) == 0
    assert "held-out" in capsys.readouterr().out
    written = json.loads(out.read_text())
    assert len(written["net"]["attacks"]) == ATTACK_INPUTS * 4
    assert any(written["net"]["attacks"])
    assert_the_evaluator_adds_the_reference(str(out), positions)


def test_the_network_alone_is_fitted_on_net_positions_too(tmp_path, capsys):
    # the linear weights and k come out the same with or without them; the network is
    # fitted, and its loss measured, on both sets
    first, more = tmp_path / "first.epd", tmp_path / "more.epd"
    write_epd(first, random_positions(300, seed=21))
    write_epd(more, random_positions(200, seed=22))
    argv = ["tune", "--positions", str(first), "--epochs", "20", "--net", "4", "--net-epochs", "2"]
    assert main([*argv, "--out", str(tmp_path / "alone.json")]) == 0
    assert main([*argv, "--net-positions", str(more), "--out", str(tmp_path / "both.json")]) == 0
    assert "fitted on 200 more positions too" in capsys.readouterr().out.splitlines()[-1]
    alone, both = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("alone", "both"))
    assert [both[key] for key in ("mg", "eg", "k", "losses", "positions")] == [
        alone[key] for key in ("mg", "eg", "k", "losses", "positions")
    ]
    assert both["net_positions"] == 200 and "net_positions" not in alone
    assert both["net"] != alone["net"]
    everything = texel.labelled(texel.epd_positions([first, more]))
    linear = texel.design(everything) @ np.array(both["mg"] + both["eg"], dtype=np.float32)
    net = load_net(str(tmp_path / "both.json"))
    inputs = texel.net_inputs(everything)
    loss = residual.net_loss(net, *inputs, linear, everything.result, both["k"])
    assert loss == pytest.approx(both["net_losses"][-1])


def test_the_weight_decay_reaches_the_fit_and_is_recorded(tmp_path, capsys):
    # a stronger decay keeps the input weights smaller; each file records its own
    data = tmp_path / "positions.epd"
    write_epd(data, random_positions(300, seed=23))
    argv = ["tune", "--positions", str(data), "--epochs", "20", "--net", "4", "--net-epochs", "3"]
    sizes = {}
    for decay in ("0", "0.5"):
        out = tmp_path / f"decay-{decay}.json"
        assert main([*argv, "--net-decay", decay, "--out", str(out)]) == 0
        written = json.loads(out.read_text())
        assert written["net_decay"] == float(decay)
        sizes[decay] = np.abs(load_net(str(out))["input"]).sum()
    assert sizes["0.5"] < 0.5 * sizes["0"]


@pytest.mark.parametrize(
    "option, value, key, stored, part, length",
    [
        ("--net-buckets", "4", "buckets", 4, "output", 4 * 2 * 4),
        ("--net-king-buckets", "2", "king_buckets", residual.KING_BUCKETS[2], "input", 2 * 768 * 4),
        ("--net-activation", "screlu", "activation", "screlu", "output", 2 * 4),
    ],
)
def test_tune_fits_buckets_that_the_evaluator_plays(
    tmp_path, option, value, key, stored, part, length
):
    data, out = tmp_path / "positions.epd", tmp_path / "w.json"
    positions = random_positions(300, seed=24)
    write_epd(data, positions)
    argv = ["tune", "--positions", str(data), "--epochs", "20", "--net", "4", "--net-epochs", "2"]
    assert main([*argv, option, value, "--out", str(out)]) == 0
    written = json.loads(out.read_text())["net"]
    assert written[key] == stored and len(written[part]) == length
    assert_the_evaluator_adds_the_reference(str(out), positions)
    # one set: no key in the file, as in files written before the option
    assert main([*argv, "--out", str(out)]) == 0
    assert key not in json.loads(out.read_text())["net"]


def test_the_network_fits_targets_of_its_own_blend(tmp_path, capsys):
    # the linear weights and k are --blend's; the network is fitted, and its loss measured,
    # on targets of --net-blend's share, which a file records
    first, more = tmp_path / "first.epd", tmp_path / "more.epd"
    write_epd(first, random_positions(300, seed=26))
    write_epd(more, random_positions(200, seed=27))
    argv = ["tune", "--positions", str(first), "--net-positions", str(more), "--blend", "0.5"]
    argv += ["--epochs", "20", "--net", "4", "--net-epochs", "2"]
    fits = {}
    for net_blend in ("0.5", "0", None):
        out = tmp_path / f"blend-{net_blend}.json"
        extra = [] if net_blend is None else ["--net-blend", net_blend]
        assert main([*argv, *extra, "--out", str(out)]) == 0
        fits[net_blend] = json.loads(out.read_text())
    assert fits["0"]["net_blend"] == 0.0 and "net_blend" not in fits[None]
    assert fits["0.5"]["net"] == fits[None]["net"]  # --blend's share unless set
    assert fits["0"]["net"] != fits["0.5"]["net"]
    assert [fits["0"][key] for key in ("mg", "eg", "k")] == [
        fits[None][key] for key in ("mg", "eg", "k")
    ]
    everything = texel.labelled(texel.epd_positions([first, more]))
    scale = texel.fit_scale(
        texel.design(texel.labelled(texel.epd_positions([first]))),
        texel.labelled(texel.epd_positions([first])).result,
        np.concatenate(load_weights("prior")).astype(np.float64),
    )
    goal = texel.targets(everything, scale, 0.0)
    linear = texel.design(everything) @ np.array(fits["0"]["mg"] + fits["0"]["eg"], np.float32)
    net = load_net(str(tmp_path / "blend-0.json"))
    loss = residual.net_loss(net, *texel.net_inputs(everything), linear, goal, fits["0"]["k"])
    assert loss == pytest.approx(fits["0"]["net_losses"][-1], abs=1e-8)


def test_a_net_blend_is_refused_without_a_network_or_a_search_score(tmp_path, capsys):
    first = tmp_path / "first.epd"
    write_epd(first, random_positions(50, seed=28), scored=False)
    argv = ["tune", "--positions", str(first), "--out", str(tmp_path / "w.json")]
    assert main([*argv, "--net-blend", "0.5"]) != 0
    assert "--net-blend needs --net" in capsys.readouterr().err
    assert main([*argv, "--net", "4", "--net-blend", "1.5"]) != 0
    assert "0 ≤ --net-blend ≤ 1" in capsys.readouterr().err
    assert main([*argv, "--net", "4", "--net-blend", "0.5"]) != 0
    assert "--net-blend below 1 needs a search score" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()


def test_a_missing_net_positions_file_is_refused_before_the_labelling(tmp_path, capsys):
    first, journal = tmp_path / "first.epd", tmp_path / "labels.txt"
    write_epd(first, random_positions(20, seed=25))
    argv = ["tune", "--positions", str(first), "--label-depth", "1", "--labels", str(journal)]
    more = ["--net", "4", "--net-positions", str(tmp_path / "more.epd")]
    assert main([*argv, *more, "--out", str(tmp_path / "w.json")]) == 2
    error = capsys.readouterr().err
    assert "no EPD file at" in error and "more.epd" in error
    assert not journal.exists() and not (tmp_path / "w.json").exists()


def test_net_positions_without_scores_are_refused_below_blend_1(tmp_path, capsys):
    first, more = tmp_path / "first.epd", tmp_path / "more.epd"
    write_epd(first, random_positions(100, seed=23))
    write_epd(more, random_positions(50, seed=24), scored=False)
    argv = ["tune", "--positions", str(first), "--net-positions", str(more), "--net", "4"]
    assert main([*argv, "--blend", "0.5", "--out", str(tmp_path / "w.json")]) != 0
    assert "--blend below 1 needs a search score" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
