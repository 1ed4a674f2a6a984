"""What the acting player may know, and dealing the rest at random.

The advisor never reads a seed: it works on an *information set*, a copy of the game as
the table sees it (:meth:`~rules.engine.State.public_view`) plus the acting player's own
hidden components, turned into a game dealt by hand (``deal="table"``) so that every
draw is a reveal the advisor makes itself from the components not yet seen.

A hidden part of the position is known to one player when it is a list with one entry
per player (a hand): entry ``player`` is that player's own.
"""

from __future__ import annotations

import random

from rules.advice.config import MAX_REVEALS
from rules.engine import State, json_copy
from rules.playout import random_reveal


def has_chance_api(state: State) -> bool:
    """True when the game reveals its draws through chance outcomes (it can be re-dealt)."""
    return type(state).chance_outcomes is not State.chance_outcomes


def information_set(state: State, player: int | None) -> State:
    """A game dealt by hand holding what ``player`` may know of ``state`` and no more.

    A game without chance outcomes cannot be re-dealt: it is copied as it is (its playouts
    follow its own draw order) — :func:`has_chance_api` tells which.
    """
    if not has_chance_api(state):
        return state.clone()
    view = state.public_view()
    for key, value in state.data.items():
        hidden = view.get(key)
        if hidden == value:
            continue
        if (player is not None and isinstance(value, list) and isinstance(hidden, list)
                and len(value) == len(hidden) == len(state.players)):
            hidden[player] = json_copy(value[player])
        elif isinstance(value, dict) and isinstance(hidden, dict):
            # Choices laid face down (Pick 'n Packers' speculation cards) are no draw the
            # advisor could deal again: it reads them (docs/advisor.md, "Limits").
            view[key] = json_copy(value)
    document = state.to_json()
    document["setup"]["deal"] = "table"
    document["state"] = view
    document["log"] = []
    known = state.game.from_json(document)
    known.deal = "table"
    return known


def fresh_copy(state: State) -> State:
    """A copy of ``state``'s position for a playout (its log left behind, its setup shared:
    twice as fast as :meth:`~rules.engine.State.clone`, which copies both)."""
    return type(state)(state.game, list(state.players), dict(state.options), state.setup,
                       restore=state.data)


def reveal_pending(state: State, rng: random.Random) -> None:
    """Reveal every draw still unknown, each a component not yet seen drawn with ``rng``."""
    for _ in range(MAX_REVEALS):
        reveal = None if state.is_over() else random_reveal(state, rng)
        if reveal is None:
            return
        state.apply(reveal)
    raise RuntimeError(f"{state!r} kept asking for reveals")
