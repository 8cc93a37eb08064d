"""Time and nodes to each depth on the 20 chess bench positions: alfabeta's UCI searcher
against Stockfish (Hash 16, full strength) when it is installed, both with ``--threads``
(alfabeta: Lazy SMP helper processes, ``alfabeta/searchers/smp.py``).

Each position is searched once to the deepest depth, from an empty table; every completed
iteration's nodes and elapsed time are summed over the positions, so a row is "all 20
positions to depth d". With threads, nodes are the main search's only (as UCI reports them).
Run: python benchmarks/time_to_depth.py [--depth 12] [--threads 1] [--searcher SPEC]
[--evaluator NAME]"""

import argparse
import shutil
import subprocess
from collections import defaultdict

from alfabeta import Limit, load_catalog
from alfabeta.games.chess.board import ChessGame
from alfabeta.searchers.smp import HelperPool


def alfabeta_rows(spec: str, evaluator: str, depth: int, threads: int) -> dict[int, list[float]]:
    catalog = load_catalog()
    game = catalog.game("chess")
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    searcher = catalog.searcher(spec)
    helpers = None
    if threads > 1:
        helpers = HelperPool(
            threads - 1, spec, evaluator, "chess", searcher.tt_mb, searcher.tt_ways
        )
        searcher.use_table(helpers.table)
    for fen in game.bench_positions:
        position = game.from_string(fen)
        searcher.new_game()
        if helpers is not None:
            helpers.new_game()
            helpers.start(position)
        result = searcher.search(position, catalog.evaluator(evaluator), Limit(depth=depth))
        if helpers is not None:
            helpers.stop()
        for info in result.infos:
            row = totals[info.depth]
            row[0] += info.nodes
            row[1] += info.elapsed
            row[2] += 1
    return totals


def stockfish_rows(depth: int, threads: int) -> dict[int, list[float]] | None:
    engine = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if engine is None:
        return None
    totals: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0])
    process = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line: str) -> None:
        process.stdin.write(line + "\n")

    send("uci")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 16")
    for fen in ChessGame.bench_positions:
        board = ChessGame() if fen == "startpos" else ChessGame(fen)
        send("ucinewgame")
        send(f"position fen {board.to_string()}")
        send(f"go depth {depth}")
        seen: dict[int, tuple[int, float]] = {}
        for line in process.stdout:
            if line.startswith("bestmove"):
                break
            fields = line.split()
            if fields[:2] == ["info", "depth"] and "nodes" in fields and "time" in fields:
                d = int(fields[2])
                seen[d] = (
                    int(fields[fields.index("nodes") + 1]),
                    int(fields[fields.index("time") + 1]) / 1000,
                )
        for d, (nodes, seconds) in seen.items():
            row = totals[d]
            row[0] += nodes
            row[1] += seconds
            row[2] += 1
    send("quit")
    process.wait(timeout=10)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--searcher", default=ChessGame.play_searcher)
    parser.add_argument("--evaluator", default=ChessGame.play_evaluator)
    args = parser.parse_args()
    ours = alfabeta_rows(args.searcher, args.evaluator, args.depth, args.threads)
    theirs = stockfish_rows(args.depth, args.threads) or {}
    print(f"alfabeta: {args.searcher}, {args.evaluator}; threads {args.threads}")
    print("depth  positions  alfabeta nodes  seconds  | stockfish nodes  seconds")
    for d in range(1, args.depth + 1):
        a = ours.get(d, [0, 0.0, 0])
        s = theirs.get(d, [0, 0.0, 0])
        print(f"{d:>5}  {a[2]:>9}  {a[0]:>14,}  {a[1]:>7.2f}  | {s[0]:>15,}  {s[1]:>7.2f}")


if __name__ == "__main__":
    main()
