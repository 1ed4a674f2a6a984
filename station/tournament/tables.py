"""The real tables a tournament's games are played at (docs/formats.md §10): which are
free, and starting a match's game at one, dealt by hand unless told otherwise.

A table is *free* when it has no game in play (none yet, or its game is over). A busy
table is never given a tournament game unless the organiser says ``replace``: its game is
then ended first, with the reason, so the table's record says what happened to it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules import get_game
from station.live.station import Station, UnknownTable
from station.live.table import TableRefusal


class TableBusy(TableRefusal):
    """A table named for a tournament game has a game in play (409: say ``replace``)."""


class NoSuchTable(ValueError):
    """A table named for a tournament game does not exist."""


@dataclass(frozen=True)
class Started:
    """A game started at a table for a match: its first event, and its seed (None when
    dealt by hand: no seed decides anything)."""

    game_seq: int
    seed: int | None


def in_play(station: Station, table_id: str) -> dict[str, Any] | None:
    """The table's game in play (its summary), or None when the table is free."""
    try:
        live = station.refresh(table_id)
    except UnknownTable:
        raise NoSuchTable(f"there is no table {table_id!r}") from None
    if live.current is None or live.current.state.is_over():
        return None
    return live.current.summary()


def free_tables(station: Station) -> list[str]:
    """Every table with no game in play, in the station's order."""
    return [table_id for table_id in station.table_ids() if in_play(station, table_id) is None]


def busy_words(table_id: str, game: dict[str, Any]) -> str:
    return (f"table {table_id!r} has a game in play ({game['name']}: "
            f"{', '.join(game['players'])})")


def check_tables(station: Station, tables: Sequence[str], replace: bool,
                 where: str = "$.tables") -> list[str]:
    """The tables named for a round, checked: each exists, once, and is free unless
    ``replace``. ``where``: the request's JSON path, named in a refusal."""
    if len(set(tables)) != len(tables):
        twice = next(t for t in tables if tables.count(t) > 1)
        raise ValueError(f"{where}: table {twice!r} is named twice")
    for index, table_id in enumerate(tables):
        try:
            game = in_play(station, table_id)
        except NoSuchTable as error:
            raise NoSuchTable(f"{where}[{index}]: {error}") from None
        if game is not None and not replace:
            raise TableBusy(f"{where}[{index}]: {busy_words(table_id, game)}; "
                            "say replace to end it and start this round's game there")
    return list(tables)


def check_deal(game: str, players: list[str], deal: str,
               options: dict[str, Any] | None = None) -> None:
    """Refuse, before anything starts, a game that cannot be set up this way (a game that
    cannot be dealt by hand yet, a wrong player count)."""
    engine = get_game(game)
    try:
        engine.new_game(players, seed=0, options=options, deal=deal)
    except ValueError as error:
        if deal == "table" and "dealt by hand" in str(error):
            raise ValueError(f'$.deal: {error} (say "deal": "seed")') from None
        raise


def start_at_table(station: Station, table_id: str, game: str, players: list[str],
                   deal: str, author: str, why: str, seed: int | None = None,
                   options: dict[str, Any] | None = None) -> Started:
    """Start a match's game at a table, ending (with ``why``) a game still in play there
    (the caller has checked the organiser said ``replace``)."""
    if in_play(station, table_id) is not None:
        station.end_game(table_id, f"replaced: {why}", author)
    if deal == "table":
        events = station.start_game(table_id, game, players, 0, options, author,
                                    deal="table")
        return Started(events[0].seq, None)
    # Unpredictable: a seed anyone can work out deals the game to anyone before it starts.
    seed = seed if seed is not None else secrets.randbelow(2**31)
    events = station.start_game(table_id, game, players, seed, options, author, deal="seed")
    return Started(events[0].seq, seed)


def end_for_hand_result(station: Station, table_id: str, game_seq: int, author: str,
                        why: str) -> bool:
    """End the match's game at its table, if it is still in play there (a result entered by
    hand decides it); True when it was ended."""
    game = in_play(station, table_id)
    if game is None or game["seq"] != game_seq:
        return False
    station.end_game(table_id, why, author)
    return True
