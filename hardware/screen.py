"""Readings no sound sensor gives, screened out before the stream is interpreted
(docs/formats.md §7: "a sensor that reads impossibly is reported, not interpreted").

A value that is not a number (NaN, infinity) or lies beyond what the part can put out at
all (an HX711 load cell of the drone: 100 kg; the IMU's full scale: 16 g, 2000 °/s, with
room to spare) is no reading: even one such sample (a 1e308 g spike) would swamp every
mean the detector takes. :func:`screen_impossible` reports each stretch of them as the
sensor's fault, as the board's own STATUS faults are reported, and hands the detector the
stream with those values held at the sensor's last plausible reading, so its algorithm
sees only numbers it can use and infers no load or drop inside the fault.

Example::

    >>> rows = [(i / 100, 1e308 if i == 50 else 5.0, 0, 0, 9.81, 0, 0, 0) for i in range(200)]
    >>> screened, faults = screen_impossible(Samples.from_rows(rows))
    >>> [fault.to_json()["event"] for fault in faults], float(screened.force_g[50])
    (['fault', 'fault-cleared'], 5.0)
"""

from __future__ import annotations

import numpy as np

from hardware.config import DetectorConfig
from hardware.faults import SensorFault
from hardware.samples import COLUMNS, Samples

#: Per sensor: its columns, the largest magnitude it can read, and the unit.
IMPOSSIBLE_BEYOND: tuple[tuple[str, tuple[str, ...], float, str], ...] = (
    ("load-cell", ("force_g",), 100_000.0, "g"),
    ("imu", ("ax", "ay", "az"), 200.0, "m/s²"),
    ("imu", ("gx", "gy", "gz"), 2500.0, "°/s"),
)


def screen_impossible(samples: Samples, config: DetectorConfig | None = None
                      ) -> tuple[Samples, list[SensorFault]]:
    """``samples`` with every impossible value held at its sensor's last plausible one,
    and the faults (and their clearing) of those stretches, in time order. Stretches less
    than ``fault_clear_s`` apart are one fault, as the fault monitor clears a sensor only
    after it has read plausibly that long."""
    clear_s = (config or DetectorConfig()).fault_clear_s
    columns = {name: getattr(samples, name) for name in COLUMNS}
    faults: list[SensorFault] = []
    for sensor in dict.fromkeys(entry[0] for entry in IMPOSSIBLE_BEYOND):
        groups = [(names, bound, unit) for name, names, bound, unit in IMPOSSIBLE_BEYOND
                  if name == sensor]
        bad = np.zeros(len(samples), dtype=bool)
        for names, bound, _unit in groups:
            for name in names:
                bad |= ~(np.abs(columns[name]) <= bound)  # NaN compares False: bad too
        if not bad.any():
            continue
        for start, end in _stretches(samples.t, bad, clear_s):
            faults.append(SensorFault(float(samples.t[start]), "fault", sensor,
                                      _reason(columns, groups, start)))
            if end < len(samples):
                faults.append(SensorFault(float(samples.t[end]), "fault-cleared", sensor))
        for names, _bound, _unit in groups:
            for name in names:
                columns[name] = _held(columns[name], bad)
    screened = Samples(*(np.ascontiguousarray(columns[name]) for name in COLUMNS))
    return screened, sorted(faults, key=lambda fault: fault.t)


def _stretches(t: np.ndarray, bad: np.ndarray, clear_s: float) -> list[tuple[int, int]]:
    """``(first bad row, first good row after it)`` of each stretch of bad rows, those
    parted by good ones for less than ``clear_s`` joined."""
    rows = np.flatnonzero(bad)
    stretches: list[list[int]] = []
    for row in rows.tolist():
        if stretches:
            resumed = stretches[-1][1]  # the first good row after the stretch so far
            if resumed == row or t[row] - t[resumed] < clear_s:
                stretches[-1][1] = row + 1
                continue
        stretches.append([row, row + 1])
    return [(start, end) for start, end in stretches]


def _reason(columns: dict[str, np.ndarray], groups: list[tuple[tuple[str, ...], float, str]],
            row: int) -> str:
    for names, bound, unit in groups:
        for name in names:
            value = float(columns[name][row])
            if np.isnan(value):
                return f"{name} is not a number"
            if not abs(value) <= bound:
                return f"{name} reads {value:g} {unit}, beyond anything the sensor can read " \
                       f"(±{bound:g} {unit})"
    return "an impossible reading"


def _held(column: np.ndarray, bad: np.ndarray) -> np.ndarray:
    """``column`` with each bad value replaced by the last good one before it (the first
    good one, before any; 0 when none is good)."""
    good = np.flatnonzero(~bad)
    if len(good) == 0:
        return np.zeros_like(column)
    last_good = np.maximum.accumulate(np.where(bad, -1, np.arange(len(column))))
    last_good[last_good < 0] = good[0]
    return column[last_good]
