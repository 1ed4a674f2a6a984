"""The schema as it stood before migrations (frozen here: later changes are new migrations).

A database made before migrations has no ``alembic_version`` and may lack the newer of
these tables (``tournament_game``, ``match_codes``, ``match_signing``,
``tournament_hints``): this step makes only what is missing, so such a database keeps its
rows and ends at this revision like a new one.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.schema import CreateIndex

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_tables = MetaData()

Table("tables", _tables,
      Column("id", String(64), primary_key=True),
      Column("name", String(200), nullable=False),
      Column("created_at", DateTime(timezone=True), nullable=False))
Table("events", _tables,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("table_id", ForeignKey("tables.id"), nullable=False, index=True),
      Column("seq", Integer, nullable=False),
      Column("kind", String(32), nullable=False),
      Column("author", String(200), nullable=False),
      Column("at", DateTime(timezone=True), nullable=False),
      Column("payload", JSON, nullable=False),
      UniqueConstraint("table_id", "seq", name="events_table_seq"),
      Index("events_table_kind_seq", "table_id", "kind", "seq"))
Table("tournaments", _tables,
      Column("id", String(64), primary_key=True),
      Column("name", String(200), nullable=False),
      Column("tie_breakers", JSON, nullable=False),
      Column("created_at", DateTime(timezone=True), nullable=False))
Table("tournament_game", _tables,
      Column("tournament_id", ForeignKey("tournaments.id"), primary_key=True),
      Column("game", String(200), nullable=False))
Table("tournament_players", _tables,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("tournament_id", ForeignKey("tournaments.id"), nullable=False, index=True),
      Column("name", String(200), nullable=False),
      UniqueConstraint("tournament_id", "name", name="player_once"))
Table("matches", _tables,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("tournament_id", ForeignKey("tournaments.id"), nullable=False, index=True),
      Column("round", Integer, nullable=False),
      Column("players", JSON, nullable=False),
      Column("table_id", ForeignKey("tables.id"), nullable=True),
      Column("game_seq", Integer, nullable=True),
      Column("result", JSON, nullable=True),
      Column("note", Text, nullable=False))
Table("match_codes", _tables,
      Column("match_id", ForeignKey("matches.id"), primary_key=True),
      Column("player", String(200), primary_key=True),
      Column("code", String(16), nullable=False))
Table("match_signing", _tables,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("match_id", ForeignKey("matches.id"), nullable=False, index=True),
      Column("kind", String(16), nullable=False),
      Column("who", String(200), nullable=False),
      Column("at", DateTime(timezone=True), nullable=False),
      Column("host", String(200), nullable=True),
      Column("note", Text, nullable=False),
      Column("scores", JSON, nullable=True))
Table("tournament_rules", _tables,
      Column("id", Integer, primary_key=True, autoincrement=True),
      Column("tournament_id", ForeignKey("tournaments.id"), nullable=False, index=True),
      Column("kind", String(16), nullable=False),
      Column("players", JSON, nullable=False),
      Column("table_id", ForeignKey("tables.id"), nullable=True),
      Column("round", Integer, nullable=False))
Table("tournament_hints", _tables,
      Column("tournament_id", ForeignKey("tournaments.id"), primary_key=True),
      Column("allowed", Boolean, nullable=False),
      Column("changed_at", DateTime(timezone=True), nullable=False))

_SQLITE_APPEND_ONLY = [
    "CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events "
    "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END",
]
_POSTGRES_APPEND_ONLY = [
    "CREATE OR REPLACE FUNCTION packref_events_append_only() RETURNS trigger AS $$ "
    "BEGIN RAISE EXCEPTION 'events are append-only'; END $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS events_append_only ON events",
    "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
    "FOR EACH ROW EXECUTE FUNCTION packref_events_append_only()",
]
# The hub's announcements (channel packref_hub), as station/store/hub_channel.py had them.
_POSTGRES_ANNOUNCE = [
    "CREATE OR REPLACE FUNCTION packref_announce_event() RETURNS trigger AS $$ "
    "BEGIN PERFORM pg_notify('packref_hub', json_build_object('kind', 'event', "
    "'table', NEW.table_id, 'seq', NEW.seq, "
    "'origin', current_setting('application_name'))::text); RETURN NEW; END $$ "
    "LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS events_announce ON events",
    "CREATE TRIGGER events_announce AFTER INSERT ON events "
    "FOR EACH ROW EXECUTE FUNCTION packref_announce_event()",
    "CREATE OR REPLACE FUNCTION packref_announce_table() RETURNS trigger AS $$ "
    "BEGIN PERFORM pg_notify('packref_hub', json_build_object('kind', 'tables', "
    "'table', NEW.id, 'origin', current_setting('application_name'))::text); "
    "RETURN NEW; END $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS tables_announce ON tables",
    "CREATE TRIGGER tables_announce AFTER INSERT ON tables "
    "FOR EACH ROW EXECUTE FUNCTION packref_announce_table()",
]


def upgrade() -> None:
    """Every missing table and index, then the triggers (made again: same text)."""
    connection = op.get_bind()
    _tables.create_all(connection, checkfirst=True)
    for table in _tables.sorted_tables:  # an index newer than a database made before it
        for index in table.indexes:
            connection.execute(CreateIndex(index, if_not_exists=True))
    postgres = connection.dialect.name == "postgresql"
    for statement in (_POSTGRES_APPEND_ONLY + _POSTGRES_ANNOUNCE if postgres
                      else _SQLITE_APPEND_ONLY):
        connection.execute(text(statement))


def downgrade() -> None:
    """Nothing: the first schema is never taken away (a station's history is kept)."""
    raise NotImplementedError("the first schema cannot be downgraded")
