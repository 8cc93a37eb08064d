"""Threats the engine missed in games it lost to Stockfish: a diagnostic for the search's
blind spots, not a strength measure (strength is an arena match).

From arena databases (``arena_vs_stockfish.py --db``), every game the player lost is scanned
for its first sudden fall: a move it played believing its score ≥ 0 whose next move's score
was ≤ −300. The position before that move is kept when full-strength Stockfish (Threads 1,
Hash 16, ``--depth``) already scores it ≤ −300 for the side to move: the game was lost and the
engine did not know. Each ``--searchers`` spec then searches each kept position with a fixed
node budget (deterministic) and the table says how many it sees as lost (≤ −300) and its mean
score there.

    python benchmarks/missed_threats.py --db vs-stockfish.sqlite --nodes 1000000 \
        --searchers "DEFAULT;negascout(..., razor=400)"

``DEFAULT`` stands for the UCI engine's searcher. Needs `apt-get install stockfish`.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
from collections.abc import Iterator

from alfabeta import Limit, load_catalog
from alfabeta.arena.engine import UciEngine
from alfabeta.arena.records import games_of
from alfabeta.core import AlfabetaError, Position
from alfabeta.uci import DEFAULT_EVALUATOR, DEFAULT_SEARCHER

LOST = -300
"""A score at or below this (centipawns, side to move) counts as a lost position."""

CLAMP = 2000
"""Scores are clamped to ±this for the mean, so that one mate score does not swamp it."""


def sudden_falls(game: Position, paths: list[str], player: str) -> Iterator[str]:
    """The FEN before the first sudden fall of each game ``player`` lost in the databases;
    an ``AlfabetaError`` if a database has no game of ``player`` (a misspelt name)."""
    for record in games_of(paths, player):
        side = record.players.index(player)
        if record.winner is None or record.winner == side:
            continue
        position = game.from_string(record.start)
        fens = []
        for text in record.moves:
            fens.append(position.to_string())
            position.push(position.parse_move(text))
        ours = range(side, len(record.moves), 2)  # the first player moves first
        for before, after in itertools.pairwise(ours):
            was, now = record.scores[before], record.scores[after]
            if was is not None and now is not None and was >= 0 and now <= LOST:
                yield fens[before]
                break


def stockfish_scores(fens: list[str], depth: int) -> list[int]:
    """Full-strength Stockfish's score (side to move) of each position at ``depth``."""
    command = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if command is None:
        raise SystemExit("needs Debian's stockfish: apt-get install stockfish")
    engine = UciEngine([command], {"Threads": 1, "Hash": 16})
    engine.start()
    try:
        scores = []
        for fen in fens:
            engine.new_game()
            _, info = engine.search(f"position fen {fen}", f"go depth {depth}", 600)
            scores.append(info["score"])
        return scores
    finally:
        engine.close()


def main() -> None:
    try:
        report(arguments())
    except AlfabetaError as error:  # a bad database, player, spec or engine
        raise SystemExit(f"missed_threats: {error}") from None


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", required=True, help="arena database (repeat)")
    parser.add_argument("--player", default="alfabeta", help="the player whose losses to scan")
    parser.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="each searcher's budget")
    parser.add_argument("--searchers", default="DEFAULT", help="specs separated by ';'")
    return parser.parse_args()


def report(args: argparse.Namespace) -> None:
    """Print the count of kept positions and one line per searcher."""
    catalog = load_catalog()
    game = catalog.game("chess")
    evaluator = catalog.evaluator(DEFAULT_EVALUATOR)
    specs = [s.strip() for s in args.searchers.split(";")]
    specs = [DEFAULT_SEARCHER if spec == "DEFAULT" else spec for spec in specs]
    for spec in specs:
        catalog.searcher(spec)  # a bad spec is refused before Stockfish's long work
    fens = list(sudden_falls(game, args.db, args.player))
    reference = stockfish_scores(fens, args.depth)
    missed = [fen for fen, score in zip(fens, reference, strict=True) if score <= LOST]
    print(f"{len(fens)} sudden falls; {len(missed)} already lost by Stockfish's depth {args.depth}")
    for spec in specs:
        values = []
        for fen in missed:
            searcher = catalog.searcher(spec)
            result = searcher.search(game.from_string(fen), evaluator, Limit(nodes=args.nodes))
            values.append(result.value)
        seen = sum(value <= LOST for value in values)
        mean = sum(max(-CLAMP, min(CLAMP, v)) for v in values) / len(values) if values else 0.0
        print(f"{seen:3d}/{len(missed)} seen, mean {mean:8.1f}  {spec}")


if __name__ == "__main__":
    main()
