"""Removal in the station: a truck frame per player, tagged tiles laid in it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from rules import Action, State
from rules.referees.removal import Referee
from station.games.camera import CameraLayout, one_mat_each
from station.games.record import CameraWiring, GameRecord
from station.games.views import Cell, cell
from station.inputs.removal import score_document

NAME = "removal"


def view(state: State) -> dict[str, Any]:
    """Each truck: tiles by item, damage marked, visible "−1" squares marked."""
    from rules.removal_truck import shape_cells, transform

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
    lines = [f"round {state.data.get('round')}"] + [
        f"{player}: storage {data['storage'] or '—'}, helpers {data['helpers']}"
        for player, data in zip(state.players, state.data["players"], strict=True)]
    return {"boards": boards, "lines": lines}


def reveal_label(state: State, action: Action) -> str:
    """``house row 1, col 2: I07 (sofa)``, ``waiting 1: I33``, ``keepsake 1: yarn``
    (rows, columns and slots counted from 1; the item's name where the catalogue has one)."""
    zone = action.get("zone")
    if zone == "keepsakes":
        return f"keepsake {int(action['slot']) + 1}: {action['keepsake']}"
    item = str(action.get("item"))
    catalogue = state.setup.get("catalogue") or {}
    names = {entry["id"]: entry.get("name") for key in ("items", "boxes")
             for entry in catalogue.get(key, [])}
    shown = f"{item} ({names[item]})" if names.get(item) else item
    if zone == "house":
        return f"house row {int(action['row']) + 1}, col {int(action['col']) + 1}: {shown}"
    return f"waiting {int(action['slot']) + 1}: {shown}"


class TruckReader:
    """Each player's truck, read as an observation of its own."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        from vision.games.removal import read_truck

        layout = self.layout
        found = {mat["id"]: mat for mat in mats}
        return {f"truck:{player}": {"kind": "truck", "player": player,
                                    **read_truck(found.get(mat_id, {"found": False}),
                                                 layout.tags, layout.shapes)}
                for player, mat_id in layout.roles.items()}


def extend(layout: CameraLayout, catalogue: Mapping[str, Any]) -> None:
    """The reader tells a tile's place from its tag and its shape."""
    layout.shapes = {item["id"]: list(item["shape"]) for kind in ("items", "boxes")
                     for item in catalogue.get(kind, [])}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each tile's squares and its tag in its player's truck (for the demo's renderer)."""
    from rules.referees.removal import tag_square
    from rules.removal_truck import oriented_cells

    for player, mat_id in layout.roles.items():
        content = contents[mat_id]
        for placed in state.data["players"][state.players.index(player)]["truck"]:
            shape = layout.shapes[placed["item"]]
            cells = [(placed["row"] + r, placed["col"] + c) for r, c in
                     oriented_cells(tuple(shape), placed["rotation"], placed["flip"])]
            square = tag_square(shape, placed["row"], placed["col"], placed["rotation"],
                                placed["flip"])
            face = "back" if placed["flip"] and (placed["item"], "back") in tags else "front"
            content.tags = [tag for tag in content.tags if (tag[1], tag[2]) not in cells]
            content.place_piece(cells, (tags[(placed["item"], face)], *square,
                                        placed["rotation"]), tags[(placed["item"], "front")])


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]) -> list[Any]:
    """A frame around each truck board of the catalogue."""
    from vision.kit import MatRequest

    return [MatRequest(NAME, f"truck {number}", len(layout), len(layout[0]), "tags",
                       sizes["truck"], frame=True)
            for number, layout in enumerate(catalogues[NAME]["trucks"][:per_game], start=1)]


RECORD = GameRecord(
    name=NAME, title="Removal", order=30, referee=Referee, scorer=score_document,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=partial(one_mat_each, NAME), reader=TruckReader, extend=extend,
                        lay=lay),
    mats=mats, sticker_size="truck", tagged=("items", "boxes"), tag_order=10, tag_backs=True)
