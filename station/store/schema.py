"""The database's schema: made and upgraded by the migrations in :mod:`station.store.migrations`
(Alembic, configured here in code: no ``alembic.ini``), one station at a time.

Any number of stations may start at once on a fresh or an older hub: each takes a lock
before it looks at the schema's version — PostgreSQL's ``pg_advisory_xact_lock``, SQLite's
``BEGIN IMMEDIATE`` (the database's write lock) — and upgrades it, if still needed, in
the same transaction, so the next one finds it done. A database made before migrations
(no ``alembic_version``, but the station's ``events`` and ``tables``) is upgraded from
its first revision, which makes only what it lacks. A database with tables of another
program, and none of ours, is refused: a station never writes into a stranger's database.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

MIGRATIONS = Path(__file__).parent / "migrations"
LOCK_KEY = 7221  # the hub's advisory lock for schema changes (any number, the same for all)
# Alembic's ``op`` and ``context`` are one per process: one upgrade runs at a time in it.
_ALEMBIC = threading.Lock()
OURS = {"tables", "events"}  # a database with these (and no version) is an older station's


class ForeignDatabase(Exception):
    """The database holds another program's tables: the message says which."""


@dataclass(frozen=True)
class SchemaVersions:
    """The schema's revision found at start (``None``: none, a new or an older database)
    and the one it is left at."""

    found: str | None
    left: str
    older: bool = False  # made before migrations (tables but no version)

    def words(self) -> str:
        """One line for stderr: ``database schema: found 0001, leaves 0002``."""
        found = ("none (a database made before migrations)" if self.older
                 else "none (a new database)" if self.found is None else self.found)
        return f"database schema: found {found}, leaves {self.left}"


def scripts() -> ScriptDirectory:
    """The migrations shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def head() -> str:
    """The newest revision (what every database is upgraded to)."""
    revision = scripts().get_current_head()
    assert revision is not None, "no migration is shipped"
    return revision


def upgrade(engine: Engine) -> SchemaVersions:
    """Bring the database of ``engine`` to the newest revision, under the lock."""
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            return _upgrade_sqlite(connection)
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": LOCK_KEY})
            return _upgrade_locked(connection)


def _upgrade_sqlite(connection: Connection) -> SchemaVersions:
    """SQLite: the driver's own transactions off, so ``BEGIN IMMEDIATE`` takes the write lock
    (waiting out the busy timeout for another station's upgrade) before anything is read."""
    connection = connection.execution_options(isolation_level="AUTOCOMMIT")
    connection.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        versions = _upgrade_locked(connection)
    except BaseException:
        connection.exec_driver_sql("ROLLBACK")
        raise
    connection.exec_driver_sql("COMMIT")
    return versions


def _upgrade_locked(connection: Connection) -> SchemaVersions:
    """Upgrade on ``connection``, which holds the lock and one transaction."""
    found = MigrationContext.configure(connection).get_current_revision()
    older = found is None and _check_unversioned(connection)
    script = scripts()

    def steps(revision: object, _context: object) -> list[object]:
        return script._upgrade_revs("head", revision)  # type: ignore[arg-type]

    with _ALEMBIC, EnvironmentContext(Config(), script, fn=steps,
                                      destination_rev="head") as environment:
        environment.configure(connection=connection, transaction_per_migration=False)
        environment.run_migrations()
    return SchemaVersions(found, head(), older)


def _check_unversioned(connection: Connection) -> bool:
    """For a database with no version: True when it is an older station's, False when new;
    :class:`ForeignDatabase` when it holds tables of another program."""
    names = set(inspect(connection).get_table_names())
    if not names:
        return False
    if names >= OURS:
        return True
    shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
    raise ForeignDatabase(f"it holds other tables ({shown}) and not the station's")
