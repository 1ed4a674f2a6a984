"""Removal under the camera: a truck frame per player, tagged tiles laid in it; the kit's
truck frames."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, cast

from rules import State
from rules.games.removal import RemovalState
from rules.games.removal.referee import tag_square
from rules.games.removal.truck import oriented_cells
from station.games.camera import CameraLayout, one_mat_each
from station.games.record import MatPlan
from vision.games.removal import read_truck

NAME = "removal"
roles = partial(one_mat_each, NAME)  # player n in the kit's n-th truck frame


class TruckReader:
    """Every player's truck, read as one observation of the table.

    One reading of every truck, not one per truck: when the camera misses the states
    between turns, a frame shows several trucks changed at once, and only all of them
    together tell the referee the turns that lead there (readings of one truck each came
    in mat order, so a later player's truck could come before the acting player's and be
    refused, and a truck showing two turns, another player's between them, could not be
    read). Small Warehouse's and Moving Day's readings show every board at once too.
    """

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        layout = self.layout
        found = {mat["id"]: mat for mat in mats}
        return {"trucks": {"kind": "trucks", "trucks": [
            {"player": player, **read_truck(found.get(mat_id, {"found": False}), layout.tags,
                                            layout.shapes)}
            for player, mat_id in layout.roles.items()]}}


def extend(layout: CameraLayout, catalogue: Mapping[str, Any]) -> None:
    """The reader tells a tile's place from its tag and its shape."""
    layout.shapes = {item["id"]: list(item["shape"]) for kind in ("items", "boxes")
                     for item in catalogue.get(kind, [])}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each tile's squares and its tag in its player's truck (for the demo's renderer)."""
    removal = cast(RemovalState, state)  # laid by Removal's camera wiring only
    for player, mat_id in layout.roles.items():
        content = contents[mat_id]
        for placed in removal.player_view(state.players.index(player)).truck:
            shape = layout.shapes[placed.item]
            cells = [(placed.row + r, placed.col + c) for r, c in
                     oriented_cells(tuple(shape), placed.rotation, placed.flip)]
            square = tag_square(shape, placed.row, placed.col, placed.rotation, placed.flip)
            face = "back" if placed.flip and (placed.item, "back") in tags else "front"
            content.tags = [tag for tag in content.tags if (tag[1], tag[2]) not in cells]
            content.place_piece(cells, (tags[(placed.item, face)], *square, placed.rotation),
                                tags[(placed.item, "front")])


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]
         ) -> list[MatPlan]:
    """A frame around each truck board of the catalogue."""
    return [MatPlan(f"truck {number}", len(layout), len(layout[0]), "tags", sizes["truck"],
                    frame=True)
            for number, layout in enumerate(catalogues[NAME]["trucks"][:per_game], start=1)]
