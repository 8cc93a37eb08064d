"""Playing games between players: one game (``play_game``), matches and tournaments with Elo,
LOS and SPRT (``Match``, ``Tournament``), SPSA tuning by games (``Tuning``), their records, and
the executors that run them."""

from alfabeta.arena.adjudication import Adjudication, DrawRule, ResignRule
from alfabeta.arena.clock import TimeControl
from alfabeta.arena.engine import EngineFailure, UciPlayer
from alfabeta.arena.executors import ArenaError
from alfabeta.arena.jobs import GameJob, GameResult, play_job
from alfabeta.arena.match import Match, MatchResult, Tournament, TournamentResult
from alfabeta.arena.openings import Opening, OpeningError
from alfabeta.arena.play import (
    GameAbandoned,
    GameRecord,
    HumanPlayer,
    SearchPlayer,
    play_game,
)
from alfabeta.arena.players import Player
from alfabeta.arena.rating import SPRT, WDL, EloEstimate, Pentanomial
from alfabeta.arena.records import RecordsError, ResultsDB
from alfabeta.arena.runner import RunInterrupted
from alfabeta.arena.spsa import Parameter, Tuning, TuningResult

__all__ = [
    "SPRT",
    "WDL",
    "Adjudication",
    "ArenaError",
    "DrawRule",
    "EloEstimate",
    "EngineFailure",
    "GameAbandoned",
    "GameJob",
    "GameRecord",
    "GameResult",
    "HumanPlayer",
    "Match",
    "MatchResult",
    "Opening",
    "OpeningError",
    "Parameter",
    "Pentanomial",
    "Player",
    "RecordsError",
    "ResignRule",
    "ResultsDB",
    "RunInterrupted",
    "SearchPlayer",
    "TimeControl",
    "Tournament",
    "TournamentResult",
    "Tuning",
    "TuningResult",
    "UciPlayer",
    "play_game",
    "play_job",
]
