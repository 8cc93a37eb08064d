"""Write a wide suite of balanced chess openings for matches, chosen by a UCI engine:
each opening plays ``--plies`` moves from the start, each picked at random (a seeded
stream per opening) among the engine's MultiPV lines within ``--window`` centipawns of its
best at ``--depth``; the opening is kept if the engine scores its end within ±``--balance``
at ``--check-depth`` and no earlier opening ends in the same position.

    python benchmarks/make_openings.py --count 1000 --concurrency 2 \\
        --out benchmarks/data/openings-wide.pgn

The engine is Debian's Stockfish by default (``--engine COMMAND`` for another), one thread,
its table cleared (``ucinewgame``) before every search, so the suite depends only on the
engine, the options and the seed. The PGN keeps each opening's moves and the engine's final
score for white in a ``Score`` tag (centipawns/depth).
"""

from __future__ import annotations

import argparse
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from alfabeta.arena.engine import EngineFailure, UciEngine, engine_command
from alfabeta.arena.openings import pair_rng
from alfabeta.core import AlfabetaError
from alfabeta.games.chess.board import ChessGame
from alfabeta.games.chess.pgn import format_game, sans_of

SEARCH_SECONDS = 120.0  # a search that takes longer is a stalled engine


def lines_at_depth(infos: list[dict], depth: int) -> list[tuple[int, str]]:
    """The (score, first move) of each MultiPV line the engine finished at ``depth``, best
    first (the engine's order)."""
    found: dict[int, tuple[int, str]] = {}
    for info in infos:
        if info.get("depth") == depth and "score" in info and info.get("pv"):
            found[info.get("multipv", 1)] = (info["score"], info["pv"][0])
    return [found[index] for index in sorted(found)]


def fresh_lines(engine: UciEngine, moves: list[str], depth: int) -> list[tuple[int, str]]:
    """The engine's MultiPV lines at ``depth`` after ``moves`` from the start, its table
    cleared first (see ``lines_at_depth``)."""
    engine.new_game()
    _, infos = engine.analyse(
        f"position startpos moves {' '.join(moves)}", f"go depth {depth}", SEARCH_SECONDS
    )
    return lines_at_depth(infos, depth)


def one_opening(engine: UciEngine, index: int, args: argparse.Namespace) -> dict | None:
    """Opening ``index``: its moves and the engine's final score for white, or None if it is
    unbalanced or the game ended on the way."""
    rng = pair_rng(args.seed, index)
    moves: list[str] = []
    for _ in range(args.plies):
        lines = fresh_lines(engine, moves, args.depth)
        if not lines:
            return None
        best = lines[0][0]
        near = [move for score, move in lines if score >= best - args.window]
        moves.append(near[int(rng.integers(len(near)))])
    position = ChessGame("startpos")
    for text in moves:
        position.push(position.parse_move(text))
    if position.is_over():
        return None
    lines = fresh_lines(engine, moves, args.check_depth)
    if not lines or abs(lines[0][0]) > args.balance:
        return None
    for_white = lines[0][0] if len(moves) % 2 == 0 else -lines[0][0]
    key = " ".join(position.to_string().split()[:4])
    return {"index": index, "moves": moves, "score": for_white, "key": key}


def openings_of(indices: list[int], args: argparse.Namespace) -> list[dict | None]:
    """One process's share: the openings of ``indices``, with an engine of its own."""
    engine = UciEngine(engine_command(args.engine), {"Threads": 1, "MultiPV": args.multipv})
    try:
        engine.start()
        return [one_opening(engine, index, args) for index in indices]
    except EngineFailure as failure:  # re-raised plain: it crosses the process pool
        raise AlfabetaError(f"{args.engine!r}: {failure}") from None
    finally:
        engine.close()


def main() -> None:
    try:
        write_suite(arguments())
    except AlfabetaError as error:  # an engine that cannot start, fails or stalls
        raise SystemExit(f"make_openings: {error}") from None


def arguments() -> argparse.Namespace:
    """The command line, with the engine found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="openings to write")
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--depth", type=int, default=9, help="depth of each move's choice")
    parser.add_argument("--multipv", type=int, default=4, help="lines to choose among")
    parser.add_argument("--window", type=int, default=30, help="centipawns below the best")
    parser.add_argument("--check-depth", type=int, default=12)
    parser.add_argument("--balance", type=int, default=80, help="largest final |score|")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--engine", default=None, help="UCI engine command (Stockfish)")
    parser.add_argument("--out", default="openings-wide.pgn")
    args = parser.parse_args()
    args.engine = args.engine or shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if args.engine is None:
        raise SystemExit("needs a UCI engine: apt-get install stockfish, or --engine COMMAND")
    return args


def write_suite(args: argparse.Namespace) -> None:
    """Find ``args.count`` openings in index order and write them to ``args.out``."""
    kept: list[dict] = []
    seen: set[str] = set()
    batch, start = args.count, 0
    with ProcessPoolExecutor(args.concurrency) as pool:
        while len(kept) < args.count:
            if kept:  # the next batch: what is missing, at the share kept so far, and a tenth
                batch = (args.count - len(kept)) * start * 11 // (len(kept) * 10) + 1
            shares = [
                list(range(start + k, start + batch, args.concurrency))
                for k in range(args.concurrency)
            ]
            found = [
                o
                for share in pool.map(openings_of, shares, [args] * len(shares))
                for o in share
                if o is not None
            ]
            for opening in sorted(found, key=lambda o: o["index"]):
                if opening["key"] not in seen and len(kept) < args.count:
                    seen.add(opening["key"])
                    kept.append(opening)
            print(f"{start + batch} tried, {len(kept)} kept", flush=True)
            start += batch
    with open(args.out, "w", encoding="utf-8") as out:
        for number, opening in enumerate(kept, 1):
            tags = {
                "Event": "alfabeta wide openings",
                "Round": number,
                "Result": "*",
                "Opening": f"wide {number}",
                "Score": f"{opening['score']:+d}/{args.check_depth}",
            }
            sans = sans_of(ChessGame("startpos"), "startpos", opening["moves"])
            out.write(format_game(tags, sans))
    print(f"wrote {len(kept)} openings to {Path(args.out)}")


if __name__ == "__main__":
    main()
