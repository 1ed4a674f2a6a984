"""A simulator of the drone's sensors during a Pick 'n Packers challenge, with the truth.

It plays a challenge — presents placed by a hand that presses and wobbles, lifts
by two trembling fingers that tilt the platform, flights with knocks, landings
with an impact, presents falling in flight or after landing, knocks on the
table — and samples what the load cell and the IMU would read: noise, zero
drift, a lag of the load cell behind the IMU, lost rows and the odd spike.

Example::

    >>> run = simulate_challenge(seed=7)
    >>> run
    <SimulatedRun seed=7 ... truth events>
    >>> run.truth[0]["event"]
    'load'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from hardware.samples import Samples

GRAVITY = 9.80665


@dataclass(frozen=True)
class SimulationOptions:
    """How hard the simulated world is. Defaults match the benchmark's aims."""

    rate_hz: float = 100.0  # IMU rows per second
    load_cell_rate_hz: float = 80.0  # HX711 readings per second
    max_lag_s: float = 0.020  # load cell behind the IMU
    max_tremor: float = 2.0  # m/s², peak hand tremor in flight
    force_noise_g: tuple[float, float] = (0.02, 0.06)
    accel_noise: float = 0.03  # m/s² rms
    gyro_noise: float = 0.08  # dps rms
    max_drift_g_per_min: float = 0.3
    lost_fraction: float = 0.01  # single rows lost
    lost_bursts: int = 2  # runs of 5..25 lost rows
    spikes_per_minute: float = 3.0
    drop_in_flight: float = 0.06  # probability per flight
    drop_after_landing: float = 0.03
    drop_on_table: float = 0.01  # a present falls while the drone waits
    knock_on_table: float = 0.25  # per card
    knock_in_flight: float = 0.15
    fumble: float = 0.08  # a present slips away while being placed (no event)
    press_at_rest: float = 0.3  # per card: a hand presses the stack while the drone waits
    press_imu_accel: tuple[float, float] = (0.1, 0.8)  # m/s²: the hand's tremor in the drone
    press_tilt_deg: float = 0.5  # a press off-centre tilts the platform on its feet this much
    first_placement_s: tuple[float, float] = (1.0, 2.0)  # the first hand comes this soon
    cards: int = 9  # flights to go: 9 is the whole circuit back to "0/9"
    min_present_g: float = 2.0
    max_present_g: float = 35.0


@dataclass
class _Placement:
    start: float
    end: float
    mass: float
    press_g: float
    wobble_g: float
    contact_g: float  # a finger resting on the present pushes at least this
    fumble: bool
    wobble: list[tuple[float, float, float]]
    imu_accel: float = 0.0  # m/s² of the hand's tremor in the platform (see _shiver_placement)
    tilt: float = 0.0
    imu_waves: list[tuple[float, float, float, int]] = field(default_factory=list)


@dataclass
class _Press:
    """A hand pushing on the stack, the drone still on the table: force, and a shiver."""

    start: float
    seconds: float
    force_g: float
    imu_accel: float  # m/s², the hand's tremor reaching the platform
    tilt: float  # radians
    waves: list[tuple[float, float, float, int]]


@dataclass
class _Flight:
    lift: float
    land: float
    up_s: float
    up_accel: float
    down_s: float
    down_accel: float
    impact: float
    carry_accel: float
    tremor: float
    tremor_waves: list[tuple[float, float, float, int]]
    tilt_waves: list[tuple[float, float, float, int]]


@dataclass
class _Jolt:
    """A damped ring of the platform: a knock, an impact or a present hitting the table."""

    t: float
    amplitude: float
    frequency: float
    decay_s: float
    stack_share: float = 0.1  # how much the stack rocks beyond the platform


@dataclass
class _Script:
    duration: float
    placements: list[_Placement] = field(default_factory=list)
    flights: list[_Flight] = field(default_factory=list)
    jolts: list[_Jolt] = field(default_factory=list)
    presses: list[_Press] = field(default_factory=list)
    falls: list[tuple[float, float, float]] = field(default_factory=list)  # (t, mass, seconds)
    truth: list[dict] = field(default_factory=list)


@dataclass
class SimulatedRun:
    """Samples of one simulated challenge and the events that really happened."""

    seed: int
    samples: Samples
    truth: list[dict]
    lag_s: float

    def __repr__(self) -> str:
        return (f"<SimulatedRun seed={self.seed} {len(self.samples)} rows, "
                f"{self.samples.duration:.1f} s, {len(self.truth)} truth events>")


def simulate_challenge(seed: int, options: SimulationOptions | None = None) -> SimulatedRun:
    """One challenge from card 0 towards card 9, reproducible from ``seed``."""
    options = options or SimulationOptions()
    rng = np.random.default_rng(seed)
    # Presses draw from their own generator: without them the stream is the one it
    # always was for this seed.
    script = _write_script(rng, options, np.random.default_rng([seed, 1]))
    samples, lag = _sample(script, rng, options)
    return SimulatedRun(seed, samples, script.truth, lag)


# -- the story of a challenge --------------------------------------------------------


def _write_script(rng: np.random.Generator, options: SimulationOptions,
                  extra: np.random.Generator) -> _Script:
    script = _Script(duration=0.0)
    now = float(rng.uniform(*options.first_placement_s))
    carried = 0.0
    for _card in range(options.cards):
        now, carried = _load_present(script, rng, options, now, carried)
        _shiver_placement(script.placements[-1], extra, options)
        if extra.random() < options.press_at_rest:
            now = _press(script, extra, options, now + float(extra.uniform(0.7, 1.0)))
        now += float(rng.uniform(0.7, 1.6))
        if rng.random() < options.drop_on_table and carried > 0:
            now, carried = _fall(script, rng, now, carried, on_table=True)
            break
        now, carried, fell = _fly(script, rng, options, now, carried)
        if fell:
            break
        now += float(rng.uniform(0.5, 1.0))
        if rng.random() < options.drop_after_landing:
            now, carried = _fall(script, rng, now, carried, on_table=True)
            break
    script.duration = now + float(rng.uniform(1.0, 2.0))
    script.truth.sort(key=lambda event: event["t"])
    return script


def _present_mass(rng: np.random.Generator, options: SimulationOptions) -> float:
    if rng.random() < 0.4:  # a paper present
        return float(rng.uniform(options.min_present_g, 5.0))
    return float(rng.uniform(6.0, options.max_present_g))


def _load_present(script, rng, options, now, carried):
    if rng.random() < options.fumble:
        _add_placement(script, rng, now, _present_mass(rng, options), fumble=True)
        now += script.placements[-1].end - now + float(rng.uniform(0.8, 1.5))
    mass = _present_mass(rng, options)
    _add_placement(script, rng, now, mass, fumble=False)
    end = script.placements[-1].end
    carried += mass
    script.truth.append({"t": end, "event": "load", "mass_g": carried})
    if rng.random() < options.knock_on_table:
        knock_at = end + float(rng.uniform(0.25, 0.5))
        script.jolts.append(_Jolt(knock_at, float(rng.uniform(1.0, 8.0)),
                                  float(rng.uniform(20, 45)), float(rng.uniform(0.015, 0.04))))
    return end, carried


def _press(script, rng, options, start) -> float:
    """A hand pushes the loaded stack for 0.25–0.7 s; returns when the drone is left alone."""
    seconds = float(rng.uniform(0.25, 0.7))
    script.presses.append(_Press(
        start, seconds, float(rng.uniform(5.0, 40.0)), float(rng.uniform(*options.press_imu_accel)),
        math.radians(float(rng.uniform(-1, 1)) * options.press_tilt_deg),
        _waves(rng, 3, 6.0, 12.0)))
    return start + seconds + float(rng.uniform(0.4, 0.6))


def _shiver_placement(placement, rng, options) -> None:
    """The placing hand's tremor reaches the platform too (a press with the drone still)."""
    placement.imu_accel = float(rng.uniform(*options.press_imu_accel))
    placement.tilt = math.radians(float(rng.uniform(-1, 1)) * options.press_tilt_deg)
    placement.imu_waves = _waves(rng, 3, 6.0, 12.0)


def _add_placement(script, rng, start, mass, fumble):
    duration = float(rng.uniform(0.5, 1.5))
    waves = [(float(rng.uniform(1.5, 8.0)), float(rng.uniform(0, 2 * math.pi)),
              float(rng.uniform(0.5, 1.0)), 0) for _ in range(2)]
    waves.append((float(rng.uniform(6.0, 12.0)), float(rng.uniform(0, 2 * math.pi)), 0.7, 0))
    script.placements.append(_Placement(
        start, start + duration, mass, press_g=float(rng.uniform(0.0, 2.5)) * mass + 1.0,
        wobble_g=float(rng.uniform(0.4, 2.0)), contact_g=float(rng.uniform(0.5, 2.0)),
        fumble=fumble, wobble=waves))
    if fumble:  # the present slips off and hits the table
        script.jolts.append(_Jolt(start + duration + 0.2, float(rng.uniform(0.3, 1.5)), 35.0, 0.02))


def _fly(script, rng, options, lift, carried):
    duration = float(rng.uniform(1.2, 3.5))
    land = lift + duration
    tremor = float(rng.uniform(0.3, options.max_tremor))
    script.flights.append(_Flight(
        lift, land, up_s=float(rng.uniform(0.15, 0.35)), up_accel=float(rng.uniform(1.0, 4.0)),
        down_s=float(rng.uniform(0.15, 0.35)), down_accel=float(rng.uniform(1.0, 3.0)),
        impact=float(rng.uniform(4.0, 25.0)), carry_accel=float(rng.uniform(0.5, 2.0)),
        tremor=tremor, tremor_waves=_waves(rng, 4, 3.0, 12.0),
        tilt_waves=_waves(rng, 3, 0.3, 1.5)))
    script.jolts.append(_Jolt(land, script.flights[-1].impact, float(rng.uniform(20, 40)),
                              float(rng.uniform(0.02, 0.04)), stack_share=0.15))
    script.truth.append({"t": lift, "event": "lift", "mass_g": carried})
    if rng.random() < options.knock_in_flight:
        script.jolts.append(_Jolt(float(rng.uniform(lift + 0.5, land - 0.3)),
                                  float(rng.uniform(2.0, 8.0)), 30.0, 0.02))
    fell = carried > 0 and rng.random() < options.drop_in_flight
    if fell:
        at = float(rng.uniform(lift + 0.3, land - 0.25))
        _, carried = _fall(script, rng, at, carried, on_table=False)
    script.truth.append({"t": land, "event": "land", "mass_g": carried})
    return land, carried, fell


def _fall(script, rng, at, carried, on_table):
    top = [p.mass for p in script.placements if not p.fumble]
    lost = top[-1] if top else carried
    if rng.random() < 0.2 and len(top) > 1:  # two presents at once
        lost = top[-1] + top[-2]
    lost = min(lost, carried)
    seconds = float(rng.uniform(0.05, 0.2))
    script.falls.append((at, lost, seconds))
    carried -= lost
    script.truth.append({"t": at, "event": "drop", "mass_g": carried})
    if on_table:
        script.jolts.append(_Jolt(at + seconds + 0.15, float(rng.uniform(0.3, 2.0)), 35.0, 0.02))
    return at + seconds, carried


def _waves(rng, count, low_hz, high_hz):
    return [(float(rng.uniform(low_hz, high_hz)), float(rng.uniform(0, 2 * math.pi)),
             float(rng.uniform(0.4, 1.0)), int(rng.integers(0, 3))) for _ in range(count)]


# -- signals of the story -------------------------------------------------------------


def _bump(t: np.ndarray, start: float, seconds: float) -> np.ndarray:
    """sin² bump from ``start`` lasting ``seconds``: zero with zero slope at both ends."""
    x = (t - start) / seconds
    return np.where((x > 0) & (x < 1), np.sin(np.pi * np.clip(x, 0, 1)) ** 2, 0.0)


def _ramp(t: np.ndarray, start: float, seconds: float) -> np.ndarray:
    """Smooth 0→1 step from ``start`` lasting ``seconds``."""
    x = np.clip((t - start) / seconds, 0.0, 1.0)
    return 0.5 - 0.5 * np.cos(np.pi * x)


def _wave_sum(t: np.ndarray, waves, axis: int | None = None) -> np.ndarray:
    total = np.zeros_like(t)
    for frequency, phase, weight, wave_axis in waves:
        if axis is None or wave_axis == axis:
            total += weight * np.sin(2 * np.pi * frequency * t + phase)
    return total / max(1.0, sum(w for _, _, w, a in waves if axis is None or a == axis))


def _flight_motion(script: _Script, t: np.ndarray):
    """World-frame acceleration (x, y, up) and tilt (roll, pitch in radians) of the platform."""
    acc = np.zeros((3, len(t)))
    tilt = np.zeros((2, len(t)))
    for f in script.flights:
        acc[2] += f.up_accel * (_bump(t, f.lift, f.up_s) - _bump(t, f.lift + f.up_s, f.up_s))
        descent = f.land - 2 * f.down_s
        acc[2] += f.down_accel * (0.7 * _bump(t, f.land - f.down_s, f.down_s)
                                  - _bump(t, descent, f.down_s))
        middle = f.lift + 2 * f.up_s
        carry = max(0.3, (descent - middle) / 2)
        acc[0] += f.carry_accel * (_bump(t, middle, carry) - _bump(t, middle + carry, carry))
        held = _ramp(t, f.lift, 0.15) * (1 - _ramp(t, f.land, 0.02))
        for axis in range(3):
            acc[axis] += f.tremor * held * _wave_sum(t, f.tremor_waves, axis)
        tilt[0] += held * math.radians(12.0) * _wave_sum(t, f.tilt_waves[:2])
        tilt[1] += held * math.radians(8.0) * _wave_sum(t, f.tilt_waves[1:])
    for start, seconds, accel, lean, waves in _hands_on_the_stack(script):
        touching = _bump(t, start, seconds) ** 0.25
        for axis in range(3):
            acc[axis] += (0.3 if axis < 2 else 1.0) * accel * touching * _wave_sum(t, waves, axis)
        tilt[0] += lean * touching
    return acc, tilt


def _hands_on_the_stack(script: _Script):
    """(start, seconds, tremor m/s², tilt rad, waves) of every hand touching the still drone."""
    for p in script.placements:
        if p.imu_waves:
            yield p.start, p.end - p.start, p.imu_accel, p.tilt, p.imu_waves
    for press in script.presses:
        yield press.start, press.seconds, press.imu_accel, press.tilt, press.waves


def _jolts(script: _Script, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Platform acceleration (up) and the stack's extra rocking (fraction of its weight)."""
    platform = np.zeros_like(t)
    rocking = np.zeros_like(t)
    for jolt in script.jolts:
        x = t - jolt.t
        on = x >= 0
        ring = np.where(on, np.exp(-np.clip(x, 0, None) / jolt.decay_s)
                        * np.sin(2 * np.pi * jolt.frequency * np.clip(x, 0, None)), 0.0)
        platform += jolt.amplitude * ring
        slow = np.where(on, np.exp(-np.clip(x, 0, None) / 0.06)
                        * np.sin(2 * np.pi * 12.0 * np.clip(x, 0, None)), 0.0)
        rocking += jolt.stack_share * jolt.amplitude / GRAVITY * slow
    return platform, rocking


def _stack_mass(script: _Script, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mass resting on the platform, and the extra force (g) of the placing hand."""
    mass = np.zeros_like(t)
    hand = np.zeros_like(t)
    for p in script.placements:
        seconds = p.end - p.start
        held = np.clip((t - p.start) / 0.15, 0, 1) * np.clip((p.end - t) / 0.06, 0, 1)
        hand += held * (p.contact_g + p.wobble_g * _wave_sum(t, p.wobble))
        hand += p.press_g * _bump(t, p.start + 0.2 * seconds, 0.6 * seconds)
        resting = _ramp(t, p.start, 0.3 * seconds)
        if p.fumble:
            resting = resting * (1 - _ramp(t, p.end, 0.08))
        mass += p.mass * resting
    for press in script.presses:
        shape = _bump(t, press.start, press.seconds) ** 0.5
        hand += press.force_g * shape * (1 + 0.15 * _wave_sum(t, press.waves))
    for at, lost, seconds in script.falls:
        mass -= lost * _ramp(t, at, seconds)
    return mass, hand


def _specific_force(script: _Script, t: np.ndarray):
    """Accelerometer (body frame, m/s²) and gyroscope (dps) without noise."""
    acc, tilt = _flight_motion(script, t)
    jolt, _ = _jolts(script, t)
    world = np.vstack([acc[0], acc[1], GRAVITY + acc[2] + jolt])
    roll, pitch = tilt
    bx = np.cos(pitch) * world[0] - np.sin(pitch) * world[2]
    bz0 = np.sin(pitch) * world[0] + np.cos(pitch) * world[2]
    by = np.cos(roll) * world[1] + np.sin(roll) * bz0
    bz = -np.sin(roll) * world[1] + np.cos(roll) * bz0
    gyro_roll = np.degrees(np.gradient(roll, t))
    gyro_pitch = np.degrees(np.gradient(pitch, t))
    return np.vstack([bx, by, bz]), np.vstack([gyro_roll, gyro_pitch, np.zeros_like(t)])


def _force(script: _Script, t: np.ndarray, rng, options) -> np.ndarray:
    """The load cell's true reading in grams-force at times ``t``, drift included."""
    body, _ = _specific_force(script, t)
    _, rocking = _jolts(script, t)
    mass, hand = _stack_mass(script, t)
    drift_rate = rng.uniform(-1, 1) * options.max_drift_g_per_min / 60
    wander = rng.uniform(0, 0.1) * np.sin(2 * np.pi * t / rng.uniform(20, 60))
    return mass * (body[2] / GRAVITY + rocking) + hand + drift_rate * t + wander


# -- sampling ------------------------------------------------------------------------


def _sample(script: _Script, rng: np.random.Generator, options: SimulationOptions):
    period = 1.0 / options.rate_hz
    count = int(script.duration / period)
    t = np.arange(count) * period + rng.uniform(-0.2, 0.2, count) * period
    t[0] = max(t[0], 0.0)
    lag = float(rng.uniform(0.0, options.max_lag_s))
    cell_t = np.arange(-2, script.duration * options.load_cell_rate_hz + 2)
    cell_t = cell_t / options.load_cell_rate_hz + rng.uniform(0, 1 / options.load_cell_rate_hz)
    noise_g = rng.uniform(*options.force_noise_g)
    cell = _force(script, cell_t - lag, rng, options) + rng.normal(0, noise_g, len(cell_t))
    force = np.interp(t, cell_t, cell)
    body, gyro = _specific_force(script, t)
    accel_bias = rng.uniform(-0.1, 0.1, (3, 1))
    body = body * rng.uniform(0.99, 1.01) + accel_bias
    body += rng.normal(0, options.accel_noise, body.shape)
    gyro += rng.normal(0, options.gyro_noise, gyro.shape) + rng.uniform(-0.5, 0.5, (3, 1))
    columns = np.vstack([t, force, body, gyro])
    _add_spikes(columns, rng, options)
    keep = _kept_rows(count, rng, options)
    samples = Samples(*(np.round(column[keep], 4) for column in columns))
    return samples, lag


def _add_spikes(columns: np.ndarray, rng, options) -> None:
    count = columns.shape[1]
    minutes = (columns[0, -1] - columns[0, 0]) / 60
    for _ in range(rng.poisson(options.spikes_per_minute * minutes)):
        row = int(rng.integers(0, count))
        column = int(rng.integers(1, 8))
        size = rng.uniform(20, 200) if column == 1 else rng.uniform(5, 30)
        columns[column, row] += size * rng.choice([-1, 1])


def _kept_rows(count: int, rng, options) -> np.ndarray:
    keep = rng.random(count) >= options.lost_fraction
    for _ in range(options.lost_bursts):
        start = int(rng.integers(0, count))
        keep[start:start + int(rng.integers(5, 26))] = False
    keep[0] = keep[-1] = True
    return keep


# -- stuck sensors ---------------------------------------------------------------------

FAULT_KINDS: dict[str, str] = {  # kind -> the sensor that must be reported
    "load-frozen": "load-cell",  # a loose data line: the last reading repeats
    "load-saturated": "load-cell",  # the HX711 pinned at its full scale
    "imu-zeros": "imu",  # failed I2C reads: every axis 0
    "imu-frozen": "imu",  # the same register contents again and again
    "imu-no-gravity": "imu",  # the accelerometer's supply browned out: |a| near 0
    "link-stall": "link",  # the stream stops, then comes back
}


@dataclass(frozen=True)
class InjectedFault:
    """A fault put into a stream: its kind, the sensor to report, and its span."""

    kind: str
    sensor: str
    start: float
    end: float


def inject_fault(samples: Samples, kind: str, start: float, seconds: float,
                 saturated_g: float = 3500.0) -> tuple[Samples, InjectedFault]:
    """``samples`` with a stuck sensor from ``start`` for ``seconds`` (see FAULT_KINDS).

    Example::

        >>> run = simulate_challenge(seed=5)
        >>> stuck, fault = inject_fault(run.samples, "imu-zeros", 10.0, 2.0)
        >>> fault.sensor, float(stuck.az[(stuck.t >= 10.0) & (stuck.t < 12.0)].max())
        ('imu', 0.0)
    """
    t = samples.t
    inside = (t >= start) & (t < start + seconds)
    first = int(np.argmax(inside)) if inside.any() else len(t)
    columns = [column.copy() for column in samples.columns()]
    if kind == "load-frozen":
        columns[1][inside] = columns[1][max(0, first - 1)]
    elif kind == "load-saturated":
        columns[1][inside] = saturated_g
    elif kind == "imu-zeros":
        for column in columns[2:]:
            column[inside] = 0.0
    elif kind == "imu-frozen":
        for column in columns[2:]:
            column[inside] = column[max(0, first - 1)]
    elif kind == "imu-no-gravity":
        for column in columns[2:5]:
            column[inside] *= 0.03
    elif kind == "link-stall":
        columns = [column[~inside] for column in columns]
    else:
        raise ValueError(f"unknown fault kind {kind!r}: one of {', '.join(FAULT_KINDS)}")
    began = float(t[first]) if first < len(t) else start
    if kind in ("load-frozen", "imu-frozen") and first > 0:
        began = float(t[first - 1])  # the repeated reading is the last good one
    elif kind == "link-stall" and first > 0:
        # No sample from the one due after the last that came (rows lost just before the
        # stall belong to it).
        period = float(np.median(np.diff(t)))
        began = float(t[first - 1]) + period
    return Samples(*columns), InjectedFault(kind, FAULT_KINDS[kind], began, start + seconds)
