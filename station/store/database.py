"""Opening the database: SQLite in WAL mode by default, PostgreSQL by URL.

The schema is made and upgraded by migrations (:mod:`station.store.schema`), under a
lock, so several stations may open one hub at once; ``Database.schema`` says which
revision was found and which is left. The ``events`` table is append-only at the
database level too: a trigger refuses any UPDATE or DELETE on it, on both back ends.

A SQLite file that exists but is empty (0 bytes), is not a database, or holds another
program's tables is refused with its path and what to do: an emptied station database
must not start silently as a new one.
"""

from __future__ import annotations

import errno
import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from station.errors import InputError
from station.faults import disk_full_words
from station.private import private_dir, private_file
from station.store.schema import ForeignDatabase, SchemaVersions, upgrade

BUSY_TIMEOUT_MS = 5000  # how long a SQLite write waits for another writer before "busy"
CONNECT_TIMEOUT_SECONDS = 3  # a hub out of reach must not hang a write for long


class Database:
    """An engine and its session factory; ``session()`` is one transaction."""

    def __init__(self, engine: Engine, origin: str = "packref") -> None:
        self.engine = engine
        self.origin = origin  # names this station's writes in the hub's announcements
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._write_turn = threading.Lock() if engine.dialect.name == "sqlite" else None
        self.schema: SchemaVersions | None = None  # set once the schema is made or upgraded

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

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """:meth:`session` for a write. On SQLite this process's writers take turns here:
        SQLite lets one writer in at a time and makes the others sleep and try again (up
        to 100 ms a try), so eight tables written at once spent most of their time asleep
        with the processor idle (benchmarks/station_ws.py ``--load``). A writer that has
        not had its turn within the busy timeout goes on without it (SQLite's own wait
        then answers, as it would without the turns: a write held up by another program)."""
        turn = self._write_turn.acquire(timeout=BUSY_TIMEOUT_MS / 1000) \
            if self._write_turn is not None else False
        try:
            with self.session() as session:
                yield session
        finally:
            if turn:
                self._write_turn.release()

    def new_session(self) -> Session:
        """A session whose caller commits (used per API request)."""
        return self._sessions()

    def create_schema(self) -> SchemaVersions:
        """Make or upgrade the schema to the newest migration (under the lock); kept in
        ``schema``."""
        self.schema = upgrade(self.engine)
        return self.schema

    def close(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a killed process
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def _private_sqlite_file(path: Path) -> None:
    """Make the side files of an older SQLite database its owner's only (new ones take
    the database file's mode); an empty file (0 bytes, no log) is refused: a station's
    database is never empty, since a new one is made whole before it takes its name."""
    if path.is_file() and path.stat().st_size == 0 and not _has_wal(path):
        raise InputError(f"--db: {path} is empty (0 bytes), not a station's database: "
                         "restore it from a backup, or move it away to start a new one")
    try:
        private_file(path)
    except OSError as error:
        raise InputError(f"--db: cannot open {path}: {error.strerror}") from None
    for suffix in SQLITE_SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            private_file(side)


def _new_sqlite_file(url: URL, path: Path) -> SchemaVersions | None:
    """Make a new SQLite database whole under a temporary name, then give it ``path`` at once
    (a hard link, which never replaces a file another station made meanwhile: then that one
    is used, and None is returned). The file is its owner's only before SQLite writes it
    (SQLite would make it world-readable); a start that fails leaves nothing behind."""
    try:
        if not path.parent.exists():
            private_dir(path.parent)
        draft = private_file(path.with_name(f".{path.name}.new-{uuid.uuid4().hex[:8]}"))
    except OSError as error:
        raise InputError(f"--db: cannot create {path}: {error.strerror}") from None
    engine, _origin = _engine(url.set(database=str(draft)))
    try:
        versions = upgrade(engine)
        engine.dispose()  # the last connection closed: the log is written into the file
        os.link(draft, path)
        return versions
    except FileExistsError:
        return None
    except OSError as error:
        raise InputError(_full_or(path, error)) from None
    except (OperationalError, DatabaseError) as error:
        raise InputError(_refusal(url, path, error)) from None
    finally:
        engine.dispose()
        _remove_new(draft)


def _full_or(path: Path, error: OSError) -> str:
    """The words for a file that cannot be written (a full disk says how much is left)."""
    if error.errno == errno.ENOSPC:
        return f"--db: cannot create {path}: {disk_full_words(path.parent)}"
    return f"--db: cannot create {path}: {error.strerror}"


def _has_wal(path: Path) -> bool:
    """Whether a write-ahead log beside ``path`` holds pages (a database not yet checkpointed
    is 0 bytes long but not empty)."""
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _sqlite_path(url: URL) -> Path | None:
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return Path(url.database)
    return None


def _engine(url: URL) -> tuple[Engine, str]:
    """The engine for ``url`` and the name its connections give the hub (``origin``)."""
    origin = f"packref-{uuid.uuid4().hex[:12]}"
    connect_args = ({"application_name": origin, "connect_timeout": CONNECT_TIMEOUT_SECONDS}
                    if url.get_backend_name() == "postgresql" else {})
    # A hub's connection may have dropped while idle: ping it before use. A SQLite file's
    # never does, and the ping was a statement more on every write and read.
    ping = url.get_backend_name() != "sqlite"
    try:
        engine = create_engine(url, pool_pre_ping=ping, connect_args=connect_args)
    except (ArgumentError, ImportError) as error:
        raise InputError(f"--db: cannot use {url.drivername}: {error}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine, origin


def open_database(url: str) -> Database:
    """Open the database at a SQLAlchemy ``url``: made if new, its schema upgraded if older.
    Every refusal is an :class:`InputError` naming the database and what to do; a new
    SQLite file is made whole before it takes its name (nothing half-made is left)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise InputError(f"--db: {url!r} is not a database URL") from None
    if parsed.get_backend_name() == "postgresql" and parsed.get_driver_name() in ("", "psycopg2"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    path = _sqlite_path(parsed)
    made = _new_sqlite_file(parsed, path) if path is not None and not path.exists() else None
    if path is not None:
        _private_sqlite_file(path)
    engine, origin = _engine(parsed)
    database = Database(engine, origin)
    try:
        database.create_schema()
    except (OperationalError, DatabaseError, ForeignDatabase) as error:
        engine.dispose()
        raise InputError(_refusal(parsed, path, error)) from None
    if made is not None:
        database.schema = made  # what this start found: nothing, a new file
    return database


def _refusal(url: URL, path: Path | None, error: Exception) -> str:
    """The one line for a database that cannot be opened: which, why, what to do."""
    where = str(path) if path is not None else url.render_as_string(hide_password=True)
    if isinstance(error, ForeignDatabase):
        return (f"--db: {where} is not a station's database: {error}; give the station "
                "its own file (or an empty database) with --db")
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    if path is not None and "not a database" in reason:
        return (f"--db: {where} is not a SQLite database ({reason}): restore it from a "
                "backup, or move it away to start a new one")
    if path is not None and "readonly" in reason.replace(" ", "").lower():
        return (f"--db: {where} is read-only ({reason}): let the station's user write it "
                "and its folder, e.g. chown or chmod u+w")
    if "locked" in reason or "busy" in reason:
        return (f"--db: {where} is locked by another program ({reason}): stop it, or "
                "wait and start again")
    return f"--db: cannot open {where}: {reason}"


def _remove_new(path: Path) -> None:
    """Remove a draft SQLite file and its side files."""
    for name in (path.name, *(path.name + suffix for suffix in SQLITE_SIDE_FILES)):
        path.with_name(name).unlink(missing_ok=True)
