"""``packref simulate GAME --players N --seed S [--games K]``: random playouts."""

from __future__ import annotations

import argparse
import random
import sys

from rules import get_game
from rules.playout import play_randomly, random_game
from station.cli._output import emit
from station.errors import InputError
from station.progress import Progress

ORDER = 20


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play random games through an engine and print the final scores",
        description="Play K random games of GAME through its rules engine and print each "
        "game's final scores as one JSON line. Game i uses seed S+i.",
    )
    parser.add_argument("game", metavar="GAME", help="e.g. small-warehouse, moving-day")
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--seed", type=int, required=True, help="seed of the first game")
    parser.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    parser.add_argument("--catalogue", metavar="FILE",
                        help="play with your copy's catalogue (packref catalogue learn/edit)")
    parser.set_defaults(run=run)


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
    names = [f"P{index + 1}" for index in range(arguments.players)]
    catalogue = None
    if arguments.catalogue:
        from station.catalogue.copy import load_copy

        catalogue = load_copy(game.name, arguments.catalogue, arguments.players)
    with Progress(arguments.games, "games", stream=sys.stderr) as progress:
        for index in range(arguments.games):
            seed = arguments.seed + index
            state = (random_game(game.name, names, seed) if catalogue is None else
                     play_randomly(game.new_game(names, seed=seed, catalogue=catalogue),
                                   random.Random(seed)))
            emit({
                "game": game.name,
                "seed": seed,
                "actions": len(state.log),
                "players": [
                    {"player": score.player, "total": score.total, "points": score.parts}
                    for score in state.scores()
                ],
                "winners": state.winners(),
            })
            progress.advance()
    return 0
