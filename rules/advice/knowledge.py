"""What the acting player may know, and dealing the rest at random.

The advisor never reads a seed: it works on an *information set*, a copy of the game as
the table sees it (:meth:`~rules.engine.State.public_view`) plus the acting player's own
hidden components, turned into a game dealt by hand (``deal="table"``) so that every
draw is a reveal the advisor makes itself from the components not yet seen.

A hidden part of the position is known to one player when it is a list with one entry
per player (a hand: entry ``player`` is that player's own) or a mapping keyed by player
names (the player's own entry). Anything else hidden stays as the table sees it: choices
laid face down (Pick 'n Packers' speculation cards) and secret properties (a Removal box's
value: the setup holds the copy's values in a fixed order, :func:`rules.public.public_setup`)
are guessed afresh for every playout (:func:`deal_face_down`, the game's own guess), never
read.

:func:`public_document` goes one step further for a process that must not even hold the
hidden components: the game as the whole table sees it, with a setup that holds no order.
"""

from __future__ import annotations

import random
from typing import Any

from rules.advice.config import MAX_REVEALS
from rules.engine import State, json_copy
from rules.playout import random_reveal
from rules.public import public_setup


def has_chance_api(state: State) -> bool:
    """True when the game reveals its draws through chance outcomes (it can be re-dealt)."""
    return type(state).chance_outcomes is not State.chance_outcomes


def information_set(state: State, player: int | None) -> State:
    """A game dealt by hand holding what ``player`` may know of ``state`` and no more
    (``player`` None: what the whole table sees).

    A game without chance outcomes cannot be re-dealt: it is copied as it is (its playouts
    follow its own draw order) — :func:`has_chance_api` tells which.
    """
    if not has_chance_api(state):
        return state.clone()
    view = state.public_view()
    for key, value in state.data.items():
        hidden = view.get(key)
        if hidden == value or player is None:
            continue
        if (isinstance(value, list) and isinstance(hidden, list)
                and len(value) == len(hidden) == len(state.players)):
            hidden[player] = json_copy(value[player])
        elif isinstance(value, dict) and isinstance(hidden, dict):
            own = state.players[player]
            if own in value:
                hidden[own] = json_copy(value[own])
    document = state.to_json()
    document["setup"] = public_setup(state, canonical=True)
    document["state"] = view
    document["log"] = []
    known = state.game.from_json(document)
    known.deal = "table"
    return known


def public_document(state: State) -> dict[str, Any]:
    """``state`` as the whole table sees it, as a JSON game document: dealt by hand, the
    position's :meth:`~rules.engine.State.public_view`, no log, and the setup of a game dealt
    by hand (:func:`rules.public.public_setup`: the copy's components, no seeded order, each
    secret property dealt in a fixed order that depends only on the copy's values).

    Hand it to a process that must not hold what nobody at the table has seen; a game
    without chance outcomes is sent whole (it could not be re-dealt).

    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=5)
    >>> document = public_document(state)
    >>> document["setup"]["deal"], "draw_pile" in document["setup"], document["state"]["hands"]
    ('table', False, [[None], [None]])
    """
    document = state.to_json()
    if not has_chance_api(state):
        return document
    return document | {"setup": public_setup(state, canonical=True), "log": [],
                       "state": state.public_view()}


def deal_face_down(state: State, rng: random.Random) -> None:
    """Guess every choice still face down in ``state`` with ``rng`` (in place), as the game's
    :class:`~rules.engine.AdviceTuning` says (``guess_face_down``)."""
    guess = state.game.advice_tuning.guess_face_down
    if guess is not None:
        guess(state, rng)


def fresh_copy(state: State) -> State:
    """A copy of ``state``'s position for a playout (its log left behind, its setup and what
    the game built from it shared: :meth:`~rules.engine.State.position_copy`)."""
    return state.position_copy()


def reveal_pending(state: State, rng: random.Random) -> None:
    """Reveal every draw still unknown, each a component not yet seen drawn with ``rng``."""
    for _ in range(MAX_REVEALS):
        reveal = None if state.is_over() else random_reveal(state, rng)
        if reveal is None:
            return
        state.apply(reveal)
    raise RuntimeError(f"{state!r} kept asking for reveals")
