"""A whole game of Moving Day dealt by hand, refereed by the station through its API.

The table (the referee-level test's: its own ``random.Random``, the rulebook's
scoring) shuffles the boxes and helper cards, lays out the groups and loads the
vehicles. The station hears only its camera source's ``{"kind": "vehicles",
...}`` readings (``vision.games.moving_day.read_vehicles`` over the vehicle mats:
tags → box ids), with a hand over a mat now and then (``?`` cells) and every
reading repeated, and a person's entries where no camera looks: helper cards and
boxes of a group from the picker, or the group, helper and helper's vehicle named
on the table page (``{"kind": "person", ...}``, read with the next readings).
One box is laid where the rules forbid: it must be the only flag.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.games.moving_day import UNSEEN
from station.config import Settings
from tests.rules.games.moving_day.test_hand_dealt_moving_day import (
    ILLEGAL_TURN,
    VEHICLES,
    Camera,
    Table,
    chosen_take,
    hand_over,
    helper_outcome,
    illegal_top_spot,
    kind,
    places_of,
)
from tests.station.e2e.dealt_table import DealtTable


def enter(station: DealtTable, group: int, **component: str) -> None:
    """A person's pick for ``group``: the box itself, or a helper card of the same kind."""
    ((key, value),) = component.items()
    station.pick(lambda action: action.get("group") == group and key in action and (
        action[key] == value if key == "box" else kind(action[key]) == kind(value)))


def enter_helpers(station: DealtTable, table: Table, rng: random.Random,
                  groups: list[int]) -> None:
    """Half the time a person enters a freshly laid group's helper card from the picker."""
    for index in groups:
        helper = table.groups[index]["helper"]
        if helper is not None and rng.random() < 0.5 and not station.game()["over"]:
            enter(station, index, helper=helper)


def person_for(station: DealtTable, table: Table, index: int, turn: int) -> dict[str, Any]:
    """What a person tells the station about this take (a tap, or picks), by turn."""
    state, truth = station.mirror, table.groups[index]
    assert state is not None
    person: dict[str, Any] = {}
    known = state.data["groups"][index]["boxes"]
    if turn % 3 == 0:
        person["group"] = index  # a tap on the table page: "this group"
    elif turn % 3 == 1 and truth["boxes"][0] not in known:
        enter(station, index, box=truth["boxes"][0])  # one box of it from the picker
    elif turn % 3 == 2:
        for box in truth["boxes"]:
            if box not in known:
                enter(station, index, box=box)  # the whole group, as it was laid
    if state.data["groups"][index]["helper"] == UNSEEN:
        person["helper"] = helper_outcome(state, index, truth["helper"])
    return person


def play_turn(station: DealtTable, table: Table, camera: Camera, turn: int,
              rng: random.Random) -> None:
    state = station.mirror
    assert state is not None
    player = state.players[state.current_player()]
    index = rng.randrange(len(table.groups))
    take = chosen_take(state, table, index, rng)
    truth = table.groups[index]
    person = person_for(station, table, index, turn)
    if take["helper_choices"] > 1:  # else the referee would ask where the helper card went
        person["helper_vehicle"] = take["helper_vehicle"]
    if person:  # the table page's buttons, before the boxes are laid
        assert station.observe({"kind": "person", **person}, source="person") == []
    places = places_of(take)
    if turn >= ILLEGAL_TURN and not station.refused:
        # A box laid high while a lower space is free. The station may rightly wait while
        # the group's other box could still fill that space; the first time it cannot, the
        # reading is refused.
        spot = illegal_top_spot(table, player)
        table.seats[player].boxes[spot[0]][spot[1:]] = truth["boxes"][0]
        with station.breaking_a_rule():
            assert station.observe(camera.reading(table)) == []
        del table.seats[player].boxes[spot[0]][spot[1:]]  # the player puts it right
    later = frozenset([box for box in truth["boxes"] if places[box] is not None][1:])
    table.take(player, index, places, take["helper_vehicle"])
    if later:  # the first box is down, a hand still over a mat, then without the hand
        hand = hand_over(table, player, rng)
        assert station.observe(camera.reading(table, later, hand)) == []
        assert station.observe(camera.reading(table, later)) == []
    done = station.observe_twice(camera.reading(table))
    assert done and done[-1]["type"] == "take" and done[-1]["group"] == index
    enter_helpers(station, table, rng, [index])


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 6)])
def test_a_hand_dealt_game_is_refereed_through_the_api(client: TestClient, settings: Settings,
                                                       players: int, seed: int) -> None:
    rng = random.Random(seed)  # the table's own shuffle: the station never sees it
    names = ["Ana", "Ben", "Cas", "Dee"][:players]
    table, camera = Table(names, rng), Camera(names)
    station = DealtTable(client, "moving-day", names, mirror=True)
    enter_helpers(station, table, rng, list(range(players + 1)))
    station.assert_public(f'"{box}"' for box in table.box_pile)
    turn = 0
    while not station.game()["over"]:
        play_turn(station, table, camera, turn, rng)
        if turn == 3:
            station.assert_public(f'"{box}"' for box in table.box_pile)
        turn += 1
    assert turn == 8 * players
    assert len(station.refused) == 1
    station.assert_flagged_only("cannot stand where the camera sees them", closed=True)
    flags = station.flags()
    game = station.game()
    for index, name in enumerate(names):
        for vehicle, grid in zip(VEHICLES, game["state"]["players"][index]["vehicles"],
                                 strict=True):
            lying = {(row, col): box for row, line in enumerate(grid["grid"])
                     for col, box in enumerate(line) if box is not None}
            assert lying == table.seats[name].boxes[vehicle]
    expected = [table.score(name) for name in names]
    assert [score["parts"] for score in game["scores"]] == expected
    assert [score["total"] for score in game["scores"]] == [sum(p.values()) for p in expected]
    assert station.tally["camera take"] == 8 * players
    station.assert_mirrored()
    station.assert_public()
    station.assert_replayed(settings)
    print(f"moving-day {players} players seed {seed}: {dict(station.tally)}, flags {len(flags)}")
