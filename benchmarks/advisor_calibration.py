"""Are the win chances the pages show worth trusting? A reliability table per game, and the
time to a shown estimate on one core.

Run: .venv/bin/python benchmarks/advisor_calibration.py [--positions 500] [--per-game 5]
     [--only GAME] [--max-playouts N] [--cpu-minutes 3.7] [--first-seed 0]

For each game (at its smallest player count, at least two), ``--positions`` positions are
made on the fly, ``--per-game`` of them from each simulated game: a seeded game played by
the engine's random play (``rules.playout``) to its end, and positions taken at distinct
random points of it after the first move. The advisor (``rules.advice.lookahead.Advisor``,
the one the station's worker runs) studies each position until its win chances may be
shown (``station.advice.credible_chances`` on the playouts from the position itself, half of
the search's: every player's 95 % Wilson interval at most ``CREDIBLE_WIDTH`` wide; the search
stops right after the playout that made them so) or the game's playout cap is reached
(``PLAYOUT_CAPS``; ``--max-playouts`` sets one cap for all). The estimate names a favoured
player (the highest chance); the game is then played on from the true position (the hidden cards as
they really lie) by the advisor's own rollout policy, as stand-in players, and the
favoured player's win (a shared win its fraction) is recorded.

Prints, per game: two reliability tables — every position's last estimate, and the shown
ones only — (the favoured player's chance in 10-point bins: positions, mean chance, how
often the favoured player won), and the median CPU time (``time.process_time``: one core,
fair on a shared machine) and playouts to the first shown estimate, in seconds and in
reference units (``benchmarks/reference.py``, timed in the same run), beside the station's
advice budget for the game (``GameRecord.advice_seconds``). ``--cpu-minutes`` caps each
game's CPU time: a game that runs out says how many positions it got through.
``--first-seed``: the simulated games' first seed (0; another gives positions the
estimator was never looked at on, e.g. 100000).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

# the checkout, not this folder, first: benchmarks/vision.py would stand for the vision
# package that station.games imports
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.reference import reference_line, reference_seconds  # noqa: E402
from rules import State, get_game  # noqa: E402
from rules.advice.greedy import rollout_policy  # noqa: E402
from rules.advice.knowledge import reveal_pending  # noqa: E402
from rules.advice.lookahead import Advisor, Candidate  # noqa: E402
from rules.playout import random_step  # noqa: E402
from station.advice import CREDIBLE_WIDTH, credible_chances, moves_made  # noqa: E402
from station.games import game_record  # noqa: E402

GAMES = ("small-warehouse", "pick-n-packers", "moving-day", "removal")
MAX_STEPS = 5_000
#: Each game's most playouts a position (the advisor's, over all its candidate moves; half
#: of them from the position itself): an even chance is shown after about 40 of those.
PLAYOUT_CAPS = {"small-warehouse": 256, "pick-n-packers": 256, "moving-day": 256,
                "removal": 256}


@dataclass
class Calibration:
    """One game's shown estimates and what became of them."""

    game: str
    tried: int = 0
    every: list[tuple[float, float]] = field(default_factory=list)  # (chance, won), all
    shown: list[tuple[float, float]] = field(default_factory=list)  # (chance, won)
    cpu: float = 0.0  # CPU seconds the game's positions took, play-ons included
    seconds: list[float] = field(default_factory=list)  # CPU time to the shown estimate
    playouts: list[int] = field(default_factory=list)


def random_positions(game_name: str, seed: int, count: int) -> list[State]:
    """``count`` positions (fewer in a short game) of one seeded game of ``game_name``
    played randomly to its end: at distinct random points after the first move and before
    the end, in the order played."""
    game = get_game(game_name)
    players = ["Ana", "Ben", "Cas", "Dee"][:max(2, game.min_players)]
    rng = random.Random(seed)
    whole = game.new_game(players, seed=seed)
    steps, moves = [], []
    while not whole.is_over() and len(steps) < MAX_STEPS:
        action = random_step(whole, rng)
        whole.apply(action)
        steps.append(action)
        moves.append(moves_made(whole))
    after_first = [stop for stop in range(1, len(steps)) if moves[stop - 1] > 0]
    stops = sorted(rng.sample(after_first, min(count, len(after_first))))
    positions, state, done = [], game.new_game(players, seed=seed), 0
    for stop in stops:
        for action in steps[done:stop]:
            state.apply(action)
        done = stop
        positions.append(state.clone())
    return positions


def study(game_name: str, state: State, seed: int, most: int
          ) -> tuple[dict[str, float], bool, float, int]:
    """``state``'s win chances as soon as they may be shown (the search stopped right
    after the playout that made them sure enough), else after ``most`` playouts: the
    chances, whether they are shown, and the CPU seconds and playouts it took."""
    moves = moves_made(state)

    def shown(position: Candidate) -> bool:
        answer = {"win_chances": dict(zip(state.players, position.win_chances, strict=True)),
                  "position_playouts": position.playouts}
        return credible_chances(answer, moves)["shown"]

    started = time.process_time()
    advice = Advisor(game_name).advise(state, random.Random(seed), max_playouts=most,
                                       enough=shown)
    spent = time.process_time() - started
    answer = advice.to_json(state.players)  # as the station's worker answers
    return answer["win_chances"], shown(advice.position), spent, advice.playouts


def played_on(game_name: str, state: State, seed: int) -> State:
    """``state``'s game played to its end by the advisor's rollout policy for every seat."""
    game, rng, policy = state.clone(), random.Random(seed + 1), rollout_policy(game_name)
    for _ in range(MAX_STEPS):
        reveal_pending(game, rng)
        if game.is_over():
            return game
        game.apply(policy.choose(game, rng))
    raise RuntimeError(f"{game_name} did not end within {MAX_STEPS} steps")


def calibrate(game_name: str, positions: int, per_game: int, most: int,
              cpu_minutes: float, first_seed: int = 0) -> Calibration:
    result = Calibration(game_name)
    began = time.process_time()
    seed = first_seed
    while result.tried < positions and time.process_time() - began < cpu_minutes * 60:
        for state in random_positions(game_name, seed, per_game)[:positions - result.tried]:
            if time.process_time() - began >= cpu_minutes * 60:
                break
            result.tried += 1
            chances, shown, seconds, playouts = study(game_name, state, seed, most)
            favoured = max(state.players, key=lambda name: chances[name])
            winners = played_on(game_name, state, seed + result.tried).winners()
            won = 1 / len(winners) if favoured in winners else 0.0
            result.every.append((chances[favoured], won))
            if shown:
                result.shown.append((chances[favoured], won))
                result.seconds.append(seconds)
                result.playouts.append(playouts)
        seed += 1
    result.cpu = time.process_time() - began
    return result


def table(pairs: list[tuple[float, float]]) -> None:
    """The reliability table of (favoured chance, won) pairs, in 10-point bins."""
    print("  shown chance  positions  mean shown  favoured won")
    for low in range(0, 100, 10):
        inside = [(c, w) for c, w in pairs if low <= c * 100 < low + 10
                  or (low == 90 and c == 1.0)]
        if inside:
            mean = statistics.fmean(c for c, _ in inside)
            won = statistics.fmean(w for _, w in inside)
            print(f"  {low:3d}–{low + 10:3d} %   {len(inside):9d}  {mean * 100:9.1f} %"
                  f"  {won * 100:10.1f} %")


def report(result: Calibration, reference: float, most: int) -> None:
    print(f"\n{result.game}: {result.tried} positions in {result.cpu:.0f} s CPU "
          f"(at most {most} playouts each), {len(result.shown)} shown "
          f"(every 95 % interval at most {CREDIBLE_WIDTH:.2f} wide)")
    print(" every position's estimate:")
    table(result.every)
    if not result.shown:
        print("  no estimate reached the threshold within the playouts allowed")
        return
    print(" the shown ones:")
    table(result.shown)
    seconds = statistics.median(result.seconds)
    budget = game_record(result.game).advice_seconds  # type: ignore[union-attr]
    print(f"  median to a shown estimate: {seconds:.3f} s CPU ({seconds / reference:.1f} ref), "
          f"{statistics.median(result.playouts):.0f} playouts; the station's budget: "
          f"{budget:g} s ({budget / reference:.1f} ref)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500, help="per game")
    parser.add_argument("--per-game", type=int, default=5,
                        help="positions taken from each simulated game")
    parser.add_argument("--only", choices=GAMES)
    parser.add_argument("--max-playouts", type=int, help="one cap for every game")
    parser.add_argument("--cpu-minutes", type=float, default=3.7, help="at most, per game")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the first simulated game's seed")
    arguments = parser.parse_args()
    print(reference_line())
    reference = reference_seconds()
    started, cpu = time.perf_counter(), time.process_time()
    for game_name in [arguments.only] if arguments.only else GAMES:
        most = arguments.max_playouts or PLAYOUT_CAPS[game_name]
        report(calibrate(game_name, arguments.positions, arguments.per_game, most,
                         arguments.cpu_minutes, arguments.first_seed), reference, most)
    print(f"\nran {time.process_time() - cpu:.0f} s CPU, "
          f"{time.perf_counter() - started:.0f} s wall")


if __name__ == "__main__":
    main()
