"""Small Warehouse's read-only views: what the station's presenter reads instead of ``data``."""

from __future__ import annotations

import random

from rules import get_game
from rules.games.small_warehouse import SmallWarehouseState


def _played(turns: int, deal: str = "seed") -> SmallWarehouseState:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=6, deal=deal)
    rng = random.Random(6)
    for _ in range(turns):
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, SmallWarehouseState)
    return state


def test_grids_supply_and_draw_pile() -> None:
    state = _played(5)
    for player in range(2):
        grid = state.grid(player)
        assert isinstance(grid, tuple) and list(grid) == state.data["grids"][player]
    view = state.public_view()
    assert list(state.supply_cards()) == view["supply"]
    assert state.draw_pile_count == view["draw_pile"] == 13 - 5


def test_a_game_dealt_by_hand_shows_unseen_supply_cards_as_none() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    state.apply({"type": "reveal", "zone": "warehouse", "player": 0, "card": "c01"})
    state.apply({"type": "reveal", "zone": "warehouse", "player": 1, "card": "c02"})
    assert state.supply_cards() == (None, None, None) and state.draw_pile_count == 13
    state.apply({"type": "reveal", "zone": "supply", "card": "c07"})
    assert state.supply_cards() == ("c07", None, None)
    assert state.grid(0) != state.grid(1)
