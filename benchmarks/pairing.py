"""Pairing speed: a generated 200-player tournament, 2-player and 4-player tables.

Each round is paired from the real history (meetings, byes, standings by random
wins) and timed; figures are printed in seconds and relative to a fixed reference
workload timed in the same run (the machine is shared, absolute times are noisy).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/pairing.py [--players 200] [--rounds 6]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections import Counter

import numpy as np

from station.tournament.pairing import PairingRequest, pair_round


def reference_seconds() -> float:
    """A fixed pure-Python + numpy workload (best of 3)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(300_000):
            total += i * i % 7
        matrix = np.arange(250_000, dtype=np.float64).reshape(500, 500)
        float((matrix @ matrix).sum())
        best = min(best, time.perf_counter() - start)
    return best


def run(players: int, size: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    names = [f"P{i:03}" for i in range(players)]
    wins: Counter = Counter()
    met: Counter = Counter()
    byes: Counter = Counter()
    times, repeats = [], 0
    for number in range(1, rounds + 1):
        ranked = sorted(names, key=lambda p: (-wins[p], p))
        start = time.perf_counter()
        paired = pair_round(PairingRequest(players=ranked, size=size, met=met, byes=byes,
                                           swiss=number > 1, rounds_played=number - 1,
                                           tables=[f"t{i}" for i in range(players // size + 1)],
                                           seed=number))
        times.append(time.perf_counter() - start)
        for group in paired.groups:
            pairs = [frozenset(pair) for pair in itertools.combinations(group, 2)]
            repeats += sum(met[pair] for pair in pairs)
            met.update(pairs)
            wins[rng.choice(group)] += 1
        byes.update(paired.byes)
        wins.update(paired.byes)
    return {"players": players, "size": size, "rounds": rounds,
            "mean_s": round(statistics.mean(times), 3), "max_s": round(max(times), 3),
            "repeats": repeats, "per_round_s": [round(t, 3) for t in times]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    reference = reference_seconds()
    print(json.dumps({"reference_s": round(reference, 3)}))
    for size in (2, 4):
        line = run(arguments.players, size, arguments.rounds, seed=size)
        line["max_x_reference"] = round(line["max_s"] / reference, 1)
        print(json.dumps(line))


if __name__ == "__main__":
    main()
