"""PGN: reading games' main lines (for opening suites) and writing finished games.

Reading is lenient where PGN usually is (comments, variations, NAGs, move numbers and
results are skipped) and strict where it matters: a move that is not legal in its position
is a :class:`PgnError` naming the game, the ply and the move. Writing gives the Seven Tag
Roster first, then any other tags, then SAN movetext wrapped at 80 columns.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from alfabeta.core.errors import AlfabetaError, InvalidPositionError, excerpt

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
MOVE_NUMBER = re.compile(r"\d+\.+")


class PgnError(AlfabetaError, ValueError):
    """A PGN file that cannot be read: where (game, ply) and what."""


@frozen
class PgnGame:
    """One game's tags and main-line moves (as written, SAN)."""

    tags: dict
    moves: tuple[str, ...]
    number: int

    @property
    def fen(self) -> str | None:
        """The game's FEN tag (a set-up start position), or None."""
        return self.tags.get("FEN")


def _movetext_tokens(text: str, number: int) -> list[str]:
    tokens, depth, i = [], 0, 0
    while i < len(text):
        char = text[i]
        if char == "{":
            end = text.find("}", i)
            if end < 0:
                raise PgnError(f"game {number}: unclosed comment {{ …")
            i = end + 1
            continue
        if char == ";":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif not char.isspace() and depth == 0:
            end = i
            while end < len(text) and not text[end].isspace() and text[end] not in "{;()":
                end += 1
            tokens.append(text[i:end])
            i = end
            continue
        i += 1
    words = []
    for token in tokens:
        token = MOVE_NUMBER.sub("", token, count=1) if MOVE_NUMBER.match(token) else token
        if token and not token.startswith("$") and token not in RESULTS:
            words.append(token)
    return words


def parse_pgn(text: str) -> list[PgnGame]:
    """Every game in ``text``; an empty or tag-less text gives no games."""
    games: list[PgnGame] = []
    tags: dict[str, str] = {}
    movetext: list[str] = []

    def finish() -> None:
        if tags or any(line.strip() for line in movetext):
            number = len(games) + 1
            games.append(
                PgnGame(dict(tags), tuple(_movetext_tokens("\n".join(movetext), number)), number)
            )

    in_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            if in_moves:
                finish()
                tags, movetext, in_moves = {}, [], False
            match = TAG.fullmatch(stripped)
            if not match:
                raise PgnError(f"game {len(games) + 1}: bad tag {excerpt(stripped)}")
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif stripped:
            in_moves = True
            movetext.append(line)
    finish()
    return games


def read_pgn(path: str | Path) -> list[PgnGame]:
    """The games of a PGN file, gzip-compressed when its name ends in ``.gz``; a file that
    cannot be read or unpacked is a :class:`PgnError` naming it, as is a malformed game."""
    try:
        data = Path(path).read_bytes()
        if str(path).endswith(".gz"):
            data = gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as error:  # a bad gzip file is an OSError
        reason = getattr(error, "strerror", None) or f"{type(error).__name__}: {error}"
        raise PgnError(f"cannot read PGN file {str(path)!r}: {reason}") from None
    return parse_pgn(data.decode("utf-8", errors="replace"))


def replay(game: PgnGame, chess_game: Any) -> list[int]:
    """The game's moves as move codes, played from its start on a copy of ``chess_game``."""
    try:
        position = (
            chess_game.from_string(game.fen) if game.fen else chess_game.from_string("startpos")
        )
    except InvalidPositionError as error:
        raise PgnError(f"game {game.number}: bad FEN tag: {error}") from None
    moves = []
    for ply, text in enumerate(game.moves, 1):
        try:
            move = position.parse_move(text)
        except AlfabetaError:
            raise PgnError(
                f"game {game.number}, ply {ply}: {excerpt(text)} is not a legal move"
            ) from None
        position.push(move)
        moves.append(move)
    return moves


def _tag_value(value: object) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"')


def format_game(
    tags: dict, sans: Sequence[str], first_fullmove: int = 1, black_first: bool = False
) -> str:
    """One game as PGN text: the Seven Tag Roster (``?`` where missing), the other tags in
    the given order, then the movetext and the result."""
    lines = [f'[{name} "{_tag_value(tags.get(name, "?"))}"]' for name in SEVEN_TAGS]
    lines += [
        f'[{name} "{_tag_value(value)}"]' for name, value in tags.items() if name not in SEVEN_TAGS
    ]
    words: list[str] = []
    number, black = first_fullmove, black_first
    for i, san in enumerate(sans):
        if not black:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(san)
        if black:
            number += 1
        black = not black
    words.append(str(tags.get("Result", "*")))
    movetext, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 80:
            movetext.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    movetext.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(movetext) + "\n\n"


def sans_of(chess_game: Any, start: str, moves: Iterable[str]) -> list[str]:
    """SAN of each move (given in UCI) played from ``start``."""
    position = chess_game.from_string(start)
    sans = []
    for text in moves:
        move = position.parse_move(text)
        sans.append(position.san(move))
        position.push(move)
    return sans
