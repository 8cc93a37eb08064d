"""Arena throughput: games per minute for Connect Four at fixed depth on each executor, and
the arena's own cost per game (the players' search time subtracted).

    python benchmarks/arena_throughput.py --games 200 --depth 4

For each executor it prints games/min and two overheads per game: inside the worker (job
time minus the players' move time: building the game and players, the opening, the record)
and end to end (wall time × workers minus the move time, over the games: adds submission,
transport and recording in SQLite and JSON Lines).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from alfabeta.arena import Match, Player


def measure(executor: str | None, concurrency: int, workers: int, args, folder: Path) -> None:
    match = Match(
        "connect-four",
        Player(f"alphabeta(depth={args.depth})"),
        Player(f"negamax(depth={args.depth - 1})"),
        games=args.games,
        random_plies=2,
        seed=1,
        executor=executor,
        concurrency=concurrency,
    )
    tag = (executor or f"local-{concurrency}").replace(":", "-")
    began = time.perf_counter()
    result = match.run(db=folder / f"{tag}.sqlite", jsonl=folder / f"{tag}.jsonl")
    wall = time.perf_counter() - began
    moves = sum(sum(g.seconds) for g in result.games)
    jobs = sum(g.elapsed for g in result.games)
    games = len(result.games)
    print(
        f"{tag:<14} {games} games in {wall:6.2f}s = {60 * games / wall:7.0f} games/min; "
        f"overhead/game: in worker {1000 * (jobs - moves) / games:5.2f} ms, "
        f"end to end {1000 * (wall * workers - moves) / games:6.2f} ms "
        f"(moves {moves:.2f}s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        measure(None, 1, 1, args, Path(folder))
        measure(None, 2, 2, args, Path(folder))
        if not args.no_dask:
            measure("dask-local:2", 1, 2, args, Path(folder))


if __name__ == "__main__":
    main()
