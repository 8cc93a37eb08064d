"""Evaluations per second of each chess evaluator over the chess bench positions.
Run: python benchmarks/chess_evaluators.py [--model bc.json]  (a BayesChess model adds
``bayeschess`` with it, fixed target and adaptive, to compare with the fixed parameters)"""

import argparse
import time

from alfabeta import load_catalog

EVALUATORS = ["material", "bayeschess", "cpw", "emotional", "standard"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", help="a BayesChess model to time beside the fixed one")
    args = parser.parse_args()
    evaluators = list(EVALUATORS)
    if args.model:
        evaluators += [
            f'bayeschess(model="{args.model}")',
            f'bayeschess(model="{args.model}", target=adaptive)',
        ]
    catalog = load_catalog()
    game = catalog.game("chess")
    positions = [game.from_string(fen) for fen in game.bench_positions]
    width = max(len(name) for name in evaluators)
    for name in evaluators:
        evaluator = catalog.evaluator(name)
        calls, seconds, prepared = 0, 0.0, 0.0
        while seconds < 1.0:
            for position in positions:
                start = time.perf_counter()
                evaluator.prepare(position)  # once per search, as a searcher does
                prepared += time.perf_counter() - start
                start = time.perf_counter()
                for _ in range(1000):
                    evaluator.evaluate(position)
                seconds += time.perf_counter() - start
                calls += 1000
        print(
            f"{name:<{width}} {calls / seconds:>14,.0f} evaluations/s (called from Python), "
            f"prepare {1e6 * prepared / (calls / 1000):,.1f} µs"
        )
    searcher = catalog.searcher("alphabeta(depth=4)")
    for name in evaluators:
        nodes, seconds = 0, 0.0
        for position in positions:
            result = searcher.search(position, catalog.evaluator(name))
            nodes, seconds = nodes + result.nodes, seconds + result.elapsed
        print(
            f"{name:<{width}} alphabeta depth 4 over the bench positions: {nodes:>9} nodes, "
            f"{nodes / seconds:>12,.0f} nodes/s"
        )


if __name__ == "__main__":
    main()
