"""Where the games of a match start: opening suites and seeded random openings.

Both games of a pair start from the same opening with colours swapped. An opening is a start
position (None: the game's own) and moves played from it. Suites come from a file — EPD or
PGN for chess; for any game, one position per line in the game's own notation — and are used
in order (pair k takes opening k modulo the suite) or in a seeded random order. Random
openings play ``plies`` uniformly random legal moves, drawn from a stream that depends only
on the seed and the pair number (``numpy.random.SeedSequence(seed, spawn_key=(pair,))``), so
every executor builds the same openings.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from attrs import frozen

from alfabeta.core import AlfabetaError, InvalidOptionError, InvalidPositionError, Position
from alfabeta.core.errors import excerpt

RANDOM_TRIES = 1000  # random openings that end the game are drawn again, this many times
SUITE_STREAM = 1  # spawn-key suffix of the stream that picks suite openings in random order


class OpeningError(AlfabetaError, ValueError):
    """An opening file that cannot be used: which file, which line or game, and why."""


@frozen
class Opening:
    """A start position (None: the game's initial position), the moves played from it (in
    the game's move notation) and a short name for records."""

    start: str | None = None
    moves: tuple[str, ...] = ()
    name: str = ""

    def to_dict(self) -> dict:
        """The opening as plain JSON-ready data."""
        return {"start": self.start, "moves": list(self.moves), "name": self.name}

    @classmethod
    def from_dict(cls, data: dict) -> Opening:
        """The opening ``to_dict`` described."""
        return cls(data.get("start"), tuple(data.get("moves", ())), data.get("name", ""))

    def position(self, game: Position) -> Position:
        """A new position of ``game``'s kind (``game`` itself stands at its initial position)
        with this opening played."""
        position = game.from_string(self.start) if self.start is not None else game.copy()
        for text in self.moves:
            position.push(position.parse_move(text))
        return position


def read_openings(path: str | Path, game: Position) -> list[Opening]:
    """The openings in ``path`` for ``game``: EPD (``.epd``) or PGN (``.pgn``) for chess,
    otherwise one position per line in the game's notation (``#`` starts a comment)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        raise OpeningError(f"cannot read openings {str(path)!r}: {error.strerror}") from None
    suffix = path.suffix.lower()
    if suffix == ".pgn":
        openings = _pgn_openings(text, game, path)
    else:
        openings = _line_openings(text, game, path, epd=suffix == ".epd")
    if not openings:
        raise OpeningError(f"{str(path)!r} holds no opening")
    return openings


def _line_openings(text: str, game: Position, path: Path, epd: bool) -> list[Opening]:
    from alfabeta.games.chess.epd import parse_epd

    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip() if not epd else line.strip()
        if not line:
            continue
        try:
            if epd:
                if game.name != "chess":
                    raise OpeningError(f"{str(path)!r}: EPD openings are for chess")
                record = parse_epd(line, number)
                start, name = record.fen, record.operations.get("id", [""])[0]
            else:
                start, name = line, ""
            position = game.from_string(start)
        except (InvalidPositionError, InvalidOptionError) as error:
            raise OpeningError(f"{str(path)!r} line {number} ({excerpt(line)}): {error}") from None
        if position.is_over():
            raise OpeningError(f"{str(path)!r} line {number}: the game is already over there")
        openings.append(Opening(position.to_string(), (), name or f"{path.name}:{number}"))
    return openings


def _pgn_openings(text: str, game: Position, path: Path) -> list[Opening]:
    from alfabeta.games.chess.pgn import parse_pgn, replay

    if game.name != "chess":
        raise OpeningError(f"{str(path)!r}: PGN openings are for chess")
    openings = []
    for record in parse_pgn(text):
        codes = replay(record, game)
        position = game.from_string(record.fen) if record.fen else game.from_string("startpos")
        moves = []
        for code in codes:
            moves.append(position.move_str(code))
            position.push(code)
        if position.is_over():
            raise OpeningError(f"{str(path)!r} game {record.number}: the opening ends the game")
        name = record.tags.get("Opening") or record.tags.get("Event") or ""
        start = record.fen if record.fen else None
        openings.append(Opening(start, tuple(moves), name or f"{path.name}#{record.number}"))
    return openings


def pair_rng(seed: int, pair: int) -> np.random.Generator:
    """The random stream of pair ``pair`` of a run seeded with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(pair,)))


def random_moves(position: Position, plies: int, seed: int, pair: int) -> tuple[str, ...]:
    """``plies`` random legal moves from ``position`` (left unchanged), the same for the same
    seed and pair; a draw that ends the game is drawn again."""
    rng = pair_rng(seed, pair)
    for _ in range(RANDOM_TRIES):
        game = position.copy()
        moves: list[str] = []
        while len(moves) < plies and not game.is_over():
            legal = game.legal_moves()
            move = legal[int(rng.integers(len(legal)))]
            moves.append(game.move_str(move))
            game.push(move)
        if len(moves) == plies and not game.is_over():
            return tuple(moves)
    raise OpeningError(f"no random opening of {plies} plies leaves {position.name} still going")


def choose_opening(
    suite: list[Opening] | None,
    plies: int,
    game: Position,
    seed: int,
    pair: int,
    order: str = "sequential",
) -> Opening:
    """Pair ``pair``'s opening: from the suite (in order, or a seeded shuffle), then
    ``plies`` random moves on top; the game's own start when neither is given."""
    if suite:
        if order == "random":
            shuffle = np.random.SeedSequence(seed, spawn_key=(pair, SUITE_STREAM))
            index = int(np.random.default_rng(shuffle).integers(len(suite)))
        else:
            index = pair % len(suite)
        base = suite[index]
    else:
        base = Opening()
    if plies <= 0:
        return base
    extra = random_moves(base.position(game), plies, seed, pair)
    name = f"{base.name} + {plies} random plies" if base.name else f"{plies} random plies"
    return Opening(base.start, base.moves + extra, name)
