"""The tuned evaluator's residual network: a small network over the pieces' squares, fitted
after the linear weights to what their score still misses (``alfabeta tune --net H``).

The network is NNUE's shape at its smallest. Each of the two views (white's, and black's
with the colours swapped and the board mirrored) sums the hidden biases and one input row per
piece (colour × kind × square: ``NET_INPUTS``); both accumulators are clipped to [0, 1] (and
squared, with the activation ``"screlu"``), the side to move's first, and the output weights
turn them into centipawns added to the linear score; with ``buckets`` > 1 the output weights
are chosen by the number of pieces on the board (``output_bucket``), as NNUE's output
buckets; with ``king_buckets`` > 1 each view has as many sets of input rows, chosen by the
square of its own king (``KING_BUCKETS``), as NNUE's king-relative inputs; with attack
inputs, each view also adds each side's attack on the other's king (``tuned.attack_inputs``,
its own side's first) times a row of its own. It learns what the linear features cannot say,
such as which pieces stand together by which king. It is fitted by minibatch Adam in floating
point (``fit_net``), then stored in fixed point (``quantized``), which is what the evaluator
computes, exactly as ``scores`` does here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from alfabeta.evaluators.tuned import ATTACK_INPUTS, NET_ACTIVATIONS
from alfabeta.learning.texel import NET_INPUTS, sigmoid

NET_ONE = 1024
"""The fixed point of the stored network: an input weight or accumulator of 1.0 is 1024."""
MAX_INPUT, MAX_BIAS, MAX_OUTPUT = 960, 2047, 2047
"""The stored weights' bounds (``tuned``'s): 32 inputs and a bias always fit an int16, and
the output's sum an int."""
OUTPUT_SCALE = 400.0
"""Centipawns per unit of the floating-point network's output (so its weights stay near 1)."""
BATCH = 4096
"""Positions per step of ``fit_net``'s Adam (a pass over N positions takes N / BATCH steps)."""
SCORE_CHUNK = 8192
"""Positions ``scores`` gathers at a time (each takes 2 × 32 × hidden int64 rows)."""
OWN_KING = 5 * 64
"""A view's input row of its own king on a1 (colour 0, kind 5): its king on square s is row
OWN_KING + s."""
_WING = [(square & 7) // 4 for square in range(64)]
KING_BUCKETS = {
    1: [0] * 64,
    2: _WING,
    4: [wing + 2 * (square >= 16) for square, wing in enumerate(_WING)],
}
"""The sets of input rows ``fit_net`` can give each view, by the number of sets: the set of
the view's own king on each square (a1 = 0, in the view's own orientation). 2: the king's
wing (files a–d, e–h); 4: its wing, and whether it stands on its first two ranks."""


def output_bucket(pieces: np.ndarray, buckets: int) -> np.ndarray:
    """Each position's output bucket (of white-view input rows, N × 32): (pieces on the board
    − 1) × ``buckets`` // 32, so that 8 buckets take 4 piece counts each, as ``tuned``'s (a
    position set up with more than 32 pieces takes the last)."""
    count = (pieces != NET_INPUTS).sum(axis=1)
    return np.minimum((count - 1) * buckets // 32, buckets - 1)


def bucket_outputs(net: dict[str, Any]) -> np.ndarray:
    """The stored network's output weights as one row of 2 × hidden per bucket."""
    return np.asarray(net["output"]).reshape(net.get("buckets", 1), 2 * net["hidden"])


def mirrored(pieces: np.ndarray) -> np.ndarray:
    """Black's view of white-view input rows: the colours swapped and the board mirrored
    (rows of ``NET_INPUTS``, the padding, stay)."""
    colour, rest = np.divmod(pieces.astype(np.int64), 384)
    view = (1 - colour) * 384 + (rest // 64) * 64 + ((rest % 64) ^ 56)
    return np.where(pieces == NET_INPUTS, NET_INPUTS, view)


def king_rows(view: np.ndarray, king_buckets: np.ndarray) -> np.ndarray:
    """A view's input rows (N × 32, padded with ``NET_INPUTS``) moved to the set of its own
    king's square (``king_buckets``: the set of each square): row + set × ``NET_INPUTS``;
    the padding becomes sets × ``NET_INPUTS``, the row after the last set's. A view without
    its king takes the first set."""
    view = view.astype(np.int64)
    sets = int(king_buckets.max()) + 1
    own_king = (view >= OWN_KING) & (view < OWN_KING + 64)
    square = np.where(own_king, view - OWN_KING, 0).max(axis=1)
    bucket = np.where(own_king.any(axis=1), king_buckets[square], 0)
    return np.where(view == NET_INPUTS, sets * NET_INPUTS, view + bucket[:, None] * NET_INPUTS)


def king_map(net: dict[str, Any]) -> np.ndarray:
    """The stored network's set of input rows for its own king on each square (all 0 when
    it has one set)."""
    return np.asarray(net.get("king_buckets", KING_BUCKETS[1]), dtype=np.int64)


def attack_views(attacks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """White's and black's view of attack inputs (N × ``ATTACK_INPUTS``, white's attack
    first): each view reads its own side's attack first."""
    half = ATTACK_INPUTS // 2
    return attacks, np.concatenate([attacks[:, half:], attacks[:, :half]], axis=1)


def _one_hot(rows: np.ndarray, width: int) -> np.ndarray:
    """(len(rows) × ``width``) indicators of the rows given (N × 32)."""
    x = np.zeros((len(rows), width), dtype=np.float32)
    x[np.arange(len(rows))[:, None], rows] = 1
    return x


def scores(
    net: dict[str, Any],
    pieces: np.ndarray,
    mover: np.ndarray,
    attacks: np.ndarray | None = None,
) -> np.ndarray:
    """The stored network's scores (centipawns, the side to move's view) of positions given
    as white-view input rows (N × 32, padded with ``NET_INPUTS``), the side to move (0
    white, 1 black) and, for a network with attack weights, their attack inputs (N ×
    ``ATTACK_INPUTS``): the evaluator's integers exactly. Computed ``SCORE_CHUNK`` positions
    at a time, so that memory does not grow with N."""
    if net.get("attacks") is not None and attacks is None:
        raise ValueError("this network reads attack inputs: give the positions' attacks")
    table = np.vstack([net["input"], np.zeros((1, net["hidden"]), dtype=np.int64)])
    buckets = king_map(net)
    parts = [
        _chunk_scores(
            net,
            table,
            buckets,
            pieces[start : start + SCORE_CHUNK],
            mover[start : start + SCORE_CHUNK],
            None if attacks is None else attacks[start : start + SCORE_CHUNK],
        )
        for start in range(0, max(len(pieces), 1), SCORE_CHUNK)
    ]
    return np.concatenate(parts)


def activated(clipped: np.ndarray, net: dict[str, Any]) -> np.ndarray:
    """The stored network's hidden values of its accumulators clipped to [0, ``NET_ONE``]:
    squared, c² // ``NET_ONE`` (as ``tuned`` shifts), when its activation is ``"screlu"``."""
    return clipped * clipped // NET_ONE if net.get("activation") == "screlu" else clipped


def _chunk_scores(
    net: dict[str, Any],
    table: np.ndarray,
    king_buckets: np.ndarray,
    pieces: np.ndarray,
    mover: np.ndarray,
    attacks: np.ndarray | None,
) -> np.ndarray:
    white = table[king_rows(pieces, king_buckets)].sum(axis=1) + net["bias"]
    black = table[king_rows(mirrored(pieces), king_buckets)].sum(axis=1) + net["bias"]
    if net.get("attacks") is not None and attacks is not None:
        weights = np.asarray(net["attacks"], dtype=np.int64)
        white_view, black_view = attack_views(attacks.astype(np.int64))
        white, black = white + white_view @ weights, black + black_view @ weights
    first = np.where(mover[:, None] == 0, white, black)
    second = np.where(mover[:, None] == 0, black, white)
    clipped = activated(np.clip(np.concatenate([first, second], axis=1), 0, NET_ONE), net)
    outputs = bucket_outputs(net)
    if len(outputs) == 1:
        total = clipped @ outputs[0]
    else:
        total = np.einsum("ij,ij->i", clipped, outputs[output_bucket(pieces, len(outputs))])
    halves = (np.abs(total) + NET_ONE // 2) // NET_ONE  # halves away from zero, as in C
    return np.sign(total) * halves + net["offset"]


def quantized(weights: dict[str, np.ndarray]) -> dict[str, Any]:
    """The fixed-point network the evaluator plays from floating-point ``weights`` (their
    ``output``: a row of 2 × hidden weights per bucket; ``input``: a set of ``NET_INPUTS``
    rows per king bucket, ``king_buckets`` the set of each square; ``activation`` one of
    ``NET_ACTIVATIONS``; ``attacks``: the attack inputs' rows, or None)."""
    hidden = len(weights["bias"])
    attacks = weights.get("attacks")
    return {
        "hidden": hidden,
        "activation": weights["activation"],
        "buckets": len(weights["output"]),
        "king_buckets": weights["king_buckets"],
        "input": np.clip(np.rint(weights["input"] * NET_ONE), -MAX_INPUT, MAX_INPUT).astype(int),
        "bias": np.clip(np.rint(weights["bias"] * NET_ONE), -MAX_BIAS, MAX_BIAS).astype(int),
        "output": np.clip(
            np.rint(weights["output"].ravel() * OUTPUT_SCALE), -MAX_OUTPUT, MAX_OUTPUT
        ).astype(int),
        "offset": int(np.rint(weights["offset"] * OUTPUT_SCALE)),
        "attacks": None
        if attacks is None
        else np.clip(np.rint(attacks * NET_ONE), -MAX_INPUT, MAX_INPUT).astype(int),
    }


def fit_net(
    pieces: np.ndarray,
    mover: np.ndarray,
    linear: np.ndarray,
    goal: np.ndarray,
    k: float,
    hidden: int,
    epochs: int,
    rate: float = 1e-3,
    decay: float = 0.01,
    seed: int = 0,
    buckets: int = 1,
    king_buckets: int = 1,
    activation: str = "crelu",
    attacks: np.ndarray | None = None,
) -> tuple[dict[str, Any], list[float]]:
    """Fit a network of ``hidden`` units so that σ(k · (``linear`` + its score for white))
    nears ``goal`` for positions given as white-view input rows (``pieces``, N × 32) and
    the side to move (``mover``) (``linear``: the linear weights' scores for white), by
    minibatch Adam over ``epochs`` passes (step size ``rate``, falling linearly to a tenth
    of it by the last pass; ``decay``: the share of every input weight taken off at each
    step, a decoupled weight decay that falls with the step size), from ``seed``, with
    ``buckets`` sets of output weights (``output_bucket``), ``king_buckets`` sets of input
    rows (``KING_BUCKETS``) and the ``activation`` (``NET_ACTIVATIONS``), and with ``attacks``
    (the positions' attack inputs, N × ``ATTACK_INPUTS``) a row for each attack input, which
    starts at 0 and decays as the input rows. The output weights start at 0, so the fit
    starts from the linear score. Returns the stored network and its loss after each pass
    (``epochs`` ≥ 1)."""
    assert epochs >= 1 and activation in NET_ACTIVATIONS
    squared = activation == "screlu"
    rng = np.random.default_rng(seed)
    square_sets = np.array(KING_BUCKETS[king_buckets], dtype=np.int64)
    inputs = king_buckets * NET_INPUTS  # the padding's row, after the last set's
    white_rows = king_rows(pieces, square_sets)
    black_rows = king_rows(mirrored(pieces), square_sets)
    sign = np.where(mover == 0, 1.0, -1.0)
    bucket = output_bucket(pieces, buckets)
    params = {
        "input": (rng.standard_normal((inputs + 1, hidden)) * 0.05).astype(np.float32),
        "bias": np.full(hidden, 0.1, dtype=np.float32),
        "output": np.zeros((buckets, 2 * hidden), dtype=np.float32),
        "offset": np.zeros(1, dtype=np.float32),
    }
    params["input"][inputs] = 0
    decaying = ["input"]
    if attacks is not None:
        attack_white, attack_black = (v.astype(np.float32) for v in attack_views(attacks))
        params["attacks"] = np.zeros((ATTACK_INPUTS, hidden), dtype=np.float32)
        decaying.append("attacks")
    moments = {name: (np.zeros_like(p), np.zeros_like(p)) for name, p in params.items()}
    losses, step = [], 0
    for epoch in range(epochs):
        share = 1 - 0.9 * epoch / epochs  # the step size falls linearly to a tenth
        order = rng.permutation(len(goal))
        for start in range(0, len(order), BATCH):
            rows = order[start : start + BATCH]
            x_white = _one_hot(white_rows[rows], inputs + 1)
            x_black = _one_hot(black_rows[rows], inputs + 1)
            a_white = x_white @ params["input"] + params["bias"]
            a_black = x_black @ params["input"] + params["bias"]
            if attacks is not None:
                a_white += attack_white[rows] @ params["attacks"]
                a_black += attack_black[rows] @ params["attacks"]
            white = (mover[rows] == 0)[:, None]
            a = np.concatenate(
                [np.where(white, a_white, a_black), np.where(white, a_black, a_white)], axis=1
            )
            clipped = np.clip(a, 0, 1)
            h = clipped * clipped if squared else clipped
            rows_bucket = bucket[rows]
            if buckets == 1:
                out = h @ params["output"][0]
            else:
                out = np.einsum("ij,ij->i", h, params["output"][rows_bucket])
            out = (out + params["offset"][0]) * OUTPUT_SCALE
            p = sigmoid(k * (linear[rows] + sign[rows] * out))
            g = 2 * (p - goal[rows]) * p * (1 - p) * k * sign[rows] * OUTPUT_SCALE / len(rows)
            g = g.astype(np.float32)
            slope = 2 * clipped if squared else 1
            g_hidden = g[:, None] * params["output"][rows_bucket] * ((a > 0) & (a < 1)) * slope
            g_first, g_second = g_hidden[:, :hidden], g_hidden[:, hidden:]
            g_white = np.where(white, g_first, g_second)
            g_black = np.where(white, g_second, g_first)
            grads = {
                "input": x_white.T @ g_white + x_black.T @ g_black,
                "bias": g_white.sum(axis=0) + g_black.sum(axis=0),
                "output": (h.T @ g)[None]
                if buckets == 1
                else np.eye(buckets, dtype=np.float32)[rows_bucket].T @ (h * g[:, None]),
                "offset": np.array([g.sum()], dtype=np.float32),
            }
            if attacks is not None:
                grads["attacks"] = attack_white[rows].T @ g_white + attack_black[rows].T @ g_black
            grads["input"][inputs] = 0
            step += 1
            for name in decaying:
                params[name] *= np.float32(1 - decay * share)
            for name, grad in grads.items():
                m, v = moments[name]
                m *= 0.9
                m += 0.1 * grad
                v *= 0.999
                v += 0.001 * grad * grad
                mean = rate * share * (m / (1 - 0.9**step))
                update = mean / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
                params[name] -= update.astype(np.float32)
        net = quantized(_floats(params, square_sets, activation))
        losses.append(net_loss(net, pieces, mover, linear, goal, k, attacks))
    return net, losses


def _floats(
    params: dict[str, np.ndarray], square_sets: np.ndarray, activation: str
) -> dict[str, Any]:
    return {
        "activation": activation,
        "king_buckets": square_sets,
        "input": params["input"][:-1],
        "bias": params["bias"],
        "output": params["output"],
        "offset": params["offset"][0],
        "attacks": params.get("attacks"),
    }


def net_loss(
    net: dict[str, Any] | None,
    pieces: np.ndarray,
    mover: np.ndarray,
    linear: np.ndarray,
    goal: np.ndarray,
    k: float,
    attacks: np.ndarray | None = None,
) -> float:
    """Mean squared error of σ(k · (``linear`` + the stored network's score for white))
    against ``goal`` (no network: the linear score's), for positions given as in
    ``fit_net``."""
    total = linear.astype(np.float64)
    if net is not None:
        total = total + np.where(mover == 0, 1, -1) * scores(net, pieces, mover, attacks)
    return float(np.mean((sigmoid(k * total) - goal) ** 2))
