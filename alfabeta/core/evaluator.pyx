# cython: language_level=3
"""The Evaluator base (design §3). ``evaluate`` is ``cpdef``: compiled evaluators are called
from C with no Python object per node, and a plain-Python subclass that overrides it is called
through the same slot."""

from alfabeta.core.position cimport Position

from alfabeta.core.errors import GameProtocolError


cdef class Evaluator:
    """Scores positions from the side to move's point of view, as an int.

    ``games`` names the games it applies to (empty: any game); ``prepare(root)`` is called
    once per search at the root; a searcher may call the C-level ``prefetch(position)``
    when it enters a node, before it asks for the score. Subclasses may offer
    ``explain(position) -> dict`` whose values sum to ``evaluate(position)``.
    """

    name = "evaluator"
    games = ()

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        raise NotImplementedError(f"{type(self).__name__} does not evaluate")

    cpdef prepare(self, Position root):
        pass

    cdef void prefetch(self, Position position) noexcept:
        """A hint from C that ``position`` may soon be evaluated: an evaluator that keeps a
        table of scores may start loading its slot into the cache (nothing by default)."""
        pass

    def options(self):
        return {}

    def applies_to(self, game_name):
        return not self.games or game_name in self.games

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{self.name}({opts})"


cdef class FunctionEvaluator(Evaluator):
    """Wraps a plain-Python callable ``f(position) -> int`` (side-to-move view)."""

    cdef object function
    cdef str _name
    cdef tuple _games

    def __init__(self, function, name=None, games=()):
        if not callable(function):
            raise GameProtocolError(f"an evaluator must be callable, got {function!r}")
        self.function = function
        self._name = name or getattr(function, "__name__", "function")
        self._games = tuple(games)

    @property
    def name(self):
        return self._name

    @property
    def games(self):
        return self._games

    cpdef int evaluate(self, Position position) except? EVAL_ERROR:
        value = self.function(position)
        if not isinstance(value, int) or isinstance(value, bool):
            raise GameProtocolError(
                f"evaluator {self.name} returned {value!r}; evaluators must return an int"
            )
        return value

    def explain(self, position):
        explain = getattr(self.function, "explain", None)
        return explain(position) if explain else {"value": self.evaluate(position)}


def as_evaluator(evaluator):
    """``evaluator`` itself when it is an Evaluator, a plain callable ``f(position) -> int``
    wrapped in a FunctionEvaluator, else GameProtocolError: what every searcher accepts."""
    if isinstance(evaluator, Evaluator):
        return evaluator
    if callable(evaluator):
        return FunctionEvaluator(evaluator)
    raise GameProtocolError(
        f"an evaluator is an alfabeta Evaluator or a callable f(position) -> int, not "
        f"{type(evaluator).__name__}")
