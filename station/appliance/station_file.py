"""``DATA/station.toml``: the station's cameras, boards and address, so the service's
command line stays ``packref serve --data DIR``.

Example (every key is optional)::

    host = "0.0.0.0"          # the whole local network
    port = 8000
    gpio_buttons = false      # the referee's buttons on this Pi's GPIO
    calibration = "/home/pi/.config/packref/drone-calibration.json"
    win_chances = true        # every player's chance to win on the pages
    advice_seconds = 1.5      # the advisor's budget per position (left out: each game's own)
    allowed_origins = ["https://screens.example"]  # other sites' pages may open the sockets

    [cameras]                 # TABLE = camera number, or a replay folder or video
    table-1 = 0
    [drones]                  # TABLE = serial port (or a pyserial URL)
    table-2 = "/dev/ttyACM0"
    [drone_positions]         # TABLE = JSON Lines of {"t", "card"}
    [catalogues]              # GAME = your copy's catalogue

A mistake is one :class:`~station.errors.InputError` naming the file and the
place as a JSON path::

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "station.toml"
    >>> _ = path.write_text('port = "eighty"\\n')
    >>> read_station_file(path)
    Traceback (most recent call last):
    ...
    station.errors.InputError: ...station.toml: $.port: must be a whole number, not a string
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from station.config import MAX_ADVICE_SECONDS, MIN_ADVICE_SECONDS
from station.errors import InputError
from station.jsonin import Node

TABLE_SECTIONS = ("cameras", "drones", "drone_positions", "catalogues")
SCALARS = ("host", "port", "gpio_buttons", "calibration", "win_chances", "advice_seconds")
LISTS = ("allowed_origins",)


@dataclass
class StationFile:
    """What the file says; ``None`` and empty sections where it says nothing."""

    path: Path | None = None
    host: str | None = None
    port: int | None = None
    gpio_buttons: bool | None = None
    calibration: str | None = None
    win_chances: bool | None = None
    advice_seconds: float | None = None
    allowed_origins: list[str] = field(default_factory=list)
    cameras: dict[str, str] = field(default_factory=dict)
    drones: dict[str, str] = field(default_factory=dict)
    drone_positions: dict[str, str] = field(default_factory=dict)
    catalogues: dict[str, str] = field(default_factory=dict)


def _section(root: Node, name: str) -> dict[str, str]:
    node = root.get(name, {})
    node.obj()
    found = {}
    for key, value in node.fields():
        if isinstance(value.value, int) and not isinstance(value.value, bool):
            found[key] = str(value.integer(0))  # a camera number
        else:
            found[key] = value.string(non_empty=True)
    return found


def _parse(document: dict, path: Path) -> StationFile:
    root = Node(document)
    known = SCALARS + LISTS + TABLE_SECTIONS
    unknown = sorted(set(root.keys()) - set(known))
    if unknown:
        raise root.get(unknown[0]).fail(f"unknown setting (known: {', '.join(known)})")
    settings = StationFile(path=path)
    if root.has("host"):
        settings.host = root["host"].string(non_empty=True)
    if root.has("port"):
        settings.port = root["port"].integer(0, 65535)
    if root.has("gpio_buttons"):
        settings.gpio_buttons = root["gpio_buttons"].boolean()
    if root.has("calibration"):
        settings.calibration = root["calibration"].string(non_empty=True)
    if root.has("win_chances"):
        settings.win_chances = root["win_chances"].boolean()
    if root.has("advice_seconds"):
        settings.advice_seconds = root["advice_seconds"].number(MIN_ADVICE_SECONDS,
                                                                MAX_ADVICE_SECONDS)
    if root.has("allowed_origins"):
        settings.allowed_origins = [item.string(non_empty=True)
                                    for item in root["allowed_origins"].items()]
    for name in TABLE_SECTIONS:
        setattr(settings, name, _section(root, name))
    return settings


def read_station_file(path: str | Path) -> StationFile:
    """The settings in ``path`` (TOML); a missing file is an InputError too."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot read ({error})") from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path}: invalid TOML: {error}") from None
    try:
        return _parse(document, path)
    except InputError as error:
        raise InputError(f"{path}: {error}") from None


def station_file_in(data_dir: Path, name: str) -> StationFile:
    """The data directory's station file, or empty settings when there is none."""
    path = data_dir / name
    return read_station_file(path) if path.exists() else StationFile()


def as_pairs(values: dict[str, str]) -> list[str]:
    """``{"table-1": "0"}`` → ``["table-1=0"]`` (the command line's form)."""
    return [f"{table}={value}" for table, value in values.items()]


DEFAULT_TEXT = """\
# packref station settings (read by `packref serve --data DIR` at every start).
# The station listens on the whole local network; 127.0.0.1 keeps it to this machine.
host = "0.0.0.0"
port = 8000
# gpio_buttons = true     # the referee's start/foul/undo buttons (pins 17, 27, 22)

[cameras]
# table-1 = 0             # camera 0: the Pi camera (Picamera2) or the first USB camera

[drones]
# table-2 = "/dev/ttyACM0"
"""


def _merge(from_file: dict[str, str], given: list[str]) -> list[str]:
    """The file's ``TABLE=VALUE`` entries, then the command line's (which win per table)."""
    on_the_line = {value.partition("=")[0] for value in given}
    return [*as_pairs({t: v for t, v in from_file.items() if t not in on_the_line}), *given]


def apply_station_file(arguments: Any, data_dir: Path, name: str) -> StationFile:
    """Fill ``packref serve``'s arguments from the station file (``--config``, else
    ``DATA/station.toml`` when present): the command line wins where both say something."""
    settings = (read_station_file(arguments.config) if getattr(arguments, "config", None)
                else station_file_in(data_dir, name))
    if arguments.host is None:
        arguments.host = settings.host or "127.0.0.1"
    if arguments.port is None:
        arguments.port = 8000 if settings.port is None else settings.port
    if not arguments.gpio_buttons and settings.gpio_buttons:
        arguments.gpio_buttons = True
    if arguments.calibration is None:
        arguments.calibration = settings.calibration
    if getattr(arguments, "win_chances", None) is None and settings.win_chances is not None:
        arguments.win_chances = "on" if settings.win_chances else "off"
    if getattr(arguments, "advice_seconds", None) is None:
        arguments.advice_seconds = settings.advice_seconds
    arguments.allow_origin = [*settings.allowed_origins,
                              *(getattr(arguments, "allow_origin", None) or [])]
    arguments.camera = _merge(settings.cameras, arguments.camera)
    arguments.drone = _merge(settings.drones, arguments.drone)
    arguments.drone_positions = _merge(settings.drone_positions, arguments.drone_positions)
    arguments.catalogue = _merge(settings.catalogues, arguments.catalogue)
    return settings
