"""``packref advise small-warehouse FILE`` (docs/formats.md §8): ``{"grid": [rows], "card":
[rows]}``, the card in hand, and where it may go."""

from __future__ import annotations

from typing import Any

from rules.games.small_warehouse import NO_CARD
from rules.games.small_warehouse.advice import rank_warehouse_placements
from station.games.small_warehouse.scorer import GRID_SYMBOLS
from station.jsonin import Node


def small_warehouse_document(document: Node) -> dict[str, Any]:
    """Every legal placement of ``card`` in ``grid``, best first."""
    grid = document["grid"].grid(GRID_SYMBOLS)
    card_node = document["card"]
    card = card_node.grid(GRID_SYMBOLS)
    if all(square == NO_CARD for row in card for square in row):
        raise card_node.fail("must have at least one square (not only '.' cut-outs)")
    ranked = rank_warehouse_placements(grid, card)
    return {"placements": [placement.to_json() for placement in ranked]}
