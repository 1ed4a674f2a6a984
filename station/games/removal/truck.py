"""Removal's truck document (docs/formats.md §4): ``packref removal truck`` and ``placements``.

Every mistake in a document is an :class:`~station.errors.InputError` naming its
JSON path; a placement the rules refuse is not a mistake in the document but a
result (``"ok": false`` with a reason), as §4 asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.errors import IllegalAction
from rules.games.removal.truck import ROTATIONS, TileSpec, Truck
from station.jsonin import Node

HELPER_NUMBERS = (1, 2, 3)


@dataclass
class PlacementRequest:
    """One entry of ``placements``: which tile, where, how turned, with which helpers."""

    tile: str
    row: int
    col: int
    rotation: int = 0
    flip: bool = False
    helpers: list[int] = field(default_factory=list)


@dataclass
class TruckDocument:
    """A validated §4 document."""

    truck: list[str]
    tiles: dict[str, TileSpec]
    placements: list[PlacementRequest]
    drive: bool = False
    final: bool = False


def read_tile(name: str, node: Node) -> TileSpec:
    """A tile description: ``shape`` and the optional kinds of §4."""
    node.obj()
    shape = node["shape"].grid("#.", rectangular=False)
    if "#" not in "".join(shape):
        raise node["shape"].fail("must have at least one '#' square")
    delicate = None
    if not node.get("delicate").is_null():
        values = node["delicate"].items(min_length=2, max_length=2)
        delicate = (values[0].integer(), values[1].integer())
    symbol_node = node.get("symbol")
    symbol = None if symbol_node.is_null() else symbol_node.string(non_empty=True)
    flags = {key: node.get(key, False).boolean()
             for key in ("heavy", "upright", "antique", "box")}
    return TileSpec(name=name, shape=tuple(shape), delicate=delicate, symbol=symbol, **flags)


def read_helpers(node: Node) -> list[int]:
    """A list of distinct Helper card numbers (1, 2, 3)."""
    helpers = [item.choice(list(HELPER_NUMBERS)) for item in node.items(max_length=3)]
    for index, helper in enumerate(helpers):
        if helper in helpers[:index]:
            raise node.items()[index].fail(f"Helper {helper} is listed twice")
    return helpers


def read_placement(node: Node, tiles: dict[str, TileSpec]) -> PlacementRequest:
    tile = node["tile"].string()
    if tile not in tiles:
        raise node["tile"].fail(f"no tile called {tile!r} in $.tiles")
    return PlacementRequest(
        tile=tile, row=node["row"].integer(), col=node["col"].integer(),
        rotation=node.get("rotation", 0).choice(list(ROTATIONS)),
        flip=node.get("flip", False).boolean(),
        helpers=read_helpers(node.get("helpers", [])),
    )


def read_truck_document(document: Node) -> TruckDocument:
    """Validate a §4 document (structure, types and ranges)."""
    truck = document["truck"].grid(".-#")
    tiles = {name: read_tile(name, node) for name, node in document["tiles"].fields()}
    placements = [read_placement(node, tiles)
                  for node in document.get("placements", []).items()]
    return TruckDocument(truck, tiles, placements,
                         document.get("drive", False).boolean(),
                         document.get("final", False).boolean())


def load_truck(document: TruckDocument) -> tuple[Truck, list[dict[str, Any]]]:
    """Apply the placements in order; illegal ones are reported and skipped."""
    truck = Truck(document.truck)
    played: set[int] = set()
    extra_turn = False
    results: list[dict[str, Any]] = []
    for request in document.placements:
        try:
            for helper in request.helpers:
                if helper in played:
                    raise IllegalAction(f"Helper {helper} has already been played")
            outcome = truck.place(document.tiles[request.tile], request.row, request.col,
                                  request.rotation, request.flip, request.helpers, extra_turn)
        except IllegalAction as refused:
            results.append({"tile": request.tile, "ok": False, "reason": refused.reason})
            continue
        played.update(request.helpers)
        extra_turn = outcome.extra_action
        results.append({"tile": request.tile, "ok": True, "damaged": outcome.damaged,
                        "extra_action": outcome.extra_action})
    return truck, results


def truck_document(document: Node) -> dict[str, Any]:
    """The output of ``packref removal truck`` for a §4 document."""
    parsed = read_truck_document(document)
    truck, results = load_truck(parsed)
    output: dict[str, Any] = {"placements": results, "visible_minus": truck.visible_minus()}
    if parsed.drive:
        output["drive"] = truck.drive_score(final=parsed.final).to_json()
    return output


def placements_document(document: Node) -> dict[str, Any]:
    """The output of ``packref removal placements``: every legal placement of ``tile``."""
    parsed = read_truck_document(document)
    name = document["tile"].string()
    if name not in parsed.tiles:
        raise document["tile"].fail(f"no tile called {name!r} in $.tiles")
    helpers = read_helpers(document.get("helpers", []))
    truck, _ = load_truck(parsed)
    found = truck.legal_placements(parsed.tiles[name], helpers)
    return {"tile": name, "count": len(found),
            "placements": [placement.to_json() for placement in found]}
