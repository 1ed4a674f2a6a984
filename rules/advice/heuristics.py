"""How good a position looks for a player, and each action for the player who takes it.

The default reads the game's own scores; a game may have a faster or a wiser one, its
:class:`~rules.engine.AdviceTuning`'s ``evaluator`` (``Game.advice_tuning``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.advice.knowledge import fresh_copy
from rules.engine import Action, State


class Evaluator:
    """The score a player has now; an action is worth the actor's value right after it."""

    def value(self, state: State, player: int) -> float:
        return state.scores()[player].total

    def values_after(self, state: State, actions: Sequence[Action]) -> list[float]:
        player = state.current_player()
        values = []
        for action in actions:
            after = fresh_copy(state)
            after.apply(dict(action))
            values.append(self.value(after, player))
        return values
