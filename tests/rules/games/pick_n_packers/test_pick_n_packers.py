"""Pick 'n Packers: setup, speculation, the drone's flight, scoring and the end of the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.games.pick_n_packers import (
    RoundResult,
    round_points,
    score_rounds,
    speculation_points,
)
from rules.playout import play_randomly

GAME = get_game("pick-n-packers")
PLAYERS = ["Ana", "Ben", "Cas", "Dee"]


def new_game(seed: int = 1, players: list[str] = PLAYERS, **options):
    return GAME.new_game(players, seed=seed, options=options)


def speculate(state, *cards: int) -> None:
    for card in cards:
        state.apply({"type": "speculate", "card": card})


def fly(state, reached: int) -> None:
    """Load and land safely until the drone has reached ``reached``."""
    for number in range(1, reached + 1):
        state.apply({"type": "load"})
        state.apply({"type": "land", "card": number % 9})


def test_default_catalogue_components() -> None:
    catalogue = default_catalogue("pick-n-packers")
    assert [shop["id"] for shop in catalogue["shop_cards"]] == [f"shop-{n}" for n in range(9)]
    materials = [present["material"] for present in catalogue["presents"]]
    assert materials.count("wood") == 6 and materials.count("paper") == 6
    assert all(present["mass_g"] > 0 for present in catalogue["presents"])


def test_setup_lays_the_shops_in_a_grid_and_deals_presents_for_every_round() -> None:
    state = new_game()
    layout = state.setup["layout"]
    assert [len(row) for row in layout] == [3, 3, 3]
    assert sorted(shop for row in layout for shop in row) == [f"shop-{n}" for n in range(9)]
    assert len(state.setup["deals"]) == len(PLAYERS)
    for deal in state.setup["deals"]:
        assert len(deal) == 9 and len(set(deal)) == 9
        assert set(deal) <= set(state.setup["presents"])
    assert len({tuple(deal) for deal in state.setup["deals"]}) > 1


def test_speculators_choose_clockwise_from_the_left_of_the_pilots() -> None:
    state = new_game(starting_player=2)
    assert [state.players[index] for index in state.pilots()] == ["Cas", "Dee"]
    assert state.data["pilots"] == ["Cas", "Dee"]
    assert state.current_player() == 0  # Ana sits left of Dee
    speculate(state, 3)
    assert state.current_player() == 1
    assert [action["card"] for action in state.legal_actions()] == [0, 1, 2, 4, 5, 6, 7, 8, 9]
    with pytest.raises(IllegalAction, match="remaining"):
        speculate(state, 3)
    speculate(state, 5)
    assert state.data["phase"] == "challenge"
    assert state.current_player() == 2  # the first pilot speaks for both


def test_rulebook_example_falling_between_six_and_seven_counts_six() -> None:
    state = new_game()
    speculate(state, 4, 6)  # Cas 4, Dee 6
    fly(state, 6)
    state.apply({"type": "load"})
    state.apply({"type": "fall"})
    result = state.data["results"][0]
    assert result["reached"] == 6 and result["ending"] == "fall"
    assert [score.total for score in state.scores()] == [6, 6, 4, 7]


def test_rulebook_speculation_scores() -> None:
    assert speculation_points(6, 6) == 7  # correct: card + 1
    assert speculation_points(4, 6) == 4  # lower: the card
    assert speculation_points(7, 6) == 0  # higher: nothing
    assert speculation_points(0, 0) == 1
    assert speculation_points(9, 9) == 10


def test_landing_back_on_zero_nine_reaches_nine_and_ends_the_round() -> None:
    state = new_game()
    speculate(state, 9, 8)
    fly(state, 8)
    state.apply({"type": "load"})
    state.apply({"type": "land", "card": 9})  # 9 names the "0/9" card too
    result = state.data["results"][0]
    assert (result["reached"], result["ending"]) == (9, "home")
    assert round_points(RoundResult(("Ana", "Ben"), 9, {"Cas": 9, "Dee": 8})) == {
        "Ana": 9, "Ben": 9, "Cas": 10, "Dee": 8}
    assert [score.total for score in state.scores()] == [9, 9, 10, 8]


def test_landing_on_another_card_ends_the_round_at_the_last_safe_card() -> None:
    state = new_game()
    speculate(state, 1, 2)
    fly(state, 2)
    state.apply({"type": "load"})
    state.apply({"type": "land", "card": 5})
    assert state.data["results"][0]["reached"] == 2
    assert state.data["results"][0]["ending"] == "wrong-landing"
    assert state.data["round"] == 1 and state.data["phase"] == "speculation"
    assert state.data["pilots"] == ["Ben", "Cas"]  # the next player clockwise starts
    assert (state.data["reached"], state.data["loaded"], state.data["speculations"]) == (0, [], {})


def test_touching_a_loaded_present_ends_the_round() -> None:
    state = new_game()
    speculate(state, 0, 1)
    fly(state, 1)
    state.apply({"type": "load"})
    state.apply({"type": "touch"})
    assert state.data["results"][0]["reached"] == 1
    assert [score.total for score in state.scores()] == [1, 1, 0, 2]


def test_loading_puts_the_present_of_the_drones_card_on_top() -> None:
    state = new_game()
    speculate(state, 0, 1)
    fly(state, 2)
    deal = state.setup["deals"][0]
    assert state.data["loaded"] == [0, 1]  # the shop cards whose presents are on the drone
    assert state.loaded_presents() == deal[:2]  # the seed reveals each present once loaded
    masses = state.setup["presents"]
    assert state.loaded_mass_g() == pytest.approx(sum(masses[p]["mass_g"] for p in deal[:2]))
    with pytest.raises(IllegalAction, match="lifting"):
        state.apply({"type": "land", "card": 3})
    state.apply({"type": "load"})
    with pytest.raises(IllegalAction, match="already"):
        state.apply({"type": "load"})


def test_nothing_can_fall_or_be_touched_before_a_present_is_loaded() -> None:
    state = new_game()
    speculate(state, 0, 1)
    assert state.legal_actions() == [{"type": "load"}]
    for kind in ("fall", "touch"):
        with pytest.raises(IllegalAction, match="no present"):
            state.apply({"type": kind})


def test_load_before_lift_option_off_lets_the_drone_fly_empty() -> None:
    state = new_game(load_before_lift=False)
    speculate(state, 0, 1)
    state.apply({"type": "land", "card": 1})
    assert state.data["reached"] == 1 and state.data["loaded"] == []


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"type": "land", "card": 1}, "speculators"),
        ({"type": "speculate", "card": 10}, "remaining"),
        ({"type": "speculate", "card": True}, "remaining"),
        ({"type": "speculate"}, "exactly"),
        ({"type": "lift"}, "no action"),
    ],
)
def test_wrong_actions_in_the_speculation_phase_are_refused(action: dict, reason: str) -> None:
    state = new_game()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)


def test_land_card_must_be_a_shop_number() -> None:
    state = new_game()
    speculate(state, 0, 1)
    state.apply({"type": "load"})
    for card in (10, -1, "1", 1.0, "shop-9", None):
        with pytest.raises(IllegalAction, match="0-9"):
            state.apply({"type": "land", "card": card})
    state.apply({"type": "land", "card": "shop-1"})  # the id the camera's tag names
    assert state.data["reached"] == 1


def test_game_ends_when_every_player_has_piloted_twice() -> None:
    state = play_randomly(new_game(seed=3), random.Random(3))
    results = state.data["results"]
    assert len(results) == len(PLAYERS)
    assert [result["pilots"] for result in results] == [
        ["Ana", "Ben"], ["Ben", "Cas"], ["Cas", "Dee"], ["Dee", "Ana"]]
    assert state.data["pilots"] == [] and state.data["phase"] == "over"
    pilot_turns = [sum(name in result["pilots"] for result in results) for name in PLAYERS]
    assert pilot_turns == [2, 2, 2, 2]
    rounds = state.round_results()
    assert score_rounds(PLAYERS, rounds).complete
    assert state.winners() == score_rounds(PLAYERS, rounds).winners


def test_three_players_take_three_rounds_with_one_speculator_each() -> None:
    state = new_game(players=["Ana", "Ben", "Cas"])
    assert state.speculators() == [2]
    state = play_randomly(state, random.Random(1))
    assert len(state.data["results"]) == 3


def test_scores_split_pilot_and_speculation_points() -> None:
    state = play_randomly(new_game(seed=8), random.Random(8))
    summary = score_rounds(PLAYERS, state.round_results())
    for score in state.scores():
        assert score.total == summary.totals[score.player]
        assert set(score.parts) == {"pilot", "speculation"}


def test_score_rounds_ties_share_the_win_and_incomplete_games_say_so() -> None:
    rounds = [RoundResult(("Ana", "Ben"), 3, {"Cas": 2})]
    summary = score_rounds(["Ana", "Ben", "Cas"], rounds)
    assert summary.totals == {"Ana": 3, "Ben": 3, "Cas": 2}
    assert summary.winners == ["Ana", "Ben"] and not summary.complete
    assert summary.rounds == [{"Ana": 3, "Ben": 3, "Cas": 2}]


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="starting_player"):
        new_game(starting_player=4)
    with pytest.raises(ValueError, match="no option"):
        new_game(rounds=2)


@given(st.integers(0, 9), st.lists(st.integers(0, 9), min_size=1, max_size=6, unique=True))
def test_round_points_follow_the_speculation_rule(reached: int, guesses: list[int]) -> None:
    names = [f"S{index}" for index in range(len(guesses))]
    speculations = dict(zip(names, guesses, strict=True))
    points = round_points(RoundResult(("P1", "P2"), reached, speculations))
    assert points["P1"] == points["P2"] == reached
    for name, guess in zip(names, guesses, strict=True):
        assert points[name] == (guess + 1 if guess == reached else guess if guess < reached else 0)
    assert sum(points[name] == guess + 1 for name, guess in zip(names, guesses, strict=True)) <= 1
