"""One table's clock bridge: the host's monotonic clock → the drone stream's clock.

A Pick 'n Packers table with both a live drone and a live camera needs the
camera's drone positions on the drone's clock (the referee reads one clock).
The drone source knows, for each read from the board's link, the host's
monotonic time it arrived and the (stream) time of the newest frame in it; it
:meth:`~ClockBridge.note`\\ s that pair. The camera source, whose live clock is
the same host monotonic clock, asks :meth:`~ClockBridge.to_drone` for the
drone-stream time of a host time, and hands the positions so stamped to the
drone source (:meth:`~ClockBridge.forward`), which releases them to the table
in one time order with its events.

The offset is the **median** of ``drone_t - host_t`` over the last ``window``
pairs: one late frame (a read delayed by the host, a USB hiccup) moves it
not at all. With no pair yet (no drone on the table, or no frame arrived),
:meth:`~ClockBridge.offset` is None and the camera keeps its own clock.

Example::

    bridge = ClockBridge()
    bridge.note(host_t=1000.00, drone_t=6.00)
    bridge.note(host_t=1000.05, drone_t=6.05)
    bridge.to_drone(1001.0)     # 7.0
"""

from __future__ import annotations

import statistics
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

DEFAULT_WINDOW = 9  # pairs: a few seconds of reads; odd, so the median is one of them


class ClockBridge:
    """The latest ``(host_monotonic, drone_t)`` pairs of one table; thread-safe."""

    def __init__(self, window: int = DEFAULT_WINDOW) -> None:
        if window < 1:
            raise ValueError(f"the window holds at least 1 pair, not {window}")
        self._pairs: deque[tuple[float, float]] = deque(maxlen=window)
        self._lock = threading.Lock()
        self._position_sink: Callable[[dict[str, Any]], None] | None = None

    def __repr__(self) -> str:
        offset = self.offset()
        known = "no pair yet" if offset is None else f"offset {offset:+.3f} s"
        return f"<ClockBridge {len(self._pairs)} pairs, {known}>"

    def note(self, host_t: float, drone_t: float) -> None:
        """One pair: a frame of drone time ``drone_t`` arrived at host time ``host_t``."""
        with self._lock:
            self._pairs.append((float(host_t), float(drone_t)))

    def clear(self) -> None:
        with self._lock:
            self._pairs.clear()

    def offset(self) -> float | None:
        """``drone_t - host_t`` (median of the window), or None before the first pair."""
        with self._lock:
            if not self._pairs:
                return None
            return statistics.median(drone - host for host, drone in self._pairs)

    def forward_positions(self, sink: Callable[[dict[str, Any]], None] | None) -> None:
        """Hand the camera's drone positions to ``sink`` (the table's drone source).

        The drone source holds its events back until its detector has settled;
        positions handed straight to the table would overtake them, and the referee
        refuses an observation older than one it has read. Through the drone source
        both reach the table in one time order.
        """
        with self._lock:
            self._position_sink = sink

    def forward(self, observation: dict[str, Any]) -> bool:
        """Give a ``drone-position`` (stamped in the drone's clock) to the sink; False: none."""
        with self._lock:
            sink = self._position_sink
        if sink is None:
            return False
        sink(observation)
        return True

    def to_drone(self, host_t: float) -> float | None:
        """The drone stream's time at host time ``host_t`` (None: no pair yet)."""
        offset = self.offset()
        return None if offset is None else host_t + offset
