"""``packref tournament ...``: players, rounds, results and standings, from the station's database.

The same operations as ``/api/tournaments``; results of games played at live
tables are read from those tables' events.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from station.cli._data import storage_options
from station.cli.table import open_station
from station.errors import InputError
from station.output import emit

ORDER = 80


def _names(text: str, place: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError(f"{place}: give at least one name")
    return names


Command = Callable[[str, str, Callable[..., int]], argparse.ArgumentParser]


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament", help="run a tournament: players, rounds, results, standings",
        description="Tournaments: players meet in games (live at tables, or entered by hand); "
        "standings use configurable, deterministic tie-breakers.")
    commands = parser.add_subparsers(title="tournament commands", metavar="COMMAND",
                                     parser_class=type(parser))

    def command(name: str, help_text: str, run: Callable[..., int]) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        storage_options(sub)
        # every command but add works on a tournament already there: none there, it stops
        sub.set_defaults(run=run, existing=None if name == "add" else f"tournament {name}")
        return sub

    _add_setup_commands(command)
    _add_round_commands(command)
    _add_result_commands(command)
    parser.set_defaults(run=lambda _arguments: (parser.print_help(sys.stderr), 2)[1])


def _add_setup_commands(command: Command) -> None:
    """add, list, show, player, game, start."""
    add = command("add", "create a tournament", run_add)
    add.add_argument("name")
    add.add_argument("--id", help="its id (default: made from the name)")
    add.add_argument("--players", help="comma-separated player names")
    add.add_argument("--game", help="its game: chooses the tie-breakers when none are given")
    add.add_argument("--tie-breakers", help="comma-separated, in order, from: wins, points, "
                     "average, head_to_head, opponents, opponents_strength, fewest_games "
                     "(default: the game's, else wins,points,head_to_head)")
    command("list", "every tournament", run_list)
    command("show", "a tournament: players, rounds, results, standings",
            run_show).add_argument("tournament")
    player = command("player", "register players", run_player)
    player.add_argument("tournament")
    player.add_argument("names", help="comma-separated player names")
    game = command("game", "add a game to a round", run_game)
    game.add_argument("tournament")
    game.add_argument("--round", type=int, required=True)
    game.add_argument("--players", required=True, help="comma-separated player names")
    game.add_argument("--table", help="the table where it is played live")
    start = command("start", "start a game at its table (its result then comes live)", run_start)
    start.add_argument("tournament")
    start.add_argument("game_id", type=int, metavar="GAME")
    start.add_argument("--game", help="which game, e.g. moving-day (default: the tournament's)")
    start.add_argument("--table", help="the table to start it at (a game waiting for one)")
    _deal_options(start)
    start.add_argument("--seed", type=int, help="with --deal seed: the seed of the deal")


def _deal_options(parser: argparse.ArgumentParser) -> None:
    """--deal and --replace, as pair and start take them (docs/formats.md §10)."""
    parser.add_argument("--deal", choices=("table", "seed"), default="table",
                        help="table: dealt by hand at the table (default); seed: the "
                        "station deals from a seed")
    parser.add_argument("--replace", action="store_true",
                        help="a table with a game in play may be given the game (its game "
                        "is ended)")


def _add_round_commands(command: Command) -> None:
    """pair, drop, lock, forbid."""
    pair = command("pair", "pair and start the next round (Swiss from round 2)", run_pair)
    pair.add_argument("tournament")
    pair.add_argument("--game", help="which game, e.g. moving-day (default: the "
                      "tournament's)")
    pair.add_argument("--tables", help="comma-separated table ids to play at (default: "
                      "every table with no game in play)")
    _deal_options(pair)
    pair.add_argument("--size", type=int, help="players a table (default: the most the game "
                      "allows)")
    pair.add_argument("--force", action="store_true",
                      help="pair even though some games of earlier rounds have no result")
    drop = command("drop", "take a player out of later rounds (past results stay)", run_drop)
    drop.add_argument("tournament")
    drop.add_argument("name")
    lock = command("lock", "keep a player at one table from now on", run_lock)
    lock.add_argument("tournament")
    lock.add_argument("name")
    lock.add_argument("--table", help="the table (leave out to lift the lock)")
    forbid = command("forbid", "never seat these players at one table", run_forbid)
    forbid.add_argument("tournament")
    forbid.add_argument("names", help="comma-separated, two or more")


def _add_result_commands(command: Command) -> None:
    """result, codes, settle, tie-breakers, standings."""
    result = command("result", "enter a game's result by hand", run_result)
    result.add_argument("tournament")
    result.add_argument("game_id", type=int, metavar="GAME")
    result.add_argument("--score", action="append", required=True, metavar="PLAYER=TOTAL",
                        help="one per player, e.g. --score Ana=31 --score Ben=27")
    result.add_argument("--winners", help="comma-separated (default: the highest totals, "
                        "then the game's tie-break)")
    result.add_argument("--tie-break", action="append", metavar="PLAYER=NUMBER",
                        help="for a tie on top: each tied player's figure the game's rulebook "
                        "breaks it on (Moving Day: snack points; Small Warehouse: empty boxes; "
                        "Removal: Antique tiles)")
    codes = command("codes", "each player's code for a game (they sign its result with it) "
                    "and who signed what", run_codes)
    codes.add_argument("tournament")
    codes.add_argument("game_id", type=int, metavar="GAME")
    settle = command("settle", "settle a disputed game: the result stands, or --score "
                     "corrects it", run_settle)
    settle.add_argument("tournament")
    settle.add_argument("game_id", type=int, metavar="GAME")
    settle.add_argument("--note", required=True, help="why the result stands, or what changed")
    settle.add_argument("--score", action="append", metavar="PLAYER=TOTAL",
                        help="the corrected result, one per player")
    settle.add_argument("--winners", help="comma-separated (default: the highest totals)")
    breakers = command("tie-breakers", "set the tie-breakers, in order", run_tie_breakers)
    breakers.add_argument("tournament")
    breakers.add_argument("names", help="comma-separated, e.g. wins,head_to_head,points")
    standings = command("standings", "the standings (JSON; --csv FILE also writes CSV)",
                        run_standings)
    standings.add_argument("tournament")
    standings.add_argument("--csv", type=Path, metavar="FILE", help="write the standings as CSV")


def _in_transaction(arguments: argparse.Namespace,
                    work: Callable[[Any, Any], Any]) -> Any:
    """Run ``work(session, station)`` in one transaction; refusals become one-line errors.
    A change is announced to the stations of a hub (their pages update at once)."""
    from rules import RulesError
    from station.live.station import UnknownTable
    from station.live.table import TableRefusal
    from station.store.notify import announce
    from station.tournament.service import TournamentRefusal, UnknownTournament

    station = open_station(arguments)
    try:
        with station.store.database.session() as session:
            answer = work(session, station)
    except (TournamentRefusal, UnknownTournament, UnknownTable, TableRefusal, RulesError,
            ValueError) as error:
        raise InputError(f"tournament: {error}") from None
    if arguments.run not in _READ_ONLY:
        tournament_id = getattr(arguments, "tournament", None) or answer.get("id")
        announce(station.store.database, {"kind": "tournament", "id": tournament_id})
    return answer


def run_add(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    players = _names(arguments.players, "--players") if arguments.players else []
    breakers = (_names(arguments.tie_breakers, "--tie-breakers")
                if arguments.tie_breakers else None)
    emit(_in_transaction(arguments, lambda session, station: service.create_tournament(
        session, station.store.clock, arguments.name, arguments.id, breakers, players,
        arguments.game)))
    return 0


def run_list(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    emit(_in_transaction(arguments, lambda session, _station: service.list_tournaments(session)))
    return 0


def run_show(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    emit(_in_transaction(arguments, lambda session, station: service.tournament_detail(
        session, station, arguments.tournament)))
    return 0


def run_player(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    def work(session: Any, _station: Any) -> Any:
        players: list[str] = []
        for name in _names(arguments.names, "NAMES"):
            players = service.add_player(session, arguments.tournament, name)
        return {"players": players}

    emit(_in_transaction(arguments, work))
    return 0


def run_game(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    players = _names(arguments.players, "--players")
    emit(_in_transaction(arguments, lambda session, _station: service.add_match(
        session, arguments.tournament, arguments.round, players, arguments.table)))
    return 0


def run_start(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    emit(_in_transaction(arguments, lambda session, station: service.start_match(
        session, station, arguments.tournament, arguments.game_id, arguments.game, "cli",
        arguments.seed, None, arguments.deal, arguments.table, arguments.replace)))
    return 0


def run_pair(arguments: argparse.Namespace) -> int:
    from station.tournament import rounds

    tables = _names(arguments.tables, "--tables") if arguments.tables else None
    emit(_in_transaction(arguments, lambda session, station: rounds.pair_next_round(
        session, station, arguments.tournament, arguments.game, arguments.size, "cli",
        arguments.force, tables, arguments.deal, arguments.replace)))
    return 0


def run_drop(arguments: argparse.Namespace) -> int:
    from station.tournament import rounds

    emit(_in_transaction(arguments, lambda session, _station: rounds.drop_player(
        session, arguments.tournament, arguments.name)))
    return 0


def run_lock(arguments: argparse.Namespace) -> int:
    from station.tournament import rounds

    emit(_in_transaction(arguments, lambda session, _station: rounds.lock_player(
        session, arguments.tournament, arguments.name, arguments.table)))
    return 0


def run_forbid(arguments: argparse.Namespace) -> int:
    from station.tournament import rounds

    names = _names(arguments.names, "NAMES")
    emit(_in_transaction(arguments, lambda session, _station: rounds.forbid_players(
        session, arguments.tournament, names)))
    return 0


def _scores(pairs: list[str], option: str = "--score") -> dict[str, int]:
    scores: dict[str, int] = {}
    for pair in pairs:
        player, sep, total = pair.rpartition("=")
        if not sep or not player.strip():
            raise InputError(f"{option}: {pair!r} is not PLAYER=NUMBER")
        try:
            scores[player.strip()] = int(total)
        except ValueError:
            raise InputError(f"{option}: {total!r} is not a whole number") from None
    return scores


def run_result(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    scores = _scores(arguments.score)
    winners = _names(arguments.winners, "--winners") if arguments.winners else None
    tie_break = _scores(arguments.tie_break, "--tie-break") if arguments.tie_break else None
    emit(_in_transaction(arguments, lambda session, station: service.record_result(
        session, station.store.clock, station, arguments.tournament, arguments.game_id, scores,
        winners, "cli", tie_break)))
    return 0


def run_codes(arguments: argparse.Namespace) -> int:
    from station.tournament import results

    emit(_in_transaction(arguments, lambda session, _station: results.signing_view(
        session, arguments.tournament, arguments.game_id)))
    return 0


def run_settle(arguments: argparse.Namespace) -> int:
    from station.tournament import results

    scores = _scores(arguments.score) if arguments.score else None
    winners = _names(arguments.winners, "--winners") if arguments.winners else None
    if winners and scores is None:
        raise InputError("--winners: give the corrected result with --score too")
    emit(_in_transaction(arguments, lambda session, station: results.settle_dispute(
        session, station.store.clock, arguments.tournament, arguments.game_id, "cli",
        arguments.note, scores, winners)))
    return 0


def run_tie_breakers(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    names = _names(arguments.names, "NAMES")
    emit({"tie_breakers": _in_transaction(arguments, lambda session, _station:
          service.set_tie_breakers(session, arguments.tournament, names))})
    return 0


def run_standings(arguments: argparse.Namespace) -> int:
    from station.tournament import service

    def work(session: Any, station: Any) -> Any:
        detail = service.tournament_detail(session, station, arguments.tournament)
        if arguments.csv:
            text = service.tournament_csv(session, station, arguments.tournament)
            try:
                arguments.csv.write_text(text, encoding="utf-8")
            except OSError as error:
                raise InputError(
                    f"--csv: cannot write {arguments.csv} ({error.strerror})") from None
        return detail["standings"]

    emit(_in_transaction(arguments, work))
    return 0


_READ_ONLY = {run_list, run_show, run_standings, run_codes}  # codes: nothing public changes
