"""How good a position looks for a player, and each action for the player who takes it.

The default reads the game's own scores; a game may have a faster or a wiser one,
registered here by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rules.advice.config import EMPTY_BOX_PENALTY, NEAR_BLOCK_VALUE
from rules.advice.knowledge import fresh_copy
from rules.engine import Action, State
from rules.games.small_warehouse import (
    EMPTY_BOX,
    MIN_SCORING_BLOCK,
    NO_CARD,
    _grid_masks,
    _oriented_cells,
)


class Evaluator:
    """The score a player has now; an action is worth the actor's value right after it."""

    def value(self, state: State, player: int) -> float:
        return state.scores()[player].total

    def values_after(self, state: State, actions: Sequence[Action]) -> list[float]:
        player = state.current_player()
        values = []
        for action in actions:
            after = fresh_copy(state)
            after.apply(dict(action))
            values.append(self.value(after, player))
        return values


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


class RemovalEvaluator(Evaluator):
    """Removal: the score plus what the player's truck would bring if it drove now (loading
    scores nothing until the drive, so plain scores cannot tell good loads from bad)."""

    def value(self, state: State, player: int) -> float:
        score = state.scores()[player].total
        truck = getattr(state, "truck", None)
        if truck is None:
            return score
        loaded = truck(player)
        return score + (loaded.drive_score().total if loaded.tiles else 0)


EVALUATORS: dict[str, Evaluator] = {
    "small-warehouse": WarehouseEvaluator(),
    "removal": RemovalEvaluator(),
}


def evaluator_for(game_name: str) -> Evaluator:
    """The evaluator of a game (the plain scores unless it has its own)."""
    return EVALUATORS.get(game_name, Evaluator())
