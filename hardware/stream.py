"""The drone board as one component: serial link → frames → samples → live events and faults.

:class:`DroneStream` owns the board's :class:`~hardware.link.DroneLink`, turns
its frames into samples (:class:`~hardware.capture.SampleAssembler`), feeds them
to the :class:`~hardware.events.LiveEventDetector` in chunks (only the rows newer
than the last, so the work per sample and the memory stay flat over an evening),
passes the board's own STATUS faults on to it, and — on a live port — tells it
the board's time while no sample comes (the newest frame's stamp; when nothing at
all comes, plus the host's time since the last read that brought bytes), so a
stalled board is a ``link`` fault within half a second or so and a busy host is not.
Whoever reads the drone (the station's table loop) needs nothing else of
``hardware``: no frame module, no assembler.

Example::

    stream = DroneStream("/dev/ttyACM0", store=CalibrationStore())
    with stream:
        while True:
            read = stream.read()             # one poll of the port
            for event in read.events:        # DroneEvent or SensorFault, settled
                print(event.to_json())
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from firmware import frames
from hardware.calibration import Calibration, CalibrationStore
from hardware.capture import SampleAssembler
from hardware.config import DetectorConfig
from hardware.events import DroneEvent, LiveEventDetector
from hardware.faults import SensorFault
from hardware.link import DroneLink, LinkStatus
from hardware.samples import Samples

MIN_NEW_ROWS = 10  # IMU rows to wait for before looking at the samples again
KEEP_UNREAD_S = 10.0  # rows that cannot be read yet (no calibration) are kept this long
IDLE_CHECK_S = 0.1  # on a live port, a read this long after the last sample checks the link


@dataclass
class StreamRead:
    """What one poll of the port brought: how many frames, the board time of its newest
    sample (None: no sample), and the events and faults that have settled."""

    frames: int = 0
    newest: float | None = None
    events: list[DroneEvent | SensorFault] = field(default_factory=list)


class DroneStream:
    """One drone board, read as a stream of settled events and sensor faults.

    ``port`` a serial device or pyserial URL (``replay://capture.bin`` plays a capture
    as fast as it is read, and :attr:`ends` with it). ``calibration`` defaults to the
    ``store``'s entry for the board named in its HELLO. ``settle_s``: an event is
    reported once the stream is that much newer (:class:`LiveEventDetector`).
    ``chunk_s``: samples go to the detector this many seconds at a time.
    """

    def __init__(self, port: str, *, calibration: Calibration | None = None,
                 store: CalibrationStore | None = None, settle_s: float | None = None,
                 chunk_s: float = 0.25, link: DroneLink | None = None,
                 config: DetectorConfig | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.link = link or DroneLink(port)
        self.store = store
        self.chunk_s = chunk_s
        self.monotonic = monotonic
        self.ends = urllib.parse.urlsplit(port).scheme == "replay"
        self.detector = LiveEventDetector(config, settle_s=settle_s)
        self._assembler = SampleAssembler(calibration, keep_s=KEEP_UNREAD_S)
        self._fed_until = -np.inf  # board time of the last sample given to the detector
        self._first_t = np.inf  # board time of the first sample
        self._finished = False
        self._new_rows = 0  # IMU rows taken since the detector was last fed
        self._reported_faults = 0  # of the assembler's board faults
        self._last_sample_t: float | None = None  # board time of the newest sample
        self._board_now = -np.inf  # board time of the newest frame of any kind
        self._heard_at: float | None = None  # host time of the last read that brought bytes

    def __repr__(self) -> str:
        return f"<DroneStream {self.port} {self.link.status.describe()}>"

    def __enter__(self) -> DroneStream:
        self.link.__enter__()  # opens the port (LinkError if it cannot)
        self.link.send_command("hello?")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.link.__exit__(*exc_info)

    @property
    def status(self) -> LinkStatus:
        """The link's health (port, state, frames, lost, board)."""
        return self.link.status

    @property
    def settle_s(self) -> float:
        return self.detector.settle_s

    @property
    def faulty(self) -> list[str]:
        """The sensors faulty now."""
        return self.detector.faulty

    @property
    def pending_rows(self) -> int:
        """IMU rows taken from the board but not yet given to the detector."""
        return self._assembler.pending_rows

    @property
    def kept_loads(self) -> int:
        """Load-cell readings kept for rows still to come."""
        return self._assembler.kept_loads

    def certain_until(self) -> float:
        """Board time before which every event has been reported (+inf once finished):
        no later read reports one earlier (:attr:`LiveEventDetector.certain_until`)."""
        return np.inf if self._finished else self.detector.certain_until

    def clock(self) -> float:
        """The board's time of the newest sample given to the detector (0 before any)."""
        return max(self._fed_until, 0.0)

    def read(self) -> StreamRead:
        """Poll the port once: take its frames, feed the detector what is due, report."""
        received = self.link.status.received
        found = self.link.poll()
        polled = self.monotonic()  # before any work on what came: a busy host is no silence
        if found or self.link.status.received > received:
            self._heard_at = polled
        read = StreamRead(frames=len(found))
        for frame in found:
            at = self._take(frame)
            if at is not None:
                read.newest = at if read.newest is None else max(read.newest, at)
        read.events = self._board_faults() + self._feed(final=False)
        if read.newest is None and not self.ends:
            read.events += self._no_sample(polled)
        return read

    def finish(self) -> list[DroneEvent | SensorFault]:
        """The stream has ended: everything not reported yet."""
        events = self._board_faults() + self._feed(final=True) + self.detector.finish()
        self._finished = True
        return events

    # -- frames to samples -----------------------------------------------------------------
    def _take(self, frame: frames.Frame) -> float | None:
        """Take one frame; the board time of its sample, if it is one."""
        try:
            self._assembler.add(frame)
        except frames.FrameError:
            return None
        if self._assembler.calibration is None and self._assembler.hello and self.store:
            self._assembler.calibration = self.store.load(self._assembler.hello["board_id"])
        if frame.kind == frames.HELLO:
            return None  # stamped 0 when the board starts
        at = self._assembler.clock.seconds(frame.board_us)  # as add() just unwrapped it
        self._board_now = max(self._board_now, at)
        if frame.kind not in (frames.SAMPLE_IMU, frames.SAMPLE_LOAD):
            return None
        self._new_rows += frame.kind == frames.SAMPLE_IMU
        self._first_t = min(self._first_t, at)
        self._last_sample_t = at if self._last_sample_t is None else max(self._last_sample_t, at)
        return at

    def _board_faults(self) -> list[SensorFault]:
        """The board's own STATUS faults not passed on yet, through the detector."""
        fresh = self._assembler.board_faults[self._reported_faults:]
        self._reported_faults += len(fresh)
        return [reported for fault in fresh for reported in self.detector.report(fault)]

    def _feed(self, final: bool) -> list[DroneEvent | SensorFault]:
        fresh = self._new_samples(final)
        return self.detector.add(fresh) if fresh is not None else []

    def _new_samples(self, final: bool) -> Samples | None:
        """Rows newer than the detector has, once there are ``chunk_s`` of them (or at the end).

        Only the new rows are assembled (:meth:`SampleAssembler.take`): the work per read
        does not grow with the session.
        """
        if not final and self._new_rows < MIN_NEW_ROWS:
            return None  # cheap: do not look at the samples for every few frames
        ready = self._assembler.ready_until()
        if ready is None:
            return None
        since = self._fed_until if self._fed_until > -np.inf else self._first_t
        if not final and ready - since < self.chunk_s:
            return None
        fresh = self._assembler.take(None if final else ready)
        if fresh is None:
            return None
        self._fed_until = float(fresh.t[-1])
        self._new_rows = 0
        return fresh

    def _no_sample(self, polled: float) -> list[DroneEvent | SensorFault]:
        """No sample in this read of a live port: tell the detector the board's time now,
        so it judges a gap in the samples (a ``link`` fault once it is too long).

        The board's time now is the stamp of its newest frame (a STATUS comes every
        second), or — when nothing at all has come — that stamp plus the host's time
        since the last read that brought bytes: an empty read proves the port was silent
        since then, and a host busy between two reads finds the board's bytes waiting.
        """
        if self._last_sample_t is None or self._heard_at is None:
            return []
        now = self._board_now
        if self._heard_at < polled:
            now += polled - self._heard_at
        if now - self._last_sample_t < IDLE_CHECK_S:
            return []
        events = self._feed(final=True) if self._fed_until < self._last_sample_t else []
        return events + self.detector.idle(now)
