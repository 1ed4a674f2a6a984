"""A whole game of Pick 'n Packers dealt by hand, refereed by the station through its API.

The table (the referee-level test's: its own ``random.Random`` lays the shop cards
and deals the presents, and decides how far each challenge gets and how it ends)
is played with the station's default catalogue, weighed as it says. The station
hears only what its sources post: the camera's shop readings (a constructed shop
mat read by ``vision.games.pick_n_packers.read_shop``, the drone over card 0/9
and a hand over another card), the drone's events, the camera's drone positions
(each twice) and the buttons; a person enters from the picker the card the hand
hid. One speculation card already taken is declared: it must be the only flag.
The final scores must equal the rulebook's, computed by the test from the rounds.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.catalogue import default_catalogue
from station.config import Settings
from tests.rules.games.pick_n_packers.test_hand_dealt_pick_n_packers import (
    PLAYERS,
    SHOP_NUMBER,
    Round,
    Table,
    rulebook_scores,
)
from tests.station.api.conftest import AUTH
from tests.station.e2e.dealt_table import DealtTable
from vision.games.pick_n_packers import DRONE, read_shop

MASSES = {present["id"]: present["mass_g"]
          for present in default_catalogue("pick-n-packers")["presents"]}
CARD_TAGS = {180 + number: card for card, number in SHOP_NUMBER.items()}
DRONE_TAG = 200
PIECES = {**CARD_TAGS, DRONE_TAG: DRONE}
TAG_OF = {card: tag for tag, card in CARD_TAGS.items()}
SOURCES = {"drone-event": "drone", "drone-clock": "drone", "button": "button",
           "drone-position": "camera"}

Cell = tuple[int, int]


class ShopCamera:
    """The camera source's shop reading: ``{"kind": "shop", "cards": ...}`` from the mat,
    the card under the drone taken from the last layout seen."""

    def __init__(self) -> None:
        self.previous: list[list[str | None]] | None = None

    def reading(self, table: Table, hidden: set[Cell], drone: Cell | None) -> dict[str, Any]:
        cells = [["?" if (row, col) in hidden else "X" for col in range(3)] for row in range(3)]
        tags = [{"id": TAG_OF[table.layout[row][col]], "row": row, "col": col, "rotation": 0}
                for row in range(3) for col in range(3)
                if (row, col) not in hidden and (row, col) != drone]
        if drone is not None:
            tags.append({"id": DRONE_TAG, "row": drone[0], "col": drone[1], "rotation": 0})
        mat = {"id": 6, "found": True, "cells": ["".join(line) for line in cells], "tags": tags}
        shop = read_shop(mat, PIECES, previous=self.previous)
        self.previous = shop["cards"]
        return {"kind": "shop", "cards": shop["cards"]}


def speculations_shown(document: Any) -> list[Any]:
    """Every speculation card a JSON document shows (a speculate action naming its card)."""
    if isinstance(document, dict):
        own = ([document["card"]] if document.get("type") == "speculate"
               and document.get("card") is not None else [])
        return own + [card for value in document.values() for card in speculations_shown(value)]
    if isinstance(document, list):
        return [card for value in document for card in speculations_shown(value)]
    return []


def read_the_shop(station: DealtTable, table: Table, rng: random.Random) -> None:
    """The drone hides card 0/9 and a hand another; a person enters that one, then the camera
    reads the rest (each reading twice); the ninth card follows by elimination."""
    drone = table.cell_of(0)
    hand = rng.choice([(row, col) for row in range(3) for col in range(3) if (row, col) != drone])
    camera = ShopCamera()
    station.observe_twice(camera.reading(table, {hand}, drone))
    station.pick(lambda action: action["zone"] == "shop" and (action["row"], action["col"])
                 == hand and action["card"] == table.layout[hand[0]][hand[1]])
    station.observe(camera.reading(table, set(), drone))
    assert station.game()["state"]["shop"] == table.layout


def play_a_round(station: DealtTable, table: Table, rng: random.Random, index: int) -> Round:
    count = len(PLAYERS)
    table.deal_presents()
    pilots = (PLAYERS[index % count], PLAYERS[(index + 1) % count])
    speculators = [PLAYERS[(index + offset) % count] for offset in range(2, count)]
    cards = rng.sample(range(10), len(speculators))
    for position, card in enumerate(cards):
        if position == 1 and index == 0:  # ONE illegal: a card already taken, refused
            refused = station.client.post(f"/api/tables/{station.id}/observations", headers=AUTH,
                                          json={"observation": {"kind": "declared", "action": {
                                              "type": "speculate", "card": cards[0]}}})
            assert refused.status_code == 422  # the person hears why; nothing is flagged
            assert "not among the remaining cards" in refused.json()["detail"]
        assert station.declare({"type": "speculate", "card": card}) != []
    assert speculations_shown(station.snapshot()) == [], "the snapshot shows a speculation"
    reached = rng.choice([rng.randrange(9), 9])
    ending = "home" if reached == 9 else rng.choice(["fall", "wrong-landing", "touch"])
    start = len(station.applied)
    for item in table.challenge(reached, ending):
        station.observe(item, source=SOURCES[item["kind"]])
    named = [action for action in station.applied[start:] if action["type"] == "reveal"]
    assert named and all(table.deal[action["shop"]] == action["present"] for action in named)
    return Round(pilots, dict(zip(speculators, cards, strict=True)), reached, ending)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_hand_dealt_game_is_refereed_through_the_api(client: TestClient, settings: Settings,
                                                       seed: int) -> None:
    rng = random.Random(seed)  # the table's own generator: the station has no seed here
    table = Table(rng, masses=MASSES)
    station = DealtTable(client, "pick-n-packers", PLAYERS)
    table.lay_out()
    read_the_shop(station, table, rng)
    rounds = [play_a_round(station, table, rng, index) for index in range(len(PLAYERS))]
    assert station.flags() == [] and station.unexpected == []
    game = station.game()
    assert game["over"]
    assert [(r["reached"], r["ending"]) for r in game["state"]["results"]] == [
        (played.reached, played.ending) for played in rounds]
    expected = rulebook_scores(rounds)
    assert {score["player"]: score["total"] for score in game["scores"]} == expected
    best = max(expected.values())
    assert game["winners"] == [player for player in PLAYERS if expected[player] == best]
    assert game["state"]["shop"] == table.layout
    assert station.tally["picker reveal"] == 1
    station.assert_public()
    station.assert_replayed(settings)
    print(f"pick-n-packers seed {seed}: {dict(station.tally)}, flags 0")

