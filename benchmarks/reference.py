"""A fixed reference workload, timed in the same run as a benchmark.

Our machines differ up to threefold in speed from one day to the next, so every
benchmark also prints its figures relative to this workload: a rate times
``reference_seconds()`` is "how many in the time the reference takes", a
duration divided by it is "in reference units". Those relative figures compare
across machines and days; the absolute ones do not.

The workload is pure Python (dicts, lists, string and integer work, like the
engines) plus a small numpy part (like the readers and detectors); it never
changes, so its figures from one day compare with the next.

Run: .venv/bin/python benchmarks/reference.py
"""

from __future__ import annotations

import statistics
import time
from functools import cache

import numpy as np

REPEATS = 5


def _workload() -> int:
    """The fixed work: about 50 ms on a 2024 laptop core."""
    table: dict[str, int] = {}
    total = 0
    for index in range(60_000):
        key = f"k{index % 997}"
        table[key] = table.get(key, 0) + index
        total ^= (index * 2654435761) & 0xFFFFFFFF
    cells = [[(row * 31 + col) % 7 for col in range(40)] for row in range(40)]
    for _ in range(20):
        cells = [row[1:] + row[:1] for row in cells[1:] + cells[:1]]
    # numpy without BLAS: a matrix product's idle helper threads would count in the CPU time
    values = np.random.default_rng(0).random(200_000)
    for _ in range(10):
        values = np.sort(values)[::-1].copy()
    return total + sum(map(sum, cells)) + int(values[0] * 1000) + len(table)


@cache
def reference_seconds() -> float:
    """Median CPU seconds of the reference workload (measured once per process)."""
    timings = []
    for _ in range(REPEATS):
        started = time.process_time()
        _workload()
        timings.append(time.process_time() - started)
    return statistics.median(timings)


def reference_line() -> str:
    """One line to print at the top of a benchmark's output."""
    return (f"reference workload: {reference_seconds() * 1000:.1f} ms CPU "
            f"(figures marked 'ref' are relative to it)")


if __name__ == "__main__":
    print(reference_line())
