"""Sensor faults: a sensor that reads impossibly is reported, not interpreted (docs/formats.md §7).

:class:`FaultMonitor` watches the sample stream, chunk by chunk (a whole file
is one chunk), and reports each fault once it is sure, with ``t`` the moment
the fault *began*:

- ``load-cell``: the reading is exactly constant for ``load_frozen_s`` (a live
  HX711 never is: its noise spans several counts), or beyond the cell's range
  (``load_range_g``) for ``load_out_of_range_s``;
- ``imu``: all six axes exactly 0 (a failed I2C read) for ``imu_zero_s``, all six
  exactly repeated for ``imu_frozen_s``, or no gravity (``|a|`` under
  ``no_gravity_g``) for ``no_gravity_s``;
- ``link``: no sample for ``link_gap_s`` or more (seen when the samples come
  back, or live from :meth:`FaultMonitor.idle` while they do not).

A fault is cleared once its sensor has read plausibly for ``fault_clear_s``
(``t`` = the first plausible sample); a link fault as soon as samples come
again. :attr:`FaultMonitor.windows` keeps every fault's span, so the event
detector infers no load or drop from a faulty sensor.

Example::

    >>> from hardware.samples import Samples
    >>> rows = [(i / 100, 14.21, 0.01 * (i % 3), 0, 9.81 + 0.001 * i, 0, 0, 0)
    ...         for i in range(200)]
    >>> for fault in FaultMonitor().add(Samples.from_rows(rows)):
    ...     print(fault.to_json())
    {'t': 0.0, 'event': 'fault', 'sensor': 'load-cell',
     'reason': 'reading frozen at 14.210 g for 1.0 s'}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from hardware.config import DetectorConfig
from hardware.samples import Samples

GRAVITY = 9.80665
SENSORS: tuple[str, ...] = ("load-cell", "imu", "link")
SLICE_ROWS = 64  # rows looked at together: one odd row steps through its slice only


@dataclass(frozen=True)
class SensorFault:
    """A fault of one sensor (``event`` "fault", with a ``reason``) or its end ("fault-cleared")."""

    t: float
    event: str
    sensor: str
    reason: str | None = None

    def to_json(self) -> dict:
        """The contract's JSON object (``fault-cleared`` has no reason)."""
        document = {"t": round(self.t, 3), "event": self.event, "sensor": self.sensor}
        if self.event == "fault":
            document["reason"] = self.reason
        return document


@dataclass
class FaultWindow:
    """Where a sensor was faulty: from ``start`` to ``end`` (``inf`` while still faulty)."""

    sensor: str
    start: float
    end: float = math.inf

    def covers(self, t: np.ndarray) -> np.ndarray:
        return (t >= self.start) & (t < self.end)


@dataclass
class _Streak:
    """Since when one condition has held without a break (None: it does not hold now)."""

    since: float | None = None

    def note(self, t: float, holds: bool, began: float | None = None) -> float:
        """Record this sample; how long the condition has held (-1 when it does not)."""
        if not holds:
            self.since = None
            return -1.0
        if self.since is None:
            self.since = t if began is None else began
        return t - self.since


class _Health:
    """One sensor's fault state: open fault, and since when it has read plausibly."""

    def __init__(self, sensor: str, clear_s: float, windows: list[FaultWindow]) -> None:
        self.sensor = sensor
        self.clear_s = clear_s
        self.windows = windows
        self.open: FaultWindow | None = None
        self.healthy_since: float | None = None
        self.held_by_board = False  # the board itself says this sensor is faulty

    def judge(self, t: float, fault: tuple[float, str] | None,
              troubled: bool) -> SensorFault | None:
        """``fault``: (began, reason) when a condition has held long enough; ``troubled``:
        some condition holds now, even briefly (no clearing then)."""
        if fault is not None:
            self.healthy_since = None
            if self.open is None:
                self.open = FaultWindow(self.sensor, fault[0])
                self.windows.append(self.open)
                return SensorFault(fault[0], "fault", self.sensor, fault[1])
            return None
        if self.open is None or self.held_by_board:
            return None
        if troubled:
            self.healthy_since = None
        elif self.healthy_since is None:
            self.healthy_since = t
        elif t - self.healthy_since >= self.clear_s:
            return self.clear(self.healthy_since)
        return None

    def clear(self, t: float) -> SensorFault:
        assert self.open is not None
        self.open.end = t
        self.open, self.healthy_since = None, None
        return SensorFault(t, "fault-cleared", self.sensor)


class FaultMonitor:
    """Sensor faults of a growing stream (see the module). Cheap on healthy chunks: one
    vectorised look decides that nothing is odd; rows are stepped through only otherwise."""

    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()
        self.windows: list[FaultWindow] = []
        clear_s = self.config.fault_clear_s
        self._health = {sensor: _Health(sensor, clear_s, self.windows) for sensor in SENSORS}
        self._last_t: float | None = None
        self._period = 0.01
        self._last_force: float | None = None
        self._last_imu: tuple[float, ...] | None = None
        self._frozen_force, self._out_of_range = _Streak(), _Streak()
        self._frozen_imu, self._zero_imu, self._weightless = _Streak(), _Streak(), _Streak()

    def __repr__(self) -> str:
        faulty = [sensor for sensor, health in self._health.items() if health.open]
        return f"<FaultMonitor faulty: {', '.join(faulty) or 'none'}, {len(self.windows)} faults>"

    @property
    def faulty(self) -> list[str]:
        """The sensors faulty now."""
        return [sensor for sensor, health in self._health.items() if health.open]

    def add(self, samples: Samples) -> list[SensorFault]:
        """Take the next samples; the faults (and clearings) they show, in time order."""
        found: list[SensorFault] = []
        odd = self._odd_rows(samples)
        for start in range(0, len(samples), SLICE_ROWS):
            stop = start + SLICE_ROWS
            if odd[start:stop].any() or not self._calm():
                part = Samples(*(column[start:stop] for column in samples.columns()))
                found += self._step_through(part)
            else:
                self._skip(samples, min(stop, len(samples)) - 1)
        return found

    def _step_through(self, samples: Samples) -> list[SensorFault]:
        found: list[SensorFault] = []
        imu = np.column_stack([samples.ax, samples.ay, samples.az, samples.gx, samples.gy,
                               samples.gz]).tolist()
        for t, force, row in zip(samples.t.tolist(), samples.force_g.tolist(), imu, strict=True):
            found += self._link(t)
            found += [fault for fault in (self._load_cell(t, force), self._imu(t, row))
                      if fault is not None]
            self._last_t = t
        return found

    def report(self, fault: SensorFault) -> list[SensorFault]:
        """A fault (or its end) the board reported itself, in its STATUS: the sensor stays
        faulty until the board says it reads again."""
        health = self._health[fault.sensor]
        if fault.event == "fault":
            health.held_by_board = True
            if health.open is not None:
                return []
            health.open = FaultWindow(fault.sensor, fault.t)
            self.windows.append(health.open)
            return [fault]
        health.held_by_board = False
        return [health.clear(fault.t)] if health.open is not None else []

    def idle(self, now: float) -> list[SensorFault]:
        """No sample has come up to ``now`` (stream time, live): a link fault when too long."""
        link = self._health["link"]
        if self._last_t is None or link.open is not None:
            return []
        if now - self._last_t >= self.config.link_gap_s:
            began = self._last_t + self._period
            fault = link.judge(now, (began, f"no sample for {now - began:.1f} s"), True)
            return [fault] if fault else []
        return []

    # -- the sensors ---------------------------------------------------------------
    def _link(self, t: float) -> list[SensorFault]:
        link = self._health["link"]
        found = []
        if self._last_t is not None and t - self._last_t >= self.config.link_gap_s:
            began = self._last_t + self._period
            fault = link.judge(t, (began, f"no sample for {t - began:.1f} s"), True)
            found += [fault] if fault else []
        if link.open is not None:
            found.append(link.clear(t))
        elif self._last_t is not None and t > self._last_t:
            self._period = 0.9 * self._period + 0.1 * min(t - self._last_t, 0.1)
        return found

    def _load_cell(self, t: float, force: float) -> SensorFault | None:
        config = self.config
        low, high = config.load_range_g
        same = force == self._last_force
        frozen_s = self._frozen_force.note(t, same, began=self._last_t)
        self._last_force = force
        beyond = self._out_of_range.note(t, not low <= force <= high)
        fault = None
        if frozen_s >= config.load_frozen_s:
            fault = (self._frozen_force.since, f"reading frozen at {force:.3f} g for "
                     f"{config.load_frozen_s:.1f} s")
        elif beyond >= config.load_out_of_range_s:
            fault = (self._out_of_range.since, f"reading {force:.1f} g is beyond the load "
                     f"cell's range ({low:g} to {high:g} g)")
        # A slow cell's reading is held over several IMU rows (docs/drone-board.md): only a
        # reading held longer than ``load_held_s`` keeps a fault from clearing.
        return self._health["load-cell"].judge(t, fault, frozen_s > config.load_held_s
                                               or beyond >= 0)

    def _imu(self, t: float, row: list[float]) -> SensorFault | None:
        config = self.config
        values = tuple(row)
        zero_s = self._zero_imu.note(t, not any(values))
        same_s = self._frozen_imu.note(t, values == self._last_imu, began=self._last_t)
        self._last_imu = values
        norm = math.sqrt(values[0] ** 2 + values[1] ** 2 + values[2] ** 2)
        weightless_s = self._weightless.note(t, norm < config.no_gravity_g * GRAVITY)
        fault = None
        if zero_s >= config.imu_zero_s:
            fault = (self._zero_imu.since, "all six axes read exactly 0")
        elif same_s >= config.imu_frozen_s and zero_s < 0:
            fault = (self._frozen_imu.since, f"all six axes frozen for {config.imu_frozen_s:.1f} s")
        elif weightless_s >= config.no_gravity_s and zero_s < 0:
            fault = (self._weightless.since, f"no gravity at rest: |a| reads "
                     f"{norm / GRAVITY:.2f} g for {config.no_gravity_s:.1f} s")
        troubled = zero_s >= 0 or same_s >= 0 or weightless_s >= 0
        return self._health["imu"].judge(t, fault, troubled)

    # -- the fast path -------------------------------------------------------------
    def _calm(self) -> bool:
        """No fault open and no streak under way: plausible rows need no stepping through."""
        streaks = (self._frozen_force, self._out_of_range, self._frozen_imu, self._zero_imu,
                   self._weightless)
        return (not any(health.open for health in self._health.values())
                and all(streak.since is None for streak in streaks))

    def _odd_rows(self, samples: Samples) -> np.ndarray:
        """Rows that might begin or continue a fault (one vectorised look at the chunk)."""
        config = self.config
        table = np.vstack(samples.columns())  # t, force, ax, ay, az, gx, gy, gz
        before = np.array([np.nan if self._last_t is None else self._last_t,
                           np.nan if self._last_force is None else self._last_force,
                           *(self._last_imu or (np.nan,) * 6)])
        steps = np.diff(np.column_stack([before, table]), axis=1)
        steps[0, np.isnan(steps[0])] = 0.0
        low, high = config.load_range_g
        force = table[1]
        gravity2 = (config.no_gravity_g * GRAVITY) ** 2
        return ((steps[0] >= config.link_gap_s) | (steps[1] == 0) | (force < low)
                | (force > high) | ~steps[2:].any(axis=0)
                | ((table[2:5] ** 2).sum(axis=0) < gravity2))

    def _skip(self, samples: Samples, last: int) -> None:
        t = samples.t
        if last > 0:
            self._period = float(t[last] - t[max(0, last - 8)]) / min(last, 8)
        self._last_t = float(t[last])
        self._last_force = float(samples.force_g[last])
        self._last_imu = (float(samples.ax[last]), float(samples.ay[last]),
                          float(samples.az[last]), float(samples.gx[last]),
                          float(samples.gy[last]), float(samples.gz[last]))


def find_faults(samples: Samples, config: DetectorConfig | None = None,
                reported: Sequence[SensorFault] = ()
                ) -> tuple[list[SensorFault], list[FaultWindow]]:
    """The faults of a whole stream, and their windows; ``reported``: the board's own
    (from its STATUS frames), taken in at their moments."""
    monitor = FaultMonitor(config)
    found: list[SensorFault] = []
    done = 0
    for fault in sorted(reported, key=lambda fault: fault.t):
        upto = int(np.searchsorted(samples.t, fault.t))
        found += monitor.add(Samples(*(column[done:upto] for column in samples.columns())))
        found += monitor.report(fault)
        done = max(done, upto)
    found += monitor.add(Samples(*(column[done:] for column in samples.columns())))
    return found, monitor.windows
