"""The board entry's taps (station/games/tapping.py and each game's): every legal action of
a game with a board entry is tapped, no two actions by the same taps, each choice in words
(never a component's id) and each piece and turn drawn."""

from __future__ import annotations

import random

import pytest

from rules import get_game
from station.games import board_moves, game_record, pictured_outcomes

GAMES = ("small-warehouse", "removal")


def positions(game: str, deal: str):  # type: ignore[no-untyped-def]
    """A few positions of a game, seeded or dealt by hand (reveals taken at random)."""
    chooser = random.Random(3)
    state = (get_game(game).new_game(["Ana", "Ben"], seed=3) if deal == "seed"
             else get_game(game).new_game(["Ana", "Ben"], deal="table"))
    for _ in range(6):
        while state.is_chance():
            state.apply(chooser.choice(state.chance_outcomes()).action)
        if state.is_over():
            break
        yield state
        state.apply(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize("deal", ["seed", "table"])
@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_is_tapped_once(game: str, deal: str) -> None:
    for state in positions(game, deal):
        entry = board_moves(state, state.legal_actions())
        assert entry["untapped"] == 0 and len(entry["moves"]) == len(state.legal_actions())
        taps = [tuple(move["keys"]) for move in entry["moves"]]
        assert len(set(taps)) == len(taps)  # the taps tell every action apart
        assert entry["player"] == state.players[state.current_player()]
        ids = set(state.setup.get("cards", {})) | set(getattr(state, "entries", {}))
        for choice in entry["choices"].values():
            assert choice["words"] and not any(f" {tile} " in f" {choice['words']} "
                                               for tile in ids), choice
            if choice["step"] == "place" and "board" in choice:
                assert choice["board"] in {b["title"] for b in
                                           game_record(game).presenter(state)["boards"]}
        for move in entry["moves"]:
            place = entry["choices"].get(move["keys"][1] or "", {})
            if place.get("board"):  # its place is among the squares it covers
                assert place["at"] in move["cells"]


@pytest.mark.parametrize("game", GAMES)
def test_every_reveal_is_drawn_and_said_by_the_catalogue(game: str) -> None:
    state = get_game(game).new_game(["Ana", "Ben"], deal="table")
    found = pictured_outcomes(state, state.chance_outcomes())
    assert found and all(outcome["words"] for outcome in found)
    assert all(outcome.get("picture") for outcome in found if "item" in outcome["action"]
               or "card" in outcome["action"])


def test_a_game_without_taps_has_no_board_entry() -> None:
    state = get_game("moving-day").new_game(["Ana", "Ben"], seed=1)
    entry = board_moves(state, state.legal_actions())
    assert entry["moves"] == [] and entry["untapped"] == len(state.legal_actions())
