"""alfabeta: a plugin-based game-playing framework with a compiled search core.

The contracts live in :mod:`alfabeta.core`; plugins are found through :mod:`alfabeta.plugins`.
"""

from alfabeta.core import (
    WIN,
    AlfabetaError,
    Evaluator,
    Limit,
    Outcome,
    Position,
    Result,
    SearchResult,
)
from alfabeta.plugins.catalog import Catalog, load_catalog

__version__ = "0.1.0"

__all__ = [
    "WIN",
    "AlfabetaError",
    "Catalog",
    "Evaluator",
    "Limit",
    "Outcome",
    "Position",
    "Result",
    "SearchResult",
    "load_catalog",
]
