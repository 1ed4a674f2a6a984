"""Removal's drawing view: each truck, its tiles by item, the "−1" squares still showing."""

from __future__ import annotations

from typing import Any

from rules import State
from rules.games.removal.truck import shape_cells, transform
from station.games.views import Cell, cell

LEGEND = ("Each tile is an item, named on it · dark square: no space in the truck · "
          "“−1”: a square that costs a point while it shows")


def view(state: State) -> dict[str, Any]:
    """Each truck: tiles by item, damage marked, visible "−1" squares marked."""
    catalogue = state.setup["catalogue"]
    shapes = {item["id"]: item for item in catalogue["items"] + catalogue.get("boxes", [])}
    layouts = catalogue["trucks"]
    boards = []
    for index, (player, data) in enumerate(zip(state.players, state.data["players"], strict=True)):
        layout = layouts[index % len(layouts)]
        rows: list[list[Cell]] = [
            [cell("−1", "", "minus") if char == "-" else cell("", "", "wall") if char == "#"
             else None for char in line] for line in layout]
        for tile in data["truck"]:
            item = shapes[tile["item"]]
            for r, c in transform(shape_cells(item["shape"]), tile["rotation"], tile["flip"]):
                rows[tile["row"] + r][tile["col"] + c] = cell(
                    item.get("name", tile["item"])[:3], tile["item"],
                    "damaged" if tile.get("damaged") else "")
        boards.append({"title": f"{player}'s truck (track {data['track']})", "rows": rows})
    names = {piece_id: item.get("name", piece_id) for piece_id, item in shapes.items()}
    lines = [f"Round {state.data.get('round')}"] + [
        f"{player}: {_storage_words(data['storage'], names)} · {_helper_words(data['helpers'])}"
        for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


def _storage_words(stored: str | None, names: dict[str, str]) -> str:
    """``the backpack in storage`` or ``storage empty``."""
    return f"the {names.get(stored, stored)} in storage" if stored else "storage empty"


def _helper_words(helpers: list[int]) -> str:
    """``helper cards 1 and 3 left``, ``helper card 2 left``, ``no helper card left``."""
    cards = [str(card) for card in helpers]
    if not cards:
        return "no helper card left"
    listed = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f"helper card{'s' if len(cards) > 1 else ''} {listed} left"
