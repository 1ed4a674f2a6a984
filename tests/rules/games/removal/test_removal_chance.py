"""Removal's deal as chance steps: seeded from setup, or revealed at a table dealt by hand."""

from __future__ import annotations

import doctest
import importlib
import json
import random

import pytest

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.engine import REVEAL
from rules.games.removal import RemovalState
from rules.playout import play_randomly, random_reveal

GAME = get_game("removal")
CATALOGUE = default_catalogue("removal")
ITEMS = [item["id"] for item in CATALOGUE["items"]]
BOXES = [box["id"] for box in CATALOGUE["boxes"]]


def _players(count: int) -> list[str]:
    return [f"P{index + 1}" for index in range(count)]


def _table(count: int = 2, **options: bool) -> RemovalState:
    state = GAME.new_game(_players(count), options=options, deal="table")
    assert isinstance(state, RemovalState)
    return state


def _house_slots(count: int) -> list[tuple[int, int]]:
    layout = CATALOGUE["house"]["2" if count == 2 else "3-4"]["layout"]
    return [(row, col) for row, line in enumerate(layout) for col, area in enumerate(line)
            if area in "IB" or (area == "4" and count == 4)]


# -- seeded: the same draws as before, none of the order in the position ---------------------
@pytest.mark.parametrize("count", [2, 3, 4])
def test_a_seeded_deal_takes_the_piles_in_reading_order(count: int) -> None:
    state = GAME.new_game(_players(count), seed=5, options={"keepsakes": True})
    bag, boxes = iter(state.setup["bag"]), iter(state.setup["box_bag"])
    layout = state.layout
    for row, col in _house_slots(count):
        expected = next(boxes) if layout[row][col] == "B" else next(bag)
        assert state.data["house"][row][col] == expected
    assert state.data["waiting"] == [next(bag) for _ in state.data["waiting"]]
    assert state.data["keepsakes"] == state.setup["keepsakes"]
    assert state.data["to_reveal"] == [] and not state.is_chance()
    assert state.log == [] and len(state.seed_reveals) == len(_house_slots(count)) + len(
        state.data["waiting"]) + 3
    assert all(reveal["type"] == REVEAL for _, reveal in state.seed_reveals)


def test_the_position_holds_no_draw_order() -> None:
    state = play_randomly(GAME.new_game(_players(3), seed=2), random.Random(2))
    text = json.dumps(state.data)
    assert "bag" not in json.dumps(sorted(state.data)).replace("bag_next", "")
    never_drawn = state.setup["bag"][state.data["bag_next"]:]
    assert never_drawn and not any(f'"{item}"' in text for item in never_drawn)
    assert state.public_view() == state.data


def test_the_seeded_log_holds_only_the_players_actions() -> None:
    state = play_randomly(GAME.new_game(_players(2), seed=7), random.Random(7))
    assert all(action["type"] != REVEAL for action in state.log)
    rounds_dealt = [step for step, reveal in state.seed_reveals if reveal["zone"] == "house"
                    and (reveal["row"], reveal["col"]) == _house_slots(2)[0]]
    assert len(rounds_dealt) == 3 and rounds_dealt[0] == 0  # one deal per round


# -- dealt by hand ------------------------------------------------------------------------------
def test_a_table_deal_knows_no_order_and_waits_for_the_board() -> None:
    state = _table(keepsakes=True)
    assert set(state.setup) == {"catalogue", "side", "deal"}
    assert state.is_chance() and state.legal_actions() == []
    assert state.data["keepsakes"] == ["?"] * 3
    assert all(state.data["house"][row][col] == "?" for row, col in _house_slots(2))
    assert state.data["waiting"] == ["?"] * 3
    with pytest.raises(IllegalAction, match="revealed first"):
        state.apply({"type": "drive"})


def test_the_outcomes_are_the_unseen_components_of_the_next_slot() -> None:
    state = _table(keepsakes=True)
    outcomes = state.chance_outcomes()
    assert [outcome.action for outcome in outcomes] == [
        {"type": REVEAL, "zone": "keepsakes", "slot": 0, "keepsake": card}
        for card in CATALOGUE["keepsakes"]]
    assert all(outcome.count == 1 for outcome in outcomes)
    for card in ("yarn", "hat", "paw" if "paw" in CATALOGUE["keepsakes"] else "doll"):
        state.apply({"type": REVEAL, "zone": "keepsakes", "slot": len(
            [k for k in state.data["keepsakes"] if k != "?"]), "keepsake": card})
    first = state.chance_outcomes()  # the 2-player side's row 0 col 1 is an item area
    assert [o.action["item"] for o in first] == ITEMS
    assert first[0].action == {"type": REVEAL, "zone": "house", "row": 0, "col": 1,
                               "item": "I01"}
    state.apply({"type": REVEAL, "zone": "house", "row": 0, "col": 1, "item": "I05"})
    boxes = state.chance_outcomes()  # row 0 col 2 is a box area
    assert [o.action["item"] for o in boxes] == BOXES
    assert "I05" not in state.unseen() and "B01" in state.unseen()
    assert state.unseen()["I06"] == 1 and "yarn" not in state.unseen()


def test_unseen_counts_every_component_until_it_is_read() -> None:
    state = _table(count=4, keepsakes=True)
    assert sum(state.unseen().values()) == len(ITEMS) + len(BOXES) + len(
        CATALOGUE["keepsakes"])
    assert "yarn" not in _table().unseen()  # no keepsake cards without the variant


def test_refusals_say_why_and_change_nothing() -> None:
    state = _table()
    state.apply({"type": REVEAL, "zone": "house", "row": 0, "col": 1, "item": "I05"})
    before = state.to_json()
    refusals = {
        "the next thing to reveal is the house area at row 1, column 3":
            {"type": REVEAL, "zone": "house", "row": 1, "col": 0, "item": "B01"},
        "I05 is a(n)? item: the house area at row 1, column 3 takes a box":
            {"type": REVEAL, "zone": "house", "row": 0, "col": 2, "item": "I05"},
        "there is no box 'B99' in this copy":
            {"type": REVEAL, "zone": "house", "row": 0, "col": 2, "item": "B99"},
        "name a box for the house area at row 1, column 3":
            {"type": REVEAL, "zone": "house", "row": 0, "col": 2},
        "names only the zone, the place and the item":
            {"type": REVEAL, "zone": "house", "row": 0, "col": 2, "item": "B01", "x": 1},
    }
    for reason, action in refusals.items():
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    state.apply({"type": REVEAL, "zone": "house", "row": 0, "col": 2, "item": "B01"})
    with pytest.raises(IllegalAction, match="I05 is already on the table"):
        state.apply({"type": REVEAL, "zone": "house", "row": 0, "col": 3, "item": "I05"})
    assert state.to_json() != before and len(state.log) == 2


def test_nothing_to_reveal_once_the_deal_is_read() -> None:
    state = GAME.new_game(_players(2), seed=1)
    assert state.chance_outcomes() == [] and state.unread_slot() is None
    with pytest.raises(IllegalAction, match="nothing is waiting"):
        state.apply({"type": REVEAL, "zone": "house", "row": 0, "col": 1, "item": "I01"})


def test_each_round_is_dealt_again_with_the_waiting_items_known() -> None:
    state = _table(count=3)
    rng = random.Random(3)
    while state.data["round"] == 1:
        reveal = random_reveal(state, rng) if state.is_chance() else None
        state.apply(reveal or rng.choice(state.legal_actions()))
        if state.data["round"] == 1:
            waiting = list(state.data["waiting"])
    assert state.is_chance() and state.legal_actions() == []
    bottom = state.data["house"][-1]
    assert [tile for tile in bottom if tile not in (None, "?")] == waiting  # moved, not dealt
    slot = state.unread_slot()
    assert slot == {"type": REVEAL, "zone": "house", "row": 0, "col": 1}  # col 0: 4 players
    pending = state.data["to_reveal"]
    assert len(pending) == len(_house_slots(3)) - len(waiting) + 4
    assert pending[-4:] == [["waiting", index] for index in range(4)]


def _keepsake_points(stacks: list[list[str]], cards: list[str]) -> list[int]:
    """The rulebook's keepsake points: 4 to the single player with most, 2 to each of those
    tied on most (nobody when the most is 0)."""
    symbols = {item["id"]: item["symbol"] for item in CATALOGUE["items"] + CATALOGUE["boxes"]}
    points = [0] * len(stacks)
    for card in cards:
        counts = [sum(symbols[tile] == card for tile in stack) for stack in stacks]
        most = max(counts)
        leaders = [index for index, count in enumerate(counts) if most and count == most]
        for index in leaders:
            points[index] += 4 if len(leaders) == 1 else 2
    return points


def test_the_revealed_keepsakes_are_scored() -> None:
    rng = random.Random(4)
    state = _table(keepsakes=True)
    while not state.is_over():
        reveal = random_reveal(state, rng) if state.is_chance() else None
        state.apply(reveal or rng.choice(state.legal_actions()))
    stacks = [player["transported"] for player in state.data["players"]]
    assert [score.parts["keepsakes"] for score in state.scores()] == _keepsake_points(
        stacks, state.data["keepsakes"])
    assert sum(_keepsake_points(stacks, state.data["keepsakes"])) > 0


@pytest.mark.parametrize("module", ["rules.games.removal.engine", "rules.games.removal.deal",
                                    "rules.games.removal.truck", "rules.games.removal.scoring"])
def test_the_module_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed
