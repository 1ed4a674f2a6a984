"""The independent check's challenges through the live detector: its promises, and the same events.

Run ``.venv/bin/python benchmarks/drone_apart_live.py [--seed S] [--count N] [--chunk-s 0.1]``.

Each challenge of ``benchmarks/drone_apart.py`` (composed on the fly from the real
recordings in ``../shared/data/drone-real``, never copied) is fed to
:class:`hardware.events.LiveEventDetector` as the station feeds it, ``--chunk-s`` seconds of
samples at a time (the station's drone source: 0.1 s). After each chunk the detector
promises a time no later report goes back before (``certain_until``); the station's drone
source hands the table everything up to it in time order. Printed per challenge where
anything is off, then in all:

- **promises broken**: an event reported earlier than a time already promised (the
  station would hand it on re-stamped at the later time, with a warning), and by how much;
- **differ from the whole file**: the live events' kinds, in time order, are not those of
  ``packref drone events`` on the same file.

CPU per challenge is printed beside the fixed reference workload (benchmarks/reference.py).
Seeds 500000-500199 are kept for a final, one-off run; develop on 0-99.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hardware.events import DroneEvent, LiveEventDetector
from hardware.samples import Samples, parse_csv

sys.path.append(str(Path(__file__).resolve().parent))
import drone_apart
from reference import reference_line, reference_seconds


def live_events(samples: Samples, chunk_s: float
                ) -> tuple[list[DroneEvent], list[tuple[DroneEvent, float]]]:
    """The live detector's events, and each reported before a time already promised
    (with that time)."""
    live = LiveEventDetector()
    events: list[DroneEvent] = []
    broken: list[tuple[DroneEvent, float]] = []
    promised = -np.inf
    t, start = samples.t, 0
    while start < len(t):
        stop = max(int(np.searchsorted(t, t[start] + chunk_s)), start + 1)
        for event in live.add(Samples(*(column[start:stop] for column in samples.columns()))):
            if isinstance(event, DroneEvent):
                if event.t < promised:
                    broken.append((event, promised))
                events.append(event)
        promised = max(promised, live.certain_until)
        start = stop
    events += [event for event in live.finish() if isinstance(event, DroneEvent)]
    return events, broken


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed (develop on 0-99)")
    parser.add_argument("--count", type=int, default=100, help="challenges to run")
    parser.add_argument("--chunk-s", type=float, default=0.1, help="seconds of samples per feed")
    parser.add_argument("--data", type=Path, default=drone_apart.DEFAULT_DATA,
                        help=f"the real recordings (default {drone_apart.DEFAULT_DATA})")
    arguments = parser.parse_args(argv)
    try:
        recordings = drone_apart.load_recordings(arguments.data)
    except (drone_apart.DataMissing, OSError) as missing:
        print(f"drone apart live: skipped, {missing}", file=sys.stderr)
        return 0
    print(reference_line(), file=sys.stderr)
    reference = reference_seconds()
    broken_in = differ = 0
    worst = 0.0
    cpu = 0.0
    seeds = range(arguments.seed, arguments.seed + arguments.count)
    with tempfile.TemporaryDirectory() as folder:
        for seed in seeds:
            challenge = drone_apart.compose(recordings, seed)
            started = time.process_time()
            events, broken = live_events(parse_csv(challenge.csv()), arguments.chunk_s)
            cpu += time.process_time() - started
            whole, _ = drone_apart.detect(challenge, Path(folder))
            same = ([event.event for event in sorted(events, key=lambda e: e.t)]
                    == [item["event"] for item in whole if item["event"] in drone_apart.KINDS])
            broken_in += bool(broken)
            differ += not same
            worst = max([worst, *(promised - event.t for event, promised in broken)])
            if broken or not same:
                print(f"seed {seed}: "
                      + "; ".join(f"{event.event} at {event.t:.3f} s after {promised:.3f} s "
                                  "was promised" for event, promised in broken)
                      + ("" if same else " differs from the whole file"), file=sys.stderr)
    count = len(seeds)
    print(f"{count} challenges, {arguments.chunk_s:g} s chunks: a promise broken in "
          f"{broken_in} (by at most {worst:.3f} s), events differ from the whole file in "
          f"{differ}; live CPU {cpu / count:.3f} s per challenge "
          f"({cpu / count / reference:.2f} ref)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
