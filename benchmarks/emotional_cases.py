"""The moves alfabeta plays on seed-001's three game positions (T §5.2) beside T's own, with
the plain base evaluation (cpw), the emotional one as alfabeta appraises the position, and
the emotional one with T's recorded emotion and goal.

Run: python benchmarks/emotional_cases.py [--depth 6]
"""

import argparse

from alfabeta import load_catalog
from alfabeta.core import Limit

SEARCHER = "negascout(tt=on, iterative=on, quiescence=on)"  # Deep Feeling's search (T:2710)
CASES = [  # FEN, T's move with the model, without it, T's ε, T's goal
    (
        "3qr1k1/R3n1p1/2r1pp1p/1Q1p4/3P4/2B2N2/1PP2PPP/R5K1 b - - 0 21",
        "Qc8",
        "Rb6",
        -0.7001,
        "safe-position",
    ),
    (
        "5qkr/ppp3pp/3p2n1/3P1p2/2PR4/P5Q1/1P2rPPP/2B2RK1 b - - 0 28",
        "Qf7",
        "Qf6",
        0.8439,
        "gain-advantage",
    ),
    ("3q2kr/Q4pnp/8/p2p2p1/4r3/8/5PPP/1R3K2 b - - 0 40", "Re8", "Rc4", 0.8437, "enclose"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    args = parser.parse_args()
    catalog = load_catalog()
    searcher = catalog.searcher(SEARCHER)
    print(f"{SEARCHER}, depth {args.depth}")
    print(
        "case  T with  T without  cpw    emotional (auto)                 emotional (T's ε, goal)"
    )
    for number, (fen, with_model, without, epsilon, goal) in enumerate(CASES, 1):
        moves = []
        for spec in ("cpw", "emotional", f"emotional(epsilon={epsilon}, goal={goal})"):
            position = catalog.game("chess").from_string(fen)
            evaluator = catalog.evaluator(spec)
            result = searcher.search(position, evaluator, Limit(depth=args.depth))
            note = ""
            if spec == "emotional":
                appraisal = evaluator.appraisal
                note = f" (ε {appraisal.epsilon:+.3f}, {appraisal.goal.name})"
            moves.append(position.san(result.move) + note)
        print(f"{number:<5} {with_model:<6} {without:<10} {moves[0]:<6} {moves[1]:<32} {moves[2]}")


if __name__ == "__main__":
    main()
