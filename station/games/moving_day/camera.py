"""Moving Day under the camera: a set of vehicle mats per player, tagged boxes loaded onto
them; the kit's vehicle mats."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from rules import Action, State
from rules.games.moving_day import MovingDayState
from station.games.camera import CameraError, CameraLayout
from station.games.record import MatPlan
from vision.games.moving_day import read_vehicles

NAME = "moving-day"
KIT_PLAYERS = 4  # sets of vehicle mats in the kit, at most


def roles(players: list[str], mats: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Player *n* on the kit's *n*-th set of vehicle mats (one mat per vehicle)."""
    vehicles = list(dict.fromkeys(mat.request.label.split()[-1] for mat in mats))
    sets = [mats[i:i + len(vehicles)] for i in range(0, len(mats), len(vehicles))]
    if len(players) > len(sets):
        raise CameraError(f"{NAME}: the kit has vehicle mats for {len(sets)} players, "
                          f"not {len(players)}")
    owned = {player: {mat.request.label.split()[-1]: mat.spec.id for mat in sets[index]}
             for index, player in enumerate(players)}
    return owned, [mat.spec for group in sets[:len(players)] for mat in group]


class VehicleReader:
    """Every player's vehicles, read as one observation."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        return {"vehicles": {"kind": "vehicles",
                             "players": read_vehicles(mats, self.layout.roles, self.layout.tags)}}


def entries(state: State, action: Action) -> dict[str, Any]:
    """What a person enters for a take: where its helper card went (no camera reads helper
    cards)."""
    return {"helper_vehicle": action["helper_vehicle"]}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each loaded box's tag on its cell of its vehicle's mat (for the demo's renderer)."""
    moving_day = cast(MovingDayState, state)  # laid by Moving Day's camera wiring only
    for player, owned in layout.roles.items():
        for vehicle in moving_day.vehicles(state.players.index(player)):
            content = contents[owned[vehicle.name]]
            for row, line in enumerate(vehicle.grid):
                for col, box in enumerate(line):
                    if box is not None:
                        tag = tags[(box, "front")]
                        content.place_piece([(row, col)], (tag, row, col, 90 * (tag % 4)), tag)


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]
         ) -> list[MatPlan]:
    """A tag mat per vehicle, a set of them per player."""
    vehicles = catalogues[NAME]["vehicles"]
    requests = []
    for player in range(1, min(KIT_PLAYERS, per_game // max(len(vehicles), 1)) + 1):
        for vehicle in vehicles:
            layout = vehicle["layout"]
            requests.append(MatPlan(f"player {player} {vehicle['name']}",
                                    len(layout), len(layout[0]), "tags", sizes["cell"]))
    return requests
