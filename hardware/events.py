"""Detecting what happens on the drone: loads, lifts, landings and drops (docs/formats.md §7).

How it works, in short (``docs/drone-events.md`` has the long version):

1. Single-sample spikes go through a short running median.
2. Motion comes from the IMU: ``|a|`` away from its resting value or the gyro
   turning. Long motions are flights (``lift`` where the motion leaves the
   resting noise, ``land`` at the onset of the last impact before rest); short
   ones are knocks and are no events.
3. The carried mass is the load-cell force compensated by the platform's
   specific force: ``m = F · az_rest / az(t − lag)``. The lag between the two
   sensors is the one that leaves the least jitter in ``m`` while moving.
4. At every standstill where ``m`` is flat the mass level is measured; two
   levels that differ by less than ``min_mass_change_g`` mean nothing happened
   (the reference is re-zeroed, so drift does not add up). A rise is a
   ``load`` (at the moment the new level starts to stand), a fall is a ``drop``
   (at the moment the old level is left, found in flight if need be). Hands
   pressing, knocks and landing jolts never make a flat level, so they are not
   events.

Every threshold is in seconds (``hardware.config``), so 100 Hz and 200 Hz streams
read alike. :class:`LiveEventDetector` runs the same on a bounded window of a
growing stream, re-zeroed at the last settled level.

Example::

    >>> from hardware.simulate import simulate_challenge
    >>> events = detect_events(simulate_challenge(seed=3).samples)
    >>> events[0]
    DroneEvent(t=1.66..., event='load', mass_g=22.8...)
"""

from __future__ import annotations

import itertools
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from hardware.config import DetectorConfig
from hardware.faults import FaultMonitor, FaultWindow, SensorFault, find_faults
from hardware.samples import Samples

EVENT_TYPES: tuple[str, ...] = ("load", "lift", "land", "drop")


@dataclass(frozen=True)
class DroneEvent:
    """One event in the stream's own clock: ``t`` seconds, ``event``, ``mass_g`` after it."""

    t: float
    event: str
    mass_g: float

    def to_json(self) -> dict:
        """The contract's JSON object: ``{"t": 3.412, "event": "load", "mass_g": 12.1}``."""
        return {"t": round(self.t, 3), "event": self.event, "mass_g": round(self.mass_g, 1)}


@dataclass(frozen=True)
class Level:
    start: int  # sample indices, inclusive
    end: int
    mass: float


@dataclass(frozen=True)
class RestReference:
    """How the platform reads at rest: the zero every motion and tilt is measured from."""

    gyro_bias: np.ndarray  # (3,) dps, the gyro's reading at rest
    norm: float  # |a| at rest, m/s²
    up: np.ndarray  # (3,) unit vector of the specific force at rest
    az: float  # the accelerometer's z at rest, m/s²
    accel_sigma: float  # the sensors' own noise at rest: |a|, m/s²...
    gyro_sigma: float  # ...and |ω|, dps


@dataclass
class Signals:
    """The cleaned-up streams the detector works on."""

    t: np.ndarray
    accel_dev: np.ndarray  # | |a| - resting |a| |, m/s², spikes removed
    jolt: np.ndarray  # the same unfiltered: impacts ring faster than a running median keeps
    gyro: np.ndarray  # |ω| without bias, dps
    accel_sigma: float
    gyro_sigma: float
    moving: np.ndarray  # bool
    disturbed: np.ndarray  # bool: knocks and impacts
    mass: np.ndarray  # compensated, g, at physical times t - lag
    lag: float
    accel: np.ndarray  # (3, n) the accelerometer, spikes removed (for the attitude)
    up: np.ndarray  # the resting vertical: unit vector of the specific force at rest
    resting_norm: float  # |a| at rest
    faulty: np.ndarray  # bool: a faulty load cell, or the first row after a gap or a faulty IMU
    fault_spans: list[tuple[float, float]]  # (start, end) of every fault, in the times t
    slow_cell: bool = False  # the load cell converts slower than slow_cell_sps (readings held)
    raw_accel: np.ndarray | None = None  # (3, n) the accelerometer as read (a jolt kept whole)
    scale: np.ndarray | None = None  # the compensation: mass = force / scale (1 at rest)

    def across_fault(self, first: int, last: int) -> bool:
        """Whether a fault lies between samples ``first`` and ``last``: no mass change
        between them may be read as a load or a drop."""
        start, end = self.t[first], self.t[last]
        return any(began <= end and ended >= start for began, ended in self.fault_spans)


class EventDetector:
    """Finds drone events in a whole stream of samples.

    Example::

        >>> detector = EventDetector(DetectorConfig(min_mass_change_g=1.0))
        >>> detector
        EventDetector(min_mass_change_g=1.0, min_flight_s=0.5)
    """

    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()
        self.lag_s: float | None = None
        self.from_start = True  # the samples begin where the stream began (see levels)

    def __repr__(self) -> str:
        return (f"EventDetector(min_mass_change_g={self.config.min_mass_change_g}, "
                f"min_flight_s={self.config.min_flight_s})")

    def detect(self, samples: Samples,
               reported: Sequence[SensorFault] = ()) -> list[DroneEvent | SensorFault]:
        """The events and sensor faults of ``samples`` in time order; ``reported``: the
        faults the board reported itself (:attr:`hardware.capture.Capture.board_faults`)."""
        faults, windows = find_faults(samples, self.config, reported)
        return sorted(self.events(samples, windows) + faults, key=lambda event: event.t)

    def events(self, samples: Samples, windows: Sequence[FaultWindow] = ()) -> list[DroneEvent]:
        """Loads, lifts, landings and drops in time order; none read from a sensor inside
        one of its fault ``windows`` (see :mod:`hardware.faults`)."""
        signals = self.signals(samples, windows)
        if signals is None:
            return []
        self.lag_s = signals.lag
        levels = self.levels(signals)
        start_mass = self.start_mass(signals, levels)
        mass_events, _ = self.mass_events(signals, levels, start_mass)
        return _with_masses(self.flights(signals), mass_events, start_mass)

    def start_mass(self, signals: Signals, levels: list[Level]) -> float:
        """The mass carried at the stream's first level (0 if negative): the level it
        settles to, if it does. The first levels, on the still drone, each under an
        event's change from the one before, are one rest: an HX711 just powered up
        reads its first seconds 0.5 g off, and its first level taken as the carried
        mass kept the offset in every mass after."""
        if not levels:
            return 0.0
        settled = 0
        while (settled + 1 < len(levels)
               and abs(levels[settled + 1].mass - levels[settled].mass)
               < self.config.min_mass_change_g
               and not signals.moving[levels[settled].end:levels[settled + 1].start + 1].any()):
            settled += 1
        return max(0.0, levels[settled].mass)

    # -- preparing the signals -----------------------------------------------------
    def signals(self, samples: Samples, windows: Sequence[FaultWindow] = ()) -> Signals | None:
        """The cleaned-up signals (None: too few healthy samples). Rows of a faulty IMU are
        left out; a faulty load cell's rows make no level and show no lag."""
        config = self.config
        samples, faulty, spans = _healthy(samples, windows, config.link_gap_s)
        if len(samples) < config.min_samples:
            return None
        t = samples.t
        imu = self._imu(samples)
        reference: RestReference = imu["reference"]
        accel_dev = imu["accel_dev"]
        az, az_rest = imu["accel"][2], reference.az
        force = _running_median(samples.force_g, _odd_width(t, config.spike_filter_s))
        moving, disturbed = imu["moving"], imu["disturbed"]
        lag = self._lag(t, force, az, az_rest, moving & ~disturbed & ~faulty)
        az_then = np.interp(t - lag, t, az)
        # Where the platform is at rest, or moves less than the accelerometer's noise,
        # compensating would only add that noise to the mass.
        accel_sigma = reference.accel_sigma
        change = az_then - az_rest
        az_then = az_rest + np.sign(change) * np.maximum(np.abs(change) - 3 * accel_sigma, 0.0)
        # ...except where the platform leans, still or not: a held, tilted drone's cell
        # reads m·cos θ, and az (the specific force along the cell) is g·cos θ there.
        leaning = np.abs(_running_mean(change, _odd_width(t, config.steady_window_s))) \
            > config.lean_sigmas * accel_sigma
        az_then[~_dilate(t, moving | disturbed, 0.1) & ~leaning] = az_rest
        scale = np.maximum(az_then, 0.3 * az_rest) / az_rest
        mass = force / scale
        return Signals(t - lag, accel_dev, imu["jolt"], imu["gyro"], accel_sigma,
                       reference.gyro_sigma, moving, disturbed, mass, lag,
                       imu["accel"], reference.up, reference.norm, faulty,
                       [(start - lag, end - lag) for start, end in spans],
                       _conversions_per_s(t, samples.force_g) < config.slow_cell_sps,
                       np.vstack([samples.ax, samples.ay, samples.az]), scale)

    def _imu(self, samples: Samples) -> dict[str, np.ndarray]:
        """Accelerometer and gyro cleaned up; where the platform rests, moves, is jolted."""
        config = self.config
        t = samples.t
        width = _odd_width(t, config.imu_spike_filter_s)
        accel = np.vstack([_running_median(axis, width) for axis in (samples.ax, samples.ay,
                                                                     samples.az)])
        gyro = np.vstack([_running_median(axis, width) for axis in (samples.gx, samples.gy,
                                                                    samples.gz)])
        norm = np.sqrt((accel ** 2).sum(axis=0))
        reference = self.rest_reference(t, accel, gyro, norm)
        gyro_norm = np.sqrt(((gyro - reference.gyro_bias[:, None]) ** 2).sum(axis=0))
        accel_dev = np.abs(norm - reference.norm)
        raw_norm = np.sqrt(samples.ax ** 2 + samples.ay ** 2 + samples.az ** 2)
        turning = (accel_dev > config.moving_accel) | (gyro_norm > config.moving_gyro)
        ringing = self._ringing(t, raw_norm)
        return {"accel": accel, "gyro": gyro_norm, "accel_dev": accel_dev,
                "reference": reference, "jolt": np.abs(raw_norm - reference.norm),
                "moving": _close_gaps(t, turning, config.motion_gap_s),
                "disturbed": _dilate(t, ringing, config.disturbed_guard_s)}

    def rest_reference(self, t: np.ndarray, accel: np.ndarray, gyro: np.ndarray,
                       norm: np.ndarray) -> RestReference:
        """The stream's resting reference, from where it rests (:meth:`measure_rest`)."""
        return self.measure_rest(t, accel, gyro, norm)[0]

    def measure_rest(self, t: np.ndarray, accel: np.ndarray, gyro: np.ndarray,
                     norm: np.ndarray, excluded: np.ndarray | None = None
                     ) -> tuple[RestReference, float]:
        """The resting reference measured where the platform rests (outside ``excluded``),
        and how many seconds of rest it was measured on. With less rest than
        ``min_rest_s``, the whole stream is the reference."""
        config = self.config
        rough_rest = np.abs(norm - np.median(norm)) < config.moving_accel
        bias = np.median(gyro[:, rough_rest], axis=1)
        gyro_norm = np.sqrt(((gyro - bias[:, None]) ** 2).sum(axis=0))
        rest = rough_rest & (gyro_norm < config.moving_gyro)
        if excluded is not None:
            rest &= ~excluded
        seconds = _seconds_of(t, rest)
        if seconds < config.min_rest_s:
            rest = np.ones_like(rest)
        resting_norm = float(np.median(norm[rest]))
        up = np.median(accel[:, rest], axis=1)
        quiet = self._quiet(t, rest, gyro_norm)
        reference = RestReference(
            gyro_bias=bias, norm=resting_norm,
            up=up / max(float(np.linalg.norm(up)), 1e-9),
            az=float(np.median(accel[2][rest])),
            accel_sigma=_sigma(np.abs(norm - resting_norm)[quiet]),
            gyro_sigma=_sigma(gyro_norm[quiet]))
        return reference, seconds

    def _quiet(self, t: np.ndarray, rest: np.ndarray, gyro: np.ndarray) -> np.ndarray:
        """The calmer half of the rest, where the sensors' own noise is measured.

        A hand holding the drone still in the air turns it by a few °/s: under
        ``moving_gyro``, so "rest", but with several times the table's noise. Where the
        gyro's running mean (over ``tremble_window_s``) is in the lower half of the
        rest's, no hand holds the drone."""
        smooth = _running_mean(gyro, _odd_width(t, self.config.tremble_window_s))
        if not rest.any():
            return rest
        quiet = rest & (smooth <= np.median(smooth[rest]))
        return quiet if quiet.sum() >= 3 else rest

    def _ringing(self, t: np.ndarray, raw_norm: np.ndarray) -> np.ndarray:
        """Where the platform rings (knocks, impacts): fast swings of the unfiltered ``|a|``.

        A swing counts when another sample near it swings at least half as far: a
        single-sample spike in one axis is no knock.
        """
        config = self.config
        # no wider than the stream: "same" would return the window's length instead
        width = min(_odd_width(t, config.ringing_s), (len(t) - 1) | 1)
        swing = np.abs(raw_norm - _running_median(raw_norm, width))
        loud = swing > config.disturbed_accel
        echoes = np.convolve((swing > config.disturbed_accel / 2).astype(float),
                             np.ones(width), mode="same")
        ringing = loud & (echoes >= 2)
        # The filters have samples on one side only at the stream's ends: trust neither.
        ringing[[0, -1]] = True
        return ringing

    def _lag(self, t, force, az, az_rest, mask) -> float:
        """The load cell's lag: the one whose compensated mass jitters least while moving."""
        if _seconds_of(t, mask) < self.config.min_lag_motion_s:
            return self.config.default_lag_s
        scores = [(float(jitter[mask[1:]].sum()), lag)
                  for lag, jitter in self._lag_jitter(t, force, az, az_rest)]
        return min(scores)[1]

    def _lag_jitter(self, t, force, az, az_rest,
                    first: int = 0) -> Iterator[tuple[float, np.ndarray]]:
        """Each candidate lag, and the squared step of the compensated mass at every sample
        (from sample ``first`` on: the steps into samples ``first + 1`` onwards)."""
        config = self.config
        for lag in np.arange(0.0, config.max_lag_s + 1e-9, config.lag_step_s):
            then = np.interp(t[first:] - lag, t, az)
            mass = force[first:] * az_rest / np.maximum(then, 0.3 * az_rest)
            yield float(lag), np.diff(mass) ** 2

    # -- flights -------------------------------------------------------------------
    def flights(self, signals: Signals) -> list[DroneEvent]:
        """Lifts and landings (``mass_g`` 0: :func:`_with_masses` fills it in)."""
        events = []
        t = signals.t
        for start, end in self._motions(signals):
            if self.motion_state(signals, start, end) != "carried":
                continue  # a knock, or a hand pressing on the still drone
            grasped = self._grasped_until(signals, self._onset(signals, start), end)
            events.append(DroneEvent(float(t[self._risen_from(signals, grasped, end)]),
                                     "lift", 0.0))
            if end < len(t) - 1:
                settled = self._settled_from(signals, start, end)
                # A hand's shiver after the set-down moves the end of motion on: look for
                # the impact as far before the hand settled as before the motion's end.
                reach = self.config.impact_window_s + float(t[end] - t[settled])
                events.append(DroneEvent(self._impact(signals, settled, min(reach, 1.0)),
                                         "land", 0.0))
        return [event for event in events
                if not any(start < event.t < end for start, end in signals.fault_spans)]

    def motion_state(self, signals: Signals, start: int, end: int) -> str:
        """What moved the IMU from sample ``start`` to ``end``: ``"knock"`` (short),
        ``"pressed"`` (long, but the platform neither leant nor rose: a hand on the
        still drone) or ``"carried"`` (a flight). See docs/drone-events.md, "States"."""
        config = self.config
        if signals.t[end] - signals.t[start] < config.min_flight_s:
            return "knock"
        if (self.vertical_speed(signals, start, end) >= config.carried_speed
                or self.tilt(signals, start, end).max(initial=0.0) >= config.carried_tilt_deg):
            return "carried"
        return "pressed"

    def carried(self, signals: Signals, start: int, end: int) -> tuple[float, float]:
        """How far a motion moved the platform: (greatest tilt, degrees; greatest vertical
        speed, m/s). A press or a knock leaves both near zero; a lift does not."""
        return (float(self.tilt(signals, start, end).max(initial=0.0)),
                self.vertical_speed(signals, start, end))

    @staticmethod
    def vertical_speed(signals: Signals, start: int, end: int) -> float:
        """The greatest speed up or down from sample ``start`` to ``end``, m/s: the specific
        force along the resting vertical, less its resting value, integrated.

        Only over sound steps: a knock's ringing (aliased at 100 Hz, it does not cancel
        out) and rows lost in a gap (one sample's force held over the whole gap) would
        integrate to a speed the platform never had."""
        t = signals.t[start:end + 1]
        lifting = signals.up @ signals.accel[:, start:end + 1] - signals.resting_norm
        steps = np.diff(t, prepend=t[0])
        sound = (steps <= 2.5 * _period(signals.t)) & ~signals.disturbed[start:end + 1]
        return float(np.abs(np.cumsum(lifting * steps * sound)).max(initial=0.0))

    def tilt(self, signals: Signals, start: int, end: int) -> np.ndarray:
        """Degrees between the specific force (averaged over ``tilt_smoothing_s``: the hand's
        tremor swings it fast, a carried drone leans slowly) and the resting vertical, from
        sample ``start`` to ``end``."""
        if end < start:
            return np.zeros(0)
        half = _odd_width(signals.t, self.config.tilt_smoothing_s, least=3) // 2
        padded = np.pad(signals.accel[:, start:end + 1], ((0, 0), (half + 1, half)), mode="edge")
        sums = np.cumsum(padded, axis=1)
        smooth = (sums[:, 2 * half + 1:] - sums[:, :-2 * half - 1]) / (2 * half + 1)
        cosine = signals.up @ smooth / np.maximum(np.sqrt((smooth ** 2).sum(axis=0)), 1e-9)
        return np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0)))

    def trembling(self, signals: Signals) -> np.ndarray:
        """Where the IMU shivers above its resting noise: hands on the drone (holding it in
        the air, or pressing or placing a present on the still drone)."""
        config = self.config
        width = _odd_width(signals.t, config.tremble_s, least=3)
        accel = _running_mean(signals.accel_dev, width) > config.hover_sigmas * signals.accel_sigma
        gyro = _running_mean(signals.gyro, width) > config.hover_sigmas * signals.gyro_sigma
        return accel | gyro

    def _motions(self, signals: Signals) -> list[tuple[int, int]]:
        """Runs of motion; a quiet moment in which the hands still tremble does not split one."""
        trembling = self.trembling(signals)
        motions: list[tuple[int, int]] = []
        for start, end in _runs(signals.moving):
            if (motions and self._hovered(signals, trembling, motions[-1][1], start)
                    and not self._landed(signals, motions[-1][1], start)):
                motions[-1] = (motions[-1][0], end)
            else:
                motions.append((start, end))
        return motions

    def _hovered(self, signals: Signals, trembling: np.ndarray, end: int, start: int) -> bool:
        """Whether hands held the drone between two motions: it trembled most of the time
        and never rested still for ``hover_max_quiet_s`` (a still drone on the table
        between a placing hand's shiver and the lift is no hover)."""
        between = trembling[end:start]
        if not len(between) or between.mean() <= 0.5:
            return False
        t = signals.t[end:start]
        return all(t[last] - t[first] < self.config.hover_max_quiet_s
                   for first, last in _runs(~between))

    def _landed(self, signals: Signals, end: int, next_start: int) -> bool:
        """Whether a motion ending at ``end`` came down with an impact onto a level rest:
        hands trembling on the drone after that (placing the next present) are no hover."""
        t = signals.t
        first = int(np.searchsorted(t, t[end] - 0.15))
        jerk = np.abs(np.diff(signals.jolt[first:end + 2])) / _period(t)
        if not len(jerk) or jerk.max() < self.config.impact_jerk:
            return False
        return bool(self.tilt(signals, end + 1, next_start - 1).max(initial=0.0)
                    < self.config.carried_tilt_deg)

    def _onset(self, signals: Signals, start: int) -> int:
        """Walk back from where motion was seen to where it left the resting noise."""
        sigmas = self.config.onset_sigmas
        width = _odd_width(signals.t, self.config.tremble_s, least=3)
        accel = _running_mean(signals.accel_dev, width)
        gyro = _running_mean(signals.gyro, width)
        i = start
        while i > 0 and (accel[i - 1] > sigmas * signals.accel_sigma
                         or gyro[i - 1] > sigmas * signals.gyro_sigma):
            i -= 1
        return i

    def _grasped_until(self, signals: Signals, onset: int, end: int) -> int:
        """Where a flight that starts at sample ``onset`` left the table: walk on over a
        grasping hand (the platform level, turning slower than ``settled_gyro``, not yet
        rising): the hand takes hold of the drone before it lifts it."""
        config = self.config
        width = _odd_width(signals.t, config.tremble_window_s / 4, least=3)
        turning = _running_mean(signals.gyro[onset:end + 1], width)
        level = self.tilt(signals, onset, end) < config.carried_tilt_deg
        i = 0
        while i < len(turning) - 1 and turning[i] < config.settled_gyro and level[i]:
            i += 1
        return onset + i

    def _risen_from(self, signals: Signals, grasped: int, end: int) -> int:
        """Where a flight whose hand took hold at sample ``grasped`` left the table.

        A hand may hold the drone on the table a while, tipping and turning it a little,
        before it lifts it: the drone leaves the table where it starts to rise. That is
        where the vertical speed (the specific force along the resting vertical, less
        its resting value, integrated from ``grasped``) last sat at ``rise_still_speed``
        or less before it first reached ``carried_speed`` upwards, walked back while the
        speed (0.1 s mean) still falls: a smooth rise starts slowly. The lift stays at
        the grasp when that is less than ``grasp_min_s`` after it (the hand lifted as it
        took hold), more than ``grasp_max_s`` (the flight only leant, and rose later in
        the carry), or when the flight never rises that fast."""
        config = self.config
        t = signals.t[grasped:end + 1]
        accel = signals.accel if signals.raw_accel is None else signals.raw_accel
        lifting = signals.up @ accel[:, grasped:end + 1] - signals.resting_norm
        # The accelerometer as read, over every step but lost rows: a jolt while the hand
        # takes hold rings up and down and integrates to nothing only when kept whole
        # (the spike filter or the ringing mask would leave a half of it: a fall).
        steps = np.diff(t, prepend=t[0])
        speed = np.cumsum(lifting * steps * (steps <= 2.5 * _period(signals.t)))
        rising = np.flatnonzero(speed >= config.carried_speed)
        if not len(rising):
            return grasped
        still = np.flatnonzero(speed[:rising[0]] <= config.rise_still_speed)
        risen = int(still[-1]) if len(still) else 0
        smooth = _running_mean(speed, _odd_width(signals.t, config.tilt_smoothing_s))
        while risen > 0 and smooth[risen - 1] < smooth[risen]:
            risen -= 1
        if not config.grasp_min_s <= t[risen] - t[0] <= config.grasp_max_s:
            return grasped
        return grasped + risen

    def _settled_from(self, signals: Signals, start: int, end: int) -> int:
        """Where a flight ending at sample ``end`` came to stand: walk back over the end of
        the motion while the platform is level and turns slower than ``settled_gyro``.

        A hand left on the drone after a soft set-down keeps the IMU shivering (so the
        motion runs on), but it turns the drone a few °/s at most and cannot tilt it:
        the touch-down is where the carried turning stopped, not the hand's last wobble."""
        config = self.config
        width = _odd_width(signals.t, config.tremble_window_s / 4, least=3)
        turning = _running_mean(signals.gyro[start:end + 1], width)
        level = self.tilt(signals, start, end) < config.carried_tilt_deg
        i = end - start
        while i > 0 and turning[i - 1] < config.settled_gyro and level[i - 1]:
            i -= 1
        return start + i

    def _impact(self, signals: Signals, end: int, window_s: float | None = None) -> float:
        """The onset of the last big jolt (two strong jerks or more) before the drone rests."""
        t = signals.t
        period = _period(t)
        if end + 1 < len(t) and t[end + 1] - t[end] > 4 * period:
            return float((t[end] + t[end + 1]) / 2)  # the impact fell into lost samples
        window_s = self.config.impact_window_s if window_s is None else window_s
        first = max(1, int(np.searchsorted(t, t[end] - window_s)))
        last = min(len(t) - 1, int(np.searchsorted(t, t[end] + 0.1)))
        jerk = np.abs(np.diff(signals.jolt[first - 1:last + 1]))
        if len(jerk) == 0 or jerk.max() / period < self.config.impact_jerk:
            return float(t[end])
        strong = np.flatnonzero(jerk >= 0.4 * jerk.max())
        clusters = _clusters(strong, max(1, _samples_in(t, 0.08)))
        ringing = [cluster for cluster in clusters if len(cluster) >= 2] or clusters
        at = first + ringing[-1][0]  # the first sample showing the impact
        return float((t[at - 1] + t[at]) / 2)

    # -- mass --------------------------------------------------------------------------
    def levels(self, signals: Signals) -> list[Level]:
        """Flat stretches of the mass at rest; short ones only when a long one agrees."""
        config = self.config
        t, mass = signals.t, signals.mass
        # A hand on the drone (its shiver in the IMU) pushes the load cell: no level there.
        touched = _dilate(t, signals.moving | self.trembling(signals), 0.05)
        still = ~touched & ~signals.disturbed & ~signals.faulty
        spread = _running_std(mass, _samples_in(t, config.steady_window_s))
        noise = 0.0
        if _seconds_of(t, still) > config.min_rest_s:
            noise = _sigma(np.diff(mass)[still[1:]]) / np.sqrt(2)
        threshold = max(config.steady_floor_g, config.steady_sigmas * noise)
        band = max(config.band_floor_g, config.band_sigmas * noise)
        levels = [self._grown(signals, still, band, start, end)
                  for start, end in _runs(still & (spread < threshold))]
        levels = [level for level in _merged(levels, signals, band)
                  if t[level.end] - t[level.start] >= config.min_short_steady_s]
        start = self._start_level(signals, touched, band)
        if start is not None:  # it takes in the levels that start inside it
            end = max([start.end] + [level.end for level in levels if level.start <= start.end])
            calm = ~signals.disturbed[:end + 1]
            mass = signals.mass[:end + 1][calm] if calm.any() else signals.mass[:end + 1]
            levels = [Level(0, end, float(np.median(mass)))] + [level for level in levels
                                                    if level.start > start.end]
        anchors = [t[level.end] - t[level.start] >= config.min_steady_s for level in levels]
        if start is not None:  # the stream's start needs no later level to agree
            anchors[0] = True
        levels = [level for index, level in enumerate(levels)
                  if anchors[index] or self._confirmed(levels, anchors, index)
                  or self._carried_off(signals, level)]
        return self._without_hand_rests(levels, signals)

    def _start_level(self, signals: Signals, touched: np.ndarray, band: float) -> Level | None:
        """The drone's empty level before the first hand comes, judged by the IMU alone.

        A stream starts with the drone tared and untouched. When the first hand comes
        soon, the rest before it is too short for a steady level (the filters'
        one-sided ends are masked too), but an IMU that is still from the first sample
        on says the drone rested: the mass there, as long as it stays within ``band``
        of its first ``min_short_steady_s``, is its level, whatever follows.
        """
        t, mass = signals.t, signals.mass
        first = _samples_in(t, self.config.min_short_steady_s)
        if not self.from_start or len(t) <= first or (touched | signals.faulty)[:first + 1].any():
            return None
        level = float(np.median(mass[:first + 1]))
        left = np.flatnonzero(touched | signals.faulty | (np.abs(mass - level) >= band))
        end = (int(left[0]) if len(left) else len(t)) - 1
        return Level(0, end, float(np.median(mass[:end + 1])))

    def _without_hand_rests(self, levels: list[Level], signals: Signals) -> list[Level]:
        """Drop a level that is a placing hand resting on the present, not a present.

        Up, then soon down to a level still above the one before, with the drone on
        the table all along: the hand rested on the new present, then let go, and
        nothing fell. (Back down to the level before is left alone: that may be a
        present falling off, which must not be missed.)
        """
        config = self.config
        t = signals.t
        kept: list[Level] = []
        for index, level in enumerate(levels):
            if 0 < index < len(levels) - 1 and kept:
                # A resting hand wanders: it may stand as a few levels of one mass
                # (under an event apart); they are one rest, judged from the first.
                group = self._same_rest(levels, index, signals)
                earlier = [old for old in kept if old not in group]
                before, after = (earlier or kept)[-1], levels[index + 1]
                rose = level.mass - before.mass >= config.min_mass_change_g
                fell = level.mass - after.mass >= config.min_mass_change_g
                still_more = after.mass - before.mass >= config.min_mass_change_g
                soon = t[after.start] - t[(group or [level])[0].start] <= config.hand_rest_s
                calm = not signals.moving[level.end:after.start + 1].any()
                if earlier and rose and fell and still_more and soon and calm:
                    kept = earlier
                    continue
                before = kept[-1]
                rose = level.mass - before.mass >= config.min_mass_change_g
                # Up and back to where it was within a press's time, the drone still:
                # a hand pressed (too steadily for the IMU to feel it).
                back = abs(after.mass - before.mass) < config.min_mass_change_g / 2
                brief = t[level.end] - t[level.start] <= config.press_max_s
                if (rose and fell and back and brief
                        and not signals.moving[before.end:after.start + 1].any()):
                    continue
                if rose and fell and back and self._hand_after_landing(signals, before, level,
                                                                        after):
                    continue
            kept.append(level)
        return kept

    def _hand_after_landing(self, signals: Signals, before: Level, level: Level,
                            after: Level) -> bool:
        """Whether ``level`` (between ``before`` and ``after``) was a hand left on the drone
        just after it was set down: it stands within ``landing_hand_s`` of a flight's end
        (:meth:`motion_state` "carried"; a knock after it, the landing's bounce, may come
        between) and is gone within ``hand_rest_s`` of it, the drone still from the level
        on.

        The pilots' hand may rest on the platform's edge a moment after the set-down,
        pressing a few grams, too still for the IMU; with the flight between, the press
        rule's "drone still all along" cannot hold. A present placed after a landing
        needs the hand to come and go first: it stands later. The caller has checked
        that the mass rose and came back to the level before the flight."""
        config, t, moving = self.config, signals.t, signals.moving
        if moving[level.start:after.start + 1].any():
            return False
        for first, last in reversed(_runs(moving[before.end:level.start + 1])):
            began, stopped = before.end + first, before.end + last
            if self.motion_state(signals, began, stopped) == "carried":
                return bool(t[level.start] - t[stopped] <= config.landing_hand_s
                            and t[after.start] - t[stopped] <= config.hand_rest_s)
        return False

    def _same_rest(self, levels: list[Level], index: int, signals: Signals) -> list[Level]:
        """The levels just before ``levels[index]`` of its mass (under an event apart),
        with no motion between: one rest that a noise or a wander cut."""
        first = index
        while first > 0:
            previous, following = levels[first - 1], levels[first]
            if (abs(previous.mass - levels[index].mass) >= self.config.min_mass_change_g
                    or signals.moving[previous.end:following.start + 1].any()):
                break
            first -= 1
        return levels[first:index]

    @staticmethod
    def _grown(signals: Signals, still: np.ndarray, band: float, start: int, end: int) -> Level:
        """A flat run grown over the neighbouring samples that stay within ``band`` of it."""
        mass = signals.mass
        level = float(np.median(mass[start:end + 1]))
        while start > 0 and still[start - 1] and abs(mass[start - 1] - level) < band:
            start -= 1
        while end < len(mass) - 1 and still[end + 1] and abs(mass[end + 1] - level) < band:
            end += 1
        return Level(start, end, level)

    def _carried_off(self, signals: Signals, level: Level) -> bool:
        """A short level right before a lift is real when the flight carries its mass.

        The wait between setting a present down and lifting off can be too short for a
        steady level, more so with a knock in it, and the landing after may leave no
        level either: the compensated mass in the flight's first
        ``flight_mass_s`` (jolts masked) is the witness then.
        """
        config = self.config
        t = signals.t
        moving = np.flatnonzero(signals.moving[level.end + 1:])
        if not len(moving):
            return False
        first = level.end + 1 + int(moving[0])
        if t[first] - t[level.end] > config.max_wait_to_lift_s:
            return False
        last = int(np.searchsorted(t, t[first] + config.flight_mass_s))
        flying = signals.moving[first:last] & ~signals.disturbed[first:last]
        if _seconds_of(t, flying) < config.min_flight_s:
            return False
        carried = float(np.median(signals.mass[first:last][flying]))
        return abs(carried - level.mass) < config.min_mass_change_g / 2

    def _confirmed(self, levels: list[Level], anchors: list[bool], index: int) -> bool:
        """A short level is real when the next long level (or the previous) has its mass."""
        tolerance = self.config.min_mass_change_g / 2
        later = [level for level, anchor in zip(levels[index + 1:], anchors[index + 1:],
                                                strict=True) if anchor]
        earlier = [level for level, anchor in zip(levels[:index], anchors[:index],
                                                  strict=True) if anchor]
        neighbours = later[:1] + earlier[-1:]
        return any(abs(other.mass - levels[index].mass) < tolerance for other in neighbours)

    def mass_events(self, signals: Signals, levels: list[Level],
                     start_mass: float) -> tuple[list[DroneEvent], list[float]]:
        """Loads and drops between ``levels``; the carried mass at each level.

        ``levels[0]`` is the reference, carrying ``start_mass``.
        """
        if not levels:
            return [], []
        events = []
        levels = list(levels)
        reference = levels[0]
        carried = start_mass
        carried_at = [carried]
        index = 1
        while index < len(levels):
            level = levels[index]
            change = level.mass - reference.mass
            unseen = (signals.across_fault(reference.end, level.start)
                      and not self._changed_outside_faults(signals, reference, level))
            if not unseen and change >= self.config.min_mass_change_g / 2:
                # A hand still holding part of the new present's weight: the load is
                # when it gives the rest over (a higher level soon after, or a step up).
                held = self._held_until(signals, levels, index)
                carried_at += [carried] * (held - index)
                index = held
                levels[index] = level = self._let_go(signals, levels[index])
                change = level.mass - reference.mass
            if not unseen and change >= self.config.min_mass_change_g:
                # A hand still resting on the new present: the load is when it lets go.
                released = self._released(signals, levels, index)
                carried_at += [carried] * (released - index)
                index, level = released, levels[released]
                change = level.mass - reference.mass
            reference = level  # re-zero at every standstill
            if unseen:  # the change happened while a sensor was faulty: no event from it
                carried = max(0.0, carried + change)
            elif abs(change) >= self.config.min_mass_change_g:
                carried = max(0.0, carried + change)
                if change > 0:
                    events.append(DroneEvent(self._load_time(signals, level), "load", carried))
                else:
                    at = self._drop_time(signals, levels, level, change)
                    events.append(DroneEvent(at, "drop", carried))
            carried_at.append(carried)
            index += 1
        return events, carried_at

    def _changed_outside_faults(self, signals: Signals, before: Level, after: Level) -> bool:
        """Whether a change from level ``before`` to ``after``, with a fault between them,
        happened where the sensors were sound: the (compensated) mass just before the
        first fault already reads the new level, or just after the last still the old.

        A present that falls in flight before a fault, or after the fault has cleared
        (the landing between), is a drop like any other."""
        t, mass = signals.t, signals.mass
        start, end = t[before.end], t[after.start]
        spans = [(began, ended) for began, ended in signals.fault_spans
                 if began <= end and ended >= start]
        if not spans or abs(after.mass - before.mass) < self.config.min_mass_change_g:
            return False
        band = self.config.min_mass_change_g / 2
        sound = ~signals.disturbed & ~signals.faulty
        first, last = min(b for b, _ in spans), max(e for _, e in spans)
        window = self.config.flight_mass_s / 2
        ahead = sound & (t > max(start, first - window)) & (t < first)
        behind = sound & (t > last) & (t < min(end, last + window))
        if ahead.sum() >= 3 and abs(float(np.median(mass[ahead])) - after.mass) < band:
            return True
        return bool(behind.sum() >= 3
                    and abs(float(np.median(mass[behind])) - before.mass) < band)

    def _held_until(self, signals: Signals, levels: list[Level], index: int) -> int:
        """The level at which a placing hand gave over the rest of the present's weight.

        A hand may keep part of the weight a moment after setting the present down: the
        mass stands a little low, then rises to the present's. Of the levels that follow
        ``levels[index]`` within ``hand_hold_s`` of its start on the still drone, none
        lower than the one before by a step (:meth:`_step`: nothing fell), the last that
        stands a step or more above ``levels[index]`` is the load's: the hand let go
        there. (A second present needs a new hand: it comes later.)
        """
        config = self.config
        t, moving = signals.t, signals.moving
        first, last, held = levels[index], index, index
        while last + 1 < len(levels):
            before, after = levels[last], levels[last + 1]
            if (t[after.start] - t[first.start] > config.hand_hold_s
                    or moving[before.end:after.start + 1].any()
                    or signals.across_fault(before.end, after.start)
                    or before.mass - after.mass >= self._step(signals, before.start, after.end)):
                break
            last += 1
            # The mass the hand let go onto shows the cell's own noise, if it stood long
            # enough to measure; else the hand's shake before it counts as well.
            long = t[after.end] - t[after.start] >= config.min_steady_s
            if after.mass - first.mass >= self._step(signals, after.start if long
                                                     else first.start, after.end):
                held = last
        return held

    def _step(self, signals: Signals, first: int, last: int) -> float:
        """The least rise that is a hand giving weight over, onto the mass from sample
        ``first`` to ``last``: ``hand_step_g``, or the band of that mass's own noise if
        wider (a heavy stack's readings wander more than a hand's last tenths)."""
        return max(self.config.hand_step_g,
                   self._band(signals.mass[first:last + 1], held=signals.slow_cell))

    def _let_go(self, signals: Signals, level: Level) -> Level:
        """``level`` from where the placing hand let go, if it still held part of the weight
        as the level began: the last step up of ``hand_step_g`` or more (the means of
        the 0.1 s before and after) in its first ``hand_hold_s`` that stands (all of the level
        after it against all before). The level's mass stays its median: measured after
        the step only, it read the simulators' presents 0.1 g heavier.

        A level's band (``band_floor_g``) takes in a hand that keeps a few tenths of a
        gram: the load would stand where most of the weight did, up to a second early."""
        config = self.config
        t = signals.t
        last = min(level.end, int(np.searchsorted(t, t[level.start] + config.hand_hold_s)))
        width = _samples_in(t, config.steady_window_s)
        first = max(0, level.start - width)
        mass = signals.mass[first:min(level.end, last + width) + 1].copy()
        mass[(signals.disturbed | signals.faulty)[first:first + len(mass)]] = np.nan
        if len(mass) < 3 * width:
            return level
        half = width // 2
        before, after = _half_means(mass, half)
        rise = after - before
        rise[:level.start - first] = np.nan  # steps within the level only
        rise[last - first + 1:] = np.nan
        whole = signals.mass[level.start:level.end + 1].copy()
        whole[(signals.disturbed | signals.faulty)[level.start:level.end + 1]] = np.nan
        # The last step up that stands: all the level after it against all before it
        # (the noise of a fast cell makes single 0.2 s steps that do not last).
        for run in reversed(_clusters(np.flatnonzero(rise >= config.hand_step_g), 1)):
            step = first + run[int(np.nanargmax(rise[run]))]
            held, given = whole[:step - level.start], whole[step - level.start:]
            if (step > level.start and (~np.isnan(given)).sum() >= 3
                    and _nan_median(given, 0.0) - _nan_median(held, np.inf)
                    >= self._step(signals, step, level.end)):
                return Level(step, level.end, level.mass)
        return level

    def _released(self, signals: Signals, levels: list[Level], index: int) -> int:
        """The level at which the hand let go of a present loaded at ``levels[index]``.

        A hand resting on the present, too still to show in the IMU, adds a little to
        the first level; the levels that follow soon, on the still drone, each a little
        lower (less than an event's change) and in all ``band_floor_g`` or more below the
        first, are the hand letting go: the last of them is the load's.
        """
        config = self.config
        t, moving = signals.t, signals.moving
        last = index
        while last + 1 < len(levels):
            before, after = levels[last], levels[last + 1]
            if (t[after.start] - t[levels[index].start] > config.hand_rest_s
                    or moving[before.end:after.start + 1].any()
                    or signals.across_fault(before.end, after.start)
                    or not 0 < before.mass - after.mass < config.min_mass_change_g):
                break
            last += 1
        if levels[index].mass - levels[last].mass >= config.band_floor_g:
            return last
        return index

    def _band(self, values: np.ndarray, held: bool = False) -> float:
        """How far a level's mass strays: ``band_sigmas`` of its noise, at least
        ``band_floor_g``. ``held``: a slow cell, each reading held over IMU rows; its
        noise is measured between readings (the held rows' zero steps would hide it)."""
        steps = np.diff(values)
        if held:
            steps = steps[steps != 0]
        noise = _sigma(steps) / np.sqrt(2) if len(steps) > 2 else 0.0
        return max(self.config.band_floor_g, self.config.band_sigmas * noise)

    def _load_time(self, signals: Signals, level: Level) -> float:
        """When the new mass started to stand: walk back while within its band.

        A knock (samples the ringing disturbed) is walked over: the mass stood before it.
        """
        mass, disturbed = signals.mass, signals.disturbed
        band = self._band(mass[level.start:level.end + 1], held=signals.slow_cell)
        # A hand's last shiver shakes a heavy stack on a slow cell (each reading held
        # over many IMU rows): a reading may stray from the band while the mass already
        # stands; its neighbours' median (over ``smoothing_s``) does not.
        near = np.zeros(level.start + 1, dtype=bool)
        if signals.slow_cell:
            first = max(0, level.start - _samples_in(signals.t, 2.0))
            smooth = _running_median(mass[first:level.start + 1],
                                     _odd_width(signals.t, self.config.smoothing_s))
            near[first:] = np.abs(smooth - level.mass) < band
        i = level.start
        while i > 0 and not (signals.moving[i - 1] and not disturbed[i - 1]):
            if not disturbed[i - 1] and abs(mass[i - 1] - level.mass) >= band and not near[i - 1]:
                break
            i -= 1
        while i < level.start and disturbed[i]:
            i += 1
        return float(signals.t[i])

    def _drop_time(self, signals: Signals, levels, level: Level, change: float) -> float:
        """When the old mass was left: the fall's ramp, extrapolated back to the old mass.

        The step from the old level to the new that fits the smoothed mass best finds
        the fall; the times at which it passes 25 % and 75 % of the way give its slope.
        """
        before = levels[levels.index(level) - 1]
        window = _samples_in(signals.t, 0.3)
        first = max(before.start, before.end - window)
        last = min(level.end, level.start + window)
        smooth = self._smoothed_mass(signals, first, last)
        n = level.start - first + 1
        smooth -= self._platform_share(signals, first, last, smooth, n, before.mass, level.mass)
        t = signals.t[first:last + 1]
        crossing = _best_step(smooth[:level.start - first + 1], before.mass, level.mass)
        old = _nan_median(smooth[max(0, crossing - window):max(1, crossing - window // 3)],
                          before.mass)
        new = _nan_median(smooth[crossing + window // 3:crossing + window], level.mass)
        quarter, three_quarters = old - 0.25 * (old - new), old - 0.75 * (old - new)
        start = crossing
        while start > 0 and not smooth[start - 1] >= quarter and not np.isnan(smooth[start - 1]):
            start -= 1
        finish = crossing
        while finish < len(smooth) - 1 and not smooth[finish] <= three_quarters:
            finish += 1
        onset = t[start] - (t[finish] - t[start]) / 2
        return float(max(onset, t[0]))

    def _platform_share(self, signals: Signals, first: int, last: int, smooth: np.ndarray,
                        n: int, old: float, new: float) -> np.ndarray:
        """What the tared platform adds to the compensated mass from ``first`` to ``last``.

        The platform above the cell is tared at rest, so the cell reads ``P·(s − 1)`` of
        it where the specific force along the cell is ``s`` g: ``P·(1 − 1/s)`` on the
        mass, ``P·(1 − 1/s)`` grams low at a steep lean (a 60° hold: ``−P``), as low as a
        present's fall. ``P`` is fitted with the fall (least squares, the step from
        ``old`` to ``new`` anywhere in the first ``n`` samples, ``P`` ≥ 0): a fall
        needs no lean to fit, the lean's dip then fits ``P``."""
        if signals.scale is None:
            return np.zeros(len(smooth))
        width = _samples_in(signals.t, self.config.smoothing_s) | 1
        share = _running_mean(1.0 - 1.0 / signals.scale[first:last + 1], width)
        valid = ~np.isnan(smooth[:n])
        x = np.where(valid, share[:n], 0.0)
        across = (x ** 2).sum()
        if across < 1e-6:
            return np.zeros(len(smooth))
        to_old = np.where(valid, smooth[:n] - old, 0.0)
        to_new = np.where(valid, smooth[:n] - new, 0.0)

        def before(values: np.ndarray) -> np.ndarray:  # sums over [0, k), k = 0..n
            return np.concatenate([[0.0], np.cumsum(values)])

        def after(values: np.ndarray) -> np.ndarray:  # sums over [k, n)
            return np.concatenate([np.cumsum(values[::-1])[::-1], [0.0]])

        along = before(to_old * x) + after(to_new * x)
        fitted = np.maximum(along, 0.0) / across
        cost = before(to_old ** 2) + after(to_new ** 2) - fitted * along
        return float(fitted[int(np.argmin(cost))]) * share

    def _smoothed_mass(self, signals: Signals, first: int, last: int) -> np.ndarray:
        mass = signals.mass[first:last + 1].copy()
        mass[signals.disturbed[first:last + 1] | signals.faulty[first:last + 1]] = np.nan
        width = _samples_in(signals.t, self.config.smoothing_s) | 1
        return _running_nanmedian(mass, width)


def detect_events(samples: Samples, config: DetectorConfig | None = None,
                  reported: Sequence[SensorFault] = ()) -> list[DroneEvent | SensorFault]:
    """The events and sensor faults in ``samples``, in time order (see :class:`EventDetector`)."""
    return EventDetector(config).detect(samples, reported)


def _with_masses(flights, mass_events, start_mass: float) -> list[DroneEvent]:
    """Merge flights and mass events; a lift or land carries the mass at its moment."""
    events = sorted(mass_events + flights, key=lambda event: event.t)
    carried = start_mass
    result = []
    for event in events:
        if event.event in ("load", "drop"):
            carried = event.mass_g
            result.append(event)
        else:
            result.append(DroneEvent(event.t, event.event, carried))
    return result


# -- array helpers -----------------------------------------------------------------------


def _healthy(samples: Samples, windows: Sequence[FaultWindow], gap_s: float
             ) -> tuple[Samples, np.ndarray, list[tuple[float, float]]]:
    """The rows of a sound IMU; where the load cell was faulty or the stream broke off
    (the first row after a gap or a faulty IMU); and every fault's span."""
    t = samples.t
    imu_bad = np.zeros(len(t), dtype=bool)
    load_bad = np.zeros(len(t), dtype=bool)
    for window in windows:
        if window.sensor == "imu":
            imu_bad |= window.covers(t)
        elif window.sensor == "load-cell":
            load_bad |= window.covers(t)
    if imu_bad.any():
        samples = Samples(*(column[~imu_bad] for column in samples.columns()))
        load_bad = load_bad[~imu_bad]
        t = samples.t
    broken = np.concatenate([[False], np.diff(t) >= gap_s])
    if imu_bad.any():
        kept = np.flatnonzero(~imu_bad)
        broken |= np.concatenate([[False], np.diff(kept) > 1])
    spans = [(window.start, window.end) for window in windows]
    return samples, load_bad | broken, spans




def _conversions_per_s(t: np.ndarray, force: np.ndarray) -> float:
    """How many new load-cell readings a second (a slow cell's are held over IMU rows)."""
    if len(t) < 2 or t[-1] <= t[0]:
        return np.inf
    return float((np.diff(force) != 0).sum()) / float(t[-1] - t[0])


def _samples_in(t: np.ndarray, seconds: float) -> int:
    return max(1, round(seconds / max(_period(t), 1e-6)))


_PERIODS: dict[tuple, float] = {}


def _period(t: np.ndarray) -> float:
    """The stream's typical sampling period (median step), remembered for the last streams."""
    if len(t) < 2:
        return 0.01
    key = (len(t), float(t[0]), float(t[1]), float(t[-1]), float(t[len(t) // 2]))
    if key not in _PERIODS:
        if len(_PERIODS) > 8:
            _PERIODS.clear()
        _PERIODS[key] = float(np.median(np.diff(t)))
    return _PERIODS[key]


def _seconds_of(t: np.ndarray, mask: np.ndarray) -> float:
    """How long ``mask`` holds, in seconds (samples × the stream's period)."""
    return float(mask.sum()) * (_period(t) if len(t) > 1 else 0.0)


def _odd_width(t: np.ndarray, seconds: float, least: int = 1) -> int:
    """An odd number of samples spanning about ``seconds`` (for centred running filters)."""
    return max(_samples_in(t, seconds), least) | 1


def _sigma(values: np.ndarray) -> float:
    """A robust standard deviation (1.4826 × MAD)."""
    if len(values) == 0:
        return 0.0
    return float(1.4826 * np.median(np.abs(values - np.median(values))))


def _windows(values: np.ndarray, width: int, fill: float) -> np.ndarray:
    half = width // 2
    padded = np.pad(values, (half, width - 1 - half), constant_values=fill)
    return np.lib.stride_tricks.sliding_window_view(padded, width)


def _running_median(values: np.ndarray, width: int) -> np.ndarray:
    if width <= 1 or len(values) < width:
        return values.astype(float)
    half = width // 2
    padded = np.pad(values.astype(float), half, mode="edge")
    if width == 3:  # the median of three, without sorting
        a, b, c = padded[:-2], padded[1:-1], padded[2:]
        return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))
    windows = np.lib.stride_tricks.sliding_window_view(padded, width)
    if width % 2:
        return np.partition(windows, half, axis=1)[:, half]
    return np.median(windows, axis=1)


def _running_nanmedian(values: np.ndarray, width: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmedian(_windows(values, width, np.nan), axis=1)


def _running_mean(values: np.ndarray, width: int) -> np.ndarray:
    # no wider than the values: "same" would return the window's length instead
    width = max(1, min(width, len(values)))
    return np.convolve(values, np.ones(width) / width, mode="same")


def _running_std(values: np.ndarray, width: int) -> np.ndarray:
    padded = np.pad(values.astype(float), (width // 2, width - 1 - width // 2), mode="edge")
    sums = np.concatenate([[0.0], np.cumsum(padded)])
    squares = np.concatenate([[0.0], np.cumsum(padded ** 2)])
    mean = (sums[width:] - sums[:-width]) / width
    variance = (squares[width:] - squares[:-width]) / width - mean ** 2
    return np.sqrt(np.maximum(variance, 0.0))


def _best_step(values: np.ndarray, old: float, new: float) -> int:
    """The index where a step from ``old`` to ``new`` fits ``values`` best (least |error|)."""
    valid = ~np.isnan(values)
    to_old = np.where(valid, np.abs(values - old), 0.0)
    to_new = np.where(valid, np.abs(values - new), 0.0)
    before = np.concatenate([[0.0], np.cumsum(to_old)])  # cost of samples [0, k) at old
    after = np.concatenate([np.cumsum(to_new[::-1])[::-1], [0.0]])  # [k, n) at new
    return int(min(np.argmin(before + after), len(values) - 1))


def _half_means(values: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """At every index, the mean of the ``half + 1`` values ending there and of the
    ``half + 1`` starting there, NaNs left out (NaN where a side has none)."""
    valid = ~np.isnan(values)
    sums = np.concatenate([[0.0], np.cumsum(np.where(valid, values, 0.0))])
    counts = np.concatenate([[0], np.cumsum(valid)])
    index = np.arange(len(values))
    low, high = np.maximum(index - half, 0), np.minimum(index + half + 1, len(values))
    with np.errstate(invalid="ignore", divide="ignore"):
        before = (sums[index + 1] - sums[low]) / (counts[index + 1] - counts[low])
        after = (sums[high] - sums[index]) / (counts[high] - counts[index])
    return before, after


def _nan_median(values: np.ndarray, default: float) -> float:
    values = values[~np.isnan(values)]
    return float(np.median(values)) if len(values) else default


def _merged(levels: list[Level], signals: Signals, band: float) -> list[Level]:
    """Join neighbouring levels of one mass that only a knock or a spike kept apart."""
    merged: list[Level] = []
    for level in levels:
        if merged:
            last = merged[-1]
            gap = signals.t[level.start] - signals.t[last.end]
            moved = signals.t[last.end:level.start + 1][signals.moving[last.end:level.start + 1]]
            calm = len(moved) == 0 or moved[-1] - moved[0] < 0.3  # a knock, not a flight
            if abs(level.mass - last.mass) < band and gap < 0.5 and calm:
                mass = float(np.median(signals.mass[last.start:level.end + 1]
                                       [~signals.disturbed[last.start:level.end + 1]]))
                merged[-1] = Level(last.start, level.end, mass)
                continue
        merged.append(level)
    return merged


def _clusters(indices: np.ndarray, gap: int) -> list[list[int]]:
    """Group sorted indices whose neighbours are at most ``gap`` apart."""
    clusters: list[list[int]] = []
    for index in indices.tolist():
        if clusters and index - clusters[-1][-1] <= gap:
            clusters[-1].append(index)
        else:
            clusters.append([index])
    return clusters


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) indices of each run of True."""
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1) - 1
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def _close_gaps(t: np.ndarray, mask: np.ndarray, seconds: float) -> np.ndarray:
    """Fill runs of False shorter than ``seconds`` between two runs of True."""
    closed = mask.copy()
    runs = _runs(mask)
    for (_, end), (start, _) in itertools.pairwise(runs):
        if t[start] - t[end] <= seconds:
            closed[end:start] = True
    return closed


def _dilate(t: np.ndarray, mask: np.ndarray, seconds: float) -> np.ndarray:
    """Grow every run of True by ``seconds`` on both sides."""
    grown = mask.copy()
    for start, end in _runs(mask):
        first = int(np.searchsorted(t, t[start] - seconds))
        last = int(np.searchsorted(t, t[end] + seconds, side="right"))
        grown[first:last] = True
    return grown


@dataclass(frozen=True)
class _Anchor:
    """A settled level the live detector re-zeroes at: every event before it is reported."""

    start: float  # stream time the level started
    t: float  # a moment inside it
    carried: float  # the mass carried there


class _WindowDetector(EventDetector):
    """The detector on a window of a stream; the lag is scored over all the stream so far.

    The lag's jitter scores add up sample by sample, so the samples up to the settled
    horizon are scored once and kept as a sum per candidate lag: the lag estimate
    grows with the stream and ends as the whole-file one, at no cost in memory.
    """

    def __init__(self, config: DetectorConfig | None = None) -> None:
        super().__init__(config)
        self.horizon = np.inf  # samples up to this are settled: their scores are committed
        self._scores: dict[float, float] = {}
        self._scored_s = 0.0  # seconds of motion in the committed scores
        self._scored_until = -np.inf
        self._pending: tuple[dict[float, float], float] = ({}, 0.0)
        self.airborne: list[tuple[float, float]] = []  # flights reported: (lift, land) times
        self._reference: RestReference | None = None  # the last measured on enough rest

    def rest_reference(self, t: np.ndarray, accel: np.ndarray, gyro: np.ndarray,
                       norm: np.ndarray) -> RestReference:
        """Measured on the window's rest outside the flights already reported, when there
        is ``live_reference_rest_s`` of it; else the last so measured.

        A window inside a long carry holds no table rest at all: the hand's still
        moments would be taken for rest, its tilt for the vertical and its tremor for
        the sensors' noise, and the flight split into landings and lifts (the
        whole-stream detector, its rest mostly the table's, sees one flight)."""
        excluded = np.zeros(len(t), dtype=bool)
        for lift, land in self.airborne:
            excluded |= (t >= lift) & (t <= land)
        reference, seconds = self.measure_rest(t, accel, gyro, norm, excluded)
        if seconds >= self.config.live_reference_rest_s:
            self._reference = reference
        return reference if self._reference is None else self._reference

    def _lag(self, t, force, az, az_rest, mask) -> float:
        first = max(0, int(np.searchsorted(t, self._scored_until, side="right")) - 1)
        fresh = mask[first + 1:] & (t[first + 1:] > self._scored_until)
        settled = fresh & (t[first + 1:] <= self.horizon)
        totals, pending = {}, {}
        for lag, jitter in self._lag_jitter(t, force, az, az_rest, first):
            pending[lag] = float(jitter[settled].sum())
            totals[lag] = self._scores.get(lag, 0.0) + float(jitter[fresh].sum())
        self._pending = (pending, float(settled.sum()) * _period(t))
        if self._scored_s + float(fresh.sum()) * _period(t) < self.config.min_lag_motion_s:
            return self.config.default_lag_s
        return min((score, lag) for lag, score in totals.items())[1]

    def commit_lag(self) -> None:
        """The samples up to ``horizon`` are settled: keep their lag scores."""
        pending, seconds = self._pending
        for lag, score in pending.items():
            self._scores[lag] = self._scores.get(lag, 0.0) + score
        self._scored_s += seconds
        self._scored_until = self.horizon
        self._pending = ({}, 0.0)


class LiveEventDetector:
    """Events of a growing stream, each reported once, when it can no longer change.

    An event is reported once it is ``settle_s`` (default ``live_settle_s``) older than
    the newest sample, when later samples can no longer move or remove it. The detector keeps only a
    window of the stream: from a little before the last *settled* level (a steady
    mass that started ``live_anchor_margin_s`` before the settled horizon, every
    event before it already reported) to now, at least ``live_min_window_s`` and
    at most ``live_max_window_s`` long. Each call runs the whole-stream detector
    on that window, re-zeroed at that level with the mass carried there, so the
    work per new sample and the memory stay bounded however long the session. The
    load cell's lag is scored over all the stream so far (see
    :class:`_WindowDetector`). Feed it chunks of a tenth of a second or more: each
    call costs one pass over the window.

    Example::

        live = LiveEventDetector()
        for chunk in chunks:                      # Samples, in order
            for event in live.add(chunk):
                print(event.to_json())
        for event in live.finish():
            print(event.to_json())
    """

    def __init__(self, config: DetectorConfig | None = None,
                 settle_s: float | None = None) -> None:
        self.detector = _WindowDetector(config)
        self.config = self.detector.config
        self.settle_s = self.config.live_settle_s if settle_s is None else settle_s
        self.monitor = FaultMonitor(self.config)
        self._chunks: list[Samples] = []
        self._anchor: _Anchor | None = None
        self._from_start = True  # the window still holds the stream's first sample
        self._reported_until = -np.inf  # every event up to here is reported...
        self._settled_until = -np.inf  # ...as the settled horizon (newest - settle_s) says
        self._standing_at = -np.inf  # ...or as the drone's standing after a landing says
        self._detected_at = -np.inf  # the newest sample of the last detection
        self._level_until: float | None = None  # end of the last steady level seen
        self._recent: deque[DroneEvent] = deque(maxlen=64)
        self._reported = 0

    def __repr__(self) -> str:
        rows = sum(len(chunk) for chunk in self._chunks)
        return f"<LiveEventDetector {rows} rows in window, {self._reported} events reported>"

    @property
    def window_rows(self) -> int:
        """Samples held in memory now."""
        return sum(len(chunk) for chunk in self._chunks)

    def add(self, samples: Samples) -> list[DroneEvent | SensorFault]:
        """Take more samples; the events that have settled since the last call, and the
        sensor faults (and clearings) these samples show, at once."""
        faults = self.monitor.add(samples)
        if len(samples):
            self._chunks.append(samples)
        return self._settled(final=False) + faults

    def report(self, fault: SensorFault) -> list[SensorFault]:
        """A fault (or its end) the board reported in its STATUS: as the monitor's own."""
        return self.monitor.report(fault)

    def idle(self, now: float) -> list[SensorFault]:
        """No sample came up to ``now`` (the stream's clock, e.g. the last sample's time
        plus the seconds waited since it came): a ``link`` fault once that is too long."""
        return self.monitor.idle(now)

    def finish(self) -> list[DroneEvent]:
        """The stream has ended: every event not reported yet."""
        return self._settled(final=True)

    @property
    def faulty(self) -> list[str]:
        """The sensors faulty now (no load or drop is read from them)."""
        return self.monitor.faulty

    @property
    def certain_until(self) -> float:
        """The stream time no later report goes back before: the settled horizon, or the
        end of the last steady mass level seen, if earlier. A load starts a new level and
        a drop leaves one, so both come after it; a drop in a long flight is reported
        once the drone stands again, after the horizon has passed it, and this is what a
        reader holding observations in time order waits for. Before any level, the
        window's first sample. Or, if later, the last standing horizon: the end of the
        drone's steady level after its landing and the touch that followed it
        (:meth:`_standing_until`), before which everything has been reported. The first
        two are kept ``live_level_margin_s`` clear: the next window may place a load a
        hair earlier (its walk back to where the mass first stood) and find it inside."""
        if self._level_until is None:
            first = float(self._chunks[0].t[0]) if self._chunks else -np.inf
            return max(min(first, self._settled_until), self._standing_at)
        margin = self.config.live_level_margin_s
        return max(min(self._level_until, self._settled_until) - margin, self._standing_at)

    def _settled(self, final: bool) -> list[DroneEvent]:
        if not self._chunks:
            return []
        if len(self._chunks) > 1:
            joined = [np.concatenate(columns) for columns in
                      zip(*(chunk.columns() for chunk in self._chunks), strict=True)]
            self._chunks = [Samples(*joined)]
        stream = self._chunks[0]
        newest = float(stream.t[-1])
        settled = np.inf if final else newest - self.settle_s
        if (newest <= self._detected_at and not final) or len(stream) < self.config.min_samples:
            return []
        self._detected_at = newest
        events, since, standing = self._detect(stream, settled)
        horizon = max(settled, standing)
        fresh = []
        for event in events:  # one at a time: a lift and its landing may come in one call
            if since <= event.t <= horizon and not self._seen(event):
                fresh.append(event)
                self._recent.append(event)
        self._reported_until = max(self._reported_until, horizon)
        self._settled_until = max(self._settled_until, settled)
        self._standing_at = max(self._standing_at, standing)
        self._reported += len(fresh)
        self._trim(stream)
        return fresh

    def _flight_events(self) -> list[DroneEvent]:
        """The lifts and landings reported, in stream time order (the order they were
        reported in may differ: a lift found late comes after its landing)."""
        return sorted((event for event in self._recent if event.event in ("lift", "land")),
                      key=lambda event: event.t)

    def _airborne(self) -> list[tuple[float, float]]:
        """The flights reported, (lift, landing) in stream time; a flight under way ends
        at +inf."""
        spans: list[tuple[float, float]] = []
        for event in self._flight_events():
            if event.event == "lift":
                spans.append((event.t, np.inf))
            elif event.event == "land" and spans and spans[-1][1] == np.inf:
                spans[-1] = (spans[-1][0], event.t)
        return spans

    def _seen(self, event: DroneEvent) -> bool:
        """Reported already (maybe placed a hair differently by an earlier window).

        Lifts and landings alternate in stream time: a lift (landing) whose nearest
        reported flight event before or after it is a lift (landing) is the same flight
        seen from another window (whose resting noise cut its start elsewhere). In the
        order of reporting instead, one lift reported after its own landing made every
        later lift "the same flight" as it until that flight's landing was reported,
        then late: 534 lifts in a two-hour stream (docs/drone-events.md, "Live").
        A load (or drop) soon after the last mass event, of its kind, that leaves the
        mass it left is that one: a change leaves a mass an event apart, and a hand
        letting go within ``hand_hold_s`` may be placed at either of its steps.
        """
        config = self.config
        if event.event in ("lift", "land"):
            flights = self._flight_events()
            before = [old for old in flights if old.t <= event.t][-1:]
            after = [old for old in flights if old.t > event.t][:1]
            if any(old.event == event.event for old in before + after):
                return True
        masses = [old for old in self._recent if old.event in ("load", "drop")]
        if (event.event in ("load", "drop") and masses and masses[-1].event == event.event
                and abs(masses[-1].t - event.t) < config.hand_hold_s
                and abs(masses[-1].mass_g - event.mass_g) < config.min_mass_change_g / 2):
            return True
        return any(old.event == event.event and abs(old.t - event.t) < config.live_duplicate_s
                   for old in self._recent)

    def _detect(self, stream: Samples, horizon: float
                ) -> tuple[list[DroneEvent], float, float]:
        """The window's events, the time from which they may be new (its reference level),
        and how far they are already certain before the settled ``horizon``
        (:meth:`_standing_until`)."""
        detector = self.detector
        detector.horizon = horizon
        detector.from_start = self._from_start
        detector.airborne = self._airborne()
        signals = detector.signals(stream, self.monitor.windows)
        if signals is None:
            return [], np.inf
        detector.lag_s = signals.lag
        detector.commit_lag()
        levels = detector.levels(signals)
        if levels:  # every later load or drop comes after it (see certain_until)
            self._level_until = float(signals.t[levels[-1].end])
        first, start_mass = self._reference(signals, levels)
        levels = levels[first:]
        mass_events, carried_at = detector.mass_events(signals, levels, start_mass)
        since = float(signals.t[levels[0].start]) if levels and self._anchor else -np.inf
        self._anchor = self._next_anchor(signals, levels, carried_at, horizon) or self._anchor
        events = _with_masses(detector.flights(signals), mass_events, start_mass)
        return events, since, self._standing_until(signals, levels, events)

    def _standing_until(self, signals: Signals, levels: list[Level],
                        events: list[DroneEvent]) -> float:
        """How far the window's events are certain already, before the settled horizon.

        Up to the end of the drone's last steady level since its last landing that stood
        ``live_standing_s`` and that no load began, then on over a hand that touches the
        landed drone (:meth:`_touched_until`); never closer than ``live_standing_margin_s``
        to the newest sample (later samples may still end the level a little earlier).

        Nothing happens on a steady level; the landing before it, and a drop in the
        flight or during the landing, are known once the level after it stands (the
        mass carried is that level's). What waits for the settled horizon: a level that
        a load began (a hand resting on the new present, or a steady press, is only told
        from a present by what follows it within ``hand_rest_s``), a flight under way,
        and anything while a sensor is faulty.
        """
        config = self.config
        flights = [event for event in events if event.event in ("lift", "land")]
        if self.monitor.faulty or (flights and flights[-1].event == "lift"):
            return -np.inf
        t = signals.t
        landed = flights[-1].t if flights else -np.inf
        loads = [event.t for event in events if event.event == "load"]
        standing: Level | None = None
        for level in levels:
            start, end = float(t[level.start]), float(t[level.end])
            if start <= landed:
                continue
            if any(load >= start - config.hand_rest_s for load in loads):
                break  # this level, and all after it, wait for the settled horizon
            if end - start >= config.live_standing_s:
                standing = level
        if standing is None:
            return -np.inf
        until = self._touched_until(signals, standing)
        return min(until, float(t[-1]) - config.live_standing_margin_s)

    def _touched_until(self, signals: Signals, level: Level) -> float:
        """After a steady ``level``: until when nothing can have happened yet.

        A hand touching the landed drone neither lifts nor drops a present (a present
        falling while a hand touches it is no event); a lift is no earlier than where the
        platform first turns ``settled_gyro`` or leans ``carried_tilt_deg``
        (:meth:`_grasped_until`). So this runs on from the level's end while the mass
        does not fall below the level's band and does not yet stand anywhere else (it
        stays in the band, or still changes: a hand pressing), and the platform neither
        leans nor turns (a real hand taking hold to lift presses on the drone too); then
        stops ``live_touch_margin_s`` short of that (the next window may find the turn a
        little earlier: another lag, another zero), and ``steady_window_s`` more short of
        a new mass standing (the load's walk back to where the mass first stood). A load
        placed earlier still (a hand letting go slowly) is reported behind the promise:
        the station hands it on at the promised time, before the lift that follows.
        """
        config, t, end = self.config, signals.t, level.end
        detector = self.detector
        mass = signals.mass[end:]
        band = detector._band(signals.mass[level.start:end + 1])
        spread = _running_std(signals.mass, _samples_in(t, config.steady_window_s))[end:]
        inside = np.abs(mass - level.mass) < band
        pressed = (mass >= level.mass + band) & (spread >= config.steady_floor_g)
        width = _odd_width(t, config.tremble_window_s / 4, least=3)
        turning = _running_mean(signals.gyro[end:], width) >= config.settled_gyro
        leaning = detector.tilt(signals, end, len(t) - 1) >= config.carried_tilt_deg
        unmoved = (inside | pressed) & ~turning & ~leaning
        stop = np.flatnonzero(~unmoved)
        if not len(stop):
            return float(t[-1])
        until = float(t[end + int(stop[0]) - 1]) - config.live_touch_margin_s
        if not inside[stop[0]] and mass[stop[0]] > level.mass:  # a new mass stands
            until -= config.steady_window_s
        return max(until, float(t[end]))

    def _reference(self, signals: Signals, levels: list[Level]) -> tuple[int, float]:
        """The index of the level the window is re-zeroed at, and the mass carried there."""
        if not levels:
            return 0, 0.0
        anchor = self._anchor
        if anchor is None:  # no settled level yet: as the whole-stream detector does
            carried = (self.detector.start_mass(signals, levels) if self._from_start
                       else self._last_mass())
            return 0, carried
        t = signals.t
        inside = [index for index, level in enumerate(levels)
                  if t[level.start] <= anchor.t <= t[level.end]]
        if inside:
            return inside[0], anchor.carried
        # The anchor's level is no level in this window (its zero, measured on other
        # rest, reads the hand's shiver there otherwise): re-zero at the nearest level,
        # with the mass the events reported up to it leave. The anchor's mass there
        # kept a drop reported in between: every mass after it was that much too high.
        before = [index for index, level in enumerate(levels) if t[level.start] <= anchor.t]
        index = before[-1] if before else 0
        return index, self._mass_at(float(t[levels[index].end]), anchor)

    def _mass_at(self, at: float, anchor: _Anchor) -> float:
        """The mass carried at stream time ``at``: the ``anchor``'s, unless an event was
        reported between its level's start and ``at``; then what the last reported event
        up to ``at`` left."""
        low, high = sorted((anchor.start, at))
        if not any(low < event.t <= high for event in self._recent):
            return anchor.carried
        earlier = [event for event in self._recent if event.t <= at]
        return max(earlier, key=lambda event: event.t).mass_g if earlier else anchor.carried

    def _last_mass(self) -> float:
        return max(self._recent, key=lambda event: event.t).mass_g if self._recent else 0.0

    def _next_anchor(self, signals: Signals, levels: list[Level], carried_at: list[float],
                     horizon: float) -> _Anchor | None:
        """The last long level that started well before the settled horizon."""
        t = signals.t
        latest = horizon - self.config.live_anchor_margin_s
        for level, carried in zip(reversed(levels), reversed(carried_at), strict=True):
            if (t[level.end] - t[level.start] >= self.config.min_steady_s
                    and t[level.start] <= latest):
                return _Anchor(float(t[level.start]), float(min(t[level.end], latest)), carried)
        return None

    def _trim(self, stream: Samples) -> None:
        """Forget the samples the next window no longer needs."""
        config = self.config
        newest = float(stream.t[-1])
        start = -np.inf
        if self._anchor is not None:
            start = max(self._anchor.start, self._anchor.t - config.live_level_keep_s)
            start -= config.live_context_s
        start = max(min(start, newest - config.live_min_window_s),
                    newest - config.live_max_window_s)
        if self._anchor is not None and self._anchor.t < start:
            self._anchor = None  # no settled level for too long: re-zero at the window's first
        self.monitor.windows[:] = [window for window in self.monitor.windows
                                   if window.end >= start]
        keep = stream.t >= start
        if not keep.all():
            self._from_start = False
            self._chunks = [Samples(*(column[keep] for column in stream.columns()))]
