"""Opening the database: SQLite in WAL mode by default, PostgreSQL by URL.

The ``events`` table is append-only at the database level too: a trigger
refuses any UPDATE or DELETE on it, on both back ends. ``create_all`` makes
only the missing tables; an index added to a model later is created on open
(``CREATE INDEX IF NOT EXISTS``), so a database made before it keeps working.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.schema import CreateIndex

from station.errors import InputError
from station.private import private_dir, private_file
from station.store.hub_channel import POSTGRES_NOTIFY_TRIGGERS
from station.store.models import Base

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


CONNECT_TIMEOUT_SECONDS = 3  # a hub out of reach must not hang a write for long


class Database:
    """An engine and its session factory; ``session()`` is one transaction."""

    def __init__(self, engine: Engine, origin: str = "packref") -> None:
        self.engine = engine
        self.origin = origin  # names this station's writes in the hub's announcements
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    def __repr__(self) -> str:
        return f"Database({self.engine.url.render_as_string(hide_password=True)})"

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session whose work is committed at the end, or rolled back on error."""
        with self._sessions() as session, session.begin():
            yield session

    def new_session(self) -> Session:
        """A session whose caller commits (used per API request)."""
        return self._sessions()

    def create_schema(self) -> None:
        """Create every table and index (if missing) and the append-only triggers."""
        Base.metadata.create_all(self.engine)
        statements = (_POSTGRES_APPEND_ONLY + POSTGRES_NOTIFY_TRIGGERS
                      if self.dialect == "postgresql" else [])
        if self.dialect == "sqlite":
            statements = _SQLITE_APPEND_ONLY
        with self.engine.begin() as connection:
            if self.dialect == "postgresql":
                # Several stations of a hub may start together: one creates the triggers at a time.
                connection.execute(text("SELECT pg_advisory_xact_lock(7221)"))
            for statement in statements:
                connection.execute(text(statement))
            for table in Base.metadata.sorted_tables:  # indexes newer than the database
                for index in table.indexes:
                    connection.execute(CreateIndex(index, if_not_exists=True))

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def _private_sqlite_file(path: Path) -> None:
    """Make the SQLite file (and a missing folder for it) its owner's only before SQLite
    does, which would make it world-readable (``0644``); the side files of an older
    database are tightened too (new ones take the database file's mode)."""
    try:
        if not path.parent.exists():
            private_dir(path.parent)
        private_file(path)
    except OSError as error:
        raise InputError(f"--db: cannot create {path}: {error.strerror}") from None
    for suffix in SQLITE_SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            private_file(side)


def open_database(url: str) -> Database:
    """Open (and create if needed) the database at a SQLAlchemy ``url``."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise InputError(f"--db: {url!r} is not a database URL") from None
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("", "psycopg2"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        _private_sqlite_file(Path(parsed.database))
    origin = f"packref-{uuid.uuid4().hex[:12]}"
    connect_args = ({"application_name": origin, "connect_timeout": CONNECT_TIMEOUT_SECONDS}
                    if parsed.get_backend_name() == "postgresql" else {})
    try:
        engine = create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except (ArgumentError, ImportError) as error:
        raise InputError(f"--db: cannot use {parsed.drivername}: {error}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    database = Database(engine, origin)
    try:
        database.create_schema()
    except OperationalError as error:
        engine.dispose()
        reason = str(error.orig or error).strip().splitlines()[0]
        raise InputError(f"--db: cannot open {parsed.render_as_string()}: {reason}") from None
    return database
