"""Whole random games by name: the simulator behind ``packref simulate`` and the benchmarks.

Apart from :mod:`rules.playout` because it asks the registry, which the games' own
helpers (built on playouts) must never import.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.engine import State
from rules.playout import play_randomly
from rules.registry import get_game


def random_game(
    game_name: str,
    players: Sequence[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> State:
    """A whole random game of ``game_name``: setup and moves both drawn from ``seed``."""
    state = get_game(game_name).new_game(players, seed=seed, options=options)
    return play_randomly(state, random.Random(seed))
