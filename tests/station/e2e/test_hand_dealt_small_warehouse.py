"""A whole game of Small Warehouse dealt by hand, refereed by the station through its API.

The table (the referee-level test's: its own ``random.Random``, the rulebook's
placements) shuffles and deals the cards and plays; the station hears only what
its camera source posts — ``{"kind": "warehouses", ...}`` made by
``vision.games.small_warehouse.read_warehouses`` from the two mats, hands over
them (``?``), every reading posted twice — and, once, the face-up supply a person
enters from the picker (no camera films the supply). One card is laid where the
rules forbid: that must be the only flag. The final scores must equal the
rulebook's scoring of the cards on the table, computed by the test.
"""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from station.config import Settings
from tests.rules.games.small_warehouse.test_hand_dealt_small_warehouse import (
    CARDS,
    ILLEGAL_TURN,
    PICKER_TURN,
    PLAYERS,
    PhysicalTable,
    camera_reading,
    hand_over,
    rulebook_score,
)
from tests.station.e2e.dealt_table import DealtTable


def unseen_and_unique(table: PhysicalTable, seen: set[str]) -> list[str]:
    """Face-down cards no other card looks like (a look-alike may rightly be named)."""
    hidden = [*table.pile, *(card for hand in table.hands.values() for card in hand)]
    looks = [json.dumps(squares) for squares in CARDS.values()]
    return [card for card in hidden if card not in seen
            and looks.count(json.dumps(CARDS[card])) == 1]


def play(client: TestClient, seed: int) -> tuple[PhysicalTable, DealtTable]:
    rng = random.Random(seed)  # the table's own shuffle: the station never sees it
    table = PhysicalTable(rng)
    table.deal()
    station = DealtTable(client, "small-warehouse", list(PLAYERS))
    seen: set[str] = set(table.supply)  # face up from the start
    station.observe_twice(camera_reading(table.grids, {"Ben": {(0, 0), (7, 9)}}))
    turn = 0
    while not table.over():
        player, other = PLAYERS[turn % 2], PLAYERS[1 - turn % 2]
        if turn == PICKER_TURN:  # a person enters the face-up supply from the picker
            for card in table.supply:
                station.pick(lambda action, card=card: action["zone"] == "supply"
                             and CARDS[action["card"]] == CARDS[card])
            station.assert_public(json.dumps(card) for card in unseen_and_unique(table, seen))
        if turn == ILLEGAL_TURN:
            wrong = dict(table.grids, **{player: table.far_placement(player)})
            with station.breaking_a_rule():
                assert station.observe(camera_reading(wrong, {})) == []
            assert station.observe(camera_reading(table.grids, {})) == []  # taken back
        before = table.grids[player]
        table.play(player)
        seen |= set(table.supply)
        reading = camera_reading(table.grids, {
            player: hand_over(rng, before, table.grids[player]),
            other: {(rng.randrange(8), rng.randrange(10))}})
        assert station.observe_twice(reading), f"turn {turn} was not seen"
        turn += 1
    return table, station


@pytest.mark.parametrize("seed", [3, 2026])
def test_a_hand_dealt_game_is_refereed_through_the_api(client: TestClient, settings: Settings,
                                                       seed: int) -> None:
    table, station = play(client, seed)
    station.assert_flagged_only("which no legal placement gives")
    flags = station.flags()
    assert len(flags) == 1 and flags[0]["action"] is None  # refused: nothing applied
    assert "overlap or touch" in flags[0]["reason"]
    game = station.game()
    assert game["over"] and game["actions"] == station.tally["actions"]
    assert game["state"]["grids"] == [table.grids[player] for player in PLAYERS]
    assert all(card is None for hand in game["state"]["hands"] for card in hand)
    expected = {player: rulebook_score(table.grids[player]) for player in PLAYERS}
    assert [score["total"] for score in game["scores"]] == [expected[p][0] for p in PLAYERS]
    keys = {player: (points, -boxes) for player, (points, boxes) in expected.items()}
    assert game["winners"] == [p for p in PLAYERS if keys[p] == max(keys.values())]
    assert station.tally["picker reveal"] == 3 and station.tally["camera reveal"] == 2
    assert station.tally["camera place"] == 14
    station.assert_public()
    station.assert_replayed(settings)
    print(f"small-warehouse seed {seed}: {dict(station.tally)}, flags {len(flags)}")
