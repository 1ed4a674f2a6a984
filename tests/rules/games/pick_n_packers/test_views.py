"""Pick 'n Packers' read-only views: what the station's presenter reads instead of ``data``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import get_game
from rules.games.pick_n_packers import PickNPackersState, PlayedRound


def _new(seed: int = 2) -> PickNPackersState:
    state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas", "Dee"], seed=seed)
    assert isinstance(state, PickNPackersState)
    return state


def test_the_round_in_play() -> None:
    state = _new()
    assert state.phase == "speculation" and state.reached == 0
    assert state.round_pilots() == ("Ana", "Ben") and state.laid_speculations() == ()
    state.apply({"type": "speculate", "card": 4})
    assert state.laid_speculations() == ("Cas",)
    assert state.laid_speculations() == tuple(state.public_view()["speculations"])
    state.apply({"type": "speculate", "card": 6})
    assert state.phase == "challenge"
    state.apply({"type": "load"})
    state.apply({"type": "land", "card": 1})
    state.apply({"type": "load"})
    assert state.reached == 1 and state.loaded_cards() == (0, 1)
    assert [state.present_on_card(card) for card in state.loaded_cards()] == \
        state.loaded_presents()


def test_played_rounds_turn_their_cards_up() -> None:
    state = _new()
    state.apply({"type": "speculate", "card": 4})
    state.apply({"type": "speculate", "card": 0})
    state.apply({"type": "load"})
    state.apply({"type": "fall"})
    (played,) = state.played_rounds()
    assert played == PlayedRound(("Ana", "Ben"), 0, {"Cas": 4, "Dee": 0}, "fall")
    raw = state.data["results"][0]
    assert (list(played.pilots), played.reached, dict(played.speculations), played.ending) == \
        (raw["pilots"], raw["reached"], raw["speculations"], raw["ending"])
    with pytest.raises(TypeError):
        played.speculations["Cas"] = 9  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        played.reached = 9  # type: ignore[misc]


def test_a_game_over_has_no_pilots_and_every_round() -> None:
    state = _new(5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert state.phase == "over" and state.round_pilots() == ()
    assert len(state.played_rounds()) == len(state.data["results"]) == 4
    assert [played.reached for played in state.played_rounds()] == \
        [result.reached for result in state.round_results()]
