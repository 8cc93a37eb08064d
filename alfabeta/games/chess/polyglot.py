"""Polyglot opening books: 16-byte big-endian entries (key, move, weight, learn) sorted by
key, the key being the position's Polyglot hash (``ChessGame.key()``).

``PolyglotBook(path, seed=0)`` reads a book; calling it with a position returns a book move
chosen at random in proportion to the weights (seeded, so the same seed repeats the same
choices), or None out of book. It plugs into any alpha-beta-family searcher as
``alphabeta(book='opening.bin')``. ``write_book`` builds a book from (position, move,
weight) triples.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from alfabeta.core.errors import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.core import Position

ENTRY = struct.Struct(">QHHI")
RECORD = np.dtype([("key", ">u8"), ("move", ">u2"), ("weight", ">u2"), ("learn", ">u4")])
PROMOTIONS = {1: "n", 2: "b", 3: "r", 4: "q"}
CASTLING = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}


def _square(index: int) -> str:
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def decode_move(raw: int) -> str:
    """A Polyglot move as UCI text (castling is written king-takes-rook in the book)."""
    to, origin, promotion = raw & 63, (raw >> 6) & 63, (raw >> 12) & 7
    text = _square(origin) + _square(to) + PROMOTIONS.get(promotion, "")
    return CASTLING.get(text, text)


def encode_move(uci: str, king_move: bool = False) -> int:
    """UCI text as a Polyglot move (``king_move``: the move is a castling king move)."""
    if king_move:
        uci = {v: k for k, v in CASTLING.items()}.get(uci, uci)
    to = "abcdefgh".index(uci[2]) + 8 * (int(uci[3]) - 1)
    origin = "abcdefgh".index(uci[0]) + 8 * (int(uci[1]) - 1)
    promotion = {v: k for k, v in PROMOTIONS.items()}.get(uci[4:], 0)
    return to | origin << 6 | promotion << 12


class PolyglotBook:
    """A Polyglot book; ``book(position)`` is a weighted, seeded choice among its legal
    moves for the position, or None."""

    def __init__(self, path: str | Path, seed: int = 0) -> None:
        try:
            data = Path(path).read_bytes()
        except OSError as error:
            raise InvalidOptionError(f"opening book {str(path)!r}: {error}") from None
        if len(data) % ENTRY.size:
            raise InvalidOptionError(
                f"opening book {str(path)!r}: {len(data)} bytes is not a whole number of "
                f"{ENTRY.size}-byte entries"
            )
        self.path = str(path)
        self.records = np.frombuffer(data, dtype=RECORD)
        self.keys = self.records["key"].astype(np.uint64)
        if np.any(self.keys[1:] < self.keys[:-1]):
            raise InvalidOptionError(f"opening book {str(path)!r}: entries are not sorted")
        self.random = random.Random(seed)

    def __len__(self) -> int:
        return len(self.records)

    def entries(self, position: Position) -> list[tuple[int, int]]:
        """The (move, weight) pairs the book holds for ``position`` that are legal there."""
        key = np.uint64(position.key())
        low = int(np.searchsorted(self.keys, key, side="left"))
        high = int(np.searchsorted(self.keys, key, side="right"))
        legal = {position.move_str(m): m for m in position.legal_moves()}
        found = []
        for record in self.records[low:high]:
            move = legal.get(decode_move(int(record["move"])))
            if move is not None:
                found.append((move, int(record["weight"])))
        return found

    def __call__(self, position: Position) -> int | None:
        """A weighted, seeded choice among the book's legal moves for ``position``, or None."""
        found = [(move, weight) for move, weight in self.entries(position) if weight > 0]
        if not found:
            return None
        total = sum(weight for _, weight in found)
        pick = self.random.uniform(0, total)
        for move, weight in found:
            pick -= weight
            if pick <= 0:
                return move
        return found[-1][0]


def write_book(path: str | Path, entries: Iterable[tuple[Position, int, int]]) -> int:
    """Write a book from (position, move, weight) triples; returns the number of entries."""
    rows = []
    for position, move, weight in entries:
        castling = (move >> 15) == 3  # ChessGame's castling flag
        rows.append((position.key(), encode_move(position.move_str(move), castling), weight, 0))
    rows.sort(key=lambda row: row[0])
    with open(path, "wb") as out:
        for row in rows:
            out.write(ENTRY.pack(*row))
    return len(rows)
