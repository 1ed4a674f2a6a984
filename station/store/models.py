"""The tables of the database (one schema for SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

INTEGER_MAX = 2**31 - 1  # the largest value every Integer column holds (PostgreSQL's int4)
ID_LENGTH = 64  # table and tournament ids (String(64) columns)
NAME_LENGTH = 200  # names (String(200) columns)
KEY_LENGTH = 200  # idempotency keys (String(200))


class Base(DeclarativeBase):
    """Base class of every model."""


class TableRow(Base):
    """A physical table of the event; its games live in its events."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventRow(Base):
    """One event of a table, never updated nor deleted (the database refuses).

    ``events_table_kind_seq`` finds a table's last event of a kind (the ``game`` that
    started the game in play) without reading its history; a database made before it
    gains it when opened (the first migration, :mod:`station.store.migrations`).
    """

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="events_table_seq"),
                      Index("events_table_kind_seq", "table_id", "kind", "seq"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    author: Mapped[str] = mapped_column(String(NAME_LENGTH))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)


class TournamentRow(Base):
    """A tournament: players meet in games at tables, round after round."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    tie_breakers: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentGameRow(Base):
    """The game a tournament is played at (``POST /api/tournaments`` with ``game``): its
    rounds are paired for it unless told otherwise. A table of its own, so a database made
    before it gains it at start (a tournament without a row names no game)."""

    __tablename__ = "tournament_game"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(NAME_LENGTH))


class TournamentPlayerRow(Base):
    """A player registered in a tournament."""

    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "name", name="player_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))


class MatchRow(Base):
    """One game of a tournament round: its players and, once known, its result.

    The result comes from a live table (``table_id`` and ``game_seq``, the
    sequence number of the event that started the game there) or is entered by
    hand (``result``: each player's total and the winners).
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[str]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    game_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    #: who signed the result and how the organiser settled it, oldest first
    signing: Mapped[list[MatchSigningRow]] = relationship(
        order_by="MatchSigningRow.id", lazy="selectin")


class MatchCodeRow(Base):
    """A player's code for one tournament game: what the player signs that game's result
    with (:mod:`station.tournament.codes`). Read only through the organiser's routes, never
    with a game, so nothing public carries it. A table of its own, so a database made before
    it gains it at start."""

    __tablename__ = "match_codes"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player: Mapped[str] = mapped_column(String(NAME_LENGTH), primary_key=True)
    code: Mapped[str] = mapped_column(String(16))


class MatchSigningRow(Base):
    """One step of a game's signing, in order: a player's ``agree`` or ``disagree`` (``who``:
    the player, proven by their code; ``host``: where it came from; ``scores``: what they
    signed) or the organiser's ``settle`` (``who``: the organiser; ``note``; ``scores``: the
    corrected result, if any). Only added to, so a dispute is never lost; a table of its own,
    so a database made before it gains it at start."""

    __tablename__ = "match_signing"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    who: Mapped[str] = mapped_column(String(NAME_LENGTH))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    host: Mapped[str | None] = mapped_column(String(NAME_LENGTH), nullable=True)
    note: Mapped[str] = mapped_column(Text, default="")
    scores: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class TournamentRuleRow(Base):
    """An organiser's rule for pairing: a ``drop`` (``players`` [name], after ``round``),
    a ``lock`` (``players`` [name] always at ``table_id``) or a ``forbid`` (``players``
    never at one table)."""

    __tablename__ = "tournament_rules"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    players: Mapped[list[str]] = mapped_column(JSON)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    round: Mapped[int] = mapped_column(Integer, default=0)


class TournamentHintsRow(Base):
    """The organiser allows the advisor's hints at the tables of a tournament's games (no
    row: not allowed). A table of its own, so a database made before it gains it at start."""

    __tablename__ = "tournament_hints"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReceiptRow(Base):
    """The first answer to a write sent with an ``Idempotency-Key``: a retry with the same
    key gets this answer back and stores nothing again (``fingerprint``: a hash of the
    method, path and body, so a key reused for another request is told apart). Written in
    the same transaction as what the write stored, so neither is ever kept without the
    other. A table of its own, so a database made before it gains it at start."""

    __tablename__ = "receipts"

    key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
