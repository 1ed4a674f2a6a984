"""Small Warehouse in words: a turned card in degrees, the card taken into the hand."""

from __future__ import annotations

from rules import get_game
from station.games import describe_action


def _played(moves: int):
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=4)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state


def test_small_warehouse_says_the_turn_in_degrees_and_the_card_taken_into_the_hand() -> None:
    state = _played(3)
    hand = next(a for a in state.legal_actions()
                if a["source"] == "hand" and a["rotation"] == 90 and a.get("refill"))
    said = describe_action(state, hand)
    assert said.endswith(f"turned 90°, then took {hand['refill']} from the supply into the hand")
    assert f"placed card {hand['card']} from the hand at " in said


def test_a_turned_card_is_said_in_degrees() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=2)
    action = {"type": "place", "source": "supply", "card": "c07", "row": 2, "col": 4,
              "rotation": 90}
    assert describe_action(state, action).endswith("at row 3, column 5, turned 90°")
