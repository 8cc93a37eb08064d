"""Chess perft side by side in one run: alfabeta (make/unmake at every leaf, and bulk
counting), python-chess (push/pop at every leaf, and bulk), and Stockfish's ``go perft`` when
it is installed (``apt-get install stockfish``). Run: python benchmarks/chess_perft.py"""

import shutil
import subprocess
import time
from functools import partial

import chess

from alfabeta import load_catalog
from alfabeta.core.walk import perft

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
}


def python_chess_perft(board: chess.Board, depth: int, bulk: bool) -> int:
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1, bulk)
        board.pop()
    return total


def stockfish_perft(fen: str, depth: int) -> tuple[int, float] | None:
    engine = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if engine is None:
        return None
    start = time.perf_counter()
    out = subprocess.run(
        [engine],
        input=f"position fen {fen}\ngo perft {depth}\nquit\n",
        capture_output=True,
        text=True,
        timeout=600,
    ).stdout
    seconds = time.perf_counter() - start
    nodes = next(
        int(line.split(":")[1]) for line in out.splitlines() if line.startswith("Nodes searched")
    )
    return nodes, seconds


def timed(run):
    start = time.perf_counter()
    nodes = run()
    return nodes, time.perf_counter() - start


def main() -> None:
    catalog = load_catalog()
    for name, fen in POSITIONS.items():
        ours = catalog.game("chess").from_string(fen)
        deep = 6 if name == "start" else 5
        rows = [
            ("alfabeta, make/unmake every leaf", deep, timed(partial(perft, ours, deep))),
            ("alfabeta, bulk", deep, timed(partial(perft, ours, deep, bulk=True))),
            (
                "python-chess, push/pop every leaf",
                4,
                timed(partial(python_chess_perft, chess.Board(fen), 4, False)),
            ),
            (
                "python-chess, bulk",
                4,
                timed(partial(python_chess_perft, chess.Board(fen), 4, True)),
            ),
        ]
        stockfish = stockfish_perft(fen, deep)
        if stockfish:
            rows.append(("stockfish go perft", deep, stockfish))
        print(f"\n{name}")
        for label, depth, (nodes, seconds) in rows:
            print(
                f"  {label:<36} depth {depth}  {nodes:>11} leaves  {seconds:8.3f}s  "
                f"{nodes / seconds:>14,.0f} leaves/s"
            )


if __name__ == "__main__":
    main()
