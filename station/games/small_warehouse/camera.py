"""Small Warehouse under the camera: a colour mat per warehouse, cards laid square by
square; the kit's warehouse mats."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, cast

from rules import Action, State
from rules.games.small_warehouse import SmallWarehouseState
from station.games.camera import CameraLayout, one_mat_each
from station.games.record import MatPlan
from vision.games.small_warehouse import read_warehouses

NAME = "small-warehouse"
KIT_PLAYERS = 2  # warehouse mats in the kit
MAT_ROWS, MAT_COLS = 8, 10
roles = partial(one_mat_each, NAME)  # player n on the kit's n-th warehouse mat


class WarehouseReader:
    """Each player's warehouse mat, read as one observation."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        return {"warehouses": {"kind": "warehouses",
                               "warehouses": read_warehouses(mats, self.layout.roles)}}


def entries(state: State, action: Action) -> dict[str, Any]:
    """What a person enters for a card laid from the hand: the supply card taken into the
    hand (no camera films the supply)."""
    return {"refill": action["refill"]} if action.get("source") == "hand" else {}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each warehouse's squares on its player's mat (for the demo's renderer)."""
    warehouse = cast(SmallWarehouseState, state)  # laid by Small Warehouse's camera wiring only
    for player, mat_id in layout.roles.items():
        contents[mat_id].cells = list(warehouse.grid(state.players.index(player)))


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]
         ) -> list[MatPlan]:
    """A colour mat per player's warehouse."""
    return [MatPlan(f"player {p} warehouse", MAT_ROWS, MAT_COLS, "colour", sizes["cell"])
            for p in range(1, min(KIT_PLAYERS, per_game) + 1)]
