"""``packref score small-warehouse FILE``: score finished warehouses (docs/formats.md §1).

Input: ``{"warehouses": [{"player": "Ana", "grid": ["AAB.", "#AB.", "CCCC"]}, ...]}``;
grids of any size, rows of equal length over ``.`` (no card), ``#`` (an empty box)
and ``A``–``Z`` (merchandise).
"""

from __future__ import annotations

from typing import Any

from rules.games.small_warehouse import (
    EMPTY_BOX,
    MERCHANDISE,
    NO_CARD,
    WarehouseScore,
    score_warehouse,
    warehouse_winners,
)
from station.jsonin import Node

GRID_SYMBOLS = NO_CARD + EMPTY_BOX + MERCHANDISE


def score_document(node: Node) -> dict[str, Any]:
    """Validate the document and return each warehouse's score and the winners."""
    warehouses = read_warehouses(node)
    scored = [(player, score_warehouse(grid)) for player, grid in warehouses]
    return {
        "players": [_player_output(player, score) for player, score in scored],
        "winners": warehouse_winners(scored),
    }


def read_warehouses(node: Node) -> list[tuple[str, list[str]]]:
    """(player, grid) of each warehouse; names must be distinct and grids rectangular."""
    return [(player, entry["grid"].grid(GRID_SYMBOLS))
            for player, entry in node["warehouses"].players()]


def _player_output(player: str, score: WarehouseScore) -> dict[str, Any]:
    kinds = {kind: {"blocks": part.blocks, "biggest": part.biggest, "points": part.points}
             for kind, part in score.kinds.items()}
    return {"player": player, "total": score.total, "empty_boxes": score.empty_boxes,
            "kinds": kinds}
