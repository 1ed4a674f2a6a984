"""Raw serial captures of the drone board, and turning their frames into samples.

A capture file is one header line, one JSON line, then the bytes exactly as they
came from the serial port::

    PACKREF-DRONE-CAPTURE 1
    {"board_id": "e6614c...", "calibration": {"tare_counts": 8123, "grams_per_count": 0.0024},
     "imu": {"accel_lsb_per_g": 8192, "gyro_lsb_per_dps": 65.5}}
    <raw bytes: 00 COBS frame 00 00 COBS frame 00 ...>

Load-cell and IMU readings arrive as separate frames, each stamped by the
board. :class:`SampleAssembler` makes the contract's rows from them: one row per
IMU sample, with the force linearly interpolated between the load readings
around it, in seconds of the board's clock.

Example::

    >>> from hardware.simulate import simulate_challenge
    >>> run = simulate_challenge(seed=2)
    >>> data = encode_capture(run.samples, Calibration(8000, 0.002))
    >>> read_capture_bytes(data, "sim.bin").samples
    <Samples ... rows, ... s>
"""

from __future__ import annotations

import bisect
import itertools
import json
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from firmware import frames
from hardware.calibration import Calibration
from hardware.errors import SampleFileError
from hardware.faults import SensorFault
from hardware.samples import Samples

MAGIC = b"PACKREF-DRONE-CAPTURE 1\n"
BOARD_REASONS = {  # what the board's STATUS flags mean, when cleared
    "load-cell": "the board reports the HX711 not ready for over 200 ms",
    "imu": "the board reports the MPU-6050 not answering on I2C",
}
GRAVITY = 9.80665
DEFAULT_IMU = {"accel_lsb_per_g": 8192, "gyro_lsb_per_dps": 65.5}


def is_capture(path: str | Path) -> bool:
    """True when ``path`` starts like a capture file (not a CSV)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def capture_header(board_id: str = "", calibration: Calibration | None = None,
                   imu: dict | None = None, **extra: object) -> bytes:
    """The two header lines of a capture file."""
    header = {"board_id": board_id,
              "calibration": calibration.to_json() if calibration else None,
              "imu": imu or dict(DEFAULT_IMU), **extra}
    return MAGIC + json.dumps(header).encode() + b"\n"


@dataclass
class BoardClock:
    """Unwraps the board's 32-bit microsecond stamps into seconds."""

    _last: int | None = None
    _wraps: int = 0

    def seconds(self, board_us: int) -> float:
        if self._last is not None and board_us < self._last and self._last - board_us > 2**31:
            self._wraps += 1
        self._last = board_us
        return (self._wraps * 2**32 + board_us) / 1e6


@dataclass
class SequenceCounter:
    """Counts frames lost in transit from the gaps in their sequence numbers."""

    lost: int = 0
    _expected: int | None = None

    def see(self, seq: int) -> int:
        """Note one frame; returns how many were lost just before it."""
        gap = 0 if self._expected is None else (seq - self._expected) & 0xFFFF
        if gap >= 0x8000:  # far behind: the board restarted or frames were reordered
            gap = 0
        self.lost += gap
        self._expected = (seq + 1) & 0xFFFF
        return gap

    def restart(self) -> None:
        self._expected = None


HELD_FRAMES = 64  # the share of repeated load frames is counted over the last this many...
HELD_REPEATS = 10  # ...and this many repeats mean the board holds its latest reading
LOAD_WAIT_S = 0.15  # the load cell converts at 10 SPS or faster: wait this long for a reading


@dataclass
class SampleAssembler:
    """Collects decoded frames and makes :class:`Samples` rows from them.

    Two ways of reading it: :meth:`samples` gives every row not taken yet (a whole
    capture), :meth:`take` gives the rows newer than the last it gave and forgets
    them (a live stream: the work per row and the memory stay flat however long it runs).

    A board may write a load frame only when the HX711 has converted (the firmware
    does), or repeat its latest reading on every IMU row ("held"). The assembler
    tells them apart by the share of load frames that repeat the one before (a live
    HX711's noise spans several counts: 1–2 % of new readings repeat): while
    ``HELD_REPEATS`` of the last ``HELD_FRAMES`` repeat, a repeat within ``LOAD_WAIT_S``
    of the reading's first frame is the same reading again, not a new one (the
    reading is placed at its first frame, and rows are interpolated between
    conversions, as from a board that writes new ones only). A value repeated longer
    than a conversion takes was read again: a frozen load cell holds one value, flat,
    and the first new reading ends it.
    """

    calibration: Calibration | None
    imu: dict = field(default_factory=lambda: dict(DEFAULT_IMU))
    clock: BoardClock = field(default_factory=BoardClock)
    sequence: SequenceCounter = field(default_factory=SequenceCounter)
    hello: dict | None = None
    board_faults: list[SensorFault] = field(default_factory=list)  # from STATUS, in order
    keep_s: float | None = None  # live: rows not taken are kept at most this long
    _board_ok: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(BOARD_REASONS, True))
    _imu_rows: list[tuple[float, tuple[int, ...]]] = field(default_factory=list)
    _loads: list[tuple[float, int]] = field(default_factory=list)
    _taken_until: float = -np.inf  # board time of the last row :meth:`take` gave
    _recent: deque[bool] = field(default_factory=lambda: deque(maxlen=HELD_FRAMES))
    _repeats: int = 0  # of the recent load frames, those equal to the one before
    _last_counts: int | None = None

    def __repr__(self) -> str:
        return (f"<SampleAssembler {len(self._imu_rows)} imu, {len(self._loads)} load, "
                f"{self.sequence.lost} lost>")

    @property
    def held(self) -> bool:
        """The board seems to repeat its latest load-cell reading between conversions."""
        return self._repeats >= HELD_REPEATS

    @property
    def pending_rows(self) -> int:
        """IMU rows kept, not taken yet."""
        return len(self._imu_rows)

    @property
    def kept_loads(self) -> int:
        """Load-cell readings kept (for rows not taken yet)."""
        return len(self._loads)

    def add(self, frame: frames.Frame) -> None:
        """Take one frame from the board (others, such as STATUS, are noted and ignored)."""
        if frame.kind == frames.HELLO:
            self.hello = frames.unpack_hello(frame.payload)
            self.imu = {"accel_lsb_per_g": self.hello["accel_lsb_per_g"],
                        "gyro_lsb_per_dps": self.hello["gyro_lsb_per_dps"]}
            self.sequence.restart()
        self.sequence.see(frame.seq)
        at = self.clock.seconds(frame.board_us)
        if frame.kind == frames.SAMPLE_IMU:
            self._imu_rows.append((at, frames.unpack_imu(frame.payload)))
            if self.keep_s is not None and at - self._imu_rows[0][0] > 2 * self.keep_s:
                self._forget_before(at - self.keep_s)
        elif frame.kind == frames.SAMPLE_LOAD:
            self._load(at, frames.unpack_load(frame.payload))
        elif frame.kind == frames.STATUS:
            self._status(frames.unpack_status(frame.payload), at)

    def _load(self, at: float, counts: int) -> None:
        """One load frame: a new reading, or (from a board that holds it) the last again."""
        repeat = counts == self._last_counts
        self._last_counts = counts
        if len(self._recent) == HELD_FRAMES:
            self._repeats -= self._recent[0]
        self._recent.append(repeat)
        self._repeats += repeat
        if repeat and self.held and self._loads and at - self._loads[-1][0] < LOAD_WAIT_S:
            return  # the same conversion again
        self._loads.append((at, counts))  # new, or repeated longer than a conversion takes

    def _status(self, status: dict, at: float) -> None:
        """The board's word on its sensors: a flag that changes is a fault or its end."""
        for sensor, ok in (("load-cell", status["load_ok"]), ("imu", status["imu_ok"])):
            if ok == self._board_ok[sensor]:
                continue
            self._board_ok[sensor] = ok
            self.board_faults.append(SensorFault(at, "fault-cleared", sensor) if ok else
                                     SensorFault(at, "fault", sensor, BOARD_REASONS[sensor]))

    def samples(self) -> Samples:
        """Every row not taken yet, at the IMU's times; force interpolated from the load
        cell's readings (held at the first or last reading beyond them)."""
        if not self._imu_rows or not self._loads:
            raise ValueError("no IMU samples" if not self._imu_rows else "no load-cell samples")
        if self.calibration is None:
            raise ValueError("no calibration for this board")
        return self._assemble(self._imu_rows)

    def ready_until(self) -> float | None:
        """The board time up to which rows can be taken now: those the load cell has a
        reading after, or that waited ``LOAD_WAIT_S`` for one (None: none can be yet)."""
        if not self._imu_rows or not self._loads or self.calibration is None:
            return None
        newest = max(self._imu_rows[-1][0], self._taken_until)
        return min(newest, max(self._loads[-1][0], newest - LOAD_WAIT_S))

    def take(self, until: float | None = None) -> Samples | None:
        """The rows newer than the last taken, up to ``until`` (None: all), then forgets
        them and the load readings no later row needs (None: no row, or not ready)."""
        if not self._imu_rows or not self._loads or self.calibration is None:
            return None
        rows = sorted(row for row in self._imu_rows if row[0] > self._taken_until)
        due = len(rows) if until is None else bisect.bisect_right(rows, (until, (np.inf,)))
        self._imu_rows = rows[due:]
        rows = rows[:due]
        if not rows:
            return None
        samples = self._assemble(rows)
        self._taken_until = float(samples.t[-1])
        self._forget_loads_before(self._taken_until)
        return samples

    def _assemble(self, rows: list[tuple[float, tuple[int, ...]]]) -> Samples:
        assert self.calibration is not None
        imu_t = np.array([at for at, _ in rows])
        raw = np.array([values for _, values in rows], dtype=float).reshape(-1, 6)
        order = np.argsort(imu_t, kind="stable")
        imu_t, raw = imu_t[order], raw[order]
        keep = np.concatenate([[True], np.diff(imu_t) > 0])
        imu_t, raw = imu_t[keep], raw[keep]
        loads = sorted(self._loads) if _unordered(self._loads) else self._loads
        load_t = np.array([at for at, _ in loads])
        grams = self.calibration.grams(np.array([counts for _, counts in loads]))
        force = np.interp(imu_t, load_t, grams)
        accel = raw[:, :3] / self.imu["accel_lsb_per_g"] * GRAVITY
        gyro = raw[:, 3:] / self.imu["gyro_lsb_per_dps"]
        return Samples(imu_t, force, *accel.T, *gyro.T)

    def _forget_loads_before(self, t: float) -> None:
        """Keep the last reading at or before ``t`` (later rows interpolate from it)."""
        keep_from = bisect.bisect_right(self._loads, (t, np.inf)) - 1
        if keep_from > 0:
            del self._loads[:keep_from]

    def _forget_before(self, t: float) -> None:
        """A live stream no row is taken from (no calibration, no load cell): bounded."""
        self._imu_rows = [row for row in self._imu_rows if row[0] >= t]
        self._taken_until = max(self._taken_until, t)
        if self._loads and self._loads[-1][0] < t:
            del self._loads[:-1]
        else:
            self._forget_loads_before(t)


def _unordered(loads: list[tuple[float, int]]) -> bool:
    return any(later[0] < earlier[0] for earlier, later in itertools.pairwise(loads))


@dataclass
class Capture:
    """A decoded capture: its header, its samples and how clean the stream was."""

    header: dict
    samples: Samples
    frames: int
    bad_frames: int
    lost_frames: int
    board_faults: list[SensorFault] = field(default_factory=list)  # the board's own STATUS

    def __repr__(self) -> str:
        return (f"<Capture {self.samples!r}, {self.frames} frames, {self.bad_frames} bad, "
                f"{self.lost_frames} lost>")


def read_capture(path: str | Path) -> Capture:
    """Read a capture file; a bad one raises :class:`SampleFileError` naming the place."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise SampleFileError(f"{path}: no such file") from None
    except OSError as error:
        raise SampleFileError(f"{path}: cannot read ({error.strerror})") from None
    return read_capture_bytes(data, str(path))


def read_capture_bytes(data: bytes, name: str = "<capture>",
                       calibration: Calibration | None = None) -> Capture:
    """Decode capture bytes (header included); ``calibration`` overrides the header's."""
    header, body_start = _parse_header(data, name)
    if calibration is None and header.get("calibration"):
        try:
            calibration = Calibration.from_json(header["calibration"])
        except (TypeError, KeyError, ValueError) as error:
            raise SampleFileError(f"{name}: line 2: field calibration: {error}") from None
    assembler = SampleAssembler(calibration, dict(header.get("imu") or DEFAULT_IMU))
    reader = frames.FrameReader()
    for frame in reader.feed(data[body_start:]):
        try:
            assembler.add(frame)
        except frames.FrameError:  # a valid frame with a payload of the wrong size
            reader.bad_frames += 1
    try:
        samples = assembler.samples()
    except ValueError as error:
        raise SampleFileError(f"{name}: {error}") from None
    return Capture(header, samples, reader.frames, reader.bad_frames, assembler.sequence.lost,
                   assembler.board_faults)


def _parse_header(data: bytes, name: str) -> tuple[dict, int]:
    if not data.startswith(MAGIC):
        raise SampleFileError(f"{name}: line 1: not a packref drone capture")
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        raise SampleFileError(f"{name}: line 2: the JSON header line is missing")
    try:
        header = json.loads(data[len(MAGIC):end].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SampleFileError(f"{name}: line 2: header is not valid JSON ({error})") from None
    if not isinstance(header, dict):
        raise SampleFileError(f"{name}: line 2: header must be a JSON object")
    return header, end + 1


def encode_capture(samples: Samples, calibration: Calibration, board_id: str = "simulated",
                   imu: dict | None = None, *, load_hz: float | None = None,
                   held: bool = False) -> bytes:
    """A capture of ``samples`` as the board would send them, encoded by the firmware's
    own frame module: a HELLO, then per row a load frame and an IMU frame.

    ``load_hz``: the HX711 converts this often, and a load frame (the force at that
    row) is written only when it has (None: one per row); ``held``: with ``load_hz``,
    the board repeats its latest reading on every IMU row in between (docs/drone-board.md).
    """
    imu = imu or dict(DEFAULT_IMU)
    out = bytearray(capture_header(board_id, calibration, imu))
    hello = frames.pack_hello("simulator", 1, 100, imu["accel_lsb_per_g"],
                              round(imu["gyro_lsb_per_dps"] * 10), board_id.encode()[:8])
    out += frames.encode_frame(frames.HELLO, 0, 0, hello)
    counts = calibration.counts(samples.force_g)
    accel = np.clip(np.round(np.vstack([samples.ax, samples.ay, samples.az])
                             / GRAVITY * imu["accel_lsb_per_g"]), -32768, 32767).astype(int)
    gyro = np.clip(np.round(np.vstack([samples.gx, samples.gy, samples.gz])
                            * imu["gyro_lsb_per_dps"]), -32768, 32767).astype(int)
    stamps = np.round(samples.t * 1e6).astype(np.int64)
    period = float(np.median(np.diff(samples.t))) if len(samples) > 1 else 0.01
    slots = np.round((samples.t - samples.t[0]) / period).astype(int)  # lost rows leave gaps
    converted = _conversions(samples.t, load_hz)
    seq, last_slot, reading = 1, -1, None
    for row, board_us in enumerate(stamps.tolist()):
        seq += 2 * max(0, int(slots[row]) - last_slot - 1)  # the frames of lost rows
        last_slot = int(slots[row])
        if converted[row]:
            reading = int(counts[row])
        if converted[row] or (held and reading is not None):
            out += frames.encode_frame(frames.SAMPLE_LOAD, seq & 0xFFFF, board_us,
                                       frames.pack_load(reading))
            seq += 1
        out += frames.encode_frame(frames.SAMPLE_IMU, seq & 0xFFFF, board_us,
                                   frames.pack_imu(*accel[:, row].tolist(), *gyro[:, row].tolist()))
        seq += 1
    return bytes(out)


def _conversions(t: np.ndarray, load_hz: float | None) -> np.ndarray:
    """The rows at which the HX711 has a new reading (every row when ``load_hz`` is None)."""
    if load_hz is None or not len(t):
        return np.ones(len(t), dtype=bool)
    tick = np.floor((t - t[0]) * load_hz)
    return np.concatenate([[True], np.diff(tick) > 0])
