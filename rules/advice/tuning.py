"""A game's advice tuning and evaluator, looked up by the game's name.

Apart from :mod:`rules.advice.heuristics` because it asks the registry: the games' own
evaluators build on the heuristics, and the games never import the registry.
"""

from __future__ import annotations

from rules.advice.heuristics import Evaluator
from rules.engine import AdviceTuning, PositionEvaluator
from rules.errors import UnknownGame
from rules.registry import get_game


def tuning_for(game_name: str) -> AdviceTuning:
    """The advice tuning of a game (the defaults for a name the registry does not know)."""
    try:
        return get_game(game_name).advice_tuning
    except UnknownGame:
        return AdviceTuning()


def evaluator_for(game_name: str) -> PositionEvaluator:
    """The evaluator of a game (the plain scores unless it has its own)."""
    return tuning_for(game_name).evaluator or Evaluator()
