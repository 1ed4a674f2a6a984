"""Drone event detection on three families: recall, false events, faults, speed.

Run: .venv/bin/python benchmarks/drone.py [--count 100] [--seed 500000] [--rate-hz 100]
     .venv/bin/python benchmarks/drone.py --family real [--count 100] [--seed 0]
     .venv/bin/python benchmarks/drone.py --family real --sealed     # once, at the very end
     .venv/bin/python benchmarks/drone.py --live [--count 20] [--hours 1] [--rate-hz 200]
     .venv/bin/python benchmarks/drone.py --stream [--minutes 120] [--held]
         (the station's whole live path over an evening: benchmarks/drone_stream.py)

Three families of ``--count`` Pick 'n Packers challenges each (seeds ``--seed``
onwards; the two simulators at ``--rate-hz`` IMU rows per second):

- ``simulate``: the project's own simulator (``hardware/simulate.py``), written
  with the detector: hands that press and tremble (also on the still drone),
  knocks, lost rows, spikes, lag;
- ``platform``: a second simulator built apart (``devkit/hardware/simulate_platform.py``):
  the drone on soft feet, minimum-jerk carried paths, the platform as a
  mass-spring on the load cell, the HX711's own averaging at 80 or 10 SPS;
- ``real``: challenges composed from real recordings (``devkit/hardware/real_traces.py``,
  read from ``../shared/data/drone-real/`` or ``$PACKREF_DRONE_REAL``; skipped with a
  message when absent): a real IMU at 100 Hz with its jitter, a real HX711's
  conversion times and noise. Its seeds run from ``--seed`` (default 0 for it: the
  development range is 0–99999); ``--sealed`` runs the sealed range 900000–900199
  instead, which nobody runs until the detector's work is done. Its stuck sensors
  fall inside a flight when one is long enough (then a landing, sometimes a drop,
  follows the fault's end).

The events of the challenges with a stuck sensor are scored too (truth inside the
fault's span left out): a drop after ``fault-cleared`` must not be lost.

For each: per event kind the truth, found, recall, false events and the timing
error; false events per 100 challenges; the mass error; the batch speed. Then
each challenge again with one stuck sensor (``hardware.simulate.inject_fault``,
the kinds in turn, 1.5–3 s long, anywhere in the challenge): reported or not,
with the right sensor or not, the error of its start, the live detector's
latency (stream time from the fault's start to its report, fed in 0.25 s chunks
and told of silences as a station does), and the loads or drops inferred inside
it. Last, the live detector's time per sample on a stream of the first family.
Every time is CPU time (``time.process_time``; the detectors are one thread),
and the fixed reference workload (``benchmarks/reference.py``), timed in CPU
time in the same run, is printed first: figures are relative to it too (the
machine is shared, absolute times are noisy).

Seeds: the detector was tuned on ``simulate`` seeds below 1000, 2000–2039 and
4000–7300 (also with early first hands), and on ``platform`` seeds below 100 and
3000–3400; 500000–500099 were held out until two of their challenges were looked
at, so ``--seed 700000`` is the fresh held-out set now. The figures are quoted in
docs/drone-events.md and docs/benchmarks.md.

``--live`` feeds the challenges, one after the other as one long stream
of ``--hours`` hours, to :class:`hardware.events.LiveEventDetector` in 0.25 s
chunks (as a station table does), and prints the time per sample at the start
of a stream and after the whole stream (it must stay flat; the last five
minutes go to a fresh detector too, in turn, to time both alike) and the most
rows held; then it feeds each of ``--count`` challenges to a fresh live detector
and compares its events with the whole-file detector's.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from drone_stream import main as stream_benchmark
from reference import reference_line, reference_seconds

sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the checkout: devkit/

from devkit.hardware.evaluation import EventScore, match_events
from devkit.hardware.fixtures import CALIBRATION
from devkit.hardware.real_traces import (
    DEV_SEEDS,
    MISSING,
    SEALED_SEEDS,
    compose_challenge,
    data_dir,
    load_recordings,
)
from devkit.hardware.simulate_platform import PlatformOptions, simulate_platform_challenge
from hardware.events import EVENT_TYPES, DroneEvent, LiveEventDetector, detect_events
from hardware.faults import SensorFault
from hardware.paced import PacedBoard
from hardware.samples import Samples
from hardware.simulate import FAULT_KINDS, SimulationOptions, inject_fault, simulate_challenge
from station.live.drone import DroneSource

CHUNK_S = 0.25  # what the station feeds the live detector at a time
FAULT_LIMIT_S = 1.5  # docs/formats.md §7: a fault is reported no later than this after it began


LAND_WITHIN_S = 0.3  # a landing this close to the touch-down puts the drone on the right card


@dataclass
class Challenge:
    samples: Samples
    truth: list[dict]


def family_runs(family: str, rate_hz: float) -> Callable[[int], Challenge]:
    """The challenge of a seed in one family."""
    if family == "real":
        folder = data_dir()
        if folder is None:
            raise SystemExit(MISSING)
        recordings = load_recordings(folder)

        def make_real(seed: int) -> Challenge:
            run = compose_challenge(seed, recordings)
            return Challenge(run.samples, run.truth)
        return make_real
    if family == "simulate":
        def make(seed: int) -> Challenge:
            run = simulate_challenge(seed, SimulationOptions(rate_hz=rate_hz))
            return Challenge(run.samples, run.truth)
        return make

    def make_platform(seed: int) -> Challenge:
        run = simulate_platform_challenge(seed, PlatformOptions(imu_rate_hz=rate_hz))
        return Challenge(run.samples, run.truth)
    return make_platform


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


@dataclass
class FaultScore:
    """Stuck sensors, per kind: injected, reported (right sensor, within 1.5 s live)."""

    injected: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    reported: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    in_time: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    wrong_sensor: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    inside: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    events: EventScore = field(default_factory=EventScore)  # truth outside the fault's span
    start_errors: dict[str, list] = field(default_factory=lambda: {k: [] for k in FAULT_KINDS})
    latencies: dict[str, list] = field(default_factory=lambda: {k: [] for k in FAULT_KINDS})
    # The same through the station's live path (loop:// link, DroneStream, DroneSource).
    station_in_time: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))
    station_latencies: dict[str, list] = field(
        default_factory=lambda: {k: [] for k in FAULT_KINDS})
    station_repeats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULT_KINDS, 0))


def run_family(make: Callable[[int], Challenge], seeds: range
               ) -> tuple[EventScore, int, float, float]:
    """(score, faults reported in healthy challenges, seconds of stream, CPU s detecting)"""
    total = EventScore()
    false_faults = 0
    stream_seconds = detect_seconds = 0.0
    for seed in seeds:
        challenge = make(seed)
        started = time.process_time()
        found = detect_events(challenge.samples)
        detect_seconds += time.process_time() - started
        stream_seconds += challenge.samples.duration
        false_faults += sum(isinstance(event, SensorFault) for event in found)
        false_faults += len(station_faults(challenge.samples))
        total.add(match_events(challenge.truth, [event.to_json() for event in found]))
    return total, false_faults, stream_seconds, detect_seconds


def print_score(name: str, score: EventScore, count: int, false_faults: int,
                stream_seconds: float, detect_seconds: float, rate_hz: float,
                reference: float) -> None:
    print(f"family {name}: {count} challenges at {rate_hz:g} Hz, "
          f"{stream_seconds / 60:.1f} min of samples")
    print(f"  {'event':<6} {'truth':>6} {'found':>6} {'recall':>8} {'false':>6} "
          f"{'t p50 s':>8} {'t p95 s':>8} {'t max s':>8}")
    for kind in EVENT_TYPES:
        errors = score.time_errors[kind]
        print(f"  {kind:<6} {score.truth[kind]:>6} {score.found[kind]:>6} "
              f"{100 * score.recall(kind):>7.2f}% {score.false[kind]:>6} "
              f"{percentile(errors, 50):>8.3f} {percentile(errors, 95):>8.3f} "
              f"{max(errors, default=float('nan')):>8.3f}")
    landings = np.array(score.time_errors["land"])
    within = int((landings <= LAND_WITHIN_S).sum())
    print(f"  landing vs touch-down over {len(landings)} found: median "
          f"{percentile(list(landings), 50):.3f} s, p95 {percentile(list(landings), 95):.3f} s, "
          f"within {LAND_WITHIN_S:g} s {within}/{score.truth['land']} of the true landings "
          f"({100 * within / max(1, score.truth['land']):.1f}%)")
    false = sum(score.false.values())
    masses = score.mass_errors
    print(f"  false events: {false} in {count} challenges = {100 * false / count:.2f} per 100 "
          f"(false drops {score.false['drop']}); faults reported in these healthy "
          f"challenges (whole-file detector and station's live path): {false_faults}")
    print(f"  mass error over {len(masses)} matched events: p50 {percentile(masses, 50):.3f} g, "
          f"p95 {percentile(masses, 95):.3f} g, max {max(masses, default=float('nan')):.3f} g")
    print(f"  batch speed: {stream_seconds / detect_seconds:.0f}x real time "
          f"({detect_seconds:.2f} CPU s for {stream_seconds:.0f} s of samples; "
          f"{detect_seconds / reference:.2f} ref: that CPU time / the reference's)")


def fault_start(challenge: Challenge, rng: np.random.Generator, seconds: float,
                in_flight: bool) -> float:
    """Where a stuck sensor starts: anywhere, or (``in_flight``) inside the first flight
    long enough to hold it with 0.5 s to spare on each side."""
    flights = [(lift["t"], land["t"]) for lift, land in
               zip([e for e in challenge.truth if e["event"] == "lift"],
                   [e for e in challenge.truth if e["event"] == "land"], strict=False)]
    roomy = [(lift, land) for lift, land in flights if land - lift >= seconds + 1.0]
    if in_flight and roomy:
        lift, land = roomy[int(rng.integers(len(roomy)))]
        return float(rng.uniform(lift + 0.5, land - 0.5 - seconds))
    return float(rng.uniform(2.0, max(2.5, challenge.samples.t[-1] - 5.0)))


def run_faults(make: Callable[[int], Challenge], seeds: range, rate_hz: float,
               in_flight: bool = False) -> FaultScore:
    """Each challenge again with one stuck sensor; batch and live detectors."""
    score = FaultScore()
    kinds = list(FAULT_KINDS)
    for index, seed in enumerate(seeds):
        challenge = make(seed)
        rng = np.random.default_rng([seed, 99])
        kind = kinds[index % len(kinds)]
        if in_flight:
            seconds = float(rng.uniform(1.5, 3.0))
            start = fault_start(challenge, rng, seconds, in_flight)
        else:  # the draws as they always were, so the simulators' figures stay comparable
            start = float(rng.uniform(2.0, max(2.5, challenge.samples.t[-1] - 5.0)))
            seconds = float(rng.uniform(1.5, 3.0))
        stuck, injected = inject_fault(challenge.samples, kind, start, seconds)
        score.injected[kind] += 1
        batch = detect_events(stuck)
        outside = [event for event in challenge.truth
                   if not injected.start - 0.1 <= event["t"] <= injected.end + 0.1]
        score.events.add(match_events(outside, [event.to_json() for event in batch
                                                if isinstance(event, DroneEvent)]))
        live = live_reports(stuck, rate_hz)
        faults = [event for event in batch if isinstance(event, SensorFault)
                  and event.event == "fault"]
        near = [fault for fault in faults
                if injected.start - 0.2 <= fault.t <= injected.end + FAULT_LIMIT_S]
        right = [fault for fault in near if fault.sensor == injected.sensor]
        score.wrong_sensor[kind] += len(near) - len(right)
        if right:
            score.reported[kind] += 1
            score.start_errors[kind].append(abs(right[0].t - injected.start))
        first_live = next((at for event, at in live if isinstance(event, SensorFault)
                           and event.event == "fault" and event.sensor == injected.sensor
                           and event.t >= injected.start - 0.2), None)
        if first_live is not None:
            latency = first_live - injected.start
            score.latencies[kind].append(latency)
            score.in_time[kind] += latency <= FAULT_LIMIT_S
        station = [(fault, at) for fault, at in station_faults(stuck)
                   if fault["event"] == "fault" and fault["sensor"] == injected.sensor
                   and injected.start - 0.2 <= fault["t"] <= injected.end + FAULT_LIMIT_S]
        if station:
            latency = station[0][1] - injected.start
            score.station_latencies[kind].append(latency)
            score.station_in_time[kind] += latency <= FAULT_LIMIT_S
            score.station_repeats[kind] += len(station) - 1
        inside = [event for event in [*batch, *(event for event, _ in live)]
                  if event.event in ("load", "drop")
                  and injected.start <= event.t <= injected.end]
        score.inside[kind] += len(inside)
    return score


def live_reports(samples: Samples, rate_hz: float) -> list[tuple[DroneEvent | SensorFault, float]]:
    """(event, stream time when the live detector reported it): fed in chunks, and told of
    each chunk's worth of silence while no sample comes (as a live station does)."""
    live = LiveEventDetector()
    reported: list[tuple[DroneEvent | SensorFault, float]] = []
    now = float(samples.t[0])
    edges = np.searchsorted(samples.t, np.arange(now, samples.t[-1] + CHUNK_S, CHUNK_S),
                            side="right")
    for first, last in itertools.pairwise(edges):
        now += CHUNK_S
        if last == first:  # a quarter of a second without a sample
            reported += [(event, now) for event in live.idle(now)]
            continue
        chunk = Samples(*(column[first:last] for column in samples.columns()))
        reported += [(event, now) for event in live.add(chunk)]
    return reported + [(event, now) for event in live.finish()]


def station_faults(samples: Samples) -> list[tuple[dict, float]]:
    """(fault observation, stream time carried when the station's drone source handed it
    on): ``samples`` written to a ``loop://`` link 0.05 s of stream per read of the source
    (:class:`hardware.paced.PacedBoard`), through the whole live path a table is fed by."""
    board = PacedBoard(samples, CALIBRATION)
    source = DroneSource("loop://", calibration=CALIBRATION, link=board.link(),
                         monotonic=board.monotonic, stop=board.stop)
    return [(item.observation, board.written) for item in source
            if item.observation and item.observation.get("event", "").startswith("fault")]


def print_faults(score: FaultScore) -> None:
    print(f"  stuck sensors, one per challenge: {'kind':<15} {'injected':>8} {'reported':>8} "
          f"{'<=1.5 s':>7} {'wrong':>5} {'t err max':>9} {'latency p95':>11} {'max':>5} "
          f"{'load/drop inside':>16}")
    for kind in FAULT_KINDS:
        errors, latencies = score.start_errors[kind], score.latencies[kind]
        print(f"  {'':<33}{kind:<15} {score.injected[kind]:>8} {score.reported[kind]:>8} "
              f"{score.in_time[kind]:>7} {score.wrong_sensor[kind]:>5} "
              f"{max(errors, default=float('nan')):>9.3f} {percentile(latencies, 95):>11.2f} "
              f"{max(latencies, default=float('nan')):>5.2f} {score.inside[kind]:>16}")
    print("  at the station (loop:// link, DroneStream, DroneSource; 0.05 s of stream per read),"
          " stream time from the fault's start to its hand-on to the table:")
    print(f"  {'':<33}{'kind':<15} {'flagged':>7} {'<=1.5 s':>7} "
          f"{'latency p50':>11} {'p95':>5} {'max':>5} {'repeated':>8}")
    for kind in FAULT_KINDS:
        latencies = score.station_latencies[kind]
        print(f"  {'':<33}{kind:<15} {len(latencies):>7} {score.station_in_time[kind]:>7} "
              f"{percentile(latencies, 50):>11.2f} {percentile(latencies, 95):>5.2f} "
              f"{max(latencies, default=float('nan')):>5.2f} {score.station_repeats[kind]:>8}")
    injected = sum(score.injected.values())
    print(f"  faults: {sum(score.reported.values())}/{injected} reported with the right sensor, "
          f"{sum(score.in_time.values())}/{injected} within 1.5 s live, "
          f"{sum(score.station_in_time.values())}/{injected} within 1.5 s at the station, "
          f"{sum(score.wrong_sensor.values())} with a wrong sensor, "
          f"{sum(score.inside.values())} loads or drops inferred inside")
    events = score.events
    print("  their events (whole-file detector, truth outside the fault): " + ", ".join(
        f"{kind} {events.found[kind]}/{events.truth[kind]}" for kind in EVENT_TYPES)
        + f", {sum(events.false.values())} false")


def live_cost(make: Callable[[int], Challenge], seeds: range, rate_hz: float,
              minutes: float, reference: float) -> None:
    """The live detector's time per sample over a stream of challenges one after another."""
    live = LiveEventDetector()
    timings: list[tuple[float, float, int]] = []
    offset = 0.0
    for seed in seeds:
        samples = make(seed).samples
        shifted = Samples(samples.t + offset, *samples.columns()[1:])
        feed(live, shifted, rate_hz, timings)
        offset = float(shifted.t[-1]) + 1.0 / rate_hz
        if offset > minutes * 60:
            break
    per_sample = [1e6 * seconds / rows for _, seconds, rows in timings]
    p10, p25, p50 = (percentile(per_sample, q) for q in (10, 25, 50))
    mean = 1e6 * sum(seconds for _, seconds, _ in timings) / sum(rows for *_, rows in timings)
    print(f"live detector, {len(timings)} calls of {CHUNK_S:g} s over {offset / 60:.1f} min of "
          f"stream: CPU µs per sample p10 {p10:.1f}, p25 {p25:.1f}, median {p50:.1f}, "
          f"mean {mean:.1f}")
    print(f"  (CPU time per call); p25 = {p25 / (1e3 * reference):.4f} ref "
          f"(µs per sample per ms of the reference's CPU time)")


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
    """Samples to the live detector in ``CHUNK_S`` chunks; (stream t, CPU s, rows) timed."""
    width = max(1, round(CHUNK_S * rate_hz))
    events = []
    for start in range(0, len(samples), width):
        chunk = Samples(*(column[start:start + width] for column in samples.columns()))
        started = time.process_time()
        events += live.add(chunk)
        if timings is not None:
            timings.append((float(chunk.t[-1]), time.process_time() - started, len(chunk)))
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
    start, after = per_sample_us(start_timings), per_sample_us(end_timings)
    reference_ms = 1e3 * reference_seconds()
    print(f"  CPU time per sample on the last {minutes:.1f} min of the stream, fed in turn to a "
          f"fresh detector: {start:.1f} µs at the start, {after:.1f} µs after "
          f"{end / 3600:.2f} h ({start / reference_ms:.4f} and {after / reference_ms:.4f} ref: "
          f"µs per sample per ms of the reference's CPU time)")
    total = sum(seconds for _, seconds, _ in timings)
    print(f"  speed: {end / total:.0f}x real time (stream s per CPU s); slowest call "
          f"{1e3 * max(seconds for _, seconds, _ in timings):.1f} ms CPU")


def real_seeds(arguments: argparse.Namespace) -> range:
    """The real family's seeds: the sealed range, or ``--count`` development seeds from
    ``--seed`` (0 when ``--seed`` is the simulators' default)."""
    if arguments.sealed:
        return SEALED_SEEDS
    first = 0 if arguments.seed == 500_000 else arguments.seed
    seeds = range(first, first + arguments.count)
    if seeds[-1] >= DEV_SEEDS.stop:
        raise SystemExit(f"--seed {first}: the real family's development seeds are "
                         f"{DEV_SEEDS.start}–{DEV_SEEDS.stop - 1}")
    return seeds


def main() -> None:
    if "--stream" in sys.argv[1:]:  # the station's live path over an evening
        stream_benchmark([argument for argument in sys.argv[1:] if argument != "--stream"])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="challenges (default 100)")
    parser.add_argument("--seed", type=int, default=500_000,
                        help="first seed (default 500000, the held-out set)")
    parser.add_argument("--rate-hz", type=float, default=100.0,
                        help="IMU rows per second (default 100; the firmware's IMU default 200)")
    parser.add_argument("--family", choices=["simulate", "platform", "both", "real", "all"],
                        default="all", help="both: the two simulators; all: and the real family")
    parser.add_argument("--sealed", action="store_true",
                        help="the real family's sealed seeds (run once, at the very end)")
    parser.add_argument("--live", action="store_true", help="the live detector on a long stream")
    parser.add_argument("--hours", type=float, default=1.0, help="with --live: stream length")
    arguments = parser.parse_args()
    print(reference_line())
    if arguments.live:
        run_live(arguments.count, arguments.seed, arguments.rate_hz, arguments.hours)
        return
    reference = reference_seconds()
    seeds = range(arguments.seed, arguments.seed + arguments.count)
    families = {"both": ["simulate", "platform"], "all": ["simulate", "platform", "real"]}.get(
        arguments.family, [arguments.family])
    for name in families:
        if name == "real" and data_dir() is None:
            print(f"family real: skipped, {MISSING}")
            continue
        family_seeds = real_seeds(arguments) if name == "real" else seeds
        make = family_runs(name, arguments.rate_hz)
        score, false_faults, stream_seconds, detect_seconds = run_family(make, family_seeds)
        rate = 100.0 if name == "real" else arguments.rate_hz
        print_score(name, score, len(family_seeds), false_faults, stream_seconds,
                    detect_seconds, rate, reference)
        print_faults(run_faults(make, family_seeds, rate, in_flight=name == "real"))
    live_cost(family_runs("simulate", arguments.rate_hz), seeds, arguments.rate_hz, 6.0,
              reference)


if __name__ == "__main__":
    main()
