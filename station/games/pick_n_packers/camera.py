"""Pick 'n Packers under the camera: the shop grid, the drone over its cards (its tag is one
of the kit's loose tags); the kit's shop grid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.games.camera import CameraLayout
from station.games.record import MatPlan
from vision.games.pick_n_packers import DRONE, read_shop

NAME = "pick-n-packers"
SHOP_ROWS = SHOP_COLS = 3
LOOSE_TAGS = (DRONE,)  # tagged, outside the catalogue


def roles(players: list[str], mats: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """The shop grid is the only mat, nobody's own."""
    return {"shop": mats[0].spec.id}, [mats[0].spec]


class ShopReader:
    """The shop's layout and the card under the drone, remembering the last layout seen."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout
        self.shop: list[list[str | None]] | None = None  # the last shop layout seen

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        """The shop's layout; the card under the drone as a drone position."""
        mat = next((m for m in mats if m["id"] == self.layout.roles["shop"]), {"found": False})
        shop = read_shop(mat, self.layout.tags, previous=self.shop)
        if not shop.get("found"):
            return {}
        self.shop = shop["cards"]
        # The shop's layout, for a game dealt by hand (the referee reveals the cards it sees).
        seen = {"shop": {"kind": "shop", "cards": shop["cards"]}}
        drone = shop.get("drone") or {}
        number = self.layout.card_numbers.get(drone.get("card") or "")
        if number is None:
            return seen
        return {**seen, "drone": {"kind": "drone-position", "t": round(t, 3), "card": number}}


def extend(layout: CameraLayout, catalogue: Mapping[str, Any]) -> None:
    """A shop card's number, for the drone position the reader reports."""
    layout.card_numbers = {card["id"]: int(card["number"]) for card in catalogue["shop_cards"]}


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]
         ) -> list[MatPlan]:
    """The shop grid."""
    return [MatPlan("shop grid", SHOP_ROWS, SHOP_COLS, "tags", sizes["shop"])]
