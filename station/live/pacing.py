"""Pacing a table's snapshots: at most one sent per table per short interval.

A snapshot is the table's whole state, so when writes come faster than the interval the
newest one is all a page needs: the first write after a quiet spell is sent at once (a
table with one reading a second sees each at once), and the writes that follow within
the interval are folded into one trailing send at its end, of the state as it is then.
Nothing is lost: the trailing send always goes out, and carries every write before it.

With 100 watchers of 8 tables and 400 readings a second, building, encoding and sending
a snapshot for every write was most of the station's time (benchmarks/station_ws.py
``--load``); paced at 50 ms, a busy table sends 20 a second whatever the rate.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("packref.station")

#: The served station's pacing (``station.api.deps.build_services``): a trailing send
#: waits at most this long, well inside the 250 ms a page may lag under a venue's load.
SNAPSHOT_INTERVAL = 0.05


class SnapshotPacer:
    """Decides, for each table, whether its snapshot goes now or at the end of the interval.

    :meth:`due_now` answers a write's request to send; a request it answers False is
    taken care of by one trailing call of ``send(table_id)`` in the pacer's own thread,
    ``interval`` seconds after the last send (the thread runs only while sends wait).
    """

    def __init__(self, interval: float, send: Callable[[str], None]) -> None:
        self.interval = interval
        self._send = send
        self._last_sent: dict[str, float] = {}  # table id: when its last snapshot went
        self._waiting: set[str] = set()  # tables with a trailing send scheduled
        self._due: list[tuple[float, str]] = []  # (when, table id), a heap
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None

    def __repr__(self) -> str:
        return f"<SnapshotPacer {self.interval * 1000:g} ms, {len(self._waiting)} waiting>"

    def due_now(self, table_id: str) -> bool:
        """True: send the table's snapshot now (nothing went in the last interval). False:
        a trailing send will carry it (scheduled now if none was)."""
        now = time.monotonic()
        with self._lock:
            if table_id in self._waiting:
                return False
            last = self._last_sent.get(table_id)
            if last is None or now - last >= self.interval:
                self._last_sent[table_id] = now
                return True
            self._waiting.add(table_id)
            heapq.heappush(self._due, (last + self.interval, table_id))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="packref-snapshots",
                                                daemon=True)
                self._thread.start()
            self._lock.notify()
            return False

    def _run(self) -> None:
        """Make the trailing sends as they fall due; end when none waits."""
        while True:
            with self._lock:
                while self._due and (wait := self._due[0][0] - time.monotonic()) > 0:
                    self._lock.wait(wait)
                if not self._due:
                    self._thread = None
                    return
                _, table_id = heapq.heappop(self._due)
                self._waiting.discard(table_id)
                self._last_sent[table_id] = time.monotonic()
            try:
                self._send(table_id)
            except Exception:  # the next write sends again; this thread must go on
                log.exception("the snapshot of table %s could not be sent", table_id)
