"""Moving Day's drawing view: each player's vehicles, boxes coloured by colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules import State
from rules.games.moving_day import BoxFacts, MovingDayState, VehicleView
from station.games.views import Cell, cell

LEGEND = ("Each box shows its weight, and its colour's initial in the corner · ○ fragile box · "
          "✕ damaged box · "
          "dark square: no space in the vehicle")


def view(state: State) -> dict[str, Any]:
    """Each vehicle of each player: boxes coloured by colour, weight shown, damage marked."""
    moving_day = cast(MovingDayState, state)  # this presenter is Moving Day's record's
    boxes = moving_day.box_facts()
    damaged: dict[tuple[int, str, int, int], str] = {}
    for index, load in enumerate(moving_day.load_scores()):
        for box in load.damaged:
            damaged[index, box.vehicle, box.row, box.col] = box.why
    boards = []
    for index, player in enumerate(state.players):
        for vehicle in moving_day.vehicles(index):
            boards.append({"title": f"{player}: {vehicle.name}",
                           "rows": _vehicle_rows(index, vehicle, boxes, damaged)})
    lines = [f"{player}: {moving_day.snacks(index)} snacks"
             for index, player in enumerate(state.players)]
    return {"boards": boards, "lines": lines}


def _vehicle_rows(index: int, vehicle: VehicleView, boxes: Mapping[str, BoxFacts],
                  damaged: dict[Any, str]) -> list[list[Cell]]:
    rows = []
    for row, line in enumerate(vehicle.grid):
        cells: list[Cell] = []
        for col, box_id in enumerate(line):
            if vehicle.layout[row][col] == "#":
                cells.append(cell("", "", "wall"))
            elif box_id is None:
                cells.append(None)
            else:
                box = boxes[box_id]
                why = damaged.get((index, vehicle.name, row, col))
                cells.append(cell(f"{box.weight}", str(box.colour),
                                  "damaged" if why else "", "fragile" if box.fragile else ""))
        rows.append(cells)
    return rows
