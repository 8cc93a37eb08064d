"""The opponent's playing style (seed-002 §3): four features read from a game, a naive Bayes
classifier over them, and the policy that turns a style into BayesChess's target.

Features, all of one player (the opponent), decided where the paper is loose (§6.15):

* ``first_move``: that player's first move in SAN, one of ``e4 Nf6 Nf3 d4 c5 c4`` or
  ``other`` (Cuadro 6's Cf6/Cf3 are Nf6/Nf3); unknown (left out) before it has moved;
* ``castling``: ``opposite`` when both kings stand on different wings (files a–c against
  f–h), else ``same`` — so a king still in the centre counts as ``same``;
* ``advanced``: the player's pieces other than pawns and king beyond its third rank, capped
  at 2;
* ``pawn_storm``: the player's pawns on the enemy king's file or the files beside it that
  stand beyond the player's fourth rank, capped at 2.

Features are read at the position given: during a game, at each search's root (so the
classification follows the opponent's moves); in a training game, after the player's 20th
move (or at the end of a shorter game).

The default classifier is the paper's: its likelihoods learned from Cuadro 6's seven cases
with Laplace α = 1, its priors the paper's class counts (2708 attacking, 3078 positional,
649 mixed games). ``train_style`` learns one from the user's PGN files instead.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from alfabeta.core import InvalidOptionError, Position, arrayfile
from alfabeta.learning.naive_bayes import CategoricalNaiveBayes

ATTACKING, POSITIONAL, MIXED = "attacking", "positional", "mixed"
STYLES = (ATTACKING, POSITIONAL, MIXED)
ALIASES = {
    "atacante": ATTACKING,
    "attacking": ATTACKING,
    "posicional": POSITIONAL,
    "positional": POSITIONAL,
    "defensiva": POSITIONAL,
    "defensivo": POSITIONAL,
    "defensive": POSITIONAL,
    "mixta": MIXED,
    "mixed": MIXED,
}
FIRST_MOVES = ("e4", "Nf6", "Nf3", "d4", "c5", "c4", "other")
DOMAINS = (FIRST_MOVES, ("same", "opposite"), ("0", "1", "2"), ("0", "1", "2"))
PAPER_PRIOR_COUNTS = (2708, 3078, 649)  # Fischer+Kasparov, Karpov, Illescas (L197)
# Cuadro 6 (L197–199): first move, castling, advanced pieces, pawns against the king.
CUADRO_6 = (
    (("e4", "same", "2", "1"), ATTACKING),
    (("Nf6", "opposite", "0", "2"), ATTACKING),
    (("Nf3", "same", "0", "1"), MIXED),
    (("d4", "same", "1", "0"), POSITIONAL),
    (("c5", "same", "0", "0"), ATTACKING),
    (("c4", "opposite", "1", "2"), POSITIONAL),
    (("other", "same", "1", "1"), MIXED),
)
TRAINING_MOVE = 20  # a training game's features are read after the player's 20th move
FORMAT = "alfabeta-style-model"


def style_named(text: str) -> str:
    """A style from any of its names (Spanish or English)."""
    try:
        return ALIASES[str(text).strip().lower()]
    except KeyError:
        raise InvalidOptionError(
            f"style {text!r}: expected attacking, positional (defensive) or mixed"
        ) from None


def _wing(square: int) -> str:
    file = square % 8
    return "queen" if file <= 2 else "king" if file >= 5 else "centre"


def features(position: Position, player: int) -> tuple[str | None, str, str, str]:
    """The four features of ``player`` (0 white, 1 black) in a chess ``position``, whose
    move stack (from its root) gives the first move."""
    first = None
    replay = position.from_string(position.root_string())
    for move in position.move_stack:
        if replay.side_to_move == player:
            san = replay.san(move).rstrip("+#")
            first = san if san in FIRST_MOVES else "other"
            break
        replay.push(move)
    pieces = position.pieces
    kings = [(pieces[c][5] & -pieces[c][5]).bit_length() - 1 for c in (0, 1)]
    wings = [_wing(k) for k in kings]
    opposite = "centre" not in wings and wings[0] != wings[1]
    own_third = (lambda rank: rank >= 3) if player == 0 else (lambda rank: rank <= 4)
    advanced = sum(
        1
        for kind in range(1, 5)
        for square in _squares(pieces[player][kind])
        if own_third(square // 8)
    )
    enemy_king_file = kings[player ^ 1] % 8
    beyond_fourth = (lambda rank: rank >= 4) if player == 0 else (lambda rank: rank <= 3)
    storm = sum(
        1
        for square in _squares(pieces[player][0])
        if abs(square % 8 - enemy_king_file) <= 1 and beyond_fourth(square // 8)
    )
    return first, "opposite" if opposite else "same", str(min(advanced, 2)), str(min(storm, 2))


def _squares(bits: int) -> Iterable[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class StyleClassifier(CategoricalNaiveBayes):
    """Naive Bayes over ``features`` with the three styles as classes."""

    def __init__(self, alpha: float = 1.0, prior_counts: Sequence[int] | None = None) -> None:
        super().__init__(STYLES, DOMAINS, alpha, prior_counts)

    @classmethod
    def paper(cls) -> StyleClassifier:
        """Cuadro 6's cases with α = 1 and the paper's class counts as priors."""
        classifier = cls(1.0, PAPER_PRIOR_COUNTS)
        classifier.fit([row for row, _ in CUADRO_6], [label for _, label in CUADRO_6])
        return classifier

    def classify(self, position: Position, player: int) -> str:
        """The style of ``player`` in the game that led to ``position``."""
        return self.predict(features(position, player))

    def save(self, path: str | Path) -> Path:
        """Write the classifier as JSON (its counts; no pickle)."""
        path = Path(path)
        data = {
            "format": FORMAT,
            "version": 1,
            "alpha": self.alpha,
            "prior_counts": None if self.prior_counts is None else self.prior_counts.tolist(),
            "class_counts": self.class_counts.tolist(),
            "counts": [table.tolist() for table in self.counts],
        }
        try:
            path.write_text(json.dumps(data, indent=2) + "\n")
        except OSError as error:
            raise InvalidOptionError(f"cannot write {str(path)!r}: {error}") from None
        return path

    @classmethod
    def load(cls, path: str | Path) -> StyleClassifier:
        """Read a classifier written by ``save``; a clear error for anything else."""
        from alfabeta.learning.model import ModelError

        data = arrayfile.read_json(Path(path), "style model", FORMAT, ModelError)
        try:
            classifier = cls(data["alpha"], data["prior_counts"])
            shapes = [(len(STYLES), len(d)) for d in DOMAINS]
            counts = [list(map(list, table)) for table in data["counts"]]
            if [(len(t), len(t[0])) for t in counts] != shapes or len(data["class_counts"]) != len(
                STYLES
            ):
                raise ValueError("the counts have the wrong shape")
            for target, table in zip(classifier.counts, counts, strict=True):
                target[...] = table
            classifier.class_counts[...] = data["class_counts"]
        except (KeyError, TypeError, ValueError, IndexError, InvalidOptionError) as error:
            raise ModelError(
                f"style model {str(path)!r}: {arrayfile.problem_text(error)}"
            ) from None
        if any((t < 0).any() for t in classifier.counts) or (classifier.class_counts < 0).any():
            raise ModelError(f"style model {str(path)!r}: a count is negative")
        return classifier


def training_rows(
    games: Iterable[tuple[Position, int]], label: str
) -> tuple[list[tuple], list[str]]:
    """Feature rows of ``(final position with its move stack, player)`` pairs, each read
    after the player's ``TRAINING_MOVE``-th move, all labelled ``label``."""
    rows, labels = [], []
    for position, player in games:
        replay = position.from_string(position.root_string())
        played = 0
        for move in position.move_stack:
            if replay.side_to_move == player:
                played += 1
            replay.push(move)
            if played == TRAINING_MOVE and replay.side_to_move != player:
                break
        rows.append(features(replay, player))
        labels.append(style_named(label))
    return rows, labels


def target_for(style: str, chooser: random.Random) -> str:
    """seed-002 §3.4: against an attacker do not lose, against a positional player win,
    against a mixed one either, by a draw of ``chooser`` (50/50)."""
    if style == ATTACKING:
        return "not_loss"
    if style == POSITIONAL:
        return "win"
    return chooser.choice(("win", "not_loss"))
