"""The frozen value types every part shares: Limit, SearchResult, SearchInfo, Outcome."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from typing import Any

from attrs import field, frozen, validators

from alfabeta.core.errors import InvalidOptionError
from alfabeta.core.scores import MAX_PLY

MAX_NODES = 10**15  # a node limit is a C long long; no search gets near this
MAX_SECONDS = 10**9  # about 31 years: finite, so every deadline is a real time


def _non_negative(kind: type, maximum: float = math.inf) -> Callable[[Any, Any, Any], None]:
    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        if not isinstance(value, kind) or isinstance(value, bool) or not 0 <= value <= maximum:  # type: ignore[operator]
            bound = "" if maximum == math.inf else f" up to {maximum}"
            raise InvalidOptionError(
                f"limit {attribute.name}={str(value)[:24]}: expected a non-negative "
                f"{kind.__name__}{bound}"
            )

    return check


def _positive_or_none(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not (0 < value <= MAX_SECONDS)
    ):
        raise InvalidOptionError(f"limit {attribute.name}={value!r}: expected a positive number")


@frozen
class Limit:
    """When a search must stop. Unset fields do not limit; an empty Limit searches to the end.

    ``time`` is seconds for this move; ``wtime``/``btime`` (seconds left on each clock, side 0 is
    white/first), ``winc``/``binc`` and ``movestogo`` describe a game clock. ``stop`` is an event
    another thread may set to end an ``infinite`` (or any) search.
    """

    depth: int | None = field(default=None, validator=_non_negative(int, MAX_PLY))
    nodes: int | None = field(default=None, validator=_non_negative(int, MAX_NODES))
    time: float | None = field(default=None, validator=_positive_or_none)
    wtime: float | None = field(default=None, validator=_non_negative(float, MAX_SECONDS))
    btime: float | None = field(default=None, validator=_non_negative(float, MAX_SECONDS))
    winc: float | None = field(default=None, validator=_non_negative(float, MAX_SECONDS))
    binc: float | None = field(default=None, validator=_non_negative(float, MAX_SECONDS))
    movestogo: int | None = field(default=None, validator=_non_negative(int))
    infinite: bool = field(default=False, validator=validators.instance_of(bool))
    stop: threading.Event | None = field(default=None, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.infinite and self.stop is None:
            raise InvalidOptionError("limit infinite=True needs a stop event to end the search")

    @property
    def uses_clock(self) -> bool:
        """Whether the limit describes a game clock (either side's time or increment)."""
        return any(v is not None for v in (self.wtime, self.btime, self.winc, self.binc))

    def merged(self, other: Limit | None) -> Limit:
        """This limit with every field that ``other`` sets taking precedence."""
        if other is None:
            return self
        values = {}
        for name in self.__attrs_attrs__:
            mine, theirs = getattr(self, name.name), getattr(other, name.name)
            values[name.name] = mine if theirs is None or theirs is False else theirs
        return Limit(**values)


@frozen
class SearchInfo:
    """What one iteration (or pass) of a search found."""

    depth: int
    value: int
    nodes: int
    elapsed: float
    pv: tuple[int, ...] = ()


@frozen
class SearchResult:
    """The answer of ``searcher.search(position, evaluator, limit)``.

    ``value`` is from the root mover's view; ``nodes`` counts positions visited (root included),
    ``leaves`` counts evaluator calls. ``complete`` is False when a node/time limit or a stop
    ended the search before its last iteration finished; ``move`` is then the best move of the
    last completed iteration (or the first legal move if none completed).
    """

    move: int | None
    value: int
    depth: int
    nodes: int
    leaves: int
    pv: tuple[int, ...] = ()
    tt_hits: int = 0
    cutoffs: int = 0
    researches: int = 0
    passes: int = 0
    elapsed: float = 0.0
    complete: bool = True
    infos: tuple[SearchInfo, ...] = ()


@frozen
class Outcome:
    """How a finished game ended: ``winner`` is 0 or 1 (the player who moved first is 0), or
    None for a draw; ``reason`` is a short word such as ``"win"``, ``"draw"`` or
    ``"adjudication"``."""

    winner: int | None
    reason: str

    def __str__(self) -> str:
        if self.winner is None:
            return f"draw ({self.reason})"
        return f"player {self.winner + 1} wins ({self.reason})"
