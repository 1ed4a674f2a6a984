"""The event store, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError, StatementError

from station.store import Database, EventStore, FixedClock, StoreConflict, open_database


@pytest.fixture
def store(database: Database) -> EventStore:
    return EventStore(database, FixedClock())


def test_events_are_numbered_per_table_and_read_back_in_order(store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    store.create_table("t2", "Table 2")
    store.append("t1", [("observation", {"observation": {"n": 1}})], "camera")
    store.append("t2", [("observation", {"observation": {"n": 9}})], "camera")
    store.append("t1", [("action", {"action": {"type": "add"}}), ("flag", {"reason": "no"})],
                 "referee")
    events = store.events("t1")
    assert [(e.seq, e.kind, e.author) for e in events] == [
        (1, "observation", "camera"), (2, "action", "referee"), (3, "flag", "referee")]
    assert events[1].payload == {"action": {"type": "add"}}
    assert events[0].at < events[1].at and events[0].at.tzinfo is not None
    assert [e.seq for e in store.events("t1", after=1)] == [2, 3]
    assert store.last_seq("t2") == 1 and store.last_seq("nope") == 0


def test_a_stale_writer_is_refused_and_nothing_is_stored(store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    store.append("t1", [("observation", {})], "a")
    with pytest.raises(StoreConflict):
        store.append("t1", [("observation", {}), ("action", {})], "b", expected_last=0)
    assert store.last_seq("t1") == 1


def test_a_failing_batch_leaves_nothing_half_written(store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    with pytest.raises((TypeError, StatementError)):  # the second cannot be stored as JSON
        store.append("t1", [("observation", {"ok": 1}), ("action", {"bad": object()})], "a")
    assert store.events("t1") == []


def test_table_ids_are_unique(store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    with pytest.raises(StoreConflict):
        store.create_table("t1", "Again")
    assert [t.id for t in store.tables()] == ["t1"]


@pytest.mark.parametrize("statement", ["UPDATE events SET author = 'forger'",
                                       "DELETE FROM events"])
def test_the_database_refuses_to_edit_or_delete_an_event(store: EventStore,
                                                         statement: str) -> None:
    store.create_table("t1", "Table 1")
    store.append("t1", [("observation", {"n": 1})], "camera")
    with pytest.raises(DBAPIError, match="append-only"), store.database.engine.begin() as conn:
        conn.execute(text(statement))
    assert [e.author for e in store.events("t1")] == ["camera"]


def test_reopening_keeps_every_event_and_the_schema_is_created_once(database_url: str) -> None:
    first = open_database(database_url)
    EventStore(first).create_table("t1", "Table 1")
    EventStore(first).append("t1", [("observation", {"n": 1})], "camera")
    first.close()
    again = open_database(database_url)  # create_all and the triggers again: no error
    assert [e.payload for e in EventStore(again).events("t1")] == [{"n": 1}]
    again.close()


def test_the_last_event_of_a_kind_is_found_at_or_before_a_seq(store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    store.create_table("t2", "Table 2")
    store.append("t1", [("observation", {"n": 1}), ("game", {"n": 2}), ("action", {"n": 3}),
                        ("game", {"n": 4}), ("action", {"n": 5})], "a")
    store.append("t2", [("game", {"n": 9})], "a")
    found = {seq: store.last_event("t1", "game", seq) for seq in range(7)}
    assert {seq: event and event.payload["n"] for seq, event in found.items()} == {
        0: None, 1: None, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4}
    assert found[4] == store.events("t1", after=3)[0]
    assert store.last_event("t1", "flag", 5) is None and store.last_event("t3", "game", 9) is None


def _indexes(database: Database) -> set[str]:
    return {index["name"] for index in inspect(database.engine).get_indexes("events")}


def test_a_database_made_before_the_kind_index_gains_it_when_opened(database_url: str) -> None:
    older = open_database(database_url)
    EventStore(older).create_table("t1", "Table 1")
    EventStore(older).append("t1", [("game", {"n": 1}), ("action", {"n": 2})], "a")
    with older.engine.begin() as connection:  # as a station made it before the index
        connection.execute(text("DROP INDEX events_table_kind_seq"))
        connection.execute(text("DROP TABLE alembic_version"))  # and before migrations
    assert "events_table_kind_seq" not in _indexes(older)
    older.close()
    opened = open_database(database_url)
    assert "events_table_kind_seq" in _indexes(opened)
    store = EventStore(opened)
    store.append("t1", [("game", {"n": 3})], "a", expected_last=2)
    assert [event.seq for event in store.events("t1")] == [1, 2, 3]
    assert store.last_event("t1", "game", 2).payload == {"n": 1}
    opened.close()


def test_sqlite_runs_in_wal_mode(tmp_path) -> None:
    database = open_database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with database.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    database.close()


def test_events_decided_by_a_function_are_decided_in_the_write_once(
        store: EventStore) -> None:
    store.create_table("t1", "Table 1")
    decided: list[int] = []

    def decide() -> list[tuple[str, dict[str, Any]]]:
        decided.append(1)
        return [("observation", {"n": len(decided)})]

    stored = store.append("t1", decide, "api", expected_last=store.last_seq("t1"))
    assert decided == [1] and [event.payload for event in stored] == [{"n": 1}]
    assert store.events("t1")[-1].payload == {"n": 1}
