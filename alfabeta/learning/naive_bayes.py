"""Naive Bayes as BayesChess uses it (seed-002 §0.1, §2.4–2.5, §3).

* :class:`TwoClassNaiveBayes`: predictors with five states under two class variables, game
  phase (A, M, F) and result (G win, P loss, T draw) of the side whose parameters a row
  holds. Learning is counting; ``partial_fit`` after ``fit`` is the same as one ``fit`` of
  all the rows. ``select(phase, target)`` is the paper's abductive step: each predictor's
  most probable state given the instantiated classes, which under eq. (3) is the joint MPE.
* :class:`CategoricalNaiveBayes`: one class variable over categorical features (the style
  classifier), with ``fit``, ``partial_fit``, ``predict`` and ``predict_proba``.

Decisions (seed-002 §6.10–6.11): estimates are maximum likelihood (``alpha=0``) or Laplace
(``alpha=1``, any α ≥ 0 allowed); a class instantiation never seen gives every state the same
probability. Ties go to the base state, then the state closest to it, then the lower one.
``not_loss`` ("maximise P(win or draw)") maximises the pooled p(x | phase, R ∈ {G, T}) — the
mixture of the two tables weighted by P(G | phase) and P(T | phase) — which is exact per table
but is not the joint MPE under the disjunction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from alfabeta.core import InvalidOptionError
from alfabeta.learning.params import BASE_STATE, STATES, Phase

TARGETS = ("win", "not_loss")
TIE_TOLERANCE = 1e-12
# Preference among tied states: the base (2), then outward, lower first.
_PREFERENCE = sorted(range(STATES), key=lambda s: (abs(s - BASE_STATE), s))


class Outcome(IntEnum):
    """Resultado, from the recorded side's view (Cuadro 4's labels)."""

    WIN = 0  # GANAN
    LOSS = 1  # PIERDEN
    DRAW = 2  # TABLAS

    @property
    def label(self) -> str:
        """The paper's Spanish name of the result."""
        return ("GANAN", "PIERDEN", "TABLAS")[self]

    @classmethod
    def parse(cls, text: str) -> Outcome:
        """The outcome named by ``text`` (GANAN/win, PIERDEN/loss, TABLAS/draw, any case)."""
        key = str(text).strip().upper()
        for outcome in cls:
            if key in (outcome.label, outcome.name, outcome.label[0]):
                return outcome
        raise InvalidOptionError(f"result {text!r}: expected G (win), P (loss) or T (draw)")


def check_alpha(alpha: float) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not alpha >= 0:
        raise InvalidOptionError(f"alpha={alpha!r}: expected a smoothing count >= 0")
    return float(alpha)


def check_target(target: str) -> str:
    if target not in TARGETS:
        raise InvalidOptionError(f"target={target!r}: expected win or not_loss")
    return target


def preferred_argmax(distribution: np.ndarray) -> np.ndarray:
    """Each row's most probable state, ties broken by the module's rule: int[n]."""
    best = distribution.max(axis=1, keepdims=True)
    tied = distribution >= best - TIE_TOLERANCE
    choice = np.full(distribution.shape[0], -1, dtype=np.int64)
    for state in reversed(_PREFERENCE):  # the most preferred tied state is written last
        choice[tied[:, state]] = state
    return choice


class TwoClassNaiveBayes:
    """Counts ``counts[phase, result, variable, state]`` and ``class_counts[phase, result]``
    (int64); ``alpha`` smooths the estimates."""

    def __init__(self, variables: int, alpha: float = 0.0) -> None:
        if isinstance(variables, bool) or not isinstance(variables, int) or variables < 1:
            raise InvalidOptionError(f"variables={variables!r}: expected a whole number >= 1")
        self.variables = variables
        self.alpha = check_alpha(alpha)
        self.counts = np.zeros((3, 3, variables, STATES), dtype=np.int64)
        self.class_counts = np.zeros((3, 3), dtype=np.int64)

    @property
    def rows(self) -> int:
        """The rows learned so far."""
        return int(self.class_counts.sum())

    def partial_fit(
        self, phases: ArrayLike, results: ArrayLike, states: ArrayLike
    ) -> TwoClassNaiveBayes:
        """Add rows: ``phases[r]``, ``results[r]`` and ``states[r]`` (n variables, 0–4)."""
        phase = np.asarray(phases, dtype=np.int64).reshape(-1)
        result = np.asarray(results, dtype=np.int64).reshape(-1)
        state = np.asarray(states, dtype=np.int64)
        if len(result) != len(phase) or state.size != len(phase) * self.variables:
            raise InvalidOptionError(
                f"rows: {len(phase)} phases, {len(result)} results and states of shape "
                f"{state.shape}; expected one of each per row and {self.variables} states"
            )
        state = state.reshape(len(phase), self.variables)
        for name, array, top in (("phase", phase, 3), ("result", result, 3)):
            if len(array) and (array.min() < 0 or array.max() >= top):
                raise InvalidOptionError(f"a row's {name} is outside 0–{top - 1}")
        if state.size and (state.min() < 0 or state.max() >= STATES):
            raise InvalidOptionError(f"a row's state is outside 0–{STATES - 1}")
        np.add.at(self.class_counts, (phase, result), 1)
        variable = np.broadcast_to(np.arange(self.variables), state.shape)
        np.add.at(
            self.counts,
            (phase[:, None], result[:, None], variable, state),
            1,
        )
        return self

    def fit(self, phases: ArrayLike, results: ArrayLike, states: ArrayLike) -> TwoClassNaiveBayes:
        """Forget everything learned, then learn these rows."""
        self.counts[...] = 0
        self.class_counts[...] = 0
        return self.partial_fit(phases, results, states)

    def cpt(self, alpha: float | None = None) -> np.ndarray:
        """p(variable = state | phase, result): float64[3, 3, n, 5]."""
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        numerator = self.counts + alpha
        denominator = self.class_counts[:, :, None, None] + STATES * alpha
        with np.errstate(invalid="ignore", divide="ignore"):
            table = numerator / denominator
        return np.where(denominator > 0, table, 1.0 / STATES)

    def result_prior(self, phase: int, alpha: float | None = None) -> np.ndarray:
        """P(result | phase): float64[3] (uniform when the phase has no rows)."""
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        counts = self.class_counts[phase] + alpha
        total = counts.sum()
        return counts / total if total > 0 else np.full(3, 1.0 / 3)

    def distribution(self, phase: int, target: str, alpha: float | None = None) -> np.ndarray:
        """The table ``select`` maximises: p(x | phase, G) for ``win``, the pooled
        p(x | phase, R ∈ {G, T}) for ``not_loss``; float64[n, 5]."""
        check_target(target)
        table = self.cpt(alpha)[int(phase)]
        if target == "win":
            return table[Outcome.WIN]
        prior = self.result_prior(phase, alpha)
        weights = np.array([prior[Outcome.WIN], prior[Outcome.DRAW]])
        if weights.sum() <= 0:
            weights = np.array([0.5, 0.5])
        weights = weights / weights.sum()
        return weights[0] * table[Outcome.WIN] + weights[1] * table[Outcome.DRAW]

    def select(self, phase: int, target: str, alpha: float | None = None) -> np.ndarray:
        """The most probable state of every variable for ``phase`` and ``target``: int[n]."""
        return preferred_argmax(self.distribution(phase, target, alpha))


class CategoricalNaiveBayes:
    """Naive Bayes over categorical features. ``domains[j]`` lists feature j's values;
    ``alpha`` smooths both the class priors and the likelihoods; ``prior_counts`` (one count
    per class) replaces the class counts of the training rows in the priors."""

    def __init__(
        self,
        classes: Sequence[str],
        domains: Sequence[Sequence[str]],
        alpha: float = 1.0,
        prior_counts: Sequence[int] | None = None,
    ) -> None:
        self.classes = tuple(classes)
        self.domains = tuple(tuple(d) for d in domains)
        self.alpha = check_alpha(alpha)
        self.counts = [np.zeros((len(self.classes), len(d)), dtype=np.int64) for d in domains]
        self.class_counts = np.zeros(len(self.classes), dtype=np.int64)
        self.prior_counts = None if prior_counts is None else np.asarray(prior_counts, float)
        if self.prior_counts is not None and self.prior_counts.shape != (len(self.classes),):
            raise InvalidOptionError(f"prior_counts: expected {len(self.classes)} counts")

    def _index(self, feature: int, value: Any) -> int | None:
        if value is None:
            return None  # not observed: the feature is left out
        try:
            return self.domains[feature].index(value)
        except ValueError:
            raise InvalidOptionError(
                f"feature {feature} value {value!r}: expected one of {self.domains[feature]}"
            ) from None

    def partial_fit(self, rows: Iterable[Sequence], labels: Iterable[str]) -> CategoricalNaiveBayes:
        """Add the counts of ``rows`` with their class ``labels``; an unknown class or value raises
        InvalidOptionError."""
        for row, label in zip(rows, labels, strict=True):
            if label not in self.classes:
                raise InvalidOptionError(f"class {label!r}: expected one of {self.classes}")
            c = self.classes.index(label)
            self.class_counts[c] += 1
            for j, value in enumerate(row):
                index = self._index(j, value)
                if index is not None:
                    self.counts[j][c, index] += 1
        return self

    def fit(self, rows: Iterable[Sequence], labels: Iterable[str]) -> CategoricalNaiveBayes:
        """Forget every count, then learn ``rows`` as ``partial_fit`` does."""
        self.class_counts[...] = 0
        for table in self.counts:
            table[...] = 0
        return self.partial_fit(rows, labels)

    def priors(self) -> np.ndarray:
        """The class probabilities, smoothed with ``alpha`` (from the given prior counts
        when set)."""
        counts = self.class_counts if self.prior_counts is None else self.prior_counts
        smoothed = np.asarray(counts, float) + self.alpha
        total = smoothed.sum()
        return smoothed / total if total > 0 else np.full(len(self.classes), 1 / len(self.classes))

    def predict_proba(self, row: Sequence) -> dict[str, float]:
        """P(class | the observed features); a feature given as None is left out."""
        if len(row) != len(self.domains):
            raise InvalidOptionError(f"expected {len(self.domains)} features, got {len(row)}")
        log = np.log(np.maximum(self.priors(), 1e-300))
        for j, value in enumerate(row):
            index = self._index(j, value)
            if index is None:
                continue
            numerator = self.counts[j][:, index] + self.alpha
            denominator = self.class_counts + self.alpha * len(self.domains[j])
            with np.errstate(divide="ignore", invalid="ignore"):
                likelihood = np.where(denominator > 0, numerator / denominator, 1.0)
            log = log + np.log(np.maximum(likelihood, 1e-300))
        posterior = np.exp(log - log.max())
        posterior /= posterior.sum()
        return dict(zip(self.classes, (float(p) for p in posterior), strict=True))

    def predict(self, row: Sequence) -> str:
        """The most probable class (the first listed on a tie)."""
        probabilities = self.predict_proba(row)
        return max(self.classes, key=lambda c: (probabilities[c], -self.classes.index(c)))


__all__ = [
    "TARGETS",
    "CategoricalNaiveBayes",
    "Outcome",
    "Phase",
    "TwoClassNaiveBayes",
    "preferred_argmax",
]
