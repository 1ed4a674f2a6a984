"""Who chooses the next action: ``random``, ``greedy`` or ``advisor`` (the ``--policies`` of
``packref simulate``). A policy is asked only when a player is to act (no reveal pending).

Example::

    >>> import random
    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=3)
    >>> action = make_policy("greedy", state.game.name).choose(state, random.Random(1))
    >>> state.apply(action)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from rules.advice.config import MAX_STEPS
from rules.advice.greedy import GreedyPolicy
from rules.advice.lookahead import AdvisorPolicy
from rules.advice.tuning import evaluator_for
from rules.engine import Action, State
from rules.playout import random_reveal

POLICY_NAMES = ("random", "greedy", "advisor")


class Policy(Protocol):
    def choose(self, state: State, rng: random.Random) -> Action:
        """The action to take in ``state`` (a player is to act)."""


class UnknownPolicy(ValueError):
    """A policy name that is none of :data:`POLICY_NAMES`."""


class RandomPolicy:
    """Any legal action, uniformly."""

    def choose(self, state: State, rng: random.Random) -> Action:
        return dict(rng.choice(state.legal_actions()))


def make_policy(name: str, game_name: str,
                stop_factory: Callable[[], Callable[[], bool]] | None = None) -> Policy:
    """The policy called ``name`` for ``game_name``; the advisor's search ends when the
    callback made by ``stop_factory`` (one per decision) says so, else after its default
    number of playouts."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        return GreedyPolicy(evaluator_for(game_name))
    if name == "advisor":
        return AdvisorPolicy(game_name, stop_factory)
    raise UnknownPolicy(f"no policy {name!r} (one of: {', '.join(POLICY_NAMES)})")


def play_with_policies(state: State, policies: Sequence[Policy], rng: random.Random) -> State:
    """Play ``state`` to its end, each player's actions chosen by their seat's policy and
    each pending draw revealed at random (as :func:`rules.playout.random_reveal`); returns
    ``state``. With every seat ``random`` this is :func:`rules.playout.play_randomly` of a
    seeded game, draw for draw."""
    for _ in range(MAX_STEPS):
        if state.is_over():
            return state
        if state.is_chance():
            state.apply(random_reveal(state, rng))
        else:
            state.apply(policies[state.current_player()].choose(state, rng))
    raise RuntimeError(f"{state.game.name} did not end within {MAX_STEPS} actions")
