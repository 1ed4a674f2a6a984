"""Moving Day's drawing view: each player's vehicles, boxes coloured by colour."""

from __future__ import annotations

from typing import Any

from rules import State
from station.games.views import Cell, cell

LEGEND = ("Each box shows its weight, and its colour's initial in the corner · ○ fragile box · "
          "✕ damaged box · "
          "dark square: no space in the vehicle")


def view(state: State) -> dict[str, Any]:
    """Each vehicle of each player: boxes coloured by colour, weight shown, damage marked."""
    setup = state.setup
    fields = setup["box_fields"]
    boxes = {box: dict(zip(fields, values, strict=True)) for box, values in setup["boxes"].items()}
    damaged: dict[tuple[int, str, int, int], str] = {}
    for index, load in enumerate(state.load_scores()):  # type: ignore[attr-defined]
        for box in load.damaged:
            damaged[index, box.vehicle, box.row, box.col] = box.why
    boards = []
    for index, (player, data) in enumerate(zip(state.players, state.data["players"], strict=True)):
        for vehicle, layout in zip(data["vehicles"], setup["vehicles"], strict=True):
            boards.append({"title": f"{player}: {layout['name']}",
                           "rows": _vehicle_rows(index, layout, vehicle["grid"], boxes, damaged)})
    lines = [f"{player}: {data['snacks']} snacks"
             for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


def _vehicle_rows(index: int, layout: dict[str, Any], grid: list[list[Any]],
                  boxes: dict[str, dict[str, Any]], damaged: dict[Any, str]) -> list[list[Cell]]:
    rows = []
    for row, line in enumerate(grid):
        cells: list[Cell] = []
        for col, box_id in enumerate(line):
            if layout["layout"][row][col] == "#":
                cells.append(cell("", "", "wall"))
            elif box_id is None:
                cells.append(None)
            else:
                box = boxes[box_id]
                why = damaged.get((index, layout["name"], row, col))
                cells.append(cell(f"{box['weight']}", str(box["colour"]),
                                  "damaged" if why else "", "fragile" if box["fragile"] else ""))
        rows.append(cells)
    return rows
