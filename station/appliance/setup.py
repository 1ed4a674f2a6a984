"""The appliance's pieces put together for one data directory (doctor, archive, cameras)."""

from __future__ import annotations

from pathlib import Path

from station.appliance.archive import RECENT_FRAMES
from station.appliance.config import STATION_FILE
from station.appliance.doctor import DoctorSetup
from station.appliance.ownership import camera_owner
from station.appliance.station_file import read_station_file, station_file_in
from station.private import private_dir

ARCHIVE_DIR = "archive"


def archive_dir(data_dir: Path) -> Path:
    """Where the frames behind rulings are kept: ``DATA/archive``."""
    return data_dir / ARCHIVE_DIR


def doctor_setup(data_dir: Path, database_url: str | None = None,
                 config: str | None = None, running: bool = False) -> DoctorSetup:
    """What ``packref doctor`` checks for ``data_dir`` (its station file's devices);
    ``running``: checked by the running station itself (its latest frames count)."""
    private_dir(data_dir)
    settings = read_station_file(config) if config else station_file_in(data_dir, STATION_FILE)
    return DoctorSetup(data_dir=data_dir, database_url=database_url,
                       cameras=settings.cameras or None, drones=settings.drones or None,
                       archive_dir=archive_dir(data_dir),
                       camera_owner=lambda where: camera_owner(where, data_dir),
                       recent_frame=RECENT_FRAMES.latest if running else lambda: None)
