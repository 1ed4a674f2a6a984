"""Removal in words: a load, a store or a drive in a sentence, a reveal in the picker.

A tile loaded is named by the square of its tag (the sticker the camera reads, on the
first square of the shape's top row as the catalogue draws it): a square the tile always
covers. The action's ``row`` and ``col`` are the top-left corner of the turned shape's
bounding box, which an L-shaped tile may leave free; people are not sent there.
"""

from __future__ import annotations

from typing import Any, cast

from rules import Action, State
from rules.games.removal import RemovalState
from rules.games.removal.referee import tag_square
from station.games.words import actor, at, plain


def describe(state: State, action: Action) -> str:
    """"Ben loaded the piano at row 2, column 3" (its tag's square), "Ana stored the lamp",
    ... (``state`` before)."""
    who, kind = actor(state), action["type"]
    facts = cast(RemovalState, state).facts_of_tile(action.get("item", ""))
    item = action.get("item", "an item") if facts is None or facts.name is None else facts.name
    turned = (f", turned {int(action['rotation'])}°" if action.get("rotation") else "") + (
        ", flipped" if action.get("flip") else "")  # rotation in degrees, as the engine has it
    helpers = [str(card) for card in action.get("helpers") or []]
    helped = (f" with helper card{'s' if len(helpers) > 1 else ''} {' and '.join(helpers)}"
              if helpers else "")
    if kind == "load":
        return f"{who} loaded the {item} at {at(*tag_of(state, action))}{turned}{helped}"
    if kind == "store":
        return f"{who} put the {item} in storage{helped}"
    if kind == "load-stored":
        return f"{who} loaded the stored item at {at(*tag_of(state, action))}{turned}{helped}"
    if kind == "drive":
        return f"{who} drove the truck away{helped}"
    return f"{who}: {plain(action)}"


def tag_of(state: State, action: Action) -> tuple[int, int]:
    """The square of the tag of the tile a ``load`` or ``load-stored`` lays (the action's
    corner when the tile is not known)."""
    removal = cast(RemovalState, state)  # these words are Removal's record's
    item = action.get("item")
    if action["type"] == "load-stored":
        item = removal.player_view(removal.current_player() or 0).storage
    facts = removal.facts_of_tile(str(item)) if item is not None else None
    if facts is None:
        return int(action["row"]), int(action["col"])
    return tag_square(facts.shape, int(action["row"]), int(action["col"]),
                      int(action.get("rotation", 0)), bool(action.get("flip")))


def named_cells(state: State, action: Action) -> list[dict[str, Any]]:
    """The square a load's words name (its tag's), for the table page's flag mark."""
    if action.get("type") not in ("load", "load-stored"):
        return []
    row, col = tag_of(state, action)
    return [{"player": actor(state), "row": row, "col": col}]


def reveal_label(state: State, action: Action) -> str:
    """``house row 1, column 2: I07 (sofa)``, ``waiting 1: I33``, ``keepsake 1: yarn``
    (rows, columns and slots counted from 1; the item's name where the catalogue has one)."""
    zone = action.get("zone")
    if zone == "keepsakes":
        return f"keepsake {int(action['slot']) + 1}: {action['keepsake']}"
    item = str(action.get("item"))
    facts = cast(RemovalState, state).facts_of_tile(item)  # these words are Removal's record's
    shown = f"{item} ({facts.name})" if facts and facts.name else item
    if zone == "house":
        return f"house {at(action['row'], action['col'])}: {shown}"
    return f"waiting {int(action['slot']) + 1}: {shown}"
