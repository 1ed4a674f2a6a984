"""An independent check of ``packref drone events``: challenges composed from real recordings.

Run ``.venv/bin/python benchmarks/drone_apart.py [--seed S] [--count N] [--data DIR] [--verbose]``.

Every challenge is put together on the fly, seeded, from pieces of the real recordings in
``DIR`` (default ``../shared/data/drone-real`` beside the checkout; read at run time, never
copied: one of them is GPL-3.0): the x-io and MicroStrain IMU streams give the drone's
motion (rest on a table, a hand lifting it, carrying, hovering, tilting it, setting it down,
knocks), the HX711 logs give the load cell's noise. The load cell's reading is then physics:
the tared force of the platform and its presents, ``(platform + mass) x a_z / a_z(rest) -
platform`` (the specific force along the platform's normal, the accelerometer's z), averaged
over each HX711 conversion, plus the real noise and the hands (placing presses, taps, a hand
left on after a landing). Faults are injected in some: a frozen load cell, an IMU reading
all zeros or frozen, a gap in the link. Each challenge knows its truth (docs/drone-apart.md
says how each time is labelled).

Each is written to a temporary CSV and run through the real CLI (``station.cli.main``, as
``packref drone events FILE``); detected events are matched to the truth by kind within a
tolerance (``TOLERANCE``) and faults by sensor within 1.5 s. Printed: per kind truth, found,
recall, false events, timing p50/p95 and mass error p95; faults found with the right sensor;
false events per 100 challenges; CPU per challenge, also relative to the fixed reference
workload (benchmarks/reference.py). Text goes to stderr, one JSON line to stdout.

Seeds 500000-500199 are kept for a final, one-off run; develop on 0-99.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from station.cli import main as packref_main

# appended, not first: benchmarks/vision.py must not shadow the vision package the CLI loads
sys.path.append(str(Path(__file__).resolve().parent))
from reference import reference_line, reference_seconds

REPO = Path(__file__).resolve().parent.parent
# the shared folder beside the checkout; PACKREF_DRONE_REAL names another (e.g. from a worktree)
DEFAULT_DATA = Path(os.environ.get("PACKREF_DRONE_REAL",
                                   REPO.parent / "shared" / "data" / "drone-real"))
G = 9.80665
COUNTS_PER_GRAM = 1874.0  # the coffee scale's own factor when its logs were taken
KINDS = ("load", "lift", "land", "drop")
TOLERANCE = {"load": 0.5, "drop": 0.5, "lift": 0.3, "land": 0.3}  # seconds either side
FAULT_TOLERANCE = 1.5  # a fault's t may be this late (or up to 0.5 s early)
FAULT_EARLY = 0.5
HX711_80SPS_NOISE = 90 / 50  # datasheet input noise at 80 SPS vs 10 SPS (nV rms, gain 128)
FINE_HZ = 1000.0  # the grid on which the force is built before the HX711 averages it

# x-io Fusion recording (source seconds): stretches at rest on the table, the one clear
# flight (picked up ~13.3-14.0, set down with a jolt at ~57.8) cut into pieces at level
# moments, and knocks / a shaken table while it rests.
XIO_REST = ((0.5, 12.7), (61.5, 64.5), (73.5, 79.8), (97.0, 100.4), (101.8, 115.3),
            (117.5, 135.0))
XIO_KNOCKS = ((100.6, 101.7), (115.4, 117.2))
XIO_LIFT = (12.8, 14.9)
XIO_LIFT_REST = (5.0, 12.0)  # gravity for the lift's vertical acceleration
XIO_LIFT_SEARCH = (13.0, 15.0)
XIO_LAND = (54.0, 61.5)
XIO_IMPACT_SEARCH = (57.6, 58.0)
# the second handling (picked up ~81 s with a snatch, its rise too small to label): held
# in the hand from 86 s (gyro 5-17 deg/s), set down softly at ~94.6 s with the hand left on
# for about a second (gyro 1-2 deg/s until ~96 s, where a resting drone reads 0.3)
XIO_SOFT_LAND_STARTS = (86.0, 88.0, 91.0, 93.0)
XIO_SOFT_LAND_END = 97.0
XIO_SOFT_IMPACT_SEARCH = (94.4, 94.7)
# (start, end, windows where a present may slide off: tilted holds, or level hovers)
XIO_MIDDLE = (
    (14.9, 25.8, ((16.0, 19.8), (21.0, 24.4))),  # tilted ~60 deg one way, then the other
    (25.8, 29.0, ((26.0, 28.8),)),  # held level
    (29.0, 41.2, ((31.0, 34.4), (36.0, 39.4))),  # tilted about the other axis
    (41.2, 44.2, ((41.4, 44.0),)),
    (44.2, 46.5, ()),  # turned about the vertical
    (46.5, 48.5, ((46.7, 48.3),)),
    (48.5, 52.5, ()),
    (52.5, 54.0, ((52.6, 53.9),)),
)
# MicroStrain recordings (resampled to 200 Hz): rest, a fast lift / up-down / hard set-down.
NCSU = {
    "zplus": {"rest": (0.05, 1.30), "flight": (1.30, 2.62), "after": (2.62, 3.05),
              "lift_search": (1.30, 1.80), "impact_search": (2.40, 2.55)},
    "zminus": {"rest": (0.05, 1.30), "flight": (1.30, 2.62), "after": (2.85, 3.17),
               "lift_search": (1.30, 1.80), "impact_search": (2.30, 2.50)},
}


# ---------------------------------------------------------------- the real recordings


@dataclass(frozen=True)
class Imu:
    """A real IMU stream in the board's units: m/s2 (gravity included) and deg/s."""

    t: np.ndarray
    acc: np.ndarray
    gyro: np.ndarray

    def window(self, start: float, end: float) -> Imu:
        keep = (self.t >= start) & (self.t < end)
        return Imu(self.t[keep], self.acc[keep], self.gyro[keep])


@dataclass(frozen=True)
class LoadLog:
    """Real HX711 readings: their times (s) and grams (counts / 1874), untared."""

    t: np.ndarray
    grams: np.ndarray


@dataclass(frozen=True)
class Recordings:
    xio: Imu
    ncsu: dict[str, Imu]
    steady: LoadLog
    startup: LoadLog
    xio_lift: float  # labelled from the data (see lift_onset / impact_time)
    xio_land: float
    xio_soft_land: float
    ncsu_lift: dict[str, float]
    ncsu_land: dict[str, float]


class DataMissing(Exception):
    """The recordings folder is absent or incomplete."""


def _read_csv(path: Path) -> np.ndarray:
    if not path.is_file():
        raise DataMissing(f"{path}: not found")
    return np.genfromtxt(path, delimiter=",", skip_header=1)


def _xio(folder: Path) -> Imu:
    rows = _read_csv(folder / "xio_fusion_sensor_data.csv")
    return Imu(rows[:, 0], rows[:, 4:7] * G, rows[:, 1:4])


def _ncsu(folder: Path, name: str) -> Imu:
    """1 kHz MicroStrain rows averaged five at a time (the board's 200 Hz behind a low-pass).

    ``zminus`` lay upside down: turned half a turn about x (y and z negated) it sits z up,
    as the board's IMU is glued."""
    rows = _read_csv(folder / f"ncsu_airbrakes_{name}.csv")
    n = len(rows) // 5 * 5
    t = (rows[:n, 0] - rows[0, 0]) / 1e9
    acc = rows[:n, 1:4] * G
    gyro = np.degrees(rows[:n, 4:7])
    if name == "zminus":
        acc[:, 1:] *= -1
        gyro[:, 1:] *= -1
    return Imu(t.reshape(-1, 5).mean(1), acc.reshape(-1, 5, 3).mean(1),
               gyro.reshape(-1, 5, 3).mean(1))


def _load_log(folder: Path, name: str) -> LoadLog:
    rows = _read_csv(folder / f"coffee_scales_{name}.csv")
    return LoadLog(rows[:, 0] - rows[0, 0], rows[:, 1] / COUNTS_PER_GRAM)


def lift_onset(imu: Imu, rest: tuple[float, float], search: tuple[float, float]) -> float:
    """When the upward motion begins: the vertical velocity (the specific force along the
    resting gravity, minus g, integrated from rest) last sat at <= 0.01 m/s before it first
    reached 0.08 m/s."""
    at_rest = imu.window(*rest).acc.mean(0)
    up = at_rest / np.linalg.norm(at_rest)
    piece = imu.window(search[0], search[1])
    vertical = piece.acc @ up - np.linalg.norm(at_rest)
    velocity = np.concatenate([[0.0], np.cumsum(vertical[1:] * np.diff(piece.t))])
    rising = int(np.argmax(velocity >= 0.08))
    still = np.nonzero(velocity[:rising] <= 0.01)[0]
    return float(piece.t[still[-1]])


def impact_time(imu: Imu, search: tuple[float, float]) -> float:
    """The moment of a set-down's impact: the first sample of the sharpest jump in the
    acceleration within the set-down."""
    piece = imu.window(*search)
    jumps = np.linalg.norm(np.diff(piece.acc, axis=0), axis=1)
    return float(piece.t[int(np.argmax(jumps)) + 1])


@cache
def load_recordings(folder: Path) -> Recordings:
    """Read and label the recordings (once per process)."""
    xio = _xio(folder)
    ncsu = {name: _ncsu(folder, name) for name in NCSU}
    return Recordings(
        xio=xio, ncsu=ncsu,
        steady=_load_log(folder, "steadystate"), startup=_load_log(folder, "startup"),
        xio_lift=lift_onset(xio, XIO_LIFT_REST, XIO_LIFT_SEARCH),
        xio_land=impact_time(xio, XIO_IMPACT_SEARCH),
        xio_soft_land=impact_time(xio, XIO_SOFT_IMPACT_SEARCH),
        ncsu_lift={name: lift_onset(imu, NCSU[name]["rest"], NCSU[name]["lift_search"])
                   for name, imu in ncsu.items()},
        ncsu_land={name: impact_time(imu, NCSU[name]["impact_search"])
                   for name, imu in ncsu.items()},
    )


# ---------------------------------------------------------------- composing a challenge


@dataclass
class Truth:
    """One thing that happened, as the contract defines its time."""

    t: float
    event: str  # load, lift, land, drop, or fault
    mass_g: float | None = None
    sensor: str | None = None  # faults: load-cell, imu, link
    end: float | None = None  # faults: when the sensor reads true again


@dataclass
class Timeline:
    """The IMU rows of a challenge, laid end to end from real stretches."""

    t: list[np.ndarray] = field(default_factory=list)
    acc: list[np.ndarray] = field(default_factory=list)
    gyro: list[np.ndarray] = field(default_factory=list)
    end: float = 0.0

    def append(self, piece: Imu) -> float:
        """Add a real stretch after the last; returns its shift (output = source + shift)."""
        step = float(np.median(np.diff(piece.t))) if len(piece.t) > 1 else 0.01
        start = self.end + step if self.t else self.end
        shift = start - float(piece.t[0])
        self.t.append(piece.t + shift)
        self.acc.append(piece.acc)
        self.gyro.append(piece.gyro)
        self.end = float(piece.t[-1]) + shift
        return shift

    def rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All rows, each seam bridged over 50 ms so a join is no jolt of its own."""
        t = np.concatenate(self.t)
        acc = np.concatenate(self.acc)
        gyro = np.concatenate(self.gyro)
        seam = 0
        for piece in self.t[:-1]:
            seam += len(piece)
            _bridge(t, acc, seam)
            _bridge(t, gyro, seam)
        return t, acc, gyro


def _bridge(t: np.ndarray, values: np.ndarray, seam: int, half: int = 3) -> None:
    """Replace the samples around a seam by a straight line between its two sides."""
    low, high = max(seam - half, 0), min(seam + half, len(t) - 1)
    if high - low < 2:
        return
    share = ((t[low:high + 1] - t[low]) / (t[high] - t[low]))[:, None]
    values[low:high + 1] = values[low] + share * (values[high] - values[low])


def _reversed(piece: Imu) -> Imu:
    """A rest stretch played backwards: still rest, and it joins its forward copy smoothly."""
    return Imu(piece.t[0] + (piece.t[-1] - piece.t[::-1]), piece.acc[::-1], piece.gyro[::-1])


class Source:
    """Where a challenge's motion comes from: the x-io stream, or one MicroStrain stream."""

    def __init__(self, recordings: Recordings, name: str) -> None:
        self.recordings = recordings
        self.name = name
        self.imu = recordings.xio if name == "xio" else recordings.ncsu[name]

    def rest_window(self) -> Imu:
        return self.imu.window(*(XIO_REST[0] if self.name == "xio" else NCSU[self.name]["rest"]))

    def knock(self, start: float, end: float) -> Imu:
        """The x-io's knocks from ``start`` to ``end``, as this IMU would read them: the
        vibration about the x-io's rest, added to this IMU's own rest reading."""
        xio = self.recordings.xio
        piece = xio.window(start, end)
        xio_rest, own_rest = xio.window(*XIO_REST[0]), self.rest_window()
        return Imu(piece.t, piece.acc - xio_rest.acc.mean(0) + own_rest.acc.mean(0),
                   piece.gyro - xio_rest.gyro.mean(0) + own_rest.gyro.mean(0))

    def rest(self, timeline: Timeline, seconds: float, rng: np.random.Generator) -> None:
        """At least ``seconds`` of the drone resting on the table."""
        if self.name == "xio":
            while seconds > 0:
                start, end = XIO_REST[int(rng.integers(len(XIO_REST)))]
                take = min(seconds, end - start)
                begin = rng.uniform(start, end - take)
                timeline.append(self.imu.window(begin, begin + take))
                seconds -= take
            return
        piece = self.imu.window(*NCSU[self.name]["rest"])
        forward = bool(rng.integers(2))
        while seconds > 0:
            timeline.append(piece if forward else _reversed(piece))
            forward = not forward
            seconds -= float(piece.t[-1] - piece.t[0])


@dataclass
class Forces:
    """What the load cell is given besides the IMU: mass changes and the hands' forces."""

    steps: list[tuple[float, float, float]] = field(default_factory=list)  # t0, t1, grams
    hands: list[Callable[[np.ndarray], np.ndarray]] = field(default_factory=list)

    def mass(self, t: np.ndarray) -> np.ndarray:
        total = np.zeros_like(t)
        for start, end, grams in self.steps:
            share = np.clip((t - start) / max(end - start, 1e-6), 0.0, 1.0)
            total += grams * (0.5 - 0.5 * np.cos(np.pi * share))
        return total

    def hand(self, t: np.ndarray) -> np.ndarray:
        total = np.zeros_like(t)
        for force in self.hands:
            total += force(t)
        return total


def _envelope(t: np.ndarray, on: float, full: float, off: float, gone: float) -> np.ndarray:
    """0 before ``on``, rising to 1 at ``full``, 1 until ``off``, falling to 0 at ``gone``."""
    rise = np.clip((t - on) / max(full - on, 1e-6), 0.0, 1.0)
    fall = np.clip((gone - t) / max(gone - off, 1e-6), 0.0, 1.0)
    return np.minimum(rise, fall)


def _tremor(rng: np.random.Generator, grams: float) -> Callable[[np.ndarray], np.ndarray]:
    """A hand's shake: a few slow sines (2-8 Hz), ``grams`` at most."""
    parts = [(rng.uniform(2, 8), rng.uniform(0, 2 * np.pi), rng.uniform(0.2, 1.0))
             for _ in range(3)]
    norm = sum(weight for _, _, weight in parts)
    return lambda t: grams / norm * sum(
        weight * np.sin(2 * np.pi * hz * t + phase) for hz, phase, weight in parts)


def place_present(forces: Forces, rng: np.random.Generator, touch: float,
                  grams: float) -> float:
    """A hand puts a present down from ``touch`` on; returns when it let go (the truth).

    The present's weight passes to the platform as the hand lowers it (most of it), the
    hand may press on it and shakes while it touches, and the last of the weight goes
    over as the hand opens; the platform rings a little after."""
    transfer = rng.uniform(0.08, 0.35)
    hold = rng.uniform(0.15, 1.0)
    release = rng.uniform(0.03, 0.15)
    first = rng.uniform(0.6, 1.0)
    weight_on = touch + transfer
    opens = weight_on + hold
    let_go = opens + release
    forces.steps.append((touch, weight_on, grams * first))
    forces.steps.append((opens, let_go, grams * (1 - first)))
    press = 0.0 if rng.random() < 0.35 else rng.uniform(3, 60)
    shake = _tremor(rng, rng.uniform(0.3, 3.0) if press else rng.uniform(0.1, 0.8))
    pressing = touch + transfer * rng.uniform(0.3, 1.0)
    forces.hands.append(
        lambda t: _envelope(t, pressing, weight_on, opens, let_go) * press
        + _envelope(t, touch, weight_on, opens, let_go) * shake(t))
    ring = grams * rng.uniform(0, 0.15) + press * rng.uniform(0, 0.05)
    hz, decay = rng.uniform(8, 25), rng.uniform(0.02, 0.08)
    forces.hands.append(lambda t: _ringing(t - let_go, ring, hz, decay))
    return let_go


def _ringing(since: np.ndarray, grams: float, hz: float, decay: float) -> np.ndarray:
    """A damped oscillation starting at ``since`` = 0 (nothing before)."""
    after = np.clip(since, 0.0, None)
    return np.where(since > 0, grams * np.exp(-after / decay) * np.sin(2 * np.pi * hz * after), 0.0)


def tap(forces: Forces, rng: np.random.Generator, at: float) -> None:
    """A finger knocks on the platform: a short half-sine of force."""
    width = rng.uniform(0.015, 0.05)
    grams = rng.uniform(20, 150)
    forces.hands.append(lambda t: np.where(
        (t >= at) & (t <= at + width), grams * np.sin(np.pi * (t - at) / width), 0.0))


def hand_left_on(forces: Forces, rng: np.random.Generator, impact: float) -> None:
    """After a set-down the hand rests on the platform's edge a moment, pressing a little."""
    on = impact + rng.uniform(0.05, 0.2)
    full = on + rng.uniform(0.05, 0.15)
    off = full + rng.uniform(0.4, 1.2)
    gone = off + rng.uniform(0.05, 0.15)
    grams = rng.uniform(2, 12)
    forces.hands.append(lambda t: _envelope(t, on, full, off, gone) * grams)


def fall_away(forces: Forces, rng: np.random.Generator, begins: float, grams: float) -> None:
    """A present slides or tips off the platform from ``begins``."""
    forces.steps.append((begins, begins + rng.uniform(0.05, 0.4), -grams))


@dataclass
class Challenge:
    """One composed stream and its truth."""

    seed: int
    t: np.ndarray
    force: np.ndarray
    acc: np.ndarray
    gyro: np.ndarray
    truth: list[Truth]
    notes: list[str]

    def csv(self) -> str:
        lines = ["t,force_g,ax,ay,az,gx,gy,gz"]
        for t, force, acc, gyro in zip(self.t, self.force, self.acc, self.gyro, strict=True):
            lines.append(f"{t:.6f},{force:.4f},{acc[0]:.4f},{acc[1]:.4f},{acc[2]:.4f},"
                         f"{gyro[0]:.3f},{gyro[1]:.3f},{gyro[2]:.3f}")
        return "\n".join(lines) + "\n"


class Composer:
    """Lays out one challenge: rests, presents placed, knocks, a flight, faults."""

    def __init__(self, recordings: Recordings, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.recordings = recordings
        names = ("xio", "xio", "xio", "zplus", "zminus")
        self.source = Source(recordings, names[int(self.rng.integers(len(names)))])
        self.timeline = Timeline()
        self.forces = Forces()
        self.presents: list[float] = []
        self.truth: list[Truth] = []
        self.faults: list[tuple[str, float, float]] = []  # kind, begins, seconds
        self.notes = [f"motion from {self.source.name}"]

    @property
    def mass(self) -> float:
        return float(sum(self.presents))

    def rest(self, seconds: float) -> None:
        self.source.rest(self.timeline, seconds, self.rng)

    def load(self) -> None:
        gap = self.rng.uniform(1.5, 4.0)
        touch = self.timeline.end + gap
        self.rest(gap + 2.2)
        grams = float(self.rng.uniform(2, 40))
        let_go = place_present(self.forces, self.rng, touch, grams)
        self.presents.append(grams)
        self.truth.append(Truth(let_go, "load", self.mass))

    def knock(self) -> None:
        """A knock on the table or the drone while it rests (the x-io's real knocks)."""
        self.rest(self.rng.uniform(1.0, 2.0))
        start, end = XIO_KNOCKS[int(self.rng.integers(len(XIO_KNOCKS)))]
        shift = self.timeline.append(self.source.knock(start, end))
        self.notes.append("knocks on the table" if start == XIO_KNOCKS[0][0] else "table shaken")
        if start == XIO_KNOCKS[0][0] and self.rng.random() < 0.6:
            tap(self.forces, self.rng, impact_time(self.recordings.xio, (100.8, 101.0)) + shift)
            self.notes.append("tap on the platform")
        self.rest(1.5)

    def fault(self) -> None:
        kind = ("load-cell frozen", "imu zeros", "imu frozen", "link")[int(self.rng.integers(4))]
        seconds = self.rng.uniform(0.55, 2.0) if kind == "link" else self.rng.uniform(1.2, 3.0)
        begins = self.timeline.end + 1.5
        self.rest(1.5 + seconds + 2.0)
        self.faults.append((kind, begins, seconds))
        self.notes.append(kind)

    def flight(self) -> None:
        if self.source.name == "xio":
            self._xio_flight()
        else:
            self._ncsu_flight()

    def _xio_flight(self) -> None:
        xio = self.recordings.xio
        self.rest(self.rng.uniform(0.5, 2.0))
        shift = self.timeline.append(xio.window(*XIO_LIFT))
        self.truth.append(Truth(self.recordings.xio_lift + shift, "lift", self.mass))
        chosen = [piece for piece in XIO_MIDDLE if self.rng.random() < 0.4]
        holds = []
        for start, end, windows in chosen:
            shift = self.timeline.append(xio.window(start, end))
            holds += [(a + shift, b + shift) for a, b in windows]
        if holds and self.presents and self.rng.random() < 0.25:
            low, high = holds[int(self.rng.integers(len(holds)))]
            self._drop(float(self.rng.uniform(low, high)))
            self.notes.append("drop in flight")
        self.notes.append(f"x-io flight with {len(chosen)} middle pieces")
        if self.rng.random() < 0.5:
            shift = self.timeline.append(xio.window(*XIO_LAND))
            self._landed(self.recordings.xio_land + shift)
            return
        start = XIO_SOFT_LAND_STARTS[int(self.rng.integers(len(XIO_SOFT_LAND_STARTS)))]
        shift = self.timeline.append(xio.window(start, XIO_SOFT_LAND_END))
        self.notes.append("soft set-down")
        self._landed(self.recordings.xio_soft_land + shift)

    def _ncsu_flight(self) -> None:
        name, imu = self.source.name, self.source.imu
        shift = self.timeline.append(imu.window(*NCSU[name]["flight"]))
        self.truth.append(Truth(self.recordings.ncsu_lift[name] + shift, "lift", self.mass))
        impact = self.recordings.ncsu_land[name] + shift
        self.timeline.append(imu.window(*NCSU[name]["after"]))
        self._landed(impact)
        self.notes.append("MicroStrain flight")

    def _landed(self, impact: float) -> None:
        self.truth.append(Truth(impact, "land", self.mass))
        if self.presents and self.rng.random() < 0.15:
            self._drop(impact + float(self.rng.uniform(0.3, 1.5)))
            self.notes.append("drop after landing")
        elif self.rng.random() < 0.35:
            hand_left_on(self.forces, self.rng, impact)
            self.notes.append("hand left on")
        self.rest(self.rng.uniform(3.0, 6.0))

    def _drop(self, begins: float) -> None:
        grams = self.presents.pop(int(self.rng.integers(len(self.presents))))
        fall_away(self.forces, self.rng, begins, grams)
        self.truth.append(Truth(begins, "drop", self.mass))

    def compose(self) -> Challenge:
        rng = self.rng
        self.rest(rng.uniform(2.0, 5.0))
        before = ["load"] * int(rng.choice([0, 1, 1, 2, 2, 3]))
        if rng.random() < 0.35:
            before.append("knock")
        fault_at = rng.integers(3) if rng.random() < 0.35 else -1
        if fault_at == 0:
            before.append("fault")
        for step in rng.permutation(before):
            getattr(self, str(step))()
        flies = rng.random() < 0.85
        if flies:
            self.flight()
        if fault_at == 1:
            self.fault()
        if rng.random() < 0.3 or not flies:
            self.load()
        if fault_at == 2:
            self.fault()
        self.rest(rng.uniform(2.0, 4.0))
        return self._finish()

    def _finish(self) -> Challenge:
        t, acc, gyro = self.timeline.rows()
        force = load_cell_rows(t, acc, self.forces, self.recordings, self.rng, self.notes)
        t, force, acc, gyro = self._inject_faults(t, force, acc, gyro)
        start = float(self.rng.uniform(0.0, 30.0))  # the board's clock is not 0 at the start
        for event in self.truth:
            event.t += start
            if event.end is not None:
                event.end += start
        self.truth.sort(key=lambda event: event.t)
        return Challenge(self.seed, t + start, force, acc, gyro, self.truth, self.notes)

    def _inject_faults(self, t: np.ndarray, force: np.ndarray, acc: np.ndarray,
                       gyro: np.ndarray) -> tuple[np.ndarray, ...]:
        """Break a sensor in each fault's quiet stretch; the truth is its first bad row."""
        keep = np.ones(len(t), bool)
        for kind, begins, seconds in self.faults:
            first = int(np.searchsorted(t, begins))
            inside = (t >= t[first]) & (t < t[first] + seconds)
            if kind == "load-cell frozen":  # the HX711 stops converting: its last value stays
                force[inside] = force[first]
            elif kind == "imu zeros":
                acc[inside], gyro[inside] = 0.0, 0.0
            elif kind == "imu frozen":  # the same six values over and over
                acc[inside], gyro[inside] = acc[first], gyro[first]
            else:  # the link: no rows for ``seconds`` after the last one before the gap
                inside = (t > t[first]) & (t < t[first] + seconds)
                keep &= ~inside
            after = np.nonzero(~inside & (t > t[first]))[0]
            ends = float(t[after[0]]) if len(after) else float(t[-1])
            self.truth.append(Truth(float(t[first]), "fault", sensor=kind.split()[0], end=ends))
        return t[keep], force[keep], acc[keep], gyro[keep]


def load_cell_rows(t: np.ndarray, acc: np.ndarray, forces: Forces, recordings: Recordings,
                   rng: np.random.Generator, notes: list[str]) -> np.ndarray:
    """The tared reading on every IMU row: the latest HX711 conversion, held.

    The cell carries the platform (its own moving mass, bolted on, tared away at rest) and
    the presents; it reads their weight times the specific force along the platform's
    normal over its value at rest, plus the hands, averaged over each conversion, plus the
    real HX711's noise at its real reading times. The presents lie loose: they can only
    push on the platform, never pull (snatched down faster than they fall, they float)."""
    fine = np.arange(t[0] - 0.2, t[-1] + 0.2, 1 / FINE_HZ)
    share = np.interp(fine, t, acc[:, 2]) / float(np.mean(acc[t < t[0] + 1.0, 2]))
    platform = rng.uniform(3.0, 12.0)
    true_force = (platform * (share - 1) + np.maximum(forces.mass(fine) * share, 0.0)
                  + forces.hand(fine))
    times, noise, window = hx711_readings(float(t[0]), float(t[-1]), recordings, rng, notes)
    summed = np.concatenate([[0.0], np.cumsum(true_force)])
    ends = np.searchsorted(fine, times)
    starts = np.searchsorted(fine, times - window)
    readings = (summed[ends] - summed[starts]) / np.maximum(ends - starts, 1) + noise
    latest = np.clip(np.searchsorted(times, t, side="right") - 1, 0, len(times) - 1)
    return np.round(readings[latest], 4)


def hx711_readings(start: float, end: float, recordings: Recordings, rng: np.random.Generator,
                   notes: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Conversion times, their real noise (g, tared) and each conversion's span.

    Most challenges run the HX711 at 10 SPS, as the real logs were taken: their readings'
    own times and values (less the level of their first second, the tare). Some run it at
    80 SPS, the board's rate: the real log's slow wander at its own pace plus its
    reading-to-reading noise played at 80 SPS, scaled by the datasheet's noise ratio. A
    few begin from power-up, the startup log's first readings (0.5 g off) first."""
    steady = recordings.steady
    length = end - start + 1.0
    first = int(rng.integers(0, np.searchsorted(steady.t, steady.t[-1] - length - 5)))
    log_t = steady.t[first:] - steady.t[first]
    grams = steady.grams[first:] - float(np.mean(steady.grams[first:first + 12]))
    if rng.random() < 0.3:
        notes.append("HX711 at 80 SPS")
        slow = np.convolve(grams, np.ones(23) / 23, mode="same")
        times = np.arange(start + rng.uniform(0, 0.0125), end + 0.0125, 0.0125)
        times += rng.normal(0, 0.0003, len(times))
        fast = (grams - slow)[:len(times)] * HX711_80SPS_NOISE
        if len(fast) < len(times):
            fast = np.resize(fast, len(times))
        noise = np.interp(times - start, log_t, slow) + fast
        return times, noise, np.full(len(times), 0.0125)
    if rng.random() < 0.2:
        notes.append("from power-up")
        boot = recordings.startup
        level = float(np.median(boot.grams[10:60]))
        cut = int(np.searchsorted(boot.t, min(length, 20.0)))
        log_t = np.concatenate([boot.t[:cut], boot.t[cut - 1] + 0.086 + log_t])
        grams = np.concatenate([boot.grams[:cut] - level, grams])
    times = start + rng.uniform(0, 0.09) + log_t
    keep = times <= end + 0.1
    times, noise = times[keep], grams[keep]
    window = np.clip(np.diff(times, prepend=times[0] - 0.086), 0.02, 0.2)
    return times, noise, window


def compose(recordings: Recordings, seed: int) -> Challenge:
    """The challenge of ``seed``: the same stream and truth every time."""
    return Composer(recordings, seed).compose()


# ---------------------------------------------------------------- running and scoring


class DetectorFailed(Exception):
    """``packref drone events`` exited non-zero on a challenge."""


def detect(challenge: Challenge, folder: Path, keep: bool = False) -> tuple[list[dict], float]:
    """Run ``packref drone events`` on the challenge's CSV; its events and CPU seconds.

    With ``keep`` the CSV stays in ``folder`` beside its truth (``challenge-SEED.truth.json``)."""
    path = folder / f"challenge-{challenge.seed}.csv"
    path.write_text(challenge.csv())
    out, err = io.StringIO(), io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = packref_main(["drone", "events", str(path)])
    cpu = time.process_time() - started
    if keep:
        truth = [{key: value for key, value in vars(event).items() if value is not None}
                 for event in challenge.truth]
        path.with_suffix(".truth.json").write_text(
            json.dumps({"seed": challenge.seed, "notes": challenge.notes, "truth": truth},
                       indent=1) + "\n")
    else:
        path.unlink()
    if status != 0:
        raise DetectorFailed(f"packref exited {status}: {err.getvalue().strip()}")
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()], cpu


@dataclass
class Tally:
    """Matches of one kind over all challenges."""

    truth: int = 0
    found: int = 0
    false: int = 0
    timing: list[float] = field(default_factory=list)  # detected - truth, s
    mass: list[float] = field(default_factory=list)  # |mass_g - truth| g


@dataclass
class FaultTally:
    truth: int = 0
    found: int = 0  # the right sensor, within the tolerance
    wrong_sensor: int = 0
    false: int = 0
    cleared: int = 0  # a fault-cleared for it within 2 s of the sensor reading true again
    delay: list[float] = field(default_factory=list)


def match_events(truth: list[Truth], detected: list[dict], tallies: dict[str, Tally],
                 misses: list[str]) -> None:
    """Pair each true event with the nearest unpaired detection of its kind in tolerance."""
    for kind in KINDS:
        wanted = [event for event in truth if event.event == kind]
        seen = [event for event in detected if event.get("event") == kind]
        used: set[int] = set()
        tally = tallies[kind]
        tally.truth += len(wanted)
        for event in wanted:
            near = [(abs(found["t"] - event.t), index) for index, found in enumerate(seen)
                    if index not in used and abs(found["t"] - event.t) <= TOLERANCE[kind]]
            if not near:
                misses.append(f"missed {kind} at {event.t:.2f}")
                continue
            _, index = min(near)
            used.add(index)
            tally.found += 1
            tally.timing.append(seen[index]["t"] - event.t)
            tally.mass.append(abs(float(seen[index].get("mass_g", np.nan)) - event.mass_g))
        for index, found in enumerate(seen):
            if index not in used:
                tally.false += 1
                misses.append(f"false {kind} at {found['t']:.2f}")


def match_faults(truth: list[Truth], detected: list[dict], tally: FaultTally,
                 misses: list[str]) -> None:
    """Pair each injected fault with a fault line of its sensor reported in time."""
    wanted = [event for event in truth if event.event == "fault"]
    reports = [event for event in detected if event.get("event") == "fault"]
    clears = [event for event in detected if event.get("event") == "fault-cleared"]
    used: set[int] = set()
    tally.truth += len(wanted)
    for fault in wanted:
        def in_time(report: dict, fault: Truth = fault) -> bool:
            return fault.t - FAULT_EARLY <= report["t"] <= fault.t + FAULT_TOLERANCE
        right = [index for index, report in enumerate(reports)
                 if index not in used and in_time(report) and report.get("sensor") == fault.sensor]
        if right:
            used.add(right[0])
            tally.found += 1
            tally.delay.append(reports[right[0]]["t"] - fault.t)
            if any(event.get("sensor") == fault.sensor and fault.end is not None
                   and fault.end - FAULT_EARLY <= event["t"] <= fault.end + 2.0
                   for event in clears):
                tally.cleared += 1
            continue
        if any(in_time(report) for report in reports):
            tally.wrong_sensor += 1
        misses.append(f"missed {fault.sensor} fault at {fault.t:.2f}")
    for index, report in enumerate(reports):
        if index not in used:
            tally.false += 1
            misses.append(f"false {report.get('sensor')} fault at {report['t']:.2f}")


def _percentile(values: Sequence[float], share: float) -> float | None:
    return round(float(np.percentile(values, share)), 3) if len(values) else None


def run(data: Path, seed: int, count: int, verbose: bool = False,
        dump: Path | None = None) -> dict:
    """Compose, detect and score ``count`` challenges from ``seed`` on; the figures.

    A challenge the CLI fails on counts as one where nothing was detected (and is named);
    with ``dump`` every challenge's CSV and truth are kept in that folder."""
    recordings = load_recordings(data)
    tallies = {kind: Tally() for kind in KINDS}
    faults = FaultTally()
    cpu: list[float] = []
    failed: list[int] = []
    if dump is not None:
        dump.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="drone-apart-") as scratch:
        with contextlib.suppress(DetectorFailed):  # the CLI's first run imports its modules:
            detect(compose(recordings, seed), Path(scratch))  # not counted as CPU per challenge
        for number in range(seed, seed + count):
            challenge = compose(recordings, number)
            try:
                detected, seconds = detect(challenge, dump or Path(scratch), keep=dump is not None)
                cpu.append(seconds)
            except DetectorFailed as failure:
                print(f"seed {number}: {failure}", file=sys.stderr)
                failed.append(number)
                detected = []
            misses: list[str] = []
            match_events(challenge.truth, detected, tallies, misses)
            match_faults(challenge.truth, detected, faults, misses)
            if verbose and misses:
                print(f"seed {number} ({', '.join(challenge.notes)}): {'; '.join(misses)}",
                      file=sys.stderr)
    figures = summarise(tallies, faults, cpu, seed, count)
    figures["cli_failed_seeds"] = failed
    return figures


def summarise(tallies: dict[str, Tally], faults: FaultTally, cpu: list[float], seed: int,
              count: int) -> dict:
    kinds = {}
    for kind, tally in tallies.items():
        kinds[kind] = {
            "truth": tally.truth, "found": tally.found,
            "recall": round(tally.found / tally.truth, 4) if tally.truth else None,
            "false": tally.false,
            "timing_p50_s": _percentile(np.abs(tally.timing), 50),
            "timing_p95_s": _percentile(np.abs(tally.timing), 95),
            "timing_bias_s": _percentile(tally.timing, 50),  # median of detected - truth
            "mass_p95_g": _percentile(tally.mass, 95),
        }
    false_events = sum(tally.false for tally in tallies.values())
    per_challenge = statistics.mean(cpu) if cpu else 0.0
    return {
        "benchmark": "drone_apart", "seed": seed, "count": count,
        "tolerance_s": TOLERANCE, "kinds": kinds,
        "faults": {"truth": faults.truth, "found": faults.found,
                   "recall": round(faults.found / faults.truth, 4) if faults.truth else None,
                   "wrong_sensor": faults.wrong_sensor, "false": faults.false,
                   "cleared": faults.cleared, "delay_p95_s": _percentile(faults.delay, 95)},
        "false_events_per_100": round(100 * false_events / count, 2) if count else None,
        "cpu_per_challenge_s": round(per_challenge, 4),
        "cpu_per_challenge_ref": round(per_challenge / reference_seconds(), 2),
    }


def report(figures: dict) -> str:
    """The figures as text, for a person."""
    lines = [f"drone apart: {figures['count']} challenges from seed {figures['seed']} "
             f"(tolerance load/drop ±{TOLERANCE['load']} s, lift ±{TOLERANCE['lift']} s, "
             f"land ±{TOLERANCE['land']} s; faults {FAULT_TOLERANCE} s)",
             f"{'kind':6} {'truth':>5} {'found':>5} {'recall':>7} {'false':>5} "
             f"{'t p50':>6} {'t p95':>6} {'bias':>6} {'mass p95':>8}"]
    for kind, row in figures["kinds"].items():
        recall = f"{100 * row['recall']:.1f}%" if row["recall"] is not None else "-"
        lines.append(f"{kind:6} {row['truth']:5} {row['found']:5} {recall:>7} {row['false']:5} "
                     f"{_show(row['timing_p50_s'])} {_show(row['timing_p95_s'])} "
                     f"{_show(row['timing_bias_s'])} {_show(row['mass_p95_g'], 8)}")
    fault = figures["faults"]
    lines.append(f"faults: {fault['found']}/{fault['truth']} with the right sensor in time, "
                 f"{fault['wrong_sensor']} wrong sensor, {fault['false']} false, "
                 f"{fault['cleared']} cleared, delay p95 {fault['delay_p95_s']} s")
    lines.append(f"false events per 100 challenges: {figures['false_events_per_100']}")
    if figures.get("cli_failed_seeds"):
        lines.append(f"the CLI failed on seeds {figures['cli_failed_seeds']} (scored as nothing "
                     "detected)")
    lines.append(f"CPU per challenge: {figures['cpu_per_challenge_s'] * 1000:.1f} ms = "
                 f"{figures['cpu_per_challenge_ref']} ref")
    lines.append("aims: recall >= 99 % per kind, landings within 0.3 s, <= 1 false event per "
                 "100 challenges, mass p95 <= 0.5 g, every fault within 1.5 s, right sensor")
    return "\n".join(lines)


def _show(value: float | None, width: int = 6) -> str:
    return f"{value:{width}.3f}" if value is not None else f"{'-':>{width}}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed (develop on 0-99)")
    parser.add_argument("--count", type=int, default=100, help="challenges to run")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"the real recordings (default {DEFAULT_DATA})")
    parser.add_argument("--verbose", action="store_true", help="list each miss and false event")
    parser.add_argument("--dump", type=Path, default=None,
                        help="keep each challenge's CSV and truth JSON in this folder")
    arguments = parser.parse_args(argv)
    if not (arguments.data / "README.md").is_file():
        print(f"drone apart: skipped, no recordings at {arguments.data} (pass --data DIR)",
              file=sys.stderr)
        return 0
    print(reference_line(), file=sys.stderr)
    try:
        figures = run(arguments.data, arguments.seed, arguments.count, arguments.verbose,
                      arguments.dump)
    except DataMissing as missing:
        print(f"drone apart: skipped, {missing}", file=sys.stderr)
        return 0
    print(report(figures), file=sys.stderr)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
