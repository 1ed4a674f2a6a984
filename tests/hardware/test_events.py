"""Event detection: hand-made streams with known answers, and simulated challenges."""

from __future__ import annotations

import numpy as np
import pytest

from hardware.config import DetectorConfig
from hardware.evaluation import match_events
from hardware.events import DroneEvent, EventDetector, detect_events
from hardware.samples import Samples
from hardware.simulate import SimulationOptions, simulate_challenge

GRAVITY = 9.80665
RATE = 100.0


def still_stream(seconds: float, force, seed: int = 0) -> Samples:
    """A drone resting on the table; ``force(t)`` is the load cell's true reading."""
    rng = np.random.default_rng(seed)
    t = np.arange(0, seconds, 1 / RATE)
    count = len(t)
    return Samples(t, force(t) + rng.normal(0, 0.03, count), rng.normal(0, 0.03, count),
                   rng.normal(0, 0.03, count), GRAVITY + rng.normal(0, 0.03, count),
                   rng.normal(0, 0.08, count), rng.normal(0, 0.08, count),
                   rng.normal(0, 0.08, count))


def kinds(events: list[DroneEvent]) -> list[str]:
    return [event.event for event in events]


def test_a_present_set_down_is_one_load_when_the_hand_lets_go() -> None:
    def force(t):
        hand = np.where((t > 1.0) & (t < 1.8), 3.0 + np.sin(2 * np.pi * 7 * t), 0.0)
        return np.where(t > 1.0, 12.0, 0.0) + hand

    events = detect_events(still_stream(4.0, force))
    assert kinds(events) == ["load"]
    assert events[0].t == pytest.approx(1.8, abs=0.05)
    assert events[0].mass_g == pytest.approx(12.0, abs=0.1)


def test_a_press_that_lets_go_to_the_same_mass_is_no_event() -> None:
    def force(t):
        return 20.0 + np.where((t > 1.5) & (t < 2.2), 8.0 * np.sin(np.pi * (t - 1.5) / 0.7), 0.0)

    assert detect_events(still_stream(4.0, force)) == []


def test_a_present_falling_off_is_a_drop_at_its_start() -> None:
    def force(t):
        return 30.0 - 10.0 * np.clip((t - 2.0) / 0.1, 0.0, 1.0)

    events = detect_events(still_stream(4.0, force))
    assert kinds(events) == ["drop"]
    assert events[0].t == pytest.approx(2.0, abs=0.05)
    assert events[0].mass_g == pytest.approx(20.0, abs=0.1)


def test_a_light_present_of_two_grams_is_seen() -> None:
    events = detect_events(still_stream(4.0, lambda t: np.where(t > 2.0, 2.0, 0.0)))
    assert kinds(events) == ["load"]
    assert events[0].mass_g == pytest.approx(2.0, abs=0.15)


def test_a_knock_on_the_table_is_no_event() -> None:
    samples = still_stream(4.0, lambda t: np.full_like(t, 15.0))
    ring = np.where(samples.t > 2.0, 8.0 * np.exp(-(samples.t - 2.0) / 0.03)
                    * np.sin(2 * np.pi * 30 * (samples.t - 2.0)), 0.0)
    knocked = Samples(samples.t, samples.force_g * (1 + ring / GRAVITY), samples.ax, samples.ay,
                      samples.az + ring, samples.gx, samples.gy, samples.gz)
    assert detect_events(knocked) == []


def test_too_few_samples_give_no_events() -> None:
    assert detect_events(still_stream(0.05, lambda t: t * 0)) == []


def test_event_json_matches_the_contract() -> None:
    event = DroneEvent(3.41234, "load", 12.0888)
    assert event.to_json() == {"t": 3.412, "event": "load", "mass_g": 12.1}


def test_the_detector_reports_its_settings() -> None:
    detector = EventDetector(DetectorConfig(min_mass_change_g=1.5))
    assert "1.5" in repr(detector)


def _score(seeds, options=None):
    total = None
    for seed in seeds:
        run = simulate_challenge(seed, options)
        score = match_events(run.truth, [e.to_json() for e in detect_events(run.samples)])
        if total is None:
            total = score
        else:
            total.add(score)
    return total


def test_simulated_challenges_are_read_in_full() -> None:
    score = _score(range(500, 506))
    for kind in ("load", "lift", "land", "drop"):
        assert score.found[kind] == score.truth[kind], score
        assert score.false[kind] == 0, score
    errors = [error for kind in score.time_errors for error in score.time_errors[kind]]
    assert np.percentile(errors, 95) < 0.1
    assert np.percentile(score.mass_errors, 95) < 0.3


def test_lag_of_the_load_cell_is_found() -> None:
    run = simulate_challenge(11, SimulationOptions(max_lag_s=0.02))
    detector = EventDetector()
    detector.detect(run.samples)
    assert detector.lag_s == pytest.approx(run.lag_s, abs=0.004)


def test_many_lost_rows_and_spikes_do_not_make_false_drops() -> None:
    harsh = SimulationOptions(lost_fraction=0.05, lost_bursts=4, spikes_per_minute=20.0)
    score = _score(range(600, 604), harsh)
    assert score.false["drop"] == 0
    assert sum(score.found.values()) >= 0.97 * sum(score.truth.values())


def test_live_detection_reports_each_event_once_as_the_batch_does() -> None:
    from hardware.events import LiveEventDetector

    run = simulate_challenge(7, SimulationOptions(cards=3))
    samples = run.samples
    live = LiveEventDetector(settle_s=3.0)
    reported = []
    for start in range(0, len(samples), 200):
        chunk = Samples(*(column[start:start + 200] for column in samples.columns()))
        reported += live.add(chunk)
    reported += live.finish()
    batch = detect_events(samples)
    assert [e.event for e in reported] == [e.event for e in batch]
    assert all(abs(a.t - b.t) < 0.05 for a, b in zip(reported, batch, strict=True))
    assert "events reported" in repr(live)


def test_a_hand_resting_still_on_a_new_present_is_not_a_load_and_a_drop() -> None:
    def force(t):
        placing = np.clip((t - 1.0) / 0.2, 0.0, 1.0) * 2.3
        resting_hand = np.where((t > 1.2) & (t < 2.0), 1.7, 0.0)  # still, no tremor at all
        return placing + resting_hand

    events = detect_events(still_stream(4.0, force))
    assert kinds(events) == ["load"]
    assert events[0].t == pytest.approx(2.0, abs=0.05)
    assert events[0].mass_g == pytest.approx(2.3, abs=0.1)


def test_a_fall_after_a_load_is_still_a_drop() -> None:
    def force(t):
        return 20.0 + np.where(t > 1.0, 5.0, 0.0) - np.where(t > 3.0, 10.0, 0.0)

    events = detect_events(still_stream(5.0, force))
    assert kinds(events) == ["load", "drop"]
    assert [round(event.mass_g) for event in events] == [25, 15]
