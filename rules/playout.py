"""Random playouts: the engine's own smoke test and the simulator behind ``packref simulate``."""

from __future__ import annotations

import random

from rules.engine import Action, State

MAX_ACTIONS = 100_000  # far beyond any real game; a loop guard, not a rule


def random_reveal(state: State, rng: random.Random) -> Action | None:
    """A reveal drawn from ``state``'s chance outcomes, weighted by their counts (None if none).

    What a simulation of a table dealt by hand does in place of the table: ``rng`` is the
    caller's own, never the engine's seed.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        return None
    return rng.choices([o.action for o in outcomes], [o.count for o in outcomes])[0]


def random_step(state: State, rng: random.Random, reveal_chance: float = 0.5) -> Action:
    """The next step of a random playout: a reveal when one is due (or, with probability
    ``reveal_chance``, one that could be entered now), else a uniformly random legal action."""
    if state.is_chance() or (state.deal == "table" and rng.random() < reveal_chance):
        reveal = random_reveal(state, rng)
        if reveal is not None:
            return reveal
    actions = state.legal_actions()
    if not actions:
        raise RuntimeError(f"{state!r} is not over but has no legal action")
    return rng.choice(actions)


def play_randomly(state: State, rng: random.Random) -> State:
    """Play ``state`` to its end with uniformly random legal actions; returns ``state``.

    A game dealt by hand has its draws revealed at random too (see :func:`random_step`).
    """
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            return state
        state.apply(random_step(state, rng))
    raise RuntimeError(f"{state.game.name} did not end within {MAX_ACTIONS} actions")
