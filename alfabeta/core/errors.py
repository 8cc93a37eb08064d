"""The error hierarchy. Every error alfabeta raises on bad input derives from AlfabetaError,
and from ValueError/LookupError where that is the natural base, so callers can catch either."""


class AlfabetaError(Exception):
    """Base of every error alfabeta raises deliberately."""


class IllegalMoveError(AlfabetaError, ValueError):
    """A move that is malformed or not legal in the position; the position is unchanged."""


class InvalidPositionError(AlfabetaError, ValueError):
    """A position string (FEN, board text, tree path) that is malformed or impossible."""


class EmptyStackError(AlfabetaError, IndexError):
    """``pop()`` on a position with no move to take back."""


class InvalidOptionError(AlfabetaError, ValueError):
    """An option that a game, searcher or evaluator does not have, or an impossible value."""


class SpecSyntaxError(AlfabetaError, ValueError):
    """A ``name(key=value, ...)`` specification that cannot be parsed."""


class UnknownPluginError(AlfabetaError, LookupError):
    """A game, searcher or evaluator name that no loaded plugin registered."""


class DuplicateNameError(AlfabetaError, ValueError):
    """A plugin tried to register a name (or alias) that is already taken."""


class PluginError(AlfabetaError):
    """A plugin failed to import or to register."""


class IncompatibleEvaluatorError(AlfabetaError, ValueError):
    """An evaluator asked for on a game it does not apply to."""


class UnsupportedLimitError(AlfabetaError, ValueError):
    """A search limit that the chosen searcher cannot honour."""


class GameProtocolError(AlfabetaError, TypeError):
    """A plain-Python game or evaluator that does not keep the contract (e.g. non-int moves)."""


class KnowledgeBaseError(AlfabetaError, ValueError):
    """A Horn-clause knowledge base that cannot be read or used: a syntax error (with line and
    column), a cyclic rule set (with the cycle), a missing goal, an unreadable file."""


EXCERPT_CHARS = 60  # how much of a bad input an error message quotes


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of ``text`` cut to about ``limit`` characters, so an error about a huge input
    stays one readable line."""
    shown = str(text)
    if len(shown) <= limit:
        return repr(shown)
    return repr(shown[:limit]) + f"… ({len(shown)} characters)"
