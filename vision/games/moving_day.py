"""Moving Day: the boxes in each of a player's three vehicles (one tags mat per vehicle).

Example::

    >>> mats = [{"id": 2, "found": True, "cells": ["X", ".", ".", "."],
    ...          "tags": [{"id": 120, "row": 0, "col": 0, "rotation": 90}]}]
    >>> read_vehicles(mats, {"Ana": {"scooter": 2, "car": 3}}, {120: "box-07"})
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'player': 'Ana', 'vehicles': [{'vehicle': 'scooter', 'found': True,
      'boxes': [{'box': 'box-07', 'row': 0, 'col': 0, 'rotation': 90}],
      'unknown_tags': [], 'unknown_cells': 0},
      {'vehicle': 'car', 'found': False}]}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vision.games import TagPieces, mat_by_id, piece_of


def read_vehicle(mat: dict[str, Any], tag_pieces: TagPieces) -> dict[str, Any]:
    """The boxes on one vehicle mat, with the tags the mapping does not know."""
    boxes, unknown = [], []
    for tag in mat["tags"]:
        piece = piece_of(tag_pieces, tag["id"])
        if piece is None:
            unknown.append(tag["id"])
            continue
        boxes.append({"box": piece[0], "row": tag["row"], "col": tag["col"],
                      "rotation": tag["rotation"]})
    return {"boxes": boxes, "unknown_tags": unknown,
            "unknown_cells": sum(row.count("?") for row in mat["cells"])}


def read_vehicles(mats: list[dict[str, Any]], vehicles: Mapping[str, Mapping[str, int]],
                  tag_pieces: TagPieces) -> list[dict[str, Any]]:
    """Per player (in ``vehicles`` order), each vehicle's boxes; ``vehicles`` maps
    player → vehicle name → mat number."""
    found = mat_by_id(mats)
    players = []
    for player, named in vehicles.items():
        seen = []
        for name, mat_id in named.items():
            mat = found.get(mat_id)
            if mat is None:
                seen.append({"vehicle": name, "found": False})
            else:
                seen.append({"vehicle": name, "found": True, **read_vehicle(mat, tag_pieces)})
        players.append({"player": player, "vehicles": seen})
    return players
