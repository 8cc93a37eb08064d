"""Texel's method: fit the ``tuned`` evaluator's weights to game results.

Each quiet position of a game is labelled with the game's result for white (1, ½, 0). The
evaluation is linear in the weights, ``e = X·w`` with ``X`` the feature counts scaled by the
phase (``design``), and the fit minimises the mean squared error between the result and
``σ(k·e)`` (a logistic curve; ``k`` is fitted first, to the starting weights, and then kept), plus
``l2``/N × the squared distance from the starting weights on the logistic scale, Σ(k·(w −
w₀))², which keeps features seen in fewer than about ``l2`` of the N positions near where
they were. The optimiser is Adam over the full batch, in numpy.

Positions come from arena databases (``--games``: every finished chess game), PGN files
(``--pgn``: every game whose Result tag is a result; a database outlives neither its machine nor
a move between tools, a PGN does) or EPD files (``--positions``: a FEN and the result as ``c9
"1-0"``, ``[1.0]`` (any share from 0 to 1) or a trailing ``1-0``, and optionally ``ce`` — a
search's score for the side to move; gzip-compressed when the name ends in ``.gz``).

A game's result is one label for all its positions, and little of it is owed to any one of
them. ``blend`` < 1 labels each position also by a search of it (the engine's own, or an
external UCI engine's): the target is ``blend`` × the result + (1 − ``blend``) × σ(k₀·s), s the
search's score for white and k₀ the scale the results give the start weights.
``search_scores`` finds s (the ``ce`` of the data), ``distinct`` keeps each position once and a
sample of them, to spend the searches well.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, closing
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from attrs import frozen

from alfabeta.arena.engine import STALL_SECONDS, EngineFailure, UciEngine, engine_command
from alfabeta.arena.executors import ArenaError, LocalBackend
from alfabeta.arena.runner import MAX_RESTARTS
from alfabeta.core import AlfabetaError, InvalidOptionError, InvalidPositionError
from alfabeta.evaluators.tuned import (
    ATTACK_INPUTS,
    MAX_WEIGHT,
    attack_inputs,
    feature_names,
    features,
)
from alfabeta.games.chess.board import ChessGame

PHASE_TOTAL = 24
SKIP_PLIES = 4
"""Plies skipped at the start of each game's own moves (after its opening): the positions games
share most, which would otherwise weigh more than the rest."""
HOLDOUT_RUNS = 100
"""``--holdout`` cuts the positions into this many runs of consecutive positions (on the
shipped data, about 20 games each) and keeps a share of the runs out."""
FIXABLE = ("material", "table", "passed", "mobility", "mop-up")
"""Feature groups ``tune`` can keep at their start values (``--fixed``)."""
NET_INPUTS = 768
"""The residual network's input rows (colour × kind × square), as ``tuned``'s NET_INPUTS; this
row number pads a position's rows (``input_rows``)."""
RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
EPD_RESULT = re.compile(r'c9\s+"([^"]+)"|\[(\d+(?:\.\d+)?)\]|(1-0|0-1|1/2-1/2)\s*;?\s*$')
EPD_SCORE = re.compile(r"\bce\s+(-?\d+)")
LABEL_CHUNK = 200
"""Positions per task when ``search_scores`` spreads its searches over processes."""
LOAD_ROWS = 65536
"""Rows that ``labelled`` first makes room for, a quarter more whenever they are full (the
resized columns are zeroed, so their spare rows take memory too)."""
DESIGN_CHUNK = 65536
"""Positions per piece of the design matrix that ``linear_scores`` builds: a multiple of the
four rows at a time that OpenBLAS's matrix-vector product takes, so that its floats are the
whole matrix's."""

Sample = tuple[str, float, "int | None"]
"""A position (its FEN), white's result (a share from 0 to 1) and a search's score for the side
to move (None until searched)."""


@frozen
class Positions:
    """Labelled positions: ``counts`` (N × features, white minus black), ``phase`` (N),
    ``result`` (N, white's score), ``searched`` (N, a search's score for white; NaN where
    none is known), and for the residual network ``pieces`` (N × 32, each piece's input row
    in white's view, padded with ``NET_INPUTS``), ``mover`` (N, 0 when white is to move,
    1 when black is) and ``attacks`` (N × ``ATTACK_INPUTS``, ``tuned.attack_inputs``)."""

    counts: np.ndarray
    phase: np.ndarray
    result: np.ndarray
    searched: np.ndarray | None = None
    pieces: np.ndarray | None = None
    mover: np.ndarray | None = None
    attacks: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.result)


@frozen
class Fit:
    """A fit's outcome: integer ``mg``/``eg`` weights, the scale ``k``, the loss before the
    first step and after each epoch, and the held-out positions' loss before and after the
    fit (None without ``holdout``); with a residual network, the stored network, its loss
    after each pass and the held-out positions' loss with it."""

    mg: np.ndarray
    eg: np.ndarray
    k: float
    losses: tuple[float, ...]
    held_out: tuple[float, float] | None = None
    net: dict[str, Any] | None = None
    net_losses: tuple[float, ...] = ()
    net_held_out: float | None = None


def labelled(samples: Iterable[Sample]) -> Positions:
    """``Positions`` from samples, each written straight into its columns: they grow in place
    (``ndarray.resize``), so that reading N positions takes about the memory of the N rows."""
    size = LOAD_ROWS
    counts = np.empty((size, len(feature_names())), dtype=np.int16)
    phases = np.empty(size, dtype=np.int8)
    results = np.empty(size)
    searched = np.empty(size)
    pieces = np.empty((size, 32), dtype=np.int16)
    mover = np.empty(size, dtype=np.int8)
    attacks = np.empty((size, ATTACK_INPUTS), dtype=np.int8)
    columns = (counts, phases, results, searched, pieces, mover, attacks)
    row = 0
    for fen, result, score in samples:
        if row == size:
            size += size // 4
            for column in columns:
                column.resize((size, *column.shape[1:]), refcheck=False)
        position = ChessGame(fen)
        counts[row], phases[row] = features(position)
        results[row] = result
        sign = 1 if position.side_to_move == 0 else -1
        searched[row] = np.nan if score is None else sign * score
        pieces[row] = input_rows(fen)
        mover[row] = position.side_to_move
        attacks[row] = attack_inputs(position)
        row += 1
    if not row:
        raise InvalidOptionError(
            "tune: no quiet positions with a result were found: it fits the chess evaluator "
            "to finished chess games (alfabeta match chess …, or a PGN's) or EPD positions "
            "with results"
        )
    for column in columns:
        column.resize((row, *column.shape[1:]), refcheck=False)
    return Positions(counts, phases, results, searched, pieces, mover, attacks)


def input_rows(fen: str) -> list[int]:
    """The residual network's input rows of a FEN's pieces, in white's view (colour × 384 +
    kind × 64 + square, a1 = 0), padded to 32 with ``NET_INPUTS``."""
    rows = []
    for rank, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            kind = "pnbrqk".index(char.lower())
            rows.append(384 * char.islower() + 64 * kind + 8 * (7 - rank) + file)
            file += 1
    return rows + [NET_INPUTS] * (32 - len(rows))


def distinct(samples: Iterable[Sample], share: float) -> list[Sample]:
    """Each position once (by its FEN's first four fields, in order of first appearance),
    with the mean of its results, and of those only the ``share`` (0 < share ≤ 1) whose
    FEN's CRC-32 falls in the lowest part of its range: the same positions whatever games
    they come from."""
    if not 0 < share <= 1:
        raise InvalidOptionError(f"tune: --sample {share} is not a share in (0, 1]")
    kept: dict[str, list[Any]] = {}
    for fen, result, score in samples:
        key = " ".join(fen.split()[:4])
        if key in kept:
            kept[key][1] += result
            kept[key][2] += 1
        elif zlib.crc32(key.encode()) < share * 2**32:
            kept[key] = [fen, result, 1, score]
    return [(fen, total / n, score) for fen, total, n, score in kept.values()]


class LabellingInterrupted(Exception):
    """Ctrl-C ended a ``search_scores`` labelling; the message says how many positions have a
    score and where they are kept."""


def search_scores(
    samples: Sequence[Sample],
    depth: int,
    concurrency: int = 1,
    journal: str | Path | None = None,
    engine: str | None = None,
) -> list[Sample]:
    """The samples with the score of the chess engine's default search (its table not kept
    from one position to the next) and play evaluator to ``depth``, for the side to move, in
    place of any they had; with ``engine`` (a UCI engine's command), that engine's score to
    ``depth`` instead (``go depth``, after a ``ucinewgame`` for each position).
    ``concurrency`` processes share the searches (each with its own engine), on a pool that is
    started again when a process of it is killed. Deterministic when the engine is (one
    thread).

    With a ``journal`` file, each score is appended to it as soon as its chunk of positions is
    searched (the labeller — ``depth``, or ``depth/engine`` — the FEN and the score on a
    line), and a position the journal already scores by the same labeller is not searched
    again: an interrupted labelling keeps what it found, and the same command goes on from
    there. Ctrl-C raises ``LabellingInterrupted`` once the finished chunks are written."""
    if depth < 1 or concurrency < 1:
        raise InvalidOptionError("tune: --label-depth and --concurrency must be at least 1")
    labeller = journal_tag(depth, engine)
    known = {} if journal is None else read_journal(journal, labeller)
    fens = dict.fromkeys(fen for fen, _, _ in samples)
    missing = [fen for fen in fens if fen not in known]
    chunks = [missing[i : i + LABEL_CHUNK] for i in range(0, len(missing), LABEL_CHUNK)]
    label = _search_chunk if engine is None else partial(_engine_chunk, command=engine)
    this_run = 0

    def progress() -> str:
        kept = (
            "not kept (--labels FILE keeps them)"
            if journal is None
            else f"kept in {str(journal)!r}, where the same command goes on"
        )
        scored = len(fens) - len(missing) + this_run
        return f"{scored:,} of {len(fens):,} positions scored ({this_run:,} by this run), {kept}"

    try:
        with ExitStack() as stack:
            log = None if journal is None else stack.enter_context(_open_journal(journal))
            found = stack.enter_context(closing(_scored_chunks(label, chunks, depth, concurrency)))
            for chunk, scores in found:
                known.update(zip(chunk, scores, strict=True))
                if log is not None:
                    log.writelines(f"{labeller} {fen} {known[fen]}\n" for fen in chunk)
                    log.flush()
                this_run += len(chunk)
    except KeyboardInterrupt:
        raise LabellingInterrupted(progress()) from None
    except ArenaError as error:
        raise ArenaError(f"tune: {error}; {progress()}") from None
    return [(fen, result, known[fen]) for fen, result, _ in samples]


def _scored_chunks(
    label: Callable[[list[str], int], list[int]],
    chunks: list[list[str]],
    depth: int,
    concurrency: int,
) -> Generator[tuple[list[str], list[int]], None, None]:
    """Each chunk with its scores, in order: found in this process, or by a local pool of
    ``concurrency`` processes that is started again (up to ``MAX_RESTARTS`` times) on the
    chunks not yet returned when one of them is killed. Closing it ends the pool at once."""
    if concurrency == 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield chunk, label(chunk, depth)
        return
    pool = LocalBackend(concurrency)  # its processes leave Ctrl-C to this one
    restarts = 0
    try:
        while chunks:
            returned = 0
            try:
                for scores in pool.executor.map(label, chunks, [depth] * len(chunks)):
                    yield chunks[returned], scores
                    returned += 1
                return
            except BrokenProcessPool:
                chunks = chunks[returned:]
                restarts += 1
                if restarts > MAX_RESTARTS or not pool.restart():
                    raise ArenaError(
                        f"the labelling's process pool died {restarts} times"
                    ) from None
    finally:
        pool.terminate()


def journal_tag(depth: int, engine: str | None = None) -> str:
    """What a journal line names its labeller by: the depth of alfabeta's own search, or
    ``depth/command`` for an external engine (the command's words joined by ``+``)."""
    return str(depth) if engine is None else f"{depth}/{'+'.join(engine.split())}"


def _open_journal(path: str | Path) -> Any:
    """``path`` opened to append journal lines; a file that cannot be written is an error that
    names it."""
    try:
        return open(path, "a", encoding="utf-8")  # the caller closes it
    except OSError as error:
        raise InvalidOptionError(
            f"tune: cannot write the labels journal {str(path)!r}: {error.strerror}"
        ) from None


def read_journal(path: str | Path, labeller: str) -> dict[str, int]:
    """The scores by ``labeller`` (``journal_tag``) that a ``search_scores`` journal holds, by
    FEN (none when there is no file). A last line that a killed run cut short is dropped from
    the file; any other unreadable line is an error that names it."""
    if not Path(path).is_file():
        return {}
    with open(path, "r+b") as handle:
        text = handle.read()
        complete = text.rfind(b"\n") + 1
        if complete < len(text):  # no newline after it: the write was cut short
            handle.truncate(complete)
    try:
        lines = text[:complete].decode("utf-8").splitlines()
    except UnicodeDecodeError as error:
        raise InvalidOptionError(
            f"tune: {str(path)!r} is not a labels journal (not UTF-8 text at byte {error.start})"
        ) from None
    scores: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if len(fields) != 8 or not fields[0].split("/")[0].isdigit():
                raise ValueError
            score = int(fields[7])
        except ValueError:
            raise InvalidOptionError(
                f"{path}:{number}: not a labels journal line (depth, FEN, score)"
            ) from None
        if fields[0] == labeller:
            scores[" ".join(fields[1:7])] = score
    return scores


def _search_chunk(fens: list[str], depth: int) -> list[int]:
    """The default search's value of each FEN to ``depth`` (one process's share), each
    searched afresh (``new_game``: nothing kept from the FEN before), so that a score does
    not depend on how the FENs were shared out."""
    from alfabeta.core import Limit
    from alfabeta.plugins.catalog import load_catalog

    catalog = load_catalog()
    game = catalog.game("chess")
    searcher = catalog.searcher(game.play_searcher)
    evaluator = catalog.playing_evaluator(game)
    values = []
    for fen in fens:
        searcher.new_game()
        values.append(searcher.search(ChessGame(fen), evaluator, Limit(depth=depth)).value)
    return values


def started_engine(command: str) -> UciEngine:
    """The UCI engine ``command`` runs, started (``uci``, ``isready``); one that cannot be
    started is an error that names it."""
    engine = None
    try:
        engine = UciEngine(engine_command(command))
        engine.start()
    except AlfabetaError as failure:  # EngineFailure, or an empty command
        if engine is not None:
            engine.close()
        raise InvalidOptionError(f"tune: --label-engine {command!r}: {failure}") from None
    return engine


def _engine_chunk(fens: list[str], depth: int, command: str) -> list[int]:
    """A UCI engine's score of each FEN to ``depth``, for the side to move (one process's
    share; mates as ±(WIN − plies), as alfabeta's own). An engine that cannot be started,
    fails or gives no score is an error that names it."""
    engine = started_engine(command)
    try:
        scores = []
        for fen in fens:
            engine.new_game()
            _, info = engine.search(f"position fen {fen}", f"go depth {depth}", STALL_SECONDS)
            if "score" not in info:
                raise EngineFailure(f"{engine.name} gave no score for {fen!r}", "stall")
            scores.append(info["score"])
        return scores
    except EngineFailure as failure:  # re-raised plain: it crosses the process pool
        raise InvalidOptionError(f"tune: --label-engine {command!r}: {failure}") from None
    finally:
        engine.close()


def game_positions(paths: Iterable[str | Path]) -> Iterator[Sample]:
    """The quiet positions (``ChessGame.is_quiet``) of every decided or drawn chess game in
    the arena databases at ``paths``, after the first ``SKIP_PLIES``, with white's result."""
    from alfabeta.arena.records import ResultsDB

    for path in paths:
        if not Path(path).is_file():
            raise InvalidOptionError(f"tune: no results database at {str(path)!r}")
        db = ResultsDB(path)
        try:
            for run in db.runs():
                for game in db.games(run.id):
                    if not game.game.startswith("chess") or game.result not in RESULTS:
                        continue
                    yield from _replayed(game.start, game.moves, game.result)
        finally:
            db.close()


def pgn_positions(paths: Iterable[str | Path]) -> Iterator[Sample]:
    """The quiet positions of every game of the PGN files at ``paths`` whose Result tag is a
    result, played from its FEN tag or the standard start, with white's result. A PGN does not
    mark where a game's opening ended, so the first ``SKIP_PLIES`` are counted from its first
    move; an illegal move is a :class:`PgnError` naming the game and the ply."""
    from alfabeta.games.chess.pgn import read_pgn, replay

    for path in paths:
        if not Path(path).is_file():
            raise InvalidOptionError(f"tune: no PGN file at {str(path)!r}")
        for game in read_pgn(path):
            result = game.tags.get("Result")
            if result in RESULTS:
                replay(game, ChessGame())  # refuses an illegal move with where it is
                yield from _replayed(game.fen or ChessGame().to_string(), game.moves, result)


def _replayed(start: str, moves: Iterable[str], result: str) -> Iterator[Sample]:
    position = ChessGame(start)
    score = RESULTS[result]  # the arena's first player is white, whoever moves first
    for ply, text in enumerate(moves):
        if ply >= SKIP_PLIES and position.is_quiet():
            yield position.to_string(), score, None
        position.push(position.parse_move(text))


def epd_positions(paths: Iterable[str | Path]) -> Iterator[Sample]:
    """Positions, white's results and any ``ce`` from EPD lines (see the module docstring); a
    file that is not text (or a ``.gz`` of it), a line without a result, with a result outside
    0 … 1 or with a malformed position is an error that names it."""
    for path in paths:
        if not Path(path).is_file():
            raise InvalidOptionError(f"tune: no EPD file at {str(path)!r}")
        try:
            with _open_text(path, "rt") as handle:
                for number, line in enumerate(handle, 1):
                    if line.strip():
                        yield _epd_sample(line, f"{path}:{number}")
        except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
            raise InvalidOptionError(
                f"tune: {str(path)!r} is not readable EPD text ({type(error).__name__}: {error})"
            ) from None


def _epd_sample(line: str, where: str) -> Sample:
    found = EPD_RESULT.search(line)
    if found is None:
        raise InvalidOptionError(f'{where}: no result (c9 "1-0", [1.0], 1-0)')
    text = next(group for group in found.groups() if group is not None)
    score = RESULTS.get(text, None)
    if score is None:
        try:
            score = float(text)
        except ValueError:
            score = -1.0
        if not 0 <= score <= 1:
            raise InvalidOptionError(f"{where}: result {text!r} is not in 0 … 1")
    fen = " ".join([*line.split()[:4], "0", "1"])
    try:
        ChessGame(fen)
    except InvalidPositionError as error:
        raise InvalidPositionError(f"{where}: {error}") from None
    searched = EPD_SCORE.search(line)
    return fen, score, None if searched is None else int(searched.group(1))


def split(positions: Positions, holdout: float) -> tuple[Positions, Positions]:
    """The positions to fit and a ``holdout`` share (0 ≤ share < 1) kept out: of
    ``HOLDOUT_RUNS`` runs of consecutive positions, that share, spread evenly (with 0.1, every
    tenth run). Positions come in game order, so a run is whole games but for its ends: the
    fit is tested on games it has not seen — positions of one game are too alike to test each
    other."""
    if not 0 <= holdout < 1:
        raise InvalidOptionError(f"tune: --holdout {holdout} is not a share in [0, 1)")
    run = np.arange(len(positions)) * HOLDOUT_RUNS // max(1, len(positions))
    held = np.floor((run + 1) * holdout + 1e-9) > np.floor(run * holdout + 1e-9)
    if held.all():
        raise InvalidOptionError("tune: --holdout leaves no positions to fit")
    return subset(positions, ~held), subset(positions, held)


def subset(positions: Positions, rows: np.ndarray | slice) -> Positions:
    """The positions that ``rows`` (a mask, indices or a slice) picks, every column."""

    def pick(column: np.ndarray | None) -> np.ndarray | None:
        return None if column is None else column[rows]

    return Positions(
        positions.counts[rows],
        positions.phase[rows],
        positions.result[rows],
        pick(positions.searched),
        pick(positions.pieces),
        pick(positions.mover),
        pick(positions.attacks),
    )


def net_inputs(*parts: Positions) -> tuple[np.ndarray, np.ndarray]:
    """What the residual network reads of ``parts``, one after another: their ``pieces``
    and ``mover`` (not their counts, most of their memory)."""
    pieces, mover = [], []
    for part in parts:
        if part.pieces is None or part.mover is None:
            raise InvalidOptionError("tune: the network needs positions read with their pieces")
        pieces.append(part.pieces)
        mover.append(part.mover)
    return np.concatenate(pieces), np.concatenate(mover)


def net_attacks(*parts: Positions) -> np.ndarray:
    """The attack inputs of ``parts``, one after another (``tuned.attack_inputs``)."""
    if any(part.attacks is None for part in parts):
        raise InvalidOptionError("tune: --net-attacks needs positions read with their attacks")
    return np.concatenate([part.attacks for part in parts])


def design(positions: Positions) -> np.ndarray:
    """The design matrix: the counts scaled by phase/24 (middlegame weights) beside the counts
    scaled by (24 − phase)/24 (endgame weights), float32."""
    share = positions.phase.astype(np.float32)[:, None] / PHASE_TOTAL
    count = positions.counts.shape[1]
    x = np.empty((len(share), 2 * count), dtype=np.float32)
    # written in place, with no temporary copy: the matrix is most of a fit's memory
    np.multiply(positions.counts, share, out=x[:, :count])
    np.multiply(positions.counts, 1 - share, out=x[:, count:])
    return x


def sigmoid(x: np.ndarray) -> np.ndarray:
    """The logistic function, elementwise (clipped so that it never overflows)."""
    return 1.0 / (1.0 + np.exp(-np.clip(x, -50, 50)))


def _scores(x: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """X·w in X's precision (a float64 w would copy a float32 X to float64 at every product)."""
    return x @ weights.astype(x.dtype)


def linear_scores(positions: Positions, weights: np.ndarray) -> np.ndarray:
    """``design(positions)`` · ``weights`` (the same floats), built ``DESIGN_CHUNK``
    positions at a time, so that memory does not grow by the design matrix."""
    parts = [
        _scores(design(subset(positions, slice(start, start + DESIGN_CHUNK))), weights)
        for start in range(0, max(len(positions), 1), DESIGN_CHUNK)
    ]
    return np.concatenate(parts)


def _loss_of(scores: np.ndarray, result: np.ndarray, k: float) -> float:
    return float(np.mean((result - sigmoid(k * scores)) ** 2))


def loss(x: np.ndarray, result: np.ndarray, weights: np.ndarray, k: float) -> float:
    """The mean squared error of σ(k·X·w) against the results."""
    return _loss_of(_scores(x, weights), result, k)


def fit_scale(x: np.ndarray, result: np.ndarray, weights: np.ndarray) -> float:
    """The k that minimises ``loss`` for fixed weights (golden-section search over
    0.0001 … 0.05 per point)."""
    scores = _scores(x, weights)
    low, high = 1e-4, 5e-2
    ratio = (5**0.5 - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if _loss_of(scores, result, a) < _loss_of(scores, result, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def fit(
    x: np.ndarray,
    result: np.ndarray,
    start: np.ndarray,
    k: float,
    epochs: int = 400,
    rate: float = 1.0,
    l2: float = 0.0,
    free: np.ndarray | None = None,
) -> tuple[np.ndarray, list[float]]:
    """Adam on the mean squared error plus ``l2``·|k·(w − start)|²/N, from ``start``; returns
    the weights (float) and the loss before the first epoch and after each. Only the weights
    ``free`` marks (a boolean mask; all when None) move; the others keep their start values."""
    weights = start.astype(np.float64).copy()
    mask = np.ones(len(weights)) if free is None else free.astype(np.float64)
    moment, second = np.zeros_like(weights), np.zeros_like(weights)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    n = len(result)
    losses: list[float] = []
    for epoch in range(1, epochs + 1):
        scores = _scores(x, weights)
        losses.append(_loss_of(scores, result, k))  # ``loss``, from the product at hand
        p = sigmoid(k * scores)
        gradient = (x.T @ ((p - result) * p * (1 - p)).astype(x.dtype)) * (2 * k / n)
        gradient += 2 * l2 * k * k * (weights - start) / n
        gradient *= mask
        moment = beta1 * moment + (1 - beta1) * gradient
        second = beta2 * second + (1 - beta2) * gradient**2
        step = moment / (1 - beta1**epoch) / (np.sqrt(second / (1 - beta2**epoch)) + eps)
        weights -= rate * step
    losses.append(loss(x, result, weights, k))
    return weights, losses


def free_weights(fixed: Iterable[str] = ()) -> np.ndarray:
    """The mask of the (mg, eg) weights a fit moves: all but those of the ``fixed`` groups —
    features whose names start with the group's name plus a space, as ``table`` for the 192
    piece-square cells and the 192 terms that tell each cell's two sides apart
    (``FIXABLE``)."""
    names = feature_names()
    kept = np.ones(len(names), dtype=bool)
    for group in fixed:
        if group not in FIXABLE:
            raise InvalidOptionError(
                f"tune: cannot keep {group!r} fixed; the groups are {', '.join(FIXABLE)}"
            )
        kept &= np.array([not name.startswith(group + " ") for name in names])
    return np.concatenate([kept, kept])


def targets(
    positions: Positions, scale: float, blend: float = 1.0, option: str = "--blend"
) -> np.ndarray:
    """What a fit aims at: the results, or with ``blend`` < 1, ``blend`` × the result + (1 −
    ``blend``) × σ(``scale`` × the search's score for white) — every position must then have
    been searched (``option``: the option that set ``blend``, for the errors)."""
    if not 0 <= blend <= 1:
        raise InvalidOptionError(f"tune: {option} {blend} is not a share in [0, 1]")
    if blend == 1:
        return positions.result
    if positions.searched is None or np.isnan(positions.searched).any():
        raise InvalidOptionError(
            f"tune: {option} below 1 needs a search score for every position: give "
            "--label-depth D, or EPD lines with ce"
        )
    return blend * positions.result + (1 - blend) * sigmoid(scale * positions.searched)


def tune(
    positions: Positions,
    start: tuple[np.ndarray, np.ndarray],
    epochs: int,
    rate: float,
    l2: float,
    fixed: Iterable[str] = (),
    holdout: float = 0.0,
    blend: float = 1.0,
    net: int = 0,
    net_epochs: int = 0,
    net_positions: Positions | None = None,
    *,
    net_decay: float,
    net_buckets: int = 1,
    net_king_buckets: int = 1,
    net_activation: str = "crelu",
    net_blend: float | None = None,
    net_attack_inputs: bool = False,
) -> Fit:
    """Fit k to the ``start`` (mg, eg) weights, then the weights (those of the ``fixed``
    feature groups stay as they start), on all but a ``holdout`` share of the positions
    (``split``), whose loss is measured before and after; rounded to integers, within
    ±``tuned.MAX_WEIGHT`` (so that ``tuned`` reads them back). With ``blend``
    < 1 the targets mix results and search scores (``targets``, at the scale k₀ the results
    give the start weights) and k is fitted again, to the targets. With ``net`` hidden units,
    a residual network is then fitted over ``net_epochs`` passes, with a weight decay of
    ``net_decay``, ``net_buckets`` sets of output weights, ``net_king_buckets`` sets of
    input rows (``residual.KING_BUCKETS``), the activation ``net_activation`` and, with
    ``net_attack_inputs``, the attack inputs (``tuned.attack_inputs``) beside the pieces, to what
    the rounded linear weights miss (``residual.fit_net``), on the fitted positions and any
    ``net_positions`` (which the linear weights are not fitted to, nor k), to targets of
    their own blend ``net_blend`` (None: ``blend``)."""
    fitted, held = split(positions, holdout)
    x = design(fitted)
    initial = np.concatenate(start).astype(np.float64)
    k = scale = fit_scale(x, fitted.result, initial)
    goal = targets(fitted, scale, blend)
    net_blend, option = (blend, "--blend") if net_blend is None else (net_blend, "--net-blend")
    # refused before the long fits when they lack a search score
    fitted_net_goal = goal if net_blend == blend else targets(fitted, scale, net_blend, option)
    more_goal = None if net_positions is None else targets(net_positions, scale, net_blend, option)
    if blend < 1:
        k = fit_scale(x, goal, initial)
    weights, losses = fit(x, goal, initial, k, epochs, rate, l2, free_weights(fixed))
    count = len(feature_names())
    rounded = np.clip(np.rint(weights), -MAX_WEIGHT, MAX_WEIGHT).astype(np.int64)
    network: dict[str, Any] | None = None
    net_losses: list[float] = []
    if net:
        from alfabeta.learning.residual import fit_net

        linear, net_goal, net_parts = _scores(x, rounded), fitted_net_goal, [fitted]
        del x  # the design matrix is not needed again: the network's fit has its memory
        if net_positions is not None and more_goal is not None:
            linear = np.concatenate([linear, linear_scores(net_positions, rounded)])
            net_goal = np.concatenate([fitted_net_goal, more_goal])
            net_parts.append(net_positions)
        network, net_losses = fit_net(
            *net_inputs(*net_parts),
            linear,
            net_goal,
            k,
            net,
            net_epochs,
            decay=net_decay,
            buckets=net_buckets,
            king_buckets=net_king_buckets,
            activation=net_activation,
            attacks=net_attacks(*net_parts) if net_attack_inputs else None,
        )
    held_out = net_held_out = None
    if len(held):
        x_held, held_goal = design(held), targets(held, scale, blend)
        held_out = (loss(x_held, held_goal, initial, k), loss(x_held, held_goal, rounded, k))
        if network is not None:
            from alfabeta.learning.residual import net_loss

            held_linear = _scores(x_held, rounded)
            held_net_goal = targets(held, scale, net_blend, option)
            net_held_out = net_loss(
                network,
                *net_inputs(held),
                held_linear,
                held_net_goal,
                k,
                net_attacks(held) if net_attack_inputs else None,
            )
    return Fit(
        rounded[:count],
        rounded[count:],
        k,
        tuple(losses),
        held_out,
        network,
        tuple(net_losses),
        net_held_out,
    )


def write_weights(path: str | Path, result: Fit, about: dict[str, Any]) -> None:
    """Save a fit as the JSON ``tuned(weights=FILE)`` reads."""
    data = {
        "evaluator": "tuned",
        **about,
        "k": result.k,
        "losses": [round(value, 8) for value in result.losses],
        "held_out_losses": None
        if result.held_out is None
        else [round(value, 8) for value in result.held_out],
        "features": feature_names(),
        "mg": [int(v) for v in result.mg],
        "eg": [int(v) for v in result.eg],
    }
    if result.net is not None:
        data["net_losses"] = [round(value, 8) for value in result.net_losses]
        data["net_held_out_loss"] = result.net_held_out
        buckets = result.net.get("buckets", 1)
        king_buckets = [int(v) for v in result.net.get("king_buckets", [0] * 64)]
        activation = result.net.get("activation", "crelu")
        data["net"] = {
            "hidden": result.net["hidden"],
            # one set of either, and no square, unless said: as files written before them
            **({"activation": activation} if activation != "crelu" else {}),
            **({"buckets": buckets} if buckets > 1 else {}),
            **({"king_buckets": king_buckets} if max(king_buckets) > 0 else {}),
            "offset": result.net["offset"],
            **{part: [int(v) for v in result.net[part].ravel()] for part in ("bias", "output")},
            "input": [int(v) for v in result.net["input"].ravel()],
        }
        if result.net.get("attacks") is not None:
            data["net"]["attacks"] = [int(v) for v in result.net["attacks"].ravel()]
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def _open_text(path: str | Path, mode: str) -> Any:
    """A text file, gzip-compressed when its name ends in ``.gz``."""
    if str(path).endswith(".gz"):
        return gzip.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")  # the caller closes it


def write_epd(path: str | Path, samples: Iterable[Sample]) -> None:
    """The positions with their results, one EPD line each (``c9 "1-0"``, or ``[share]`` for a
    mean of results) and any search score (``ce``): data anyone can refit from with
    ``--positions``."""
    names = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}
    with _open_text(path, "wt") as handle:
        for full_fen, result, score in samples:
            fen = " ".join(full_fen.split()[:4])
            label = f'c9 "{names[result]}";' if result in names else f"[{result!r}];"
            searched = "" if score is None else f" ce {score};"
            handle.write(f"{fen} {label}{searched}\n")


def plot_losses(losses: Iterable[float], path: str | Path) -> None:
    """Draw the loss by epoch to a PNG (the ``plot`` extra)."""
    from alfabeta.plotting import pyplot

    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(list(losses))
    axes.set_xlabel("epoch")
    axes.set_ylabel("mean squared error")
    axes.set_title("Texel fit of the tuned evaluator")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
