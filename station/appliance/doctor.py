"""``packref doctor``: is this machine ready for game night, as this station is set up?

One JSON object, ``{"ok", "status", "data", "checks": [{"name", "ok", "status", "summary",
"detail"}]}``, with the checks ``camera``, ``drone``, ``gpio``, ``database``, ``disk`` and
``kit``. Each check's ``status`` is ``"ok"``, ``"not configured"`` (this station does not use
it: nothing to check, and nothing wrong) or ``"needs attention"``; the report is ``ok`` when
no check needs attention. ``summary`` is a plain sentence for anyone; ``detail`` is the
technical line (devices, paths, an error's own words) for the organiser.

Only what the station is set up to use is checked: the cameras and boards bound to tables
(``DATA/station.toml``, or ``serve --camera/--drone`` for the running station), GPIO only
with ``gpio_buttons`` (``serve --gpio-buttons``), the kit only where there is a camera to
see it; the database and the disk always. ``look`` checks what the machine shows besides
(``/dev/video0`` or Picamera2; ``/dev/ttyACM*``, ``/dev/ttyUSB*``; a pin factory): ``packref
doctor --look``, before anything is bound. Each device is reached through a seam of
:class:`Doctor` (tests give a replay folder, a socat pty board, gpiozero's mock factory).

Example::

    report = Doctor(DoctorSetup(data_dir=Path("/srv/packref"))).run()
    print(report["status"], [check["status"] for check in report["checks"]])
"""

from __future__ import annotations

import hashlib
import shutil
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

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
OK, NOT_CONFIGURED, NEEDS_ATTENTION = "ok", "not configured", "needs attention"
Status = Literal["ok", "not configured", "needs attention"]

#: Each check's plain sentence per status: what a person at the venue reads (no path, no
#: device, no error text; those are in the detail).
SUMMARIES: dict[str, dict[str, str]] = {
    "camera": {OK: "The cameras give pictures.",
               NOT_CONFIGURED: "No camera is set up for this station.",
               NEEDS_ATTENTION: "A camera of this station gives no picture."},
    "drone": {OK: "The drone boards answer.",
              NOT_CONFIGURED: "No drone board is set up for this station.",
              NEEDS_ATTENTION: "A drone board of this station does not answer."},
    "gpio": {OK: "The referee's buttons can be read.",
             NOT_CONFIGURED: "No GPIO buttons are set up for this station.",
             NEEDS_ATTENTION: "The referee's buttons cannot be read on this machine."},
    "database": {OK: "The database is ready.",
                 NOT_CONFIGURED: "No database yet: the station makes it when it first starts.",
                 NEEDS_ATTENTION: "The database cannot be used."},
    "disk": {OK: "There is room on the disk.",
             NOT_CONFIGURED: "The data folder is not made yet.",
             NEEDS_ATTENTION: "The disk is nearly full."},
    "kit": {OK: "The camera sees the printed kit.",
            NOT_CONFIGURED: "No camera is set up to look for the kit.",
            NEEDS_ATTENTION: "The camera does not see the printed kit."},
}


@dataclass(frozen=True)
class Check:
    """One check's verdict: ``status``, a plain ``summary`` and the technical ``detail``."""

    name: str
    ok: bool
    detail: str
    status: Status = OK
    summary: str = ""

    @classmethod
    def of(cls, name: str, status: Status, detail: str) -> Check:
        """A check with its status's plain sentence (``ok`` unless it needs attention)."""
        return cls(name, status != NEEDS_ATTENTION, detail, status, SUMMARIES[name][status])

    @classmethod
    def passed(cls, name: str, ok: bool, detail: str) -> Check:
        return cls.of(name, OK if ok else NEEDS_ATTENTION, detail)


@dataclass
class DoctorSetup:
    """What to check: the data directory, its database, the devices the station uses."""

    data_dir: Path
    database_url: str | None = None
    cameras: dict[str, str] = field(default_factory=dict)  # table -> camera number or replay
    drones: dict[str, str] = field(default_factory=dict)  # table -> serial port
    gpio: bool = False  # the referee's buttons on this machine's GPIO
    look: bool = False  # also what the machine shows, though the station is not set up to use it
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
        self.camera_checked = False  # whether there was a camera to check, for the kit

    def __repr__(self) -> str:
        return f"<Doctor {self.setup.data_dir}>"

    def run(self) -> dict[str, Any]:
        checks = [self._guarded(name) for name in CHECKS]
        ok = all(check.ok for check in checks)
        return {"ok": ok, "status": OK if ok else NEEDS_ATTENTION,
                "data": str(self.setup.data_dir),
                "checks": [asdict(check) for check in checks]}

    def _guarded(self, name: str) -> Check:
        """A check; one that breaks needs attention with its reason rather than stopping the
        others."""
        try:
            return getattr(self, f"check_{name}")()
        except Exception as error:
            return Check.of(name, NEEDS_ATTENTION, f"{type(error).__name__}: {error}")

    # -- the checks -------------------------------------------------------------------------
    def check_camera(self) -> Check:
        cameras = list(dict.fromkeys(self.setup.cameras.values()))
        if self.setup.look:
            cameras += [where for where in self.find_cameras() if where not in cameras]
        if not cameras:
            return Check.of("camera", NOT_CONFIGURED, _unset(
                "no camera bound to a table (station.toml [cameras], serve --camera)",
                self.setup.look, "none found (no /dev/video0, no Picamera2)"))
        self.camera_checked = True
        results = [self._one_camera(where) for where in cameras]
        return Check.passed("camera", all(ok for ok, _ in results),
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
        ports = list(dict.fromkeys(self.setup.drones.values()))
        if self.setup.look:
            ports += [port for port in self.find_ports() if port not in ports]
        if not ports:
            return Check.of("drone", NOT_CONFIGURED, _unset(
                "no drone board bound to a table (station.toml [drones], serve --drone)",
                self.setup.look, "none found (no /dev/ttyACM*, /dev/ttyUSB*)"))
        results = [self._one_board(port) for port in ports]
        return Check.passed("drone", all(ok for ok, _ in results),
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
        if not (self.setup.gpio or self.setup.look):
            return Check.of("gpio", NOT_CONFIGURED, "no GPIO buttons (station.toml "
                            "gpio_buttons, serve --gpio-buttons)")
        try:
            factory = self.pin_factory()
        except Exception as error:
            return Check.of("gpio", NEEDS_ATTENTION, f"no pin factory: {error}")
        info = getattr(factory, "board_info", None)
        model = getattr(info, "model", None) if info is not None else None
        detail = f"{type(factory).__name__}" + (f" on a Raspberry Pi {model}" if model else "")
        return Check.of("gpio", OK, detail)

    def check_database(self) -> Check:
        file = self.setup.data_dir / DATABASE_FILE
        if self.setup.database_url is None and not file.is_file():  # looked at, never made
            return Check.of("database", NOT_CONFIGURED, f"no {file} yet ('packref serve' "
                            "makes it)")
        url = self.setup.database_url or f"sqlite:///{file}"
        try:
            database = open_database(url)
        except InputError as error:
            return Check.of("database", NEEDS_ATTENTION, str(error).removeprefix("--db: "))
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
            return Check.of("database", NEEDS_ATTENTION, f"{where} ({engine}): schema "
                            f"{schema_version()} lacks {', '.join(missing)}")
        return Check.of("database", OK, f"{where} ({engine}): schema {schema_version()}, "
                        f"{tables} tables, {events} events")

    def check_disk(self) -> Check:
        if not self.setup.data_dir.is_dir():
            return Check.of("disk", NOT_CONFIGURED, f"no {self.setup.data_dir} yet")
        usage = shutil.disk_usage(self.setup.data_dir)
        free_mb = usage.free / 1e6
        archive = self.setup.archive_dir
        used_mb = (sum(p.stat().st_size for p in archive.rglob("*") if p.is_file()) / 1e6
                   if archive is not None and archive.exists() else 0.0)
        detail = (f"{free_mb:,.0f} MB free on {self.setup.data_dir} (needs "
                  f"{self.setup.limits.disk_free_mb:,.0f}); archived frames {used_mb:,.1f} MB "
                  f"of {ARCHIVE.budget_mb:,.0f} MB")
        return Check.passed("disk", free_mb >= self.setup.limits.disk_free_mb, detail)

    def check_kit(self) -> Check:
        if not self.camera_checked:  # (a frame of another station's camera is not ours)
            return Check.of("kit", NOT_CONFIGURED, "no camera bound to a table to see the kit")
        frame, source = self.frame, ""
        recent = self.setup.recent_frame() if frame is None else None
        if recent is not None:
            table, age, frame = recent
            source = f" (the station's frame of table {table}, {age:.0f} s ago)"
        if frame is None:
            return Check.of("kit", NEEDS_ATTENTION, "no camera frame to look for the mats in")

        mats = kit_mats()
        seen = Reader([mat.spec for mat in mats]).observe(frame).mats
        found = {entry["id"] for entry in seen if entry.get("found")}
        labels = [f"{mat.request.game} {mat.request.label}" for mat in mats
                  if mat.spec.id in found]
        if not labels:
            return Check.of("kit", NEEDS_ATTENTION,
                            f"no mat of the kit in the camera's view{source}")
        return Check.of("kit", OK, f"{len(labels)} mat(s) seen: {', '.join(labels)}{source}")


def _unset(what: str, looked: bool, found: str) -> str:
    """The detail of a device check with nothing to check."""
    return f"{what}; looked for others: {found}" if looked else what


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

