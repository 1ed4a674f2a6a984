"""Small Warehouse's drawing view: each warehouse's merchandise, the supply and the pile."""

from __future__ import annotations

from typing import Any

from rules import State
from station.games.views import cell

LEGEND = ("Letters A–E: the five kinds of merchandise · white square: an empty box")


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
