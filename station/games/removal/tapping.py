"""Removal by the board: the item (pictures of the house's available items, or the stored
one; driving off is a piece of its own), then its place — the square of its tag in the
truck, or the storage — then its turn (and helper cards); its reveals drawn as the tiles."""

from __future__ import annotations

from typing import Any, cast

from rules import Action, State
from rules.games.removal import RemovalState
from rules.games.removal.truck import oriented_cells, shape_cells
from station.games.removal.presenter import tile_cells, truck_title
from station.games.removal.words import tag_of
from station.games.tapping import footprint, turn_words
from station.games.views import Cell
from station.games.words import at


def tapping(state: State, action: Action) -> dict[str, Any] | None:
    """A ``load``, ``store``, ``load-stored`` or ``drive`` as its taps
    (:mod:`station.games.tapping`)."""
    removal = cast(RemovalState, state)  # these taps are Removal's record's
    player = removal.current_player() or 0
    side = removal.player_view(player)
    kind, helped = action["type"], _helper_words(action)
    if kind == "drive":
        return {"piece": {"key": "drive", "words": "drive the truck away and score" + helped},
                "place": None, "turn": None, "then": None}
    tile = side.storage if kind == "load-stored" else str(action["item"])
    if tile is None:
        return None
    piece = _piece(removal, tile, stored=kind == "load-stored")
    if kind == "store":
        return {"piece": piece, "place": {"key": "storage", "words": "into storage"},
                "turn": {"key": "helpers:" + helped,
                         "words": helped.strip(", ") or "no helper card"},
                "then": None}
    facts = removal.facts_of_tile(tile)
    shape = tuple(facts.shape) if facts is not None else ("#",)
    rotation, flip = int(action.get("rotation", 0)), bool(action.get("flip"))
    row, col = int(action["row"]), int(action["col"])
    tag = tag_of(state, action)
    board = truck_title(state.players[player], side.track)
    cells = oriented_cells(shape, rotation, flip)
    return {
        "piece": piece,
        "place": {"key": f"{board}:{tag[0]}:{tag[1]}", "board": board, "at": list(tag),
                  "ask": "Tap the square for the item's tag (or the storage)",
                  "words": f"its tag's square at {at(*tag)} of the truck",
                  "cells": footprint(cells, row, col)},
        "turn": {"key": f"{tile}:{rotation}:{flip}:{helped}",
                 "words": turn_words(rotation, flip) + helped,
                 "picture": _drawn(cells, _name(removal, tile), tile)},
        "then": None,
    }


def _helper_words(action: Action) -> str:
    helpers = [str(card) for card in action.get("helpers") or []]
    if not helpers:
        return ""
    return f", with helper card{'s' if len(helpers) > 1 else ''} {' and '.join(helpers)}"


def _name(removal: RemovalState, tile: str) -> str:
    facts = removal.facts_of_tile(tile)
    return tile if facts is None or facts.name is None else facts.name


def _piece(removal: RemovalState, tile: str, stored: bool) -> dict[str, Any]:
    """An item as the picker shows it: its shape drawn in its colour, its name in words."""
    facts = removal.facts_of_tile(tile)
    shape = tuple(facts.shape) if facts is not None else ("#",)
    name = _name(removal, tile)
    return {"key": ("stored:" if stored else "") + tile,
            "words": f"the stored {name}" if stored else f"the {name} from the house",
            "picture": _drawn(shape_cells(shape), name, tile)}


def _drawn(cells: tuple[tuple[int, int], ...] | list[tuple[int, int]], name: str,
           tile: str) -> list[list[Cell]]:
    """A tile's squares as drawn cells (the trucks' drawing), in its bounding box."""
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    drawn: list[list[Cell]] = [[None] * cols for _ in range(rows)]
    for r, c in cells:
        drawn[r][c] = tile_cells(name, tile)
    return drawn


def reveal_picture(state: State, action: Action) -> dict[str, Any]:
    """An item, a box or a keepsake revealed, drawn and said by the catalogue: an item by
    its name and shape, a box by its shape and symbol (its value is face down), a keepsake
    by its symbol."""
    removal = cast(RemovalState, state)
    if action.get("zone") == "keepsakes":
        return {"words": f"the keepsake card with the {action.get('keepsake')} symbol"}
    tile = str(action.get("item"))
    facts = removal.facts_of_tile(tile)
    if facts is None:
        return {"words": tile}
    name = _name(removal, tile)
    symbol = removal.entries[tile].get("symbol")  # printed on the tile, as the catalogue has it
    squares = len(shape_cells(facts.shape))
    said = f"a {name} of {squares} square{'s' if squares > 1 else ''}" + (
        f" with the {symbol} symbol" if symbol else "")
    return {"picture": _drawn(shape_cells(facts.shape), name, tile), "words": said}
