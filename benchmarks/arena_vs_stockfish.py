"""The default chess engine configuration (the one `alfabeta uci` plays) against Debian's
Stockfish at UCI_Elo levels, through the arena: Threads 1, Hash 16, both colours from the
20 balanced openings in benchmarks/data/openings.pgn (or ``--openings``), fishtest's
adjudication.

    python benchmarks/arena_vs_stockfish.py --levels 1500,2000,2400 --games 40 \
        --tc 10+0.1 --concurrency 2 --db vs-stockfish.sqlite

Prints each match's report (score, pentanomial, Elo ± 95% CI, LOS) and the games lost on time
by either side. ``--openings benchmarks/data/openings-wide.pgn --openings-order random --seed
N`` plays from the 1,000-opening suite in a seeded order instead. ``--searcher`` plays another
configuration (a candidate default) in the same conditions, e.g. ``--searcher "negascout(...,
moves_to_go=15)"``. ``--ponder`` plays alfabeta as ``alfabeta uci`` with ``Ponder=true``, so
that it thinks on Stockfish's time (Stockfish does not ponder); run it with ``--concurrency 1``
on two cores, so that the pondering search has a core of its own. ``--threads N`` plays
``alfabeta uci`` with ``Threads=N`` (Lazy SMP helper processes; Stockfish keeps Threads 1, as
the issue's conditions say); on two cores, with ``--concurrency 1`` too. Needs
`apt-get install stockfish`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

from alfabeta import load_catalog
from alfabeta.arena import Adjudication, DrawRule, Match, Player, ResignRule, RunInterrupted
from alfabeta.arena.progress import RunProgress
from alfabeta.core import AlfabetaError
from alfabeta.uci import DEFAULT_EVALUATOR, DEFAULT_SEARCHER, THREADS

OPENINGS = Path(__file__).parent / "data" / "openings.pgn"
UCI_ELO = (1350, 2850)
"""The `UCI_Elo` range Stockfish 15.1 accepts."""


def levels(text: str) -> list[int]:
    """``--levels``: comma-separated `UCI_Elo` values within ``UCI_ELO``."""
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers") from None
    for value in values:
        if not UCI_ELO[0] <= value <= UCI_ELO[1]:
            raise argparse.ArgumentTypeError(
                f"{value}: Stockfish takes UCI_Elo {UCI_ELO[0]} … {UCI_ELO[1]}"
            )
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=levels, default="1500,2000,2400")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--tc", default="10+0.1")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--db", default="vs-stockfish.sqlite")
    parser.add_argument("--pgn", default=None)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--openings", default=str(OPENINGS), help="a PGN or EPD opening suite")
    parser.add_argument("--openings-order", choices=("sequential", "random"), default="sequential")
    parser.add_argument("--seed", type=int, default=0, help="the random order's seed")
    parser.add_argument("--searcher", default=DEFAULT_SEARCHER, help="alfabeta's searcher spec")
    parser.add_argument("--evaluator", default=DEFAULT_EVALUATOR, help="alfabeta's evaluator")
    parser.add_argument("--ponder", action="store_true", help="alfabeta ponders, through UCI")
    parser.add_argument("--threads", type=int, default=1, help="alfabeta's UCI Threads")
    args = parser.parse_args()
    if not THREADS[0] <= args.threads <= THREADS[1]:
        parser.error(f"--threads {args.threads}: alfabeta uci takes {THREADS[0]} … {THREADS[1]}")
    stockfish = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")
    if stockfish is None:
        raise SystemExit("needs Debian's stockfish: apt-get install stockfish")
    if args.ponder or args.threads != 1:  # through UCI, which would only answer a bad
        catalog = load_catalog()  # spec with an "info string": check them here first
        catalog.searcher(args.searcher)
        catalog.evaluator(args.evaluator, catalog.game("chess"))
        command = f"{sys.executable} -m alfabeta.cli uci"
        name = "alfabeta" + ("-ponder" if args.ponder else "")
        name += f"-t{args.threads}" if args.threads != 1 else ""
        ours = Player(
            f"{name}=uci(command={command!r}, Searcher={args.searcher!r}, "
            f"Evaluator={args.evaluator!r}, Ponder={str(args.ponder).lower()}, "
            f"Threads={args.threads})",
            tc=args.tc,
        )
    else:
        ours = Player(f"alfabeta={args.searcher}", evaluator=args.evaluator, tc=args.tc)
    for level in args.levels:
        theirs = Player(
            f"sf{level}=uci(command={stockfish!r}, Threads=1, Hash=16, "
            f"UCI_LimitStrength=true, UCI_Elo={level})",
            tc=args.tc,
        )
        match = Match(
            "chess",
            ours,
            theirs,
            games=args.games,
            openings=args.openings,
            openings_order=args.openings_order,
            seed=args.seed,
            adjudication=Adjudication(ResignRule(3, 600), DrawRule(34, 8, 20)),
            concurrency=args.concurrency,
        )
        began = time.perf_counter()
        result = match.run(db=args.db, pgn=args.pgn, resume=args.resume, progress=RunProgress())
        minutes = (time.perf_counter() - began) / 60
        print(f"== alfabeta vs Stockfish UCI_Elo {level}, {args.tc}, {minutes:.1f} min")
        for line in result.summary():
            print(line)
        on_time = [g for g in result.games if g.termination == "time forfeit"]
        losers = [g.players[1 - g.winner] for g in on_time if g.winner is not None]
        print(f"time forfeits: {len(on_time)} ({', '.join(losers) or 'none'})", flush=True)


if __name__ == "__main__":
    try:
        main()
    except RunInterrupted as stopped:  # Ctrl-C: the finished games are in the database
        print(
            f"interrupted: {stopped.games} games recorded; --resume plays the rest", file=sys.stderr
        )
        sys.exit(130)
    except AlfabetaError as error:  # a bad --searcher, --evaluator or --tc
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)
