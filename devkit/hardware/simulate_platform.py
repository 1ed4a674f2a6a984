"""A second simulator of the drone's sensors, built apart from :mod:`hardware.simulate`.

The event detector was written together with :mod:`hardware.simulate`, so that
simulator's figures flatter it. This one models the same challenge from
different physics and different noise, and shares no code with it:

- **The drone on the table** is a body on soft feet (a mass–spring–damper, 15–35 Hz):
  a hand pushing a present, a knock on the table and the landing's touchdown all
  move the body through its feet, and the IMU feels that motion — a press with
  the drone still shivers the IMU a little and tilts it a fraction of a degree.
- **Carried motion** is a minimum-jerk path: up 3–12 cm, across 10–40 cm (with a
  way-point), down again, touching the table with 0.05–0.4 m/s; the pilots'
  fingers tilt the drone as an Ornstein–Uhlenbeck process (1–8°, 0.2–1 s) and
  shake it with band-limited noise (0.2–1.5 m/s²).
- **The load cell** carries the platform and the stack as a second mass–spring
  (40–120 Hz, lightly damped), driven by the specific force and the hand; the
  HX711 averages the bridge over each conversion (its sinc filter) at 80 or 10
  samples per second, adds noise in counts and quantises to counts; the host
  interpolates the readings at the IMU's times (as ``SampleAssembler`` does).
- **The IMU** (MPU-6050) sees the body's specific force and turn rate through a
  1–3° mounting error, a turn-on bias (±0.5 m/s², ±3 °/s), scale errors, a
  random-walk bias drift, white noise at the datasheet's density, its 94 Hz
  low-pass, quantisation (8192 LSB/g, 65.5 LSB/(°/s)) and clipping (±4 g, ±500 °/s).
- **Rows are lost** in bursts from a two-state (Gilbert–Elliott) channel.

The truth uses the contract's events: ``load`` when the hand lets go, ``lift``
when the upward motion begins, ``land`` at touchdown, ``drop`` when the present
starts to slide off.

Example::

    >>> run = simulate_platform_challenge(seed=4)
    >>> run.truth[0]["event"], bool(run.samples.t[1] - run.samples.t[0] < 0.02)
    ('load', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from hardware.samples import Samples

G = 9.80665
STEP_S = 0.0005  # the physics runs at 2 kHz


@dataclass(frozen=True)
class PlatformOptions:
    """How hard this simulated world is."""

    imu_rate_hz: float = 100.0
    hx711_rates: tuple[float, ...] = (80.0, 80.0, 80.0, 10.0)  # one drawn per challenge
    cards: int = 9
    press_at_rest: float = 0.3
    knock_at_rest: float = 0.25
    drop_in_flight: float = 0.06
    drop_after_landing: float = 0.03


@dataclass
class PlatformRun:
    """Samples of one challenge and what really happened."""

    seed: int
    samples: Samples
    truth: list[dict]
    hx711_rate_hz: float

    def __repr__(self) -> str:
        return (f"<PlatformRun seed={self.seed} {len(self.samples)} rows, "
                f"HX711 {self.hx711_rate_hz:g} SPS, {len(self.truth)} truth events>")


@dataclass
class _World:
    """Everything that happens, as functions of time on the 2 kHz grid."""

    t: np.ndarray
    stack_g: np.ndarray  # mass resting on the platform
    hand_n: np.ndarray  # downward force of a hand on the stack, newtons
    carried: np.ndarray  # bool: in the pilots' fingers
    path: np.ndarray  # (3, n) acceleration along the carried path, m/s²
    tilt: np.ndarray  # (2, n) roll, pitch, radians
    yaw_rate: np.ndarray  # rad/s
    shake: np.ndarray  # (3, n) m/s² of the fingers' tremor
    table_kicks: list[tuple[float, float]] = field(default_factory=list)  # (t, m/s impulse)
    touchdowns: list[tuple[float, float]] = field(default_factory=list)  # (t, m/s)
    truth: list[dict] = field(default_factory=list)


def simulate_platform_challenge(seed: int, options: PlatformOptions | None = None) -> PlatformRun:
    """One challenge of up to ``options.cards`` flights, reproducible from ``seed``."""
    options = options or PlatformOptions()
    rng = np.random.default_rng([seed, 7])
    world = _story(rng, options)
    body_accel, rates = _body_motion(world, rng)
    hx711_rate = float(rng.choice(options.hx711_rates))
    load_t, grams = _load_cell(world, body_accel, rng, hx711_rate)
    imu_t, accel, gyro = _imu(world, body_accel, rates, rng, options.imu_rate_hz)
    keep = _channel(len(imu_t), rng)
    force = np.interp(imu_t, load_t, grams)
    columns = [imu_t, force, *accel, *gyro]
    samples = Samples(*(np.round(column[keep], 5) for column in columns))
    truth = sorted(world.truth, key=lambda event: event["t"])
    return PlatformRun(seed, samples, truth, hx711_rate)


# -- the story -----------------------------------------------------------------------


def _story(rng: np.random.Generator, options: PlatformOptions) -> _World:
    plan: list[tuple[str, float, dict]] = []  # (what, start, details)
    now = float(rng.uniform(0.8, 1.8))
    carried_g = 0.0
    for _ in range(options.cards):
        mass = float(rng.uniform(2.0, 5.0) if rng.random() < 0.4 else rng.uniform(6.0, 35.0))
        set_down = float(rng.uniform(0.4, 1.4))
        plan.append(("place", now, {"mass": mass, "seconds": set_down,
                                    "push": float(rng.uniform(0.0, 2.0)) * mass,
                                    "tremor_g": float(rng.uniform(0.3, 3.0))}))
        now += set_down
        carried_g += mass
        plan.append(("truth", now, {"event": "load", "mass_g": carried_g}))
        if rng.random() < options.knock_at_rest:
            plan.append(("knock", now + float(rng.uniform(0.3, 0.6)),
                         {"kick": float(rng.uniform(0.005, 0.05))}))
        now += float(rng.uniform(0.9, 1.5))
        if rng.random() < options.press_at_rest:
            seconds = float(rng.uniform(0.25, 0.7))
            plan.append(("press", now, {"seconds": seconds, "force_g": float(rng.uniform(5, 40)),
                                        "tremor_g": float(rng.uniform(0.5, 4.0))}))
            now += seconds + float(rng.uniform(0.6, 1.0))
        flight = _flight_plan(rng, now)
        plan.append(("fly", now, flight))
        plan.append(("truth", now, {"event": "lift", "mass_g": carried_g}))
        land = now + flight["seconds"]
        fell = carried_g > 0 and rng.random() < options.drop_in_flight
        if fell:
            at = float(rng.uniform(now + 0.35, land - 0.3))
            plan.append(("slide", at, {"mass": carried_g - 0.0, "seconds": float(
                rng.uniform(0.05, 0.3))}))
            carried_g = 0.0
            plan.append(("truth", at, {"event": "drop", "mass_g": carried_g}))
        plan.append(("truth", land, {"event": "land", "mass_g": carried_g}))
        now = land + float(rng.uniform(0.8, 1.4))
        if fell:
            break
        if rng.random() < options.drop_after_landing:
            plan.append(("slide", now, {"mass": carried_g, "seconds": float(
                rng.uniform(0.05, 0.3))}))
            carried_g = 0.0
            plan.append(("truth", now, {"event": "drop", "mass_g": carried_g}))
            now += 0.5
            break
    duration = now + float(rng.uniform(1.0, 2.0))
    return _realise(plan, duration, rng)


def _flight_plan(rng: np.random.Generator, start: float) -> dict:
    up_s, across_s, down_s = (float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.8, 2.5)),
                              float(rng.uniform(0.35, 0.8)))
    heading = float(rng.uniform(0, 2 * math.pi))
    return {"up_s": up_s, "across_s": across_s, "down_s": down_s,
            "seconds": up_s + across_s + down_s, "height": float(rng.uniform(0.03, 0.12)),
            "distance": float(rng.uniform(0.10, 0.40)), "heading": heading,
            "bend": float(rng.uniform(-0.3, 0.3)), "touchdown": float(rng.uniform(0.05, 0.4)),
            "lean_deg": float(rng.uniform(1.0, 8.0)), "lean_s": float(rng.uniform(0.2, 1.0)),
            "shake": float(rng.uniform(0.2, 1.5)), "knock": rng.random() < 0.15}


def _minimum_jerk(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return x ** 3 * (10 - 15 * x + 6 * x ** 2)


def _realise(plan, duration: float, rng: np.random.Generator) -> _World:
    t = np.arange(0.0, duration, STEP_S)
    n = len(t)
    world = _World(t, np.zeros(n), np.zeros(n), np.zeros(n, dtype=bool), np.zeros((3, n)),
                   np.zeros((2, n)), np.zeros(n), np.zeros((3, n)))
    for what, start, details in plan:
        if what == "truth":
            world.truth.append({"t": start, **details})
        elif what == "place":
            _place(world, start, details, rng)
        elif what == "press":
            span = _span(world, start, start + details["seconds"])
            local = t[span]
            shape = np.clip(np.minimum(local - start, start + details["seconds"] - local) / 0.08,
                            0.0, 1.0)
            world.hand_n[span] += shape * (details["force_g"] + details["tremor_g"] * _band_noise(
                rng, len(local), 6.0, 12.0)) / 1000 * G
        elif what == "knock":
            world.table_kicks.append((start, details["kick"]))
        elif what == "fly":
            _fly(world, start, details, rng)
        elif what == "slide":
            world.stack_g -= details["mass"] * _minimum_jerk((t - start) / details["seconds"])
    np.maximum(world.stack_g, 0.0, out=world.stack_g)
    return world


def _span(world: _World, start: float, end: float, margin_s: float = 0.0) -> slice:
    """The indices of the 2 kHz grid from ``start - margin_s`` to ``end + margin_s``."""
    first = max(0, int((start - margin_s) / STEP_S))
    return slice(first, min(len(world.t), int((end + margin_s) / STEP_S) + 1))


def _place(world: _World, start: float, details: dict, rng: np.random.Generator) -> None:
    t = world.t
    seconds = details["seconds"]
    end = start + seconds
    world.stack_g += details["mass"] * _minimum_jerk((t - start) / (0.5 * seconds))
    span = _span(world, start, end)
    local = t[span]
    # The hand rests on the present, then lets go (force to 0 within 30 ms).
    release = np.clip((end - local) / 0.03, 0.0, 1.0)
    push = details["push"] * np.sin(np.pi * np.clip((local - start) / seconds, 0, 1)) ** 2
    tremor = details["tremor_g"] * _band_noise(rng, len(local), 7.0, 12.0)
    world.hand_n[span] += release * np.maximum(push + tremor + 0.5, 0.0) / 1000 * G


def _fly(world: _World, start: float, f: dict, rng: np.random.Generator) -> None:
    end = start + f["seconds"]
    world.carried[int(start / STEP_S):int(end / STEP_S)] = True
    span = _span(world, start, end, margin_s=0.02)
    t = world.t[span]
    up = _minimum_jerk((t - start) / f["up_s"])
    across_start = start + f["up_s"]
    down_start = across_start + f["across_s"]
    across = _minimum_jerk((t - across_start) / f["across_s"])
    down = _minimum_jerk((t - down_start) / f["down_s"])
    heading = f["heading"] + f["bend"] * np.sin(np.pi * across)
    path = np.vstack([f["distance"] * across * np.cos(heading),
                      f["distance"] * across * np.sin(heading), f["height"] * (up - down)])
    world.path[:, span] += np.gradient(np.gradient(path, STEP_S, axis=1), STEP_S, axis=1)
    inside = (t >= start) & (t < end)
    grip = np.clip(np.minimum(t - start, end - t) / 0.1, 0.0, 1.0) * inside
    for axis in range(2):
        world.tilt[axis, span] += grip * np.radians(f["lean_deg"]) * _ou(rng, len(t),
                                                                          f["lean_s"])
    world.yaw_rate[span] += grip * np.radians(20.0) * _ou(rng, len(t), 0.5)
    for axis in range(3):
        world.shake[axis, span] += grip * f["shake"] * _band_noise(rng, len(t), 3.0, 12.0)
    world.touchdowns.append((end, f["touchdown"]))
    if f["knock"]:
        world.table_kicks.append((float(rng.uniform(start + 0.4, end - 0.3)), 0.03))


def _ou(rng: np.random.Generator, n: int, tau_s: float) -> np.ndarray:
    """Unit-variance Ornstein–Uhlenbeck noise with time constant ``tau_s`` (its Lorentzian
    spectrum shaped onto white noise)."""
    size = _fast(n)
    spectrum = np.fft.rfft(rng.normal(size=size))
    frequencies = np.fft.rfftfreq(size, STEP_S)
    noise = np.fft.irfft(spectrum / np.sqrt(1 + (2 * np.pi * frequencies * tau_s) ** 2),
                         size)[:n]
    return noise / max(float(np.std(noise)), 1e-12)


def _through(values: np.ndarray, response) -> np.ndarray:
    """``values`` (last axis: time on the 2 kHz grid) through a linear system given by its
    frequency ``response(f)`` (the signals start and end at rest, so the circle closes)."""
    n = values.shape[-1]
    size = _fast(n)
    # Take out the straight line from the first value to the last: what is left starts and
    # ends at 0, so padding adds no step; the line itself passes a low-pass unchanged.
    line = values[..., :1] + (values[..., -1:] - values[..., :1]) * np.linspace(0, 1, n)
    frequencies = np.fft.rfftfreq(size, STEP_S)
    spectrum = np.fft.rfft(values - line, size, axis=-1) * response(frequencies)
    return np.fft.irfft(spectrum, size, axis=-1)[..., :n] + line


def _fast(n: int) -> int:
    """A length of at least ``n`` that the FFT takes quickly (a power of two)."""
    return 1 << max(0, n - 1).bit_length()


def _second_order(natural_hz: float, damping: float):
    """A mass-spring-damper's displacement response, normalised to 1 at 0 Hz."""
    def response(f: np.ndarray) -> np.ndarray:
        ratio = f / natural_hz
        return 1.0 / (1 - ratio ** 2 + 2j * damping * ratio)
    return response


def _band_noise(rng: np.random.Generator, n: int, low_hz: float, high_hz: float) -> np.ndarray:
    """Unit-rms noise with its power between ``low_hz`` and ``high_hz``."""
    size = _fast(n)
    spectrum = np.fft.rfft(rng.normal(size=size))
    frequencies = np.fft.rfftfreq(size, STEP_S)
    spectrum[(frequencies < low_hz) | (frequencies > high_hz)] = 0.0
    noise = np.fft.irfft(spectrum, size)[:n]
    return noise / max(float(np.sqrt(np.mean(noise ** 2))), 1e-12)


# -- physics -------------------------------------------------------------------------


def _body_motion(world: _World, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """World-frame acceleration of the drone's body (3, n) and its turn rates (3, n) rad/s.

    Carried, it follows the path; on the table it sits on its feet, a spring-damper
    pushed by the hand, kicked by knocks, and struck at touchdown.
    """
    t = world.t
    n = len(t)
    accel = world.path + world.shake * world.carried
    body_g = float(rng.uniform(80.0, 250.0))
    feet_hz, feet_damping = float(rng.uniform(15.0, 35.0)), float(rng.uniform(0.08, 0.3))
    omega = 2 * math.pi * feet_hz
    # The body on its feet: pushed by the hand (as an acceleration) and given velocity
    # kicks (knocks on the table, touchdowns); its acceleration is the IMU's.
    push = -world.hand_n / (body_g / 1000)
    for at, speed in world.table_kicks + world.touchdowns:
        index = min(n - 1, int(at / STEP_S))
        if not world.carried[index]:
            push[index] -= speed / STEP_S
    displacement = _through(push, _second_order(feet_hz, feet_damping)) / omega ** 2
    feet = np.gradient(np.gradient(displacement, STEP_S), STEP_S)
    feet[world.carried] = 0.0
    for at, speed in world.table_kicks:  # a knock on the drone in the fingers
        index = min(n - 1, int(at / STEP_S))
        if world.carried[index]:
            pulse = _minimum_jerk((t - at) / 0.004) - _minimum_jerk((t - at - 0.004) / 0.004)
            accel[2] += speed * 250.0 * pulse
    accel[2] += feet
    rates = np.zeros((3, n))
    rates[0] = np.gradient(world.tilt[0], STEP_S)
    rates[1] = np.gradient(world.tilt[1], STEP_S)
    rates[2] = world.yaw_rate
    # A hand pushing off-centre rocks the body on its feet: up to half a degree.
    lean = float(rng.uniform(-1, 1)) * np.radians(0.5) * np.clip(world.hand_n / 0.3, 0.0, 1.0)
    world.tilt[0] += lean * ~world.carried
    rates[0] += np.gradient(lean * ~world.carried, STEP_S)
    return accel, rates


def _specific_force_body(world: _World, accel: np.ndarray) -> np.ndarray:
    """What an accelerometer on the body reads: (a + g up) turned into the body frame."""
    roll, pitch = world.tilt
    fx, fy, fz = accel[0], accel[1], accel[2] + G
    bx = np.cos(pitch) * fx - np.sin(pitch) * fz
    bz0 = np.sin(pitch) * fx + np.cos(pitch) * fz
    by = np.cos(roll) * fy + np.sin(roll) * bz0
    bz = -np.sin(roll) * fy + np.cos(roll) * bz0
    return np.vstack([bx, by, bz])


def _load_cell(world: _World, accel: np.ndarray, rng: np.random.Generator,
               rate_hz: float) -> tuple[np.ndarray, np.ndarray]:
    """HX711 readings (board times, tared grams) of the platform on its load cell."""
    normal = _specific_force_body(world, accel)[2]
    platform_g = float(rng.uniform(5.0, 15.0))
    cell_hz, damping = float(rng.uniform(40.0, 120.0)), float(rng.uniform(0.03, 0.15))
    mass = (platform_g + world.stack_g) / 1000
    drive = mass * normal + world.hand_n  # newtons the spring must carry
    spring = _through(drive, _second_order(cell_hz, damping))
    grams = spring / G * 1000 - platform_g  # tared with the empty platform
    grams += float(rng.uniform(-0.5, 0.5)) * world.t / 60  # zero drift, g/min
    period = 1.0 / rate_hz
    per_conversion = max(1, round(period / STEP_S))
    whole = len(grams) // per_conversion
    averaged = grams[:whole * per_conversion].reshape(whole, per_conversion).mean(axis=1)
    grams_per_count = float(rng.uniform(0.0018, 0.003))
    noise_counts = float(rng.uniform(4.0, 12.0)) * (0.35 if rate_hz <= 10 else 1.0)
    counts = np.round(averaged / grams_per_count + rng.normal(0, noise_counts, whole))
    ready = (np.arange(whole) + 1) * period + rng.uniform(0.0, 0.002, whole)  # polled
    return ready, counts * grams_per_count


def _imu(world: _World, accel: np.ndarray, rates: np.ndarray, rng: np.random.Generator,
         rate_hz: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """MPU-6050 rows at ``rate_hz``: (board times, accel m/s² (3, m), gyro °/s (3, m))."""
    force = _specific_force_body(world, accel)
    gyro = np.degrees(rates)
    mount = _rotation(*np.radians(rng.uniform(-3.0, 3.0, 3)))
    force, gyro = mount @ force, mount @ gyro
    n = len(world.t)
    drift = np.cumsum(rng.normal(0, 1, (6, n)), axis=1) * math.sqrt(STEP_S)
    force = (force * rng.uniform(0.97, 1.03, (3, 1)) + rng.uniform(-0.5, 0.5, (3, 1))
             + 0.002 * drift[:3])
    gyro = gyro * rng.uniform(0.97, 1.03, (3, 1)) + rng.uniform(-3, 3, (3, 1)) + 0.01 * drift[3:]
    force += rng.normal(0, 400e-6 * G / math.sqrt(STEP_S), force.shape)  # 400 µg/√Hz
    gyro += rng.normal(0, 0.005 / math.sqrt(STEP_S), gyro.shape)  # 0.005 °/s/√Hz
    def dlpf(f: np.ndarray) -> np.ndarray:  # the MPU-6050's 94 Hz low-pass, as a first order
        return 1.0 / (1 + 1j * f / 94.0)
    force, gyro = _through(force, dlpf), _through(gyro, dlpf)
    every = max(1, round(1 / rate_hz / STEP_S))
    picks = np.arange(0, n, every)
    times = world.t[picks] + rng.uniform(0, 0.0005, len(picks))
    accel_lsb, gyro_lsb = 8192 / G, 65.5
    accel_out = np.clip(np.round(force[:, picks] * accel_lsb), -32768, 32767) / accel_lsb
    gyro_out = np.clip(np.round(gyro[:, picks] * gyro_lsb), -32768, 32767) / gyro_lsb
    return times, accel_out, gyro_out


def _rotation(a: float, b: float, c: float) -> np.ndarray:
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return rz @ ry @ rx


def _channel(count: int, rng: np.random.Generator) -> np.ndarray:
    """Rows kept by a Gilbert–Elliott channel: good (0.3 % loss) and bad (60 %) states."""
    keep = np.ones(count, dtype=bool)
    bad = False
    draws = rng.random((2, count))
    for index in range(count):
        bad = draws[0, index] < (0.9 if bad else 0.002)
        keep[index] = draws[1, index] >= (0.6 if bad else 0.003)
    keep[0] = keep[-1] = True
    return keep
