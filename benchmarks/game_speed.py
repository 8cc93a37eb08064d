"""Nodes a second in play, engine against engine: a timing that the machine's drift cannot
fake, for changes meant only to make the engine faster.

Each engine (a UCI command, ``--engine NAME=COMMAND``) searches the positions of recorded
games (an arena database's, ``--db``) as it would in those games: each game's positions in
order from ``--from-ply`` to ``--to-ply``, its table kept from one to the next, a new game
(``ucinewgame``) between games, ``--nodes`` a search. Engines that make the same decisions
search the same nodes, so the clock is their only difference. The engines take turns round
after round, in alternating order (A B, then B A), so that a slow spell of the machine falls
on both alike; each round's seconds are printed as they come.

At the end, for each engine: its nodes a second over every round, whether it searched the
same nodes and chose the same moves as the first engine (if not, the comparison is of two
searches, not of two speeds), and its time over the first's with a 95 % interval (Student's
t over the rounds' log ratios).

    python benchmarks/game_speed.py --db selfplay.sqlite --games 2 --nodes 150000 \\
        --rounds 6 --engine "base=/tmp/base/bin/alfabeta uci" --engine "new=alfabeta uci"

Session 80 compared a larger score cache and a profile-guided build this way (see the
chess-engine page's "Bench").
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence

from alfabeta.arena.engine import UciEngine, engine_command, position_command
from alfabeta.arena.records import games_of
from alfabeta.core import AlfabetaError

T_975 = (
    *(12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228),
    *(2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086),
    *(2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042),
)
"""Student's t, two-sided 95 %, for 1 … 30 degrees of freedom (1.96 beyond, at most 4 %
under the true value)."""

SEARCH_SECONDS = 600
"""The longest a search may take before the engine counts as stalled."""


def t_975(freedom: int) -> float:
    return T_975[freedom - 1] if freedom <= len(T_975) else 1.96


def named_command(text: str) -> tuple[str, list[str]]:
    """``--engine``: NAME=COMMAND."""
    name, equals, command = text.partition("=")
    if not equals or not name.strip() or not command.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=COMMAND")
    return name.strip(), engine_command(command)


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive whole number")
    return value


def searches(args: argparse.Namespace) -> list[list[tuple[str, list[str]]]]:
    """For each game, the (start FEN, moves played before it) of each of its searches."""
    plan = []
    for record in games_of(args.db, args.player)[: args.games]:
        last = min(args.to_ply, len(record.moves))
        if args.from_ply < last:
            plan.append(
                [(record.start, list(record.moves[:ply])) for ply in range(args.from_ply, last)]
            )
    if not plan:
        raise SystemExit("game_speed: the databases have no position in that range of plies")
    return plan


def one_pass(
    engine: UciEngine, plan: Sequence[Sequence[tuple[str, list[str]]]], nodes: int
) -> tuple[float, int, list[str]]:
    """Search every position of ``plan`` in order, a new game (and table) for each game:
    the seconds, the nodes and the moves chosen."""
    seconds, searched, moves = 0.0, 0, []
    for game in plan:
        engine.new_game()
        for start, played in game:
            began = time.perf_counter()
            best, info = engine.search(
                position_command(start, played), f"go nodes {nodes}", SEARCH_SECONDS
            )
            seconds += time.perf_counter() - began
            searched += int(info.get("nodes", 0))
            moves.append(best)
    return seconds, searched, moves


def report(args: argparse.Namespace) -> None:
    plan = searches(args)
    names = [name for name, _ in args.engine]
    engines = [UciEngine(command) for _, command in args.engine]
    seconds: dict[str, list[float]] = {name: [] for name in names}
    nodes: dict[str, int] = {}  # each engine's nodes in its last round
    total_nodes = dict.fromkeys(names, 0)
    moves: dict[str, list[str]] = {}
    count, games = sum(len(game) for game in plan), len(plan)
    print(f"{count} searches of {args.nodes:,} nodes in {games} game{'s' * (games > 1)}, a round")
    try:
        for engine in engines:
            engine.start()
        for round_number in range(args.rounds):
            order = range(len(engines)) if round_number % 2 == 0 else reversed(range(len(engines)))
            line = []
            for index in order:
                taken, searched, chosen = one_pass(engines[index], plan, args.nodes)
                seconds[names[index]].append(taken)
                nodes[names[index]], moves[names[index]] = searched, chosen
                total_nodes[names[index]] += searched
                line.append(f"{names[index]} {taken:.2f} s")
            print(f"round {round_number + 1}: " + ", ".join(line), flush=True)
    finally:
        for engine in engines:
            engine.close()
    first = names[0]
    for name in names:
        summary = f"{name}: {total_nodes[name] / sum(seconds[name]):,.0f} nodes/s"
        if name != first:
            same = nodes[name] == nodes[first] and moves[name] == moves[first]
            summary += ", the same nodes and moves" if same else ", OTHER nodes or moves"
            ratios = [math.log(a / b) for a, b in zip(seconds[name], seconds[first], strict=True)]
            mean = statistics.fmean(ratios)
            if len(ratios) > 1:
                half = t_975(len(ratios) - 1) * statistics.stdev(ratios) / math.sqrt(len(ratios))
                summary += (
                    f"; time {math.exp(mean):.3f} × {first}'s "
                    f"(95 %: {math.exp(mean - half):.3f} to {math.exp(mean + half):.3f})"
                )
            else:
                summary += f"; time {math.exp(mean):.3f} × {first}'s (one round: no interval)"
        print(summary)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", required=True, help="arena database (repeat)")
    parser.add_argument("--player", help="only the games of this player (default: every game)")
    parser.add_argument("--games", type=positive, default=2, help="games replayed a round")
    parser.add_argument("--from-ply", type=int, default=8, help="the first ply searched")
    parser.add_argument("--to-ply", type=int, default=60, help="the ply searching stops at")
    parser.add_argument("--nodes", type=positive, default=150_000, help="nodes a search")
    parser.add_argument("--rounds", type=positive, default=4)
    parser.add_argument(
        "--engine",
        type=named_command,
        action="append",
        required=True,
        help="NAME=COMMAND, a UCI engine (repeat; the first is the reference)",
    )
    args = parser.parse_args()
    if len({name for name, _ in args.engine}) != len(args.engine):
        parser.error("each --engine needs a name of its own")
    if not 0 <= args.from_ply < args.to_ply:
        parser.error("--from-ply must be at least 0 and below --to-ply")
    return args


def main() -> None:
    try:
        report(arguments())
    except AlfabetaError as error:  # a bad database or player, a failing engine
        raise SystemExit(f"game_speed: {error}") from None
    except KeyboardInterrupt:  # the engines are closed on the way out
        print("game_speed: interrupted", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
