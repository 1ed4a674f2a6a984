"""Advice on Small Warehouse: the advisor's heuristic and the exact one-move rankings.

:class:`WarehouseEvaluator` is the game's one-move heuristic for the advisor
(:class:`~rules.engine.AdviceTuning`); :func:`rank_warehouse_placements` lists every legal
placement of the card in hand, best first by the warehouse's §1 total right after it
(docs/formats.md §8), each turned card that looks the same as an earlier one listed once.

Example::

    >>> best = rank_warehouse_placements(["AAA.", "...."], ["A"])[0]
    >>> (best.row, best.col, best.rotation, best.score, best.gain)
    (0, 3, 0, 4, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.advice.heuristics import Evaluator
from rules.engine import Action, State
from rules.games.small_warehouse.grid import (
    EMPTY_BOX,
    NO_CARD,
    ROTATIONS,
    _footprint_mask,
    _grid_masks,
    _lay,
    _occupied_mask,
    _oriented_cells,
    _touch_area,
    rotate_clockwise,
)
from rules.games.small_warehouse.scoring import MIN_SCORING_BLOCK, score_warehouse

# An empty box costs this much in the heuristic (the tie-break of §1, §8).
EMPTY_BOX_PENALTY = 0.01
# A kind whose biggest block is one square short of scoring is worth this much per square
# of that block (a block of 3 is close to scoring; 0 would be plain greedy).
NEAR_BLOCK_VALUE = 0.5


class WarehouseEvaluator(Evaluator):
    """Small Warehouse: the §1 total, less a little per empty box, plus a little for a block
    one square short of scoring; an action is scored by laying its card on bit masks of the
    grid (one per kind), re-scoring only the kinds it changes."""

    def value(self, state: State, player: int) -> float:
        return warehouse_value(state.data["grids"][player])

    def values_after(self, state: State, actions: Sequence[Action]) -> list[float]:
        board = _MaskedWarehouse(state.data["grids"][state.current_player()])
        cards = state.setup["cards"]
        return [board.value_after(_card_masks(tuple(cards[action["card"]]), action["rotation"],
                                              board.cols),
                                  action["row"] * board.cols + action["col"])
                for action in actions]


def warehouse_value(grid: Sequence[str]) -> float:
    """The heuristic value of one warehouse (see :class:`WarehouseEvaluator`).

    >>> warehouse_value(["AAAA", "BBB."])
    5.5
    """
    return _MaskedWarehouse(grid).value


class _MaskedWarehouse:
    """A warehouse as one bit mask per symbol (bit ``row * cols + col``), each kind's part of
    the heuristic value worked out once."""

    def __init__(self, grid: Sequence[str]) -> None:
        self.rows, self.cols = len(grid), len(grid[0])
        self.masks: dict[str, int] = {}
        for index, symbol in enumerate("".join(grid)):
            if symbol != NO_CARD:
                self.masks[symbol] = self.masks.get(symbol, 0) | 1 << index
        self.parts = {kind: self._part(kind, mask) for kind, mask in self.masks.items()}
        self.value = sum(self.parts.values())

    def _part(self, kind: str, mask: int) -> float:
        if kind == EMPTY_BOX:
            return -EMPTY_BOX_PENALTY * mask.bit_count()
        sizes = _block_sizes(mask, self.rows, self.cols)
        biggest = max(sizes, default=0)
        if biggest >= MIN_SCORING_BLOCK:
            return biggest * len(sizes)
        return NEAR_BLOCK_VALUE * biggest if biggest == MIN_SCORING_BLOCK - 1 else 0.0

    def value_after(self, card: tuple[tuple[str, int], ...], shift: int) -> float:
        """The value with a card (its per-symbol masks at (0, 0)) laid ``shift`` bits on."""
        footprint = 0
        laid = {}
        for symbol, mask in card:
            laid[symbol] = mask << shift
            footprint |= laid[symbol]
        value = self.value
        for symbol in set(laid) | {kind for kind, mask in self.masks.items() if mask & footprint}:
            old = self.masks.get(symbol, 0)
            new = (old & ~footprint) | laid.get(symbol, 0)
            value += self._part(symbol, new) - self.parts.get(symbol, 0.0)
        return value


@lru_cache(maxsize=1024)
def _card_masks(squares: tuple[str, ...], rotation: int, cols: int
                ) -> tuple[tuple[str, int], ...]:
    """A turned card's squares as one mask per symbol, its top-left corner at bit 0."""
    masks: dict[str, int] = {}
    for row, col, symbol in _oriented_cells(squares, rotation):
        masks[symbol] = masks.get(symbol, 0) | 1 << (row * cols + col)
    return tuple(masks.items())


def _block_sizes(mask: int, rows: int, cols: int) -> list[int]:
    """The sizes of the edge-connected blocks of ``mask``, grown a step at a time."""
    _, not_first_col, not_last_col = _grid_masks(rows, cols)
    sizes = []
    while mask:
        block = mask & -mask
        while True:
            grown = (block | block << cols | block >> cols
                     | (block << 1 & not_first_col) | (block >> 1 & not_last_col)) & mask
            if grown == block:
                break
            block = grown
        sizes.append(block.bit_count())
        mask ^= block
    return sizes


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
