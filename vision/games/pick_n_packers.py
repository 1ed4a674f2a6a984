"""Pick 'n Packers: the 3 × 3 shop-card layout, and which card the drone is over.

The drone's own tag hides the tag of the card it stands on; give the previous
layout and that card is taken from it.

Example::

    >>> mat = {"id": 6, "found": True, "cells": ["XXX", "XXX", "XXX"],
    ...        "tags": [{"id": 180, "row": 0, "col": 0, "rotation": 0},
    ...                 {"id": 200, "row": 1, "col": 1, "rotation": 0}]}
    >>> pieces = {180: "shop-0", 184: "shop-4", 200: "drone"}
    >>> shop = read_shop(mat, pieces, previous=[[None] * 3, [None, "shop-4", None], [None] * 3])
    >>> shop["cards"][0][0], shop["drone"]
    ('shop-0', {'row': 1, 'col': 1, 'card': 'shop-4'})
"""

from __future__ import annotations

from typing import Any

from vision.games import TagPieces, piece_of

DRONE = "drone"


def read_shop(mat: dict[str, Any], tag_pieces: TagPieces, drone: str = DRONE,
              previous: list[list[str | None]] | None = None) -> dict[str, Any]:
    """The shop grid (``cards[row][col]``: card id or None) and the drone's cell and card."""
    if not mat.get("found"):
        return {"found": False}
    rows, cols = len(mat["cells"]), len(mat["cells"][0])
    cards: list[list[str | None]] = [[None] * cols for _ in range(rows)]
    seen_drone, unknown = None, []
    for tag in mat["tags"]:
        piece = piece_of(tag_pieces, tag["id"])
        if piece is None:
            unknown.append(tag["id"])
        elif piece[0] == drone:
            seen_drone = {"row": tag["row"], "col": tag["col"]}
        else:
            cards[tag["row"]][tag["col"]] = piece[0]
    if seen_drone is not None:
        under = None
        if previous is not None:
            under = previous[seen_drone["row"]][seen_drone["col"]]
        seen_drone["card"] = under
        if under is not None:
            cards[seen_drone["row"]][seen_drone["col"]] = under
    return {"found": True, "cards": cards, "drone": seen_drone, "unknown_tags": unknown}
