"""Where each game's demo recordings lie: ``recordings/`` in its station package.

Both the recordings (:mod:`station.demo.recordings`) and the camera scripts
(:mod:`station.demo.camera_fixtures`) are found here, so neither needs the other.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from station.errors import StationError
from station.games import game_package

RECORDINGS_FOLDER = "recordings"  # in each game's package


class MissingRecording(StationError):
    """The demo has no recording for a registered game (or cannot read the package's)."""


def recordings_dir(game_name: str) -> Path:
    """The recordings folder of ``game_name``: ``recordings/`` in the package that defines
    its record (:func:`station.games.game_package`), through :mod:`importlib.resources`.

    >>> (recordings_dir("removal") / "removal.jsonl").is_file()
    True
    """
    package = game_package(game_name)
    if package is None:
        raise MissingRecording(f"no package of station.games holds the demo recordings of "
                               f"{game_name}")
    folder = resources.files(package) / RECORDINGS_FOLDER
    if not isinstance(folder, Path):  # e.g. a zipped install
        raise MissingRecording(f"the demo recordings are not a folder on disk: {folder}")
    return folder


