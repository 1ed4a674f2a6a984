"""The advisor's hints in a tournament: off at every table playing one of its games unless
the organiser allows them for the tournament (docs/advisor.md, "At the table").

>>> from station.store import open_database, FixedClock
>>> database = open_database("sqlite://")
>>> with database.session() as session:
...     from station.tournament.service import create_tournament
...     _ = create_tournament(session, FixedClock(), "Cup")
...     from station.tournament.service import hints_allowed
...     before = hints_allowed(session, "cup")
...     _ = allow_hints(session, FixedClock(), "cup", True)
...     before, hints_allowed(session, "cup")
(False, True)
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from station.store.clock import Clock
from station.store.database import Database
from station.store.models import MatchRow, TournamentHintsRow
from station.tournament.service import hints_allowed, tournament_row


def allow_hints(session: Session, clock: Clock, tournament_id: str,
                allowed: bool) -> dict[str, Any]:
    """Allow (or forbid) hints at the tables of the tournament's games."""
    tournament_row(session, tournament_id)  # UnknownTournament for a wrong id
    row = session.get(TournamentHintsRow, tournament_id)
    if row is None:
        row = TournamentHintsRow(tournament_id=tournament_id)
        session.add(row)
    row.allowed, row.changed_at = bool(allowed), clock.now()
    session.flush()
    return {"tournament": tournament_id, "allow_hints": row.allowed}


def hints_refusal(database: Database, table_id: str, game_seq: int | None) -> str | None:
    """Why hints may not show at the table's game started at ``game_seq`` (None: they may):
    it is a game of a tournament that does not allow them."""
    if game_seq is None:
        return None
    with database.session() as session:
        match = session.scalar(select(MatchRow).where(MatchRow.table_id == table_id,
                                                      MatchRow.game_seq == game_seq))
        if match is None or hints_allowed(session, match.tournament_id):
            return None
        return (f"table {table_id!r} plays a game of tournament {match.tournament_id!r}, "
                "whose organiser has not allowed hints")
