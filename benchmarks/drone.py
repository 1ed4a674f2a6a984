"""Drone event detection on a fresh simulated set: recall, false events, timing and mass.

Run: .venv/bin/python benchmarks/drone.py [--count 100] [--seed 100000]

Simulates ``--count`` Pick 'n Packers challenges (seeds ``--seed`` onwards, none of
them used while tuning the detector, which used seeds below 1000) with the project's
sensor simulator — hand tremor up to 2 m/s², load-cell lag up to 20 ms, presents
from 2 g, lost samples, spikes, knocks, presses and landing impacts — runs the
detector on each and prints, per event type, the recall, the false events, the
timing error (p50/p95/max) and the mass error over all matched events, and how
much faster than real time the detector runs. The figures are quoted in
docs/drone-events.md.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hardware.evaluation import EventScore, match_events
from hardware.events import EVENT_TYPES, detect_events
from hardware.simulate import simulate_challenge


def run(count: int, first_seed: int) -> tuple[EventScore, float, float]:
    total = EventScore()
    stream_seconds = detect_seconds = 0.0
    for seed in range(first_seed, first_seed + count):
        challenge = simulate_challenge(seed)
        started = time.perf_counter()
        detected = [event.to_json() for event in detect_events(challenge.samples)]
        detect_seconds += time.perf_counter() - started
        stream_seconds += challenge.samples.duration
        total.add(match_events(challenge.truth, detected))
    return total, stream_seconds, detect_seconds


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="challenges (default 100)")
    parser.add_argument("--seed", type=int, default=100_000, help="first seed (default 100000)")
    arguments = parser.parse_args()
    score, stream_seconds, detect_seconds = run(arguments.count, arguments.seed)
    print(f"{arguments.count} simulated challenges, {stream_seconds / 60:.1f} min of samples")
    print(f"{'event':<6} {'truth':>6} {'found':>6} {'recall':>8} {'false':>6} "
          f"{'t p50 s':>8} {'t p95 s':>8} {'t max s':>8}")
    for kind in EVENT_TYPES:
        errors = score.time_errors[kind]
        print(f"{kind:<6} {score.truth[kind]:>6} {score.found[kind]:>6} "
              f"{100 * score.recall(kind):>7.2f}% {score.false[kind]:>6} "
              f"{percentile(errors, 50):>8.3f} {percentile(errors, 95):>8.3f} "
              f"{max(errors, default=float('nan')):>8.3f}")
    masses = score.mass_errors
    print(f"mass error over {len(masses)} matched events: p50 {percentile(masses, 50):.3f} g, "
          f"p95 {percentile(masses, 95):.3f} g, max {max(masses, default=float('nan')):.3f} g")
    print(f"speed: {stream_seconds / detect_seconds:.0f}x real time "
          f"({detect_seconds:.2f} s for {stream_seconds:.0f} s of samples)")


if __name__ == "__main__":
    main()
