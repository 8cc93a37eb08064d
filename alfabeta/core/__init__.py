"""The contracts every part shares (design §2–4): positions, evaluators, limits, results,
scores and errors."""

from alfabeta.core.adapters import PythonGame
from alfabeta.core.errors import (
    AlfabetaError,
    DuplicateNameError,
    EmptyStackError,
    GameProtocolError,
    IllegalMoveError,
    IncompatibleEvaluatorError,
    InvalidOptionError,
    InvalidPositionError,
    KnowledgeBaseError,
    PluginError,
    SpecSyntaxError,
    UnknownPluginError,
    UnsupportedLimitError,
)
from alfabeta.core.evaluator import Evaluator, FunctionEvaluator
from alfabeta.core.position import Position
from alfabeta.core.result import Result
from alfabeta.core.scores import INFINITY, MAX_PLY, WIN, is_proven, loss_in, win_in
from alfabeta.core.values import Limit, Outcome, SearchInfo, SearchResult
from alfabeta.core.vocabulary import Move, Score, Side

__all__ = [
    "INFINITY",
    "MAX_PLY",
    "WIN",
    "AlfabetaError",
    "DuplicateNameError",
    "EmptyStackError",
    "Evaluator",
    "FunctionEvaluator",
    "GameProtocolError",
    "IllegalMoveError",
    "IncompatibleEvaluatorError",
    "InvalidOptionError",
    "InvalidPositionError",
    "KnowledgeBaseError",
    "Limit",
    "Move",
    "Outcome",
    "PluginError",
    "Position",
    "PythonGame",
    "Result",
    "Score",
    "SearchInfo",
    "SearchResult",
    "Side",
    "SpecSyntaxError",
    "UnknownPluginError",
    "UnsupportedLimitError",
    "is_proven",
    "loss_in",
    "win_in",
]
