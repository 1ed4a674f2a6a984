"""Removal in words: a load, a store or a drive in a sentence, a reveal in the picker."""

from __future__ import annotations

from typing import cast

from rules import Action, State
from rules.games.removal import RemovalState
from station.games.words import actor, at, plain


def describe(state: State, action: Action) -> str:
    """"Ben loaded the piano at row 2, column 3", "Ana stored the lamp", ... (``state`` before)."""
    who, kind = actor(state), action["type"]
    facts = cast(RemovalState, state).facts_of_tile(action.get("item", ""))
    item = action.get("item", "an item") if facts is None or facts.name is None else facts.name
    turned = (f", turned {int(action['rotation'])}°" if action.get("rotation") else "") + (
        ", flipped" if action.get("flip") else "")  # rotation in degrees, as the engine has it
    helpers = [str(card) for card in action.get("helpers") or []]
    helped = (f" with helper card{'s' if len(helpers) > 1 else ''} {' and '.join(helpers)}"
              if helpers else "")
    if kind == "load":
        return f"{who} loaded the {item} at {at(action['row'], action['col'])}{turned}{helped}"
    if kind == "store":
        return f"{who} put the {item} in storage{helped}"
    if kind == "load-stored":
        return f"{who} loaded the stored item at {at(action['row'], action['col'])}{turned}{helped}"
    if kind == "drive":
        return f"{who} drove the truck away{helped}"
    return f"{who}: {plain(action)}"


def reveal_label(state: State, action: Action) -> str:
    """``house row 1, col 2: I07 (sofa)``, ``waiting 1: I33``, ``keepsake 1: yarn``
    (rows, columns and slots counted from 1; the item's name where the catalogue has one)."""
    zone = action.get("zone")
    if zone == "keepsakes":
        return f"keepsake {int(action['slot']) + 1}: {action['keepsake']}"
    item = str(action.get("item"))
    facts = cast(RemovalState, state).facts_of_tile(item)  # these words are Removal's record's
    shown = f"{item} ({facts.name})" if facts and facts.name else item
    if zone == "house":
        return f"house row {int(action['row']) + 1}, col {int(action['col']) + 1}: {shown}"
    return f"waiting {int(action['slot']) + 1}: {shown}"
