"""The schema by migrations: a new database, an older one (made before migrations, with
or without its newer tables), stations opening one hub together, and files refused."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text

from station.errors import InputError
from station.store import Database, EventStore, open_database
from station.store.models import Base
from station.store.schema import head
from tests.station.conftest import PostgresCluster, postgres_url

FIXTURES = Path(__file__).parent / "fixtures"
SQLITE_DUMP = FIXTURES / "station-before-migrations.sql"  # made by the code before migrations
POSTGRES_DUMP = FIXTURES / "hub-before-migrations.sql"


def _version(database: Database) -> str | None:
    with database.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def test_a_new_database_is_made_by_the_migrations_as_the_models_say(database_url: str) -> None:
    database = open_database(database_url)
    assert database.schema is not None and database.schema.found is None
    assert database.schema.left == head() == _version(database)
    assert database.schema.words() == (
        f"database schema: found none (a new database), leaves {head()}")
    with database.engine.connect() as connection:  # the models and the migrations agree
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    database.close()
    again = open_database(database_url)
    assert again.schema.words() == f"database schema: found {head()}, leaves {head()}"
    again.close()


def _schema_sql(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return sorted(sql for (sql,) in connection.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'alembic_version'"))


def test_the_first_migration_makes_the_schema_of_before_exactly(tmp_path: Path) -> None:
    before = tmp_path / "before.sqlite3"
    with sqlite3.connect(before) as connection:
        connection.executescript(SQLITE_DUMP.read_text())
    made = tmp_path / "made.sqlite3"
    open_database(f"sqlite:///{made}").close()
    later = ("CREATE TABLE receipts",)  # what the migrations after 0001 add
    assert [sql for sql in _schema_sql(made) if not sql.startswith(later)] == _schema_sql(before)


def _older_sqlite(tmp_path: Path, without: tuple[str, ...]) -> str:
    path = tmp_path / "station.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(SQLITE_DUMP.read_text())
        for table in without:
            connection.execute(f"DROP TABLE {table}")
    return f"sqlite:///{path}"


def _older_postgres(cluster: PostgresCluster, without: tuple[str, ...]) -> str:
    url = postgres_url(cluster)
    name = url.split("@/")[1].split("?")[0]
    with psycopg.connect(host=cluster["host"], port=cluster["port"], user="postgres",
                         dbname=name, autocommit=True) as connection:
        connection.execute(POSTGRES_DUMP.read_text())
        for table in without:
            connection.execute(f"DROP TABLE public.{table}")
    return url


@pytest.mark.parametrize("without", [(), ("tournament_game",)], ids=["whole", "no-game-table"])
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_made_before_migrations_is_upgraded_and_keeps_its_rows(
        kind: str, without: tuple[str, ...], tmp_path: Path,
        request: pytest.FixtureRequest) -> None:
    url = (_older_sqlite(tmp_path, without) if kind == "sqlite"
           else _older_postgres(request.getfixturevalue("postgres_cluster"), without))
    database = open_database(url)
    assert database.schema.older and database.schema.found is None
    assert database.schema.words() == ("database schema: found none (a database made "
                                       f"before migrations), leaves {head()}")
    assert _version(database) == head()
    assert "tournament_game" in inspect(database.engine).get_table_names()
    store = EventStore(database)
    assert [(e.seq, e.kind) for e in store.events("t1")] == [
        (1, "game"), (2, "action"), (3, "action")]
    store.append("t1", [("action", {"n": 3})], "referee", expected_last=3)
    with database.engine.connect() as connection:
        players = connection.execute(text("SELECT name FROM tournament_players ORDER BY id"))
        assert [name for (name,) in players] == ["Ann", "Bo"]
        with pytest.raises(Exception, match="append-only"):  # the triggers stand
            connection.execute(text("DELETE FROM events"))
    database.close()


def _open_together(url: str, stations: int = 2) -> list[object]:
    """``stations`` threads open ``url`` at the same instant; each one's result or error."""
    barrier = threading.Barrier(stations)
    results: list[object] = [None] * stations

    def station(index: int) -> None:
        barrier.wait()
        try:
            results[index] = open_database(url)
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=station, args=(i,)) for i in range(stations)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _both_serve(results: list[object]) -> None:
    assert all(isinstance(result, Database) for result in results), results
    for number, database in enumerate(results):
        EventStore(database).create_table(f"t{number}", f"Table {number}")  # type: ignore[arg-type]
    found = sorted(str(database.schema.found) for database in results)  # type: ignore[union-attr]
    assert found == sorted(["None", head()])  # one made it; the other found it made
    for database in results:
        database.close()  # type: ignore[union-attr]


def test_two_stations_started_together_on_a_fresh_hub_both_serve(
        postgres_cluster: PostgresCluster) -> None:
    for _ in range(10):
        _both_serve(_open_together(postgres_url(postgres_cluster)))


def test_two_stations_started_together_on_an_older_hub_both_serve(
        postgres_cluster: PostgresCluster) -> None:
    for _ in range(3):
        results = _open_together(_older_postgres(postgres_cluster, ("tournament_game",)))
        assert all(isinstance(result, Database) for result in results), results
        assert sorted(str(r.schema.older) for r in results) == ["False", "True"]
        for database in results:
            database.close()


def test_two_stations_started_together_on_a_new_sqlite_file_both_serve(tmp_path: Path) -> None:
    for attempt in range(10):
        _both_serve(_open_together(f"sqlite:///{tmp_path / f'station-{attempt}.sqlite3'}"))


def test_an_emptied_database_file_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / "station.sqlite3"
    path.touch()
    with pytest.raises(InputError) as refused:
        open_database(f"sqlite:///{path}")
    assert str(refused.value) == (
        f"--db: {path} is empty (0 bytes), not a station's database: restore it from a "
        "backup, or move it away to start a new one")
    assert path.stat().st_size == 0  # left as it was found


def test_a_file_that_is_not_a_database_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / "station.sqlite3"
    path.write_text("these are my notes, not a database\n" * 200)
    with pytest.raises(InputError, match=rf"^--db: {path} is not a SQLite database \(.*\): "
                       "restore it from a backup, or move it away to start a new one$"):
        open_database(f"sqlite:///{path}")


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "photos.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT)")
    with pytest.raises(InputError) as refused:
        open_database(f"sqlite:///{path}")
    assert str(refused.value) == (
        f"--db: {path} is not a station's database: it holds other tables (albums) and not "
        "the station's; give the station its own file (or an empty database) with --db")
    with sqlite3.connect(path) as connection:
        names = [name for (name,) in connection.execute("SELECT name FROM sqlite_master")]
    assert names == ["albums"]
