"""Small Warehouse: each player's warehouse grid from that player's colour mat.

The grid uses the scoring input's alphabet (docs/contracts.md §1): ``.`` no card,
``#`` an empty box, ``A``–``E`` merchandise; ``?`` where the camera could not
tell, and ``complete`` says whether the grid has none.

Example::

    >>> mats = [{"id": 0, "found": True, "cells": ["AB", "?#"], "tags": []}]
    >>> ana, ben = read_warehouses(mats, {"Ana": 0, "Ben": 1})
    >>> ana
    {'player': 'Ana', 'found': True, 'grid': ['AB', '?#'], 'complete': False}
    >>> ben
    {'player': 'Ben', 'found': False}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vision.games import mat_by_id


def read_warehouses(mats: list[dict[str, Any]], players: Mapping[str, int]) -> list[dict[str, Any]]:
    """Each player's warehouse (``players`` maps a name to its mat number), in ``players`` order."""
    found = mat_by_id(mats)
    warehouses = []
    for player, mat_id in players.items():
        mat = found.get(mat_id)
        if mat is None:
            warehouses.append({"player": player, "found": False})
            continue
        grid = list(mat["cells"])
        warehouses.append({"player": player, "found": True, "grid": grid,
                           "complete": not any("?" in row for row in grid)})
    return warehouses
