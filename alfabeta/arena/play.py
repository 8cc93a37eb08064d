"""One game between two players, with the observer hooks fired on the way.

The same loop serves ``alfabeta play`` and the arena: clocks, adjudication and forfeits are
optional. With ``forfeit=True`` (the arena) a player that breaks the game — an engine that
crashes or stalls, an illegal move, a plugin that raises, a flag fallen beyond the margin —
loses it, and the record says how; without it (``play``) the error propagates.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from attrs import define, field, frozen

from alfabeta.arena.adjudication import Adjudication, Adjudicator
from alfabeta.arena.clock import Clock, clock_limit
from alfabeta.core import (
    AlfabetaError,
    Evaluator,
    Limit,
    Outcome,
    Position,
    Result,
    SearchResult,
)
from alfabeta.plugins.observe import observed_search
from alfabeta.plugins.spec import format_spec

# How a game ended, as the arena records it (the PGN Termination tag maps from these).
NORMAL, ADJUDICATION, TIME_FORFEIT = "normal", "adjudication", "time forfeit"
ILLEGAL_MOVE, CRASH, STALL, ERROR = "illegal move", "crash", "stall", "error"


class GameAbandoned(AlfabetaError):
    """A human player quit (or input ended) before the game finished."""


class Player(Protocol):
    """What plays a move in a game: a searcher with its evaluator and limit, a human,
    or an engine."""

    label: str

    def choose(
        self, position: Position, notify: Callable[..., Any], limit: Limit | None = None
    ) -> tuple[int, SearchResult | None]:
        """The move to play in ``position`` (left unchanged) within ``limit`` (the clock's
        share, or None), and the search that chose it (None for a human)."""


@define
class SearchPlayer:
    """A searcher with its evaluator and limit (the game's limit overrides it field by
    field)."""

    searcher: Any
    evaluator: Evaluator
    limit: Limit | None = None
    label: str = field(default="")

    def __attrs_post_init__(self) -> None:
        if not self.label:
            self.label = str(self.searcher)

    def choose(
        self, position: Position, notify: Callable[..., Any], limit: Limit | None = None
    ) -> tuple[int, SearchResult | None]:
        """The searcher's move for ``position`` and the SearchResult behind it."""
        limit = (self.limit or Limit()).merged(limit)
        result = observed_search(notify, self.searcher, position, self.evaluator, limit)
        if result.move is None:
            raise AlfabetaError(f"{self.label} returned no move in {position.to_string()!r}")
        return result.move, result


@define
class HumanPlayer:
    """A person at the terminal: sees the board, types a move; bad input is explained and
    asked again. ``?`` lists the legal moves, ``quit`` (or end of input) abandons the game."""

    read: Callable[[str], str] = field(factory=lambda: input)  # looked up when made
    write: Callable[[str], Any] = field(factory=lambda: print)
    label: str = "human"

    def choose(
        self, position: Position, notify: Callable[..., Any], limit: Limit | None = None
    ) -> tuple[int, SearchResult | None]:
        """Ask the person at the terminal for a move until a legal one is typed."""
        self.write(str(position))
        while True:
            try:
                text = self.read(f"{self.label}, your move (? lists moves): ").strip()
            except EOFError:
                raise GameAbandoned("input ended") from None
            if text in ("quit", "exit"):
                raise GameAbandoned("the player quit")
            if text in ("?", "help", ""):
                moves = " ".join(position.move_str(m) for m in position.legal_moves())
                self.write(f"legal moves: {moves}")
                continue
            try:
                return position.parse_move(text), None
            except AlfabetaError as error:
                self.write(f"not accepted: {error}")


@frozen
class GameRecord:
    """A finished game: where it started, the moves (ints and their text), how it ended
    (``termination``: normal, adjudication, time forfeit, illegal move, crash, stall, error),
    who played, the search result behind each searched move (None for human moves) and the
    seconds each move took."""

    game: str
    start: str
    moves: tuple[int, ...]
    notation: tuple[str, ...]
    outcome: Outcome
    players: tuple[str, str]
    results: tuple[SearchResult | None, ...] = ()
    termination: str = NORMAL
    seconds: tuple[float, ...] = ()


def final_outcome(position: Position) -> Outcome | None:
    """The Outcome of a finished position (None while it is ongoing)."""
    status = position.outcome()
    side = position.side_to_move
    termination = getattr(position, "termination", None)
    reason = (termination() if termination is not None else "") or (
        "draw" if status == Result.DRAW else "win"
    )
    if status == Result.ONGOING:
        return None
    if status == Result.WIN:
        return Outcome(side, reason)
    if status == Result.LOSS:
        return Outcome(side ^ 1, reason)
    if status == Result.DRAW:
        return Outcome(None, reason)
    value = position.value() if hasattr(position, "value") else 0  # a scored leaf
    return Outcome(0 if value > 0 else 1 if value < 0 else None, f"leaf value {value}")


class Forfeit(AlfabetaError):
    """A player lost the game by breaking it; ``termination`` says how."""

    def __init__(self, message: str, termination: str) -> None:
        super().__init__(message)
        self.termination = termination


def _choose(
    player: Any, game: Position, notify: Callable[..., Any], limit: Limit, forfeit: bool
) -> tuple[int, SearchResult | None]:
    """The player's move, checked legal; with ``forfeit`` every failure becomes a Forfeit."""
    try:
        move, result = player.choose(game, notify, limit)
    except GameAbandoned:
        raise
    except Exception as error:
        if not forfeit:
            raise
        termination = getattr(error, "termination", ERROR)
        raise Forfeit(f"{player.label}: {type(error).__name__}: {error}", termination) from None
    if move not in game.legal_moves():
        if not forfeit:
            raise AlfabetaError(f"{player.label} chose the illegal move {move!r}")
        raise Forfeit(f"{player.label} chose the illegal move {move!r}", ILLEGAL_MOVE)
    return move, result


def play_game(
    position: Position,
    players: Sequence[Player],
    *,
    notify: Callable[..., Any] | None = None,
    max_plies: int | None = None,
    on_move: Callable[[Position, int, SearchResult | None, str], Any] | None = None,
    limits: Sequence[Limit | None] = (None, None),
    clocks: Sequence[Clock | None] = (None, None),
    margin: Sequence[float] = (0.0, 0.0),
    adjudication: Adjudication | None = None,
    forfeit: bool = False,
) -> GameRecord:
    """Play ``position`` to its end; ``players[i]`` moves when side ``i`` is to move.

    ``notify(hook_name, **kwargs)`` receives the observer hooks (``Catalog.notify``);
    ``on_move(position, move, result, text)`` is called after each move; ``max_plies``
    adjudicates a draw. ``limits[i]`` is side i's limit per move, ``clocks[i]`` its clock
    (its time is added to the limit; a move beyond the time left plus ``margin[i]`` loses on
    time). ``adjudication`` ends games on the players' scores. The given position is not
    modified."""
    notify = notify or (lambda *args, **kwargs: None)
    rules = adjudication or Adjudication()
    if max_plies is not None:
        rules = Adjudication(rules.resign, rules.draw, max_plies)
    adjudicator = Adjudicator(rules)
    game = position.copy()
    start = game.to_string()
    moves, notation, results, seconds = [], [], [], []
    termination = NORMAL
    outcome = final_outcome(game)
    if outcome is None and rules.max_plies is not None and rules.max_plies <= 0:
        outcome, termination = Outcome(None, "adjudication after 0 plies"), ADJUDICATION
    while outcome is None:
        side = game.side_to_move
        limit = (limits[side] or Limit()).merged(clock_limit((clocks[0], clocks[1]), side))
        began = time.perf_counter()
        try:
            move, result = _choose(players[side], game, notify, limit, forfeit)
        except Forfeit as lost:
            outcome, termination = Outcome(side ^ 1, str(lost)), lost.termination
            break
        took = time.perf_counter() - began
        clock = clocks[side]
        if clock is not None and not clock.spend(took, margin[side]):
            outcome = Outcome(side ^ 1, f"{players[side].label} lost on time ({took:.3f}s)")
            termination = TIME_FORFEIT
            break
        text = game.move_str(move)
        game.push(move)
        moves.append(move)
        notation.append(text)
        results.append(result)
        seconds.append(took)
        notify("move_played", position=game, move=move, side=side, result=result)
        if on_move is not None:
            on_move(game, move, result, text)
        outcome = final_outcome(game)
        if outcome is None:
            score = result.value if result is not None else None
            fullmove = getattr(game, "fullmove", len(game.move_stack) // 2 + 1)
            outcome = adjudicator.after_move(side, score, len(moves), fullmove)
            if outcome is not None:
                termination = ADJUDICATION
    record = GameRecord(
        game=format_spec(game.name, game.options()),
        start=start,
        moves=tuple(moves),
        notation=tuple(notation),
        outcome=outcome,
        players=(players[0].label, players[1].label),
        results=tuple(results),
        termination=termination,
        seconds=tuple(seconds),
    )
    notify("game_finished", record=record)
    return record
