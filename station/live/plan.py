"""The station as plain values: what ``packref serve`` starts, checked and typed.

A :class:`StationPlan` says where the station listens and keeps its data, which
copies' catalogues its tables play with, the advisor's settings, where the frames
behind rulings go, and its tables; a :class:`TablePlan` says what drives one
table: its overhead camera (with that camera's calibration) and its Pick 'n
Packers drone (its port, and its positions until the camera reports them).
What a plan holds is already checked and read (files parsed, cameras opened):
the command line builds one from its options and ``station.toml``
(``station/cli/serve.py``), :func:`station.live.runner.start` starts what it
names, and anyone else can build one in Python::

    >>> plan = StationPlan(port=0, data=Path("/srv/packref"), tables=(
    ...     TablePlan("table-1", camera="0"),
    ...     TablePlan("table-2", drone="/dev/ttyACM0",
    ...               drone_positions=({"t": 6.9, "card": 1},))),
    ...     gpio_buttons="table-2", archive=Path("/srv/packref/archive"))
    >>> plan
    StationPlan(127.0.0.1:0, data=/srv/packref, archive=/srv/packref/archive,
                gpio_buttons='table-2', tables=[TablePlan('table-1', camera='0'),
                TablePlan('table-2', drone='/dev/ttyACM0', 1 drone position)])
    >>> plan.cameras(), plan.drones()
    ({'table-1': '0'}, {'table-2': '/dev/ttyACM0'})
    >>> StationPlan(gpio_buttons="table-1", tables=(TablePlan("table-1", camera="0"),))
    Traceback (most recent call last):
    ...
    ValueError: gpio_buttons: table 'table-1' has no drone
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from station.config import AdviceSettings

if TYPE_CHECKING:
    from vision.lens import Lens

__all__ = ["StationPlan", "TablePlan"]


@dataclass(frozen=True, repr=False)
class TablePlan:
    """What drives one table (created, named as its id, when the station has none).

    ``camera``: a camera number (``"0"`` = the first) or a replay (a folder of images in
    name order, or a video); ``lens``: that camera's calibration (``packref vision
    calibrate``, :func:`vision.lens.load_lens`), None to estimate a radial distortion.
    ``drone``: the Pick 'n Packers drone's serial port or pyserial URL
    (``replay://capture.bin`` included); ``drone_positions``: where the drone stands,
    ``{"t": seconds, "card": 0-9}`` in the drone's clock, until the camera reports it.
    """

    table_id: str
    camera: str | None = None
    lens: Lens | None = None
    drone: str | None = None
    drone_positions: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.drone_positions and self.drone is None:
            raise ValueError(f"drone_positions: table {self.table_id!r} has no drone")

    def __repr__(self) -> str:
        parts = [repr(self.table_id)]
        if self.camera is not None:
            parts.append(f"camera={self.camera!r}")
        if self.lens is not None:
            parts.append(f"lens={type(self.lens).__name__}")
        if self.drone is not None:
            parts.append(f"drone={self.drone!r}")
        if self.drone_positions:
            count = len(self.drone_positions)
            parts.append(f"{count} drone position{'s' if count != 1 else ''}")
        return f"TablePlan({', '.join(parts)})"


@dataclass(frozen=True, repr=False)
class StationPlan:
    """A whole station (see the module); every field has the default ``packref serve`` has.

    ``data``: the data directory (None: the per-user one, ``station.config``);
    ``database``: an SQLAlchemy URL (None: SQLite in ``data``); ``catalogues``: a copy's
    catalogue per game, for every game started at the station; ``drone_calibration``:
    the drone boards' calibration file, one for every board (None:
    ``~/.config/packref/drone-calibration.json``); ``gpio_buttons``: the table whose
    drone's referee has this Pi's start/foul/undo buttons (one Pi, one set of pins);
    ``archive``: where the camera tables keep the frames behind rulings (None: none kept).
    """

    host: str = "127.0.0.1"
    port: int = 8000
    data: Path | None = None
    database: str | None = None
    catalogues: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    advice: AdviceSettings = field(default_factory=AdviceSettings)
    drone_calibration: str | None = None
    gpio_buttons: str | None = None
    archive: Path | None = None
    tables: tuple[TablePlan, ...] = ()

    def __post_init__(self) -> None:
        ids = [table.table_id for table in self.tables]
        twice = sorted({table_id for table_id in ids if ids.count(table_id) > 1})
        if twice:
            raise ValueError(f"tables: {twice[0]!r} is planned twice")
        if self.gpio_buttons is not None and self.gpio_buttons not in self.drones():
            raise ValueError(f"gpio_buttons: table {self.gpio_buttons!r} has no drone")

    def __repr__(self) -> str:
        parts = [f"{self.host}:{self.port}"]
        for name in ("data", "database", "archive", "drone_calibration"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value}")
        if self.catalogues:
            parts.append(f"catalogues={sorted(self.catalogues)}")
        if self.advice != AdviceSettings():
            parts.append(f"advice={self.advice}")
        if self.gpio_buttons is not None:
            parts.append(f"gpio_buttons={self.gpio_buttons!r}")
        parts.append(f"tables={list(self.tables)}")
        return f"StationPlan({', '.join(parts)})"

    def cameras(self) -> dict[str, str]:
        """Each camera table's source, in the plan's order."""
        return {table.table_id: table.camera for table in self.tables
                if table.camera is not None}

    def drones(self) -> dict[str, str]:
        """Each drone table's port, in the plan's order."""
        return {table.table_id: table.drone for table in self.tables
                if table.drone is not None}
