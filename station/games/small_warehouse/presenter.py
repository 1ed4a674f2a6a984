"""Small Warehouse's drawing view: each warehouse's merchandise, the supply and the pile."""

from __future__ import annotations

from typing import Any, cast

from rules import State
from rules.games.small_warehouse import SmallWarehouseState
from station.games.views import cell

LEGEND = ("Letters A–E: the five kinds of merchandise · white square: an empty box")


def view(state: State) -> dict[str, Any]:
    """Each warehouse: merchandise letters coloured by kind, empty boxes marked."""
    warehouse = cast(SmallWarehouseState, state)  # this presenter is Small Warehouse's record's
    boards = []
    for index, player in enumerate(state.players):
        rows = [[None if char == "." else
                 cell("", "", "empty-box") if char == "#" else cell(char, char)
                 for char in line] for line in warehouse.grid(index)]
        boards.append({"title": f"{player}'s warehouse", "rows": rows})
    # the supply's face-up cards and the pile's count only: no hand card, no draw order
    supply = [f"card {card}" if card else "a card not seen yet"
              for card in warehouse.supply_cards()]
    pile = warehouse.draw_pile_count
    lines = [f"Supply: {', '.join(supply) or 'empty'}",
             f"Draw pile: {pile} card{'' if pile == 1 else 's'}"]
    return {"boards": boards, "lines": lines}
