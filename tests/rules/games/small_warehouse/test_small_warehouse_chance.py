"""Small Warehouse's chance steps: seeded reveals, games dealt by hand, hidden hands, refusals."""

from __future__ import annotations

import doctest
import json
import random

import pytest

import rules.games.small_warehouse.engine as engine_module
from rules import IllegalAction, get_game
from rules.games.small_warehouse.referee import Referee
from rules.playout import random_step

GAME = get_game("small-warehouse")
PLAYERS = ["Ana", "Ben"]


def table_game():
    return GAME.new_game(PLAYERS, deal="table")


def started(first: str = "c01", second: str = "c02"):
    """A game dealt by hand with its two starting cards revealed."""
    state = table_game()
    state.apply({"type": "reveal", "zone": "warehouse", "player": 0, "card": first})
    state.apply({"type": "reveal", "zone": "warehouse", "player": 1, "card": second})
    return state


def supply(state, *cards: str) -> None:
    for card in cards:
        state.apply({"type": "reveal", "zone": "supply", "card": card})


def either(card: str, row: int = 3, col: int = 6, rotation: int = 0) -> dict:
    return {"type": "place", "source": "supply-or-hand", "card": card, "row": row, "col": col,
            "rotation": rotation}


def test_the_module_examples_run() -> None:
    assert doctest.testmod(engine_module).failed == 0


# -- seeded games -------------------------------------------------------------------------
def test_a_seeded_game_keeps_the_deal_in_setup_and_only_counts_in_the_position() -> None:
    state = GAME.new_game(PLAYERS, seed=7)
    assert state.data["draw_pile"] == 13 and state.data["loose"] == []
    assert None not in state.data["supply"] and None not in state.data["hands"][0]
    position = json.dumps(state.data)
    assert not any(card in position for card in state.setup["draw_pile"])
    assert sorted(state.unseen()) == sorted(state.setup["draw_pile"])
    assert [reveal["zone"] for _, reveal in state.seed_reveals] == (
        ["supply"] * 3 + ["warehouse"] * 2 + ["hand"] * 2)
    assert state.chance_outcomes() == [] and not state.is_chance()


def test_a_seeded_game_reveals_each_draw_from_the_seed_in_order_and_logs_no_reveal() -> None:
    state = GAME.new_game(PLAYERS, seed=7)
    rng = random.Random(7)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    draws = [reveal["card"] for step, reveal in state.seed_reveals if step > 0]
    assert draws == state.setup["draw_pile"]
    assert all(action["type"] == "place" for action in state.log)
    assert state.data["draw_pile"] == 0 and len(state.log) == 14


def test_a_hand_card_is_hidden_from_the_public_view_even_in_a_seeded_game() -> None:
    state = GAME.new_game(PLAYERS, seed=7)
    view = state.public_view()
    assert view["hands"] == [[None], [None]]
    assert state.data["hands"][0] != [None]
    assert view["supply"] == state.data["supply"] and view["grids"] == state.data["grids"]


def test_a_seeded_game_refuses_a_card_from_nowhere_and_an_unknown_refill() -> None:
    state = GAME.new_game(PLAYERS, seed=7)
    card = state.setup["draw_pile"][0]
    with pytest.raises(IllegalAction, match=f"there is no card '{card}' in the supply"):
        state.apply({"type": "place", "source": "supply", "card": card, "row": 3, "col": 6,
                     "rotation": 0})
    with pytest.raises(IllegalAction, match="source"):
        state.apply(either(card))
    hand = state.data["hands"][0][0]
    with pytest.raises(IllegalAction, match="None in the supply"):
        state.apply({"type": "place", "source": "hand", "card": hand, "row": 3, "col": 6,
                     "rotation": 0, "refill": None})


# -- dealt by hand: setup -----------------------------------------------------------------
def test_a_game_dealt_by_hand_waits_for_its_starting_cards() -> None:
    state = table_game()
    assert state.deal == "table" and state.setup == {"cards": state.setup["cards"],
                                                     "deal": "table"}
    assert state.is_chance() and state.legal_actions() == []
    zones = [outcome.action["zone"] for outcome in state.chance_outcomes()]
    assert (zones.count("warehouse"), zones.count("supply"), zones.count("hand")) == (40, 20, 40)
    assert all(outcome.count == 1 for outcome in state.chance_outcomes())
    assert state.unseen() == dict.fromkeys(sorted(state.setup["cards"]), 1)
    with pytest.raises(IllegalAction, match="revealed first"):
        state.apply(either("c03"))
    state.apply({"type": "reveal", "zone": "warehouse", "player": 1, "card": "c05"})
    assert state.is_chance() and state.data["grids"][1][3] == "...DBA...."
    assert state.data["placed"][1] == [{"card": "c05", "row": 3, "col": 3, "rotation": 0}]
    state.apply({"type": "reveal", "zone": "warehouse", "player": 0, "card": "c06"})
    assert not state.is_chance() and state.current_player() == 0
    assert state.data["supply"] == [None] * 3 and state.data["hands"] == [[None], [None]]
    assert state.data["draw_pile"] == 13 and len(state.unseen()) == 18


def test_the_issue_example_a_card_the_seed_did_not_put_in_the_supply_is_accepted() -> None:
    seeded = GAME.new_game(PLAYERS, seed=7)
    state = table_game()
    for player in (0, 1):
        state.apply({"type": "reveal", "zone": "warehouse", "player": player,
                     "card": seeded.setup["warehouse_cards"][player]})
    card = seeded.setup["draw_pile"][-1]  # the seed would have dealt it last
    laid = state.clone()
    laid.perform(either(card, 3, 6))
    reading = {"kind": "warehouses", "warehouses": [
        {"player": "Ana", "found": True, "grid": laid.data["grids"][0]}]}
    actions = Referee().translate(state, reading)
    assert [(action["source"], action["card"]) for action in actions] == [
        ("supply-or-hand", card)]
    state.apply(actions[0])
    assert state.data["grids"][0] == laid.data["grids"][0] and card not in state.unseen()


# -- dealt by hand: implicit reveals and what is recorded ------------------------------------
def test_laying_a_card_not_seen_reveals_it_and_the_draw_pile_refills_an_unknown_slot() -> None:
    state = started()
    state.apply(either("c19"))
    assert state.data["supply"] == [None] * 3 and state.data["draw_pile"] == 12
    assert "c19" not in state.unseen() and state.current_player() == 1
    assert state.data["placed"][0][-1] == {"card": "c19", "row": 3, "col": 6, "rotation": 0}


def test_a_known_hand_card_means_a_card_not_seen_came_from_the_supply() -> None:
    state = started()
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c07"})
    with pytest.raises(IllegalAction, match="c19 can only come from the supply: say so"):
        state.apply(either("c19"))
    listed = {(a["source"], a["card"]) for a in state.legal_actions()}
    assert ("supply", "c19") in listed and ("supply-or-hand", "c19") not in listed
    assert {a["refill"] for a in state.legal_actions() if a["source"] == "hand"} == {None}
    state.apply(dict(either("c19"), source="supply"))
    assert state.data["hands"][0] == ["c07"]


def test_a_known_supply_card_is_laid_from_the_supply() -> None:
    state = started()
    supply(state, "c03", "c04")
    state.apply(dict(either("c03"), source="supply"))
    assert state.data["supply"] == ["c04", None, None]
    with pytest.raises(IllegalAction, match="there is no card 'c04' in the hand: it is in "
                                            "the supply"):
        state.apply({"type": "place", "source": "hand", "card": "c04", "row": 3, "col": 6,
                     "rotation": 0, "refill": None})
    with pytest.raises(IllegalAction, match=r"c04 cannot have come unseen .*: it is in the supply"):
        state.apply(either("c04"))


def test_a_refill_not_seen_keeps_every_supply_card_possible() -> None:
    state = started()
    supply(state, "c03", "c04", "c05")
    state.apply({"type": "place", "source": "hand", "card": "c19", "row": 3, "col": 6,
                 "rotation": 0, "refill": None})
    # which of c03, c04, c05 went into Ana's hand is not known: all three are loose
    assert state.data["loose"] == ["c03", "c04", "c05"]
    assert state.data["supply"] == [None] * 3 and state.data["hands"][0] == [None]
    assert "c03" not in state.unseen()
    supply_reveals = {o.action["card"] for o in state.chance_outcomes()
                      if o.action["zone"] == "supply"}
    assert {"c03", "c04", "c05"} <= supply_reveals  # the person may say where they lie
    supply(state, "c04")
    assert state.data["loose"] == ["c03", "c05"] and state.data["supply"][0] == "c04"


def test_a_refill_named_goes_into_the_hand() -> None:
    state = started()
    supply(state, "c03", "c04", "c05")
    state.apply({"type": "place", "source": "hand", "card": "c19", "row": 3, "col": 6,
                 "rotation": 0, "refill": "c04"})
    assert state.data["hands"][0] == ["c04"] and state.data["supply"] == ["c03", "c05", None]
    assert state.public_view()["hands"][0] == [None]


def test_supply_or_hand_with_a_partly_known_supply_keeps_both_readings_open() -> None:
    state = started()
    supply(state, "c03")
    state.apply(either("c19"))
    # from the supply (c03 stays) or from the hand (c03 may be in Ana's hand now)
    assert state.data["loose"] == ["c03"] and state.data["supply"] == [None] * 3


def test_when_the_unknown_slots_hold_only_loose_cards_no_new_card_can_be_revealed() -> None:
    state = started()
    state.apply({"type": "reveal", "zone": "hand", "player": 1, "card": "c09"})
    supply(state, "c03", "c04", "c05")
    state.apply({"type": "place", "source": "hand", "card": "c19", "row": 3, "col": 6,
                 "rotation": 0, "refill": None})
    # unknown now: the three supply slots and Ana's hand; loose: c03, c04, c05
    supply(state, "c11")  # the card just drawn
    outcomes = {o.action["card"] for o in state.chance_outcomes()}
    assert outcomes == {"c03", "c04", "c05"}
    with pytest.raises(IllegalAction, match="c12 cannot be there: the unknown supply and hand "
                                            "cards are c03, c04, c05, seen before"):
        state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c12"})


def test_a_game_dealt_by_hand_ends_when_the_supply_cannot_be_refilled() -> None:
    state = started()
    rng = random.Random(1)
    turns = 0
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        turns += 1
    assert turns == 14 and [len(placed) for placed in state.data["placed"]] == [8, 8]
    assert state.data["draw_pile"] == 0 and len(state.data["supply"]) == 2


def test_a_random_game_dealt_by_hand_never_offers_an_impossible_step() -> None:
    for seed in range(20):
        state, rng = table_game(), random.Random(seed)
        while not state.is_over():
            state.apply(random_step(state, rng, reveal_chance=0.7))
            unknown = (state.data["supply"].count(None)
                       + sum(hand.count(None) for hand in state.data["hands"]))
            fresh = len(state.unseen()) - state.data["draw_pile"]
            fresh -= sum(not placed for placed in state.data["placed"])
            assert unknown == fresh + len(state.data["loose"])  # every slot holds a card
        assert GAME.replay(state.to_json()) == state


# -- refusals ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reveal", "reason"),
    [
        ({"zone": "supply", "card": "c01"}, "c01 is already in Ana's warehouse"),
        ({"zone": "supply", "card": "x9"}, "there is no card 'x9' in this copy"),
        ({"zone": "hand", "player": 1, "card": "c03"}, "c03 is already in the supply"),
        ({"zone": "hand", "player": 0, "card": "c08"}, "Ana's hand card is already known"),
        ({"zone": "warehouse", "player": 1, "card": "c09"},
         r"Ben's starting card is already on the table \(c02\)"),
        ({"zone": "hand", "player": 2, "card": "c09"},
         r"'player' must be 0 to 1 \(the first player, Ana, is 0\), not 2"),
        ({"zone": "hand", "player": True, "card": "c09"}, "'player' must be 0 to 1 .*not True"),
        ({"zone": "deck", "card": "c09"}, "a Small Warehouse reveal is"),
        ({"zone": "supply", "player": 0, "card": "c09"}, "a Small Warehouse reveal is"),
    ],
)
def test_a_reveal_that_cannot_be_is_refused_with_a_reason(reveal: dict, reason: str) -> None:
    state = started()
    supply(state, "c03")
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c07"})
    before = state.to_json()
    with pytest.raises(IllegalAction, match=reason):
        state.apply({"type": "reveal", **reveal})
    assert state.to_json() == before


def test_a_full_supply_takes_no_reveal() -> None:
    state = started()
    supply(state, "c03", "c04", "c05")
    with pytest.raises(IllegalAction, match="every supply card is already known"):
        supply(state, "c06")
