"""The tile games' camera referees in the live loop: a reader's view becomes an applied
action, and a view the rules refuse becomes a flag with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from rules import State
from station.demo.camera_fixtures import mat_contents, truth_mats
from station.live import camera, translators
from station.live.camera import DEFAULT_STABLE, CameraSource, table_layout
from station.live.hub import Hub
from station.live.sources import hand_on
from station.live.station import Station
from station.store import EventStore, FixedClock
from tests.rules.games.moving_day import test_referee_moving_day as moving_day
from tests.rules.games.removal import test_referee_removal as removal
from tests.rules.games.small_warehouse import test_referee_small_warehouse as small_warehouse
from tests.station.live.test_camera_hands import SCRIPT, ScriptedReader


def live_state(station: Station) -> State:
    current = station.table("t1").current
    assert current is not None
    return current.state


def played(state: State, choose: Callable[[dict[str, Any]], bool]) -> tuple[dict, State]:
    action = next(a for a in state.legal_actions() if choose(a))
    after = state.clone()
    after.apply(action)
    return action, after


def kinds_since(station: Station, seq: int) -> list[str]:
    return [event.kind for event in station.store.events("t1") if event.seq > seq]


def test_the_tile_games_have_their_camera_referees() -> None:
    games = translators.translated_games()
    assert {"small-warehouse", "moving-day", "removal"} <= set(games)


def test_small_warehouse_a_card_seen_is_placed_and_a_stray_square_is_flagged(
        station: Station) -> None:
    station.start_game("t1", "small-warehouse", ["Ana", "Ben"], seed=7, options=None,
                       author="organiser")
    action, after = played(live_state(station), lambda a: a["source"] == "supply")
    station.observe("t1", small_warehouse.seen_by_camera(after), "camera", "camera")
    assert station.snapshot("t1")["game"]["actions"] == 1
    assert live_state(station).log == [action]
    stray = after.clone()
    stray.data["grids"][1] = ["E" + line[1:] for line in stray.data["grids"][1]]  # Ben's turn
    seq = station.store.last_seq("t1")
    station.observe("t1", small_warehouse.seen_by_camera(stray), "camera", "camera")
    flags = station.snapshot("t1")["flags"]
    assert kinds_since(station, seq) == ["observation", "flag"]
    assert flags[0]["action"] is None
    assert flags[0]["reason"].startswith("the warehouse of Ben shows E at row 1, column 1")
    assert live_state(station).log == [action]


def test_moving_day_two_boxes_seen_are_a_take_and_a_floating_box_is_flagged(
        station: Station) -> None:
    station.start_game("t1", "moving-day", ["Ana", "Ben"], seed=3, options=None,
                       author="organiser")
    take, after = played(live_state(station), lambda a: a["group"] == 1)
    first_box = take["boxes"][0]["box"]
    station.observe("t1", moving_day.seen_by_camera(after, frozenset({first_box})),
                    "camera", "camera")  # half the group: nothing yet
    station.observe("t1", moving_day.seen_by_camera(after, helper_vehicle="car"),
                    "camera", "camera")
    assert live_state(station).log == [dict(take, helper_vehicle="car")]
    box = live_state(station).data["groups"][0]["boxes"][0]
    floating = {"kind": "vehicles", "players": [{"player": "Ben", "vehicles": [
        {"vehicle": "car", "found": True, "boxes": [{"box": box, "row": 0, "col": 1}]}]}]}
    seq = station.store.last_seq("t1")
    station.observe("t1", floating, "camera", "camera")
    assert kinds_since(station, seq) == ["observation", "flag"]
    assert "each box goes into the lowest row" in station.snapshot("t1")["flags"][0]["reason"]
    assert station.snapshot("t1")["game"]["actions"] == 1


def test_removal_a_tile_seen_is_loaded_and_a_floating_tile_is_flagged(
        station: Station) -> None:
    station.start_game("t1", "removal", ["Ana", "Ben"], seed=1, options=None,
                       author="organiser")
    load, after = played(live_state(station), lambda a: a["type"] == "load")
    station.observe("t1", removal.seen_by_camera(after, 0), "camera", "camera")
    assert live_state(station).log == [load]
    ben_load, _ = played(live_state(station), lambda a: a["type"] == "load")
    floating = dict(ben_load, row=0, col=3, rotation=0, flip=False)
    seq = station.store.last_seq("t1")
    station.observe("t1", removal.seen_by_camera(live_state(station), 1, [floating]),
                    "camera", "camera")
    assert kinds_since(station, seq) == ["observation", "flag"]
    assert station.snapshot("t1")["flags"][0]["reason"] == "no square rests on the floor or an item"
    restarted = Station(EventStore(station.store.database, FixedClock()), Hub())
    assert restarted.resume() == ["t1"]
    assert restarted.snapshot("t1") == station.snapshot("t1")


@pytest.mark.parametrize("still", [(0, 1, 3), (0, 3)], ids=["ben-and-ana-again", "all-three"])
def test_removal_turns_the_camera_missed_are_caught_up_from_one_frame_unflagged(
        station: Station, monkeypatch: pytest.MonkeyPatch, still: tuple[int, ...]) -> None:
    # Ana loads, Ben loads, Ana loads again; the camera holds still only on the states
    # ``still`` (0: the start), so one frame shows Ben's turn and Ana's next at once (or
    # all three: Ana's truck shows two turns, Ben's between them). Frames go through the
    # camera source with Removal's own wiring, as ``packref serve --camera`` reads them.
    monkeypatch.setattr(camera, "Reader", ScriptedReader)  # frame i reads as SCRIPT[i]
    station.start_game("t1", "removal", ["Ana", "Ben"], seed=1, options=None,
                       author="organiser")
    laid_out = table_layout(station, "t1")
    assert laid_out is not None
    states = [live_state(station)]
    for _ in range(3):
        states.append(removal.first_load(states[-1])[1])
    SCRIPT[:] = [truth_mats(mat_contents(laid_out[1], states[index]))
                 for index in still for _ in range(DEFAULT_STABLE)]
    frames = [np.full((1, 1), index) for index in range(len(SCRIPT))]
    for item in CameraSource(frames, laid_out[1], fps=3.0):
        hand_on(station, "t1", item, "camera")
    assert station.snapshot("t1")["flags"] == []
    assert live_state(station).to_json() == states[3].to_json()
