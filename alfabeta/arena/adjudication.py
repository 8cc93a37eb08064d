"""Ending games early on the players' own scores, as cutechess and fastchess do.

- resign: a player whose reported score is at or below ``-score`` on ``movecount``
  consecutive moves of its own loses;
- draw: from full move ``movenumber`` on, when every one of the last ``movecount`` moves of
  both players (2·movecount plies) reported a score within ``±score``, the game is drawn;
- ``max_plies``: a game still going after that many plies (counted from where play began,
  after the opening) is drawn.

Scores are the searchers' root values (the mover's view, centipawns for chess); a move with
no score (a human's, a book move) breaks every streak.
"""

from __future__ import annotations

from attrs import define, field, frozen

from alfabeta.core import InvalidOptionError, Outcome


def _parse_words(text: str, flag: str, keys: tuple[str, ...]) -> dict[str, int]:
    values: dict[str, int] = {}
    for word in text.replace(",", " ").split():
        key, equals, value = word.partition("=")
        if not equals or key not in keys:
            raise InvalidOptionError(
                f"{flag} {text!r}: expected {' '.join(k + '=N' for k in keys)}; got {word!r}"
            )
        try:
            values[key] = int(value)
        except ValueError:
            raise InvalidOptionError(f"{flag} {key}={value!r}: not a whole number") from None
        if values[key] < (0 if key == "score" else 1):
            raise InvalidOptionError(f"{flag} {key}={value}: too small")
    missing = [k for k in keys if k not in values]
    if missing:
        raise InvalidOptionError(f"{flag} {text!r}: missing {', '.join(missing)}")
    return values


@frozen
class ResignRule:
    """Resign for a side once its own reported score has been at or below −``score`` for
    ``movecount`` consecutive moves of its own (cutechess's -resign, one-sided)."""

    movecount: int
    score: int

    @classmethod
    def parse(cls, text: str) -> ResignRule:
        """From ``"movecount=3 score=600"``."""
        return cls(**_parse_words(text, "--resign", ("movecount", "score")))


@frozen
class DrawRule:
    """Draw from move ``movenumber`` on once both scores have stayed within ``score`` of 0 for
    ``movecount`` consecutive moves each (cutechess's -draw)."""

    movenumber: int
    movecount: int
    score: int

    @classmethod
    def parse(cls, text: str) -> DrawRule:
        """From ``"movenumber=34 movecount=8 score=20"``."""
        return cls(**_parse_words(text, "--draw", ("movenumber", "movecount", "score")))


@frozen
class Adjudication:
    """The adjudication rules of a run: resign, draw, and a ply cap (then a draw)."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None
    max_plies: int | None = None


@define
class Adjudicator:
    """Follows one game's scores; ``after_move`` returns an Outcome when a rule ends it."""

    rules: Adjudication
    resign_streak: list[int] = field(factory=lambda: [0, 0])
    draw_streak: int = 0

    def after_move(self, side: int, score: int | None, plies: int, fullmove: int) -> Outcome | None:
        """``side`` just moved, reporting ``score``; ``plies`` have been played since play
        began and the next move is of full move ``fullmove``."""
        resign, draw = self.rules.resign, self.rules.draw
        if score is None:
            self.resign_streak = [0, 0]
            self.draw_streak = 0
        else:
            if resign is not None:
                losing = score <= -resign.score
                self.resign_streak[side] = self.resign_streak[side] + 1 if losing else 0
                if self.resign_streak[side] >= resign.movecount:
                    return Outcome(
                        side ^ 1, f"adjudication: resign ({score} after {resign.movecount} moves)"
                    )
            if draw is not None:
                level = abs(score) <= draw.score
                self.draw_streak = self.draw_streak + 1 if level else 0
                if fullmove >= draw.movenumber and self.draw_streak >= 2 * draw.movecount:
                    return Outcome(None, "adjudication: draw")
        if self.rules.max_plies is not None and plies >= self.rules.max_plies:
            return Outcome(None, f"adjudication after {self.rules.max_plies} plies")
        return None
