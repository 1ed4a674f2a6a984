"""Small Warehouse's scoring (docs/formats.md §1): each kind of merchandise scores
``biggest block × number of blocks`` when its biggest block (squares joined through
edges) has at least four squares; fewer empty boxes break a tie.

Shared by the engine and by ``packref score small-warehouse``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.engine import PlayerScore, winners_by
from rules.games.small_warehouse.grid import EMPTY_BOX, MERCHANDISE

MIN_SCORING_BLOCK = 4


@dataclass(frozen=True)
class KindScore:
    """One kind of merchandise in a warehouse: its blocks, biggest block and points."""

    blocks: int
    biggest: int
    points: int


@dataclass(frozen=True)
class WarehouseScore:
    """A warehouse's score: ``total``, ``empty_boxes`` (``#`` squares) and each kind's part."""

    total: int
    empty_boxes: int
    kinds: dict[str, KindScore] = field(default_factory=dict)


def score_warehouse(grid: Sequence[str]) -> WarehouseScore:
    """Score one warehouse grid (rows of ``.``, ``#`` and ``A``–``Z``), kinds in letter order.

    >>> score = score_warehouse(["AAB.", "#AB.", "CCCC"])
    >>> score.total, score.empty_boxes, score.kinds["C"]
    (4, 1, KindScore(blocks=1, biggest=4, points=4))
    """
    kinds: dict[str, KindScore] = {}
    for kind, sizes in sorted(_block_sizes(grid).items()):
        biggest = max(sizes)
        points = biggest * len(sizes) if biggest >= MIN_SCORING_BLOCK else 0
        kinds[kind] = KindScore(blocks=len(sizes), biggest=biggest, points=points)
    empty_boxes = sum(row.count(EMPTY_BOX) for row in grid)
    return WarehouseScore(sum(kind.points for kind in kinds.values()), empty_boxes, kinds)


def warehouse_winners(scored: Sequence[tuple[str, WarehouseScore]]) -> list[str]:
    """Names with the highest total, then fewest empty boxes; several when still tied."""
    keys = {name: (score.total, -score.empty_boxes) for name, score in scored}
    return winners_by([PlayerScore(name, score.total) for name, score in scored], keys)


def _block_sizes(grid: Sequence[str]) -> dict[str, list[int]]:
    """For each merchandise kind, the sizes of its edge-connected blocks."""
    seen: set[tuple[int, int]] = set()
    sizes: dict[str, list[int]] = {}
    for row, line in enumerate(grid):
        for col, kind in enumerate(line):
            if kind in MERCHANDISE and (row, col) not in seen:
                sizes.setdefault(kind, []).append(_flood(grid, row, col, seen))
    return sizes


def _flood(grid: Sequence[str], row: int, col: int, seen: set[tuple[int, int]]) -> int:
    """Mark the block holding (row, col) as seen and return its size."""
    kind = grid[row][col]
    stack, size = [(row, col)], 0
    seen.add((row, col))
    while stack:
        r, c = stack.pop()
        size += 1
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if (0 <= nr < len(grid) and 0 <= nc < len(grid[nr]) and (nr, nc) not in seen
                    and grid[nr][nc] == kind):
                seen.add((nr, nc))
                stack.append((nr, nc))
    return size

