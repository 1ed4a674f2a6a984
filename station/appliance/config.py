"""The appliance's thresholds and fixed names, in one place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The station's systemd unit and the kiosk's (a user unit).
SERVICE_NAME = "packref.service"
KIOSK_SERVICE_NAME = "packref-kiosk.service"
KIOSK_SCRIPT = "/usr/local/bin/packref-kiosk"
#: Groups the station needs: cameras (video), serial boards (dialout), GPIO buttons (gpio).
DEVICE_GROUPS = ("video", "dialout", "gpio")
#: The station's configuration file, in its data directory.
STATION_FILE = "station.toml"
#: Where a camera's owner is noted (``RuntimeDirectory=packref`` in the unit); falls back
#: to ``DATA/run`` when it cannot be written.
RUN_DIR = Path("/run/packref")


@dataclass(frozen=True)
class DoctorLimits:
    """What ``packref doctor`` asks of the machine."""

    hello_timeout_s: float = 2.0  # a plugged-in board says HELLO within this
    camera_frames: int = 5  # frames read to measure a camera's frame rate
    camera_timeout_s: float = 5.0
    disk_free_mb: float = 500.0  # room for a night of archived frames


@dataclass(frozen=True)
class ArchiveLimits:
    """How the frames behind rulings are kept."""

    budget_mb: float = 2000.0  # every archived frame together; the oldest games go first
    jpeg_quality: int = 85


@dataclass(frozen=True)
class KioskLimits:
    """How the kiosk watches its browser."""

    check_every_s: float = 10.0  # how often the page is looked at
    blank_checks: int = 3  # a page blank (or unreachable) this many checks running: relaunch
    station_wait_s: float = 120.0  # how long to wait for the station at boot
    debug_port: int = 9222  # Chromium's DevTools port, on 127.0.0.1 only


DOCTOR = DoctorLimits()
ARCHIVE = ArchiveLimits()
KIOSK = KioskLimits()
