"""Small Warehouse in the station: colour-mat warehouses, cards laid square by square."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from rules import Action, State
from rules.games.small_warehouse.referee import Referee
from station.catalogue.copy import MERCHANDISE, piece_id, pieces_of
from station.catalogue.learn import Lesson, card_piece
from station.games.camera import CameraLayout, one_mat_each
from station.games.record import CameraWiring, CatalogueWiring, GameRecord
from station.games.views import cell
from station.games.words import actor, at, plain
from station.inputs.small_warehouse import score_document
from station.jsonin import Node

NAME = "small-warehouse"
LEGEND = ("Letters A–E: the five kinds of merchandise · white square: an empty box")
KIT_PLAYERS = 2  # warehouse mats in the kit
MAT_ROWS, MAT_COLS = 8, 10


def view(state: State) -> dict[str, Any]:
    """Each warehouse: merchandise letters coloured by kind, empty boxes marked."""
    boards = []
    for player, grid in zip(state.players, state.data["grids"], strict=True):
        rows = [[None if char == "." else
                 cell("", "", "empty-box") if char == "#" else cell(char, char)
                 for char in line] for line in grid]
        boards.append({"title": f"{player}'s warehouse", "rows": rows})
    data = state.public_view()  # no hand card, no draw order: only what the table sees
    supply = [f"card {card}" if card else "a card not seen yet" for card in data["supply"]]
    pile = data["draw_pile"]
    lines = [f"Supply: {', '.join(supply) or 'empty'}",
             f"Draw pile: {pile} card{'' if pile == 1 else 's'}"]
    return {"boards": boards, "lines": lines}


def describe(state: State, action: Action) -> str:
    """"Ana placed card c20 from the supply at row 2, column 2, turned 90°"; from the hand,
    the supply card taken into the hand is named too."""
    who = actor(state)
    if action["type"] != "place":
        return f"{who}: {plain(action)}"
    source = {"supply": "from the supply", "hand": "from the hand"}.get(
        str(action.get("source")), f"from {action.get('source')}")
    turned = f", turned {int(action['rotation'])}°" if action.get("rotation") else ""  # degrees
    refill = f", then took {action['refill']} from the supply into the hand" \
        if action.get("refill") else ""
    return f"{who} placed card {action.get('card')} {source} at " \
        f"{at(action['row'], action['col'])}{turned}{refill}"


def reveal_label(state: State, action: Action) -> str:
    """``supply: c07``, ``Ana's starting card: c07``, ``Ben's hand: c07``."""
    zone, card = action.get("zone"), action.get("card")
    if zone == "supply":
        return f"supply: {card}"
    player = state.players[action["player"]]
    return f"{player}'s {'starting card' if zone == 'warehouse' else zone}: {card}"


class WarehouseReader:
    """Each player's warehouse mat, read as one observation."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        from vision.games.small_warehouse import read_warehouses

        return {"warehouses": {"kind": "warehouses",
                               "warehouses": read_warehouses(mats, self.layout.roles)}}


def lay(layout: CameraLayout, state: State, contents: dict[int, Any],
        tags: dict[tuple[str, str], int]) -> None:
    """Each warehouse's squares on its player's mat (for the demo's renderer)."""
    for player, mat_id in layout.roles.items():
        contents[mat_id].cells = list(state.data["grids"][state.players.index(player)])


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]) -> list[Any]:
    """A colour mat per player's warehouse."""
    from vision.kit import MatRequest

    return [MatRequest(NAME, f"player {p} warehouse", MAT_ROWS, MAT_COLS, "colour", sizes["cell"])
            for p in range(1, min(KIT_PLAYERS, per_game) + 1)]


# -- a copy's own catalogue --------------------------------------------------------------
def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's cards, each a grid of merchandise letters, ``#`` and ``.``."""
    ids: set[str] = set()

    def card(node: Node) -> dict[str, Any]:
        squares = node["squares"].grid(MERCHANDISE + "#.")
        if not "".join(squares).strip("."):
            raise node["squares"].fail("must have at least one square")
        return {"id": piece_id(node, None, "c", ids), "squares": squares}

    return {"cards": pieces_of(document, "cards", card)}


RECORD = GameRecord(
    name=NAME, title="Small Warehouse", order=10, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=partial(one_mat_each, NAME), reader=WarehouseReader, lay=lay),
    mats=mats,
    catalogue=CatalogueWiring(lesson=Lesson(NAME, "colour", "card", "cards", card_piece,
                                            id_prefix="c"), read=read_copy))
