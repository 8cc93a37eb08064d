"""Threats the engine missed in games it lost to Stockfish: a diagnostic for the search's
blind spots, not a strength measure (strength is an arena match).

From arena databases (``arena_vs_stockfish.py --db``), one position of every game the player
lost is kept, chosen in one of two ways (``--select``):

- ``falls``: the game's first sudden fall, a move it played believing its score ≥ 0 whose
  next move's score was ≤ −300, kept when full-strength Stockfish (Threads 1, Hash 16,
  ``--depth``) already scores the position before it ≤ −300 for the side to move: the game
  was lost and the engine did not know. Each ``--searchers`` spec then searches each kept
  position with a fixed node budget (deterministic) and the table says how many it sees as
  lost (≤ −300) and its mean score there.
- ``costliest``: full-strength Stockfish (``--sf-nodes`` a position, a new game each) scores
  every position from the game's start to six plies past its turn (the opponent's first move
  after which its own recorded score stays ≥ +150; the game's end when there is none), and
  the player's move that lost the most by those scores, among those played at a Stockfish
  score above −150, is kept when it lost ≥ ``--drop`` centipawns. Each spec then searches
  each kept position, as the first move of a new game, and the table says how many times it
  plays the same move again.

    python benchmarks/missed_threats.py --db vs-stockfish.sqlite --nodes 1000000 \
        --searchers "DEFAULT;negascout(..., razor=400)"
    python benchmarks/missed_threats.py --db vs-stockfish.sqlite --select costliest \
        --drop 150 --nodes 400000,4000000

``DEFAULT`` stands for the UCI engine's searcher. Needs `apt-get install stockfish`.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import shutil
import sys
from collections.abc import Callable, Iterator

from alfabeta import Limit, load_catalog
from alfabeta.arena.engine import UciEngine
from alfabeta.arena.jobs import GameResult
from alfabeta.arena.records import games_of
from alfabeta.core import AlfabetaError, Position
from alfabeta.uci import DEFAULT_EVALUATOR, DEFAULT_SEARCHER

LOST = -300
"""A score at or below this (centipawns, side to move) counts as a lost position."""

CLAMP = 2000
"""Scores are clamped to ±this for the mean and the losses, so that one mate does not swamp
them."""

TURN = 150
"""``costliest``: the turn is the opponent's first move after which its scores stay ≥ this."""

OPEN = -150
"""``costliest``: a move counts when Stockfish's score before it was above this."""

PAST_TURN = 6
"""``costliest``: plies scored past the turn."""


def lost_games(paths: list[str], player: str) -> Iterator[tuple[GameResult, int]]:
    """Each game ``player`` lost in the databases, with its side (0: it moved first); an
    ``AlfabetaError`` if a database has no game of ``player`` (a misspelt name)."""
    for record in games_of(paths, player):
        side = record.players.index(player)
        if record.winner is not None and record.winner != side:
            yield record, side


def fens_of(game: Position, record: GameResult, plies: int) -> list[str]:
    """The FEN before each of the game's first ``plies`` moves, and the one after them."""
    position = game.from_string(record.start)
    fens = [position.to_string()]
    for text in record.moves[:plies]:
        position.push(position.parse_move(text))
        fens.append(position.to_string())
    return fens


def sudden_falls(game: Position, paths: list[str], player: str) -> Iterator[str]:
    """The FEN before the first sudden fall of each game ``player`` lost in the databases."""
    for record, side in lost_games(paths, player):
        fens = fens_of(game, record, len(record.moves))
        ours = range(side, len(record.moves), 2)  # the first player moves first
        for before, after in itertools.pairwise(ours):
            was, now = record.scores[before], record.scores[after]
            if was is not None and now is not None and was >= 0 and now <= LOST:
                yield fens[before]
                break


def turn_ply(record: GameResult, side: int) -> int:
    """``costliest``: the ply of the opponent's first move after which its recorded scores
    all stay ≥ ``TURN``; the last ply when there is none."""
    theirs = range(1 - side, len(record.moves), 2)
    for k, ply in enumerate(theirs):
        later = [record.scores[p] for p in theirs[k:]]
        if all(score is not None and score >= TURN for score in later):
            return ply
    return len(record.moves) - 1


def costliest_moves(
    game: Position, paths: list[str], player: str, score: Callable[[str], int], drop: int
) -> Iterator[tuple[str, str, int]]:
    """(FEN, the move ``player`` played there, centipawns it lost by ``score``) for the
    costliest move of each lost game, while the game was open, when it lost ≥ ``drop``."""
    for record, side in lost_games(paths, player):
        plies = min(len(record.moves), turn_ply(record, side) + PAST_TURN)
        fens = fens_of(game, record, plies)
        values = [max(-CLAMP, min(CLAMP, score(fen))) for fen in fens]  # side to move's
        costliest = None
        for ply in range(side, plies, 2):
            before, after = values[ply], -values[ply + 1]
            if before > OPEN and (costliest is None or before - after > costliest[2]):
                costliest = (fens[ply], record.moves[ply], before - after)
        if costliest is not None and costliest[2] >= drop:
            yield costliest


@contextlib.contextmanager
def stockfish(go: str) -> Iterator[Callable[[str], int]]:
    """Full-strength Stockfish (Threads 1, Hash 16) as a function: a FEN's score for the
    side to move by the ``go`` command, each from a new game."""
    command = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if command is None:
        raise SystemExit("needs Debian's stockfish: apt-get install stockfish")
    engine = UciEngine([command], {"Threads": 1, "Hash": 16})
    engine.start()

    def score(fen: str) -> int:
        engine.new_game()
        _, info = engine.search(f"position fen {fen}", go, 600)
        return info["score"]

    try:
        yield score
    finally:
        engine.close()


def main() -> None:
    try:
        report(arguments())
    except AlfabetaError as error:  # a bad database, player, spec or engine
        raise SystemExit(f"missed_threats: {error}") from None
    except KeyboardInterrupt:  # Stockfish is closed on the way out
        print("missed_threats: interrupted", file=sys.stderr)
        raise SystemExit(130) from None


def node_budgets(text: str) -> list[int]:
    """``--nodes``: one or more positive whole numbers, comma-separated."""
    try:
        budgets = [int(word) for word in text.split(",")]
    except ValueError:
        budgets = []
    if not budgets or min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected node counts such as 400000,4000000")
    return budgets


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", required=True, help="arena database (repeat)")
    parser.add_argument("--player", default="alfabeta", help="the player whose losses to scan")
    parser.add_argument("--select", choices=("falls", "costliest"), default="falls")
    parser.add_argument("--depth", type=int, default=16, help="falls: Stockfish's depth")
    parser.add_argument(
        "--sf-nodes", type=int, default=150_000, help="costliest: Stockfish's nodes a position"
    )
    parser.add_argument("--drop", type=int, default=150, help="costliest: the least loss kept")
    parser.add_argument(
        "--nodes",
        type=node_budgets,
        default=[1_000_000],
        help="each searcher's budget (several: comma-separated)",
    )
    parser.add_argument("--searchers", default="DEFAULT", help="specs separated by ';'")
    return parser.parse_args()


def report(args: argparse.Namespace) -> None:
    """Print how many positions were kept and one line per searcher and budget."""
    catalog = load_catalog()
    game = catalog.game("chess")
    evaluator = catalog.evaluator(DEFAULT_EVALUATOR)
    specs = [s.strip() for s in args.searchers.split(";")]
    specs = [DEFAULT_SEARCHER if spec == "DEFAULT" else spec for spec in specs]
    for spec in specs:
        catalog.searcher(spec)  # a bad spec is refused before Stockfish's long work

    def searched(fen: str, spec: str, nodes: int):
        return catalog.searcher(spec).search(game.from_string(fen), evaluator, Limit(nodes=nodes))

    if args.select == "costliest":
        with stockfish(f"go nodes {args.sf_nodes}") as score:
            kept = list(costliest_moves(game, args.db, args.player, score, args.drop))
        print(f"{len(kept)} lost games turned on a move that lost ≥ {args.drop} centipawns")
        for spec, nodes in itertools.product(specs, args.nodes):
            again = sum(
                searched(fen, spec, nodes).move == game.from_string(fen).parse_move(move)
                for fen, move, _ in kept
            )
            print(f"{again:3d}/{len(kept)} played again at {nodes:,} nodes  {spec}")
        return
    fens = list(sudden_falls(game, args.db, args.player))
    with stockfish(f"go depth {args.depth}") as score:
        missed = [fen for fen in fens if score(fen) <= LOST]
    print(f"{len(fens)} sudden falls; {len(missed)} already lost by Stockfish's depth {args.depth}")
    for spec, nodes in itertools.product(specs, args.nodes):
        values = [searched(fen, spec, nodes).value for fen in missed]
        seen = sum(value <= LOST for value in values)
        mean = sum(max(-CLAMP, min(CLAMP, v)) for v in values) / len(values) if values else 0.0
        print(f"{seen:3d}/{len(missed)} seen at {nodes:,} nodes, mean {mean:8.1f}  {spec}")


if __name__ == "__main__":
    main()
