"""Which parameter set the ``bayeschess`` evaluator plays with at a search's root.

* :class:`PerturbedParameters` (``bayeschess(perturb=SEED)``): self-play's perturbed side, a
  fresh random configuration for each phase of the game (seed-002 §2.3).
* :class:`LearnedParameters` (``bayeschess(model=FILE, target=...)``): the set the network
  selects for the root's phase and the target — ``win``, ``not_loss``, or ``adaptive``, which
  classifies the opponent's style from the game so far at every root and applies §3.4's
  policy (the opponent is the side not to move at the root; the game is the root's move
  stack from its starting position, so the arena, ``play`` and the UCI engine — whose
  ``position startpos moves ...`` is that record — adapt alike, and a take-back undoes it).

Both compute everything per root, from the root alone: the same position gives the same
parameters in any process, whatever was searched before.
"""

from __future__ import annotations

import random
from typing import Any

from alfabeta.core import InvalidOptionError, Position
from alfabeta.learning.model import BayesModel
from alfabeta.learning.naive_bayes import TARGETS, check_alpha
from alfabeta.learning.params import BayesChessParams, Phase, game_phase, perturbed_states
from alfabeta.learning.style import StyleClassifier, features, target_for

ADAPTIVE = "adaptive"


class PerturbedParameters:
    """Self-play's perturbed heuristic for the game with perturbation seed ``seed``."""

    def __init__(self, seed: int) -> None:
        perturbed_states(seed, Phase.OPENING, 1)  # validates the seed
        self.seed = seed
        self.base = BayesChessParams.default()
        self.sets: dict[Phase, BayesChessParams] = {}

    def for_phase(self, phase: Phase) -> BayesChessParams:
        """The perturbed parameters of ``phase`` (made once, then kept)."""
        if phase not in self.sets:
            self.sets[phase] = BayesChessParams.from_states(
                self.base, perturbed_states(self.seed, phase)
            )
        return self.sets[phase]

    def initial(self) -> BayesChessParams:
        """The parameters before any search: the opening's."""
        return self.for_phase(Phase.OPENING)

    def parameters_for(self, root: Position) -> BayesChessParams:
        """The parameters for a search from ``root``: its phase's."""
        return self.for_phase(game_phase(root))

    def describe(self, root: Position) -> dict[str, Any]:
        """What the evaluator reports about its choice at ``root``."""
        return {"phase": game_phase(root).name.lower(), "perturb": self.seed}


class LearnedParameters:
    """A model's parameter sets, chosen by phase and (fixed or adaptive) target."""

    def __init__(
        self,
        model: str,
        target: str = "win",
        alpha: float | None = None,
        style: str | None = None,
        seed: int = 0,
    ) -> None:
        if target not in (*TARGETS, ADAPTIVE):
            raise InvalidOptionError(f"target={target!r}: expected win, not_loss or adaptive")
        if style is not None and target != ADAPTIVE:
            raise InvalidOptionError("style= is the classifier of target=adaptive")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidOptionError(f"seed={seed!r}: expected a whole number >= 0")
        self.model = BayesModel.load(model)
        self.target = target
        self.alpha = None if alpha is None else check_alpha(alpha)
        self.seed = seed
        self.classifier = (
            None
            if target != ADAPTIVE
            else StyleClassifier.paper()
            if style is None
            else StyleClassifier.load(style)
        )
        self.sets: dict[tuple[Phase, str], BayesChessParams] = {}

    def for_phase(self, phase: Phase, target: str) -> BayesChessParams:
        """The model's parameters for ``phase`` and ``target`` (made once, then kept)."""
        if (phase, target) not in self.sets:
            self.sets[phase, target] = self.model.parameters(phase, target, self.alpha)
        return self.sets[phase, target]

    def initial(self) -> BayesChessParams:
        """The parameters before any search: the opening's, for ``win`` when adaptive."""
        return self.for_phase(Phase.OPENING, "win" if self.target == ADAPTIVE else self.target)

    def style_of_opponent(self, root: Position) -> tuple[str, dict[str, float], tuple]:
        """The opponent's style at ``root``, its probabilities and the features behind it."""
        assert self.classifier is not None  # target=adaptive
        observed = features(root, root.side_to_move ^ 1)
        probabilities = self.classifier.predict_proba(observed)
        return self.classifier.predict(observed), probabilities, observed

    def target_at(self, root: Position) -> str:
        """The target at ``root``: the fixed one, or the one the opponent's style calls for."""
        if self.target != ADAPTIVE:
            return self.target
        style, _, _ = self.style_of_opponent(root)
        chooser = random.Random(f"{self.seed}:{root.root_string()}:{root.side_to_move}")
        return target_for(style, chooser)

    def parameters_for(self, root: Position) -> BayesChessParams:
        """The parameters for a search from ``root``: its phase's, for its target."""
        return self.for_phase(game_phase(root), self.target_at(root))

    def describe(self, root: Position) -> dict[str, Any]:
        """What the evaluator reports about its choice at ``root``: phase, target, style and its
        probabilities."""
        report: dict[str, Any] = {
            "phase": game_phase(root).name.lower(),
            "target": self.target_at(root),
            "games learned": self.model.games,
        }
        if self.target == ADAPTIVE:
            style, probabilities, observed = self.style_of_opponent(root)
            report.update(style=style, probabilities=probabilities, features=observed)
        return report


def parameter_policy(
    model: str | None,
    target: str,
    perturb: int | None,
    alpha: float | None,
    style: str | None,
    seed: int,
) -> PerturbedParameters | LearnedParameters:
    """The policy for the evaluator's options (exactly one of ``model`` and ``perturb``)."""
    if model is not None and perturb is not None:
        raise InvalidOptionError("bayeschess: give model= (learned) or perturb= (self-play)")
    if perturb is not None:
        if target != "win" or alpha is not None or style is not None:
            raise InvalidOptionError("bayeschess(perturb=...) takes no target, alpha or style")
        return PerturbedParameters(perturb)
    if model is None:
        raise InvalidOptionError("bayeschess: target, alpha, style and seed need model=FILE")
    return LearnedParameters(str(model), target, alpha, style, seed)
