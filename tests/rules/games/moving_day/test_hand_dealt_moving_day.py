"""A whole game of Moving Day dealt by hand, refereed from camera readings alone.

The test plays the table: it shuffles the physical boxes and helper cards with its
own random generator (never the engine's), lays out the groups, and lets players
load boxes into their vehicles. The referee sees only what the station would give
it: the vehicle mats read through ``vision.games.moving_day`` (tags → box ids),
with a hand over a mat now and then (``?`` cells), readings repeated, and a
person's entries where no camera looks: the helper cards (the picker, or named
with the take), which group was taken (a tap, or a box of it entered from
the picker) and where a helper card went when the rules leave a choice (entered
before the boxes are laid, or picked from the referee's question once they
are). One placement breaks the rules: it must be the one reading refused.
The final scores must equal the rulebook's, counted from the table itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules import AmbiguousReading, IllegalAction, Reading, State, get_game
from rules.catalogue import default_catalogue
from rules.engine import REVEAL
from rules.games.moving_day import (
    UNSEEN,
    LoadedBox,
    LoadedVehicle,
    SeatedHelper,
    score_load,
)
from rules.games.moving_day.referee import Referee
from vision.games.moving_day import read_vehicles

CATALOGUE = default_catalogue("moving-day")
BOXES = {box["id"]: box for box in CATALOGUE["boxes"]}
HELPERS = {helper["id"]: helper for helper in CATALOGUE["helpers"]}
VEHICLES = {vehicle["name"]: vehicle for vehicle in CATALOGUE["vehicles"]}
TAG_OF = {box: 100 + number for number, box in enumerate(sorted(BOXES))}
BOX_OF_TAG = {tag: box for box, tag in TAG_OF.items()}
SNACK_SUPPLY = sum(int(value) * count for value, count in CATALOGUE["snacks"].items())
ILLEGAL_TURN = 4


def kind(helper: str) -> tuple[Any, ...]:
    card = HELPERS[helper]
    return card["count"], card["clumsy"], card["strength"]


@dataclass
class Seat:
    """One player's side of the table: what lies in each vehicle, snacks."""

    boxes: dict[str, dict[tuple[int, int], str]] = field(
        default_factory=lambda: {name: {} for name in VEHICLES})
    helpers: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in VEHICLES})
    snacks: int = 0


class Table:
    """The physical table, played by the rulebook: piles, groups face up, vehicles, snacks."""

    def __init__(self, players: list[str], rng: random.Random) -> None:
        self.box_pile = sorted(BOXES)
        self.helper_pile = sorted(HELPERS)
        rng.shuffle(self.box_pile)
        rng.shuffle(self.helper_pile)
        self.supply = SNACK_SUPPLY
        self.seats = {player: Seat() for player in players}
        self.groups = [self.deal() for _ in range(len(players) + 1)]

    def deal(self) -> dict[str, Any]:
        boxes = [self.box_pile.pop() for _ in range(min(2, len(self.box_pile)))]
        helper = self.helper_pile.pop() if self.helper_pile else None
        return {"boxes": boxes, "helper": helper, "snacks": 0}

    def take(self, player: str, index: int, places: dict[str, tuple[str, int, int] | None],
             helper_vehicle: str | None) -> None:
        """1. Collect the group into the vehicles; 2. snacks to the neighbours; refill."""
        seat, group = self.seats[player], self.groups[index]
        for box in group["boxes"]:
            if places[box] is not None:
                vehicle, row, col = places[box]  # type: ignore[misc]
                seat.boxes[vehicle][row, col] = box
        if group["helper"] is not None and helper_vehicle is not None:
            seat.helpers[helper_vehicle].append(group["helper"])
        seat.snacks += group["snacks"]
        for near in (index - 1, index + 1):
            if 0 <= near < len(self.groups) and self.supply > 0:
                self.groups[near]["snacks"] += 1
                self.supply -= 1
        self.groups[index] = self.deal()

    def score(self, player: str) -> dict[str, int]:
        """The rulebook's scoring of what lies on the table (docs/formats.md §2's pure function)."""
        seat = self.seats[player]
        vehicles = [
            LoadedVehicle(name, tuple(vehicle["layout"]), vehicle["seats"],
                          tuple(LoadedBox(row, col, *(BOXES[box][key] for key in (
                              "type", "colour", "fragile", "weight", "points")))
                                for (row, col), box in sorted(seat.boxes[name].items())),
                          tuple(SeatedHelper(*kind(helper)) for helper in seat.helpers[name]))
            for name, vehicle in VEHICLES.items()]
        return score_load(vehicles, seat.snacks).parts()


class Camera:
    """The vehicle mats of every player, read as the station reads them."""

    def __init__(self, players: list[str]) -> None:
        self.mats = {player: {name: 10 * index + number for number, name in enumerate(VEHICLES)}
                     for index, player in enumerate(players)}

    def reading(self, table: Table, hidden: frozenset[str] = frozenset(),
                hand: tuple[str, str, set[tuple[int, int]]] | None = None,
                **person: Any) -> dict[str, Any]:
        """What the camera reads: ``hidden`` boxes not laid yet, ``hand`` = (player, vehicle,
        cells) a hand covers."""
        mats = []
        for player, named in self.mats.items():
            for name, mat_id in named.items():
                layout = VEHICLES[name]["layout"]
                covered = hand[2] if hand and hand[:2] == (player, name) else set()
                lying = {cell: box for cell, box in table.seats[player].boxes[name].items()
                         if box not in hidden}
                cells = ["".join("?" if (row, col) in covered else
                                 "X" if (row, col) in lying else "."
                                 for col in range(len(line))) for row, line in enumerate(layout)]
                tags = [{"id": TAG_OF[box], "row": row, "col": col, "rotation": 90}
                        for (row, col), box in lying.items() if (row, col) not in covered]
                mats.append({"id": mat_id, "found": True, "cells": cells, "tags": tags})
        return {"kind": "vehicles", "players": read_vehicles(mats, self.mats, BOX_OF_TAG),
                **person}


class Station:
    """The station's side: feeds readings, applies what the referee returns, counts flags."""

    def __init__(self, state: State) -> None:
        self.state, self.referee = state, Referee()
        self.flags: list[str] = []
        self.asked: list[AmbiguousReading] = []  # questions not answered yet
        self.answered = 0

    def see(self, observation: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            actions = self.referee.translate(self.state, observation)
        except AmbiguousReading as question:  # the table shows the readings, a person picks
            self.asked.append(question)
            return []
        except IllegalAction as error:
            self.flags.append(error.reason)
            return []
        for action in actions:
            self.state.apply(action)
        return actions

    def person_picks(self, take: dict[str, Any]) -> list[dict[str, Any]]:
        """A person answers the question: the reading whose take puts the helper card where
        ``take`` does; its actions are applied as one step."""
        question = self.asked.pop()
        picked: list[Reading] = [reading for reading in question.readings
                                 if reading.actions[-1]["helper_vehicle"]
                                 == take["helper_vehicle"]]
        assert len(picked) == 1, question.reason
        for action in picked[0].actions:
            self.state.apply(action)
        self.answered += 1
        return picked[0].actions

    def person_enters(self, group: int, **component: str) -> None:
        """A person's pick: the listed outcome for this group showing ``component``."""
        ((key, value),) = component.items()
        picks = [o.action for o in self.state.chance_outcomes()
                 if o.action["group"] == group and key in o.action
                 and (o.action[key] == value if key == "box" else
                      kind(o.action[key]) == kind(value))]
        assert picks, f"the picker lists no {key} {value} for group {group}"
        self.state.apply(dict(picks[0]))


def helper_outcome(state: State, group: int, helper: str) -> str:
    """The helper the picker lists for a card of ``helper``'s kind."""
    return next(o.action["helper"] for o in state.chance_outcomes()
                if o.action["group"] == group and "helper" in o.action
                and kind(o.action["helper"]) == kind(helper))


def enter_helpers_of_new_groups(station: Station, table: Table, rng: random.Random,
                                groups: list[int]) -> None:
    """Half the time a person enters a freshly laid group's helper card from the picker."""
    for index in groups:
        helper = table.groups[index]["helper"]
        if helper is not None and rng.random() < 0.5 and not station.state.is_over():
            station.person_enters(index, helper=helper)


def chosen_take(state: State, table: Table, index: int, rng: random.Random) -> dict[str, Any]:
    """A legal take of group ``index`` as its player sees it (the group face up)."""
    player = state.clone()
    group, truth = player.data["groups"][index], table.groups[index]
    for box in truth["boxes"]:
        if box not in group["boxes"]:
            player.apply({"type": REVEAL, "group": index, "box": box})
    if group["helper"] == UNSEEN:
        player.apply({"type": REVEAL, "group": index,
                      "helper": helper_outcome(player, index, truth["helper"])})
    take = rng.choice([a for a in player.legal_actions() if a["group"] == index])
    choices = player.helper_choices(player.current_player(), group["helper"])
    return dict(take, helper_choices=len(choices))


def places_of(take: dict[str, Any]) -> dict[str, tuple[str, int, int] | None]:
    return {entry["box"]: None if entry["vehicle"] is None else
            (entry["vehicle"], entry["row"], entry["col"]) for entry in take["boxes"]}


def play_turn(station: Station, table: Table, camera: Camera, turn: int,
              rng: random.Random) -> None:
    state = station.state
    player = state.players[state.current_player()]
    index = rng.randrange(len(table.groups))
    take = chosen_take(state, table, index, rng)
    truth = table.groups[index]
    person: dict[str, Any] = {}
    if turn % 3 == 0:
        person["group"] = index  # a tap on the table page: "this group"
    elif turn % 3 == 1:
        first = truth["boxes"][0]
        if first not in state.data["groups"][index]["boxes"]:
            station.person_enters(index, box=first)  # one box of it from the picker
    else:
        for box in truth["boxes"]:
            if box not in state.data["groups"][index]["boxes"]:
                station.person_enters(index, box=box)  # the whole group, as it was laid
    if state.data["groups"][index]["helper"] == UNSEEN:
        person["helper"] = helper_outcome(state, index, truth["helper"])
    if take["helper_choices"] > 1 and turn % 2 == 0:  # else the referee asks, see below
        person["helper_vehicle"] = take["helper_vehicle"]
    places = places_of(take)
    if turn == ILLEGAL_TURN:
        spot = illegal_top_spot(table, player)
        table.seats[player].boxes[spot[0]][spot[1:]] = truth["boxes"][0]
        assert station.see(camera.reading(table, **person)) == []
        assert len(station.flags) == 1, station.flags
        del table.seats[player].boxes[spot[0]][spot[1:]]  # the player puts it right
    boxes_in = [box for box in truth["boxes"] if places[box] is not None]
    first_only = frozenset(boxes_in[1:])
    table.take(player, index, places, take["helper_vehicle"])
    if first_only:
        hand = hand_over(table, player, rng)
        assert station.see(camera.reading(table, first_only, hand, **person)) == []
        assert station.see(camera.reading(table, first_only, **person)) == []
    done = station.see(camera.reading(table, **person))
    if station.asked:  # where the helper card went: nobody said, and the rules leave a choice
        assert take["helper_choices"] > 1 and "helper_vehicle" not in person
        done = station.person_picks(take)
    assert done and done[-1]["type"] == "take" and done[-1]["group"] == index
    assert station.see(camera.reading(table, **person)) == []  # the same reading again
    enter_helpers_of_new_groups(station, table, rng, [index])


def illegal_top_spot(table: Table, player: str) -> tuple[str, int, int]:
    """A free space in a vehicle's top row while a lower row still has one (lowest-row rule)."""
    for name, vehicle in VEHICLES.items():
        lying, layout = table.seats[player].boxes[name], vehicle["layout"]
        lower_free = any((row, col) not in lying for row in range(1, len(layout))
                         for col in range(len(layout[row])))
        top_free = [col for col in range(len(layout[0])) if (0, col) not in lying]
        if lower_free and top_free:
            return name, 0, top_free[0]
    raise AssertionError("every vehicle is full up to its top row")


def hand_over(table: Table, player: str, rng: random.Random
              ) -> tuple[str, str, set[tuple[int, int]]]:
    """A hand over one of ``player``'s vehicle mats, covering one or two cells."""
    name = rng.choice(list(VEHICLES))
    layout = VEHICLES[name]["layout"]
    row, col = rng.randrange(len(layout)), rng.randrange(len(layout[0]))
    return player, name, {(row, col), (row, min(col + 1, len(layout[0]) - 1))}


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 2)])
def test_a_hand_dealt_game_is_refereed_from_readings_with_one_refusal(players: int,
                                                                      seed: int) -> None:
    rng = random.Random(seed)  # the table's own shuffle: the engine never sees it
    names = ["Ana", "Ben", "Cas", "Dee"][:players]
    table, camera = Table(names, rng), Camera(names)
    station = Station(get_game("moving-day").new_game(names, deal="table"))
    enter_helpers_of_new_groups(station, table, rng, list(range(players + 1)))
    turn = 0
    while not station.state.is_over():
        play_turn(station, table, camera, turn, rng)
        turn += 1
    assert turn == 8 * players
    assert len(station.flags) == 1 and "cannot stand where the camera sees them" in (
        station.flags[0]), station.flags
    assert station.answered > 0 and not station.asked
    state = station.state
    for index, name in enumerate(names):
        grids = state.data["players"][index]["vehicles"]
        for vehicle, grid in zip(VEHICLES, grids, strict=True):
            lying = {(row, col): box for row, line in enumerate(grid["grid"])
                     for col, box in enumerate(line) if box is not None}
            assert lying == table.seats[name].boxes[vehicle]
    expected = [table.score(name) for name in names]
    assert [score.parts for score in state.scores()] == expected
    assert [score.total for score in state.scores()] == [sum(p.values()) for p in expected]
    assert state.game.replay(state.to_json()) == state
