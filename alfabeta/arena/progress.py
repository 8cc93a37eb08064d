"""What a person sees of a run: a live progress line on stderr and the result tables.

The progress bar (rich) shows games done, W-D-L, the current Elo ± CI and, with an SPRT, the
LLR against its bounds; it is drawn only on a terminal. Tables go through
``alfabeta.console.print_table``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import IO, Any

from alfabeta.arena.rating import EloEstimate
from alfabeta.console import print_table


class RunProgress:
    """A rich progress bar fed by the driver: ``start``, ``update`` after each game, ``stop``.
    ``bind`` gives it the function that summarises the games so far (a match or tournament
    result)."""

    def __init__(self, stream: IO[str] | None = None, enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.summarise: Callable[[list], Any] | None = None
        self.progress: Any = None  # a rich Progress while running
        self.task: Any = None

    def bind(self, summarise: Callable[[list], Any]) -> None:
        """Give the bar the function that summarises the games so far."""
        self.summarise = summarise

    def start(self, total: int, games: list) -> None:
        """Show the bar for ``total`` games, ``games`` of them already played."""
        if not self.enabled:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self.progress = Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.description}"),
            console=Console(file=self.stream),
            transient=True,
        )
        self.progress.start()
        self.task = self.progress.add_task(self._describe(games), total=total, completed=len(games))

    def update(self, games: list) -> None:
        """Redraw the bar after a game."""
        if self.progress is not None:
            self.progress.update(self.task, completed=len(games), description=self._describe(games))

    def stop(self) -> None:
        """Remove the bar."""
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def _describe(self, games: list) -> str:
        if self.summarise is None or not games:
            return ""
        result = self.summarise(games)
        if isinstance(result, str):
            return result
        if hasattr(result, "wdl"):
            wdl = result.wdl()
            text = f"W-D-L {wdl.wins}-{wdl.draws}-{wdl.losses}  Elo {result.elo()}"
            llr = result.llr()
            if llr is not None:
                sprt = result.sprt_test
                text += f"  LLR {llr:.2f} ({sprt.lower_bound:.2f}, {sprt.upper_bound:.2f})"
            return text
        leader = result.standings()[0]
        return f"leader {leader.name} {leader.points:g}"


def elo_cells(elo: EloEstimate) -> tuple[str, str]:
    """An Elo estimate's value and error as table cells (±inf where the score is 0 or 100 %)."""

    def text(value: float) -> str:
        return ("+inf" if value > 0 else "-inf") if math.isinf(value) else f"{value:.1f}"

    error = elo.error
    return text(elo.elo), ("inf" if math.isinf(error) or math.isnan(error) else f"{error:.1f}")


def print_crosstable(result: Any, out: IO[str], plain: bool | None = None) -> None:
    """A cutechess-style table: rank, name, Elo ± CI, games, score, draws, then W-D-L
    against each opponent, in ranking order."""
    standings = result.standings()
    names = [s.name for s in standings]
    short = [str(i + 1) for i in range(len(names))]
    headers = ["Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw", *short]
    rows = []
    for rank, s in enumerate(standings, 1):
        elo, error = elo_cells(s.elo)
        against = []
        for other in names:
            if other == s.name:
                against.append("-")
                continue
            w = result.pairwise(s.name, other)
            against.append(f"{w.wins}-{w.draws}-{w.losses}" if w.games else "")
        rows.append(
            [
                rank,
                s.name,
                elo,
                error,
                s.wdl.games,
                f"{100 * s.wdl.score:.1f}%",
                f"{100 * s.wdl.draw_ratio:.1f}%",
                *against,
            ]
        )
    print_table(headers, rows, out, plain=plain)
