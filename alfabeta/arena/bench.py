"""Cross-algorithm benchmarks: searchers × positions × depths, timed honestly.

A search shorter than ``min_time`` is repeated until the repetitions last that long, and the
median time of one search is reported, so nodes per second stays honest for fast searches.
Counts come from the first run (searches are deterministic). Results print as a table, write
as JSON Lines (one manifest record, then one record per searcher × position × depth) and draw
as nodes-versus-depth plots (the ``plot`` extra).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path

from attrs import asdict, frozen

from alfabeta.arena.environment import environment
from alfabeta.core import AlfabetaError, InvalidOptionError, Limit, SearchResult
from alfabeta.plugins.catalog import Catalog


@frozen
class BenchRecord:
    """One timed search of the bench: the game, position, searcher and depth, and what it counted
    (nodes, leaves, table hits, re-searches), its time (median of the repetitions), value and
    move."""

    game: str
    position: str
    searcher: str
    compiled: bool
    depth: int
    nodes: int
    leaves: int
    seconds: float
    nodes_per_s: float
    ebf: float | None
    tt_hits: int
    researches: int
    passes: int
    value: int
    move: str | None


def parse_depths(text: str) -> list[int]:
    """``"6"`` or ``"2-8"`` (inclusive)."""
    try:
        low, _, high = text.partition("-")
        depths = list(range(int(low), int(high or low) + 1))
    except ValueError:
        depths = []
    if not depths or depths[0] < 1:
        raise InvalidOptionError(f"--depth {text!r}: give a depth like 6 or a range like 2-8")
    return depths


def time_search(
    run: Callable[[], SearchResult], min_time: float, before: Callable[[], object] | None = None
) -> tuple[SearchResult, float]:
    """The first result and the median seconds of one run, repeating until ``min_time``;
    ``before`` runs (untimed) ahead of each run."""
    times: list[float] = []
    first: SearchResult | None = None
    total = 0.0
    while total < min_time or not times:
        if before is not None:
            before()
        start = time.perf_counter()
        result = run()
        elapsed = time.perf_counter() - start
        first = result if first is None else first
        times.append(elapsed)
        total += elapsed
    assert first is not None  # the loop runs at least once
    return first, statistics.median(times)


def run_bench(
    catalog: Catalog,
    game: str,
    searchers: Sequence[str],
    depths: Sequence[int],
    *,
    evaluator: str | None = None,
    positions: Sequence[str] | None = None,
    min_time: float = 0.2,
    progress: Callable[[BenchRecord], object] | None = None,
) -> list[BenchRecord]:
    """Benchmark every searcher on every position at every depth."""
    start = catalog.game(game)
    texts = (
        list(positions)
        if positions
        else list(
            getattr(getattr(start, "game", start), "bench_positions", ()) or [start.to_string()]
        )
    )
    chosen = [(spec, catalog.observed(catalog.searcher(spec))) for spec in searchers]
    records: list[BenchRecord] = []
    for text in texts:
        position = start.from_string(text)
        scorer = (
            catalog.evaluator(evaluator, position)
            if evaluator
            else catalog.default_evaluator(position)
        )
        for spec, searcher in chosen:
            previous = None
            for depth in depths:
                limit = Limit(depth=depth)
                result, seconds = time_search(
                    partial(searcher.search, position, scorer, limit),
                    min_time,
                    getattr(searcher, "new_game", None),  # exact counts: a cleared table
                )
                record = BenchRecord(
                    game=game,
                    position=position.to_string(),
                    searcher=spec,
                    compiled=bool(getattr(searcher, "compiled", False)),
                    depth=depth,
                    nodes=result.nodes,
                    leaves=result.leaves,
                    seconds=seconds,
                    nodes_per_s=result.nodes / seconds if seconds > 0 else 0.0,
                    ebf=result.nodes / previous if previous else None,
                    tt_hits=result.tt_hits,
                    researches=result.researches,
                    passes=result.passes,
                    value=result.value,
                    move=position.move_str(result.move) if result.move is not None else None,
                )
                previous = result.nodes
                records.append(record)
                if progress is not None:
                    progress(record)
    return records


def signature(records: Iterable[BenchRecord]) -> dict[str, int]:
    """Total nodes per searcher over the whole set: the bench signature."""
    totals: dict[str, int] = {}
    for record in records:
        totals[record.searcher] = totals.get(record.searcher, 0) + record.nodes
    return totals


def manifest(game: str, searchers: Sequence[str], catalog: Catalog) -> dict:
    """Where and with what the numbers were measured."""
    compiled = {
        spec: bool(getattr(catalog.searcher(spec), "compiled", False)) for spec in searchers
    }
    return {"type": "manifest", **environment(), "game": game, "compiled": compiled}


class JsonlRecords:
    """A JSON Lines file of bench records written as they come: the manifest first, then
    each record flushed at once, so an interrupted bench keeps what it measured."""

    def __init__(self, path: str | Path, head: dict) -> None:
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as error:
            raise AlfabetaError(f"cannot write {str(path)!r}: {error.strerror}") from None
        self._write(head)

    def _write(self, record: dict) -> None:
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()

    def add(self, record: BenchRecord) -> None:
        """Append ``record`` as a ``result`` line and flush it."""
        self._write({"type": "result", **asdict(record)})

    def close(self) -> None:
        """Close the file; every record written so far is on disk."""
        self.file.close()


def plot(records: Sequence[BenchRecord], path: str | Path, title: str) -> None:
    """Nodes against depth per searcher (summed over positions), log scale, to a PNG."""
    from alfabeta.plotting import pyplot

    plt = pyplot()
    series: dict[str, dict[int, int]] = {}
    for record in records:
        by_depth = series.setdefault(record.searcher, {})
        by_depth[record.depth] = by_depth.get(record.depth, 0) + record.nodes
    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, by_depth in series.items():
        depths = sorted(by_depth)
        axes.plot(depths, [by_depth[d] for d in depths], marker="o", label=name)
    axes.set_yscale("log")
    axes.set_xlabel("depth")
    axes.set_ylabel("nodes (all bench positions)")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
