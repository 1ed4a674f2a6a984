"""Exact one-move rankings (docs/formats.md §8): every legal placement of the piece in hand,
best first by the score right after it.

Small Warehouse ranks by the warehouse's §1 total after the card is laid; Removal by the
§4 drive total if the truck drove right after the placement. Both list every placement
once: a turned card (or a laid tile) that looks the same as an earlier one is not listed
again.

Example::

    >>> best = rank_warehouse_placements(["AAA.", "...."], ["A"])[0]
    >>> (best.row, best.col, best.rotation, best.score, best.gain)
    (0, 3, 0, 4, 4)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from rules.games.small_warehouse import (
    NO_CARD,
    ROTATIONS,
    _footprint_mask,
    _lay,
    _occupied_mask,
    _touch_area,
    rotate_clockwise,
    score_warehouse,
)
from rules.removal_truck import TileSpec, Truck


@dataclass(frozen=True)
class WarehousePlacement:
    """One legal placement of a Small Warehouse card and the warehouse's score after it."""

    row: int
    col: int
    rotation: int
    score: int
    gain: int
    empty_boxes: int

    def to_json(self) -> dict[str, int]:
        return {"row": self.row, "col": self.col, "rotation": self.rotation,
                "score": self.score, "gain": self.gain}


@dataclass(frozen=True)
class TruckPlacement:
    """One legal placement of a Removal tile (no helpers) and the drive total after it."""

    row: int
    col: int
    rotation: int
    flip: bool
    damaged: tuple[str, ...]
    drive_total: int

    def to_json(self) -> dict[str, object]:
        return {"row": self.row, "col": self.col, "rotation": self.rotation, "flip": self.flip,
                "damaged": list(self.damaged), "drive_total": self.drive_total}


def rank_warehouse_placements(grid: Sequence[str], card: Sequence[str]
                              ) -> list[WarehousePlacement]:
    """Every legal placement of ``card`` in ``grid``, ranked as §8 says.

    Legal: every square inside the grid, and the card overlaps a card already there or
    shares an edge with one (so an empty warehouse has none). Ties: fewer empty boxes
    visible, then rotation, row, col ascending.
    """
    rows, cols = len(grid), len(grid[0])
    before = score_warehouse(grid).total
    allowed = _touch_area(_occupied_mask(grid), rows, cols)
    found = []
    for rotation, cells in _distinct_turns(tuple(card)):
        for row, col in _anchors(cells, rows, cols):
            mask = _footprint_mask(cells, row, col, rows, cols)
            if mask is None or not mask & allowed:
                continue
            after = score_warehouse(_lay(grid, cells, row, col))
            found.append(WarehousePlacement(row, col, rotation, after.total,
                                            after.total - before, after.empty_boxes))
    found.sort(key=lambda p: (-p.score, p.empty_boxes, p.rotation, p.row, p.col))
    return found


def _distinct_turns(card: tuple[str, ...]) -> list[tuple[int, tuple[tuple[int, int, str], ...]]]:
    """(rotation, squares) of each turn of ``card`` that looks different from the earlier ones."""
    seen: set[tuple[str, ...]] = set()
    turns = []
    for rotation in ROTATIONS:
        turned = tuple(rotate_clockwise(card, rotation))
        if turned in seen:
            continue
        seen.add(turned)
        cells = tuple((r, c, ch) for r, line in enumerate(turned)
                      for c, ch in enumerate(line) if ch != NO_CARD)
        turns.append((rotation, cells))
    return turns


def _anchors(cells: Sequence[tuple[int, int, str]], rows: int, cols: int
             ) -> list[tuple[int, int]]:
    """Every top-left corner that keeps all squares inside (cut-outs may stick out)."""
    top, bottom = min(r for r, _, _ in cells), max(r for r, _, _ in cells)
    left, right = min(c for _, c, _ in cells), max(c for _, c, _ in cells)
    return [(row, col) for row in range(-top, rows - bottom)
            for col in range(-left, cols - right)]


def rank_truck_placements(truck: Truck, tile: TileSpec) -> list[TruckPlacement]:
    """Every legal placement of ``tile`` without helpers (each footprint once), ranked as §8
    says: highest drive total right after it (not the final drive), then fewer damaged
    items, then rotation, flip, row, col ascending. ``truck`` is left unchanged."""
    found = []
    for placement in truck.legal_placements(tile):
        loaded = copy.deepcopy(truck)
        loaded.place(tile, placement.row, placement.col, placement.rotation, placement.flip)
        found.append(TruckPlacement(placement.row, placement.col, placement.rotation,
                                    placement.flip, placement.damaged,
                                    loaded.drive_score(final=False).total))
    found.sort(key=lambda p: (-p.drive_total, len(p.damaged), p.rotation, p.flip, p.row, p.col))
    return found
