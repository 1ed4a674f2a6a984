"""Random playouts: the engine's own smoke test and the simulator behind ``packref simulate``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.engine import State
from rules.registry import get_game

MAX_ACTIONS = 100_000  # far beyond any real game; a loop guard, not a rule


def play_randomly(state: State, rng: random.Random) -> State:
    """Play ``state`` to its end with uniformly random legal actions; returns ``state``."""
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return state
        actions = state.legal_actions()
        if not actions:
            raise RuntimeError(f"{state!r} is not over but has no legal action")
        state.apply(rng.choice(actions))
    raise RuntimeError(f"{state.game.name} did not end within {MAX_ACTIONS} actions")


def random_game(
    game_name: str,
    players: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> State:
    """A whole random game of ``game_name``: setup and moves both drawn from ``seed``."""
    state = get_game(game_name).new_game(players, seed=seed, options=options)
    return play_randomly(state, random.Random(seed))
