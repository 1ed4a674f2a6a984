"""Sensor faults: reported as docs/formats.md §7 says, and never read as loads or drops."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.events import LiveEventDetector, detect_events
from hardware.faults import FaultMonitor, SensorFault
from hardware.samples import Samples
from hardware.simulate import FAULT_KINDS, inject_fault, simulate_challenge
from tests.hardware.test_events import still_stream

LOAD_AT = 6.0  # a 12 g present placed on the still drone


def loaded_stream(seconds: float = 12.0) -> Samples:
    return still_stream(seconds, lambda t: np.where(t > LOAD_AT, 12.0, 0.0))


def faults_of(events) -> list[dict]:
    return [event.to_json() for event in events if isinstance(event, SensorFault)]


def kinds(events) -> list[str]:
    return [event.event for event in events if not isinstance(event, SensorFault)]


@pytest.mark.parametrize("kind", list(FAULT_KINDS))
def test_each_stuck_sensor_is_reported_with_its_sensor_and_its_start(kind: str) -> None:
    stuck, injected = inject_fault(loaded_stream(), kind, 4.0, 3.0)
    faults = faults_of(detect_events(stuck))
    assert [(fault["event"], fault["sensor"]) for fault in faults] == [
        ("fault", injected.sensor), ("fault-cleared", injected.sensor)]
    assert faults[0]["t"] == pytest.approx(injected.start, abs=0.02)
    assert faults[1]["t"] == pytest.approx(injected.end, abs=0.02)
    assert faults[0]["reason"]


@pytest.mark.parametrize("kind", list(FAULT_KINDS))
def test_no_load_is_read_from_a_present_placed_while_a_sensor_is_faulty(kind: str) -> None:
    stuck, _ = inject_fault(loaded_stream(), kind, 4.0, 3.0)  # the load at 6 s is inside
    assert kinds(detect_events(stuck)) == []


def test_after_the_fault_is_cleared_events_resume_with_the_mass_carried() -> None:
    def force(t):
        return np.where(t > LOAD_AT, 12.0, 0.0) + np.where(t > 10.0, 5.0, 0.0)

    stuck, _ = inject_fault(still_stream(14.0, force), "load-frozen", 4.0, 3.0)
    events = detect_events(stuck)
    assert kinds(events) == ["load"]
    load = next(event for event in events if event.event == "load")
    assert load.t == pytest.approx(10.0, abs=0.05)
    assert load.mass_g == pytest.approx(17.0, abs=0.2)


def test_the_frozen_reading_is_named_as_the_contract_shows() -> None:
    stream = still_stream(5.0, lambda t: 14.21 + 0 * t)
    stuck, _ = inject_fault(stream, "load-frozen", 1.0, 2.0)
    fault = faults_of(detect_events(stuck))[0]
    assert fault["reason"].startswith("reading frozen at ")
    assert fault["reason"].endswith(" g for 1.0 s")
    assert set(fault) == {"t", "event", "sensor", "reason"}


def test_a_healthy_challenge_has_no_fault() -> None:
    for seed in (1, 2, 3):
        assert faults_of(detect_events(simulate_challenge(seed).samples)) == []


def test_a_single_odd_row_is_no_fault() -> None:
    stream = loaded_stream(4.0)
    columns = [column.copy() for column in stream.columns()]
    for column in columns[2:]:
        column[150] = 0.0  # one failed read
    columns[1][200] = 5000.0  # one spike beyond the range
    assert faults_of(detect_events(Samples(*columns))) == []


def _live(samples: Samples, chunk_s: float = 0.25):
    """(event, stream time when it was reported): chunks as they come, and while none
    comes the station tells the detector how long it has waited."""
    live = LiveEventDetector()
    reported = []
    width = int(chunk_s * 100)
    now = 0.0
    for start in range(0, len(samples), width):
        chunk = Samples(*(column[start:start + width] for column in samples.columns()))
        while chunk.t[0] - now > chunk_s:
            now += chunk_s
            reported += [(event, now) for event in live.idle(now)]
        now = float(chunk.t[-1])
        reported += [(event, now) for event in live.add(chunk)]
    return reported + [(event, np.inf) for event in live.finish()], live


@pytest.mark.parametrize("kind", list(FAULT_KINDS))
def test_the_live_detector_reports_a_fault_within_a_second_and_a_half(kind: str) -> None:
    stuck, injected = inject_fault(loaded_stream(), kind, 4.0, 3.0)
    reported, _ = _live(stuck)
    faults = [(event, at) for event, at in reported if isinstance(event, SensorFault)]
    fault, at = faults[0]
    assert (fault.event, fault.sensor) == ("fault", injected.sensor)
    assert fault.t == pytest.approx(injected.start, abs=0.02)
    assert at - injected.start <= 1.5
    assert [event.event for event, _ in faults] == ["fault", "fault-cleared"]
    assert [event.event for event, _ in reported if not isinstance(event, SensorFault)] == []


def test_a_stalled_live_stream_is_a_link_fault_before_the_samples_come_back() -> None:
    live = LiveEventDetector()
    stream = loaded_stream(3.0)
    live.add(stream)
    assert live.idle(float(stream.t[-1]) + 0.3) == []
    fault = live.idle(float(stream.t[-1]) + 0.6)
    assert [(f.event, f.sensor) for f in fault] == [("fault", "link")]
    assert fault[0].t == pytest.approx(float(stream.t[-1]) + 0.01, abs=0.005)
    assert live.faulty == ["link"]
    later = still_stream(2.0, lambda t: 0 * t)
    back = live.add(Samples(later.t + 5.0, *later.columns()[1:]))
    assert [(f.event, f.sensor, f.t) for f in back] == [("fault-cleared", "link", 5.0)]


def test_the_monitor_steps_through_rows_only_where_something_is_odd() -> None:
    monitor = FaultMonitor()
    assert monitor.add(loaded_stream(30.0)) == []
    assert repr(monitor) == "<FaultMonitor faulty: none, 0 faults>"


def test_the_boards_own_status_is_a_fault_of_its_sensor_in_a_capture() -> None:
    from firmware import frames
    from hardware.calibration import Calibration
    from hardware.capture import encode_capture, read_capture_bytes

    data = encode_capture(loaded_stream(), Calibration(8000, 0.0024))
    data += frames.encode_frame(frames.STATUS, 60000, 4_000_000,
                                frames.pack_status(0, False, True, 100))
    data += frames.encode_frame(frames.STATUS, 60001, 7_500_000,
                                frames.pack_status(0, True, True, 100))
    capture = read_capture_bytes(data)
    events = detect_events(capture.samples, reported=capture.board_faults)
    assert faults_of(events) == [
        {"t": 4.0, "event": "fault", "sensor": "load-cell",
         "reason": "the board reports the HX711 not ready for over 200 ms"},
        {"t": 7.5, "event": "fault-cleared", "sensor": "load-cell"}]
    assert kinds(events) == []  # the present placed at 6 s was not seen by a sound cell


def held_like_a_slow_cell(samples: Samples, rows: int = 9) -> Samples:
    """The load cell's reading held over ``rows`` IMU rows (a 10 SPS HX711 at 100 Hz)."""
    held = samples.force_g[(np.arange(len(samples)) // rows) * rows]
    return Samples(samples.t, held, *samples.columns()[2:])


def test_a_frozen_slow_cell_is_cleared_though_its_readings_are_held() -> None:
    samples = held_like_a_slow_cell(simulate_challenge(seed=5).samples)
    stuck, _ = inject_fault(samples, "load-frozen", 6.0, 2.0)
    faults = [event for event in detect_events(stuck) if isinstance(event, SensorFault)]
    assert [fault.event for fault in faults] == ["fault", "fault-cleared"]
    assert faults[1].t == pytest.approx(8.0, abs=0.6)
