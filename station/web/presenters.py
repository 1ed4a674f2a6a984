"""Drawing views: what a table's SVG shows, made from a game's state.

A *view* is plain JSON the browser draws without knowing the game::

    {"boards": [{"title": "Ana's truck", "rows": [[cell or null, ...], ...]}],
     "lines": ["supply: c03 c11 c19"],
     "drone": {"reached": 6, "speculations": {"Cas": 4}, "pilots": ["Ana"]}}

A cell is ``{"t": text, "k": colour key, "m": [marks]}``; marks are
``damaged``, ``minus`` (a visible "−1" square), ``wall`` (no space),
``empty-box``, ``fragile``. Games with a presenter here get a view made for
them; any other game gets a generic one found in its state (every grid-like
value). A presenter that fails (an engine changed) falls back to the generic view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules import State

Cell = dict[str, Any] | None
Board = dict[str, Any]
MAX_BOARDS = 16


def _cell(text: str, key: str = "", *marks: str) -> dict[str, Any]:
    return {"t": text, "k": key, "m": [mark for mark in marks if mark]}


# -- generic ------------------------------------------------------------------------------
def _is_grid(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    if all(isinstance(row, str) and row for row in value):
        return len({len(row) for row in value}) == 1 and len(value) > 1
    return all(isinstance(row, list) and row and all(
        cell is None or isinstance(cell, str | int) for cell in row) for row in value) and len(
        {len(row) for row in value}) == 1


def _grid_rows(value: list[Any]) -> list[list[Cell]]:
    rows = []
    for row in value:
        rows.append([None if cell in (None, ".") else _cell(str(cell), str(cell))
                     for cell in row])
    return rows


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if _is_grid(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def generic_view(state: State) -> dict[str, Any]:
    """Every grid found in the state, titled by where it was found."""
    boards = [{"title": path, "rows": _grid_rows(grid)}
              for path, grid in _walk(state.data, "")][:MAX_BOARDS]
    lines = [f"{key}: {value}" for key, value in state.data.items()
             if isinstance(value, int | str | bool) and not isinstance(value, dict)]
    return {"boards": boards, "lines": lines[:12]}


# -- Small Warehouse ----------------------------------------------------------------------
def small_warehouse_view(state: State) -> dict[str, Any]:
    """Each warehouse: merchandise letters coloured by kind, empty boxes marked."""
    boards = []
    for player, grid in zip(state.players, state.data["grids"], strict=True):
        rows = [[None if char == "." else
                 _cell("", "", "empty-box") if char == "#" else _cell(char, char)
                 for char in line] for line in grid]
        boards.append({"title": f"{player}'s warehouse", "rows": rows})
    data = state.public_view()  # no hand card, no draw order: only what the table sees
    lines = [f"supply: {' '.join(card or '?' for card in data['supply'])}",
             f"draw pile: {data['draw_pile']} cards"]
    return {"boards": boards, "lines": lines}


# -- Moving Day ---------------------------------------------------------------------------
def moving_day_view(state: State) -> dict[str, Any]:
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
                cells.append(_cell("", "", "wall"))
            elif box_id is None:
                cells.append(None)
            else:
                box = boxes[box_id]
                why = damaged.get((index, layout["name"], row, col))
                cells.append(_cell(f"{box['weight']}", str(box["colour"]),
                                   "damaged" if why else "", "fragile" if box["fragile"] else ""))
        rows.append(cells)
    return rows


# -- Removal ------------------------------------------------------------------------------
def removal_view(state: State) -> dict[str, Any]:
    """Each truck: tiles by item, damage marked, visible "−1" squares marked."""
    from rules.removal_truck import shape_cells, transform

    catalogue = state.setup["catalogue"]
    shapes = {item["id"]: item for item in catalogue["items"] + catalogue.get("boxes", [])}
    layouts = catalogue["trucks"]
    boards = []
    for index, (player, data) in enumerate(zip(state.players, state.data["players"], strict=True)):
        layout = layouts[index % len(layouts)]
        rows: list[list[Cell]] = [
            [_cell("−1", "", "minus") if char == "-" else _cell("", "", "wall") if char == "#"
             else None for char in line] for line in layout]
        for tile in data["truck"]:
            item = shapes[tile["item"]]
            for r, c in transform(shape_cells(item["shape"]), tile["rotation"], tile["flip"]):
                rows[tile["row"] + r][tile["col"] + c] = _cell(
                    item.get("name", tile["item"])[:3], tile["item"],
                    "damaged" if tile.get("damaged") else "")
        boards.append({"title": f"{player}'s truck (track {data['track']})", "rows": rows})
    lines = [f"round {state.data.get('round')}"] + [
        f"{player}: storage {data['storage'] or '—'}, helpers {data['helpers']}"
        for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


# -- Pick 'n Packers ------------------------------------------------------------------------
def pick_n_packers_view(state: State) -> dict[str, Any]:
    """The drone challenge: shop cards 0-9, the card reached, speculation cards, past rounds."""
    data = state.data
    played = len(data.get("results", []))
    presents = data.get("present_cards") or []  # under each shop card; None: not yet seen
    loaded = [presents[number] or f"card {number}'s present" for number in data["loaded"]]
    lines = [f"round {played + 1} ({data['phase']}): pilots {', '.join(data['pilots'])}",
             f"on the drone: {', '.join(loaded) or 'nothing'}"]
    lines += [f"round {index}: {', '.join(result['pilots'])} reached {result['reached']}"
              f" ({result.get('ending', '')})"
              for index, result in enumerate(data.get("results", []), start=1)]
    return {"boards": [], "lines": lines,
            "drone": {"reached": data["reached"], "speculations": dict(data["speculations"]),
                      "pilots": list(data["pilots"])}}


PRESENTERS: dict[str, Callable[[State], dict[str, Any]]] = {
    "small-warehouse": small_warehouse_view,
    "moving-day": moving_day_view,
    "removal": removal_view,
    "pick-n-packers": pick_n_packers_view,
}


def present(state: State) -> dict[str, Any]:
    """The drawing view of ``state``: its game's own, or the generic one."""
    presenter = PRESENTERS.get(state.game.name)
    if presenter is not None:
        try:
            return presenter(state)
        except Exception:
            pass
    return generic_view(state)
