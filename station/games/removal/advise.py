"""``packref advise removal FILE`` (docs/formats.md §8): a §4 truck document plus ``"tile"``,
the tile in hand, and where it may go."""

from __future__ import annotations

from typing import Any

from rules.games.removal.advice import rank_truck_placements
from station.games.removal.truck import load_truck, read_truck_document
from station.jsonin import Node


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
