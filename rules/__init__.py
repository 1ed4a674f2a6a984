"""The games: state, legal actions, scoring. Pure: no I/O, no clock, no global randomness."""

from rules.engine import Action, Game, PlayerScore, State
from rules.errors import GameOver, IllegalAction, RulesError, UnknownGame
from rules.registry import game_names, get_game, register

__all__ = [
    "Action",
    "Game",
    "GameOver",
    "IllegalAction",
    "PlayerScore",
    "RulesError",
    "State",
    "UnknownGame",
    "game_names",
    "get_game",
    "register",
]
