"""The cameras, replays and serial ports this station sees, for the set-up page to choose from.

Cheap on purpose (the page asks each time it opens): no camera is opened.

- cameras: each ``/dev/videoN`` a camera can be read from (Linux; a node whose
  ``/sys/class/video4linux/videoN/index`` is not 0 is a second node of the same camera,
  its metadata, and is left out), as OpenCV's index ``N``, with its name;
- replays: the folders of images and the videos in ``DATA/replays`` (a recorded camera
  played as if live: a rehearsal, a demo), by path;
- serial ports: pyserial's ``serial.tools.list_ports`` (the drone board's USB port
  among them), and the captures in ``DATA/replays`` as ``replay://PATH``.

Example::

    >>> sorted(seen_devices(Path("/nonexistent"), dev=Path("/nonexistent")))
    ['cameras', 'serial_ports']
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from serial.tools import list_ports

from station.appliance.ownership import camera_owner

__all__ = ["REPLAYS_DIR", "seen_devices"]

REPLAYS_DIR = "replays"
VIDEO_SUFFIXES = {".mp4", ".avi", ".mkv", ".mov", ".webm"}
CAPTURE_SUFFIXES = {".bin"}
SYS_VIDEO = Path("/sys/class/video4linux")


def _camera_nodes(dev: Path) -> list[dict[str, Any]]:
    """Each capture node ``/dev/videoN`` as ``{"source": "N", "name": ...}``."""
    found = []
    for node in dev.glob("video*"):
        match = re.fullmatch(r"video(\d+)", node.name)
        if match is None:
            continue
        info = SYS_VIDEO / node.name
        if _read(info / "index") not in (None, "0"):
            continue  # the same camera's metadata node
        number = match.group(1)
        found.append({"source": number, "kind": "camera",
                      "name": _read(info / "name") or f"camera {number}", "path": str(node)})
    return sorted(found, key=lambda camera: int(camera["source"]))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8").strip()
    except OSError:
        return None


def _replays(data_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The camera replays (folders, videos) and drone captures in ``DATA/replays``."""
    cameras, captures = [], []
    folder = data_dir / REPLAYS_DIR
    for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
        if entry.is_dir() or entry.suffix.lower() in VIDEO_SUFFIXES:
            cameras.append({"source": str(entry), "kind": "replay",
                            "name": f"replay {entry.name}", "path": str(entry)})
        elif entry.suffix.lower() in CAPTURE_SUFFIXES:
            captures.append({"port": f"replay://{entry}", "kind": "replay",
                             "name": f"drone capture {entry.name}"})
    return cameras, captures


def _serial_ports() -> list[dict[str, Any]]:
    return [{"port": port.device, "kind": "serial",
             "name": port.description if port.description not in (None, "", "n/a")
             else port.device}
            for port in sorted(list_ports.comports(), key=lambda p: p.device)]


def seen_devices(data_dir: Path, in_use: dict[str, str] | None = None,
                 dev: Path = Path("/dev")) -> dict[str, list[dict[str, Any]]]:
    """The cameras and serial ports to choose from (see the module); ``in_use``: each
    source bound at this station and its table, marked ``table``; a camera another
    process owns is marked ``owner``."""
    in_use = in_use or {}
    replays, captures = _replays(Path(data_dir))
    cameras = _camera_nodes(dev)
    for camera in cameras:
        owner = camera_owner(camera["source"], Path(data_dir))
        if owner is not None and camera["source"] not in in_use:
            camera["owner"] = owner
    ports = _serial_ports() + captures
    for item in [*cameras, *replays]:
        item["table"] = in_use.get(item["source"])
    for port in ports:
        port["table"] = in_use.get(port["port"])
    return {"cameras": cameras + replays, "serial_ports": ports}
