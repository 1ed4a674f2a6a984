"""A copy's catalogue at a live table: the camera knows its pieces by the tags stuck on them,
and the table's events alone rebuild the game."""

from __future__ import annotations

import random

import pytest

from rules.catalogue import default_catalogue
from station.copies import read_copy
from station.demo.camera_fixtures import camera_sees, mat_contents, truth_mats
from station.jsonin import Node
from station.live.camera import GameReader, table_layout
from station.live.hub import Hub
from station.live.station import Station
from station.live.table import LiveTable
from station.store import EventStore, FixedClock, open_database


@pytest.fixture
def station(tmp_path):
    database = open_database(f"sqlite:///{tmp_path / 'station.sqlite3'}")
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Table 1", "t1")
    yield station
    database.close()


def _copy():
    items = default_catalogue("removal")["items"][:36]
    learnt = {"game": "removal", "items": [
        {"tag": 249 - index, "shape": item["shape"], "name": f"our {item['name']}",
         **{key: item[key] for key in ("heavy", "delicate", "upright", "symbol") if key in item}}
        for index, item in enumerate(items)]}
    return read_copy("removal", Node(learnt))


def test_the_camera_plays_a_copy_by_its_own_tags(station):
    station.start_game("t1", "removal", ["Ana", "Ben"], 5, None, "test", catalogue=_copy())
    _, layout = table_layout(station, "t1")
    assert layout.tags[249] == {"piece": "T249", "face": "front"}  # the tag stuck on it
    rng = random.Random(1)
    reader = GameReader(layout)
    seen = 0
    for _ in range(12):
        state = station.table("t1").current.state
        if state.is_over():
            break
        for action in rng.sample(state.legal_actions(), min(6, len(state.legal_actions()))):
            after = state.game.from_json(state.to_json())
            after.apply(action)
            if action["type"] == "load" and camera_sees(layout, state, action, after):
                break
        else:
            station.correct("t1", state.legal_actions()[0], "test")
            continue
        for observation in reader.observations(truth_mats(mat_contents(layout, after)), 0).values():
            station.observe("t1", observation, "camera", "test")
        assert station.table("t1").current.state.log[-1] == action
        seen += 1
    assert seen >= 3


def test_the_events_rebuild_the_game_without_the_catalogue(station):
    station.start_game("t1", "removal", ["Ana", "Ben"], 9, None, "test", catalogue=_copy())
    live = station.table("t1")
    for _ in range(5):
        station.correct("t1", live.current.state.legal_actions()[0], "test")
    rebuilt = LiveTable.rebuild(live.info, station.store.events("t1"))
    assert rebuilt.current.state.to_json() == station.table("t1").current.state.to_json()
    assert rebuilt.current.catalogue["items"][0]["name"] == "our piano"
