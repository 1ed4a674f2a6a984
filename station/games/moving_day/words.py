"""Moving Day in words: a take in a sentence, a reveal in the picker."""

from __future__ import annotations

from typing import cast

from rules import Action, State
from rules.games.moving_day import MovingDayState
from rules.words import numbered
from station.games.words import actor, at, plain


def describe(state: State, action: Action) -> str:
    """"Ana took group 1: a red books box (weight 6) into the car at row 2, column 1"."""
    who = actor(state)
    if action["type"] != "take":
        return f"{who}: {plain(action)}"
    moving_day = cast(MovingDayState, state)  # these words are Moving Day's record's
    placed = []
    for box in action.get("boxes", []):
        facts = moving_day.facts_of_box(box["box"])  # None: a box the copy does not have
        colour, kind = (facts.colour, facts.type) if facts else ("", "box")
        what = f"a {colour} {kind} box".replace("  ", " ")
        weight = f" (weight {facts.weight}{', fragile' if facts.fragile else ''})" \
            if facts else ""
        placed.append(f"{what}{weight} into the {box['vehicle']} at {at(box['row'], box['col'])}")
    helper = f"; the helper rides in the {action['helper_vehicle']}" \
        if action.get("helper_vehicle") else ""
    return f"{who} took {numbered('group', action['group'])}: " + (
        "; ".join(placed) or "nothing loaded") + helper


def reveal_label(state: State, action: Action) -> str:
    """``group 3 box: box-07``, ``group 3 helper: helper-13`` (groups counted from 1)."""
    group = numbered("group", action["group"])
    if "box" in action:
        return f"{group} box: {action['box']}"
    if "helper" in action and "boxes" not in action:
        return f"{group} helper: {action['helper']}"
    return f"{group}: {', '.join(action.get('boxes', []))} + {action.get('helper')}"
