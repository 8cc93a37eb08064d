"""Time controls and game clocks, in the notation of cutechess and fastchess.

``10+0.1`` is 10 s for the game plus 0.1 s after each move; ``40/60`` is 60 s for every 40
moves; ``40/60+0.5`` both. A player whose move takes longer than the time left on its clock
plus the time margin loses on time.
"""

from __future__ import annotations

import math
from typing import Any

from attrs import define, field, frozen

from alfabeta.core import InvalidOptionError, Limit


def _seconds(instance: Any, attribute: Any, value: Any) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (math.isfinite(value) and value >= 0)
    ):
        raise InvalidOptionError(f"time control {attribute.name}={value!r}: expected seconds >= 0")


def _moves(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidOptionError(f"time control moves={value!r}: expected a whole number >= 1")


@frozen
class TimeControl:
    """``seconds`` for every ``moves`` moves (None: for the whole game), plus ``increment``
    seconds after each move."""

    seconds: float = field(validator=_seconds, converter=float)
    increment: float = field(default=0.0, validator=_seconds, converter=float)
    moves: int | None = field(default=None, validator=_moves)

    def __attrs_post_init__(self) -> None:
        if self.seconds == 0 and self.increment == 0:
            raise InvalidOptionError("time control: no time at all (give seconds or increment)")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """From ``"10+0.1"``, ``"40/60"``, ``"40/60+0.5"`` or ``"60"``."""
        raw = str(text).strip()
        moves = None
        rest = raw
        try:
            if "/" in rest:
                count, rest = rest.split("/", 1)
                moves = int(count)
            base, plus, increment = rest.partition("+")
            return cls(float(base), float(increment) if plus else 0.0, moves)
        except ValueError:
            raise InvalidOptionError(
                f"time control {raw[:40]!r}: expected SECONDS+INCREMENT (10+0.1), "
                "MOVES/SECONDS (40/60) or MOVES/SECONDS+INCREMENT"
            ) from None

    def __str__(self) -> str:
        base = f"{self.moves}/{_compact(self.seconds)}" if self.moves else _compact(self.seconds)
        return base + (f"+{_compact(self.increment)}" if self.increment else "")


def _compact(value: float) -> str:
    return f"{value:g}"


@define
class Clock:
    """One player's clock in a game: ``remaining`` seconds, refilled every ``moves`` moves."""

    control: TimeControl
    remaining: float = field(default=None)
    moves_made: int = 0

    def __attrs_post_init__(self) -> None:
        if self.remaining is None:
            self.remaining = self.control.seconds

    @property
    def movestogo(self) -> int | None:
        """Moves until the next refill (None when the time is for the whole game)."""
        if self.control.moves is None:
            return None
        return self.control.moves - self.moves_made % self.control.moves

    def spend(self, seconds: float, margin: float) -> bool:
        """Charge a move that took ``seconds``; False when it overstepped the time left plus
        ``margin`` (a loss on time). The increment and any refill follow the move."""
        if seconds > self.remaining + margin:
            self.remaining -= seconds
            return False
        self.remaining = max(0.0, self.remaining - seconds) + self.control.increment
        self.moves_made += 1
        if self.control.moves is not None and self.moves_made % self.control.moves == 0:
            self.remaining += self.control.seconds
        return True


def clock_limit(clocks: tuple[Clock | None, Clock | None], side: int) -> Limit:
    """The Limit fields a searcher (or a UCI ``go``) gets from the clocks; a side without a
    clock is shown the mover's own time."""
    own = clocks[side]
    if own is None:
        return Limit()
    other = clocks[side ^ 1] or own
    white, black = (own, other) if side == 0 else (other, own)
    return Limit(
        wtime=float(white.remaining),
        btime=float(black.remaining),
        winc=float(white.control.increment),
        binc=float(black.control.increment),
        movestogo=own.movestogo,
    )
