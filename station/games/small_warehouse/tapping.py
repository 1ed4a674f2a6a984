"""Small Warehouse by the board: a card (pictures of the supply's, the hand's, or the cards
not seen yet), then the square of its top-left corner in the warehouse, then its turn, then
(from the hand) the supply card taken into the hand; its reveals drawn as the cards."""

from __future__ import annotations

from typing import Any, cast

from rules import Action, State
from rules.games.small_warehouse import SmallWarehouseState
from rules.games.small_warehouse.grid import rotate_clockwise
from station.games.small_warehouse.presenter import card_words, drawn
from station.games.tapping import footprint, turn_words
from station.games.words import at


def tapping(state: State, action: Action) -> dict[str, Any] | None:
    """A ``place`` as its taps (:mod:`station.games.tapping`); the place is the square
    that the turned card's top-left corner covers (every card is a full rectangle)."""
    if action.get("type") != "place" or action.get("card") is None:
        return None
    warehouse = cast(SmallWarehouseState, state)  # these taps are Small Warehouse's record's
    card, rotation = str(action["card"]), int(action.get("rotation", 0))
    squares = warehouse.setup["cards"][card]
    turned = rotate_clockwise(squares, rotation)
    row, col = int(action["row"]), int(action["col"])
    board = f"{state.players[warehouse.current_player() or 0]}'s warehouse"
    cells = [(r, c) for r, line in enumerate(turned) for c, char in enumerate(line) if char != "."]
    return {
        "piece": {"key": f"{action['source']}:{card}", "picture": drawn(squares),
                  "words": _card_said(warehouse, str(action["source"]), card, squares)},
        "place": {"key": f"{board}:{row}:{col}", "words": f"its top-left square at {at(row, col)}",
                  "ask": "Tap the square for the card's top-left corner",
                  "board": board, "at": [row, col], "cells": footprint(cells, row, col)},
        "turn": {"key": f"{card}:{rotation}", "words": turn_words(rotation),
                 "picture": drawn(turned)},
        "then": _refill(warehouse, action) if action.get("source") == "hand" else None,
    }


def _card_said(warehouse: SmallWarehouseState, source: str, card: str,
               squares: list[str]) -> str:
    """"supply card 2 (A, A, C, D, D and C)", "the card in the hand (…)", "a card not seen
    yet, from the supply or the hand (…)": where it lies and what it holds, never its id."""
    holds = card_words(squares)
    if source == "supply" and card in warehouse.supply_cards():
        return f"supply card {warehouse.supply_cards().index(card) + 1} ({holds})"
    if source == "hand" and card in warehouse.data["hands"][warehouse.current_player() or 0]:
        return f"the card in the hand ({holds})"
    where = {"hand": "from the hand", "supply": "from the supply"}.get(
        source, "from the supply or the hand")
    return f"a card not seen yet, {where} ({holds})"


def _refill(warehouse: SmallWarehouseState, action: Action) -> dict[str, Any]:
    """The supply card a card from the hand brings into the hand (None: one not seen)."""
    refill = action.get("refill")
    if refill is None:
        return {"key": "unseen", "words": "then a supply card not seen yet into the hand"}
    squares = warehouse.setup["cards"][refill]
    number = warehouse.supply_cards().index(refill) + 1
    return {"key": str(refill), "picture": drawn(squares),
            "words": f"then supply card {number} ({card_words(squares)}) into the hand"}


def reveal_picture(state: State, action: Action) -> dict[str, Any]:
    """A card revealed, drawn from the catalogue with its squares in words."""
    warehouse = cast(SmallWarehouseState, state)
    card = action.get("card")
    if card is None:
        return {"words": "a card"}
    squares = warehouse.setup["cards"][card]
    return {"picture": drawn(squares), "words": f"the card with {card_words(squares)}"}
