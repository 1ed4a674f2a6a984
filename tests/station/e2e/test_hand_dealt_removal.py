"""A whole game of Removal dealt by hand, refereed by the station through its API.

The table (the referee-level test's: its own ``random.Random``, the rulebook's
final scoring with each drive scored by docs/formats.md §4's function) shuffles the
bag and the boxes, lays out the house and moves the tiles. The station hears:

- the deal, read by a person (``{"kind": "house", ...}``) with a hand over an
  area first, the area it leaves open entered from the picker, then read whole;
- the trucks as the camera source posts them: tags mats through the stability
  filter, a hand over a mat now and then (``?`` cells), then
  ``vision.games.removal.read_truck`` for each, one reading of every truck — every
  reading posted twice;
- the Helper cards a player plays, entered by a person before the tile is laid
  (``{"kind": "person", "helpers": [...]}``), and a store declared (no camera
  films the storage).

The players choose among the station's own legal actions (``/legal-actions``).
One tile is laid where nothing holds it up: it must be all that is flagged (each
reading of it: a hand passing over it makes a second one).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from station.config import Settings
from tests.rules.games.removal.test_hand_dealt_removal import (
    SHAPES,
    STABLE,
    TAGS,
    Table,
    _illegal_spot,
    rulebook_scores,
)
from tests.station.e2e.dealt_table import DealtTable
from vision.games.removal import read_truck
from vision.stability import Stabilizer


class TruckCamera:
    """The camera source's side for the trucks: a stable reading that changed is posted as
    one reading of every truck, ``{"kind": "trucks", "trucks": [{"player",
    **read_truck(...)}, ...]}`` (tags in place order), as Removal's camera wiring does."""

    def __init__(self, station: DealtTable, players: list[str]) -> None:
        self.station, self.players = station, players
        self.stabilizer = Stabilizer(STABLE)
        self.sent: dict[str, Any] | None = None

    def film(self, frames: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
        """Every action the frames led to (each posted reading is posted once more). A hand
        over a mat holds still long enough to be a stable reading (``?`` cells, the tags
        under it unseen)."""
        done: list[dict[str, Any]] = []
        for mats in (still for frame in frames for still in [frame] * held(frame)):
            changed = self.stabilizer.update(mats)
            if changed is None:
                continue
            observation = {"kind": "trucks", "trucks": [
                {"player": self.players[mat["id"]], **read_truck(in_place_order(mat), TAGS,
                                                                 SHAPES)}
                for mat in changed]}
            if self.sent == observation:
                continue
            self.sent = observation
            flagged = len(self.station.refused)
            done += self.station.observe(observation)
            if len(self.station.refused) == flagged:  # the same reading again: nothing
                assert self.station.observe(observation) == []
        return done


def in_place_order(mat: dict[str, Any]) -> dict[str, Any]:
    """The mat with its tags in place order (row, column, id)."""
    return {**mat, "tags": sorted(mat["tags"], key=lambda t: (t["row"], t["col"], t["id"]))}


def held(mats: list[dict[str, Any]]) -> int:
    """How many frames in a row the camera sees ``mats``: a hand rests, the rest is once."""
    return STABLE if any("?" in line for mat in mats for line in mat["cells"]) else 1


def read_deal(station: DealtTable, table: Table) -> None:
    """A person reads the deal with a hand over an area, enters that area from the picker,
    then reads the whole deal (twice)."""
    partial = station.observe(table.reading(hand=True), source="person")
    assert all(action["type"] == "reveal" for action in partial)
    waiting = station.outcomes()
    if waiting:  # the slot the hand left open (the reveals stop at the first open one)
        slot = waiting[0]
        truth = (table.house[slot["row"]][slot["col"]] if slot["zone"] == "house"
                 else table.waiting[slot["slot"]] if slot["zone"] == "waiting"
                 else table.keepsakes[slot["slot"]])
        station.pick(lambda action: truth in action.values())
    station.observe(table.reading(hand=False), source="person")
    assert not station.game()["chance"]["waiting"]
    assert station.observe(table.reading(hand=False), source="person") == []


def play(client: TestClient, seed: int, players: list[str], keepsakes: bool
         ) -> tuple[Table, DealtTable]:
    rng = random.Random(seed)  # the table's own: the station has no seed here
    table = Table(rng, players, keepsakes)
    station = DealtTable(client, "removal", players, options={"keepsakes": keepsakes},
                         mirror=True)
    camera = TruckCamera(station, players)
    assert camera.film(table.frames()) == []  # empty trucks, before the deal is read
    read_deal(station, table)
    station.assert_public(f'"{tile}"' for tile in table.bag)
    while not table.over:
        player = station.game()["current_player"]
        action = rng.choice(station.legal_actions())
        if action["type"] == "store":
            assert station.declare(action) == [action]  # no camera films the storage
            round_over = table.play(player, action)
        else:
            if action["helpers"]:  # the Helper cards, entered before the tile is laid
                assert station.observe({"kind": "person", "helpers": action["helpers"]},
                                       source="person") == []
            if (not station.refused and action["type"] == "load"
                    and station.tally["actions"] > 40
                    and (wrong := _illegal_spot(station.mirror, action)) is not None):
                shown = [*table.trucks[player], {"item": action["item"], **{
                    key: wrong[key] for key in ("row", "col", "rotation", "flip")}}]
                with station.breaking_a_rule():  # each reading of it flagged, none applied
                    assert camera.film(table.frames({player: shown})) == []
                assert station.refused  # the player sees the flag and lays the tile again
            round_over = table.play(player, action)
            assert camera.film(table.frames()) == [action]
        if round_over:
            table.end_round()
        if round_over and not table.over:
            assert station.game()["chance"]["waiting"]
            read_deal(station, table)
    return table, station


@pytest.mark.parametrize(("seed", "players", "keepsakes"), [
    (4, ["Ana", "Ben"], True),
    (5, ["Ana", "Ben", "Cas"], False),
])
def test_a_hand_dealt_game_is_refereed_through_the_api(
        client: TestClient, settings: Settings, seed: int, players: list[str],
        keepsakes: bool) -> None:
    table, station = play(client, seed, players, keepsakes)
    station.assert_flagged_only("no square rests on the floor or an item", closed=True)
    flags = station.flags()
    game = station.game()
    assert game["over"]
    totals, winners = rulebook_scores(table)
    assert [score["total"] for score in game["scores"]] == totals
    assert game["winners"] == winners
    assert [seat["storage"] for seat in game["state"]["players"]] == table.storage
    assert station.tally["picker reveal"] >= 1
    station.assert_mirrored()
    station.assert_public()
    station.assert_replayed(settings)
    print(f"removal {len(players)} players seed {seed}: {dict(station.tally)}, "
          f"flags {len(flags)}")
