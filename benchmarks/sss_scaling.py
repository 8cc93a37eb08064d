"""SSS* and Dual* time, states and memory against depth on the anchor tree (issue 12: the OPEN
list's cost should grow near-linearly in the states it holds). Run:
python benchmarks/sss_scaling.py [max_depth [min_depth]]
"""

import resource
import sys
import time

from alfabeta import load_catalog
from alfabeta.core import Limit


def main() -> None:
    """Print one row per searcher and depth: seconds, states popped, leaves, peak RSS."""
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    min_depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    catalog = load_catalog()
    print(
        f"{'searcher':<8} {'depth':>5} {'seconds':>9} {'states':>10} {'leaves':>9} "
        f"{'maxrss MB':>10}"
    )
    for name in ("sss*", "dual*"):
        for depth in range(min_depth, max_depth + 1):
            position = catalog.game(f"tree(branching=8, depth={depth}, seed=20240607)")
            searcher = catalog.searcher(name)
            started = time.perf_counter()
            result = searcher.search(position, catalog.evaluator("tree-leaves"), Limit(depth=depth))
            seconds = time.perf_counter() - started
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{name:<8} {depth:>5} {seconds:>9.3f} {result.nodes:>10,} {result.leaves:>9,} "
                f"{rss:>10.0f}"
            )


if __name__ == "__main__":
    main()
