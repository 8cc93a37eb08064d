"""One game between two players, with the observer hooks fired on the way."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from attrs import define, field, frozen

from alfabeta.core import (
    AlfabetaError,
    Evaluator,
    Limit,
    Outcome,
    Position,
    Result,
    SearchResult,
)
from alfabeta.plugins.spec import format_spec


class GameAbandoned(AlfabetaError):
    """A human player quit (or input ended) before the game finished."""


class Player(Protocol):
    label: str

    def choose(
        self, position: Position, notify: Callable[..., Any]
    ) -> tuple[int, SearchResult | None]:
        """The move to play in ``position`` (left unchanged) and the search that chose it."""


@define
class SearchPlayer:
    """A searcher with its evaluator and limit."""

    searcher: Any
    evaluator: Evaluator
    limit: Limit | None = None
    label: str = field(default="")

    def __attrs_post_init__(self):
        if not self.label:
            self.label = str(self.searcher)

    def choose(self, position, notify):
        notify(
            "search_started",
            position=position,
            searcher=self.searcher,
            evaluator=self.evaluator,
            limit=self.limit,
        )
        result = self.searcher.search(position, self.evaluator, self.limit)
        notify(
            "search_finished",
            position=position,
            searcher=self.searcher,
            evaluator=self.evaluator,
            result=result,
        )
        if result.move is None:
            raise AlfabetaError(f"{self.label} returned no move in {position.to_string()!r}")
        return result.move, result


@define
class HumanPlayer:
    """A person at the terminal: sees the board, types a move; bad input is explained and
    asked again. ``?`` lists the legal moves, ``quit`` (or end of input) abandons the game."""

    read: Callable[[str], str] = input
    write: Callable[[str], Any] = print
    label: str = "human"

    def choose(self, position, notify):
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
    """A finished game: where it started, the moves (ints and their text), how it ended, who
    played, and the search result behind each searched move (None for human moves)."""

    game: str
    start: str
    moves: tuple[int, ...]
    notation: tuple[str, ...]
    outcome: Outcome
    players: tuple[str, str]
    results: tuple[SearchResult | None, ...] = ()


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


def play_game(
    position: Position,
    players: Sequence[Player],
    *,
    notify: Callable[..., Any] | None = None,
    max_plies: int | None = None,
    on_move: Callable[[Position, int, SearchResult | None, str], Any] | None = None,
) -> GameRecord:
    """Play ``position`` to its end; ``players[i]`` moves when side ``i`` is to move.

    ``notify(hook_name, **kwargs)`` receives the observer hooks (``Catalog.notify``);
    ``on_move(position, move, result, text)`` is called after each move; ``max_plies``
    adjudicates a draw. The given position is not modified."""
    notify = notify or (lambda *args, **kwargs: None)
    game = position.copy()
    start = game.to_string()
    moves, notation, results = [], [], []
    outcome = final_outcome(game)
    while outcome is None:
        if max_plies is not None and len(moves) >= max_plies:
            outcome = Outcome(None, f"adjudication after {max_plies} plies")
            break
        side = game.side_to_move
        move, result = players[side].choose(game, notify)
        text = game.move_str(move)
        game.push(move)
        moves.append(move)
        notation.append(text)
        results.append(result)
        notify("move_played", position=game, move=move, side=side, result=result)
        if on_move is not None:
            on_move(game, move, result, text)
        outcome = final_outcome(game)
    record = GameRecord(
        game=format_spec(game.name, game.options()),
        start=start,
        moves=tuple(moves),
        notation=tuple(notation),
        outcome=outcome,
        players=(players[0].label, players[1].label),
        results=tuple(results),
    )
    notify("game_finished", record=record)
    return record
