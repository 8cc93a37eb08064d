"""Retrograde analysis: every position reachable from a root, with its value and its distance
to the end, kept as a compact table on disk.

A table is two files beside each other: ``NAME.npz`` holds three arrays (``keys`` uint64,
sorted; ``value`` int8, +1 won / −1 lost / 0 drawn for the side to move; ``distance`` int32,
plies to the end under best play, −1 for a draw nobody can force to an end) and ``NAME.json``
says what they are (format, version, game spec, root position, counts, alfabeta version).
Loading never unpickles, and checks shapes, dtypes, order and ranges.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from attrs import frozen

from alfabeta.core import Position, arrayfile
from alfabeta.solvers.graph import SolverError, retrograde, state_graph

FORMAT = "alfabeta-solved-table"
VERSION = 1
MAX_STATES = 50_000_000


def path_independent(position: Position) -> bool:
    """True when the game's outcome depends on the position alone (its ``key``), which a
    state graph needs; games declare it with ``path_independent``."""
    game = getattr(position, "game", position)
    return bool(getattr(game, "path_independent", False))


def without_path_rules(position: Position) -> tuple[Position, str | None]:
    """``position`` itself when it is path independent, else the game's variant without
    its repetition or move-count rule (``without_path_rules()``), with a note saying so."""
    if path_independent(position):
        return position, None
    variant = getattr(position, "without_path_rules", None)
    if variant is None:
        raise SolverError(
            f"{position.name}: its outcome depends on the path (repetition or move counts) or "
            "it does not say otherwise (path_independent); retrograde analysis needs a value "
            "per position"
        )
    return variant(), (
        f"{position.name}: solved without its repetition and move-count rules; a position "
        "repeated forever is a draw, as a repetition rule makes it"
    )


@frozen(eq=False)
class SolvedTable:
    """Values and distances of every state reachable from ``root`` in ``game``."""

    game: str
    root: str
    keys: np.ndarray
    value: np.ndarray
    distance: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: int) -> tuple[int, int] | None:
        """(value, distance) of the state with ``key``, or None if it is not in the table."""
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i < len(self.keys) and int(self.keys[i]) == key:
            return int(self.value[i]), int(self.distance[i])
        return None

    def of(self, position: Position) -> tuple[int, int]:
        """(value, distance) of ``position``; SolverError if the table does not hold it."""
        found = self.lookup(position.key())
        if found is None:
            raise SolverError(
                f"{position.to_string()!r} is not in the table of {self.game} from {self.root!r}"
            )
        return found

    def best_moves(self, position: Position) -> list[int]:
        """The moves that keep ``position``'s value: the fastest wins, the slowest losses,
        or the drawing moves."""
        value, distance = self.of(position)
        best = []
        for move in position.legal_moves():
            position.push(move)
            try:
                child_value, child_distance = self.of(position)
            finally:
                position.pop()
            if -child_value == value and (value == 0 or child_distance == distance - 1):
                best.append(move)
        return best

    def counts(self) -> dict[str, int]:
        """How many states are won, drawn and lost for the side to move."""
        return {
            "won": int(np.sum(self.value == 1)),
            "drawn": int(np.sum(self.value == 0)),
            "lost": int(np.sum(self.value == -1)),
        }

    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``NAME.npz`` and ``NAME.json`` (``path`` may name either or neither)."""
        from alfabeta import __version__

        meta = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "root": self.root,
            "states": len(self),
            "counts": self.counts(),
            "alfabeta": __version__,
        }
        arrays = {"keys": self.keys, "value": self.value, "distance": self.distance}
        return arrayfile.write(path, arrays, meta, SolverError)

    @classmethod
    def load(cls, path: str | Path) -> SolvedTable:
        """Read a table written by ``save``; SolverError naming what is wrong otherwise."""
        info, arrays = arrayfile.read(
            path, "solved table", FORMAT, VERSION, ("keys", "value", "distance"), SolverError
        )
        where = f"solved table {str(arrayfile.paths(path)[0])!r}"
        states = info.get("states")
        if isinstance(states, bool) or not isinstance(states, int):
            raise SolverError(f"{where}: its JSON gives no number of states")
        for name, dtype in (("keys", np.uint64), ("value", np.int8), ("distance", np.int32)):
            arrayfile.check_array(where, name, arrays[name], dtype, (states,), SolverError)
        keys, value, distance = arrays["keys"], arrays["value"], arrays["distance"]
        if len(keys) > 1 and not np.all(keys[1:] > keys[:-1]):
            raise SolverError(f"{where}: keys are not strictly increasing")
        if np.any((value < -1) | (value > 1)) or np.any(distance < -1):
            raise SolverError(f"{where}: a value or distance out of range")
        return cls(str(info.get("game")), str(info.get("root")), keys, value, distance)


def solve_table(
    position: Position,
    game_spec: str | None = None,
    max_states: int = MAX_STATES,
    progress: Callable[[int], None] | None = None,
) -> tuple[SolvedTable, str | None]:
    """Retrograde analysis from ``position``: its table, and a note when the game had to be
    solved without its repetition or move-count rule."""
    solvable, note = without_path_rules(position)
    root = solvable.copy()
    graph = state_graph(root, max_states, progress)
    value, distance = retrograde(graph)
    order = np.argsort(graph["keys"], kind="stable")
    keys = graph["keys"][order]
    if len(keys) > 1 and np.any(keys[1:] == keys[:-1]):
        raise SolverError(f"{position.name}: two states share a key; the game's keys collide")
    spec = game_spec or _spec_of(solvable)
    table = SolvedTable(spec, solvable.to_string(), keys, value[order], distance[order])
    return table, note


def _spec_of(position: Position) -> str:
    from alfabeta.plugins.spec import format_spec

    return format_spec(position.name, position.options())
