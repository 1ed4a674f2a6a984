"""The games: state, legal actions, scoring. Pure: no I/O, no clock, no global randomness."""

from rules.engine import Action, Game, PlayerScore, State
from rules.errors import (
    AmbiguousReading,
    GameOver,
    IllegalAction,
    Reading,
    ReadMore,
    RulesError,
    UnknownGame,
)
from rules.registry import game_names, get_game, register

__all__ = [
    "Action",
    "AmbiguousReading",
    "Game",
    "GameOver",
    "IllegalAction",
    "PlayerScore",
    "ReadMore",
    "Reading",
    "RulesError",
    "State",
    "UnknownGame",
    "game_names",
    "get_game",
    "register",
]
