"""Playing games between players: searchers, humans, and (later) external engines."""

from alfabeta.arena.play import (
    GameAbandoned,
    GameRecord,
    HumanPlayer,
    SearchPlayer,
    play_game,
)

__all__ = ["GameAbandoned", "GameRecord", "HumanPlayer", "SearchPlayer", "play_game"]
