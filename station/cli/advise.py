"""``packref advise``: best placements for the piece in hand (docs/formats.md §8), and advice
with win chances for any state of any game (``--state``)."""

from __future__ import annotations

import argparse

from station.advice import advise_state
from station.errors import InputError
from station.games import Ranker, game_records
from station.jsonin import load_json_file
from station.output import emit

ORDER = 25


def ranked_games() -> dict[str, Ranker]:
    """The games whose record ranks the placements of a piece in hand, with their reader."""
    return {record.name: record.ranked_placements for record in game_records()
            if record.ranked_placements is not None}


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "advise",
        help="rank the placements of the piece in hand, or advise on a game in progress",
        description="With FILE (small-warehouse or removal, docs/formats.md §8): every legal "
        "placement of the piece in hand, best first by the score right after it. With "
        "--state STATE.json (a game as the station stores it, any game): the three best "
        "actions found by Monte Carlo playouts over the components not yet seen, each with "
        "the expected final score and every player's win chance.",
    )
    parser.add_argument("game", metavar="GAME", help="e.g. small-warehouse, removal")
    parser.add_argument("file", metavar="FILE", nargs="?", help="the §8 JSON file")
    parser.add_argument("--state", metavar="STATE.json",
                        help="a game's JSON document (setup, log, state)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="time budget of the --state advice (default 1)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the advisor's own random draws (default 0)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    if (arguments.file is None) == (arguments.state is None):
        raise InputError("packref advise: give either FILE or --state STATE.json")
    if arguments.file is not None:
        ranked = ranked_games()
        if arguments.game not in ranked:
            raise InputError(f"GAME: ranked placements are for {', '.join(ranked)}, "
                             f"not {arguments.game!r} (use --state for any game)")
        emit(ranked[arguments.game](load_json_file(arguments.file)))
        return 0
    emit(advise_state(load_json_file(arguments.state).value, arguments.seconds,
                      arguments.seed, arguments.game))
    return 0
