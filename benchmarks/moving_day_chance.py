"""Moving Day dealt by hand: the time to list a state's chance outcomes.

Run: PYTHONPATH=. python benchmarks/moving_day_chance.py [--games 20]

Plays random 4-player games dealt by hand (every group unseen until revealed or
taken: the largest outcome lists) and times ``chance_outcomes()`` on every state
met, in CPU time (``time.process_time``; the best of 5 runs of 10 calls, so a
busy moment of a shared machine does not count). Prints the median, 99th
percentile and worst in microseconds, absolute and relative to the CPU time of
the fixed reference workload (``benchmarks/reference.py``) timed in the same run.
Aim (issue 9): listing outcomes under 1 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reference import reference_line, reference_seconds

from rules import get_game
from rules.playout import random_step

PLAYERS = ["P1", "P2", "P3", "P4"]


def timed(function, repeats: int = 10, runs: int = 5) -> float:  # type: ignore[no-untyped-def]
    """CPU seconds per call: the best of ``runs`` runs of ``repeats`` calls."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        for _ in range(repeats):
            function()
        best = min(best, (time.process_time() - started) / repeats)
    return best


def outcome_timings(games: int) -> tuple[list[float], list[int]]:
    """Seconds per ``chance_outcomes()`` call on each state of ``games`` random games."""
    seconds, sizes = [], []
    for seed in range(games):
        rng = random.Random(seed)
        state = get_game("moving-day").new_game(PLAYERS, deal="table")
        while not state.is_over():
            seconds.append(timed(state.chance_outcomes))
            sizes.append(len(state.chance_outcomes()))
            state.apply(random_step(state, rng, reveal_chance=0.2))
    return seconds, sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    arguments = parser.parse_args()
    print(reference_line())
    reference = reference_seconds()
    seconds, sizes = outcome_timings(arguments.games)
    print(f"chance_outcomes, CPU time per call (ref: / the reference's CPU time), "
          f"over {len(seconds)} states ({statistics.median(sizes):.0f} "
          f"outcomes median, {max(sizes)} most):")
    cuts = statistics.quantiles(seconds, n=100)
    for label, value in (("median", statistics.median(seconds)), ("99th percentile", cuts[98]),
                         ("worst", max(seconds))):
        print(f"  {label:<16} {value * 1e6:7.0f} us  ({value / reference:.2e} ref)")


if __name__ == "__main__":
    main()
