"""Removal's drawing view: each truck, its tiles by item, the "−1" squares still showing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rules import State
from rules.games.removal import RemovalState
from rules.games.removal.truck import shape_cells, transform
from station.games.views import Cell, cell

LEGEND = ("Each tile is an item, named on it · dark square: no space in the truck · "
          "“−1”: a square that costs a point while it shows")


def view(state: State) -> dict[str, Any]:
    """Each truck: tiles by item, damage marked, visible "−1" squares marked."""
    removal = cast(RemovalState, state)  # this presenter is Removal's record's
    tiles = removal.tile_facts()
    names = {tile: tile if facts.name is None else facts.name for tile, facts in tiles.items()}
    sides = [removal.player_view(index) for index in range(len(state.players))]
    boards = []
    for index, (player, side) in enumerate(zip(state.players, sides, strict=True)):
        rows: list[list[Cell]] = [
            [cell("−1", "", "minus") if char == "-" else cell("", "", "wall") if char == "#"
             else None for char in line] for line in removal.truck_layout(index)]
        for tile in side.truck:
            for r, c in transform(shape_cells(tiles[tile.item].shape), tile.rotation, tile.flip):
                rows[tile.row + r][tile.col + c] = tile_cells(names[tile.item], tile.item,
                                                              tile.damaged)
        boards.append({"title": truck_title(player, side.track), "rows": rows})
    lines = [f"Round {removal.round_number()}"] + [
        f"{player}: {_storage_words(side.storage, names)} · {_helper_words(side.helpers)}"
        for player, side in zip(state.players, sides, strict=True)]
    return {"boards": boards, "lines": lines}


def truck_title(player: str, track: int) -> str:
    """A truck board's title: ``Ana's truck (track 3)`` (the board entry names it too)."""
    return f"{player}'s truck (track {track})"


def tile_cells(name: str, tile: str, damaged: bool = False) -> Cell:
    """One square of a tile as the trucks draw it: the item's name cut short, its colour."""
    return cell(name[:3], tile, "damaged" if damaged else "")


def _storage_words(stored: str | None, names: dict[str, str]) -> str:
    """``the backpack in storage`` or ``storage empty``."""
    return f"the {names.get(stored, stored)} in storage" if stored else "storage empty"


def _helper_words(helpers: Sequence[int]) -> str:
    """``helper cards 1 and 3 left``, ``helper card 2 left``, ``no helper card left``."""
    cards = [str(card) for card in helpers]
    if not cards:
        return "no helper card left"
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f"helper card{'s' if len(cards) > 1 else ''} {listed} left"
