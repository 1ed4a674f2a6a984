"""Drone event detection on a fresh simulated set: recall, false events, timing and mass.

Run: .venv/bin/python benchmarks/drone.py [--count 100] [--seed 100000] [--rate-hz 100]
     .venv/bin/python benchmarks/drone.py --live [--count 20] [--hours 1] [--rate-hz 200]

Simulates ``--count`` Pick 'n Packers challenges (seeds ``--seed`` onwards, none of
them used while tuning the detector, which used seeds below 1000) with the project's
sensor simulator at ``--rate-hz`` IMU rows per second — hand tremor up to 2 m/s²,
load-cell lag up to 20 ms, presents from 2 g, lost samples, spikes, knocks,
presses and landing impacts — runs the detector on each and prints, per event
type, the recall, the false events, the timing error (p50/p95/max) and the mass
error over all matched events, and how much faster than real time the detector
runs.

``--live`` instead feeds the challenges, one after the other as one long stream
of ``--hours`` hours, to :class:`hardware.events.LiveEventDetector` in 0.25 s
chunks (as a station table does), and prints the time per sample at the start
of a stream and after the whole stream (it must stay flat; the last five
minutes go to a fresh detector too, in turn, to time both alike) and the most
rows held; then
it feeds each of ``--count`` challenges to a fresh live detector and compares
its events with the whole-file detector's. The figures are quoted in
docs/drone-events.md.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Iterator

import numpy as np

from hardware.evaluation import EventScore, match_events
from hardware.events import EVENT_TYPES, DroneEvent, LiveEventDetector, detect_events
from hardware.samples import Samples
from hardware.simulate import SimulationOptions, simulate_challenge

CHUNK_S = 0.25  # what the station feeds the live detector at a time


def run(count: int, first_seed: int, rate_hz: float) -> tuple[EventScore, float, float]:
    total = EventScore()
    stream_seconds = detect_seconds = 0.0
    for seed in range(first_seed, first_seed + count):
        challenge = simulate_challenge(seed, SimulationOptions(rate_hz=rate_hz))
        started = time.perf_counter()
        detected = [event.to_json() for event in detect_events(challenge.samples)]
        detect_seconds += time.perf_counter() - started
        stream_seconds += challenge.samples.duration
        total.add(match_events(challenge.truth, detected))
    return total, stream_seconds, detect_seconds


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def print_score(score: EventScore, count: int, stream_seconds: float,
                detect_seconds: float, rate_hz: float) -> None:
    print(f"{count} simulated challenges at {rate_hz:g} Hz, "
          f"{stream_seconds / 60:.1f} min of samples")
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


def long_stream(first_seed: int, rate_hz: float, hours: float) -> Iterator[Samples]:
    """Challenges one after the other as one stream: clocks run on, one board's IMU offsets.

    Each simulated challenge has its own sensor biases; a real session has one board,
    so each challenge's IMU columns are shifted to the first one's resting medians.
    """
    offset, reference, seed = 0.0, None, first_seed
    while offset < hours * 3600:
        columns = simulate_challenge(seed, SimulationOptions(rate_hz=rate_hz)).samples.columns()
        medians = np.array([np.median(column) for column in columns[2:]])
        reference = medians if reference is None else reference
        imu = [column - shift for column, shift in zip(columns[2:], medians - reference,
                                                       strict=True)]
        yield Samples(columns[0] + offset, columns[1], *imu)
        offset += float(columns[0][-1]) + 1.0 / rate_hz
        seed += 1


def feed(live: LiveEventDetector, samples: Samples, rate_hz: float,
         timings: list | None = None) -> list[DroneEvent]:
    """Samples to the live detector in ``CHUNK_S`` chunks; (stream t, seconds, rows) timed."""
    width = max(1, round(CHUNK_S * rate_hz))
    events = []
    for start in range(0, len(samples), width):
        chunk = Samples(*(column[start:start + width] for column in samples.columns()))
        started = time.perf_counter()
        events += live.add(chunk)
        if timings is not None:
            timings.append((float(chunk.t[-1]), time.perf_counter() - started, len(chunk)))
    return events


def agreement(count: int, first_seed: int, rate_hz: float) -> tuple[int, int, int, list, list]:
    """Live and whole-file events of each challenge, in time order.

    (events in challenges of the same event types, all, reported after a later one,
    |dt|s, |dmass|s)
    """
    same = total = late = 0
    gaps: list[float] = []
    masses: list[float] = []
    for seed in range(first_seed, first_seed + count):
        samples = simulate_challenge(seed, SimulationOptions(rate_hz=rate_hz)).samples
        live = LiveEventDetector()
        reported = feed(live, samples, rate_hz) + live.finish()
        late += sum(b.t < a.t for a, b in itertools.pairwise(reported))
        reported = sorted(reported, key=lambda event: event.t)
        batch = detect_events(samples)
        total += len(batch)
        if [e.event for e in reported] != [e.event for e in batch]:
            continue
        same += len(batch)
        gaps += [abs(a.t - b.t) for a, b in zip(reported, batch, strict=True)]
        masses += [abs(a.mass_g - b.mass_g) for a, b in zip(reported, batch, strict=True)]
    return same, total, late, gaps, masses


def run_live(count: int, first_seed: int, rate_hz: float, hours: float) -> None:
    """Time the live detector over one long stream; compare it with the whole-file one.

    The last challenges (five minutes or more) go to the hour-old detector and to a
    fresh one alike, chunk by chunk in turn, so both are timed under the same load
    of a shared machine: "at the start" is the fresh one, "after the stream" the old.
    """
    live, fresh = LiveEventDetector(), LiveEventDetector()
    timings: list[tuple[float, float, int]] = []
    start_timings: list[tuple[float, float, int]] = []
    end_timings: list[tuple[float, float, int]] = []
    held = 0
    parts = list(long_stream(first_seed, rate_hz, hours))
    end = float(parts[-1].t[-1])
    for samples in parts:
        if samples.t[-1] < end - 300.0:
            feed(live, samples, rate_hz, timings)
        else:
            for chunk in chunks(samples, rate_hz):
                feed(live, chunk, rate_hz, end_timings)
                feed(fresh, chunk, rate_hz, start_timings)
        held = max(held, live.window_rows)
    print_live(timings + end_timings, start_timings, end_timings, rate_hz, held)
    same, total, late, gaps, masses = agreement(count, first_seed, rate_hz)
    print(f"  live vs whole-file, {count} challenges: {same}/{total} events in challenges "
          f"with the same event types ({late} reported after a later one); "
          f"|dt| p95 {1e3 * percentile(gaps, 95):.1f} ms, "
          f"max {1e3 * max(gaps, default=float('nan')):.1f} ms; |dmass| max "
          f"{max(masses, default=float('nan')):.3f} g")


def chunks(samples: Samples, rate_hz: float) -> Iterator[Samples]:
    width = max(1, round(CHUNK_S * rate_hz))
    for start in range(0, len(samples), width):
        yield Samples(*(column[start:start + width] for column in samples.columns()))


def per_sample_us(timings) -> float:
    """The median time per sample over the calls (the median shrugs off the moments a
    shared machine is busy elsewhere)."""
    return 1e6 * float(np.median([seconds / rows for _, seconds, rows in timings]))


def print_live(timings, start_timings, end_timings, rate_hz: float, held: int) -> None:
    end = timings[-1][0]
    print(f"live detector at {rate_hz:g} Hz, {end / 3600:.2f} h of stream in "
          f"{CHUNK_S:g} s chunks, at most {held} rows held")
    minutes = (end_timings[-1][0] - end_timings[0][0]) / 60
    print(f"  time per sample on the last {minutes:.1f} min of the stream, fed in turn to a "
          f"fresh detector: {per_sample_us(start_timings):.1f} µs at the start, "
          f"{per_sample_us(end_timings):.1f} µs after {end / 3600:.2f} h")
    total = sum(seconds for _, seconds, _ in timings)
    print(f"  speed: {end / total:.0f}x real time; slowest call "
          f"{1e3 * max(seconds for _, seconds, _ in timings):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="challenges (default 100)")
    parser.add_argument("--seed", type=int, default=100_000, help="first seed (default 100000)")
    parser.add_argument("--rate-hz", type=float, default=100.0,
                        help="IMU rows per second (default 100; the firmware's IMU default 200)")
    parser.add_argument("--live", action="store_true", help="the live detector on a long stream")
    parser.add_argument("--hours", type=float, default=1.0, help="with --live: stream length")
    arguments = parser.parse_args()
    if arguments.live:
        run_live(arguments.count, arguments.seed, arguments.rate_hz, arguments.hours)
        return
    score, stream_seconds, detect_seconds = run(arguments.count, arguments.seed,
                                                arguments.rate_hz)
    print_score(score, arguments.count, stream_seconds, detect_seconds, arguments.rate_hz)


if __name__ == "__main__":
    main()
