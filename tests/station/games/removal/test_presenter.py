"""Removal's drawing view: storage and helper cards in words."""

from __future__ import annotations

from rules import get_game
from station.games import present


def test_removal_says_storage_and_helper_cards_in_words() -> None:
    state = get_game("removal").new_game(["Ana", "Ben"], seed=4)
    store = next(a for a in state.legal_actions() if a["type"] == "store" and not a["helpers"])
    state.apply(store)
    names = {piece["id"]: piece["name"] for piece in state.setup["catalogue"]["items"]}
    assert present(state)["lines"] == [
        "Round 1", f"Ana: the {names[store['item']]} in storage · helper cards 1, 2 and 3 left",
        "Ben: storage empty · helper cards 1, 2 and 3 left"]
