"""Players as the arena names them: a value that travels to any worker (JSON), and the live
player it becomes there.

A player is a searcher spec with its evaluator and limits (``"negascout(tt=on,
iterative=on)"`` with ``evaluator="standard"``), ``"human"``, or an external engine
``"uci(command=stockfish, UCI_LimitStrength=true, UCI_Elo=1500)"`` whose other options are
sent with ``setoption``. ``name=spec`` names a player (``"ns=negascout(tt=on)"``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from attrs import evolve, field, frozen

from alfabeta.arena.clock import TimeControl
from alfabeta.arena.engine import UciPlayer, engine_command
from alfabeta.arena.play import HumanPlayer, SearchPlayer
from alfabeta.core import InvalidOptionError, Limit, Position
from alfabeta.plugins.spec import parse_spec

if TYPE_CHECKING:
    from alfabeta.plugins.catalog import Catalog

HUMAN, UCI = "human", "uci"
LABEL = re.compile(r"\s*([A-Za-z0-9_.+-]+)\s*=(?![=])")  # "name=" before a spec
DEFAULT_MARGIN = 0.1  # seconds a move may overrun the clock before it loses on time


def _optional_whole(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise InvalidOptionError(f"player {attribute.name}={value!r}: expected a whole number >= 1")


def _optional_seconds(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0
    ):
        raise InvalidOptionError(f"player {attribute.name}={value!r}: expected seconds > 0")


def _margin(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise InvalidOptionError(f"player margin={value!r}: expected seconds >= 0")


def _time_control(value: Any) -> TimeControl | None:
    if value is None or isinstance(value, TimeControl):
        return value
    if isinstance(value, dict):
        return TimeControl(**value)
    return TimeControl.parse(value)


@frozen
class Player:
    """What plays: ``spec`` (searcher spec, ``human`` or ``uci(...)``), the ``evaluator`` spec
    (None: the game's default), and its limits per move — a clock ``tc``, or ``depth``,
    ``nodes``, ``movetime`` seconds — with the time ``margin``. ``name`` labels it in tables
    and records (default: the spec; ``"name=spec"`` as the spec names it too)."""

    spec: str
    evaluator: str | None = None
    tc: TimeControl | None = field(default=None, converter=_time_control)
    depth: int | None = field(default=None, validator=_optional_whole)
    nodes: int | None = field(default=None, validator=_optional_whole)
    movetime: float | None = field(default=None, validator=_optional_seconds)
    margin: float = field(default=DEFAULT_MARGIN, validator=_margin)
    name: str = ""

    def __attrs_post_init__(self) -> None:
        spec = self.spec.strip()
        label = LABEL.match(spec)
        if label:  # "name=spec"
            object.__setattr__(self, "name", self.name or label.group(1))
            spec = spec[label.end() :].strip()
        if not spec:
            raise InvalidOptionError("a player needs a spec: a searcher, human or uci(...)")
        object.__setattr__(self, "spec", spec)
        if not self.name:
            object.__setattr__(self, "name", spec)

    @property
    def kind(self) -> str:
        """``human``, ``uci`` or ``searcher``."""
        stripped = self.spec.strip()
        if stripped == HUMAN:
            return HUMAN
        if stripped.split("(", 1)[0].strip() == UCI:
            return UCI
        return "searcher"

    def limit(self) -> Limit:
        """The per-move limit besides the clock."""
        return Limit(depth=self.depth, nodes=self.nodes, time=self.movetime)

    def to_dict(self) -> dict[str, Any]:
        """The player as plain JSON-ready data."""
        return {
            "spec": self.spec,
            "evaluator": self.evaluator,
            "tc": str(self.tc) if self.tc else None,
            "depth": self.depth,
            "nodes": self.nodes,
            "movetime": self.movetime,
            "margin": self.margin,
            "name": self.name,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        """The player ``to_dict`` described."""
        return cls(**data)

    def renamed(self, name: str) -> Player:
        """The same player under another name."""
        return evolve(self, name=name)


def uci_settings(spec: str) -> tuple[list[str], dict[str, Any]]:
    """The command and the ``setoption`` options of a ``uci(command=..., Name=value)`` spec."""
    _, options = parse_spec(spec)
    if "command" not in options:
        raise InvalidOptionError(
            f"{spec!r}: a uci player needs command=..., e.g. uci(command=stockfish)"
        )
    command = engine_command(options.pop("command"))
    return command, options


def build_player(player: Player, catalog: Catalog, position: Position) -> Any:
    """The live player for ``player`` on ``position``'s game (validated: unknown names and
    options raise the catalog's typed errors)."""
    kind = player.kind
    if kind == HUMAN:
        return HumanPlayer(label=player.name)
    if kind == UCI:
        if position.name != "chess":
            raise InvalidOptionError(
                f"{player.name}: a UCI engine plays chess, not {position.name}"
            )
        command, options = uci_settings(player.spec)
        return UciPlayer(command, options, label=player.name, margin=player.margin)
    searcher = catalog.searcher(player.spec)
    evaluator = (
        catalog.evaluator(player.evaluator, position)
        if player.evaluator
        else catalog.default_evaluator(position)
    )
    live = SearchPlayer(searcher, evaluator, label=player.name)  # limits come per move
    limit_for = getattr(searcher, "limit_for", None)
    if limit_for is not None:  # can it keep to these limits at all? (raises if not)
        seconds = float(player.tc.seconds or 1.0) if player.tc is not None else None
        limit_for(player.limit().merged(Limit(wtime=seconds, btime=seconds)))
    return live
