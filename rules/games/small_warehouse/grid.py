"""A Small Warehouse grid and the cards laid on it: turned cards, footprints as bit masks.

A grid is rows of symbols: ``.`` where no card lies, ``#`` an empty box, ``A``–``Z``
merchandise. Cell ``(row, col)`` of a grid ``rows × cols`` is bit ``row * cols + col``.

Example::

    >>> rotate_clockwise(["AB", ".C"], 90)
    ['.A', 'CB']
    >>> _lay(["....", "...."], _oriented_cells(("AB",), 0), 1, 2)
    ['....', '..AB']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

NO_CARD = "."
EMPTY_BOX = "#"
MERCHANDISE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROTATIONS = (0, 90, 180, 270)

Squares = tuple[str, ...]
Cell = tuple[int, int, str]


def rotate_clockwise(squares: Sequence[str], rotation: int) -> list[str]:
    """The rows of ``squares`` turned clockwise by ``rotation`` degrees (0, 90, 180, 270)."""
    rows = list(squares)
    for _ in range(rotation // 90 % 4):
        rows = ["".join(row[col] for row in reversed(rows)) for col in range(len(rows[0]))]
    return rows



@cache
def _oriented_cells(squares: Squares, rotation: int) -> tuple[Cell, ...]:
    """The (row, col, symbol) of each square of a card turned by ``rotation``."""
    turned = rotate_clockwise(squares, rotation)
    return tuple((row, col, ch) for row, line in enumerate(turned)
                 for col, ch in enumerate(line) if ch != NO_CARD)



def _footprint_mask(
    cells: tuple[Cell, ...], row: int, col: int, rows: int, cols: int
) -> int | None:
    """The cells a card covers at (row, col) as a bit mask, or None if it leaves the grid."""
    mask = 0
    for dr, dc, _ in cells:
        r, c = row + dr, col + dc
        if not (0 <= r < rows and 0 <= c < cols):
            return None
        mask |= 1 << (r * cols + c)
    return mask


def _occupied_mask(grid: Sequence[str]) -> int:
    """The cells holding a card square, as a bit mask (bit ``row * cols + col``)."""
    return int("".join(grid)[::-1].replace(NO_CARD, "0").translate(_ANY_SQUARE_TO_ONE), 2)


_ANY_SQUARE_TO_ONE = str.maketrans({ch: "1" for ch in MERCHANDISE + EMPTY_BOX})


def _touch_area(occupied: int, rows: int, cols: int) -> int:
    """The occupied cells and the cells sharing an edge with them."""
    full, not_first_col, not_last_col = _grid_masks(rows, cols)
    area = occupied | (occupied << cols) | (occupied >> cols)
    area |= ((occupied << 1) & not_first_col) | ((occupied >> 1) & not_last_col)
    return area & full


@cache
def _grid_masks(rows: int, cols: int) -> tuple[int, int, int]:
    """The whole grid, and the grid without its first column, without its last column."""
    full = (1 << (rows * cols)) - 1
    not_first_col = sum(1 << (r * cols) for r in range(rows)) ^ full
    not_last_col = sum(1 << (r * cols + cols - 1) for r in range(rows)) ^ full
    return full, not_first_col, not_last_col


def _lay(grid: Sequence[str], cells: tuple[Cell, ...], row: int, col: int) -> list[str]:
    """``grid`` with a card's squares laid on top at (row, col)."""
    lines = [list(line) for line in grid]
    for dr, dc, ch in cells:
        lines[row + dr][col + dc] = ch
    return ["".join(line) for line in lines]
