"""Starting what a :class:`~station.live.plan.StationPlan` names on a station's tables.

:func:`start` runs each table's drone (:func:`station.live.drone.attach`, with this
Pi's GPIO buttons for the table the plan gives them to) and each table's camera
(:func:`station.live.camera.attach`, with a frame keeper for the game archive when
the plan keeps one, and the camera's calibration), each in a thread of its own
until :meth:`RunningStation.stop`; a table with both shares one clock bridge
(:mod:`station.live.clock_bridge`). A source that fails is tried again with back-off
and its table flagged in words meanwhile (:func:`station.live.source_faults.supervised`:
"the camera's frames stopped: REASON; retrying in 4 s"); the others go on. A drone
board with no calibration flags its table too. :func:`run` is the same
as an asyncio task, stopped when cancelled: the dashboard's background task
(``packref serve``).

Example (a recorded drone capture played into table ``drone``; ``station`` is a
:class:`~station.live.station.Station`)::

    plan = StationPlan(tables=(TablePlan("drone", drone="replay://capture.bin"),))
    with start(plan, station) as running:
        running.wait(timeout=60)        # a replay ends with its capture; a port runs on
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable
from functools import partial

from station.appliance.archive import FrameKeeper
from station.live import camera, drone
from station.live.clock_bridge import ClockBridge
from station.live.plan import StationPlan
from station.live.source_faults import FlaggedCalibrations, supervised
from station.live.station import Station

__all__ = ["RunningStation", "run", "start"]

LOG = logging.getLogger("packref")
STOP_WAIT_S = 30.0  # how long stop() waits for the sources to notice


class RunningStation:
    """The sources a plan started, one thread each (see the module); ``with`` stops them."""

    def __init__(self, plan: StationPlan, threads: dict[str, threading.Thread],
                 stop: threading.Event) -> None:
        self.plan = plan
        self.threads = threads  # by what they drive: "drone of table-2", "camera of table-1"
        self._stop = stop

    def __repr__(self) -> str:
        running = self.running()
        return (f"<RunningStation {len(running)} of {len(self.threads)} sources running"
                f"{': ' + ', '.join(running) if running else ''}>")

    def __enter__(self) -> RunningStation:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def running(self) -> list[str]:
        """The sources still running ("camera of table-1", ...)."""
        return [name for name, thread in self.threads.items() if thread.is_alive()]

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for every source to end (replays end, live sources run until stopped);
        whether they all did within ``timeout`` seconds (None: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self.threads.values():
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not self.running()

    def stop(self, timeout: float | None = STOP_WAIT_S) -> bool:
        """Tell every source to stop, then wait for them (see :meth:`wait`)."""
        self._stop.set()
        return self.wait(timeout)


def start(plan: StationPlan, station: Station) -> RunningStation:
    """Start every drone and camera of ``plan`` on ``station`` (see the module).

    ``station`` was made with the plan's catalogues (``Station(..., catalogues=...)``);
    its tables are created as their sources start, when missing.
    """
    stop = threading.Event()
    bridges = {table.table_id: ClockBridge() for table in plan.tables
               if table.drone is not None and table.camera is not None}
    sources: dict[str, Callable[[], object]] = {}
    faults = station.source_faults
    for table in plan.tables:
        if table.drone is not None:
            sources[f"drone of table {table.table_id}"] = supervised(
                faults, table.table_id, "drone", partial(
                    drone.attach, station, table.table_id, table.drone,
                    positions=table.drone_positions,
                    gpio_buttons=plan.gpio_buttons == table.table_id, stop=stop,
                    calibration_file=plan.drone_calibration,
                    bridge=bridges.get(table.table_id), calibrations=FlaggedCalibrations(
                        faults, table.table_id, plan.drone_calibration)), stop)
    for table in plan.tables:
        if table.camera is not None:
            keeper = (FrameKeeper(station, table.table_id, plan.archive)
                      if plan.archive is not None else None)
            sources[f"camera of table {table.table_id}"] = supervised(
                faults, table.table_id, "camera", partial(
                    camera.attach, station, table.table_id, table.camera, stop=stop,
                    bridge=bridges.get(table.table_id), keeper=keeper, lens=table.lens), stop)
    threads = {name: threading.Thread(target=_reported(name, source), name=f"packref {name}")
               for name, source in sources.items()}
    for thread in threads.values():
        thread.start()
    return RunningStation(plan, threads, stop)


def _reported(name: str, source: Callable[[], object]) -> Callable[[], None]:
    """``source()``, a failure logged and told on stderr instead of raised."""

    def run_source() -> None:
        try:
            source()
        except Exception:
            what, _, table = name.partition(" of table ")
            LOG.exception("the %s of table %s stopped", what, table)
            print(f"packref: the {name} stopped (see logs/station.log)", file=sys.stderr)

    return run_source


async def run(plan: StationPlan, station: Station) -> None:
    """Run the plan's sources until they end or the task is cancelled, then stop them."""
    running = start(plan, station)
    try:
        await asyncio.to_thread(running.wait)
    finally:
        await asyncio.to_thread(running.stop)
