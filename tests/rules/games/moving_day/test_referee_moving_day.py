"""The Moving Day camera referee: seeded games seen by the camera, and its refusals.

Observations are made the way the station makes them: one tags mat per
vehicle as ``vision read`` returns it, put through ``vision.games.moving_day``'s
reader with a tag → box mapping, so a change of the reader's format shows up here.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

import rules.games.moving_day.referee as referee_module
from rules import AmbiguousReading, IllegalAction, State, get_game
from rules.catalogue import default_catalogue
from rules.games.moving_day.referee import Referee
from vision.games.moving_day import read_vehicles

PLAYERS = ["Ana", "Ben"]
VEHICLES = ("scooter", "car", "truck")
MAT_OF = {player: {name: 3 * index + number for number, name in enumerate(VEHICLES)}
          for index, player in enumerate(PLAYERS)}


def tag_of(state: State) -> dict[str, int]:
    return {box: 100 + number for number, box in enumerate(sorted(state.setup["boxes"]))}


def seen_by_camera(state: State, hide: frozenset[str] = frozenset(),
                   **extra: Any) -> dict[str, Any]:
    """The observation the station gives for ``state`` (boxes in ``hide`` not yet there)."""
    tags = tag_of(state)
    mats = []
    for index, player in enumerate(PLAYERS):
        for vehicle, mat_id in MAT_OF[player].items():
            grid = state.data["players"][index]["vehicles"][VEHICLES.index(vehicle)]["grid"]
            found = [{"id": tags[box], "row": row, "col": col, "rotation": 90 * (row % 4)}
                     for row, line in enumerate(grid) for col, box in enumerate(line)
                     if box is not None and box not in hide]
            cells = ["".join("X" if box else "." for box in line) for line in grid]
            mats.append({"id": mat_id, "found": True, "cells": cells, "tags": found})
    pieces = {tag: box for box, tag in tags.items()}
    return {"kind": "vehicles", "players": read_vehicles(mats, MAT_OF, pieces), **extra}


def placed_boxes(action: dict[str, Any]) -> list[str]:
    return [entry["box"] for entry in action["boxes"] if entry["vehicle"] is not None]


def see_one_turn(referee: Referee, refereed: State, played: State, action: dict[str, Any],
                 extra: dict[str, Any]) -> bool:
    """Feed the views of one take as the boxes arrive; the referee must read ``action``, or
    (no button said where the helper card went, and the rules leave a choice) ask with one
    reading per choice, ``action`` among them. Returns whether it asked."""
    placed = placed_boxes(action)
    if len(placed) == 2:  # the second box is still in the player's hand
        half = seen_by_camera(played, frozenset(placed[1:]), **extra)
        assert referee.translate(refereed, half) == []
    observation = seen_by_camera(played, **extra)
    untouched = refereed.to_json()
    asked = False
    try:
        read = referee.translate(refereed, observation)
    except AmbiguousReading as question:
        assert "helper_vehicle" not in extra and placed
        choices = refereed.helper_choices(refereed.current_player(),
                                          refereed.data["groups"][action["group"]]["helper"])
        assert [reading.actions for reading in question.readings] == [
            [dict(action, helper_vehicle=choice)] for choice in choices]
        read, asked = [action], True  # the person picks the reading of the take played
    assert refereed.to_json() == untouched  # translate never changes the state
    if not placed:  # nothing the camera can see: the player declares it
        assert read == []
        read = [action]
    assert read == [action]
    refereed.apply(read[0])
    assert referee.translate(refereed, observation) == []
    return asked


def odd_fleet() -> dict[str, Any]:
    """The default catalogue with one space of the truck walled off: 15 spaces for 16 boxes."""
    catalogue = default_catalogue("moving-day")
    truck = next(vehicle for vehicle in catalogue["vehicles"] if vehicle["name"] == "truck")
    truck["layout"] = ["...", "#.."]
    return catalogue


@pytest.mark.parametrize(("seed", "options", "catalogue"), [
    (1, None, None), (2, {"placement": "supported"}, None),
    (3, {"helper_discard": "lacks-seats-everywhere"}, None),
    (5, {"rounds": 9}, None), (6, {"rounds": 10, "placement": "supported"}, None),
    (7, None, odd_fleet()), (8, {"placement": "supported"}, odd_fleet())])  # boxes left over
def test_a_seeded_game_seen_by_the_camera_is_the_game_played(
        seed: int, options: dict[str, Any] | None, catalogue: dict[str, Any] | None) -> None:
    rng = random.Random(seed)
    game = get_game("moving-day")
    played = game.new_game(PLAYERS, seed=seed, options=options, catalogue=catalogue)
    refereed = game.new_game(PLAYERS, seed=seed, options=options, catalogue=catalogue)
    referee = Referee()
    turn = asked = 0
    while not played.is_over():
        action = rng.choice(played.legal_actions())
        button = turn % 3 != 0
        played.apply(action)
        extra = {"helper_vehicle": action["helper_vehicle"]} if button else {}
        asked += see_one_turn(referee, refereed, played, action, extra)
        turn += 1
    assert refereed == played
    assert turn == 2 * played.options["rounds"]
    assert 0 < asked < turn


def first_take(state: State) -> tuple[dict[str, Any], State]:
    take = state.legal_actions()[0]
    after = state.clone()
    after.apply(take)
    return take, after


def test_no_new_box_and_other_kinds_and_lost_mats_give_nothing() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    referee = Referee()
    assert referee.translate(state, seen_by_camera(state)) == []
    assert referee.translate(state, {"kind": "warehouses", "warehouses": []}) == []
    lost = {"kind": "vehicles", "players": [
        {"player": "Ana", "vehicles": [{"vehicle": "car", "found": False}]}]}
    assert referee.translate(state, lost) == []


def test_the_helper_goes_where_the_button_says_or_the_referee_asks() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    take, after = first_take(state)
    helper = state.data["groups"][take["group"]]["helper"]
    choices = [a["helper_vehicle"] for a in state.legal_actions()
               if a["group"] == take["group"] and a["boxes"] == take["boxes"]]
    assert choices == ["scooter", "car", "truck"]
    referee = Referee()
    for choice in choices:
        told = referee.translate(state, seen_by_camera(after, helper_vehicle=choice))
        assert told == [dict(take, helper_vehicle=choice)]
    with pytest.raises(AmbiguousReading) as asked:  # nobody said: no guess
        referee.translate(state, seen_by_camera(after))
    assert [reading.text for reading in asked.value.readings] == [
        f"{helper} in the scooter", f"{helper} in the car", f"{helper} in the truck"]
    assert asked.value.to_json() == [
        {"text": f"{helper} in the {choice}", "actions": [dict(take, helper_vehicle=choice)]}
        for choice in choices]
    assert asked.value.reason == (
        f"the camera cannot tell where Ana put {helper} (no camera reads helper cards): "
        f"either {helper} in the scooter or {helper} in the car or {helper} in the truck; "
        "pick one")
    with pytest.raises(IllegalAction, match="no vehicle called 'bicycle'"):
        referee.translate(state, seen_by_camera(after, helper_vehicle="bicycle"))


def test_a_helper_with_one_place_left_is_read_without_asking() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    while True:  # play on until a take leaves its helper card one place only
        take = next((a for a in state.legal_actions() if len(state.helper_choices(
            state.current_player(), state.data["groups"][a["group"]]["helper"])) == 1
            and placed_boxes(a)), None)
        if take is not None:
            break
        state.apply(state.legal_actions()[0])
    after = state.clone()
    after.apply(take)
    assert Referee().translate(state, seen_by_camera(after)) == [take]


def test_boxes_where_the_rules_forbid_are_refused_with_the_engines_reason() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    box = state.data["groups"][0]["boxes"][0]
    floating = {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
        {"vehicle": "scooter", "found": True,
         "boxes": [{"box": box, "row": 0, "col": 0, "rotation": 0}]}]}]}
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, floating)
    assert refused.value.reason == (
        f"{box} cannot stand where the camera sees them: the boxes cannot end up there: each "
        "box goes into the lowest row of its vehicle that still has a free space; a box leaves "
        "play only when no space is open")


def test_a_box_in_no_group_is_refused() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    on_table = {box for group in state.data["groups"] for box in group["boxes"]}
    stranger = next(box for box in sorted(state.setup["boxes"]) if box not in on_table)
    observation = {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
        {"vehicle": "truck", "found": True,
         "boxes": [{"box": stranger, "row": 1, "col": 0, "rotation": 0}]}]}]}
    with pytest.raises(IllegalAction, match=f"{stranger} appeared, but no group on the table"):
        Referee().translate(state, observation)


def test_boxes_in_the_other_players_vehicles_are_refused() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    _, after = first_take(state)
    players = after.data["players"]
    players[0], players[1] = players[1], players[0]  # Ana's boxes, seen in Ben's scooter
    with pytest.raises(IllegalAction, match="appeared in Ben's vehicles, but it is Ana's turn"):
        Referee().translate(state, seen_by_camera(after))


def test_two_turns_the_camera_saw_at_once_are_caught_up_in_turn_order() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    rng = random.Random(4)
    ana, after_ana = first_take(state)
    ben = next(action for action in sorted(after_ana.legal_actions(), key=lambda _: rng.random())
               if placed_boxes(action))
    both = after_ana.clone()
    both.apply(ben)
    seen = seen_by_camera(both, helper_vehicle=ana["helper_vehicle"])
    try:
        read = Referee().translate(state, seen)
    except AmbiguousReading as asked:  # Ben's helper card may go to several vehicles
        assert "turns the camera missed" in asked.reason
        read = next(reading.actions for reading in asked.readings
                    if reading.actions[-1] == ben)
    assert read[0] == ana and read[-1] == ben
    caught = state.clone()
    for action in read:
        caught.apply(action)
    assert caught == both


def test_a_box_that_moved_or_left_is_refused() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    _, after = first_take(state)
    observation = seen_by_camera(after)
    scooter = observation["players"][0]["vehicles"][0]
    scooter["boxes"] = scooter["boxes"][1:]
    with pytest.raises(IllegalAction,
                       match="is no longer seen in Ana's scooter at row 3, column 1"):
        Referee().translate(after, observation)
    scooter["boxes"] = [dict(box, row=box["row"] - 2) for box in seen_by_camera(
        after)["players"][0]["vehicles"][0]["boxes"]]
    with pytest.raises(IllegalAction, match="once placed, boxes stay where they are"):
        Referee().translate(after, observation)


def test_strangers_and_unknown_vehicles_are_refused() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    with pytest.raises(IllegalAction, match="'Cas', who is not playing here"):
        Referee().translate(state, {"kind": "vehicles", "players": [{"player": "Cas"}]})
    boat = {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
        {"vehicle": "boat", "found": True, "boxes": []}]}]}
    with pytest.raises(IllegalAction, match="a vehicle 'boat', which this game has not"):
        Referee().translate(state, boat)


def test_after_the_end_observations_mean_nothing() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3, options={"rounds": 1})
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    assert Referee().translate(state, seen_by_camera(get_game("moving-day").new_game(
        PLAYERS, seed=3))) == []


def test_the_module_examples_run_and_the_referee_reads_well() -> None:
    assert doctest.testmod(referee_module).failed == 0
    assert "moving-day Referee" in repr(Referee())


# -- a table dealt by hand: no camera sees the groups or the helper cards ----------------
def scooter_reading(*boxes: str, **person: Any) -> dict[str, Any]:
    """Ana's scooter with ``boxes`` from the bottom up, the rest of her mats not read."""
    seen = [{"box": box, "row": 3 - number, "col": 0, "rotation": 0}
            for number, box in enumerate(boxes)]
    return {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
        {"vehicle": "scooter", "found": True, "boxes": seen, "unknown_tags": [],
         "unknown_cells": 0}]}], **person}


def hand_dealt() -> State:
    return get_game("moving-day").new_game(PLAYERS, deal="table")


def test_unseen_boxes_from_the_group_named_come_with_their_reveals() -> None:
    state = hand_dealt()
    referee = Referee()
    assert referee.translate(state, scooter_reading("box-07", group=1)) == []  # one more due
    read = referee.translate(state, scooter_reading("box-07", "box-31", group=1,
                                                    helper="helper-04", helper_vehicle="scooter"))
    assert read == [
        {"type": "reveal", "group": 1, "box": "box-07"},
        {"type": "reveal", "group": 1, "box": "box-31"},
        {"type": "reveal", "group": 1, "helper": "helper-04"},
        {"type": "take", "group": 1, "helper_vehicle": "scooter", "boxes": [
            {"box": "box-07", "vehicle": "scooter", "row": 3, "col": 0},
            {"box": "box-31", "vehicle": "scooter", "row": 2, "col": 0}]}]
    assert state.data["groups"][1]["boxes"] == ["?", "?"]  # translate changes nothing
    for action in read:
        state.apply(action)
    assert referee.translate(state, scooter_reading("box-07", "box-31")) == []


def test_the_group_is_found_from_a_box_a_person_entered_or_asked_for() -> None:
    state = hand_dealt()
    state.apply({"type": "reveal", "group": 2, "box": "box-31"})
    state.apply({"type": "reveal", "group": 2, "helper": "helper-04"})
    read = Referee().translate(state, scooter_reading("box-07", "box-31",
                                                      helper_vehicle="car"))
    assert [action.get("group") for action in read] == [2, 2]
    assert read[0] == {"type": "reveal", "group": 2, "box": "box-07"}
    with pytest.raises(IllegalAction) as asked:
        Referee().translate(state, scooter_reading("box-07", "box-08"))
    assert asked.value.reason == ("box-07 and box-08 may come from group 1 or 2: no camera "
                                  "sees the groups; name the group taken, or reveal its boxes")
    with pytest.raises(IllegalAction, match="appeared, but group 2 does not hold them"):
        Referee().translate(state, scooter_reading("box-07", "box-31", group=1))


def test_boxes_several_groups_may_hold_are_asked_about_one_reading_per_group() -> None:
    state = hand_dealt()
    for group, helper in enumerate(("helper-04", "helper-16", "helper-28")):
        state.apply({"type": "reveal", "group": group, "helper": helper})
    before = state.to_json()
    with pytest.raises(AmbiguousReading) as asked:
        Referee().translate(state, scooter_reading("box-07", "box-08", helper_vehicle="car"))
    assert state.to_json() == before
    assert [reading.text for reading in asked.value.readings] == [
        "from group 1 (no snacks), helper-04 in the car",
        "from group 2 (no snacks), helper-16 in the car",
        "from group 3 (no snacks), helper-28 in the car"]
    assert asked.value.reason.startswith(
        "the camera cannot tell which group box-07 and box-08 came from (no camera sees the "
        "groups): either from group 1 (no snacks), helper-04 in the car or ")
    for group, reading in enumerate(asked.value.readings):
        assert [action["type"] for action in reading.actions] == ["reveal", "reveal", "take"]
        assert {action["group"] for action in reading.actions} == {group}
        picked = state.clone()
        for action in reading.actions:  # a person's pick: applied as one step
            picked.apply(action)
        assert picked.data["players"][0]["vehicles"][1]["helpers"] == [
            ("helper-04", "helper-16", "helper-28")[group]]
    with pytest.raises(AmbiguousReading) as asked:  # nor where the helper card went
        Referee().translate(state, scooter_reading("box-07", "box-08"))
    assert len(asked.value.readings) == 3 * 3  # each group, each vehicle
    assert asked.value.readings[1].text == "from group 1 (no snacks), helper-04 in the car"
    read = Referee().translate(state, scooter_reading("box-07", "box-08", group=2,
                                                      helper_vehicle="car"))
    assert read[-1]["group"] == 2  # a person named the group: no question


def test_a_helper_card_nobody_entered_is_asked_for() -> None:
    state = hand_dealt()
    with pytest.raises(IllegalAction) as asked:
        Referee().translate(state, scooter_reading("box-07", "box-31", group=0))
    assert asked.value.reason == ("Ana took group 1, but its helper card has not been seen: "
                                  "enter it (no camera reads helper cards)")
    state.apply({"type": "reveal", "group": 0, "helper": "helper-04"})
    with pytest.raises(IllegalAction, match="group 1's helper card is helper-04, not 'helper-05'"):
        Referee().translate(state, scooter_reading("box-07", "box-31", group=0,
                                                   helper="helper-05"))
    with pytest.raises(IllegalAction, match="helper-04 is already in group 1"):
        Referee().translate(state, scooter_reading("box-07", "box-31", group=1,
                                                   helper="helper-04"))


def test_boxes_seen_before_or_not_in_the_copy_are_refused_with_a_persons_reason() -> None:
    state = hand_dealt()
    state.apply({"type": "reveal", "group": 0, "helper": "helper-04"})
    for action in Referee().translate(state, scooter_reading("box-07", "box-31", group=0,
                                                             helper_vehicle="truck")):
        state.apply(action)
    ben = {"kind": "vehicles", "players": [{"player": "Ben", "vehicles": [
        {"vehicle": "car", "found": True, "unknown_cells": 0,
         "boxes": [{"box": "box-07", "row": 2, "col": 0, "rotation": 0}]}]}]}
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, ben)
    assert refused.value.reason == "box-07 is already in a vehicle (Ana's scooter)"
    ben["players"][0]["vehicles"][0]["boxes"][0]["box"] = "x"
    with pytest.raises(IllegalAction) as refused:
        Referee().translate(state, ben)
    assert refused.value.reason == "there is no box 'x' in this copy"


def test_a_hand_over_a_mat_hides_boxes_without_a_flag() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=3)
    _, after = first_take(state)
    observation = seen_by_camera(after)
    scooter = observation["players"][0]["vehicles"][0]
    scooter["boxes"], scooter["unknown_cells"] = scooter["boxes"][1:], 2
    assert Referee().translate(after, observation) == []


def test_a_box_leaving_play_unseen_must_be_declared() -> None:
    catalogue = default_catalogue("moving-day")
    catalogue["vehicles"] = [{"name": "scooter", "layout": ["."], "seats": 3}]
    state = get_game("moving-day").new_game(PLAYERS, catalogue=catalogue, deal="table")
    state.apply({"type": "reveal", "group": 0, "helper": "helper-04"})
    one = {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
        {"vehicle": "scooter", "found": True, "unknown_cells": 0,
         "boxes": [{"box": "box-07", "row": 0, "col": 0, "rotation": 0}]}]}], "group": 0}
    with pytest.raises(IllegalAction) as asked:
        Referee().translate(state, one)
    assert asked.value.reason == ("a box of group 1 leaves play (no space is open), but no "
                                  "camera saw which: declare the take")
    state.apply({"type": "reveal", "group": 0, "box": "box-31"})
    read = Referee().translate(state, one)
    assert read[-1]["boxes"] == [{"box": "box-31", "vehicle": None},
                                 {"box": "box-07", "vehicle": "scooter", "row": 0, "col": 0}]
