"""The clock seam: the one place the station reads the time. Tests pass a FixedClock."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Something that tells the time."""

    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def __repr__(self) -> str:
        return "SystemClock()"


class FixedClock:
    """A clock for tests: starts at ``start`` and moves ``step`` forward at each reading."""

    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)):
        self.current = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self.step = step

    def now(self) -> datetime:
        reading = self.current
        self.current += self.step
        return reading

    def __repr__(self) -> str:
        return f"FixedClock({self.current.isoformat()})"


def epoch_seconds() -> float:
    """Seconds since the epoch, for latency figures (same clock on both loopback ends)."""
    return time.time()
