"""Small Warehouse's drawing view: only what the table sees of the supply and the pile."""

from __future__ import annotations

from rules import get_game
from station.games import present


def test_small_warehouse_shows_the_supply_seen_and_the_draw_pile_count_only() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    for player, card in enumerate(["c01", "c02"]):
        state.apply({"type": "reveal", "zone": "warehouse", "player": player, "card": card})
    state.apply({"type": "reveal", "zone": "supply", "card": "c07"})
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c09"})
    lines = present(state)["lines"]
    assert lines == ["Supply: card c07, a card not seen yet, a card not seen yet",
                     "Draw pile: 13 cards"]
