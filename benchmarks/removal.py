"""Removal's engine speed: random full games per second, and enumerating legal placements.

Run ``.venv/bin/python benchmarks/removal.py`` (one core, one process). It prints:

- random full games per second (CPU time of this process): whole games (2, 3
  and 4 players in turn) where every action is drawn uniformly from
  ``legal_actions()`` and applied with ``apply`` (so every action is checked)
  — aim ≥ 100; the same games are played ``RUNS`` times and the median run is
  given with the spread (slowest–fastest run), as the machine may be shared;
- the time to enumerate every legal placement (with its damage) of a
  5-square tile in a partly filled full-size truck — aim ≤ 2 ms;
- the time to list the chance outcomes of a game dealt by hand, at the first
  deal and at the deal of round 2 (4 players, keepsake variant) — aim < 1 ms;
- a fixed reference workload (pure Python and numpy) timed in the same run, and
  the figures above relative to it, since the machine may be shared.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import get_game
from rules.catalogue import default_catalogue
from rules.games.removal.truck import TileSpec, Truck
from rules.playout import play_randomly, random_reveal

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import reference_line, reference_seconds

GAMES = 60
RUNS = 3
ENUMERATIONS = 2000
PENTOMINO = TileSpec("sofa bed", ("###", "##."))
LISTINGS = 500


def games_per_second(games: int = GAMES) -> tuple[float, float]:
    """Random full games per second, and the mean number of actions per game."""
    game = get_game("removal")
    actions = 0
    start = time.process_time()  # CPU time of this process: fair on a shared machine
    for seed in range(games):
        players = [f"P{index + 1}" for index in range(2 + seed % 3)]
        state = play_randomly(game.new_game(players, seed=seed), random.Random(seed))
        actions += len(state.log)
    elapsed = time.process_time() - start
    return games / elapsed, actions / games


def partly_filled_truck(seed: int = 7, tiles: int = 5) -> Truck:
    """The first default truck with ``tiles`` catalogue items at random legal spots."""
    catalogue = default_catalogue("removal")
    truck = Truck(catalogue["trucks"][0])
    rng = random.Random(seed)
    delicate = [item for item in catalogue["items"] if item.get("delicate")][:2]
    others = rng.sample(catalogue["items"], tiles - len(delicate))
    for entry in [*delicate, *others]:
        spec = TileSpec(entry["id"], tuple(entry["shape"]), heavy=bool(entry.get("heavy")),
                        delicate=tuple(entry["delicate"]) if entry.get("delicate") else None)
        options = truck.legal_placements(spec)
        if options:
            choice = rng.choice(options)
            truck.place(spec, choice.row, choice.col, choice.rotation, choice.flip)
    return truck


def enumeration_ms(repeats: int = ENUMERATIONS) -> tuple[float, int, int]:
    """Median milliseconds per enumeration, placements found, tiles in the truck."""
    truck = partly_filled_truck()
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        found = truck.legal_placements(PENTOMINO)
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000, len(found), len(truck.tiles)


def outcome_listing_ms(repeats: int = LISTINGS) -> tuple[float, float, int]:
    """Median milliseconds to list the chance outcomes of a hand-dealt 4-player game: at the
    first deal, and at the deal of round 2 (trucks and stacks full of tiles); outcomes."""
    rng = random.Random(1)
    state = get_game("removal").new_game(["A", "B", "C", "D"], options={"keepsakes": True},
                                         deal="table")
    for _ in range(3):  # the keepsake cards: the house comes next
        state.apply(state.chance_outcomes()[0].action)
    first = _median_listing(state, repeats)
    while state.data["round"] == 1 or not state.is_chance():
        if state.is_chance():
            state.apply(random_reveal(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return first, _median_listing(state, repeats), len(state.chance_outcomes())


def _median_listing(state: object, repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        state.chance_outcomes()  # type: ignore[attr-defined]
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main() -> None:
    print(reference_line())
    runs = [games_per_second() for _ in range(RUNS)]
    reference = reference_seconds()
    rates = sorted(rate for rate, _ in runs)
    actions = runs[0][1]
    print(f"removal random full games per second: {statistics.median(rates):.1f} "
          f"(slowest-fastest of {RUNS} runs: {rates[0]:.1f}-{rates[-1]:.1f}; "
          f"{GAMES} games of 2-4 players, {actions:.0f} actions per game; aim >= 100); "
          f"one game = {1 / statistics.median(rates) / reference:.3f} reference workloads")
    median, count, tiles = enumeration_ms()
    print(f"removal legal placements of a 5-square tile: {median:.3f} ms median "
          f"({count} placements, full-size truck holding {tiles} tiles; aim <= 2 ms); "
          f"= {median / 1000 / reference:.2e} reference workloads")
    first, later, outcomes = outcome_listing_ms()
    print(f"removal chance outcomes listed (dealt by hand, 4 players): {first:.3f} ms median at "
          f"the first deal, {later:.3f} ms at round 2's ({outcomes} outcomes; aim < 1 ms); "
          f"= {later / 1000 / reference:.2e} reference workloads")


if __name__ == "__main__":
    main()
