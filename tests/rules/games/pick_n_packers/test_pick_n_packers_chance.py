"""Pick 'n Packers' chance steps: the shop layout and the present cards, seeded or dealt by hand."""

from __future__ import annotations

import doctest
import random

import pytest

from rules import IllegalAction, get_game
from rules.games.pick_n_packers import engine as module

GAME = get_game("pick-n-packers")
PLAYERS = ["Ana", "Ben", "Cas", "Dee"]
SHOPS = [f"shop-{number}" for number in range(9)]


def table_game(**options):
    return GAME.new_game(PLAYERS, options=options, deal="table")


def shop(row: int, col: int, card: str) -> dict:
    return {"type": "reveal", "zone": "shop", "row": row, "col": col, "card": card}


def present(number: int, name: str) -> dict:
    return {"type": "reveal", "zone": "present", "shop": number, "present": name}


def speculate(state, *cards: int) -> None:
    for card in cards:
        state.apply({"type": "speculate", "card": card})


def test_the_module_examples_run() -> None:
    assert doctest.testmod(module).failed == 0


def test_a_seeded_game_reveals_its_layout_at_setup_and_logs_no_reveal() -> None:
    state = GAME.new_game(PLAYERS, seed=4)
    assert state.data["shop"] == state.setup["layout"]
    assert state.data["present_cards"] == [None] * 9  # nothing loaded yet: not seen
    assert [reveal for _, reveal in state.seed_reveals] == [
        shop(row, col, state.setup["layout"][row][col]) for row in range(3) for col in range(3)]
    assert state.log == [] and state.chance_outcomes() == [] and not state.is_chance()


def test_a_seeded_game_reveals_each_present_as_it_is_loaded() -> None:
    state = GAME.new_game(PLAYERS, seed=4)
    deal = state.setup["deals"][0]
    speculate(state, 0, 1)
    state.apply({"type": "load"})
    assert state.seed_reveals[-1] == (3, present(0, deal[0]))
    assert state.data["present_cards"] == [deal[0]] + [None] * 8
    state.apply({"type": "land", "card": 1})
    state.apply({"type": "load"})
    assert state.loaded_presents() == deal[:2]
    assert state.log == [{"type": "speculate", "card": 0}, {"type": "speculate", "card": 1},
                         {"type": "load"}, {"type": "land", "card": 1}, {"type": "load"}]
    state.apply({"type": "fall"})  # the next round deals the present cards again
    assert state.data["present_cards"] == [None] * 9 and state.data["loaded"] == []


def test_a_seeded_game_refuses_a_reveal_by_hand() -> None:
    state = GAME.new_game(PLAYERS, seed=4)
    with pytest.raises(IllegalAction, match="seed dealt this game"):
        state.apply(present(0, "wood-1"))


def test_the_seeded_deal_is_the_same_as_before_chance() -> None:
    """The seed draws the layout and deals as before: same seed, same setup."""
    state = GAME.new_game(PLAYERS, seed=11)
    rng = random.Random(11)
    layout = list(SHOPS)
    rng.shuffle(layout)
    assert [card for row in state.setup["layout"] for card in row] == layout
    presents = sorted(state.setup["presents"])
    rng.shuffle(presents)
    assert state.setup["deals"][0] == presents[:9]


def test_a_hand_dealt_game_starts_with_everything_unknown_and_nothing_blocking() -> None:
    state = table_game()
    assert state.deal == "table" and not state.is_chance()
    assert "layout" not in state.setup and "deals" not in state.setup
    assert state.data["shop"] == [[None] * 3] * 3 and state.data["present_cards"] == [None] * 9
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 9 * 9 + 9 * 12 and all(outcome.count == 1 for outcome in outcomes)
    assert outcomes[0].action == shop(0, 0, "shop-0")
    assert outcomes[-1].action == present(8, "paper-6")
    unseen = state.unseen()
    assert set(unseen) == set(SHOPS) | set(state.setup["presents"])
    assert set(unseen.values()) == {1}
    # Nothing needs revealing before a player acts: speculation and the flight go on.
    speculate(state, 3, 5)
    state.apply({"type": "load"})
    state.apply({"type": "land", "card": 1})
    assert state.data["loaded"] == [0] and state.loaded_presents() == [None]
    assert state.loaded_mass_g() is None


def test_reveals_fill_the_grid_and_the_present_cards_and_leave_the_outcomes() -> None:
    state = table_game()
    state.apply(shop(2, 1, "shop-7"))
    state.apply(present(4, "wood-3"))
    assert state.data["shop"][2][1] == "shop-7"
    assert state.present_on_card(4) == "wood-3"
    actions = [outcome.action for outcome in state.chance_outcomes()]
    assert len(actions) == 8 * 8 + 8 * 11
    assert not any(action.get("card") == "shop-7" or action.get("present") == "wood-3"
                   for action in actions)
    assert "shop-7" not in state.unseen() and "wood-3" not in state.unseen()
    assert [entry["type"] for entry in state.log] == ["reveal", "reveal"]


def test_a_present_revealed_after_loading_names_the_loaded_present() -> None:
    state = table_game()
    speculate(state, 0, 1)
    state.apply({"type": "load"})
    state.apply(present(0, "wood-6"))
    assert state.loaded_presents() == ["wood-6"]
    assert state.loaded_mass_g() == pytest.approx(19.0)


def test_a_new_round_deals_the_present_cards_again() -> None:
    state = table_game()
    state.apply(present(0, "wood-6"))
    speculate(state, 0, 1)
    state.apply({"type": "load"})
    state.apply({"type": "touch"})
    assert state.data["present_cards"] == [None] * 9
    state.apply(present(0, "wood-6"))  # the same present again: the cards were reshuffled
    assert state.unseen()["wood-5"] == 1


@pytest.mark.parametrize(("setup", "reveal", "reason"), [
    ([], shop(0, 0, "shop-9"), "no shop card 'shop-9' in this copy"),
    ([], shop(3, 0, "shop-1"), "'row' and 'col' are 0 to 2"),
    ([], shop(True, 0, "shop-1"), "'row' and 'col' are 0 to 2"),
    ([shop(0, 0, "shop-1")], shop(1, 1, "shop-1"), "shop-1 already lies in row 1, column 1"),
    ([shop(0, 0, "shop-1")], shop(0, 0, "shop-2"), "row 1, column 1 already holds shop-1"),
    ([], present(9, "wood-1"), "number 0-8"),
    ([], present(2, "gold-1"), "no present 'gold-1' in this copy"),
    ([present(2, "wood-1")], present(3, "wood-1"), "wood-1 already lies under shop card 2"),
    ([present(2, "wood-1")], present(2, "wood-2"), "under shop card 2 is already known: wood-1"),
    ([], {"type": "reveal", "zone": "hand", "card": "x"}, "zone 'shop' or 'present'"),
    ([], {"type": "reveal", "zone": "shop", "card": "shop-1"}, "exactly"),
])
def test_a_reveal_that_is_no_legal_outcome_is_refused_with_a_reason(
        setup: list[dict], reveal: dict, reason: str) -> None:
    state = table_game()
    for action in setup:
        state.apply(action)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(reveal)
    assert state.to_json() == before
    assert reason in state.reveal_refusal(reveal, state.chance_outcomes())


def test_check_reveal_agrees_with_the_outcomes() -> None:
    state = table_game()
    state.apply(shop(1, 1, "shop-4"))
    state.apply(present(1, "paper-2"))
    for outcome in state.chance_outcomes():
        state.check_reveal(outcome.action)  # every outcome is legal
    for row in range(3):
        for col in range(3):
            for card in SHOPS:
                legal = shop(row, col, card) in [o.action for o in state.chance_outcomes()]
                try:
                    state.check_reveal(shop(row, col, card))
                    assert legal
                except IllegalAction:
                    assert not legal


def test_speculation_cards_lie_face_down_in_the_public_view() -> None:
    state = GAME.new_game(PLAYERS, seed=2)
    speculate(state, 7)
    assert state.data["speculations"] == {"Cas": 7}
    view = state.public_view()
    assert view["speculations"] == {"Cas": None}
    assert "deals" not in view and "layout" not in view
    assert view["shop"] == state.setup["layout"]
    state.apply({"type": "speculate", "card": 2})
    state.apply({"type": "load"})
    state.apply({"type": "fall"})
    assert state.public_view()["results"][0]["speculations"] == {"Cas": 7, "Dee": 2}


def test_the_position_holds_no_future_deal() -> None:
    state = GAME.new_game(PLAYERS, seed=9)
    speculate(state, 0, 1)
    state.apply({"type": "load"})
    assert "deals" not in state.data and "layout" not in state.data
    assert [p for p in state.data["present_cards"] if p] == [state.setup["deals"][0][0]]


def test_a_hand_dealt_game_plays_to_the_end_without_any_reveal() -> None:
    state, rng = table_game(), random.Random(5)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert not any(action["type"] == "reveal" for action in state.log)
    assert len(state.data["results"]) == len(PLAYERS)
    assert state.unseen()  # the layout was never seen, and that is fine


def test_nothing_is_revealed_once_the_game_is_over() -> None:
    state, rng = table_game(), random.Random(2)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    assert state.chance_outcomes() == []
    with pytest.raises(IllegalAction, match="game is over"):
        state.check_reveal(shop(0, 0, "shop-1"))
