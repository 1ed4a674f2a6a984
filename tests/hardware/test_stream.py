"""The drone board as one component: link, frames, samples, live events and faults."""

from __future__ import annotations

import numpy as np
import pytest

from devkit.hardware.evaluation import match_events
from firmware import frames
from hardware.calibration import Calibration
from hardware.capture import SampleAssembler, encode_capture, read_capture, read_capture_bytes
from hardware.events import detect_events
from hardware.faults import SensorFault
from hardware.link import DroneLink, LinkStatus
from hardware.paced import PacedBoard
from hardware.samples import Samples
from hardware.simulate import SimulationOptions, inject_fault, simulate_challenge
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


# -- a whole evening: flat cost ---------------------------------------------------------------
def evening(seeds: range, rest_s: float = 3.0) -> tuple[Samples, list[dict]]:
    """Simulated challenges one after the other as one stream (one board's IMU offsets),
    a still drone ``rest_s`` between them; the samples and the true events."""
    pieces, truth, offset, reference = [], [], 0.0, None
    for seed in seeds:
        run = simulate_challenge(seed, SimulationOptions(lost_fraction=0.0, lost_bursts=0))
        columns = run.samples.columns()
        medians = np.array([np.median(column[:20]) for column in columns[2:]])
        reference = medians if reference is None else reference
        offset += rest_s
        pieces.append([columns[0] + offset, columns[1],
                       *(column - shift for column, shift in
                         zip(columns[2:], medians - reference, strict=True))])
        truth += [{**event, "t": event["t"] + offset} for event in run.truth]
        offset += float(columns[0][-1]) + 0.01
    joined = [np.concatenate(column) for column in zip(*pieces, strict=True)]
    return Samples(*joined), truth


def test_over_minutes_of_stream_the_rows_held_stay_bounded_and_events_are_found() -> None:
    samples, truth = evening(range(40, 46))
    assert samples.duration > 180
    board = PacedBoard(samples, CALIBRATION, step_s=0.05, tail_s=3.0)
    stream = DroneStream("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic)
    held: list[tuple[float, int, int, int]] = []
    events = []
    with stream:
        while not board.stop.is_set():
            events += stream.read().events
            held.append((board.written, stream.pending_rows, stream.kept_loads,
                         stream.detector.window_rows))
    events += stream.finish()
    assert max(pending for _, pending, _, _ in held) <= 50  # under half a second of rows
    assert max(loads for _, _, loads, _ in held) <= 50
    limit = stream.detector.config.live_max_window_s * 100 + 50
    assert max(window for _, _, _, window in held) <= limit
    late = [window for at, _, _, window in held if at > samples.t[-1] - 60]
    early = [window for at, _, _, window in held if at < 60]
    assert max(late) <= max(max(early), limit)
    score = match_events(truth, [event.to_json() for event in events
                                 if not isinstance(event, SensorFault)])
    assert sum(score.false.values()) <= 1, score
    for kind in ("load", "lift", "land"):
        assert score.found[kind] == score.truth[kind], (kind, score)


def test_taking_rows_as_they_come_gives_the_whole_captures_samples() -> None:
    data = CAPTURE.read_bytes()
    capture = read_capture(CAPTURE)
    whole = capture.samples
    assembler = SampleAssembler(Calibration.from_json(capture.header["calibration"]))
    taken = []
    for frame in frames.FrameReader().feed(data[data.index(b"\n", 30) + 1:]):
        assembler.add(frame)
        ready = assembler.ready_until()
        if ready is not None and frame.seq % 37 == 0:
            taken.append(assembler.take(ready))
    taken.append(assembler.take())
    joined = [np.concatenate(column) for column in
              zip(*(part.columns() for part in taken if part is not None), strict=True)]
    for mine, theirs in zip(joined, whole.columns(), strict=True):
        assert np.allclose(mine, theirs)
    assert assembler.pending_rows == 0 and assembler.take() is None


# -- slow load-cell readings between fast IMU rows -------------------------------------------------
@pytest.mark.parametrize("held", [False, True])
def test_a_10_sps_load_cell_held_or_not_gives_the_same_rows(held: bool) -> None:
    run = simulate_challenge(3, SimulationOptions(cards=2, lost_fraction=0.0, lost_bursts=0))
    new_only = read_capture_bytes(encode_capture(run.samples, CALIBRATION, load_hz=10.0))
    repeated = read_capture_bytes(encode_capture(run.samples, CALIBRATION, load_hz=10.0,
                                                 held=held))
    # the same but where two conversions in a row read alike (then a held board's two
    # look like one), and before the first ten repeats show that the board holds
    same = np.isclose(repeated.samples.force_g, new_only.samples.force_g)
    assert same.mean() > 0.95
    after = repeated.samples.t > 0.2
    assert np.allclose(repeated.samples.force_g[after], new_only.samples.force_g[after],
                       atol=0.03)
    steps = np.diff(repeated.samples.force_g)
    assert (steps == 0).mean() < 0.05  # interpolated between conversions, not stairs


@pytest.mark.parametrize("held", [False, True])
def test_a_frozen_load_cell_is_reported_and_cleared_with_slow_readings(held: bool) -> None:
    run = simulate_challenge(3, SimulationOptions(cards=2, lost_fraction=0.0, lost_bursts=0))
    stuck, injected = inject_fault(run.samples, "load-frozen", 4.0, 2.0)
    board = PacedBoard(stuck, CALIBRATION, load_hz=10.0, held=held)
    stream = DroneStream("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic)
    faults = []
    with stream:
        while not board.stop.is_set():
            faults += [event for event in stream.read().events if isinstance(event, SensorFault)]
    faults += [event for event in stream.finish() if isinstance(event, SensorFault)]
    assert [(fault.event, fault.sensor) for fault in faults] == [
        ("fault", "load-cell"), ("fault-cleared", "load-cell")]
    assert faults[0].t == pytest.approx(injected.start, abs=0.15)
    assert faults[1].t == pytest.approx(injected.end, abs=0.3)


# -- link faults on the board's clock --------------------------------------------------------------
class BusyHostLink(DroneLink):
    """``loop://`` to a board writing in real time, read by a host that is busy for
    ``busy_s`` every twentieth read: the board's bytes wait meanwhile, and the first read
    after it catches only the start of a frame (the rest comes with the next)."""

    def __init__(self, data: bytes, busy_s: float = 0.75) -> None:
        super().__init__("loop://", read_timeout=0, monotonic=self.monotonic)
        found = frames.FrameReader().feed(data[data.index(b"\n", 30) + 1:])
        self.frames = [(frame.board_us / 1e6, frames.encode_frame(
            frame.kind, frame.seq, frame.board_us, frame.payload)) for frame in found]
        self.now, self.busy_s, self.polls = 0.0, busy_s, 0
        self.rest = b""

    def poll(self) -> list[frames.Frame]:
        if self._serial is not None:
            self.polls += 1
            busy = self.polls % 20 == 0
            self.now += self.busy_s if busy else POLL_S
            due = [data for at, data in self.frames if at <= self.now]
            self.frames = self.frames[len(due):]
            chunk = self.rest + b"".join(due)
            cut = 5 if busy and len(chunk) > 5 else len(chunk)
            self._serial.write(chunk[:cut])
            self.rest = chunk[cut:]
        return super().poll()

    def monotonic(self) -> float:
        return self.now


def test_a_busy_host_is_no_link_fault_when_the_boards_stamps_have_no_gap() -> None:
    data = encode_capture(still_stream(8.0, lambda t: 0 * t + 5.0), CALIBRATION)
    link = BusyHostLink(data)
    stream = DroneStream("/dev/ttyACM9", link=link, monotonic=link.monotonic,
                         calibration=CALIBRATION)
    reported = []
    with stream:
        while link.frames or link.rest:
            reported += stream.read().events
    assert link.polls > 40 and stream.clock() > 7.5
    assert [event for event in reported if isinstance(event, SensorFault)] == []
