"""What went wrong with a table's camera, drone or buttons, in words, while it is retried.

A source that fails (a full disk, a database held by another writer, a deleted replay
folder, a board that stopped answering) is not left dead: :func:`supervised` runs it again
with back-off (1 s, 2 s, 4 s … at most 30 s) and flags its table meanwhile — "the camera's
frames stopped: REASON; retrying in 4 s" — in the table's snapshot (``"sources"``, shown
on the table page) and on the health page; the flag clears once the source has run again
for a while (``HEALTHY_S``) without failing. Bad frames a camera skips are counted too.

Example::

    faults = SourceFaults()
    faults.fail("t1", "camera", "the camera's frames stopped: disk full; retrying in 1 s")
    faults.of("t1")   # [{"source": "camera", "words": "...", "since": ..., "skipped": 0}]
    faults.clear("t1", "camera")
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hardware.calibration import Calibration, CalibrationStore
from station.faults import is_busy, is_disk_full

LOG = logging.getLogger("packref")
FIRST_WAIT_S = 1.0
LONGEST_WAIT_S = 30.0
HEALTHY_S = 5.0  # a restarted source that runs this long without failing has recovered

#: What each kind of source gives the table, for the words ("the camera's frames stopped").
WHAT_STOPPED = {"camera": "the camera's frames", "drone": "the drone's readings",
                "buttons": "the referee's buttons"}


@dataclass
class SourceFault:
    """One source of one table: what is wrong with it now (None: nothing) and since when."""

    words: str | None = None
    since: float | None = None
    skipped: int = 0  # bad frames skipped since the source started

    def to_json(self, kind: str) -> dict[str, Any]:
        return {"source": kind, "words": self.words, "since": self.since,
                "skipped": self.skipped}


class SourceFaults:
    """Each table's sources' faults (thread-safe); ``on_change(table_id)`` after each change."""

    def __init__(self, on_change: Callable[[str], None] | None = None) -> None:
        self._faults: dict[tuple[str, str], SourceFault] = {}
        self._lock = threading.Lock()
        self.on_change = on_change

    def __repr__(self) -> str:
        return f"<SourceFaults {len(self.failing())} failing>"

    def fail(self, table_id: str, kind: str, words: str) -> None:
        """Flag the table's ``kind`` source with ``words``."""
        with self._lock:
            fault = self._faults.setdefault((table_id, kind), SourceFault())
            changed = fault.words != words
            fault.words, fault.since = words, fault.since or time.time()
        if changed:
            self._changed(table_id)

    def clear(self, table_id: str, kind: str) -> None:
        """The source works again: its flag goes (its skipped frames stay counted)."""
        with self._lock:
            fault = self._faults.get((table_id, kind))
            if fault is None or fault.words is None:
                return
            fault.words, fault.since = None, None
        self._changed(table_id)

    def skipped(self, table_id: str, kind: str) -> int:
        """Count one more bad frame skipped; the count so far."""
        with self._lock:
            fault = self._faults.setdefault((table_id, kind), SourceFault())
            fault.skipped += 1
            count = fault.skipped
        self._changed(table_id)
        return count

    def of(self, table_id: str) -> list[dict[str, Any]]:
        """The table's sources that failed or skipped frames, as JSON."""
        with self._lock:
            return [fault.to_json(kind) for (table, kind), fault in sorted(self._faults.items())
                    if table == table_id and (fault.words or fault.skipped)]

    def failing(self) -> list[tuple[str, str, str]]:
        """Every source flagged now: ``(table, kind, words)``."""
        with self._lock:
            return [(table, kind, fault.words) for (table, kind), fault
                    in sorted(self._faults.items()) if fault.words]

    def _changed(self, table_id: str) -> None:
        if self.on_change is not None:
            try:
                self.on_change(table_id)
            except Exception:  # the flag is kept: only its broadcast failed
                LOG.exception("the source flag of table %s could not be sent", table_id)


DISK_FULL = "the disk is full: nothing it sees can be stored until there is room"
DATABASE_LOCKED = "the database is locked by another program: waiting for it"


def reason(error: BaseException) -> str:
    """An error in words: a full disk and a locked database as such (the station's own
    words, not the driver's), else its first line (its kind when it has no words)."""
    if is_disk_full(error):
        return DISK_FULL
    if is_busy(error):
        return DATABASE_LOCKED
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def supervised(faults: SourceFaults, table_id: str, kind: str, source: Callable[[], object],
               stop: threading.Event) -> Callable[[], None]:
    """``source()`` run until it ends by itself or ``stop`` is set; each failure flags the
    table and is retried after a wait that doubles (``FIRST_WAIT_S`` up to
    ``LONGEST_WAIT_S``); the flag clears once a restart has run ``HEALTHY_S`` without
    failing (see the module)."""

    def run() -> None:
        first_wait_s, longest_wait_s, healthy_s = FIRST_WAIT_S, LONGEST_WAIT_S, HEALTHY_S
        wait, attempt = first_wait_s, 0
        while not stop.is_set():
            attempt += 1
            timer = _clear_later(faults, table_id, kind, healthy_s) if attempt > 1 else None
            started = time.monotonic()
            try:
                source()
                faults.clear(table_id, kind)
                return  # a replay ran out, or stop was set
            except Exception as error:
                if time.monotonic() - started >= healthy_s:
                    wait = first_wait_s  # it had recovered: a new fault starts afresh
                words = (f"{WHAT_STOPPED.get(kind, 'the ' + kind)} stopped: {reason(error)}; "
                         f"retrying in {wait:g} s")
                LOG.warning("table %s: %s", table_id, words, exc_info=attempt == 1)
                faults.fail(table_id, kind, words)
            finally:
                if timer is not None:
                    timer.cancel()
            if stop.wait(wait):
                return
            wait = min(wait * 2, longest_wait_s)
        faults.clear(table_id, kind)

    return run


def _clear_later(faults: SourceFaults, table_id: str, kind: str,
                 healthy_s: float) -> threading.Timer:
    """Clear the flag unless the restarted source fails within ``healthy_s``."""
    timer = threading.Timer(healthy_s, faults.clear, args=(table_id, kind))
    timer.daemon = True
    timer.start()
    return timer


class FlaggedCalibrations(CalibrationStore):
    """The drone calibrations file, telling the table when its board has none: an
    uncalibrated board sends loads nobody can weigh, so the table says so instead of
    staying silent ("the drone board B is not calibrated ..."), and the flag clears once
    the board's calibration is found."""

    def __init__(self, faults: SourceFaults, table_id: str, path: str | None = None) -> None:
        super().__init__(path)
        self.faults, self.table_id = faults, table_id

    def load(self, board_id: str) -> Calibration | None:
        found = super().load(board_id)
        if found is None:
            self.faults.fail(self.table_id, "calibration",
                             f"the drone board {board_id or '(unnamed)'} is not calibrated: "
                             "its loads are not weighed; calibrate it with 'packref drone "
                             "calibrate'")
        else:
            self.faults.clear(self.table_id, "calibration")
        return found
