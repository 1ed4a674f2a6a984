"""A progress bar on stderr for long work, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Counts work done and redraws one status line at most ten times a second.

    Example::

        with Progress(total=500, unit="games") as progress:
            for _ in range(500):
                progress.advance()
    """

    def __init__(self, total: int, unit: str, stream: TextIO | None = None) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream or sys.stderr
        self.done = 0
        self.enabled = self.stream.isatty() and total > 1
        self._started = time.monotonic()
        self._last_draw = 0.0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.enabled:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()

    def __repr__(self) -> str:
        return f"<Progress {self.done}/{self.total} {self.unit}>"

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self.enabled:
            self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_draw < 0.1:
            return
        self._last_draw = now
        width = 30
        filled = int(width * self.done / self.total)
        rate = self.done / max(now - self._started, 1e-9)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
            f"{self.unit} ({rate:.0f}/s)"
        )
        self.stream.flush()
