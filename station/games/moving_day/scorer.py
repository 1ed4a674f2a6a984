"""``packref score moving-day FILE``: the input of docs/formats.md §2, checked and scored.

Every value is checked at its JSON path (bad input is one line and exit status
2); the scoring itself is :func:`rules.games.moving_day.score_load`, the same
function the engine uses.
"""

from __future__ import annotations

from typing import Any

from rules.games.moving_day import (
    NO_SPACE,
    SPACE,
    LoadedBox,
    LoadedVehicle,
    LoadScore,
    SeatedHelper,
    score_load,
    winners_of,
)
from rules.words import at
from station.jsonin import Node


def score_document(document: Node) -> dict[str, Any]:
    """The score output of §2 for a checked input document."""
    results: list[tuple[str, LoadScore]] = []
    for name, node in document["players"].players():
        snacks = node["snacks"].integer(0)
        results.append((name, score_load(read_vehicles(node["vehicles"]), snacks)))
    return {"players": [_player_output(name, score) for name, score in results],
            "winners": winners_of(results)}


def _player_output(name: str, score: LoadScore) -> dict[str, Any]:
    return {
        "player": name,
        "total": score.total,
        "points": score.parts(),
        "damaged": [{"vehicle": box.vehicle, "row": box.row, "col": box.col, "why": box.why}
                    for box in score.damaged],
    }


def read_vehicles(node: Node) -> list[LoadedVehicle]:
    """One player's vehicles; vehicle names must differ."""
    vehicles: list[LoadedVehicle] = []
    for vehicle_node in node.items():
        vehicle = read_vehicle(vehicle_node)
        if any(other.name == vehicle.name for other in vehicles):
            raise vehicle_node["name"].fail(f"this player has two vehicles called {vehicle.name!r}")
        vehicles.append(vehicle)
    return vehicles


def read_vehicle(node: Node) -> LoadedVehicle:
    """A vehicle: its layout, seats, boxes on distinct spaces, and helpers within its seats."""
    name = node["name"].string(non_empty=True)
    layout = node["layout"].grid(SPACE + NO_SPACE)
    seats = node["seats"].integer(0)
    boxes = _read_boxes(node["boxes"], layout)
    helpers = tuple(_read_helper(helper) for helper in node["helpers"].items())
    seated = sum(helper.count for helper in helpers)
    if seated > seats:
        raise node["helpers"].fail(f"{seated} helpers seated, but the {name} has {seats} seats")
    return LoadedVehicle(name, tuple(layout), seats, boxes, helpers)


def _read_boxes(node: Node, layout: list[str]) -> tuple[LoadedBox, ...]:
    holder: dict[tuple[int, int], int] = {}
    boxes = []
    for index, box_node in enumerate(node.items()):
        box = _read_box(box_node, layout)
        cell = (box.row, box.col)
        if cell in holder:
            raise box_node.fail(f"{_cell(box.row, box.col)} already holds "
                                f"{node.path}[{holder[cell]}]")
        holder[cell] = index
        boxes.append(box)
    return tuple(boxes)


def _read_box(node: Node, layout: list[str]) -> LoadedBox:
    row = node["row"].integer(0, len(layout) - 1)
    col = node["col"].integer(0, len(layout[0]) - 1)
    if layout[row][col] != SPACE:
        raise node.fail(f"{_cell(row, col)} is not a box space (the layout has {NO_SPACE!r})")
    return LoadedBox(
        row=row,
        col=col,
        type=node["type"].string(),
        colour=node["colour"].string(),
        fragile=node["fragile"].boolean(),
        weight=node["weight"].integer(1, 7),
        points=node["points"].integer(1, 3),
    )


def _cell(row: int, col: int) -> str:
    """A box's space as people count it, with the document's own ``row`` and ``col``.

    >>> _cell(2, 0)
    'row 3, column 1 ("row": 2, "col": 0)'
    """
    return f'{at(row, col)} ("row": {row}, "col": {col})'


def _read_helper(node: Node) -> SeatedHelper:
    return SeatedHelper(
        count=node["count"].integer(1, 3),
        clumsy=node["clumsy"].boolean(),
        strength=node["strength"].integer(1, 4),
    )
