"""The appliance's pieces put together for one data directory (doctor, archive, cameras)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from station.appliance.archive import RECENT_FRAMES
from station.appliance.config import STATION_FILE
from station.appliance.doctor import DoctorSetup
from station.appliance.ownership import camera_owner
from station.appliance.station_file import read_station_file, station_file_in

ARCHIVE_DIR = "archive"


@dataclass(frozen=True)
class StationDevices:
    """The devices a station is set up to use: what its health checks."""

    cameras: Mapping[str, str] = field(default_factory=dict)  # table -> camera
    drones: Mapping[str, str] = field(default_factory=dict)  # table -> serial port
    gpio: bool = False  # the referee's buttons


def archive_dir(data_dir: Path) -> Path:
    """Where the frames behind rulings are kept: ``DATA/archive``."""
    return data_dir / ARCHIVE_DIR


def doctor_setup(data_dir: Path, database_url: str | None = None,
                 config: str | None = None, running: bool = False,
                 devices: StationDevices | None = None, look: bool = False) -> DoctorSetup:
    """What ``packref doctor`` checks for ``data_dir``: ``devices`` (the running station's,
    its options and station file together), else its station file's; ``running``: checked
    by the running station itself (its latest frames count); ``look``: what the machine
    shows too. Nothing is made in ``data_dir``: a doctor only looks."""
    if devices is None:
        settings = (read_station_file(config) if config
                    else station_file_in(data_dir, STATION_FILE))
        devices = StationDevices(settings.cameras, settings.drones, bool(settings.gpio_buttons))
    return DoctorSetup(data_dir=data_dir, database_url=database_url,
                       cameras=dict(devices.cameras), drones=dict(devices.drones),
                       gpio=devices.gpio, look=look, archive_dir=archive_dir(data_dir),
                       camera_owner=lambda where: camera_owner(where, data_dir),
                       recent_frame=RECENT_FRAMES.latest if running else lambda: None)
