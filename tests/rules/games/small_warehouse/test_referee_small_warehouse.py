"""The Small Warehouse camera referee: seeded games seen by the camera, and its refusals.

Observations are made the way the station makes them: the warehouse mats as
``vision read`` returns them, put through ``vision.games.small_warehouse``'s
reader, so a change of the reader's format shows up here.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

import rules.games.small_warehouse.referee as referee_module
from rules import AmbiguousReading, IllegalAction, State, get_game
from rules.catalogue import default_catalogue
from rules.games.small_warehouse import rotate_clockwise
from rules.games.small_warehouse.referee import Referee
from vision.games.small_warehouse import read_warehouses

MATS = {"Ana": 0, "Ben": 1}


def seen_by_camera(state: State, unknown: dict[str, set[tuple[int, int]]] | None = None,
                   **extra: Any) -> dict[str, Any]:
    """The observation the station gives for ``state``: each mat read, ``unknown`` cells '?'."""
    mats = []
    for index, (player, mat_id) in enumerate(MATS.items()):
        hidden = (unknown or {}).get(player, set())
        cells = ["".join("?" if (row, col) in hidden else symbol
                         for col, symbol in enumerate(line))
                 for row, line in enumerate(state.data["grids"][index])]
        mats.append({"id": mat_id, "found": True, "cells": cells, "tags": []})
    return {"kind": "warehouses", "warehouses": read_warehouses(mats, MATS), **extra}


def unchanged_cells(before: State, after: State, player: int, rng: random.Random,
                    count: int) -> set[tuple[int, int]]:
    """``count`` random cells the last card did not cover (what a hand might hide)."""
    old, new = before.data["grids"][player], after.data["grids"][player]
    same = [(r, c) for r, line in enumerate(new) for c, symbol in enumerate(line)
            if symbol == old[r][c]]
    return set(rng.sample(same, count))


def catalogue_without_twins() -> dict[str, Any]:
    """The default cards with one square of the second of two equal cards changed, so every
    card differs however it is turned (no camera tells twins apart: see the twin test)."""
    catalogue = default_catalogue("small-warehouse")
    cards = catalogue["cards"]
    seen: set[tuple[str, ...]] = set()
    for card in cards:
        if tuple(card["squares"]) in seen:
            card["squares"] = ["B" + card["squares"][0][1:], *card["squares"][1:]]
        seen.add(tuple(card["squares"]))
    turns = [{tuple(rotate_clockwise(card["squares"], r)) for r in (0, 90, 180, 270)}
             for card in cards]
    assert len(set().union(*turns)) == sum(len(turned) for turned in turns)
    return catalogue


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_seeded_game_seen_by_the_camera_is_the_game_played(seed: int) -> None:
    rng = random.Random(seed)
    game = get_game("small-warehouse")
    played = game.new_game(["Ana", "Ben"], seed=seed, catalogue=catalogue_without_twins())
    refereed = game.new_game(["Ana", "Ben"], seed=seed, catalogue=catalogue_without_twins())
    referee = Referee()
    turn = asked = 0
    while not played.is_over():
        before = played.clone()
        player = played.current_player()
        hint = turn % 2 == 0
        action = rng.choice(played.legal_actions())
        played.apply(action)
        hidden = {played.players[player]: unchanged_cells(before, played, player, rng, 3),
                  played.players[1 - player]: {(rng.randrange(8), rng.randrange(10))}}
        extra = {"refill": action["refill"]} if hint and "refill" in action else {}
        observation = seen_by_camera(played, hidden, **extra)
        untouched = refereed.to_json()
        try:
            actions = referee.translate(refereed, observation)
        except AmbiguousReading as question:  # e.g. nobody said which card went into the hand
            assert [action] in [reading.actions for reading in question.readings], turn
            actions, asked = [action], asked + 1  # the person picks the card played
        assert refereed.to_json() == untouched  # translate never changes the state
        assert actions == [action], f"turn {turn}"
        refereed.apply(actions[0])
        assert referee.translate(refereed, observation) == []  # the same view, seen again
        turn += 1
    assert refereed == played
    assert turn > 5
    assert 0 < asked < turn


def test_no_change_and_other_kinds_and_mats_not_found_give_nothing() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    referee = Referee()
    assert referee.translate(state, seen_by_camera(state)) == []
    assert referee.translate(state, {"kind": "truck", "tiles": []}) == []
    lost = {"kind": "warehouses", "warehouses": [{"player": "Ana", "found": False},
                                                  {"player": "Ben", "found": False}]}
    assert referee.translate(state, lost) == []


def placed_copy(state: State, action: dict[str, Any]) -> State:
    after = state.clone()
    after.apply(action)
    return after


def test_a_card_from_the_hand_refills_with_the_hint_or_the_referee_asks() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    supply = state.data["supply"]
    from_hand = next(a for a in state.legal_actions()
                     if a["source"] == "hand" and a["refill"] == supply[2])
    seen = seen_by_camera(placed_copy(state, from_hand))
    referee = Referee()
    assert referee.translate(state, dict(seen, refill=from_hand["refill"])) == [from_hand]
    with pytest.raises(AmbiguousReading) as asked:  # no hint: no guess
        referee.translate(state, seen)
    card = from_hand["card"]
    assert asked.value.to_json() == [
        {"text": f"{card} from the hand and {refill} from the supply into the hand",
         "actions": [dict(from_hand, refill=refill)]} for refill in supply]
    assert asked.value.reason.startswith(
        "the camera cannot tell which supply card Ana took into the hand (no camera sees it): "
        f"either {card} from the hand and {supply[0]} from the supply into the hand or ")
    with pytest.raises(IllegalAction, match=r"which no legal placement gives \(c\d+ there: there "
                                            r"is no card 'c99' in the supply to take into"):
        referee.translate(state, dict(seen, refill="c99"))
    from_supply = next(a for a in state.legal_actions() if a["source"] == "supply")
    seen = seen_by_camera(placed_copy(state, from_supply))
    assert referee.translate(state, dict(seen, refill="c99")) == [from_supply]  # not needed


def test_a_change_no_legal_placement_gives_is_refused_with_what_the_camera_saw() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    grid = list(state.data["grids"][0])
    grid[0] = "E" + grid[0][1:]
    observation = {"kind": "warehouses",
                   "warehouses": [{"player": "Ana", "found": True, "grid": grid}]}
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, observation)
    assert refused.value.reason == ("the warehouse of Ana shows E at row 1, column 1, "
                                    "which no legal placement gives")


def test_a_card_laid_where_the_rules_forbid_is_refused_with_the_engines_reason() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    card = state.data["supply"][0]
    far = {"type": "place", "source": "supply", "card": card, "row": 0, "col": 0, "rotation": 0}
    with pytest.raises(IllegalAction, match="touch"):
        state.check(far)  # the position is out of reach in this setup
    forced = state.clone()
    forced.perform(far)  # lay it anyway, as a player might
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, seen_by_camera(forced))
    assert "which no legal placement gives" in refused.value.reason
    assert refused.value.reason.endswith(
        f"({card} there: the card must overlap or touch a card already in the warehouse)")


def test_a_change_in_the_other_players_warehouse_is_refused() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    after = placed_copy(state, state.legal_actions()[0])  # Ana's card...
    grids = after.data["grids"]
    grids[0], grids[1] = state.data["grids"][0], grids[0]  # ...seen on Ben's mat
    with pytest.raises(IllegalAction, match="the warehouse of Ben changed, but it is Ana's turn"):
        Referee().translate(state, seen_by_camera(after))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turns_the_camera_missed_are_caught_up_in_turn_order(seed: int) -> None:
    # Ana's turn never held still; the next reading shows hers and Ben's at once
    rng = random.Random(seed)
    game = get_game("small-warehouse")
    state = game.new_game(["Ana", "Ben"], seed=seed, catalogue=catalogue_without_twins())
    played = state.clone()
    chosen = []
    for _ in range(2):
        action = rng.choice([a for a in played.legal_actions() if a["source"] == "supply"])
        played.apply(action)
        chosen.append(action)
    actions = Referee().translate(state, seen_by_camera(played))
    assert actions == chosen
    for action in actions:
        state.apply(action)
    assert state == played


def test_a_change_out_of_turn_that_no_sequence_explains_is_still_refused() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    first = placed_copy(state, state.legal_actions()[0])  # Ana's card
    both = placed_copy(first, first.legal_actions()[0])   # then Ben's
    grids = both.data["grids"]
    grids[0], grids[1] = grids[1], grids[0]  # each seen on the other's mat
    with pytest.raises(IllegalAction):
        Referee().translate(state, seen_by_camera(both))


def test_cells_the_camera_cannot_read_may_leave_placements_it_cannot_tell_apart() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    action = next(a for a in state.legal_actions() if a["source"] == "supply")
    after = placed_copy(state, action)
    changed = {(r, c) for r, line in enumerate(after.data["grids"][0])
               for c, symbol in enumerate(line) if symbol != state.data["grids"][0][r][c]}
    keep = min(changed)
    with pytest.raises(IllegalAction, match=r"the warehouse of Ana could show .* or .*: "
                                            r"the camera must read more of its cells"):
        Referee().translate(state, seen_by_camera(after, {"Ana": changed - {keep}}))


def test_different_cards_giving_the_same_grid_are_asked_about_not_guessed() -> None:
    cards = [{"id": "x", "squares": ["AAB", "AAB"]}, {"id": "y", "squares": ["AB", "AB"]}]
    cards += [{"id": f"a{index:02}", "squares": ["AAA", "AAA"]} for index in range(18)]
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7,
                                                 catalogue={"cards": cards})
    state.apply(next(a for a in state.legal_actions() if a["card"] == "a07"))  # Ana's turn
    assert state.data["supply"] == ["a06", "y", "a03"] and state.data["hands"][1] == ["x"]
    grid = laid_at(state.data["grids"][1], ["AB", "AB"], 3, 5)  # x at col 4 looks the same
    seen = {"kind": "warehouses", "warehouses": [{"player": "Ben", "found": True,
                                                  "grid": grid}]}
    with pytest.raises(AmbiguousReading) as asked:
        Referee().translate(state, seen)
    # a06 and a03 look the same: taking either into the hand is one reading
    assert [reading.text for reading in asked.value.readings] == [
        "y from the supply", "x from the hand and a06 from the supply into the hand",
        "x from the hand and y from the supply into the hand"]
    assert asked.value.what == ("which card Ben laid, nor which supply card went into "
                                "the hand")
    with pytest.raises(AmbiguousReading) as asked:  # a refill named: still y or x
        Referee().translate(state, dict(seen, refill="a03"))
    assert [reading.text for reading in asked.value.readings] == [
        "y from the supply", "x from the hand and a03 from the supply into the hand"]


def test_twin_cards_are_read_as_the_first_in_the_engines_order() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    cards = state.setup["cards"]
    twins = sorted(card for card in cards
                   if sum(cards[other] == cards[card] for other in cards) == 2)
    assert len(twins) == 2
    pool = [*twins, *(c for c in state.unseen() if c not in twins)]
    state.data["supply"] = pool[:3]  # a constructed position
    second = next(a for a in state.legal_actions() if a["card"] == twins[1])
    read = Referee().translate(state, seen_by_camera(placed_copy(state, second)))
    assert read == [dict(second, card=twins[0])]


def test_odd_mats_and_strangers_are_refused() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    small = {"kind": "warehouses", "warehouses": [{"player": "Ana", "grid": ["...."]}]}
    with pytest.raises(IllegalAction, match="should read 8 rows of 10 cells"):
        Referee().translate(state, small)
    stranger = {"kind": "warehouses", "warehouses": [{"player": "Cas", "grid": []}]}
    with pytest.raises(IllegalAction, match="'Cas', who is not playing here"):
        Referee().translate(state, stranger)


def test_after_the_end_observations_mean_nothing() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    grid = ["E" * 10] * 8
    observation = {"kind": "warehouses", "warehouses": [{"player": "Ana", "grid": grid}]}
    assert Referee().translate(state, observation) == []


def test_the_module_examples_run_and_the_referee_reads_well() -> None:
    assert doctest.testmod(referee_module).failed == 0
    assert "small-warehouse Referee" in repr(Referee())


# -- games dealt by hand ---------------------------------------------------------------
BLANK = ["." * 10] * 8


def laid_at(grid: list[str], squares: list[str], row: int, col: int) -> list[str]:
    lines = [list(line) for line in grid]
    for dr, line in enumerate(squares):
        for dc, symbol in enumerate(line):
            if symbol != ".":
                lines[row + dr][col + dc] = symbol
    return ["".join(line) for line in lines]


def first_reading(ana: list[str], ben: list[str] | None = None) -> dict[str, Any]:
    mats = [{"player": "Ana", "found": True, "grid": ana},
            {"player": "Ben", "found": ben is not None, **({"grid": ben} if ben else {})}]
    return {"kind": "warehouses", "warehouses": mats}


def test_the_first_reading_of_a_hand_dealt_game_reveals_the_starting_cards() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    cards = state.setup["cards"]
    twin = cards["c10"]
    reading = first_reading(laid_at(BLANK, twin, 3, 3), laid_at(BLANK, twin, 3, 3))
    assert Referee().translate(state, reading) == [
        {"type": "reveal", "zone": "warehouse", "player": 0, "card": "c10"},
        {"type": "reveal", "zone": "warehouse", "player": 1, "card": "c16"}]  # equal cards
    off_centre = first_reading(laid_at(BLANK, cards["c05"], 0, 0))
    with pytest.raises(IllegalAction, match="which is no starting card not yet seen"):
        Referee().translate(state, off_centre)
    hidden = laid_at(BLANK, cards["c05"], 3, 3)
    hidden[3], hidden[4] = "...?BA....", "...?BA...."  # only c05 (DBA) shows BA there
    assert Referee().translate(state, first_reading(hidden))[0]["card"] == "c05"
    hidden[3], hidden[4] = "...D??....", "...D??...."
    with pytest.raises(AmbiguousReading, match="which starting card Ana laid") as asked:
        Referee().translate(state, first_reading(hidden))
    assert [reading.text for reading in asked.value.readings] == ["c05", "c11", "c17"]
    assert asked.value.readings[1].actions == [
        {"type": "reveal", "zone": "warehouse", "player": 0, "card": "c11"}]
    # Ben's card read whole is revealed; Ana's waits for more of it to be seen
    both = first_reading(hidden, laid_at(BLANK, cards["c05"], 3, 3))
    assert Referee().translate(state, both) == [
        {"type": "reveal", "zone": "warehouse", "player": 1, "card": "c05"}]
    assert Referee().translate(state, first_reading(BLANK)) == []


def test_a_hand_dealt_card_that_may_be_either_of_two_different_cards_is_asked_about() -> None:
    cards = [{"id": "s0", "squares": ["AAA", "AAA"]}, {"id": "s1", "squares": ["CCC", "CCC"]},
             {"id": "x", "squares": ["AAB", "AAB"]}, {"id": "y", "squares": ["AB", "AB"]}]
    cards += [{"id": f"f{index:02}", "squares": ["DE", "ED"]} for index in range(16)]
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table",
                                                 catalogue={"cards": cards})
    state.apply({"type": "reveal", "zone": "warehouse", "player": 0, "card": "s0"})
    state.apply({"type": "reveal", "zone": "warehouse", "player": 1, "card": "s1"})
    grid = laid_at(state.data["grids"][0], ["AB", "AB"], 3, 5)  # x at col 4 looks the same
    with pytest.raises(AmbiguousReading) as asked:
        Referee().translate(state, first_reading(grid))
    assert asked.value.reason == ("the camera cannot tell which card Ana laid (they look the "
                                  "same there): either x or y; pick one")
    assert [reading.actions for reading in asked.value.readings] == [
        [{"type": "place", "source": "supply-or-hand", "card": "x", "row": 3, "col": 4,
          "rotation": 0}],
        [{"type": "place", "source": "supply-or-hand", "card": "y", "row": 3, "col": 5,
          "rotation": 0}]]


def test_a_hand_dealt_card_comes_from_where_it_can_and_a_named_refill_means_the_hand() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    for player, card in enumerate(["c01", "c02"]):
        state.apply({"type": "reveal", "zone": "warehouse", "player": player, "card": card})
    state.apply({"type": "reveal", "zone": "supply", "card": "c03"})
    grid = laid_at(state.data["grids"][0], state.setup["cards"]["c19"], 3, 6)
    referee = Referee()
    assert referee.translate(state, first_reading(grid))[0]["source"] == "supply-or-hand"
    named = referee.translate(state, dict(first_reading(grid), refill="c03"))
    assert named == [{"type": "place", "source": "hand", "card": "c19", "row": 3, "col": 6,
                      "rotation": 0, "refill": "c03"}]
    state.apply({"type": "reveal", "zone": "hand", "player": 0, "card": "c07"})
    assert referee.translate(state, first_reading(grid))[0]["source"] == "supply"
    grid = laid_at(state.data["grids"][0], state.setup["cards"]["c07"], 3, 6)
    assert referee.translate(state, first_reading(grid)) == [
        {"type": "place", "source": "hand", "card": "c07", "row": 3, "col": 6, "rotation": 0,
         "refill": None}]
