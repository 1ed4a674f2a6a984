"""Complete random games per second, per game, on one core.

Run: .venv/bin/python benchmarks/engines.py [--seconds 3] [--repeats 3]

For each registered game, plays seeded random games through
``rules.simulation.random_game`` (setup and moves drawn from the seed; every move
is a uniformly random entry of ``legal_actions()`` applied with ``apply``) and
prints games per second, actions per game, the median time to score one
final layout, and games per reference workload (``benchmarks/reference.py``,
timed in the same run: the figure that compares across machines and days).
The engines are pure Python: one process uses one core.

The time is split into ``--repeats`` runs over the same seeds. Each run is
timed twice: CPU time of this process (``time.process_time``, fair on a shared
machine) and wall-clock time. The table gives the median run's games per
CPU-second with the spread (slowest–fastest run), and the median games per
wall-clock second. Aims: Small Warehouse at least 500 games per CPU-second
(docs/rules-notes.md); Removal at least 100 over games of 2, 3 and 4 players
in turn, which ``benchmarks/removal.py`` measures.
"""

from __future__ import annotations

import argparse
import statistics
import time

from reference import reference_line, reference_seconds

from rules import game_names, get_game
from rules.simulation import random_game

AIMS = {  # games per CPU-second
    "small-warehouse": "aim >= 500",
    "removal": "aim >= 100 over 2-4 players: benchmarks/removal.py",
}


def _run(name: str, names: list[str], seeds: range) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and actions for one random game per seed."""
    cpu, wall = time.process_time(), time.perf_counter()
    actions = sum(len(random_game(name, names, seed=seed).log) for seed in seeds)
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def games_per_second(name: str, players: int, seconds: float, repeats: int
                     ) -> tuple[list[float], list[float], float]:
    """Games per CPU-second and per wall-clock second of each run, and actions per game.

    The first run plays seeds 0, 1, 2, ... for about ``seconds / repeats``; the
    others replay the same seeds, so that the runs differ only by the machine.
    """
    names = [f"P{index + 1}" for index in range(players)]
    budget = seconds / repeats
    started, games = time.perf_counter(), 0
    cpu_start = time.process_time()
    actions = 0
    while time.perf_counter() - started < budget:
        actions += len(random_game(name, names, seed=games).log)
        games += 1
    cpu_rates = [games / (time.process_time() - cpu_start)]
    wall_rates = [games / (time.perf_counter() - started)]
    for _ in range(repeats - 1):
        cpu, wall, _actions = _run(name, names, range(games))
        cpu_rates.append(games / cpu)
        wall_rates.append(games / wall)
    return cpu_rates, wall_rates, actions / games


def scoring_milliseconds(name: str, players: int, repeats: int = 200) -> float:
    """Median time to score one finished game's final layout (all players)."""
    names = [f"P{index + 1}" for index in range(players)]
    timings = []
    for seed in range(20):
        state = random_game(name, names, seed=10_000 + seed)
        started = time.perf_counter()
        for _ in range(repeats):
            state.scores()
        timings.append((time.perf_counter() - started) / repeats)
    timings.sort()
    return timings[len(timings) // 2] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per game (default 3)")
    arguments = parser.parse_args()
    repeats = max(1, arguments.repeats)
    print(reference_line())
    print(f"{'game':<16} {'players':>7} {'games/CPU-s':>11} {'(slowest-fastest)':>18} "
          f"{'games/s wall':>12} {'actions/game':>13} {'score ms':>9} {'games/ref':>9}")
    for name in game_names():
        game = get_game(name)
        for players in sorted({game.min_players, game.max_players}):
            cpu, wall, length = games_per_second(name, players, arguments.seconds, repeats)
            scoring = scoring_milliseconds(name, players)
            spread = f"({min(cpu):.0f}-{max(cpu):.0f})"
            aim = AIMS.get(name, "")
            print(f"{name:<16} {players:>7} {statistics.median(cpu):>11.1f} {spread:>18} "
                  f"{statistics.median(wall):>12.1f} {length:>13.1f} {scoring:>9.3f} "
                  f"{statistics.median(cpu) * reference_seconds():>9.1f}  {aim}")


if __name__ == "__main__":
    main()
