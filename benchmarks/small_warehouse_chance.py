"""Small Warehouse dealt by hand: the time to list a state's chance outcomes.

Run: .venv/bin/python benchmarks/small_warehouse_chance.py [--repeats 2000]

Times ``chance_outcomes()`` (and ``unseen()``) on states of games dealt by hand:
at setup (100 outcomes), and every state met in random hand-dealt playouts (the
playouts' own generator, reveals entered at random), in CPU time
(``time.process_time``, read around batches of ``BATCH`` calls: one reading of
that clock costs about 0.6 us, a tenth of a call). Prints the median and the
slowest state's median in milliseconds (aim: under 1 ms), and the same figures
relative to the CPU time of the fixed reference workload (``benchmarks/reference.py``)
timed in the same run, since the machine is shared and its speed swings.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reference import reference_line, reference_seconds

from rules import get_game
from rules.engine import State
from rules.playout import random_step

GAME = "small-warehouse"
PLAYOUTS = 10
BATCH = 10  # calls per clock reading


def states() -> list[State]:
    """Each state met in a few random playouts of games dealt by hand."""
    met = []
    for seed in range(PLAYOUTS):
        rng, state = random.Random(seed), get_game(GAME).new_game(["P1", "P2"], deal="table")
        while not state.is_over():
            met.append(state.clone())
            state.apply(random_step(state, rng))
    return met


def median_ms(call, repeats: int) -> float:
    """CPU milliseconds per call: the median over ``repeats`` calls, timed ``BATCH`` at a time."""
    times = []
    for _ in range(max(1, repeats // BATCH)):
        started = time.process_time()
        for _ in range(BATCH):
            call()
        times.append((time.process_time() - started) / BATCH)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2000, help="timings per state")
    args = parser.parse_args()
    print(reference_line())
    reference = reference_seconds() * 1000
    setup = get_game(GAME).new_game(["P1", "P2"], deal="table")
    met = states()
    rows = [("setup", median_ms(setup.chance_outcomes, args.repeats),
             len(setup.chance_outcomes()))]
    each = [median_ms(state.chance_outcomes, args.repeats // 10) for state in met]
    rows.append((f"playouts: median of {len(met)} states", statistics.median(each),
                 round(statistics.median(len(s.chance_outcomes()) for s in met))))
    rows.append(("playouts: slowest state", max(each), max(len(s.chance_outcomes())
                                                          for s in met)))
    unseen = [median_ms(state.unseen, args.repeats // 10) for state in met]
    rows.append(("unseen(): median state", statistics.median(unseen),
                 round(statistics.median(len(s.unseen()) for s in met))))
    print("CPU time per call; ref = that time / the reference's CPU time")
    print(f"{'chance_outcomes()':34} {'ms':>8} {'ref':>12} {'listed':>9}")
    for name, ms, count in rows:
        print(f"{name:34} {ms:8.4f} {ms / reference:12.2e} {count:9d}")


if __name__ == "__main__":
    main()
