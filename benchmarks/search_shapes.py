"""The shape of each search: nodes and effective branching factor at depths 4–8 on Connect
Four and TRGD, and MTD(f) against aspiration NegaScout (both with iterative deepening and a
transposition table; the literature has MTD(f) 5–10% fewer leaves).
Run: python benchmarks/search_shapes.py
"""

from alfabeta import load_catalog
from alfabeta.arena.bench import run_bench

SEARCHERS = [
    "minimax",
    "alphabeta",
    "negascout",
    "scout",
    "sss*",
    "dual*",
    "alphabeta(tt=on, iterative=on, killers=on, history=on)",
    "negascout(tt=on, iterative=on, killers=on, history=on, aspiration=20)",
    "mtdf(killers=on, history=on)",
    "null-move(tt=on, iterative=on)",
]
GAMES = [("connect-four", range(4, 9)), ("trgd", range(4, 9))]
ENHANCED = [
    "negascout(tt=on, iterative=on, aspiration=20, killers=on, history=on)",
    "mtdf(killers=on, history=on)",
]


def main() -> None:
    catalog = load_catalog()
    for game, depths in GAMES:
        print(f"\n{game}: total nodes over the bench positions (effective branching factor)")
        records = run_bench(catalog, game, SEARCHERS, list(depths), min_time=0)
        print(f"{'searcher':<72}" + "".join(f"{d:>16}" for d in depths))
        for name in SEARCHERS:
            row, previous = [], None
            for depth in depths:
                nodes = sum(r.nodes for r in records if r.searcher == name and r.depth == depth)
                ebf = f"({nodes / previous:.2f})" if previous else ""
                row.append(f"{nodes:>9}{ebf:>7}")
                previous = nodes
            print(f"{name:<72}" + "".join(row))
        print("\nleaves, MTD(f) vs aspiration NegaScout (ID + TT):")
        runs = run_bench(catalog, game, ENHANCED, list(depths), min_time=0)
        for depth in depths:
            leaves = [
                sum(r.leaves for r in runs if r.searcher == s and r.depth == depth)
                for s in ENHANCED
            ]
            print(
                f"  depth {depth}: negascout {leaves[0]:>9}  mtdf {leaves[1]:>9}  "
                f"mtdf/negascout {leaves[1] / leaves[0]:.3f}"
            )


if __name__ == "__main__":
    main()
