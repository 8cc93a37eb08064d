"""What every searcher shares: keyword options validated at construction (attrs), a default
Limit built from the ``depth``/``nodes``/``time`` options, and the budget bookkeeping that
turns a Limit into "stop now"."""

from __future__ import annotations

import time as clock
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from attrs import define, field

from alfabeta.core import MAX_PLY, Limit, UnsupportedLimitError
from alfabeta.core.errors import InvalidOptionError

if TYPE_CHECKING:
    from alfabeta.core import Position

C_INT_MAX = 2**31 - 1  # options reach compiled code as C ints


def whole(minimum: int = 0, maximum: int = C_INT_MAX) -> Callable[[Any, Any, Any], None]:
    """Attrs validator: None or an int in [minimum, maximum], with a message naming the
    option."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not (minimum <= value <= maximum)
        ):
            raise InvalidOptionError(
                f"{instance.name} option {attribute.name}={str(value)[:24]}: expected a "
                f"whole number from {minimum} to {maximum}"
            )

    return check


def choice(*allowed: Any) -> Callable[[Any, Any, Any], None]:
    """Attrs validator: one of ``allowed``."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if value not in allowed:
            raise InvalidOptionError(
                f"{instance.name} option {attribute.name}={value!r}: expected one of "
                + ", ".join(map(repr, allowed))
            )

    return check


def positive_seconds(instance: Any, attribute: Any, value: Any) -> None:
    """Attrs validator: None or a positive number of seconds."""
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
    ):
        raise InvalidOptionError(
            f"{instance.name} option {attribute.name}={value!r}: expected seconds > 0"
        )


def each_move(position: Position) -> Iterator[int]:
    """Yield each legal move with the position made; the position is restored after each
    (and when the generator is closed early)."""
    for move in position.legal_moves():
        position.apply(move)
        try:
            yield move
        finally:
            position.retract(move)


class Aborted(Exception):
    """Raised inside a search when its budget (nodes, time, stop flag) is spent."""


@define
class Searcher:
    """Base of the searchers: ``search(position, evaluator, limit=None) -> SearchResult``.

    The options ``depth``, ``nodes`` and ``time`` form the searcher's default limit; a Limit
    passed to ``search`` overrides them field by field. A searcher that does not deepen
    iteratively refuses time and clock limits (it could only stop with a half-searched
    tree); node limits and a stop event are honoured by all.
    """

    name = "searcher"
    compiled = False  # True for searchers that run over the C-level contract
    depth: int | None = field(default=None, validator=whole(0, MAX_PLY), kw_only=True)
    nodes: int | None = field(default=None, validator=whole(1, 10**15), kw_only=True)
    time: float | None = field(default=None, validator=positive_seconds, kw_only=True)

    def limit_for(self, limit: Limit | None) -> Limit:
        """The search's limit: ``limit`` over the searcher's own options; a time or clock limit is
        refused (this searcher has no iterations to stop between)."""
        own = Limit(depth=self.depth, nodes=self.nodes, time=self.time)
        merged = own.merged(limit)
        if merged.time is not None or merged.uses_clock or merged.movestogo is not None:
            raise UnsupportedLimitError(
                f"{self.name} searches to a fixed depth and cannot keep to a time or a clock; "
                "use an iterative-deepening searcher (e.g. alphabeta(iterative=on)) or limit "
                "depth or nodes"
            )
        return merged

    def options(self) -> dict[str, Any]:
        """The options set on this searcher (those not None), by name."""
        from attrs import asdict

        return {k: v for k, v in asdict(self).items() if v is not None and not k.startswith("_")}

    def __str__(self) -> str:
        from alfabeta.plugins.spec import format_spec

        return format_spec(self.name, self.options())


class Budget:
    """Counts nodes against a Limit; ``tick()`` raises Aborted once the limit is spent.

    The clock and the stop flag are read every ``CHECK_EVERY`` nodes, the node limit at every
    node, so a node limit is exact."""

    CHECK_EVERY = 1024

    def __init__(self, limit: Limit) -> None:
        self.nodes = 0
        self.node_limit = limit.nodes
        self.stop = limit.stop
        self.start = clock.perf_counter()
        self.deadline = self.start + limit.time if limit.time is not None else None

    def tick(self) -> None:
        """Count a node; raise Aborted once the budget is spent."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise Aborted
        self.nodes += 1
        if self.nodes % self.CHECK_EVERY == 0:
            if self.stop is not None and self.stop.is_set():
                raise Aborted
            if self.deadline is not None and clock.perf_counter() >= self.deadline:
                raise Aborted

    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return clock.perf_counter() - self.start
