"""A learned BayesChess model on disk: ``NAME.json`` + ``NAME.npz``, never pickle.

The arrays are the network's counts — ``counts`` int64[3, 3, 774, 5] (phase, result,
variable, state) and ``class_counts`` int64[3, 3] — and ``base`` int32[774], the parameters
whose five states each variable takes. The JSON says what they are: format, schema version,
shapes and dtypes, the smoothing ``alpha``, the learning seed, the number of games and rows,
and the alfabeta version. Loading checks every one of these; a file that is not a model, is
truncated, or holds a pickle, a wrong shape or dtype, a negative count or counts that do not
add up is refused with a :class:`ModelError` that says which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from attrs import define, field

from alfabeta.core import AlfabetaError, arrayfile
from alfabeta.learning.naive_bayes import TwoClassNaiveBayes, check_target
from alfabeta.learning.params import PARAMETER_COUNT, STATES, BayesChessParams, Phase

FORMAT = "alfabeta-bayeschess-model"
VERSION = 1
SHAPES = {
    "counts": ((3, 3, PARAMETER_COUNT, STATES), "int64"),
    "class_counts": ((3, 3), "int64"),
    "base": ((PARAMETER_COUNT,), "int32"),
}


class ModelError(AlfabetaError, ValueError):
    """A BayesChess model file that cannot be read or is not a valid model."""


@define
class BayesModel:
    """The learner with the base parameters it perturbs around, and where it came from."""

    learner: TwoClassNaiveBayes = field(factory=lambda: TwoClassNaiveBayes(PARAMETER_COUNT))
    base: BayesChessParams = field(factory=BayesChessParams.default)
    seed: int | None = None
    games: int = 0

    @property
    def alpha(self) -> float:
        """The model's default smoothing."""
        return self.learner.alpha

    def parameters(self, phase: Phase, target: str, alpha: float | None = None) -> BayesChessParams:
        """The parameter set the network selects for ``phase`` and ``target``."""
        check_target(target)
        states = self.learner.select(phase, target, alpha)
        return BayesChessParams.from_states(self.base, states)

    def save(self, path: str | Path) -> tuple[Path, Path]:
        """Write ``NAME.json`` and ``NAME.npz`` beside ``path``; their paths."""
        from alfabeta import __version__

        meta: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "arrays": {name: {"shape": list(s), "dtype": d} for name, (s, d) in SHAPES.items()},
            "alpha": self.alpha,
            "seed": self.seed,
            "games": self.games,
            "rows": self.learner.rows,
            "alfabeta": __version__,
        }
        arrays = {
            "counts": self.learner.counts,
            "class_counts": self.learner.class_counts,
            "base": self.base.vector,
        }
        return arrayfile.write(path, arrays, meta, ModelError)

    @classmethod
    def load(cls, path: str | Path) -> BayesModel:
        """Read and validate a model written by ``save`` (``path``: either file)."""
        meta, arrays = arrayfile.read(
            path, "BayesChess model", FORMAT, VERSION, tuple(SHAPES), ModelError
        )
        where = f"BayesChess model {str(arrayfile.paths(path)[0])!r}"
        for name, (shape, dtype) in SHAPES.items():
            arrayfile.check_array(where, name, arrays[name], dtype, shape, ModelError)
        counts, class_counts = arrays["counts"], arrays["class_counts"]
        if counts.min() < 0 or class_counts.min() < 0:
            raise ModelError(f"{where}: a count is negative")
        if not np.array_equal(
            counts.sum(axis=3), np.broadcast_to(class_counts[:, :, None], counts.shape[:3])
        ):
            raise ModelError(f"{where}: the counts of a variable do not add up to its class")
        alpha, games, seed = meta.get("alpha"), meta.get("games"), meta.get("seed")
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not alpha >= 0:
            raise ModelError(f"{where}: alpha {alpha!r} is not a count >= 0")
        if isinstance(games, bool) or not isinstance(games, int) or games < 0:
            raise ModelError(f"{where}: games {games!r} is not a whole number")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ModelError(f"{where}: seed {seed!r} is not a whole number")
        learner = TwoClassNaiveBayes(PARAMETER_COUNT, alpha)
        learner.counts[...] = counts
        learner.class_counts[...] = class_counts
        return cls(learner, BayesChessParams(arrays["base"]), seed, games)
