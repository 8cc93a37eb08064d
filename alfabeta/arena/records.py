"""Where finished games go, each as soon as it finishes: a SQLite database (the embedded
default, which ``--resume`` and ``alfabeta results`` read), JSON Lines, and PGN for chess.

Every write is committed (SQLite) or flushed (files) before the next game is looked at, so an
interrupted run, or one whose worker died, keeps every game that finished.

The database has three tables: ``alfabeta`` (schema version), ``runs`` (one row a match or
tournament: its kind, its configuration as JSON — what ``--resume`` matches on — and its
manifest: versions, plugins, host, options, seed) and ``games`` (one row a game: players,
opening, result, termination, moves, and per-move seconds, nodes, depths and scores as JSON
arrays).
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from alfabeta.arena.jobs import GameResult
from alfabeta.core import AlfabetaError

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS alfabeta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    created TEXT NOT NULL,
    config TEXT NOT NULL,
    manifest TEXT NOT NULL,
    requested INTEGER NOT NULL,
    status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    game_index INTEGER NOT NULL,
    pair INTEGER NOT NULL,
    round INTEGER NOT NULL,
    first TEXT NOT NULL,
    second TEXT NOT NULL,
    game TEXT NOT NULL,
    initial TEXT NOT NULL,
    opening TEXT NOT NULL,
    opening_name TEXT NOT NULL,
    start TEXT NOT NULL,
    moves TEXT NOT NULL,
    plies INTEGER NOT NULL,
    result TEXT NOT NULL,
    winner INTEGER,
    termination TEXT NOT NULL,
    reason TEXT NOT NULL,
    seconds TEXT NOT NULL,
    nodes TEXT NOT NULL,
    depths TEXT NOT NULL,
    scores TEXT NOT NULL,
    seed INTEGER NOT NULL,
    worker TEXT NOT NULL,
    elapsed REAL NOT NULL,
    finished TEXT NOT NULL,
    PRIMARY KEY (run_id, game_index)
);
"""
RETIRED_CONFIG_KEYS = ("rounds",)  # in tournaments recorded before rounds could be extended
JSON_COLUMNS = ("opening", "moves", "seconds", "nodes", "depths", "scores", "worker")
PGN_TERMINATION = {  # the PGN standard's Termination values
    "normal": "normal",
    "adjudication": "adjudication",
    "time forfeit": "time forfeit",
    "illegal move": "rules infraction",
    "crash": "emergency",
    "stall": "emergency",
    "error": "emergency",
}


class RecordsError(AlfabetaError, ValueError):
    """A results file that cannot be used: not a database, another program's database, a
    newer schema, an unwritable path, or a run that is not there."""


@frozen
class RunInfo:
    """A run in the database: its id, kind, status, when it started, games requested and played."""

    id: int
    kind: str
    created: str
    config: dict
    manifest: dict
    requested: int
    status: str
    games: int


def now() -> str:
    """The current time in UTC, ISO 8601."""
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class ResultsDB:
    """A results database: ``start_run``, ``add_game`` (committed at once), ``games``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.connection = sqlite3.connect(self.path, timeout=30)
            self.connection.execute("PRAGMA journal_mode=WAL")
            tables = {
                row[0]
                for row in self.connection.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'"
                )
            }
        except sqlite3.DatabaseError as error:
            raise RecordsError(f"{str(path)!r} is not a results database ({error})") from None
        if tables and "alfabeta" not in tables:
            raise RecordsError(
                f"{str(path)!r} is another program's SQLite database (tables: "
                f"{', '.join(sorted(tables)[:5])}); give a new file"
            )
        with self.connection:
            self.connection.executescript(SCHEMA)
            self.connection.execute(
                "INSERT OR IGNORE INTO alfabeta VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
            )
        version = int(
            self.connection.execute(
                "SELECT value FROM alfabeta WHERE key='schema_version'"
            ).fetchone()[0]
        )
        if version > SCHEMA_VERSION:
            raise RecordsError(
                f"{str(path)!r} has schema version {version}; this alfabeta reads up to "
                f"{SCHEMA_VERSION}: upgrade alfabeta"
            )

    def close(self) -> None:
        """Close the database."""
        self.connection.close()

    def start_run(self, kind: str, config: dict, manifest: dict, requested: int) -> int:
        """Record a new run and return its id."""
        with self.connection:
            cursor = self.connection.execute(
                "INSERT INTO runs (kind, created, config, manifest, requested, status) "
                "VALUES (?, ?, ?, ?, ?, 'running')",
                (kind, now(), json.dumps(config, sort_keys=True), json.dumps(manifest), requested),
            )
        assert cursor.lastrowid is not None  # an INSERT always sets it
        return int(cursor.lastrowid)

    def find_run(self, kind: str, config: dict) -> int | None:
        """The newest run of ``kind`` whose configuration equals ``config`` (a configuration
        recorded by an older alfabeta is compared without its ``RETIRED_CONFIG_KEYS``)."""
        wanted = json.loads(json.dumps(config))  # tuples as lists, as stored
        rows = self.connection.execute(
            "SELECT id, config FROM runs WHERE kind = ? ORDER BY id DESC", (kind,)
        )
        for run_id, recorded in rows:
            stored = json.loads(recorded)
            for key in RETIRED_CONFIG_KEYS:
                stored.pop(key, None)
            if stored == wanted:
                return int(run_id)
        return None

    def set_status(self, run_id: int, status: str, requested: int | None = None) -> None:
        """Set a run's status (and its requested game count)."""
        with self.connection:
            self.connection.execute("UPDATE runs SET status = ? WHERE id = ?", (status, run_id))
            if requested is not None:
                self.connection.execute(
                    "UPDATE runs SET requested = MAX(requested, ?) WHERE id = ?",
                    (requested, run_id),
                )

    def add_game(self, run_id: int, result: GameResult) -> None:
        """Store a finished game of ``run_id`` (in one transaction)."""
        data = result.to_dict()
        row = {
            "run_id": run_id,
            "game_index": data.pop("index"),
            "first": data["players"][0],
            "second": data["players"][1],
            "plies": result.plies,
            "finished": now(),
        }
        data.pop("players")
        for key, value in data.items():
            row[key] = json.dumps(value) if key in JSON_COLUMNS else value
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self.connection:
            self.connection.execute(
                f"INSERT OR IGNORE INTO games ({columns}) VALUES ({marks})", tuple(row.values())
            )

    def games(self, run_id: int) -> list[GameResult]:
        """The games recorded for ``run_id``, in game order."""
        cursor = self.connection.execute(
            "SELECT * FROM games WHERE run_id = ? ORDER BY game_index", (run_id,)
        )
        names = [d[0] for d in cursor.description]
        results = []
        for values in cursor:
            row = dict(zip(names, values, strict=True))
            for key in JSON_COLUMNS:
                row[key] = json.loads(row[key])
            row["index"] = row.pop("game_index")
            row["players"] = (row.pop("first"), row.pop("second"))
            results.append(GameResult.from_dict(row))
        return results

    def runs(self) -> list[RunInfo]:
        """Every run in the database, oldest first."""
        rows = self.connection.execute(
            "SELECT r.id, r.kind, r.created, r.config, r.manifest, r.requested, r.status, "
            "(SELECT COUNT(*) FROM games g WHERE g.run_id = r.id) FROM runs r ORDER BY r.id"
        ).fetchall()
        return [
            RunInfo(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7])
            for r in rows
        ]

    def run(self, run_id: int | None = None) -> RunInfo:
        """Run ``run_id``, or the newest run."""
        runs = self.runs()
        if not runs:
            raise RecordsError(f"{str(self.path)!r} holds no run")
        if run_id is None:
            return runs[-1]
        for info in runs:
            if info.id == run_id:
                return info
        raise RecordsError(
            f"{str(self.path)!r} has no run {run_id} (runs: {', '.join(str(r.id) for r in runs)})"
        )


def open_existing(path: str | Path) -> ResultsDB:
    """A results database that must already exist (for reading)."""
    if not Path(path).is_file():
        raise RecordsError(f"no results database at {str(path)!r}")
    return ResultsDB(path)


def games_of(paths: Iterable[str | Path], player: str | None) -> list[GameResult]:
    """Every game ``player`` played in the databases at ``paths`` (None: every game), in
    their order; a ``RecordsError`` naming the players a database has when it has games but
    none of ``player``'s (a misspelt name)."""
    games = []
    for path in paths:
        db = open_existing(path)
        try:
            records = [record for run in db.runs() for record in db.games(run.id)]
        finally:
            db.close()
        if player is None:
            games += records
            continue
        if records and not any(player in record.players for record in records):
            names = sorted({name for record in records for name in record.players})
            raise RecordsError(f"{str(path)!r} has no game of {player!r}; its players: {names}")
        games += [record for record in records if player in record.players]
    return games


class JsonlWriter:
    """Appends one JSON object a line: a ``run`` line when a run starts, then a ``game`` line
    for each game, flushed at once."""

    def __init__(self, path: str | Path) -> None:
        try:
            self.file = open(path, "a", encoding="utf-8")
        except OSError as error:
            raise RecordsError(f"cannot write {str(path)!r}: {error.strerror}") from None

    def write(self, record: dict) -> None:
        """Append ``record`` as one JSON line and flush it."""
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        """Close the file."""
        self.file.close()


def read_jsonl_games(path: str | Path) -> list[GameResult]:
    """The games of a JSON Lines record file."""
    games = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                raise RecordsError(f"{str(path)!r} line {number}: not JSON") from None
            if record.get("type") == "game":
                games.append(GameResult.from_dict(record))
    return games


def time_control_tags(players: Sequence[dict]) -> dict[str, str]:
    """PGN TimeControl tags from the two players' settings (``-`` without a clock)."""

    def text(player: dict) -> str:
        if player.get("tc"):
            return str(player["tc"])
        if player.get("movetime"):
            return f"{player['movetime']:g}/move"
        return "-"

    white, black = (text(p) for p in players)
    if white == black:
        return {"TimeControl": white}
    return {"WhiteTimeControl": white, "BlackTimeControl": black}


def pgn_text(result: GameResult, chess_game: Any, event: str, players: Sequence[dict]) -> str:
    """A chess game as PGN: the opening moves and the game's, from the initial position."""
    from alfabeta.games.chess.pgn import format_game, sans_of

    initial = chess_game.from_string(result.initial)
    tags: dict[str, Any] = {
        "Event": event,
        "Site": platform.node() or "?",
        "Date": time.strftime("%Y.%m.%d"),
        "Round": str(result.index + 1),
        "White": result.players[0],
        "Black": result.players[1],
        "Result": result.result,
    }
    standard = chess_game.from_string("startpos").to_string()
    if initial.to_string() != standard:
        tags.update(SetUp="1", FEN=initial.to_string())
    tags["Termination"] = PGN_TERMINATION.get(result.termination, "unterminated")
    tags.update(time_control_tags(players))
    if result.opening_name:
        tags["Opening"] = result.opening_name
    tags["PlyCount"] = str(len(result.opening) + result.plies)
    sans = sans_of(chess_game, result.initial, [*result.opening, *result.moves])
    text = format_game(tags, sans, initial.fullmove, initial.side_to_move == 1)
    comment = result.reason.replace("}", ")")
    head, _, tail = text.rstrip("\n").rpartition(result.result)
    return f"{head}{{{comment}}} {result.result}{tail}\n\n"


class PgnWriter:
    """Appends each chess game as PGN, flushed at once."""

    def __init__(
        self, path: str | Path, chess_game: Any, event: str, players: dict[str, dict]
    ) -> None:
        try:
            self.file = open(path, "a", encoding="utf-8")
        except OSError as error:
            raise RecordsError(f"cannot write {str(path)!r}: {error.strerror}") from None
        self.chess_game = chess_game
        self.event = event
        self.players = players

    def write(self, result: GameResult) -> None:
        """Append the game to the PGN file and flush it."""
        settings = [self.players.get(name, {}) for name in result.players]
        self.file.write(pgn_text(result, self.chess_game, self.event, settings))
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        """Close the file."""
        self.file.close()


def write_csv(path: str | Path, games: Iterable[GameResult]) -> None:
    """One row a game: index, pair, round, players, result, termination, plies, opening."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(
            [
                "index",
                "pair",
                "round",
                "first",
                "second",
                "result",
                "winner",
                "termination",
                "reason",
                "plies",
                "opening",
                "moves",
                "seconds",
            ]
        )
        for g in games:
            writer.writerow(
                [
                    g.index,
                    g.pair,
                    g.round,
                    g.players[0],
                    g.players[1],
                    g.result,
                    "" if g.winner is None else g.winner,
                    g.termination,
                    g.reason,
                    g.plies,
                    " ".join(g.opening),
                    " ".join(g.moves),
                    f"{sum(g.seconds):.3f}",
                ]
            )
