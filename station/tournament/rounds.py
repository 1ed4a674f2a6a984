"""Rounds paired by the station (``docs/formats.md`` §10), and the organiser's pairing rules:
drops, locks (a player kept at one table) and forbidden pairs.

Every function takes an open session (one transaction) like :mod:`.service`.
"""

from __future__ import annotations

import itertools
import secrets
import zlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from rules import RulesError, get_game
from station.live.station import Station
from station.store.models import MatchRow, TableRow, TournamentRuleRow
from station.tournament import service
from station.tournament.codes import make_codes
from station.tournament.pairing import PairingImpossible, PairingRequest, pair_round
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
    try:
        rules = get_game(game)
    except (RulesError, KeyError, ValueError) as error:
        raise TournamentRefusal(str(error).strip("'\"")) from None
    low, high = rules.min_players, rules.max_players
    if size is not None and not low <= size <= high:
        raise TournamentRefusal(f"{rules.name} takes {low} to {high} players, not {size}")
    return size or high, low


def pair_next_round(session: Session, station: Station | None, tournament_id: str, game: str,
                    size: int | None, author: str, force: bool = False) -> dict[str, Any]:
    """Pair and start the next round: ``{"round", "games": [{"id", "players", "table"}],
    "byes"}``; games with a named table start there at once."""
    service.tournament_row(session, tournament_id)
    seats, min_size = _table_size(game, size)
    detail = service.tournament_detail(session, station, tournament_id)
    number = service.last_round(session, tournament_id) + 1
    missing = [g["id"] for r in detail["rounds"] for g in r["games"]
               if not (g["result"] and g["result"].get("final", True))]
    if missing and not force:
        raise TournamentRefusal(f"game(s) {', '.join(map(str, missing))} have no result yet; "
                                "enter them, or pair anyway with force")
    gone = service.dropped(session, tournament_id)
    active = [line["player"] for line in detail["standings"] if line["player"] not in gone]
    matches = service.match_rows(session, tournament_id)
    met, byes, visits = _history(matches)
    request = PairingRequest(
        players=active, size=seats, min_size=min_size, met=met, byes=byes,
        forbidden={frozenset(pair) for group in service.forbidden(session, tournament_id)
                   for pair in itertools.combinations(group, 2)},
        locks=service.locks(session, tournament_id), tables=[t.id for t in station.store.tables()]
        if station else [], table_history=visits, swiss=number > 1,
        rounds_played=number - 1, seed=zlib.crc32(f"{tournament_id}:{number}".encode()))
    try:
        paired = pair_round(request)
    except PairingImpossible as error:
        raise TournamentRefusal(str(error)) from None
    # Games start at their tables before any row is written: on SQLite the table's events
    # are stored by another connection, which must not wait for this transaction.
    rows = []
    for players, table in zip(paired.groups, paired.tables, strict=True):
        game_seq = None
        if table is not None and station is not None:
            seed = secrets.randbelow(2**31)  # nobody may work the deal out beforehand
            game_seq = station.start_game(table, game, players, seed, None, author)[0].seq
        rows.append(MatchRow(tournament_id=tournament_id, round=number, players=players,
                             table_id=table, game_seq=game_seq))
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
