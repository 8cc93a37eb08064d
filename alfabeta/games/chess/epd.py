"""EPD: four FEN fields and operations (``bm``, ``am``, ``id``, ``c0``…); solving test suites.

A position is solved when the searcher's move is among ``bm`` (if given) and not among
``am``. The suite shipped in ``tests/data/epd/verified.epd`` (mates in 2 and 3, and simple
tactics) was checked with Stockfish 15.1 at depth 18 with MultiPV: ``bm`` lists every move
that mates fastest, or every move within 50 cp of the best where the rest lose 200 cp or more.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import frozen

from alfabeta.core.errors import IllegalMoveError, InvalidPositionError, excerpt

if TYPE_CHECKING:
    from alfabeta.core import Limit


@frozen
class EpdRecord:
    """One EPD line: its FEN, its operations (``bm``, ``am``, ``id`` …, each a list of words) and
    its line number."""

    fen: str
    operations: dict
    line: int

    @property
    def name(self) -> str:
        """The record's ``id``, or its line number."""
        return self.operations.get("id", [f"line {self.line}"])[0]


def parse_epd(text: str, line: int = 0) -> EpdRecord:
    """One EPD line: the position (4 FEN fields) and its operations."""
    fields = text.split(None, 4)
    if len(fields) < 4:
        raise InvalidPositionError(
            f"EPD line {line}: expected 4 position fields, got {excerpt(text)}"
        )
    operations: dict[str, list[str]] = {}
    rest = fields[4] if len(fields) == 5 else ""
    for part in _split_operations(rest):
        try:
            words = shlex.split(part)
        except ValueError:
            raise InvalidPositionError(f"EPD line {line}: bad operation {excerpt(part)}") from None
        if words:
            operations[words[0]] = words[1:]
    return EpdRecord(" ".join(fields[:4]) + " 0 1", operations, line)


def _split_operations(text: str) -> list[str]:
    parts, current, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == ";" and not quoted:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


def read_epd(path: str | Path) -> list[EpdRecord]:
    """The records of an EPD file; a malformed line raises InvalidPositionError naming it."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidPositionError(f"cannot read EPD file {str(path)!r}: {error}") from None
    return [
        parse_epd(text, number)
        for number, text in enumerate(lines, start=1)
        if text.strip() and not text.lstrip().startswith("#")
    ]


@frozen
class EpdOutcome:
    """A searcher's answer to an EPD record: its move, whether that satisfies ``bm``/``am``, and the
    nodes and seconds spent."""

    record: EpdRecord
    move: str | None
    solved: bool
    nodes: int
    seconds: float


def solve(
    records: Iterable[EpdRecord], game: Any, searcher: Any, evaluator: Any, limit: Limit | None
) -> list[EpdOutcome]:
    """Search every record; ``game`` is a chess position used to build the others."""
    outcomes = []
    for record in records:
        position = game.from_string(record.fen)
        try:
            best = {position.parse_move(m) for m in record.operations.get("bm", [])}
            avoid = {position.parse_move(m) for m in record.operations.get("am", [])}
        except IllegalMoveError as error:
            raise InvalidPositionError(f"EPD {record.name}: {error}") from None
        result = searcher.search(position, evaluator, limit)
        solved = (
            result.move is not None
            and (not best or result.move in best)
            and result.move not in avoid
        )
        move = position.san(result.move) if result.move is not None else None
        outcomes.append(EpdOutcome(record, move, solved, result.nodes, result.elapsed))
    return outcomes
