"""How a player's own scores compare with its opponent's in the games they played: a
diagnostic of where a searcher misjudges positions, not a strength measure (strength is an
arena match).

From arena databases (``arena_vs_stockfish.py --db``), each move of ``--player`` whose score
and the opponent's score on the next ply are both known gives a pair: the player's score
and the opponent's, turned to the player's view (centipawns; pairs beyond ±``--clamp`` in
either are left out, mates among them). The pairs are grouped by the material left after
the player's move (phase: knight and bishop 1, rook 2, queen 4; the middlegame from 15, the
endgame up to 6) and, within a group, by the opponent's score, so that a row compares the
two where the opponent (Stockfish, the better judge) sees the same thing: a player that
judges like its opponent scores each row about as the opponent does. (Grouped by the
player's own score instead, the rows would show its errors' spread as well as any bias.)

    python benchmarks/score_bias.py --db vs-stockfish.sqlite --player alfabeta

The two scores are a ply apart (the player's before the opponent's move, the opponent's
after it), and each engine's centipawns are its own: Stockfish 15.1 reports 100 where it
expects to win half the games.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from alfabeta import load_catalog
from alfabeta.arena.records import games_of
from alfabeta.core import AlfabetaError

PHASE_UNITS = {"n": 1, "b": 1, "r": 2, "q": 4}
PHASES = (("middlegame", 15, 99), ("late middlegame", 7, 14), ("endgame", 0, 6))
OPPONENT_BANDS = ((-600, -300), (-300, -150), (-150, -50), (50, 150), (150, 300), (300, 600))


def phase(fen: str) -> int:
    """The material on a FEN's board in phase units (24 at the start)."""
    return sum(PHASE_UNITS.get(c.lower(), 0) for c in fen.split()[0] if c.isalpha())


def score_pairs(paths: list[str], player: str, clamp: int) -> list[tuple[int, int, int]]:
    """(phase after the player's move, its score, the opponent's next score in its view)
    for every move of ``player`` in the databases where both are known and within
    ±``clamp``."""
    game = load_catalog().game("chess")
    pairs = []
    for record in games_of(paths, player):
        side = record.players.index(player)
        position = game.from_string(record.start)
        for ply, text in enumerate(record.moves):
            position.push(position.parse_move(text))
            if ply % 2 != side or ply + 1 >= len(record.scores):
                continue
            ours, theirs = record.scores[ply], record.scores[ply + 1]
            if ours is None or theirs is None or max(abs(ours), abs(theirs)) > clamp:
                continue
            pairs.append((phase(position.to_string()), ours, -theirs))
    return pairs


def report(pairs: list[tuple[int, int, int]]) -> None:
    """One block a phase: the mean difference, then a row per band of the opponent's
    score with the mean of each side's."""
    for name, low, high in PHASES:
        group = [(ours, theirs) for units, ours, theirs in pairs if low <= units <= high]
        if not group:
            continue
        bias = statistics.mean(ours - theirs for ours, theirs in group)
        print(
            f"{name} ({low}-{min(high, 24)} units): {len(group)} moves, mean difference {bias:+.1f}"
        )
        for lower, upper in OPPONENT_BANDS:
            band = [(o, t) for o, t in group if lower <= t < upper]
            if band:
                print(
                    f"  opponent in [{lower:+d}, {upper:+d}): {len(band):5d} moves, "
                    f"opponent {statistics.mean(t for _, t in band):+6.0f}, "
                    f"player {statistics.mean(o for o, _ in band):+6.0f}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", required=True, help="arena database (repeat)")
    parser.add_argument("--player", default="alfabeta", help="the player whose scores to compare")
    parser.add_argument("--clamp", type=int, default=1500, help="leave out scores beyond ±this")
    args = parser.parse_args()
    try:
        report(score_pairs(args.db, args.player, args.clamp))
    except AlfabetaError as error:  # a bad database or player
        raise SystemExit(f"score_bias: {error}") from None
    except KeyboardInterrupt:  # it only reads: nothing to keep
        print("score_bias: interrupted", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
