"""Issue 15: what ordering quiescence's captures by MVV-LVA (``captures=on``) does to the work of
a shallow search with quiescence, on the issue's Kiwipete case and on the bench positions:
nodes and seconds at each depth, with and without, and the values (which must agree).
Run: python benchmarks/quiescence_ordering.py [max_depth]
"""

import sys
import time

from alfabeta import load_catalog
from alfabeta.core import Limit

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
BASE = "alphabeta(quiescence=on, tt=on, killers=on, history=on{extra})"


CAP = 20_000_000  # nodes: a search without the ordering can run for minutes


def run(catalog, fen: str, depth: int, extra: str) -> tuple[int, float, int | None]:
    """(nodes, seconds, value) of one search; value None when it hit the node cap."""
    position = catalog.game("chess").from_string(fen)
    searcher = catalog.searcher(BASE.format(extra=extra))
    started = time.perf_counter()
    limit = Limit(depth=depth, nodes=CAP)
    result = searcher.search(position, catalog.evaluator("standard"), limit)
    value = result.value if result.complete else None
    return result.nodes, time.perf_counter() - started, value


def main() -> None:
    """Print Kiwipete at each depth, then the bench positions' totals."""
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    catalog = load_catalog()
    print(
        f"{'position':<10} {'depth':>5} {'nodes off':>12} {'s off':>8} {'nodes on':>12} {'s on':>8}"
    )
    for depth in range(1, max_depth + 1):
        off = run(catalog, KIWIPETE, depth, "")
        on = run(catalog, KIWIPETE, depth, ", captures=on")
        assert off[2] is None or off[2] == on[2], (off, on)  # ordering never changes a value
        print(
            f"{'Kiwipete':<10} {depth:>5} {off[0]:>12,} {off[1]:>8.2f} {on[0]:>12,} {on[1]:>8.2f}"
        )
    bench = catalog.game("chess").bench_positions
    for depth in range(1, max_depth + 1):
        totals = {"": [0, 0.0], ", captures=on": [0, 0.0]}
        for fen in bench:
            for extra in totals:
                nodes, seconds, _ = run(catalog, fen, depth, extra)
                totals[extra][0] += nodes
                totals[extra][1] += seconds
        (n0, s0), (n1, s1) = totals.values()
        print(f"{'bench 20':<10} {depth:>5} {n0:>12,} {s0:>8.2f} {n1:>12,} {s1:>8.2f}")
    print(f"(a search stopped at the cap of {CAP:,} nodes counts {CAP:,})")


if __name__ == "__main__":
    main()
