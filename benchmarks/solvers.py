"""What the solvers cost: retrograde analysis of whole games (time, states, peak memory),
df-pn against alpha-beta with iterative deepening on the project's EPD mates, and df-pn
against the pure-Python ``py-solve`` on Fibonacci nim and tic-tac-toe.

Run: python benchmarks/solvers.py
"""

import resource
import time
from pathlib import Path

from alfabeta import load_catalog
from alfabeta.core import Limit
from alfabeta.core.scores import plies_to_end
from alfabeta.solvers.proof import prove
from alfabeta.solvers.retrograde import solve_table

EPD = Path(__file__).parent.parent / "tests" / "data" / "epd" / "verified.epd"


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    catalog = load_catalog()
    print("retrograde analysis")
    for spec in (
        "tictactoe",
        "trgd",
        "connect-four(width=4, height=4)",
        "connect-four(width=5, height=4)",
        "fibonacci-nim(n=100)",
    ):
        position = catalog.game(spec)
        start = time.perf_counter()
        table, _ = solve_table(position)
        seconds = time.perf_counter() - start
        value, distance = table.of(position)
        print(
            f"  {spec:<34} {len(table):>10,} states {seconds:>7.2f}s  value {value:+d} "
            f"distance {distance:>3}  peak RSS {peak_mb():,.0f} MB  {table.counts()}"
        )

    print("chess mates: df-pn (checks first) against alphabeta(tt, iterative) to the mate depth")
    for line in EPD.read_text().splitlines():
        if '"mate in' not in line:
            continue
        fen = line.split(" bm ")[0] + " 0 1"
        n = int(line.split('"mate in ')[1][0])
        position = catalog.game("chess").from_string(fen)
        proof = prove(position, max_plies=2 * n - 1, forcing_first=True)
        searcher = catalog.searcher("alphabeta(tt=on, iterative=on, killers=on, history=on)")
        start = time.perf_counter()
        result = searcher.search(position, catalog.evaluator("material"), Limit(depth=2 * n - 1))
        seconds = time.perf_counter() - start
        print(
            f"  {line.split('id ')[1].split(';')[0]:<10} mate in {n}: df-pn {proof.nodes:>7,} "
            f"nodes {proof.seconds * 1000:>8.1f} ms | alphabeta {result.nodes:>9,} nodes "
            f"{seconds * 1000:>8.1f} ms (mate in {(plies_to_end(result.value) + 1) // 2})"
        )

    print("df-pn against py-solve")
    for spec in ("fibonacci-nim(n=55)", "fibonacci-nim(n=89)", "tictactoe"):
        position = catalog.game(spec)
        proof = prove(position)
        start = time.perf_counter()
        solved = catalog.searcher("py-solve").search(position, catalog.default_evaluator(position))
        seconds = time.perf_counter() - start
        print(
            f"  {spec:<22} df-pn {proof.value:<5} {proof.nodes:>8,} nodes "
            f"{proof.seconds * 1000:>8.1f} ms | py-solve value {solved.value:>8} "
            f"{solved.nodes:>9,} nodes {seconds * 1000:>9.1f} ms"
        )


if __name__ == "__main__":
    main()
