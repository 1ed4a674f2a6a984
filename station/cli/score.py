"""``packref score GAME FILE``: final scoring of a game from a JSON description."""

from __future__ import annotations

import argparse
import importlib

from station.cli._output import emit
from station.jsonin import load_json_file

ORDER = 10
SCORED_GAMES = ("small-warehouse", "moving-day", "pick-n-packers", "removal")


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a finished game from a JSON file",
        description="Score a game from a JSON file (formats in the README). Prints the "
        "result as JSON; bad input exits with status 2 and one line naming the place.",
    )
    parser.add_argument("game", choices=SCORED_GAMES, metavar="GAME",
                        help="one of: " + ", ".join(SCORED_GAMES))
    parser.add_argument("file", metavar="FILE", help="the JSON file to score")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    document = load_json_file(arguments.file)
    module = importlib.import_module(f"station.inputs.{arguments.game.replace('-', '_')}")
    emit(module.score_document(document))
    return 0
