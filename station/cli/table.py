"""``packref table add|list|show|events``: the station's tables, straight from its database.

These work with the station running or not (SQLite in WAL mode takes a second
writer; a running station loads a new table the first time it is asked for).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from station.cli._data import data_folder, existing_station, storage_options
from station.errors import InputError
from station.output import emit, emit_lines

ORDER = 70


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    table = subparsers.add_parser("table", help="add and list the station's tables",
                                  description="Add, list and inspect tables.")
    commands = table.add_subparsers(title="table commands", metavar="COMMAND",
                                    parser_class=type(table))
    add = commands.add_parser("add", help="add a table, optionally starting a game there")
    add.add_argument("name", help='the table\'s name, e.g. "Table 3"')
    add.add_argument("--id", help="its id (default: made from the name, e.g. table-3)")
    add.add_argument("--game", help="start this game there, e.g. small-warehouse")
    add.add_argument("--players", help="comma-separated player names (with --game)")
    add.add_argument("--seed", type=int, help="the game's seed (default: random)")
    add.add_argument("--options", help="the game's options as a JSON object")
    add.add_argument("--deal", choices=("seed", "table"), default="seed",
                     help="seed: the station shuffles (default); table: the components were "
                          "shuffled and dealt by hand, and every draw is learnt at the table")
    add.add_argument("--catalogue", metavar="FILE",
                     help="your copy's catalogue for the game (packref catalogue learn/edit)")
    storage_options(add)
    add.set_defaults(run=run_add)
    listing = commands.add_parser("list", help="every table, one JSON line each")
    storage_options(listing)
    listing.set_defaults(run=run_list, existing="table list")
    show = commands.add_parser("show", help="a table's live snapshot as JSON")
    show.add_argument("id")
    storage_options(show)
    show.set_defaults(run=run_show, existing="table show")
    events = commands.add_parser("events", help="a table's stored events, as JSON Lines")
    events.add_argument("id")
    storage_options(events)
    events.set_defaults(run=run_events, existing="table events")
    outcomes = commands.add_parser(
        "outcomes", help="what the table may reveal now: the legal outcomes, as JSON")
    outcomes.add_argument("id")
    storage_options(outcomes)
    outcomes.set_defaults(run=run_outcomes, existing="table outcomes")
    reveal = commands.add_parser(
        "reveal", help="enter a chance outcome seen at a table dealt by hand",
        description="Enter what the table shows (a card drawn, a present turned up): one of "
                    "the outcomes `packref table outcomes ID` lists. Refused with exit 2 "
                    "(and flagged at the table) when it is not a legal outcome.")
    reveal.add_argument("id")
    reveal.add_argument("action", help='the reveal as JSON, e.g. \'{"type": "reveal", ...}\'')
    storage_options(reveal)
    reveal.set_defaults(run=run_reveal, existing="table reveal")
    archive = commands.add_parser(
        "archive", help="a table's games as a ZIP: events, the photo behind every ruling "
        "and flag, final scores")
    archive.add_argument("id")
    archive.add_argument("--out", required=True, help="the ZIP file to write (atomically)")
    storage_options(archive)
    archive.set_defaults(run=run_archive, existing="table archive")
    table.set_defaults(run=lambda _arguments: (table.print_help(sys.stderr), 2)[1])


def open_station(arguments: argparse.Namespace) -> Any:
    """The station over the database named by ``--data``/``--db`` (no server, no broadcast).

    A command that needs a station already there (``existing``: its name, set by its
    parser) stops with exit 2 where there is none, and makes nothing (``station.cli._data``).
    """
    from station.config import load_settings
    from station.live.station import Station
    from station.store import EventStore, open_database

    existing = getattr(arguments, "existing", None)
    folder = existing_station(arguments, existing) if existing else data_folder(arguments)
    settings = load_settings(folder, arguments.db)
    return Station(EventStore(open_database(settings.database_url)))


def _summary(station: Any, table_id: str) -> dict[str, Any]:
    snapshot = station.snapshot(table_id)
    game = snapshot["game"]
    return {"id": table_id, "name": snapshot["table"]["name"], "events": snapshot["seq"],
            "game": None if game is None else game["name"],
            "players": [] if game is None else game["players"],
            "over": None if game is None else game["over"],
            "scores": {} if game is None else {s["player"]: s["total"] for s in game["scores"]}}


def _game_arguments(arguments: argparse.Namespace) -> tuple[list[str], dict[str, Any] | None]:
    if not arguments.players:
        raise InputError("--players: give the players with --game, e.g. --players Ana,Ben")
    players = [name.strip() for name in arguments.players.split(",") if name.strip()]
    options = None
    if arguments.options:
        try:
            options = json.loads(arguments.options)
        except json.JSONDecodeError as error:
            raise InputError(f"--options: invalid JSON: {error.msg}") from None
        if not isinstance(options, dict):
            raise InputError("--options: must be a JSON object")
    return players, options


def run_add(arguments: argparse.Namespace) -> int:
    from rules import RulesError, get_game
    from station.store import StoreConflict

    station = open_station(arguments)
    players, options = ([], None) if not arguments.game else _game_arguments(arguments)
    seed = arguments.seed if arguments.seed is not None else secrets.randbelow(2**31)
    if arguments.deal == "table":
        if arguments.seed is not None:
            raise InputError("--seed: a game dealt by hand (--deal table) has no seed")
        seed = 0
    catalogue = _copy_catalogue(arguments, players)
    try:
        if arguments.game:  # check the game before anything is written
            get_game(arguments.game).new_game(players, seed=seed, options=options,
                                              catalogue=catalogue, deal=arguments.deal)
        live = station.create_table(arguments.name, arguments.id)
        if arguments.game:
            station.start_game(live.info.id, arguments.game, players, seed, options, "cli",
                               arguments.deal, catalogue=catalogue)
    except (RulesError, ValueError, StoreConflict) as error:
        raise InputError(f"table add: {error}") from None
    emit(_summary(station, live.info.id))
    return 0


def _copy_catalogue(arguments: argparse.Namespace, players: list[str]) -> dict[str, Any] | None:
    """The ``--catalogue`` file's catalogue, checked playable by these players (or None)."""
    if not arguments.catalogue:
        return None
    if not arguments.game:
        raise InputError("--catalogue: give the game with --game")
    from station.copies import load_copy

    return load_copy(arguments.game, arguments.catalogue, len(players))


def run_list(arguments: argparse.Namespace) -> int:
    station = open_station(arguments)
    emit_lines(_summary(station, table_id) for table_id in station.table_ids())
    return 0


def _known(station: Any, table_id: str) -> None:
    from station.live.station import UnknownTable

    try:
        station.table(table_id)
    except UnknownTable as error:
        raise InputError(f"ID: {error}") from None


def run_show(arguments: argparse.Namespace) -> int:
    station = open_station(arguments)
    _known(station, arguments.id)
    emit(station.snapshot(arguments.id))
    return 0


def run_events(arguments: argparse.Namespace) -> int:
    station = open_station(arguments)
    _known(station, arguments.id)
    emit_lines(event.to_json() for event in station.store.events(arguments.id))
    return 0


def run_outcomes(arguments: argparse.Namespace) -> int:
    from station.games import labelled_outcomes
    from station.live.table import chance_summary

    station = open_station(arguments)
    _known(station, arguments.id)
    current = station.refresh(arguments.id).current
    if current is None or current.state.is_over():
        emit({"waiting": False, "unseen": 0, "total": 0, "outcomes": []})
        return 0
    summary = chance_summary(current.state)
    outcomes = current.state.chance_outcomes()
    emit({"waiting": summary["waiting"], "unseen": summary["unseen"], "total": len(outcomes),
          "outcomes": labelled_outcomes(current.state, outcomes)})
    return 0


def run_reveal(arguments: argparse.Namespace) -> int:
    from rules import IllegalAction

    try:
        action = json.loads(arguments.action)
    except json.JSONDecodeError as error:
        raise InputError(f"ACTION: invalid JSON: {error.msg}") from None
    if not isinstance(action, dict) or action.get("type") != "reveal":
        raise InputError('ACTION: must be a JSON object with "type": "reveal"')
    station = open_station(arguments)
    _known(station, arguments.id)
    try:
        events = station.reveal(arguments.id, action, "cli")
    except IllegalAction as error:
        raise InputError(f"ACTION: {error.reason}") from None
    emit({"events": [event.to_json() for event in events]})
    return 0


def run_archive(arguments: argparse.Namespace) -> int:
    from pathlib import Path

    from station.appliance.archive import write_table_archive
    from station.appliance.setup import archive_dir
    from station.config import load_settings

    station = open_station(arguments)
    _known(station, arguments.id)
    data_dir = load_settings(data_folder(arguments), arguments.db).data_dir
    out = Path(arguments.out)
    if out.is_dir():
        raise InputError(f"--out: {out} is a directory, not a file")
    try:
        size = write_table_archive(station, arguments.id, archive_dir(data_dir), out)
    except OSError as error:
        raise InputError(f"--out: cannot write {out} ({error.strerror})") from None
    emit({"table": arguments.id, "out": str(out), "bytes": size})
    return 0
