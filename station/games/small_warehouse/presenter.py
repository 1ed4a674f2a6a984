"""Small Warehouse's drawing view: each warehouse's merchandise, the supply and the pile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rules import State
from rules.games.small_warehouse import SmallWarehouseState
from station.games.views import cell

LEGEND = ("Letters A–E: the five kinds of merchandise · tan square: an empty box")


def view(state: State) -> dict[str, Any]:
    """Each warehouse: merchandise letters coloured by kind, empty boxes marked; then each
    face-up supply card drawn as it lies, and said by its squares (not by its id)."""
    warehouse = cast(SmallWarehouseState, state)  # this presenter is Small Warehouse's record's
    boards = [{"title": f"{player}'s warehouse", "rows": drawn(warehouse.grid(index))}
              for index, player in enumerate(state.players)]
    # the supply's face-up cards and the pile's count only: no hand card, no draw order
    supply = []
    for number, card in enumerate(warehouse.supply_cards(), 1):
        if card is None:
            supply.append("a card not seen yet")
            continue
        squares = warehouse.setup["cards"][card]  # a face-up card: the table sees its squares
        boards.append({"title": f"Supply card {number}", "rows": drawn(squares)})
        supply.append(f"card {number} ({card_words(squares)})")
    pile = warehouse.draw_pile_count
    lines = [f"Supply: {', '.join(supply) or 'empty'}",
             f"Draw pile: {pile} card{'' if pile == 1 else 's'}"]
    return {"boards": boards, "lines": lines}


def drawn(grid: Sequence[str]) -> list[list[dict[str, Any] | None]]:
    """A grid of merchandise letters, ``#`` (an empty box) and ``.`` (nothing) as cells."""
    return [[None if char == "." else
             cell("", "", "empty-box") if char == "#" else cell(char, char)
             for char in line] for line in grid]


def card_words(squares: Sequence[str]) -> str:
    """A card by what it holds, row by row, as people at the table see it.

    >>> card_words(["AB", "#."])
    'A, B and an empty box'
    >>> card_words(["CC"])
    'C and C'
    """
    said = ["an empty box" if char == "#" else char
            for line in squares for char in line if char != "."]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
