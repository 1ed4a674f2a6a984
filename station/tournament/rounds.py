"""Rounds paired by the station (``docs/formats.md`` §10), and the organiser's pairing rules:
drops, locks (a player kept at one table) and forbidden pairs.

Every function takes an open session (one transaction) like :mod:`.service`.
"""

from __future__ import annotations

import itertools
import zlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from rules import get_game
from station.live.station import Station
from station.store.models import MatchRow, TableRow, TournamentRuleRow
from station.tournament import service, tables
from station.tournament.codes import make_codes
from station.tournament.pairing import (
    PairedRound,
    PairingImpossible,
    PairingRequest,
    pair_round,
)
from station.tournament.service import TournamentConflict, TournamentRefusal


def _known_player(session: Session, tournament_id: str, name: str) -> None:
    if name not in service.player_names(session, tournament_id):
        raise service.UnknownTournament(f"tournament {tournament_id!r} has no player {name!r}")


def drop_player(session: Session, tournament_id: str, name: str) -> dict[str, Any]:
    """Take a player out of later rounds; their past results stay."""
    _known_player(session, tournament_id, name)
    if name in service.dropped(session, tournament_id):
        raise TournamentConflict(f"{name!r} has already dropped")
    after = service.last_round(session, tournament_id)
    session.add(TournamentRuleRow(tournament_id=tournament_id, kind="drop", players=[name],
                                  round=after))
    session.flush()
    return {"player": name, "dropped_after_round": after}


def lock_player(session: Session, tournament_id: str, name: str,
                table_id: str | None) -> dict[str, Any]:
    """Keep a player at one table from now on (``None`` lifts the lock)."""
    _known_player(session, tournament_id, name)
    if table_id is not None and session.get(TableRow, table_id) is None:
        raise TournamentRefusal(f"there is no table {table_id!r}")
    for rule in service.rules_of(session, tournament_id, "lock"):
        if rule.players == [name]:
            session.delete(rule)
    if table_id is not None:
        session.add(TournamentRuleRow(tournament_id=tournament_id, kind="lock", players=[name],
                                      table_id=table_id))
    session.flush()
    return {"locks": service.locks(session, tournament_id)}


def forbid_players(session: Session, tournament_id: str, names: Sequence[str]) -> dict[str, Any]:
    """Never seat these players (two or more: a family, a club) at one table."""
    if len(names) < 2 or len(set(names)) != len(names):
        raise TournamentRefusal("name two or more different players to keep apart")
    for name in names:
        _known_player(session, tournament_id, name)
    session.add(TournamentRuleRow(tournament_id=tournament_id, kind="forbid",
                                  players=list(names)))
    session.flush()
    return {"forbidden": service.forbidden(session, tournament_id)}


def _history(matches: Sequence[MatchRow]) -> tuple[Counter, Counter, dict[str, Counter]]:
    """Meetings per pair, byes per player, visits per player and table."""
    met: Counter = Counter()
    byes: Counter = Counter()
    tables: dict[str, Counter] = {}
    for match in matches:
        if service.is_bye(match):
            byes[match.players[0]] += 1
            continue
        met.update(frozenset(pair) for pair in itertools.combinations(match.players, 2))
        if match.table_id:
            for player in match.players:
                tables.setdefault(player, Counter())[match.table_id] += 1
    return met, byes, tables


def _table_size(game: str, size: int | None) -> tuple[int, int]:
    rules = get_game(game)
    low, high = rules.min_players, rules.max_players
    if size is not None and not low <= size <= high:
        raise TournamentRefusal(f"{rules.name} takes {low} to {high} players, not {size}")
    return size or high, low


def _round_tables(station: Station | None, chosen: Sequence[str] | None,
                  replace: bool) -> list[str]:
    """The tables a round may use: those named (each checked: busy ones only with
    ``replace``), else every table with no game in play (every table with ``replace``)."""
    if station is None:
        return []
    if chosen is None:
        return station.table_ids() if replace else tables.free_tables(station)
    return tables.check_tables(station, list(chosen), replace)


def pair_next_round(session: Session, station: Station | None, tournament_id: str,
                    game: str | None, size: int | None, author: str, force: bool = False,
                    table_ids: Sequence[str] | None = None, deal: str = "table",
                    replace: bool = False) -> dict[str, Any]:
    """Pair and start the next round (docs/formats.md §10): ``{"round", "games": [{"id",
    "players", "table"}], "byes"}``. ``game``: default the tournament's; ``table_ids``:
    default every free table; a game with no table (``"table": null``) waits until one is
    named for it (:func:`service.start_match`); ``deal``: each game dealt by hand
    (``"table"``) or seeded."""
    service.tournament_row(session, tournament_id)
    game = service.game_to_play(session, tournament_id, game, "$.game")
    seats, min_size = _table_size(game, size)
    detail = service.tournament_detail(session, station, tournament_id)
    number = service.last_round(session, tournament_id) + 1
    missing = [g["id"] for r in detail["rounds"] for g in r["games"]
               if not (g["result"] and g["result"].get("final", True))]
    if missing and not force:
        raise TournamentRefusal(f"game(s) {', '.join(map(str, missing))} have no result yet; "
                                "enter them, or pair anyway with force")
    usable = _round_tables(station, table_ids, replace)
    paired = _pair(session, tournament_id, detail, number, seats, min_size, usable)
    for players in paired.groups:  # refused before any game starts (e.g. no hand deal yet)
        tables.check_deal(game, players, deal)
    # Games start at their tables before any row is written: on SQLite the table's events
    # are stored by another connection, which must not wait for this transaction.
    rows = []
    for players, table in zip(paired.groups, paired.tables, strict=True):
        game_seq = None
        if table is not None and station is not None:
            game_seq = tables.start_at_table(station, table, game, players, deal, author,
                                             f"round {number} of {tournament_id}").game_seq
        rows.append(MatchRow(tournament_id=tournament_id, round=number, players=players,
                             table_id=table, game_seq=game_seq))
    if service.tournament_game(session, tournament_id) is None:  # the next round's default
        service.set_tournament_game(session, tournament_id, game)
    session.add_all(rows)
    session.flush()
    for row in rows:  # the seats are known: each player gets the code they sign with
        make_codes(session, row)
    games = [{"id": row.id, "players": row.players, "table": row.table_id} for row in rows]
    for player in paired.byes:
        session.add(MatchRow(tournament_id=tournament_id, round=number, players=[player],
                             result=service.bye_result(player)))
    session.flush()
    return {"round": number, "games": games, "byes": paired.byes}


def _pair(session: Session, tournament_id: str, detail: dict[str, Any], number: int,
          seats: int, min_size: int, usable: list[str]) -> PairedRound:
    """The round's groups and their tables (of ``usable``), from the standings so far."""
    gone = service.dropped(session, tournament_id)
    active = [line["player"] for line in detail["standings"] if line["player"] not in gone]
    met, byes, visits = _history(service.match_rows(session, tournament_id))
    request = PairingRequest(
        players=active, size=seats, min_size=min_size, met=met, byes=byes,
        forbidden={frozenset(pair) for group in service.forbidden(session, tournament_id)
                   for pair in itertools.combinations(group, 2)},
        locks=service.locks(session, tournament_id), tables=usable, table_history=visits,
        swiss=number > 1, rounds_played=number - 1,
        seed=zlib.crc32(f"{tournament_id}:{number}".encode()))
    try:
        return pair_round(request)
    except PairingImpossible as error:
        raise TournamentRefusal(str(error)) from None
