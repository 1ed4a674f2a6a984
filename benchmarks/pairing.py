"""Pairing speed: a generated 200-player tournament, 2-player and 4-player tables.

Each round is paired from the real history (meetings, byes, standings by random
wins) and timed in CPU seconds (``time.process_time``: pairing is one thread);
figures are printed in seconds and relative to the CPU time of the fixed
reference workload (``benchmarks/reference.py``) timed in the same run (the
machine is shared, absolute times are noisy).

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

from reference import reference_line, reference_seconds

from station.tournament.pairing import PairingRequest, pair_round


def run(players: int, size: int, rounds: int, seed: int) -> dict:
    rng = random.Random(seed)
    names = [f"P{i:03}" for i in range(players)]
    wins: Counter = Counter()
    met: Counter = Counter()
    byes: Counter = Counter()
    times, repeats = [], 0
    for number in range(1, rounds + 1):
        ranked = sorted(names, key=lambda p: (-wins[p], p))
        start = time.process_time()
        paired = pair_round(PairingRequest(players=ranked, size=size, met=met, byes=byes,
                                           swiss=number > 1, rounds_played=number - 1,
                                           tables=[f"t{i}" for i in range(players // size + 1)],
                                           seed=number))
        times.append(time.process_time() - start)
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
    print(reference_line())
    print("CPU seconds per round; max_ref = the slowest round / the reference's CPU time")
    reference = reference_seconds()
    for size in (2, 4):
        line = run(arguments.players, size, arguments.rounds, seed=size)
        line["max_ref"] = round(line["max_s"] / reference, 1)
        print(json.dumps(line))


if __name__ == "__main__":
    main()
