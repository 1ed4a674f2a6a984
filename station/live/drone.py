"""The drone source: a Pick 'n Packers table's observations from its drone, camera and buttons.

The drone board (a real port, or ``replay://capture.bin`` for a recorded
capture) is read through the hardware's :class:`~hardware.stream.DroneStream`:
link, frames, samples and live detector in one, which reports each event once
it has settled (``settle_s`` after the newest sample) and each sensor fault at
once. What the table is told, all with ``t`` in the drone stream's clock (the
board's clock plus ``offset``)::

    {"kind": "drone-event", "t": 6.718, "event": "land", "mass_g": 4.9}
    {"kind": "drone-event", "t": 12.4, "event": "fault", "sensor": "load-cell",
     "reason": "reading frozen at 14.210 g for 1.0 s"}        # the referee flags it
    {"kind": "drone-event", "t": 15.41, "event": "fault-cleared", "sensor": "load-cell"}
    {"kind": "drone-position", "t": 6.95, "card": 1}     # from a list, for now
    {"kind": "button", "t": 9.0, "button": "start" | "foul"}
    {"kind": "drone-clock", "t": 8.718, "mass_g": 4.9}   # quiet_s after a landing

Everything is handed on **in stream time order**, and only once the detector
has settled past it (``settle_s``) *and* will report no event before it
(:meth:`DroneSource.horizon`, :meth:`~hardware.stream.DroneStream.certain_until`:
the end of the detector's last steady mass level; a drop in a long flight is only
certain once the drone stands again, after the 2 s settling has passed the fall). A button
pressed or a position seen while an earlier event is still being decided waits
for it, so the referee reads one ordered stream as the batch referee does, and a
late drop still comes before the camera positions after it. Should anything still
come late (a position the camera stamped long ago), it is handed on at the time of
the last item handed on, and logged: the referee never sees time go back.

Sensor faults (and their clearing) are the exception: handed on as soon as the
detector reports them, so the table is flagged within the 1.5 s of
docs/contracts.md §7; the referee reads a fault as the span of time it covers, so
earlier events that come after it are ruled as before.
``drone-clock``, sent ``quiet_s`` after a landing unless another event came
first, says "no event until this time": it lets the referee release a landing
that nothing else follows (the last landing of a challenge), and adds a point
to the table's mass graph. The *undo* button is a referee step (the table's own
Undo), not an observation.

Example (a capture, as ``packref demo`` plays it)::

    source = DroneSource("replay://fixtures/drone/sim-0001.bin",
                         positions=[{"t": 6.9, "card": 1}])
    for item in source:               # Timed items, t in the stream clock
        print(item.to_json())
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import logging
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from hardware.calibration import Calibration, CalibrationStore
from hardware.capture import read_capture
from hardware.errors import HardwareError, LinkError
from hardware.events import DroneEvent
from hardware.faults import SensorFault
from hardware.gpio import RefereeButtons
from hardware.link import DroneLink
from hardware.stream import DroneStream
from station.live.clock_bridge import ClockBridge
from station.live.sources import Recording, Timed, hand_on
from station.live.station import Station, UnknownTable

LOG = logging.getLogger("packref.drone")
QUIET_POLLS = 3  # a replay has ended after this many empty reads in a row
POSITION, EVENT, BUTTON, CLOCK = range(4)  # the order of items at the same instant


class Buttons(Protocol):
    """What the source needs of the referee's buttons (:class:`hardware.gpio.RefereeButtons`)."""

    def presses(self) -> list[dict]:
        ...


class RecordedButtons:
    """Presses from a list (``{"t", "button"}`` in the board's clock), for replays and tests."""

    def __init__(self, presses: Iterable[dict]) -> None:
        self._waiting = sorted((dict(press) for press in presses), key=lambda p: p["t"])
        self.now = 0.0  # set by the source: the newest sample's time

    def __repr__(self) -> str:
        return f"<RecordedButtons {len(self._waiting)} presses to come>"

    def presses(self) -> list[dict]:
        due = [press for press in self._waiting if press["t"] <= self.now]
        self._waiting = self._waiting[len(due):]
        return due


def capture_calibration(port: str) -> Calibration | None:
    """The calibration in the header of a ``replay://`` capture (None for other ports)."""
    parts = urllib.parse.urlsplit(port)
    if parts.scheme != "replay":
        return None
    path = urllib.parse.unquote(parts.netloc + parts.path)
    with contextlib.suppress(HardwareError, KeyError, TypeError, ValueError):
        header = read_capture(path).header
        return Calibration.from_json(header["calibration"])
    return None


@dataclass(order=True)
class _Pending:
    t: float
    order: int
    seq: int
    item: Timed  # its t is filled in when it is handed on


class DroneSource:
    """Timed observations of one drone table, in the stream's time order (see the module).

    ``port`` a serial device or pyserial URL; a ``replay://`` capture ends the
    source when it runs out, a real port runs until ``stop`` is set.
    ``calibration`` defaults to the capture's own, else the ``store``'s entry for
    the board named in its HELLO. ``buttons``: :class:`hardware.gpio.RefereeButtons`
    made with ``clock=source.clock``, or :class:`RecordedButtons`.
    ``bridge``: the table's :class:`~station.live.clock_bridge.ClockBridge`, told
    after each read that brought samples the host's ``monotonic`` time of the read
    and the stream time of its newest sample (so the table's live camera can stamp
    drone positions in the stream's clock).
    """

    def __init__(self, port: str, *, positions: Iterable[dict] = (),
                 buttons: Buttons | None = None, calibration: Calibration | None = None,
                 store: CalibrationStore | None = None, offset: float = 0.0,
                 settle_s: float | None = None, quiet_s: float = 0.55, chunk_s: float = 0.1,
                 link: DroneLink | None = None, stop: threading.Event | None = None,
                 bridge: ClockBridge | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.stream = DroneStream(port, calibration=calibration or capture_calibration(port),
                                  store=store, settle_s=settle_s, chunk_s=chunk_s, link=link,
                                  monotonic=monotonic)
        self.buttons = buttons
        self.offset = offset
        self.settle_s, self.quiet_s = self.stream.settle_s, quiet_s
        self.stop = stop or threading.Event()
        self.bridge = bridge
        self.monotonic = monotonic
        self._lock = threading.Lock()  # the camera's thread adds positions to _pending
        self.ends = self.stream.ends
        self._pending: list[_Pending] = []
        self._seq = itertools.count()
        self._clock_seq: int | None = None  # the drone-clock still owed, if any
        self._mass = 0.0
        self._handed_until = -np.inf  # board time of the last item handed on
        self.handed_late = 0  # items that came after a later one, re-stamped (_in_order)
        for position in positions:
            self._queue(position["t"], POSITION, Timed(
                0.0, {"kind": "drone-position", "t": self._at(position["t"]),
                      "card": int(position["card"])}, "camera"))
        if bridge is not None:
            bridge.forward_positions(self.add_position)

    def add_position(self, observation: dict) -> None:
        """A ``drone-position`` seen by the table's camera, stamped in the stream's clock.

        It waits with the events and is handed on in time order with them.
        """
        board_t = float(observation["t"]) - self.offset
        self._queue(board_t, POSITION, Timed(0.0, dict(observation), "camera"))

    def __repr__(self) -> str:
        return f"<DroneSource {self.port} +{self.offset:g}s, {len(self._pending)} waiting>"

    def clock(self) -> float:
        """The board's time of the newest sample (for stamping button presses)."""
        return self.stream.clock()

    def _at(self, board_t: float) -> float:
        return round(board_t + self.offset, 3)

    def _queue(self, board_t: float, order: int, item: Timed) -> int:
        with self._lock:
            seq = next(self._seq)
            heapq.heappush(self._pending, _Pending(board_t, order, seq, item))
        return seq

    def _next_due(self, horizon: float) -> _Pending | None:
        with self._lock:
            if self._pending and self._pending[0].t <= horizon:
                return heapq.heappop(self._pending)
        return None

    # -- the loop ------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Timed]:
        with self.stream:
            quiet = 0
            while not self.stop.is_set():
                read = self.stream.read()
                received = self.monotonic()
                quiet = 0 if read.frames else quiet + 1
                if self.ends and quiet >= QUIET_POLLS:
                    break
                if self.bridge is not None and read.newest is not None:
                    self.bridge.note(received, read.newest + self.offset)
                yield from self._step(read.events, final=False)
        yield from self._step(self.stream.finish(), final=True)

    def _step(self, events: list[DroneEvent | SensorFault], final: bool) -> Iterator[Timed]:
        """Queue what the drone and the buttons report, hand on what is due, then the
        sensor faults just reported: at once, not after ``settle_s`` (the detector reports
        a fault once it is sure; the referee reads a fault as the span it covers, so one
        ahead of events from before it does not change how they are ruled)."""
        faults = []
        for event in events:
            observation = {"kind": "drone-event", **event.to_json()}
            observation["t"] = self._at(event.t)
            if isinstance(event, SensorFault):
                faults.append(observation)
            else:
                self._queue(event.t, EVENT, Timed(0.0, observation, "drone"))
        self._read_buttons()
        yield from self._release(np.inf if final else self.horizon())
        now = self._at(self.clock())
        yield from (Timed(now, observation, "drone") for observation in faults)

    def _read_buttons(self) -> None:
        if self.buttons is None:
            return
        if isinstance(self.buttons, RecordedButtons):
            self.buttons.now = self.clock()
        for press in self.buttons.presses():
            observation = {"kind": "button", "t": self._at(press["t"]),
                           "button": press["button"]}
            step = "undo" if press["button"] == "undo" else None  # see sources.hand_on
            self._queue(press["t"], BUTTON, Timed(0.0, observation, "buttons", step))

    def horizon(self) -> float:
        """The board time up to which everything can be handed on: the detector has
        settled past it (``settle_s``) and will report no event before it
        (:meth:`DroneStream.certain_until`: a drop found in a long flight once the drone
        stands again comes after the settling has passed it)."""
        return self.stream.certain_until()

    def _release(self, horizon: float) -> Iterator[Timed]:
        """Hand on, in time order, what no later sample can come before."""
        now = self._at(self.clock())
        while (entry := self._next_due(horizon)) is not None:
            self._in_order(entry)
            observation = entry.item.observation or {}
            if observation.get("kind") == "drone-clock" and entry.seq != self._clock_seq:
                continue  # another event came first: this clock is no longer owed
            if observation.get("kind") == "drone-event" and "mass_g" in observation:
                self._mass = float(observation["mass_g"])
                self._clock_seq = None  # an event came: no clock owed for the one before
                if observation["event"] == "land":
                    self._owe_clock(entry.t)
            yield Timed(now, entry.item.observation, entry.item.source, entry.item.referee)

    def _in_order(self, entry: _Pending) -> None:
        """Keep the handed-on stream in time order, should anything still come late (a
        position the camera stamped long ago, an event the detector found past its own
        promise): it is handed on at the time of the last one, and logged."""
        if entry.t < self._handed_until:
            self.handed_late += 1
            LOG.warning("%s at t=%.3f came after t=%.3f had been handed on; handed on at "
                        "that time", (entry.item.observation or {}).get("kind"),
                        self._at(entry.t), self._at(self._handed_until))
            item = entry.item
            entry.item = Timed(item.t, {**(item.observation or {}),
                                        "t": self._at(self._handed_until)},
                               item.source, item.referee)
            entry.t = self._handed_until
        self._handed_until = entry.t

    def _owe_clock(self, event_t: float) -> None:
        clock_t = event_t + self.quiet_s
        self._clock_seq = self._queue(clock_t, CLOCK, Timed(0.0, {
            "kind": "drone-clock", "t": self._at(clock_t), "mass_g": round(self._mass, 1)},
            "drone"))


# ---------------------------------------------------------------------- to a live table
def read_positions(path: Path) -> list[dict]:
    """Drone positions from a JSON Lines file: ``{"t": 6.9, "card": 1}`` per line."""
    positions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            positions.append({"t": float(item["t"]), "card": int(item["card"])})
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: line {number}: a position is "
                             f'{{"t": seconds, "card": 0-9}} ({error})') from None
    return positions


def ensure_table(station: Station, table_id: str) -> None:
    """Create the table (named as its id) if the station has none by that id."""
    try:
        station.table(table_id)
    except UnknownTable:
        station.create_table(table_id, table_id)


def pump(station: Station, table_id: str, make_source: Any, author: str = "drone",
         stop: threading.Event | None = None, retry_s: float = 2.0) -> int:
    """Run a drone source into a table until ``stop`` (blocking: run it in a thread).

    ``make_source()`` makes a fresh :class:`DroneSource`; a port that cannot be
    opened is tried again every ``retry_s`` seconds. Returns the items handed on.
    """
    stop = stop or threading.Event()
    handed = 0
    while not stop.is_set():
        source = make_source()
        try:
            for item in source:
                hand_on(station, table_id, item, author)
                handed += 1
        except LinkError as error:
            LOG.warning("table %s: %s; trying again in %g s", table_id, error, retry_s)
        if source.ends:
            return handed
        stop.wait(retry_s)
    return handed


def attach(station: Station, table_id: str, port: str, *, positions: Iterable[dict] = (),
           gpio_buttons: bool = False, calibration_file: str | None = None,
           stop: threading.Event | None = None, author: str = "drone",
           bridge: ClockBridge | None = None,
           calibrations: CalibrationStore | None = None) -> int:
    """Drive a table from its drone until ``stop`` (``packref serve --drone``; blocking).

    The table is created if it does not exist. ``gpio_buttons`` reads the referee's
    start/foul/undo buttons through gpiozero (:class:`hardware.gpio.RefereeButtons`),
    stamped with the drone stream's clock; a ``replay://`` port ends with its capture.
    ``bridge``: the table's clock bridge, shared with its live camera (see
    :mod:`station.live.clock_bridge`); a ``replay://`` capture does not feed it (it
    plays as fast as it is read, so its arrival times say nothing of its clock).
    ``calibrations``: the store to look the board up in (default: ``calibration_file``'s).
    """
    ensure_table(station, table_id)
    store = calibrations or CalibrationStore(calibration_file)
    positions = list(positions)
    if urllib.parse.urlsplit(port).scheme == "replay":
        bridge = None
    current: list[DroneSource] = []
    buttons = None
    if gpio_buttons:
        buttons = RefereeButtons(clock=lambda: current[-1].clock() if current else 0.0)

    def make_source() -> DroneSource:
        current[:] = [DroneSource(port, positions=positions, buttons=buttons, store=store,
                                  stop=stop, bridge=bridge)]
        return current[0]

    try:
        return pump(station, table_id, make_source, author, stop)
    finally:
        if buttons is not None:
            buttons.close()


# --------------------------------------------------------------------------- the demo
DEMO_STEP_S = 0.8  # between declared speculations
DEMO_GAP_S = 2.0  # before a capture starts, and after it ends


def drone_recording(path: Path) -> Recording:
    """A demo recording of a whole Pick 'n Packers game played by committed drone captures.

    ``path`` is a JSON document (``NAME.drone.json`` among a game's demo recordings,
    :func:`station.demo.recordings.recordings_dir`)::

        {"drone-demo": 1, "game": "pick-n-packers", "players": [...], "seed": 1,
         "final_scores": {...},
         "rounds": [{"speculations": [1], "capture": "drone/sim-0001.bin",
                     "positions": [{"t": 6.9, "card": 1}], "buttons": []}, ...]}

    Each round's speculations are declared, then its capture (a path relative to the
    document) plays through the real link replay, live detector and :class:`DroneSource`,
    with the round's positions and button presses (in the capture's clock). The stream
    clock runs on from round to round: each capture is offset to the moment it starts.
    """
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("drone-demo") != 1:
        raise ValueError(f"{path}: not a packref drone demo")
    recording = Recording(document["game"], list(document["players"]), int(document["seed"]),
                          dict(document.get("options") or {}),
                          final_scores=document.get("final_scores"))
    t = 1.0
    for plan in document["rounds"]:
        for card in plan.get("speculations", []):
            recording.items.append(Timed(t, {"kind": "declared", "action": {
                "type": "speculate", "card": card}}, "declared"))
            t = round(t + DEMO_STEP_S, 3)
        source = DroneSource(f"replay://{(path.parent / plan['capture']).resolve()}",
                             positions=plan.get("positions", []),
                             buttons=RecordedButtons(plan.get("buttons", [])),
                             offset=round(t + DEMO_GAP_S, 3))
        recording.items += list(source)
        t = round(recording.items[-1].t + DEMO_GAP_S, 3)
    return recording
