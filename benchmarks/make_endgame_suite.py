"""Write a suite of chess endgame start positions for matches that measure endgame play:
positions of a labelled EPD file (``benchmarks/data/texel-*.epd.gz``, whose ``ce`` is a
score for the side to move) with no queens, at most ``--max-units`` of pieces a side (knight
and bishop 3, rook 5), at least ``--min-pawns`` pawns, and a score within ±``--balance``,
each board once, ``--count`` of them drawn at random with ``--seed``.

    python benchmarks/make_endgame_suite.py --count 500 --out /tmp/endgames.epd
    alfabeta match chess A B --openings /tmp/endgames.epd --openings-order random ...
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
from pathlib import Path

UNITS = {"n": 3, "b": 3, "r": 5, "q": 9}
SCORE = re.compile(r"\bce (-?\d+);")


def units(board: str, colour: str) -> int:
    """The pieces of ``colour`` ("w" or "b") on a FEN board, in units."""
    pieces = board if colour == "b" else board.swapcase()
    return sum(UNITS.get(c, 0) for c in pieces if c.islower())


def endgame_lines(path: Path, max_units: int, min_pawns: int, balance: int) -> list[str]:
    """The EPD records of ``path`` that pass the filters, each board and side to move once."""
    chosen: dict[str, str] = {}
    with gzip.open(path, "rt") if path.suffix == ".gz" else path.open() as lines:
        for line in lines:
            fields = line.split()
            score = SCORE.search(line)
            if len(fields) < 4 or score is None or abs(int(score.group(1))) > balance:
                continue
            board = fields[0]
            if "q" in board.lower() or board.lower().count("p") < min_pawns:
                continue
            if max(units(board, "w"), units(board, "b")) > max_units:
                continue
            chosen.setdefault(" ".join(fields[:2]), " ".join(fields[:4]))
    return list(chosen.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--source", type=Path, default=Path(__file__).parent / "data" / "texel-net-positions.epd.gz"
    )
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--max-units", type=int, default=8)
    parser.add_argument("--min-pawns", type=int, default=2)
    parser.add_argument("--balance", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    try:
        lines = sorted(endgame_lines(args.source, args.max_units, args.min_pawns, args.balance))
    except (OSError, UnicodeDecodeError) as error:  # a missing, unreadable or corrupt file
        parser.error(f"cannot read --source {str(args.source)!r}: {error}")
    picked = random.Random(args.seed).sample(lines, min(args.count, len(lines)))
    args.out.write_text("".join(f"{line}\n" for line in picked))
    print(f"{len(picked)} of {len(lines)} endgame positions written to {args.out}")


if __name__ == "__main__":
    main()
