"""Pick 'n Packers' drawing view: the drone challenge, face-down bets, the rounds in words."""

from __future__ import annotations

import json

from rules import get_game
from station.games import present


def test_a_speculation_card_stays_face_down_in_the_view_until_its_round_is_scored() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=1)
    bettor = state.players[state.current_player()]
    state.apply({"type": "speculate", "card": 7})
    view = present(state)
    assert view["drone"]["face_down"] == [bettor]
    assert "7" not in json.dumps(view)
    assert f"Speculation cards face down: {bettor}" in view["lines"]


def test_the_drone_line_names_loaded_presents_once_seen() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], deal="table")
    state.apply({"type": "speculate", "card": 3})
    state.apply({"type": "load"})
    assert "On the drone: card 0's present" in present(state)["lines"]
    state.apply({"type": "reveal", "zone": "present", "shop": 0, "present": "wood-2"})
    assert "On the drone: wood-2" in present(state)["lines"]


def test_pick_n_packers_says_the_round_and_past_rounds_in_words() -> None:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=4)
    pilots = " and ".join(state.data["pilots"])
    assert present(state)["lines"][0] == f"Round 1, bets being laid: {pilots} flying"
    while not state.data.get("results"):
        state.apply(state.legal_actions()[0])
    ended = present(state)["lines"][2]
    assert ended.startswith(f"Round 1: {pilots} reached shop card ")
    assert "-" not in ended.split(", ")[-1]  # the ending in words, not its code
