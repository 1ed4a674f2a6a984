"""Removal: the tiles in a truck — which tile, where, how turned and whether flipped.

Each tile carries its tag on the first square of its shape's top row (as the
catalogue draws the shape). A tile whose shape differs from its mirror image
also carries a *back* tag on the same square's underside, stuck upright when
the flipped tile shows its shape mirrored left to right; seeing the back tag
means the tile lies flipped. Given the shapes, the reader also works out the
squares each tile covers and checks them against the cells the camera saw.

Example::

    >>> mat = {"id": 5, "found": True, "cells": ["XX..", "X..."],
    ...        "tags": [{"id": 60, "row": 0, "col": 0, "rotation": 0}]}
    >>> truck = read_truck(mat, {60: {"piece": "I07", "face": "front"}}, {"I07": ["##", "#."]})
    >>> truck["tiles"][0]["cells"], truck["tiles"][0]["flipped"], truck["consistent"]
    ([[0, 0], [0, 1], [1, 0]], False, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vision.games import TagPieces, piece_of


def shape_squares(shape: list[str]) -> list[tuple[int, int]]:
    """The (row, col) squares of a shape drawn with ``#``, relative to its sticker square."""
    squares = [(r, c) for r, row in enumerate(shape) for c, char in enumerate(row) if char == "#"]
    if not squares:
        return []
    anchor_row, anchor_col = squares[0]
    return [(r - anchor_row, c - anchor_col) for r, c in squares]


def footprint(shape: list[str], row: int, col: int, rotation: int,
              flipped: bool) -> list[tuple[int, int]]:
    """The cells a tile covers when its sticker square is at (row, col), turned and flipped."""
    cells = []
    for dr, dc in shape_squares(shape):
        x, y = (-dc if flipped else dc), dr
        for _ in range((rotation // 90) % 4):
            x, y = -y, x  # a quarter turn clockwise (y points down)
        cells.append((row + y, col + x))
    return sorted(cells)


def _fits(cells: list[tuple[int, int]], grid: list[str]) -> bool:
    return all(0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] in "X?"
               for r, c in cells)


def read_truck(mat: dict[str, Any], tag_pieces: TagPieces,
               shapes: Mapping[str, list[str]] | None = None) -> dict[str, Any]:
    """The tiles on one truck's mat (or frame); ``shapes`` maps tile id → shape rows."""
    if not mat.get("found"):
        return {"found": False}
    tiles, unknown, consistent = [], [], True
    for tag in mat["tags"]:
        piece = piece_of(tag_pieces, tag["id"])
        if piece is None:
            unknown.append(tag["id"])
            continue
        tile = {"tile": piece[0], "row": tag["row"], "col": tag["col"],
                "rotation": tag["rotation"], "flipped": piece[1] == "back"}
        if shapes and piece[0] in shapes:
            cells = footprint(shapes[piece[0]], tag["row"], tag["col"], tag["rotation"],
                              tile["flipped"])
            tile["cells"] = [list(cell) for cell in cells]
            consistent = consistent and _fits(cells, mat["cells"])
        tiles.append(tile)
    return {"found": True, "tiles": tiles, "unknown_tags": unknown, "consistent": consistent}
