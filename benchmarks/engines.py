"""Complete random games per second, per game, on one core.

Run: .venv/bin/python benchmarks/engines.py [--seconds 3]

For each registered game, plays seeded random games (setup and moves drawn
from the seed) through the engine for about ``--seconds`` and prints games per
second, actions per game, and the median time to score one final layout.
The engines are pure Python: one process uses one core. Figures are quoted
in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import time

from rules import game_names, get_game
from rules.playout import random_game


def games_per_second(name: str, players: int, seconds: float) -> tuple[float, float]:
    names = [f"P{index + 1}" for index in range(players)]
    started = time.perf_counter()
    games = actions = 0
    while time.perf_counter() - started < seconds:
        actions += len(random_game(name, names, seed=games).log)
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games


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
    arguments = parser.parse_args()
    print(f"{'game':<16} {'players':>7} {'games/s':>9} {'actions/game':>13} {'score ms':>9}")
    for name in game_names():
        game = get_game(name)
        for players in sorted({game.min_players, game.max_players}):
            rate, length = games_per_second(name, players, arguments.seconds)
            scoring = scoring_milliseconds(name, players)
            print(f"{name:<16} {players:>7} {rate:>9.1f} {length:>13.1f} {scoring:>9.3f}")


if __name__ == "__main__":
    main()
