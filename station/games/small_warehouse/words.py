"""Small Warehouse in words: a card placed in a sentence, a reveal in the picker."""

from __future__ import annotations

from rules import Action, State
from rules.games.small_warehouse.engine import placement_words
from station.games.words import actor, plain


def describe(state: State, action: Action) -> str:
    """"Ana placed card c20 from the supply at row 2, column 2, turned 90°" (the words of the
    referee's refusals too: :func:`~rules.games.small_warehouse.engine.placement_words`); from
    the hand, the supply card taken into the hand is named too."""
    who = actor(state)
    if action["type"] != "place":
        return f"{who}: {plain(action)}"
    refill = f", then took {action['refill']} from the supply into the hand" \
        if action.get("refill") else ""
    return f"{who} placed {placement_words(action)}{refill}"


def reveal_label(state: State, action: Action) -> str:
    """``supply: c07``, ``Ana's starting card: c07``, ``Ben's hand: c07``."""
    zone, card = action.get("zone"), action.get("card")
    card = "a card" if card is None else card  # a hand card as the table sees it
    if zone == "supply":
        return f"supply: {card}"
    player = state.players[action["player"]]
    return f"{player}'s {'starting card' if zone == 'warehouse' else zone}: {card}"
