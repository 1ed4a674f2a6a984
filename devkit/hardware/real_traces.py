"""Challenges composed from real sensor recordings, with their truth (a third trace family).

The recordings are public excerpts kept *outside* the project, in
``../shared/data/drone-real/`` beside the checkout (or wherever the
``PACKREF_DRONE_REAL`` environment variable points); one of them is GPL-3.0, so
they are read from there and never copied in. Without them
:func:`data_dir` returns None and the callers skip with :data:`MISSING`.

What is real and what is composed (docs/drone-events.md, "Real recordings"):

- **The IMU rows are real**: x-io's Fusion example data (a board at 100 Hz with
  its real timing jitter, axes and noise) cut into labelled pieces — the drone
  resting, a hand touching it (placing a present), two real pick-ups, hovers,
  carries, holds at 52–66° tilt, a set-down with a jolt and a soft set-down with
  the hand left on it — and the MicroStrain's fast hand flights (1 kHz, every
  tenth row kept; its resting offsets moved to the x-io's; only ``zminus``, whose
  noise at rest is the x-io's). Pieces are joined in
  the hand (where both sides are level and moving) with a 0.1 s cross-fade. A
  *leaning hover* is a real hover turned by 8–20° (the turn ramped in and out,
  its rate added to the gyro), so it keeps the real tremor.
- **The load cell's force** is the carried mass (presents, plus a hand pressing
  or resting) times the real specific force along the cell's axis (the
  accelerometer's z, divided by its resting value, so a resting mass reads its
  own grams and a tilted one m·cos θ), averaged over each real HX711 conversion
  (the coffee scale's own conversion times, ~11.6 a second), plus that
  conversion's real noise (the scale's raw counts at rest, /1874 g, with their
  wander). Every IMU row carries the latest conversion (a board that holds the
  slow reading between fast rows).
- **The truth**: loads at the moment the placing (or resting) hand lets go,
  drops when the present starts to fall, both exact by construction; lifts and
  touch-downs are labelled from the recordings (:data:`XIO_LIFTS`,
  :data:`XIO_TOUCHDOWNS`, :func:`microstrain_labels`): a lift at the hand's first
  upward push (the vertical specific force 0.3 m/s² above rest), a touch-down at the first row
  of the set-down's impact jolt, or — for the soft set-down, which has none —
  where the rotation rate falls from a carried hand's (≥ 5 °/s) to a resting
  hand's (< 3 °/s).

Seeds: :data:`DEV_SEEDS` for development; :data:`SEALED_SEEDS` are run once, at
the end (``benchmarks/drone.py --family real --sealed``).

Example::

    >>> folder = data_dir()
    >>> challenge = compose_challenge(3, load_recordings(folder)) if folder else None
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from hardware.samples import Samples

DATA_ENV = "PACKREF_DRONE_REAL"
MISSING = ("the real drone recordings are not here: put them in ../shared/data/drone-real/ "
           f"beside the checkout or point {DATA_ENV} at them")
G = 9.80665  # m/s² per g (docs/formats.md §7)
COUNTS_PER_G = 1874.0  # the coffee scale's own calibration when its logs were taken
DEV_SEEDS = range(0, 100_000)
SEALED_SEEDS = range(900_000, 900_200)
FADE_S = 0.1

# x-io Fusion pieces, in the recording's own seconds. See the module docstring for how
# the lift and touch-down instants were found; tests/devkit checks them against the rule.
XIO_RESTS = [(0.3, 12.4), (61.5, 64.8), (74.0, 79.8), (102.0, 115.3), (117.6, 134.8)]
XIO_HAND_TOUCH = (115.4, 117.9)  # a hand on the still drone, 115.65–117.3: placing a present
XIO_LIFTS = {"first": (13.64, 12.30, 14.90), "second": (80.53, 79.70, 81.50)}  # (lift, from, to)
XIO_HOVERS = [(25.6, 29.4), (41.0, 44.4), (46.0, 49.4), (52.0, 54.4), (86.5, 89.0)]
XIO_CARRIES = [(44.5, 46.0), (49.5, 52.0), (81.5, 86.5), (89.0, 93.0)]
XIO_STEEP_HOLDS = [(15.0, 25.4), (30.0, 40.8)]  # level → 52–66° held → level
XIO_TOUCHDOWNS = {"jolted": (57.84, 56.0, 61.4), "soft-hand": (94.58, 93.0, 97.6)}


@dataclass
class Recording:
    """An IMU recording in the board's units: t s, accel (3, n) m/s², gyro (3, n) °/s."""

    t: np.ndarray
    accel: np.ndarray
    gyro: np.ndarray
    bias: np.ndarray = field(default_factory=lambda: np.zeros(3))  # the gyro's at rest

    def __post_init__(self) -> None:
        if not self.bias.any() and len(self.t):
            self.bias = np.median(self.gyro[:, self.t < self.t[0] + 0.3], axis=1)

    def between(self, start: float, end: float) -> Recording:
        keep = (self.t >= start) & (self.t < end)
        return Recording(self.t[keep], self.accel[:, keep], self.gyro[:, keep], self.bias)


@dataclass
class Recordings:
    """Every recording a composition draws from."""

    xio: Recording
    microstrain: list[Recording]  # resampled to 100 Hz, offsets moved to the x-io's
    microstrain_flights: list[tuple[float, float]]  # (lift, touch-down), from the 1 kHz rows
    hx711_t: np.ndarray  # conversion times, s (the scale at rest, 600 s)
    hx711_g: np.ndarray  # grams, less the first second's median (the real noise and wander)


@dataclass
class RealChallenge:
    """One composed challenge: samples, truth, and where its flights and pieces are."""

    seed: int
    samples: Samples
    truth: list[dict]
    flights: list[tuple[float, float]] = field(default_factory=list)  # (lift, touch-down)
    story: list[str] = field(default_factory=list)  # the pieces, for a person reading it

    def __repr__(self) -> str:
        return (f"<RealChallenge seed={self.seed} {len(self.samples)} rows, "
                f"{self.samples.duration:.1f} s, {len(self.truth)} truth events>")


def data_dir() -> Path | None:
    """The recordings' folder, or None when it is absent: ``$PACKREF_DRONE_REAL``, else
    ``shared/data/drone-real`` beside the checkout (or beside a folder holding it, as for
    a second worktree of the repository)."""
    named = os.environ.get(DATA_ENV)
    checkout = Path(__file__).resolve().parents[2]
    candidates = [Path(named)] if named else [parent / "shared" / "data" / "drone-real"
                                              for parent in checkout.parents]
    return next((folder for folder in candidates
                 if (folder / "xio_fusion_sensor_data.csv").is_file()), None)


# -- loaders --------------------------------------------------------------------------


def load_xio(folder: Path) -> Recording:
    """x-io's Fusion example: time s, gyroscope °/s, accelerometer g (every row)."""
    table = _table(folder / "xio_fusion_sensor_data.csv")
    return Recording(table[:, 0], table[:, 4:7].T * G, table[:, 1:4].T)


def load_microstrain(folder: Path, name: str) -> Recording:
    """A MicroStrain flight (``zplus`` or ``zminus``) at its own 1 kHz: ns, g, rad/s.

    ``zminus`` was recorded upside down: it is turned over about x (y and z negated)."""
    table = _table(folder / f"ncsu_airbrakes_{name}.csv")
    t = (table[:, 0] - table[0, 0]) * 1e-9
    accel, gyro = table[:, 1:4].T * G, np.degrees(table[:, 4:7].T)
    if name == "zminus":
        accel[1:] *= -1
        gyro[1:] *= -1
    return Recording(t, accel, gyro)


def load_hx711(folder: Path, name: str = "steadystate") -> tuple[np.ndarray, np.ndarray]:
    """The coffee scale's HX711 log: conversion times s and grams (counts / 1874)."""
    table = _table(folder / f"coffee_scales_{name}.csv")
    return table[:, 0], table[:, 1] / COUNTS_PER_G


@lru_cache(maxsize=2)
def load_recordings(folder: Path) -> Recordings:
    """Every recording, read once per folder."""
    xio = load_xio(folder)
    rest = xio.between(*XIO_RESTS[0])
    # zplus's gyro shivers ~2 °/s at rest, five times the x-io's: spliced into an x-io
    # stream it would be a second board's noise in one stream. Only zminus is used.
    raw = [load_microstrain(folder, "zminus")]
    flights = [_like_xio(_every_tenth(recording), rest) for recording in raw]
    times, grams = load_hx711(folder)
    first_second = times < times[0] + 1.0
    return Recordings(xio, flights, [microstrain_labels(recording) for recording in raw],
                      times - times[0], grams - np.median(grams[first_second]))


def _table(path: Path) -> np.ndarray:
    return np.genfromtxt(path, delimiter=",", skip_header=1, dtype=float)


def _every_tenth(recording: Recording) -> Recording:
    return Recording(recording.t[::10], recording.accel[:, ::10], recording.gyro[:, ::10],
                     recording.bias)


def _like_xio(recording: Recording, xio_rest: Recording) -> Recording:
    """The MicroStrain's resting offsets moved to the x-io's (one board per stream)."""
    own = recording.between(0.0, 1.2)
    accel_shift = np.median(xio_rest.accel, axis=1) - np.median(own.accel, axis=1)
    gyro_shift = np.median(xio_rest.gyro, axis=1) - np.median(own.gyro, axis=1)
    return Recording(recording.t, recording.accel + accel_shift[:, None],
                     recording.gyro + gyro_shift[:, None], recording.bias + gyro_shift)


# -- labels from the data ---------------------------------------------------------------


def lift_onset(recording: Recording, start: float, end: float) -> float:
    """The hand's first upward push: the first row where the specific force along the
    resting vertical (50 ms mean, less its resting value; the window's first 0.3 s are
    the rest) exceeds 0.3 m/s². The grasp before it only tips the drone a degree or two."""
    part = recording.between(start, end)
    rest = part.accel[:, part.t < part.t[0] + 0.3]
    up = np.median(rest, axis=1)
    vertical = _smooth(up @ part.accel / np.linalg.norm(up) - np.linalg.norm(up), 5)
    rising = np.flatnonzero(vertical > 0.3)
    if not len(rising):
        raise ValueError(f"no lift between {start} and {end} s")
    return float(part.t[int(rising[0])])


def impact_onset(recording: Recording, start: float, end: float) -> float:
    """The first row of the set-down's impact in ``[start, end)``: of the cluster of rows
    where |a| changes by 0.25 g or more from the row before (each within 0.1 s of the
    next) that holds the largest change (a bounce after it is smaller)."""
    part = recording.between(start, end)
    steps = np.abs(np.diff(np.linalg.norm(part.accel, axis=0)))
    jumps = np.flatnonzero(steps > 0.25 * G)
    if not len(jumps):
        raise ValueError(f"no impact between {start} and {end} s")
    first = int(np.argmax(steps[jumps]))
    while first > 0 and part.t[jumps[first]] - part.t[jumps[first - 1]] < 0.1:
        first -= 1
    return float(part.t[jumps[first] + 1])


def settle_onset(recording: Recording, start: float, end: float) -> float:
    """Where the rotation rate falls from a carried hand's (≥ 5 °/s) to a resting hand's:
    the first row after the last 50 ms window whose rate reaches 5 °/s."""
    part = recording.between(start, end)
    rate = _smooth(_rate(part), 5)
    moving = np.flatnonzero(rate >= 5.0)
    return float(part.t[int(moving[-1]) + 1])


def microstrain_labels(recording: Recording) -> tuple[float, float]:
    """(lift, touch-down) of a MicroStrain flight."""
    return lift_onset(recording, 0.8, 2.0), impact_onset(recording, 2.2, 3.0)


def _rate(recording: Recording) -> np.ndarray:
    """|ω| less the gyro's resting bias (the median of the recording's first 0.3 s, at rest)."""
    return np.linalg.norm(recording.gyro - recording.bias[:, None], axis=0)


def _smooth(values: np.ndarray, width: int) -> np.ndarray:
    return np.convolve(values, np.ones(width) / width, mode="same")


# -- composing a challenge -----------------------------------------------------------------


@dataclass
class _Piece:
    """Rows of a recording placed in the challenge, and what they show."""

    recording: Recording
    what: str


@dataclass
class _Story:
    """The challenge being written: IMU pieces in order, the mass on the cell, the truth."""

    rng: np.random.Generator
    recordings: Recordings
    pieces: list[_Piece] = field(default_factory=list)
    now: float = 0.0  # challenge time at the end of the pieces so far
    carried: float = 0.0
    # (from, seconds, grams): from a time the mass on the cell ramps to grams in seconds
    mass_steps: list[tuple[float, float, float]] = field(default_factory=list)
    truth: list[dict] = field(default_factory=list)
    flights: list[tuple[float, float]] = field(default_factory=list)

    def add(self, recording: Recording, what: str) -> float:
        """Append rows; returns the challenge time of the first of them."""
        start = self.now if not self.pieces else self.now - FADE_S
        self.pieces.append(_Piece(recording, what))
        self.now = start + float(recording.t[-1] - recording.t[0])
        return start

    def at(self, recording_t: float, recording: Recording, start: float) -> float:
        """The challenge time of an instant of a piece that starts at ``start``."""
        return start + recording_t - float(recording.t[0])

    def step_mass(self, at: float, grams: float, seconds: float = 0.05) -> None:
        self.mass_steps.append((at, seconds, grams))


def compose_challenge(seed: int, recordings: Recordings) -> RealChallenge:
    """One challenge from the real pieces, reproducible from ``seed``: 1–3 presents each
    loaded on the resting drone (sometimes with a hand resting still on it a moment),
    lifted, carried (hovers, leaning hovers, steep holds, carries), landed (a jolt, or
    softly with the hand left on), sometimes a present falls (in flight or after)."""
    rng = np.random.default_rng([seed, 31])
    story = _Story(rng, recordings)
    _rest(story, float(rng.uniform(2.0, 3.5)))
    for _round in range(int(rng.integers(1, 4))):
        _load(story)
        _rest(story, float(rng.uniform(0.8, 2.0)))
        fell = _flight(story)
        _rest(story, float(rng.uniform(1.2, 2.0)))
        if fell:
            break
        if story.carried > 0 and rng.random() < 0.12:  # a present slides off the table
            _drop(story, story.now - float(rng.uniform(0.6, 1.0)))
            _rest(story, 1.5)
            break
    _rest(story, float(rng.uniform(1.5, 2.5)))
    samples = _samples(story)
    story.truth.sort(key=lambda event: event["t"])
    return RealChallenge(seed, samples, story.truth, story.flights,
                         [piece.what for piece in story.pieces])


def _present_mass(rng: np.random.Generator) -> float:
    if rng.random() < 0.4:  # a paper present
        return float(rng.uniform(2.0, 5.0))
    return float(rng.uniform(6.0, 60.0))


def _rest(story: _Story, seconds: float) -> None:
    """The drone still on the table for ``seconds`` (a piece of a real rest)."""
    first, last = XIO_RESTS[int(story.rng.integers(len(XIO_RESTS)))]
    length = min(seconds + FADE_S, last - first)
    begin = float(story.rng.uniform(first, last - length))
    story.add(story.recordings.xio.between(begin, begin + length), f"rest {length:.1f} s")


def _load(story: _Story) -> None:
    """A hand places a present (the real touch), maybe rests still on it, lets go."""
    rng = story.rng
    mass = _present_mass(rng)
    before = story.carried
    start = story.add(story.recordings.xio.between(*XIO_HAND_TOUCH), "hand places a present")
    press = float(rng.uniform(2.0, 25.0))  # the hand pushes while it places
    story.step_mass(start + 0.25, before + mass + press, float(rng.uniform(0.1, 0.3)))
    release = start + float(rng.uniform(1.75, 1.95))  # as the hand's shiver ends
    if rng.random() < 0.35:  # the hand rests on the present, too still for the IMU to feel
        story.step_mass(release - 0.3, before + mass + float(rng.uniform(3.0, 20.0)), 0.2)
        _rest(story, float(rng.uniform(0.6, 1.4)))
        release = story.now - FADE_S - 0.05
        story.pieces[-1].what += " (a hand resting still on the present)"
    story.step_mass(release, before + mass, 0.08)
    story.carried = before + mass
    story.truth.append({"t": release + 0.08, "event": "load", "mass_g": story.carried})


def _flight(story: _Story) -> bool:
    """Lift, carry, land; True when the present fell in the air (the challenge ends)."""
    rng = story.rng
    if rng.random() < 0.2:
        return _microstrain_flight(story)
    xio = story.recordings.xio
    name = "first" if rng.random() < 0.5 else "second"
    lift, first, last = XIO_LIFTS[name]
    piece = xio.between(first, last)
    start = story.add(piece, f"the {name} real lift")
    lift_at = story.at(lift, piece, start)
    story.truth.append({"t": lift_at, "event": "lift", "mass_g": story.carried})
    fell = False
    for _ in range(int(rng.integers(1, 4))):
        piece_start = _carry_piece(story)
        if not fell and story.carried > 0 and rng.random() < 0.08:
            _drop(story, piece_start + float(rng.uniform(0.4, 1.0)))
            fell = True
    kind = "jolted" if rng.random() < 0.5 else "soft-hand"
    touchdown, first, last = XIO_TOUCHDOWNS[kind]
    piece = xio.between(first, last)
    start = story.add(piece, f"a {kind} real set-down")
    land_at = story.at(touchdown, piece, start)
    story.truth.append({"t": land_at, "event": "land", "mass_g": story.carried})
    story.flights.append((lift_at, land_at))
    if fell:
        return True
    if story.carried > 0 and rng.random() < 0.12:  # it falls off just after the landing
        _drop(story, land_at + float(rng.uniform(1.0, 2.5)))
        return True
    return False


def _carry_piece(story: _Story) -> float:
    """A hover (maybe leant 8–20°), a carry, or a steep hold; its challenge start time."""
    rng, xio = story.rng, story.recordings.xio
    roll = rng.random()
    if roll < 0.35:
        first, last = XIO_HOVERS[int(rng.integers(len(XIO_HOVERS)))]
        lean = float(rng.uniform(8.0, 20.0))
        return story.add(_leant(xio.between(first, last), lean, rng), f"a hover leant {lean:.0f}°")
    if roll < 0.55:
        first, last = XIO_HOVERS[int(rng.integers(len(XIO_HOVERS)))]
        return story.add(xio.between(first, last), "a still hover")
    if roll < 0.85:
        first, last = XIO_CARRIES[int(rng.integers(len(XIO_CARRIES)))]
        return story.add(xio.between(first, last), "a carry")
    first, last = XIO_STEEP_HOLDS[int(rng.integers(len(XIO_STEEP_HOLDS)))]
    return story.add(xio.between(first, last), "a steep hold")


def _microstrain_flight(story: _Story) -> bool:
    """A fast real hand flight (MicroStrain): lifted, moved up and down, set down hard."""
    index = int(story.rng.integers(len(story.recordings.microstrain)))
    recording = story.recordings.microstrain[index]
    lift, touchdown = story.recordings.microstrain_flights[index]
    piece = recording.between(lift - 0.4, touchdown + 0.4)
    start = story.add(piece, "a fast real flight")
    lift_at, land_at = story.at(lift, piece, start), story.at(touchdown, piece, start)
    story.truth.append({"t": lift_at, "event": "lift", "mass_g": story.carried})
    story.truth.append({"t": land_at, "event": "land", "mass_g": story.carried})
    story.flights.append((lift_at, land_at))
    return False


def _drop(story: _Story, at: float) -> None:
    """The top present falls off at ``at`` (its mass leaves the cell in 0.05 s)."""
    fallen = min(story.carried, _present_mass(story.rng))
    story.carried = max(0.0, story.carried - fallen)
    story.step_mass(at, story.carried)
    story.truth.append({"t": at, "event": "drop", "mass_g": story.carried})


def _leant(recording: Recording, degrees: float, rng: np.random.Generator) -> Recording:
    """The recording turned about a horizontal axis by ``degrees``, ramped in over its
    first 0.6 s and out over its last 0.6 s; the turn's rate is added to the gyro."""
    t = recording.t - recording.t[0]
    ramp = np.clip(np.minimum(t, t[-1] - t) / 0.6, 0.0, 1.0)
    ramp = ramp * ramp * (3 - 2 * ramp)  # smooth start and end
    angle = np.radians(degrees) * ramp
    heading = float(rng.uniform(0, 2 * np.pi))
    axis = np.array([np.cos(heading), np.sin(heading), 0.0])
    accel = _rotated(recording.accel, axis, angle)
    gyro = _rotated(recording.gyro, axis, angle)
    rate = np.degrees(np.gradient(angle, recording.t))
    return Recording(recording.t, accel, gyro + axis[:, None] * rate, recording.bias)


def _rotated(vectors: np.ndarray, axis: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """Rodrigues' rotation of each column by its own angle about one unit axis."""
    cos, sin = np.cos(angle), np.sin(angle)
    cross = np.cross(axis, vectors.T).T
    dot = axis @ vectors
    return vectors * cos + cross * sin + axis[:, None] * dot * (1 - cos)


# -- the samples -----------------------------------------------------------------------------


def _samples(story: _Story) -> Samples:
    """The pieces joined into one stream (cross-faded), with the load cell's readings."""
    t, accel, gyro = _joined(story)
    rest = np.median(story.recordings.xio.between(*XIO_RESTS[0]).accel[2])
    # The cell's axis is the platform's z. It cannot pull: a platform sinking faster than
    # a fall (a fast hand's downward jerk) leaves the presents floating, reading 0.
    force = _mass(story, t) * np.maximum(accel[2], 0.0) / rest
    return Samples(t, _hx711(story, t, force), accel[0], accel[1], accel[2],
                   gyro[0], gyro[1], gyro[2])


def _joined(story: _Story) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every piece's rows at its challenge time, up to the next piece's start; the next
    piece's first ``FADE_S`` blended from the last one's values at its own times."""
    times, accels, gyros = [], [], []
    start = 0.0
    previous: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    for index, piece in enumerate(story.pieces):
        recording = piece.recording
        t = start + recording.t - recording.t[0]
        accel, gyro = recording.accel.copy(), recording.gyro.copy()
        if previous is not None:
            fade = t < start + FADE_S
            weight = (t[fade] - start) / FADE_S
            old_t, old_accel, old_gyro = previous
            for axis in range(3):
                accel[axis, fade] = (weight * accel[axis, fade] + (1 - weight)
                                     * np.interp(t[fade], old_t, old_accel[axis]))
                gyro[axis, fade] = (weight * gyro[axis, fade] + (1 - weight)
                                    * np.interp(t[fade], old_t, old_gyro[axis]))
        following = index + 1 < len(story.pieces)
        end = start + float(recording.t[-1] - recording.t[0]) - FADE_S if following else np.inf
        keep = t < end
        times.append(t[keep])
        accels.append(accel[:, keep])
        gyros.append(gyro[:, keep])
        previous = (t, recording.accel, recording.gyro)
        start = end
    return np.concatenate(times), np.concatenate(accels, axis=1), np.concatenate(gyros, axis=1)


def _mass(story: _Story, t: np.ndarray) -> np.ndarray:
    """The grams on the cell at each time: each step ramps to its grams, then holds."""
    mass = np.zeros_like(t)
    for at, seconds, grams in sorted(story.mass_steps):
        share = np.clip((t - at) / seconds, 0.0, 1.0) if seconds > 0 else (t >= at) * 1.0
        mass = mass + share * (grams - mass)
    return mass


def _hx711(story: _Story, t: np.ndarray, force: np.ndarray) -> np.ndarray:
    """The real HX711's conversions: each the force averaged over its conversion, plus
    that conversion's real noise; every row holds the latest conversion."""
    times, noise = story.recordings.hx711_t, story.recordings.hx711_g
    span = float(t[-1] - t[0]) + 1.0
    first = int(story.rng.integers(0, max(1, np.searchsorted(times, times[-1] - span))))
    ends = times[first:] - times[first] + float(story.rng.uniform(0.0, 0.09))
    count = int(np.searchsorted(ends, t[-1], side="right"))
    ends, noise = ends[:count], noise[first:first + count] - np.median(noise[first:first + 10])
    sums = np.concatenate([[0.0], np.cumsum(force)])
    edges = np.searchsorted(t, ends, side="right")
    starts = np.concatenate([[0], edges[:-1]])
    rows = np.maximum(edges - starts, 1)
    readings = (sums[edges] - sums[starts]) / rows + noise
    latest = np.searchsorted(ends, t, side="right") - 1
    return np.where(latest >= 0, readings[np.maximum(latest, 0)], readings[0])
