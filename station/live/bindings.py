"""Binding a table to its camera or drone while the station runs (the dashboard's set-up page).

``packref serve --camera TABLE=SOURCE`` and ``--drone TABLE=PORT`` start a table's sources
with the station (:mod:`station.live.runner`); :class:`Bindings` does the same for one
table at a time, later: :meth:`Bindings.bind_camera` checks the source opens (and owns a
camera device for this process, :mod:`station.appliance.ownership`), then runs
:func:`station.live.camera.attach` in a thread of its own, exactly as ``serve`` does;
:meth:`Bindings.bind_drone` does so for :func:`station.live.drone.attach`. Binding
another source to the same table stops the old one first; :meth:`Bindings.unbind` stops
it. What ``serve`` started from its options is shown too (:meth:`Bindings.note_plan`) but
left alone: it stops with the station.

Example (``station`` is a :class:`~station.live.station.Station` with a table ``t1``)::

    bindings = Bindings(station)
    bindings.bind_camera("t1", "/srv/replays/small-warehouse")   # a replay folder
    bindings.bound("t1")["camera"]   # {"source": ..., "by": "dashboard", "running": True, ...}
    bindings.stop_all()
"""

from __future__ import annotations

import logging
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.link import open_serial_port
from station.appliance.archive import FrameKeeper
from station.appliance.ownership import CameraOwnership, is_device, run_dir
from station.errors import InputError
from station.live import camera, drone
from station.live.plan import StationPlan
from station.live.source_faults import FlaggedCalibrations, supervised
from station.live.station import Station
from station.live.table import TableRefusal

__all__ = ["KINDS", "Binding", "Bindings"]

LOG = logging.getLogger("packref")
KINDS = ("camera", "drone")
STOP_WAIT_S = 10.0  # how long a rebinding waits for the old source to notice its stop


@dataclass
class Binding:
    """One source feeding one table: a thread (None: started by ``serve``, not here)."""

    kind: str
    source: str
    by: str  # "dashboard" (bound here) or "serve" (its options or station.toml)
    thread: threading.Thread | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    ownership: CameraOwnership | None = None
    error: str | None = None

    def running(self) -> bool:
        return self.thread is None or self.thread.is_alive()

    def to_json(self) -> dict[str, Any]:
        """What a page shows of the binding."""
        return {"source": self.source, "by": self.by, "running": self.running(),
                "error": self.error}

    def end(self, timeout: float = STOP_WAIT_S) -> None:
        """Stop the thread, wait for it, and let a camera device go."""
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout)
        if self.ownership is not None:
            self.ownership.release()
            self.ownership = None


class Bindings:
    """Each table's camera and drone bound while the station runs (see the module)."""

    def __init__(self, station: Station, data_dir: Path | None = None,
                 archive: Path | None = None) -> None:
        self.station = station
        self.data_dir = data_dir
        self.archive = archive
        self._bound: dict[tuple[str, str], Binding] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Bindings {len(self._bound)} sources>"

    # -- what is bound --------------------------------------------------------------------
    def note_plan(self, plan: StationPlan) -> None:
        """Show the sources ``serve`` started from its options (they stay its own)."""
        with self._lock:
            for table in plan.tables:
                for kind, source in (("camera", table.camera), ("drone", table.drone)):
                    if source is not None:
                        self._bound[(table.table_id, kind)] = Binding(kind, source, "serve")

    def bound(self, table_id: str) -> dict[str, dict[str, Any] | None]:
        """The table's camera and drone (None: nothing bound)."""
        with self._lock:
            found = {kind: self._bound.get((table_id, kind)) for kind in KINDS}
        failing = {kind: words for table, kind, words in self.station.source_faults.failing()
                   if table == table_id}
        return {kind: None if binding is None else
                {**binding.to_json(), "error": failing.get(kind, binding.error)}
                for kind, binding in found.items()}

    def sources_in_use(self) -> dict[str, str]:
        """Each bound source and the table it feeds (``{"0": "t1", ...}``)."""
        with self._lock:
            return {binding.source: table for (table, _kind), binding in self._bound.items()
                    if binding.running()}

    # -- binding --------------------------------------------------------------------------
    def bind_camera(self, table_id: str, source: str) -> dict[str, Any]:
        """Drive ``table_id`` from camera ``source`` (a number, or a replay folder or video).

        Raises :class:`InputError` (one line) when it cannot be opened or another process
        owns the device, :class:`TableRefusal` when ``serve`` bound the table's camera.
        """
        source = source.strip()
        self._refuse_serves(table_id, "camera")
        self.station.table(table_id)  # an unknown table is a 404, before any device is held
        try:
            camera.open_frames(source).close()
        except camera.CameraError as error:
            raise InputError(f"$.source: {error}") from None
        ownership = self._own(table_id, source)
        keeper = (FrameKeeper(self.station, table_id, self.archive)
                  if self.archive is not None else None)
        binding = Binding("camera", source, "dashboard", ownership=ownership)
        return self._start(table_id, binding, supervised(
            self.station.source_faults, table_id, "camera", lambda: camera.attach(
                self.station, table_id, source, stop=binding.stop, keeper=keeper),
            binding.stop))

    def bind_drone(self, table_id: str, port: str) -> dict[str, Any]:
        """Drive ``table_id`` from the drone board on serial ``port`` (or a pyserial URL,
        ``replay://capture.bin`` included); the port is opened once to check it."""
        port = port.strip()
        self._refuse_serves(table_id, "drone")
        self.station.table(table_id)
        self._check_port(port)
        binding = Binding("drone", port, "dashboard")
        calibrations = FlaggedCalibrations(self.station.source_faults, table_id)
        return self._start(table_id, binding, supervised(
            self.station.source_faults, table_id, "drone", lambda: drone.attach(
                self.station, table_id, port, stop=binding.stop, calibrations=calibrations),
            binding.stop))

    def unbind(self, table_id: str, kind: str) -> None:
        """Stop the table's camera or drone (nothing bound: nothing to do)."""
        self._refuse_serves(table_id, kind)
        with self._lock:
            binding = self._bound.pop((table_id, kind), None)
        if binding is not None:
            binding.end()

    def stop_all(self) -> None:
        """Stop every source bound here (those ``serve`` started stop with it)."""
        with self._lock:
            mine = [b for b in self._bound.values() if b.by == "dashboard"]
            self._bound = {key: b for key, b in self._bound.items() if b.by != "dashboard"}
        for binding in mine:
            binding.end()

    # -- the parts ------------------------------------------------------------------------
    def _refuse_serves(self, table_id: str, kind: str) -> None:
        with self._lock:
            binding = self._bound.get((table_id, kind))
        if binding is not None and binding.by == "serve":
            raise TableRefusal(f"table {table_id!r}: its {kind} ({binding.source}) was given "
                               f"when the station started (--{kind} or station.toml): change "
                               "it there and restart")

    def _own(self, table_id: str, source: str) -> CameraOwnership | None:
        """Own a camera device for this process (a replay needs no owner); the table's own
        camera already bound to it is let go first."""
        if not is_device(source):
            return None
        in_use = self.sources_in_use().get(source)
        if in_use is not None and in_use != table_id:
            raise InputError(f"$.source: camera {source} already feeds table {in_use!r}")
        if in_use == table_id:
            self.unbind(table_id, "camera")
        name = f"packref serve (data {self.data_dir})"
        try:
            return CameraOwnership.take(source, name, run_dir(self.data_dir))
        except InputError as error:
            raise InputError(f"$.source: {error}") from None

    @staticmethod
    def _check_port(port: str) -> None:
        """Open the port once and close it: a mistake is one line naming it."""
        if not port:
            raise InputError("$.port: give a serial port, e.g. /dev/ttyACM0")
        parts = urllib.parse.urlsplit(port)
        if parts.scheme == "replay" and not Path(parts.netloc + parts.path).is_file():
            raise InputError(f"$.port: no capture file at {parts.netloc + parts.path}")
        try:
            open_serial_port(port, 0.05).close()
        except (OSError, ValueError) as error:  # SerialException is an OSError
            raise InputError(f"$.port: cannot open {port}: {error}") from None

    def _start(self, table_id: str, binding: Binding,
               source: Callable[[], object]) -> dict[str, Any]:
        with self._lock:
            old = self._bound.pop((table_id, binding.kind), None)
        if old is not None:
            old.end()
        binding.thread = threading.Thread(target=self._run, args=(table_id, binding, source),
                                          name=f"packref {binding.kind} of table {table_id}",
                                          daemon=True)
        with self._lock:
            self._bound[(table_id, binding.kind)] = binding
        binding.thread.start()
        return binding.to_json()

    @staticmethod
    def _run(table_id: str, binding: Binding, source: Callable[[], object]) -> None:
        """The source until it ends or is stopped; a failure is kept for the page and logged."""
        try:
            source()
        except Exception as error:
            binding.error = str(error).splitlines()[0] if str(error) else type(error).__name__
            LOG.exception("the %s of table %s stopped", binding.kind, table_id)
        finally:
            if binding.ownership is not None:
                binding.ownership.release()
                binding.ownership = None
