"""Connect Four, negamax with alpha-beta to depth 8 from the empty board: alfabeta's compiled
alpha-beta against easyAI's Negamax(8), side by side in one run, with both node counts.

Needs easyAI (not a dependency of alfabeta): ``pip install easyAI``. Run:
``python benchmarks/connect_four_vs_easyai.py``
"""

import time

import numpy as np

from alfabeta import Limit, load_catalog

DEPTH = 8


def easyai_search() -> tuple[int, float, int]:
    """easyAI's ConnectFour with Negamax(8): (column chosen, seconds, moves made)."""
    from easyAI import AI_Player, Negamax
    from easyAI.games import ConnectFour

    counter = {"moves": 0}

    class Counted(ConnectFour):
        def make_move(self, column):
            counter["moves"] += 1
            super().make_move(column)

    game = Counted(
        [AI_Player(Negamax(DEPTH)), AI_Player(Negamax(DEPTH))], np.zeros((6, 7), dtype=int)
    )
    start = time.perf_counter()
    move = game.get_move()
    return move, time.perf_counter() - start, counter["moves"]


def alfabeta_search(repeats: int = 20) -> tuple[int, float, int]:
    catalog = load_catalog()
    position = catalog.game("connect-four")
    evaluator = catalog.evaluator("connect-four-threats")
    searcher = catalog.searcher("alphabeta")
    times = []
    for _ in range(repeats):
        result = searcher.search(position, evaluator, Limit(depth=DEPTH))
        times.append(result.elapsed)
    return result.move, sorted(times)[len(times) // 2], result.nodes


def main() -> None:
    move, seconds, moves = easyai_search()
    ours_move, ours_seconds, nodes = alfabeta_search()
    print(
        f"easyAI Negamax({DEPTH}):  column {move + 1}, {moves} moves made, {seconds:.3f} s, "
        f"{moves / seconds:,.0f} moves/s"
    )
    print(
        f"alfabeta alphabeta:  column {ours_move + 1}, {nodes} nodes, "
        f"{ours_seconds * 1000:.3f} ms, {nodes / ours_seconds:,.0f} nodes/s"
    )
    print(f"speed-up (time for the same depth-{DEPTH} search): {seconds / ours_seconds:,.0f}x")


if __name__ == "__main__":
    main()
