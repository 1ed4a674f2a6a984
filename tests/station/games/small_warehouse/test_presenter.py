"""Small Warehouse's drawing view: only what the table sees of the supply and the pile."""

from __future__ import annotations

from rules import get_game
from station.games import present
from station.games.small_warehouse.presenter import LEGEND, card_words


def test_small_warehouse_shows_the_supply_seen_and_the_draw_pile_count_only() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    for player, card in enumerate(["c01", "c02"]):
        state.apply({"type": "reveal", "zone": "warehouse", "player": player, "card": card})
    state.apply({"type": "reveal", "zone": "supply", "card": "c07"})
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c09"})
    view = present(state)
    squares = state.setup["cards"]["c07"]
    # the face-up card by its squares (drawn, and in words), never by its id
    assert view["lines"] == [f"Supply: card 1 ({card_words(squares)}), a card not seen yet,"
                             " a card not seen yet", "Draw pile: 13 cards"]
    assert "c07" not in str(view)
    assert [board["title"] for board in view["boards"]] == [
        "Ana's warehouse", "Ben's warehouse", "Supply card 1"]
    assert len(view["boards"][2]["rows"]) == len(squares)


def test_the_legend_says_an_empty_box_is_drawn_tan() -> None:
    # draw.js fills an empty box #b08d57: tan, not white
    assert "tan square: an empty box" in LEGEND and "white" not in LEGEND
