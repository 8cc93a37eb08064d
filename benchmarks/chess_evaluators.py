"""Evaluations per second of each chess evaluator over the chess bench positions.
Run: python benchmarks/chess_evaluators.py"""

import time

from alfabeta import load_catalog

EVALUATORS = ["material", "bayeschess", "cpw", "standard"]


def main() -> None:
    catalog = load_catalog()
    game = catalog.game("chess")
    positions = [game.from_string(fen) for fen in game.bench_positions]
    for name in EVALUATORS:
        evaluator = catalog.evaluator(name)
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < 1.0:
            for position in positions:
                for _ in range(1000):
                    evaluator.evaluate(position)
                calls += 1000
        rate = calls / (time.perf_counter() - start)
        print(f"{name:<12} {rate:>14,.0f} evaluations/s (called from Python)")
    searcher = catalog.searcher("alphabeta(depth=4)")
    for name in EVALUATORS:
        nodes, seconds = 0, 0.0
        for position in positions:
            result = searcher.search(position, catalog.evaluator(name))
            nodes, seconds = nodes + result.nodes, seconds + result.elapsed
        print(
            f"{name:<12} alphabeta depth 4 over the bench positions: {nodes:>9} nodes, "
            f"{nodes / seconds:>12,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
