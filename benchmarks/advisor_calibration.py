"""Are the win chances the pages show worth trusting? A reliability table per game, and the
time to a shown estimate on one core.

Run: .venv/bin/python benchmarks/advisor_calibration.py [--positions 500] [--only GAME]
     [--max-playouts 512] [--minutes 4]

For each game (at its smallest player count, at least two), ``--positions`` positions are
made on the fly: a seeded game played by the engine's random play (``rules.playout``) to a
random point after the first move. The advisor (``rules.advice.lookahead.Advisor``, the one
the station's worker runs) studies each position with 16, 32, 64 ... playouts until the
estimate may be shown (``station.advice.credible_chances``: every player's 95 % Wilson
interval at most ``CREDIBLE_WIDTH`` wide) or ``--max-playouts`` is reached. A shown
estimate names a favoured player (the highest chance); the game is then played on from the
true position (the hidden cards as they really lie) by the advisor's own rollout policy, as
stand-in players, and the favoured player's win (a shared win its fraction) is recorded.

Prints, per game: the reliability table (shown chance of the favoured player in 10-point
bins: positions, mean shown chance, how often the favoured player won), how many positions
were shown at all, and the median CPU time (``time.process_time``: one core, fair on a
shared machine) and playouts to the first shown estimate, in seconds and in reference
units (``benchmarks/reference.py``, timed in the same run), beside the station's advice
budget (``station.config.ADVICE_SECONDS``). ``--minutes`` caps each game's run: a slow
game stops early and says how many positions it got through.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from reference import reference_line, reference_seconds

from rules import State, get_game
from rules.advice.greedy import rollout_policy
from rules.advice.knowledge import reveal_pending
from rules.advice.lookahead import Advisor
from rules.playout import random_step
from station.advice import CREDIBLE_WIDTH, credible_chances, moves_made
from station.config import ADVICE_SECONDS

GAMES = ("small-warehouse", "pick-n-packers", "moving-day", "removal")
FIRST_PLAYOUTS = 16
MAX_STEPS = 5_000


@dataclass
class Calibration:
    """One game's shown estimates and what became of them."""

    game: str
    tried: int = 0
    shown: list[tuple[float, float]] = field(default_factory=list)  # (chance, won)
    seconds: list[float] = field(default_factory=list)  # CPU time to the shown estimate
    playouts: list[int] = field(default_factory=list)


def random_position(game_name: str, seed: int) -> State:
    """A seeded game of ``game_name`` played randomly to a random point after the first move
    and before the end."""
    game = get_game(game_name)
    players = ["Ana", "Ben", "Cas", "Dee"][:max(2, game.min_players)]
    rng = random.Random(seed)
    whole = game.new_game(players, seed=seed)
    steps = []
    while not whole.is_over() and len(steps) < MAX_STEPS:
        action = random_step(whole, rng)
        whole.apply(action)
        steps.append(action)
    state = game.new_game(players, seed=seed)
    stop = rng.randint(1, max(1, len(steps) - 1))
    for action in steps[:stop]:
        state.apply(action)
    while moves_made(state) == 0 and not state.is_over():  # after the first move
        state.apply(random_step(state, rng))
    return state


def study(game_name: str, state: State, seed: int, most: int
          ) -> tuple[dict[str, float], float, int] | None:
    """The first shown estimate of ``state`` (chances, CPU seconds, playouts), or None."""
    playouts = FIRST_PLAYOUTS
    while playouts <= most:
        started = time.process_time()
        advice = Advisor(game_name).advise(state, random.Random(seed), max_playouts=playouts)
        seconds = time.process_time() - started
        top = advice.actions[0]
        answer = {"win_chances": dict(zip(state.players, top.win_chances, strict=True)),
                  "actions": [{"playouts": top.playouts}]}
        if credible_chances(answer, moves_made(state))["shown"]:
            return answer["win_chances"], seconds, playouts
        playouts *= 2
    return None


def played_on(game_name: str, state: State, seed: int) -> State:
    """``state``'s game played to its end by the advisor's rollout policy for every seat."""
    game, rng, policy = state.clone(), random.Random(seed + 1), rollout_policy(game_name)
    for _ in range(MAX_STEPS):
        reveal_pending(game, rng)
        if game.is_over():
            return game
        game.apply(policy.choose(game, rng))
    raise RuntimeError(f"{game_name} did not end within {MAX_STEPS} steps")


def calibrate(game_name: str, positions: int, most: int, minutes: float) -> Calibration:
    result = Calibration(game_name)
    deadline = time.perf_counter() + minutes * 60
    for seed in range(positions):
        if time.perf_counter() > deadline:
            break
        result.tried += 1
        state = random_position(game_name, seed)
        if state.is_over():
            continue
        found = study(game_name, state, seed, most)
        if found is None:
            continue
        chances, seconds, playouts = found
        favoured = max(state.players, key=lambda name: chances[name])
        winners = played_on(game_name, state, seed).winners()
        won = 1 / len(winners) if favoured in winners else 0.0
        result.shown.append((chances[favoured], won))
        result.seconds.append(seconds)
        result.playouts.append(playouts)
    return result


def report(result: Calibration, reference: float) -> None:
    print(f"\n{result.game}: {result.tried} positions, {len(result.shown)} shown "
          f"(every 95 % interval at most {CREDIBLE_WIDTH:.2f} wide)")
    if not result.shown:
        print("  no estimate reached the threshold within the playouts allowed")
        return
    print("  shown chance  positions  mean shown  favoured won")
    for low in range(0, 100, 10):
        inside = [(c, w) for c, w in result.shown if low <= c * 100 < low + 10
                  or (low == 90 and c == 1.0)]
        if inside:
            mean = statistics.fmean(c for c, _ in inside)
            won = statistics.fmean(w for _, w in inside)
            print(f"  {low:3d}–{low + 10:3d} %   {len(inside):9d}  {mean * 100:9.1f} %"
                  f"  {won * 100:10.1f} %")
    seconds = statistics.median(result.seconds)
    print(f"  median to a shown estimate: {seconds:.3f} s CPU ({seconds / reference:.1f} ref), "
          f"{statistics.median(result.playouts):.0f} playouts; the station's budget: "
          f"{ADVICE_SECONDS:g} s ({ADVICE_SECONDS / reference:.1f} ref)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--only", choices=GAMES)
    parser.add_argument("--max-playouts", type=int, default=512)
    parser.add_argument("--minutes", type=float, default=4.0, help="at most, per game")
    arguments = parser.parse_args()
    print(reference_line())
    reference = reference_seconds()
    started = time.perf_counter()
    for game_name in [arguments.only] if arguments.only else GAMES:
        report(calibrate(game_name, arguments.positions, arguments.max_playouts,
                         arguments.minutes), reference)
    print(f"\nran {time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
