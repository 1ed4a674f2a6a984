"""``packref doctor``: is this machine ready for game night?

One JSON object, ``{"ok": bool, "checks": [{"name", "ok", "detail"}]}``, with the
checks ``camera``, ``drone``, ``gpio``, ``database``, ``disk`` and ``kit``; ``ok``
only when every check passes. The same object is the dashboard's health page
(``GET /api/health``, ``/health``).

The cameras and boards are those of ``DATA/station.toml``; without any there,
those the machine shows (``/dev/video0`` or Picamera2; ``/dev/ttyACM*``,
``/dev/ttyUSB*``). Each device is reached through a seam of :class:`Doctor`
(tests give a replay folder, a socat pty board, gpiozero's mock factory).

Example::

    report = Doctor(DoctorSetup(data_dir=Path("/srv/packref"))).run()
    print(report["ok"], [check["name"] for check in report["checks"]])
"""

from __future__ import annotations

import hashlib
import shutil
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, inspect, select

from hardware.errors import LinkError
from hardware.link import DroneLink
from station.appliance.config import ARCHIVE, DOCTOR, DoctorLimits
from station.config import DATABASE_FILE
from station.errors import InputError
from station.kit import default_catalogues, mat_requests
from station.live.camera import CameraError, open_frames
from station.store import open_database
from station.store.models import Base, EventRow, TableRow
from vision.kit import plan_mats, table_numbers
from vision.reader import Reader
from vision.sources import picamera_available

CHECKS = ("camera", "drone", "gpio", "database", "disk", "kit")
SERIAL_PATTERNS = ("/dev/ttyACM*", "/dev/ttyUSB*")


@dataclass(frozen=True)
class Check:
    """One check's verdict; ``detail`` is one line for a person."""

    name: str
    ok: bool
    detail: str


@dataclass
class DoctorSetup:
    """What to check: the data directory, its database, the devices (``None``: look)."""

    data_dir: Path
    database_url: str | None = None
    cameras: dict[str, str] | None = None  # table -> camera number or replay
    drones: dict[str, str] | None = None  # table -> serial port
    archive_dir: Path | None = None
    limits: DoctorLimits = DOCTOR
    #: who owns a camera now (see station.appliance.ownership); None: nobody
    camera_owner: Callable[[str], str | None] = field(default=lambda where: None)
    #: the running station's latest frame, (table, seconds since, frame), for the kit
    #: check while the station owns the camera (None: there is none)
    recent_frame: Callable[[], tuple[str, float, Any] | None] = field(default=lambda: None)


def present_cameras() -> list[str]:
    """The cameras this machine shows: ``0`` when Picamera2 or ``/dev/video0`` is there."""
    return ["0"] if picamera_available() or Path("/dev/video0").exists() else []


def present_serial_ports() -> list[str]:
    """USB serial ports a board may be on."""
    return sorted(str(path) for pattern in SERIAL_PATTERNS
                  for path in Path("/").glob(pattern.lstrip("/")))


def default_pin_factory() -> Any:
    """gpiozero's pin factory, as a gpiozero device would get it (None-safe close after)."""
    from gpiozero.devices import Device

    if Device.pin_factory is not None:
        return Device.pin_factory
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Device._default_pin_factory()


class Doctor:
    """Runs every check of :data:`CHECKS` (see the module)."""

    def __init__(self, setup: DoctorSetup, *,
                 find_cameras: Callable[[], list[str]] = present_cameras,
                 find_ports: Callable[[], list[str]] = present_serial_ports,
                 pin_factory: Callable[[], Any] = default_pin_factory) -> None:
        self.setup = setup
        self.find_cameras = find_cameras
        self.find_ports = find_ports
        self.pin_factory = pin_factory
        self.frame: Any = None  # the first camera's frame, for the kit check

    def __repr__(self) -> str:
        return f"<Doctor {self.setup.data_dir}>"

    def run(self) -> dict[str, Any]:
        checks = [self._guarded(name) for name in CHECKS]
        return {"ok": all(check.ok for check in checks),
                "checks": [asdict(check) for check in checks]}

    def _guarded(self, name: str) -> Check:
        """A check; one that breaks fails with its reason rather than stopping the others."""
        try:
            return getattr(self, f"check_{name}")()
        except Exception as error:
            return Check(name, False, f"{type(error).__name__}: {error}")

    # -- the checks -------------------------------------------------------------------------
    def check_camera(self) -> Check:
        cameras = (list(self.setup.cameras.values()) if self.setup.cameras
                   else self.find_cameras())
        if not cameras:
            return Check("camera", False, "no camera found (no /dev/video0, no Picamera2) "
                         "and none in station.toml")
        results = [self._one_camera(where) for where in cameras]
        return Check("camera", all(ok for ok, _ in results),
                     "; ".join(detail for _, detail in results))

    def _one_camera(self, where: str) -> tuple[bool, str]:
        owner = self.setup.camera_owner(where)
        if owner is not None:
            return True, f"{where}: in use by {owner} (not opened again)"
        try:
            source = open_frames(where)
        except CameraError as error:
            return False, f"{where}: {error}"
        kind = "Picamera2" if type(source).__name__ == "PicameraSource" else type(
            source).__name__
        try:
            frames, started = [], time.monotonic()
            for frame in source:
                frames.append(frame)
                if (len(frames) >= self.setup.limits.camera_frames
                        or time.monotonic() - started > self.setup.limits.camera_timeout_s):
                    break
            elapsed = time.monotonic() - started
        except Exception as error:  # a camera that opens and then fails
            return False, f"{where}: {error}"
        finally:
            source.close()
        if not frames:
            return False, f"{where}: opened, but gave no frame"
        if self.frame is None:
            self.frame = frames[0]
        height, width = frames[0].shape[:2]
        rate = f"{len(frames) / elapsed:.1f} fps" if elapsed > 0 else "fps unknown"
        return True, f"{where}: {width}×{height} at {rate} ({kind})"

    def check_drone(self) -> Check:
        ports = list(self.setup.drones.values()) if self.setup.drones else self.find_ports()
        if not ports:
            return Check("drone", False, "no serial board found (no /dev/ttyACM*, "
                         "/dev/ttyUSB*) and none in station.toml")
        results = [self._one_board(port) for port in ports]
        return Check("drone", all(ok for ok, _ in results),
                     "; ".join(detail for _, detail in results))

    def _one_board(self, port: str) -> tuple[bool, str]:
        link = DroneLink(port, read_timeout=0.05)
        try:
            link.open()
        except LinkError as error:
            if "exclusively lock" in str(error) or "busy" in str(error).lower():
                return True, f"{port}: in use by another process (the station?)"
            return False, str(error)
        try:
            link.send_command("hello?")
            deadline = time.monotonic() + self.setup.limits.hello_timeout_s
            while link.status.board is None and time.monotonic() < deadline:
                link.poll()
        finally:
            link.close()
        board = link.status.board
        if board is None:
            return False, (f"{port}: opened, but no HELLO within "
                           f"{self.setup.limits.hello_timeout_s:g} s (is the firmware running?)")
        return True, (f"{port}: board {board.get('board_id')} "
                      f"(firmware {board.get('firmware', '?')}, {board.get('rate_hz', '?')} Hz)")

    def check_gpio(self) -> Check:
        try:
            factory = self.pin_factory()
        except Exception as error:
            return Check("gpio", False, f"no pin factory: {error}")
        info = getattr(factory, "board_info", None)
        model = getattr(info, "model", None) if info is not None else None
        detail = f"{type(factory).__name__}" + (f" on a Raspberry Pi {model}" if model else "")
        return Check("gpio", True, detail)

    def check_database(self) -> Check:
        url = self.setup.database_url or f"sqlite:///{self.setup.data_dir / DATABASE_FILE}"
        try:
            database = open_database(url)
        except InputError as error:
            return Check("database", False, str(error).removeprefix("--db: "))
        try:
            inspector = inspect(database.engine)
            found = set(inspector.get_table_names())
            missing = sorted(set(Base.metadata.tables) - found)
            version = database.engine.dialect.server_version_info or ()
            with database.session() as session:
                tables = session.scalar(select(func.count()).select_from(TableRow))
                events = session.scalar(select(func.count()).select_from(EventRow))
        finally:
            database.close()
        where = database.engine.url.render_as_string(hide_password=True)
        engine = f"{database.dialect} {'.'.join(str(part) for part in version)}"
        if missing:
            return Check("database", False, f"{where} ({engine}): schema {schema_version()} "
                         f"lacks {', '.join(missing)}")
        return Check("database", True, f"{where} ({engine}): schema {schema_version()}, "
                     f"{tables} tables, {events} events")

    def check_disk(self) -> Check:
        usage = shutil.disk_usage(self.setup.data_dir)
        free_mb = usage.free / 1e6
        archive = self.setup.archive_dir
        used_mb = (sum(p.stat().st_size for p in archive.rglob("*") if p.is_file()) / 1e6
                   if archive is not None and archive.exists() else 0.0)
        detail = (f"{free_mb:,.0f} MB free on {self.setup.data_dir} (needs "
                  f"{self.setup.limits.disk_free_mb:,.0f}); archived frames {used_mb:,.1f} MB "
                  f"of {ARCHIVE.budget_mb:,.0f} MB")
        return Check("disk", free_mb >= self.setup.limits.disk_free_mb, detail)

    def check_kit(self) -> Check:
        frame, source = self.frame, ""
        recent = self.setup.recent_frame() if frame is None else None
        if recent is not None:
            table, age, frame = recent
            source = f" (the station's frame of table {table}, {age:.0f} s ago)"
        if frame is None:
            return Check("kit", False, "no camera frame to look for the mats in")

        mats = kit_mats()
        seen = Reader([mat.spec for mat in mats]).observe(frame).mats
        found = {entry["id"] for entry in seen if entry.get("found")}
        labels = [f"{mat.request.game} {mat.request.label}" for mat in mats
                  if mat.spec.id in found]
        if not labels:
            return Check("kit", False, f"no mat of the kit in the camera's view{source}")
        return Check("kit", True, f"{len(labels)} mat(s) seen: {', '.join(labels)}{source}")


def kit_mats() -> list[Any]:
    """Every mat the printed kit has for table 0 of 1 (as ``packref kit`` prints them)."""
    numbers = table_numbers(0, 1)
    mats: dict[int, Any] = {}  # each game numbers its mats from the table's first: one per id
    for mat in plan_mats(mat_requests(default_catalogues(), len(numbers)), numbers):
        mats.setdefault(mat.spec.id, mat)
    return list(mats.values())


def schema_version() -> str:
    """A short fingerprint of the schema the station expects (tables and their columns)."""
    text = ";".join(f"{name}({','.join(sorted(table.columns.keys()))})"
                    for name, table in sorted(Base.metadata.tables.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:8]

