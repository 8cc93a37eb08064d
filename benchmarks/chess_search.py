"""Chess search on the bench positions, side by side with Stockfish's ``bench`` when it is
installed: nodes/s with each evaluator; the effective branching factor of NegaScout with a
TT, killers, history, null move and late-move reductions (no quiescence), and of the chess
engine's play configuration; nodes saved by null move.
Run: python benchmarks/chess_search.py"""

import re
import shutil
import subprocess

from alfabeta import Limit, load_catalog
from alfabeta.games.chess.board import ChessGame

NULL_MOVE_LMR = "negascout(tt=on, iterative=on, killers=on, history=on, null_move=2, lmr=3)"
PLAY = ChessGame.play_searcher  # what the UCI engine and `alfabeta play` use


def stockfish_bench() -> str | None:
    engine = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if engine is None:
        return None
    out = subprocess.run(
        [engine, "bench", "16", "1", "13"], capture_output=True, text=True, timeout=600
    ).stderr
    nps = re.search(r"Nodes/second\s*:\s*(\d+)", out)
    return nps.group(1) if nps else None


def run(catalog, spec, evaluator, depth):
    game = catalog.game("chess")
    nodes = seconds = 0
    for fen in game.bench_positions:
        result = catalog.searcher(spec).search(
            game.from_string(fen), catalog.evaluator(evaluator), Limit(depth=depth)
        )
        nodes, seconds = nodes + result.nodes, seconds + result.elapsed
    return nodes, seconds


def main() -> None:
    catalog = load_catalog()
    print("nodes/s over the 20 bench positions, negascout(tt, iterative) depth 5:")
    for evaluator in ("material", "bayeschess", "standard", "cpw"):
        nodes, seconds = run(catalog, "negascout(tt=on, iterative=on)", evaluator, 5)
        print(f"  {evaluator:<12} {nodes:>10} nodes  {nodes / seconds:>12,.0f} nodes/s")
    for spec in (NULL_MOVE_LMR, PLAY):
        print(f"\n{spec}, evaluator standard: nodes by depth (effective branching factor)")
        previous = None
        for depth in range(4, 9):
            nodes, seconds = run(catalog, spec, "standard", depth)
            ebf = f"{nodes / previous:.2f}" if previous else "-"
            print(f"  depth {depth}: {nodes:>10} nodes  ebf {ebf:>5}  {seconds:7.2f}s")
            previous = nodes
    print("\nnull move, depth 6, evaluator standard:")
    without, _ = run(
        catalog, "negascout(tt=on, iterative=on, killers=on, history=on)", "standard", 6
    )
    with_null, _ = run(
        catalog,
        "negascout(tt=on, iterative=on, killers=on, history=on, null_move=2)",
        "standard",
        6,
    )
    print(f"  without {without}  with R=2 {with_null}  saved {1 - with_null / without:.1%}")
    nps = stockfish_bench()
    if nps:
        print(f"\nStockfish bench (16 MB, 1 thread, depth 13): {int(nps):,} nodes/s")


if __name__ == "__main__":
    main()
