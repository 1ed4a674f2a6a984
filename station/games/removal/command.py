"""``packref removal truck FILE`` and ``packref removal placements FILE`` (docs/formats.md §4):
Removal's own command, added to ``packref`` by its record (:class:`station.games.GameCommand`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from station.games.removal.truck import placements_document, truck_document
from station.jsonin import Node, load_json_file
from station.output import emit

ORDER = 30  # its place in ``packref --help``, among the modules of ``station.cli``


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "removal",
        help="Removal's truck: check placements, score a drive, list legal placements",
        description="Removal's truck from a JSON file (docs/formats.md §4).",
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND",
                                     parser_class=type(parser))
    truck = commands.add_parser(
        "truck",
        help="apply placements to a truck and score its drive",
        description="Apply a sequence of placements to one truck, reporting each as legal or "
        "not (with the reason), and score the drive when \"drive\" is true.",
    )
    truck.add_argument("file", metavar="FILE", help="the truck JSON file")
    truck.set_defaults(run=_runner(truck_document))
    placements = commands.add_parser(
        "placements",
        help="list every legal placement of a tile in a truck",
        description="Read a truck file plus \"tile\": NAME (and optional \"helpers\") and print "
        "every legal row, col, rotation and flip of that tile, each footprint once, with the "
        "delicate tiles it would damage.",
    )
    placements.add_argument("file", metavar="FILE", help="the truck JSON file with \"tile\"")
    placements.set_defaults(run=_runner(placements_document))


def _runner(build: Callable[[Node], dict[str, Any]]) -> Callable[[argparse.Namespace], int]:
    def run(arguments: argparse.Namespace) -> int:
        emit(build(load_json_file(arguments.file)))
        return 0

    return run
