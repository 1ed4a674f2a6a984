"""``packref score GAME FILE``: final scoring of a game from a JSON description."""

from __future__ import annotations

import argparse

from station.games import game_record, game_records
from station.jsonin import load_json_file
from station.output import emit

ORDER = 10


def scored_games() -> list[str]:
    """The games whose record has a scorer."""
    return [record.name for record in game_records() if record.scorer is not None]


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a finished game from a JSON file",
        description="Score a game from a JSON file (formats in the README). Prints the "
        "result as JSON; bad input exits with status 2 and one line naming the place.",
    )
    games = scored_games()
    parser.add_argument("game", choices=games, metavar="GAME", help="one of: " + ", ".join(games))
    parser.add_argument("file", metavar="FILE", help="the JSON file to score")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    document = load_json_file(arguments.file)
    record = game_record(arguments.game)
    assert record is not None and record.scorer is not None  # argparse's choices
    emit(record.scorer(document))
    return 0
