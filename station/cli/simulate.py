"""``packref simulate GAME --players N --seed S [--games K] [--policies P1,P2,...]``:
whole games through an engine, each seat played by a policy (docs/formats.md §8)."""

from __future__ import annotations

import argparse
import random
import sys

from rules import get_game
from rules.advice.policies import POLICY_NAMES, make_policy, play_with_policies
from station.advice import MAX_SECONDS, deadline_stop
from station.errors import InputError
from station.output import emit
from station.progress import Progress

ORDER = 20


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play games through an engine (random, greedy or advisor seats) and print scores",
        description="Play K games of GAME through its rules engine and print each game's "
        "final scores as one JSON line. Game i uses seed S+i. Every seat plays at random "
        "unless --policies says otherwise.",
    )
    parser.add_argument("game", metavar="GAME", help="e.g. small-warehouse, moving-day")
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--seed", type=int, required=True, help="seed of the first game")
    parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    parser.add_argument("--catalogue", metavar="FILE",
                        help="play with your copy's catalogue (packref catalogue learn/edit)")
    parser.add_argument("--policies", metavar="P1,P2,...",
                        help="one policy per seat, in order: " + ", ".join(POLICY_NAMES))
    parser.add_argument("--advisor-seconds", type=float, default=1.0,
                        help="an advisor seat's time per decision (default 1)")
    parser.set_defaults(run=run)


def read_policies(text: str | None, players: int) -> list[str]:
    """The policy names of ``--policies`` (all ``random`` when absent), checked."""
    if text is None:
        return ["random"] * players
    names = [name.strip() for name in text.split(",")]
    if len(names) != players:
        raise InputError(f"--policies: one policy per player: {players}, not {len(names)}")
    for name in names:
        if name not in POLICY_NAMES:
            raise InputError(f"--policies: {name!r} is not one of {', '.join(POLICY_NAMES)}")
    return names


def run(arguments: argparse.Namespace) -> int:
    from rules import UnknownGame

    try:
        game = get_game(arguments.game)
    except UnknownGame as error:
        raise InputError(f"GAME: {error}") from None
    if not game.min_players <= arguments.players <= game.max_players:
        raise InputError(
            f"--players: {game.name} takes {game.min_players} to {game.max_players} players"
        )
    if arguments.games < 1:
        raise InputError("--games: must be at least 1")
    if not 0 < arguments.advisor_seconds <= MAX_SECONDS:
        raise InputError(f"--advisor-seconds: must be more than 0 and at most {MAX_SECONDS:g}")
    seats = read_policies(arguments.policies, arguments.players)
    seconds = arguments.advisor_seconds
    policies = [make_policy(name, game.name, lambda: deadline_stop(seconds)) for name in seats]
    names = [f"P{index + 1}" for index in range(arguments.players)]
    catalogue = None
    if arguments.catalogue:
        from station.copies import load_copy

        catalogue = load_copy(game.name, arguments.catalogue, arguments.players)
    with Progress(arguments.games, "games", stream=sys.stderr) as progress:
        for index in range(arguments.games):
            seed = arguments.seed + index
            state = game.new_game(names, seed=seed, catalogue=catalogue)
            play_with_policies(state, policies, random.Random(seed))
            emit({
                "game": game.name,
                "seed": seed,
                "policies": seats,
                "actions": len(state.log),
                "players": [
                    {"player": score.player, "total": score.total, "points": score.parts}
                    for score in state.scores()
                ],
                "winners": state.winners(),
            })
            progress.advance()
    return 0
