"""The learning database (seed-002 §2.3, Cuadro 4): one row per (game, phase) of the
perturbed side — the phase, the state (0–4) of each of the 774 variables it played that
phase with, and the game's result from its side — in SQLite, beside the arena's tables of
the same run (the self-play games) in the same file.

A game's rows go in one transaction, keyed by (run, game, phase), so writing a game twice
(a resumed run) adds nothing. ``export_csv`` writes Cuadro 4's shape: the phase label, the
values of the parameters, the result label.
"""

from __future__ import annotations

import csv
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from alfabeta.arena.records import RecordsError
from alfabeta.learning.naive_bayes import Outcome
from alfabeta.learning.params import (
    PARAMETER_COUNT,
    VARIABLES,
    BayesChessParams,
    Phase,
    state_values,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS bayes_rows (
    run_id INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    phase INTEGER NOT NULL CHECK (phase BETWEEN 0 AND 2),
    states BLOB NOT NULL,
    result INTEGER NOT NULL CHECK (result BETWEEN 0 AND 2),
    PRIMARY KEY (run_id, game_index, phase)
);
"""


class LearningDB:
    """The ``bayes_rows`` table of an SQLite file (an arena results database)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.connection = sqlite3.connect(self.path, timeout=30)
            with self.connection:
                self.connection.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise RecordsError(f"{str(path)!r} is not a learning database ({error})") from None

    def add_game(
        self, run_id: int, game_index: int, rows: Sequence[tuple[Phase, np.ndarray, Outcome]]
    ) -> int:
        """Record a game's rows (phase, states uint8[774], result); returns how many were
        new."""
        before = self.connection.total_changes
        with self.connection:
            self.connection.executemany(
                "INSERT OR IGNORE INTO bayes_rows VALUES (?, ?, ?, ?, ?)",
                [
                    (run_id, game_index, int(phase), _blob(states), int(result))
                    for phase, states, result in rows
                ],
            )
        return self.connection.total_changes - before

    def rows(
        self, run_id: int, games: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows of a run (of its games with index < ``games``) in game order: phases
        int[n], results int[n], states uint8[n, 774]."""
        records = self.connection.execute(
            "SELECT phase, result, states FROM bayes_rows WHERE run_id = ? AND game_index < ? "
            "ORDER BY game_index, phase",
            (run_id, _limit(games)),
        ).fetchall()
        phases = np.array([r[0] for r in records], dtype=np.int64)
        results = np.array([r[1] for r in records], dtype=np.int64)
        states = np.zeros((len(records), PARAMETER_COUNT), dtype=np.uint8)
        for i, record in enumerate(records):
            states[i] = _states(record[2], self.path)
        return phases, results, states

    def games(self, run_id: int, games: int | None = None) -> list[int]:
        """The indices of the games with rows (those < ``games``), in order."""
        return [
            r[0]
            for r in self.connection.execute(
                "SELECT DISTINCT game_index FROM bayes_rows WHERE run_id = ? AND game_index < ? "
                "ORDER BY 1",
                (run_id, _limit(games)),
            )
        ]

    def export_csv(self, run_id: int, path: str | Path, base: BayesChessParams) -> int:
        """Write the run's rows as Cuadro 4 (values, not state numbers); returns the count."""
        phases, results, states = self.rows(run_id)
        values = state_values(base.vector)
        columns = np.arange(PARAMETER_COUNT)
        try:
            with open(path, "w", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(["phase", *VARIABLES, "result"])
                for phase, result, row in zip(phases, results, states, strict=True):
                    writer.writerow(
                        [Phase(phase).label, *values[columns, row].tolist(), Outcome(result).label]
                    )
        except OSError as error:
            raise RecordsError(f"cannot write {str(path)!r}: {error}") from None
        return len(phases)

    def close(self) -> None:
        """Close the database."""
        self.connection.close()


def _limit(games: int | None) -> int:
    return 2**62 if games is None else games


def _blob(states: np.ndarray) -> bytes:
    array = np.asarray(states, dtype=np.uint8)
    if array.shape != (PARAMETER_COUNT,) or array.max() >= 5:
        raise RecordsError(f"a row needs {PARAMETER_COUNT} states 0–4")
    return array.tobytes()


def _states(blob: bytes, path: Path) -> np.ndarray:
    array = np.frombuffer(blob, dtype=np.uint8)
    if array.shape != (PARAMETER_COUNT,) or (len(array) and array.max() >= 5):
        raise RecordsError(f"{str(path)!r}: a learning row is corrupt ({len(blob)} bytes)")
    return array
