"""The clock bridge of a table: the host's monotonic clock → the drone stream's clock, and a
live camera stamping the drone's positions in the drone's clock through it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from firmware import frames
from hardware.link import DroneLink
from rules.games.pick_n_packers.referee import PickNPackersReferee
from station.live.camera import CameraSource, camera_layout
from station.live.clock_bridge import ClockBridge
from station.live.drone import DroneSource
from tests.conftest import REPO

SIM_3 = f"replay://{REPO / 'fixtures' / 'drone' / 'sim-0003.bin'}"
# sim-0003: loads, lands (4.835), loads, lands (9.004), loads, a present falls in flight.
HOST_0 = 5000.0  # the host's monotonic clock when the board's clock reads 0
TRANSIT_S = 0.003  # from the board's stamp to the host's read
LATE_S = 0.5  # a read the host took this much later


# ------------------------------------------------------------------------ the bridge alone
def test_no_pair_yet_means_no_offset() -> None:
    bridge = ClockBridge()
    assert bridge.offset() is None
    assert bridge.to_drone(12.0) is None
    bridge.note(100.0, 3.0)
    bridge.clear()
    assert bridge.to_drone(12.0) is None


def test_the_offset_is_drone_time_minus_host_time() -> None:
    bridge = ClockBridge()
    for step in range(5):
        bridge.note(100.0 + step * 0.25, 3.0 + step * 0.25)
    assert bridge.offset() == pytest.approx(-97.0)
    assert bridge.to_drone(110.0) == pytest.approx(13.0)


def test_one_late_frame_does_not_move_the_offset() -> None:
    bridge = ClockBridge(window=5)
    for step in range(5):
        late = LATE_S if step == 3 else 0.0
        bridge.note(100.0 + step * 0.25 + late, 3.0 + step * 0.25)
    assert bridge.offset() == pytest.approx(-97.0)


def test_the_window_keeps_the_latest_pairs() -> None:
    bridge = ClockBridge(window=3)
    for step in range(3):
        bridge.note(100.0 + step, 3.0 + step)  # offset -97 (an old board clock)
    for step in range(3):
        bridge.note(200.0 + step, 1.0 + step)  # the board restarted: offset -199
    assert bridge.offset() == pytest.approx(-199.0)
    with pytest.raises(ValueError, match="at least 1"):
        ClockBridge(window=0)


# ------------------------------------------------------------- a drone and a camera together
class ArrivingLink:
    """A replay's link, with a host clock that reads each frame ``TRANSIT_S`` after its stamp
    (every tenth read ``LATE_S`` later still): the host clock the drone source and the
    camera share."""

    def __init__(self, port: str) -> None:
        self.link = DroneLink(port)
        self.now = HOST_0
        self.reads = 0

    def __enter__(self) -> ArrivingLink:
        self.link.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.link.close()

    def send_command(self, name: str, **arguments: int) -> int | None:
        return self.link.send_command(name, **arguments)

    @property
    def status(self) -> Any:
        return self.link.status

    def poll(self) -> list[frames.Frame]:
        found = self.link.poll()
        stamps = [f.board_us for f in found if f.kind in (frames.SAMPLE_IMU, frames.SAMPLE_LOAD)]
        if stamps:
            self.reads += 1
            late = LATE_S if self.reads % 10 == 5 else 0.0
            self.now = HOST_0 + max(stamps) / 1e6 + TRANSIT_S + late
        return found

    def monotonic(self) -> float:
        return self.now


def shop_with_drone_on(layout: Any, card: int | None) -> list[dict[str, Any]]:
    """The shop mat as the reader gives it: 9 cards in a 3x3 grid, the drone's tag on ``card``
    (None: no drone, the whole shop seen, as the reader needs once before the drone)."""
    tag_of = {piece["piece"]: tag for tag, piece in layout.tags.items()}
    cells = [(index // 3, index % 3) for index in range(9)]
    tags = [{"id": tag_of[name], "row": row, "col": col, "rotation": 0}
            for name, (row, col) in zip(layout.card_numbers, cells, strict=True)
            if layout.card_numbers[name] != card]
    if card is None:
        return [{"id": layout.roles["shop"], "found": True, "cells": ["XXX"] * 3, "tags": tags}]
    row, col = cells[card]
    tags.append({"id": tag_of["drone"], "row": row, "col": col, "rotation": 0})
    return [{"id": layout.roles["shop"], "found": True, "cells": ["XXX"] * 3, "tags": tags}]


def test_a_live_cameras_positions_arrive_on_the_drone_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bridge = ClockBridge()
    link = ArrivingLink(SIM_3)
    drone = DroneSource(SIM_3, link=link, monotonic=link.monotonic, bridge=bridge, offset=100.0)
    items = list(drone)
    assert link.reads > 20  # several late reads went by; the offset holds
    assert bridge.offset() == pytest.approx(100.0 - HOST_0 - TRANSIT_S)

    # The camera (vision stubbed: each "frame" is the stable mats it shows) sees the drone
    # on cards 0, 1, 2 at these host times, its clock the same host clock.
    def stable_readings(found: Iterable[Any], reader: Any,
                        stabilizer: Any) -> Iterator[tuple[int, Any]]:
        yield from enumerate(found)

    monkeypatch.setattr("station.live.camera.stable_readings", stable_readings)
    layout = camera_layout("pick-n-packers", ["Ana", "Ben", "Cas"])
    seen = [(0.5, 0), (5.0, 1), (9.2, 2)]  # board seconds
    bridge.forward_positions(None)  # this drone source is done: the camera hands on itself
    camera = camera_source(layout, seen, bridge)
    items_seen = [item for item in camera if item.observation["kind"] == "drone-position"]
    positions = [item.observation for item in items_seen]
    assert positions == [{"kind": "drone-position", "t": 100.0 + t, "card": card}
                         for t, card in seen]
    assert [item.t for item in items_seen] == [100.0 + t for t, _ in seen]

    # On one clock, the referee puts the drone's landings on the cards the camera saw.
    events = [item.observation for item in items
              if item.observation and item.observation["kind"] == "drone-event"]
    result = PickNPackersReferee().translate(events, positions)
    assert [a["card"] for a in result.actions if a["type"] == "land"] == [1, 2]


def camera_source(layout: Any, seen: list[tuple[float, int]],
                  bridge: ClockBridge) -> CameraSource:
    """A live camera (clock: the host's) that sees the whole shop at board time 0.1, then the
    drone on each ``(board seconds, card)`` of ``seen``."""
    host_times = iter([HOST_0, *(HOST_0 + t + TRANSIT_S for t in [0.1, *(t for t, _ in seen)])])
    return CameraSource([shop_with_drone_on(layout, card) for card in
                         [None, *(card for _, card in seen)]], layout,
                        clock=lambda: next(host_times), bridge=bridge)


def test_without_a_drone_frame_the_camera_keeps_its_own_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("station.live.camera.stable_readings",
                        lambda found, reader, stabilizer: enumerate(found))
    layout = camera_layout("pick-n-packers", ["Ana", "Ben", "Cas"])
    camera = camera_source(layout, [(2.5, 3)], ClockBridge())  # no drone frame came
    assert [item.observation for item in camera
            if item.observation["kind"] == "drone-position"] == [
        {"kind": "drone-position", "t": 2.5 + TRANSIT_S, "card": 3}]  # since the camera started


def test_a_live_cameras_positions_reach_the_table_in_time_order_with_the_drones_events(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("station.live.camera.stable_readings",
                        lambda found, reader, stabilizer: enumerate(found))
    bridge = ClockBridge()
    link = ArrivingLink(SIM_3)
    drone = DroneSource(SIM_3, link=link, monotonic=link.monotonic, bridge=bridge, offset=100.0)
    bridge.note(HOST_0, 100.0 - TRANSIT_S)  # the drone's first frame came
    layout = camera_layout("pick-n-packers", ["Ana", "Ben", "Cas"])
    seen = [(0.5, 0), (5.0, 1), (9.2, 2)]
    # The camera hands its positions to the drone source, not to the table (only the shop's
    # layout goes straight there) ...
    assert [item.observation["kind"] for item in camera_source(layout, seen, bridge)] == ["shop"]
    # ... which hands them on among its events, in one time order.
    observations = [item.observation for item in drone if item.observation]
    times = [observation["t"] for observation in observations]
    assert times == sorted(times)
    positions = [o for o in observations if o["kind"] == "drone-position"]
    assert [(o["t"], o["card"]) for o in positions] == [(100.0 + t, card) for t, card in seen]
    events = [o for o in observations if o["kind"] == "drone-event"]
    result = PickNPackersReferee().translate(events, positions)
    assert [a["card"] for a in result.actions if a["type"] == "land"] == [1, 2]
