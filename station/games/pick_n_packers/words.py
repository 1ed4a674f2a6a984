"""Pick 'n Packers in words: a bet, a load or a landing in a sentence, a reveal in the picker."""

from __future__ import annotations

from rules import Action, State
from station.games.words import actor, at, plain


def describe(state: State, action: Action) -> str:
    """"Ana bet on shop card 3", "The drone landed on shop card 2", ... (``state`` before)."""
    kind = action["type"]
    if kind == "speculate":
        if action.get("card") is None:  # laid face down: the table cannot see which
            return f"{actor(state)} laid a speculation card face down"
        return f"{actor(state)} bet on shop card {action.get('card')}"
    said = {"load": "The drone picked up a present", "fall": "A present fell",
            "touch": "The drone touched something it must not (a foul)"}
    if kind == "land":
        return f"The drone landed on shop card {action.get('card')}"
    return said.get(kind) or f"{actor(state)}: {plain(action)}"


def reveal_label(state: State, action: Action) -> str:
    """``shop row 1, column 3: shop-4`` (counted from 1), ``present under card 3: wood-2``."""
    if action.get("zone") == "present":
        return f"present under card {action['shop']}: {action['present']}"
    return f"shop {at(action['row'], action['col'])}: {action['card']}"
