"""A board written to a loop:// port in step with the host's reads, in the stream's clock."""

from __future__ import annotations

import pytest

from devkit.hardware.fixtures import CALIBRATION
from hardware.capture import read_capture
from hardware.paced import PacedBoard
from hardware.samples import Samples
from hardware.simulate import inject_fault
from hardware.stream import DroneStream
from tests.conftest import REPO

CAPTURE = REPO / "fixtures" / "drone" / "sim-0003.bin"


def first_seconds(seconds: float) -> Samples:
    samples = read_capture(CAPTURE).samples
    keep = samples.t <= seconds
    return Samples(*(column[keep] for column in samples.columns()))


def test_each_read_brings_the_next_step_of_the_stream_and_the_clock_is_the_streams() -> None:
    samples = first_seconds(4.0)
    board = PacedBoard(samples, CALIBRATION, step_s=0.1)
    stream = DroneStream("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic)
    reads, events = 0, []
    with stream:
        while not board.stop.is_set():
            read = stream.read()
            reads += 1
            events += read.events
            assert read.newest is not None  # every step of 0.1 s holds samples
            assert board.written - 0.1 < read.newest <= board.written + 1e-9
    events += stream.finish()
    assert [event.event for event in events] == ["load", "lift"]  # sim-0003's first 4 s
    assert stream.faulty == []
    assert stream.clock() == pytest.approx(float(samples.t[-1]))
    assert reads == round(float(samples.t[-1]) / 0.1) + 1
    assert "PacedBoard" in repr(board)


def test_a_stall_is_silence_on_the_port_and_a_link_fault_in_stream_time() -> None:
    stalled, injected = inject_fault(first_seconds(6.0), "link-stall", 3.0, 1.5)
    board = PacedBoard(stalled, CALIBRATION)
    stream = DroneStream("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic)
    reported = []
    with stream:
        while not board.stop.is_set():
            reported += [(fault, board.written) for fault in stream.read().events
                         if fault.event.startswith("fault")]
    (fault, seen), (cleared, _) = reported
    assert (fault.event, fault.sensor, cleared.event) == ("fault", "link", "fault-cleared")
    assert fault.t == pytest.approx(injected.start, abs=0.02)
    assert seen - injected.start <= 0.7  # 0.5 s of silence, then the next read tells it
