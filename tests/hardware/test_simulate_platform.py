"""The second simulator (a mass-spring platform, the HX711's own filter, another IMU model)."""

from __future__ import annotations

import numpy as np

from devkit.hardware.evaluation import match_events
from devkit.hardware.simulate_platform import PlatformOptions, simulate_platform_challenge
from hardware.config import DetectorConfig
from hardware.events import detect_events


def test_a_challenge_is_reproducible_and_its_truth_is_in_order() -> None:
    first, again = simulate_platform_challenge(12), simulate_platform_challenge(12)
    assert np.array_equal(first.samples.force_g, again.samples.force_g)
    times = [event["t"] for event in first.truth]
    assert times == sorted(times)
    kinds = [event["event"] for event in first.truth]
    assert kinds[:3] == ["load", "lift", "land"]
    assert kinds.count("lift") == kinds.count("land")
    assert "PlatformRun seed=12" in repr(first)


def test_its_sensors_read_like_the_real_parts() -> None:
    run = simulate_platform_challenge(3, PlatformOptions(imu_rate_hz=200.0))
    samples = run.samples
    assert abs(np.median(np.diff(samples.t)) - 0.005) < 2e-4
    accel_lsb = 9.80665 / 8192  # the IMU's counts show in its readings
    steps = np.diff(np.unique(samples.az))
    assert steps.min() >= accel_lsb * 0.99
    at_rest = samples.t < 0.5
    norm = np.sqrt(samples.ax ** 2 + samples.ay ** 2 + samples.az ** 2)[at_rest]
    assert abs(np.median(norm) - 9.81) < 0.6  # bias and scale, but gravity
    assert run.hx711_rate_hz in (10.0, 80.0)


def test_its_presses_shake_the_still_drone_enough_to_fool_a_force_and_motion_reader() -> None:
    gateless = DetectorConfig(carried_tilt_deg=0.0, carried_speed=0.0)  # any long motion flies
    false_flights = 0
    for seed in range(0, 20):
        run = simulate_platform_challenge(seed)
        score = match_events(run.truth, [e.to_json() for e in detect_events(run.samples,
                                                                            gateless)])
        false_flights += score.false["lift"]
    assert false_flights > 0
