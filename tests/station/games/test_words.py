"""Actions in words (station/games/words.py and each game's ``describe``)."""

from __future__ import annotations

import doctest

import pytest

import station.games.words as words_module
from rules import get_game
from station.games import describe_action


def test_doctests() -> None:
    assert doctest.testmod(words_module).failed == 0


def _played(game: str, moves: int):
    players = ["Ana", "Ben", "Cas"][:max(2, get_game(game).min_players)]
    state = get_game(game).new_game(players, seed=4)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("game", ["moving-day", "removal", "small-warehouse"])
def test_every_legal_action_has_words_of_its_own(game: str) -> None:
    """The referee's picker tells the legal actions apart by their words alone."""
    state = _played(game, 3)
    said = [describe_action(state, action) for action in state.legal_actions()]
    assert len(said) > 1 and len(set(said)) == len(said)
    assert not any("{" in line for line in said)


def test_a_speculation_card_laid_face_down_is_said_without_its_number() -> None:
    state = _played("pick-n-packers", 0)
    bet = next(a for a in state.legal_actions() if a["type"] == "speculate")
    assert state.public_action(bet)["card"] is None  # a face-down card shows no number
    who = state.players[state.current_player()]
    assert describe_action(state, bet) == f"{who} laid a speculation card face down"


def test_removal_says_the_turn_in_degrees_and_the_helper_cards_played() -> None:
    state = _played("removal", 0)
    turned = next(a for a in state.legal_actions()
                  if a["type"] == "load" and a["rotation"] == 90 and a.get("helpers"))
    said = describe_action(state, turned)
    cards = " and ".join(str(card) for card in turned["helpers"])
    plural = "s" if len(turned["helpers"]) > 1 else ""
    assert ", turned 90°" in said and said.endswith(f" with helper card{plural} {cards}")
