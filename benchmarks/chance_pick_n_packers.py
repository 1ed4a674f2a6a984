"""Pick 'n Packers' chance steps: time to list a state's chance outcomes, and seeded speed.

Run: PYTHONPATH=. .venv/bin/python benchmarks/chance_pick_n_packers.py [--repeats 5]

Prints, for states of a game dealt by hand (at setup: 189 outcomes; during the first
round, after the camera has read the grid: up to 108), the median time of one
``chance_outcomes()`` call (aim: under 1 ms), and seeded random games per CPU-second
for 3 and 8 players (as ``benchmarks/engines.py`` plays them). All timings are CPU time
(``time.process_time``), like the fixed reference workload (``benchmarks/reference.py``)
timed in the same run; every figure is also given relative to it, since the machine is
shared and absolute times are noisy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from reference import reference_line, reference_seconds

from rules import get_game
from rules.playout import random_step
from rules.simulation import random_game

GAME = "pick-n-packers"


def hand_dealt_states(count: int) -> list:
    """States of games dealt by hand: at setup, and a few random steps into the game."""
    rng = random.Random(7)
    states = []
    for index in range(count):
        state = get_game(GAME).new_game(["Ana", "Ben", "Cas", "Dee"], deal="table")
        for _ in range(index % 12):
            if not state.is_over():
                state.apply(random_step(state, rng))
        states.append(state)
    return states


def outcome_microseconds(states: list, calls: int = 200) -> float:
    """Median CPU time of one ``chance_outcomes()`` call over ``states``, in microseconds."""
    timings = []
    for state in states:
        started = time.process_time()
        for _ in range(calls):
            state.chance_outcomes()
        timings.append((time.process_time() - started) / calls)
    return statistics.median(timings) * 1e6


def seeded_games_per_second(players: int, seconds: float) -> float:
    """Seeded random games of ``players`` per CPU-second, over about ``seconds``."""
    names = [f"P{index + 1}" for index in range(players)]
    started, games = time.process_time(), 0
    while time.process_time() - started < seconds:
        random_game(GAME, names, seed=games)
        games += 1
    return games / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs of each figure (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per games run")
    arguments = parser.parse_args()
    print(reference_line())
    states = hand_dealt_states(24)
    outcomes, three, eight = [], [], []
    for _ in range(max(1, arguments.repeats)):
        outcomes.append(outcome_microseconds(states))
        three.append(seeded_games_per_second(3, arguments.seconds))
        eight.append(seeded_games_per_second(8, arguments.seconds))
    ref = reference_seconds()
    listed = statistics.median(outcomes)
    print(f"chance_outcomes(), hand-dealt states: {listed:.1f} us per call "
          f"({listed / 1e6 / ref:.2e} ref: CPU time of one call / the reference's); "
          f"aim < 1000 us")
    for players, rates in ((3, three), (8, eight)):
        rate = statistics.median(rates)
        print(f"seeded {players}p: {rate:.0f} games/CPU-s ({rate * ref:.1f} ref: games in "
              f"the reference's CPU time; runs {min(rates):.0f}-{max(rates):.0f})")


if __name__ == "__main__":
    main()
