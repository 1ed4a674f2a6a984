"""``packref advise``'s JSON inputs (contracts.md §8): the piece in hand and where it may go.

Small Warehouse: ``{"grid": [rows], "card": [rows]}``; Removal: a §4 truck document plus
``"tile"``. Each is validated with the same readers as ``packref score`` and ``packref
removal`` (every mistake names its JSON path) and answered with the ranked placements.
"""

from __future__ import annotations

from typing import Any

from rules.advice.placements import rank_truck_placements, rank_warehouse_placements
from rules.games.small_warehouse import NO_CARD
from station.inputs.removal import load_truck, read_truck_document
from station.inputs.small_warehouse import GRID_SYMBOLS
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


def removal_document(document: Node) -> dict[str, Any]:
    """Every legal placement of ``tile`` (no helpers) in the truck, best first.

    The document's ``placements`` are loaded first as ``packref removal truck`` does (an
    illegal one is skipped, as §4 says); its ``drive`` and ``final`` play no part.
    """
    parsed = read_truck_document(document)
    name = document["tile"].string()
    if name not in parsed.tiles:
        raise document["tile"].fail(f"no tile called {name!r} in $.tiles")
    truck, _ = load_truck(parsed)
    ranked = rank_truck_placements(truck, parsed.tiles[name])
    return {"placements": [placement.to_json() for placement in ranked]}
