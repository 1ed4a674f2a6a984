"""The drone board as one component: link, frames, samples, live events and faults."""

from __future__ import annotations

import numpy as np
import pytest

from firmware import frames
from hardware.calibration import Calibration
from hardware.capture import encode_capture, read_capture
from hardware.events import detect_events
from hardware.faults import SensorFault
from hardware.link import LinkStatus
from hardware.stream import DroneStream
from tests.conftest import REPO
from tests.hardware.test_events import still_stream

CAPTURE = REPO / "fixtures" / "drone" / "sim-0003.bin"
CALIBRATION = Calibration(8000, 0.0024)
POLL_S = 0.05


class ScriptedLink:
    """A live port: each poll brings the frames stamped in the next ``POLL_S`` of host time
    (host time = board time), none while the board is ``stalled`` (from, to)."""

    def __init__(self, data: bytes, stalled: tuple[float, float]) -> None:
        self.frames = frames.FrameReader().feed(data[data.index(b"\n", 30) + 1:])
        self.now = 0.0
        self.stalled = stalled
        self.status = LinkStatus("scripted")

    def __enter__(self) -> ScriptedLink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def send_command(self, name: str, **arguments: int) -> int:
        return 0

    def poll(self) -> list[frames.Frame]:
        self.now += POLL_S
        if self.stalled[0] <= self.now < self.stalled[1]:
            return []
        due = [frame for frame in self.frames if frame.board_us / 1e6 < self.now]
        self.frames = self.frames[len(due):]
        return [frame for frame in due if not
                self.stalled[0] <= frame.board_us / 1e6 < self.stalled[1]]

    def monotonic(self) -> float:
        return self.now


def test_a_replayed_capture_gives_the_whole_file_events() -> None:
    stream = DroneStream(f"replay://{CAPTURE}", calibration=CALIBRATION)
    events = []
    with stream:
        quiet = 0
        while quiet < 3:
            read = stream.read()
            quiet = 0 if read.frames else quiet + 1
            events += read.events
    events += stream.finish()
    assert stream.ends and stream.faulty == []
    batch = detect_events(read_capture(CAPTURE).samples)
    assert [event.event for event in events] == [event.event for event in batch]
    assert "DroneStream" in repr(stream) and stream.status.frames > 1000


def test_a_stalled_live_port_is_a_link_fault_within_a_second() -> None:
    data = encode_capture(still_stream(8.0, lambda t: 0 * t + 5.0), CALIBRATION)
    link = ScriptedLink(data, stalled=(3.0, 4.5))
    stream = DroneStream("/dev/ttyACM9", link=link, monotonic=link.monotonic,
                         calibration=CALIBRATION)
    reported: list[tuple[SensorFault, float]] = []
    with stream:
        while link.frames:
            reported += [(event, link.now) for event in stream.read().events
                         if isinstance(event, SensorFault)]
    (fault, seen), (cleared, back) = reported
    assert (fault.event, fault.sensor) == ("fault", "link")
    assert fault.t == pytest.approx(3.0, abs=0.03)
    assert seen - fault.t <= 1.0  # host time from the stall to the report
    assert (cleared.event, cleared.sensor) == ("fault-cleared", "link")
    assert cleared.t == pytest.approx(4.5, abs=0.03)
    assert back - cleared.t <= 0.5


def test_the_station_hears_the_drone_only_through_the_stream() -> None:
    source = (REPO / "station" / "live" / "drone.py").read_text(encoding="utf-8")
    assert "firmware" not in source.replace("(never ``firmware``", "")
    assert "SampleAssembler" not in source and "._assembler" not in source
    assert np.isfinite(DroneStream("loop://").clock())
