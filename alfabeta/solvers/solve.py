"""``alfabeta solve``: the value of a position by retrograde analysis where the game allows it,
by proof-number search otherwise."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from attrs import frozen

from alfabeta.core import Position
from alfabeta.core.errors import InvalidOptionError
from alfabeta.solvers.graph import SolverError
from alfabeta.solvers.proof import WIN, prove
from alfabeta.solvers.retrograde import MAX_STATES, path_independent, solve_table

METHODS = ("auto", "retrograde", "pn")
VALUES = {1: "win", 0: "draw", -1: "loss"}


@frozen(eq=False)
class Solution:
    """The value of ``position`` for its side to move (win, loss, draw; with proof-number
    search also unknown, or "no win" under a ply bound), the plies to the end under best
    play (retrograde: exact; proof-number search: the strategy's longest line), the moves
    that keep the value, and what it cost."""

    game: str
    position: str
    method: str
    value: str
    distance: int | None
    best_moves: tuple[str, ...]
    work: int  # states enumerated (retrograde) or nodes expanded (proof-number search)
    seconds: float
    notes: tuple[str, ...] = ()
    strategy: dict | None = None
    table: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the strategy tree in move strings, the table left out)."""
        return {
            "game": self.game,
            "position": self.position,
            "method": self.method,
            "value": self.value,
            "distance": self.distance,
            "best_moves": list(self.best_moves),
            "states" if self.method == "retrograde" else "nodes": self.work,
            "seconds": round(self.seconds, 3),
            "notes": list(self.notes),
        }


def choose_method(position: Position, method: str, mate: int | None) -> str:
    """The method to solve ``position`` with: ``method`` itself after checking it; for ``auto``,
    retrograde tables where the game can be enumerated, else proof-number search (also whenever
    ``mate`` is asked)."""
    if method not in METHODS:
        raise InvalidOptionError(f"method {method!r}: expected one of {', '.join(METHODS)}")
    if mate is not None:
        if method == "retrograde":
            raise InvalidOptionError("--mate asks proof-number search: leave --method out")
        return "pn"
    if method != "auto":
        return method
    enumerable = path_independent(position) or hasattr(position, "without_path_rules")
    return "retrograde" if enumerable else "pn"


def solve(
    position: Position,
    game_spec: str,
    *,
    method: str = "auto",
    mate: int | None = None,
    nodes: int = 0,
    seconds: float = 0.0,
    max_states: int = MAX_STATES,
    evaluator: Any = None,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Solve ``position`` (left unchanged); see :class:`Solution`. ``progress(count)``
    hears the states enumerated (retrograde) or the nodes expanded (df-pn) as they grow."""
    if position.is_over():
        raise SolverError(f"{position.to_string()!r}: the game is over ({position.outcome().name})")
    if mate is not None and (isinstance(mate, bool) or not 1 <= mate <= 100):
        raise InvalidOptionError(f"--mate {mate!r}: expected 1 … 100 moves")
    chosen = choose_method(position, method, mate)
    start = time.perf_counter()
    if chosen == "retrograde":
        table, note = solve_table(position, game_spec, max_states, progress)
        value, distance = table.of(position)
        best = tuple(position.move_str(m) for m in table.best_moves(position))
        return Solution(
            game_spec,
            position.to_string(),
            "retrograde",
            VALUES[value],
            None if distance < 0 else distance,
            best,
            len(table),
            time.perf_counter() - start,
            (note,) if note else (),
            table=table,
        )
    result = prove(
        position,
        nodes=nodes,
        seconds=seconds,
        max_plies=2 * mate - 1 if mate else 0,
        evaluator=evaluator,
        forcing_first=mate is not None,
        progress=progress,
    )
    notes = []
    if result.cycles and result.value != WIN:
        notes.append(
            "the search met repeated positions: a repetition counts as a draw, and a "
            "disproof that rests on one is reported as unknown"
        )
    return Solution(
        game_spec,
        position.to_string(),
        "pn",
        result.value,
        result.plies,
        () if result.move is None else (position.move_str(result.move),),
        result.nodes,
        result.seconds,
        tuple(notes),
        strategy=result.strategy,
    )
