"""Compiled alpha-beta against the pure-Python reference on the same game and depth, side by
side in one run (issue: at least 100× the nodes/s). Run: python benchmarks/compiled_vs_reference.py
"""

from alfabeta import load_catalog
from alfabeta.arena.bench import run_bench

CASES = [
    ("tree(branching=8,depth=6,seed=20240607)", 6),
    ("connect-four", 7),
    ("trgd", 4),
    ("fibonacci-nim(n=40)", 6),
    ("tictactoe", 5),
]


def main() -> None:
    catalog = load_catalog()
    print(f"{'game':<42} {'depth':>5} {'alphabeta n/s':>15} {'py-alphabeta n/s':>17} {'ratio':>7}")
    for game, depth in CASES:
        records = run_bench(catalog, game, ["alphabeta", "py-alphabeta"], [depth], min_time=1.0)
        rate = {}
        for name in ("alphabeta", "py-alphabeta"):
            nodes = sum(r.nodes for r in records if r.searcher == name)
            seconds = sum(r.seconds for r in records if r.searcher == name)
            rate[name] = nodes / seconds
        print(
            f"{game:<42} {depth:>5} {rate['alphabeta']:>15,.0f} {rate['py-alphabeta']:>17,.0f} "
            f"{rate['alphabeta'] / rate['py-alphabeta']:>6.0f}x"
        )


if __name__ == "__main__":
    main()
