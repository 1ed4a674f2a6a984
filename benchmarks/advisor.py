"""The advisor against random and greedy players in every game, and its time per decision.

Run: .venv/bin/python benchmarks/advisor.py [--seconds 1] [--games 40] [--only GAME]

For each registered game at its smallest player count, plays ``--games`` seeded games of
the advisor against ``random`` seats and as many against ``greedy`` seats (policies of
``rules.advice.policies``; the advisor takes seat 1 in even games and the last seat in odd
ones, so the starting seat's advantage is shared). Each advisor decision may think for
``--seconds`` of CPU time (``time.process_time``: fair on a shared machine). Prints, per
game and opponent, the advisor's sole wins, shared wins and losses with counts and its win
rate (a shared win counts as half), then the time per advisor decision (median and
slowest, CPU and wall clock) and the same in reference units (``benchmarks/reference.py``,
timed in the same run), and the wall time of ``station.advice.advise_state`` with a 1 s
budget on ``--states`` random states of every player count. Aim (issue 13): in Small
Warehouse the advisor's seat beats random in at least 75 % of games and greedy in at least
55 %.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from reference import reference_line, reference_seconds

from rules import game_names, get_game
from rules.advice.lookahead import AdvisorPolicy
from rules.advice.policies import make_policy, play_with_policies
from rules.playout import random_step
from station.advice import advise_state, deadline_stop

DEFAULT_GAMES = {"small-warehouse": 40}
OTHER_GAMES = 10
AIMS = {("small-warehouse", "random"): 0.75, ("small-warehouse", "greedy"): 0.55}


class TimedAdvisor(AdvisorPolicy):
    """The advisor policy, recording the CPU and wall time of each decision."""

    def __init__(self, game_name: str, seconds: float) -> None:
        super().__init__(game_name, lambda: deadline_stop(seconds, time.process_time))
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def choose(self, state, rng):  # type: ignore[no-untyped-def]
        cpu, wall = time.process_time(), time.perf_counter()
        action = super().choose(state, rng)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action


@dataclass
class Tally:
    wins: int = 0
    shared: int = 0
    losses: int = 0
    margins: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.shared + self.losses

    @property
    def rate(self) -> float:
        return (self.wins + self.shared / 2) / self.games


def play_match(name: str, opponent: str, games: int, advisor: TimedAdvisor) -> Tally:
    game = get_game(name)
    count = game.min_players
    names = [f"P{index + 1}" for index in range(count)]
    tally = Tally()
    for index in range(games):
        seat = 0 if index % 2 == 0 else count - 1
        policies = [advisor if place == seat else make_policy(opponent, name)
                    for place in range(count)]
        state = game.new_game(names, seed=1000 + index)
        play_with_policies(state, policies, random.Random(5000 + index))
        winners = state.winners()
        if names[seat] not in winners:
            tally.losses += 1
        elif len(winners) == 1:
            tally.wins += 1
        else:
            tally.shared += 1
        totals = [score.total for score in state.scores()]
        tally.margins.append(totals[seat] - max(t for i, t in enumerate(totals) if i != seat))
    return tally


def answer_seconds(name: str, budget: float, states: int) -> list[float]:
    """Wall seconds of ``advise_state`` with a ``budget`` on random states of ``name``
    (reading the document, screening, playouts and the answer)."""
    game = get_game(name)
    rng = random.Random(77)
    timings = []
    for index in range(states):
        count = rng.randint(game.min_players, game.max_players)
        state = game.new_game([f"P{i + 1}" for i in range(count)], seed=index)
        steps = rng.randint(0, 40)
        while steps and not state.is_over():
            state.apply(random_step(state, rng))
            steps -= 1
        if state.is_over():
            continue
        started = time.perf_counter()
        advise_state(state.to_json(), budget)
        timings.append(time.perf_counter() - started)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="advisor CPU seconds per decision (default 1)")
    parser.add_argument("--games", type=int, default=None,
                        help=f"games per match (default: 40 Small Warehouse, {OTHER_GAMES} others)")
    parser.add_argument("--only", metavar="GAME,...", help="these games only")
    parser.add_argument("--opponents", default="random,greedy",
                        help="opponents' policies, one match each (default random,greedy)")
    parser.add_argument("--states", type=int, default=10,
                        help="random states per game timed with advise_state (default 10)")
    arguments = parser.parse_args()
    print(reference_line())
    print(f"advisor: {arguments.seconds:g} CPU-s per decision")
    print(f"{'game':<16} {'players':>7} {'opponent':<8} {'games':>5} {'wins':>4} {'shared':>6} "
          f"{'losses':>6} {'win rate':>8} {'mean margin':>11}  aim")
    for name in arguments.only.split(",") if arguments.only else game_names():
        advisor = TimedAdvisor(name, arguments.seconds)
        games = arguments.games or DEFAULT_GAMES.get(name, OTHER_GAMES)
        for opponent in arguments.opponents.split(","):
            tally = play_match(name, opponent, games, advisor)
            aim = AIMS.get((name, opponent))
            verdict = "" if aim is None else (
                f">= {aim:.0%}: {'met' if tally.rate >= aim else 'NOT met'}")
            print(f"{name:<16} {get_game(name).min_players:>7} {opponent:<8} {tally.games:>5} "
                  f"{tally.wins:>4} {tally.shared:>6} {tally.losses:>6} {tally.rate:>8.1%} "
                  f"{statistics.mean(tally.margins):>11.1f}  {verdict}", flush=True)
        ref = reference_seconds()
        print(f"{name:<16} decisions {len(advisor.cpu)}: CPU s median "
              f"{statistics.median(advisor.cpu):.3f} max {max(advisor.cpu):.3f} "
              f"({statistics.median(advisor.cpu) / ref:.1f} / {max(advisor.cpu) / ref:.1f} ref); "
              f"wall s median {statistics.median(advisor.wall):.3f} max {max(advisor.wall):.3f}",
              flush=True)
        timings = answer_seconds(name, 1.0, arguments.states)
        print(f"{name:<16} advise_state(document, 1.0) on {len(timings)} random states: wall s "
              f"median {statistics.median(timings):.3f} max {max(timings):.3f}", flush=True)


if __name__ == "__main__":
    main()
