"""Receipts of idempotent writes: kept in the transaction of the events they answer, on
SQLite and PostgreSQL, and gained by a database made before them."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text

from station.store import Database, EventStore, FixedClock, StoreConflict, open_database
from station.store.receipts import Receipt, find_receipt, receipt_for


@pytest.fixture
def store(database: Database) -> EventStore:
    made = EventStore(database, FixedClock())
    made.create_table("t1", "Table 1")
    return made


def test_a_receipt_is_kept_with_the_events_it_answers(store: EventStore) -> None:
    with receipt_for(Receipt("k1", "f" * 64, 201)) as receipt:
        events = store.append("t1", [("observation", {"n": 1}), ("action", {"a": 1})], "api")
        store.append("t1", [("observation", {"n": 2})], "api")  # a second write: no receipt
    assert receipt.kept
    kept = find_receipt(store.database, "k1")
    assert kept is not None and kept.status == 201 and kept.fingerprint == "f" * 64
    assert kept.body == {"events": [event.to_json() for event in events]}


def test_events_and_their_receipt_are_stored_together_or_not_at_all(store: EventStore) -> None:
    """The receipt's key already taken (another station answered it): the events of this
    write are not stored either."""
    with receipt_for(Receipt("k2", "a" * 64, 201)):
        store.append("t1", [("observation", {"n": 1})], "api")
    before = store.last_seq("t1")
    with receipt_for(Receipt("k2", "b" * 64, 201)), pytest.raises(StoreConflict):
        store.append("t1", [("observation", {"n": 2})], "api")
    assert store.last_seq("t1") == before
    assert find_receipt(store.database, "k2").fingerprint == "a" * 64


def test_a_database_made_before_receipts_gains_their_table(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = open_database(url)
    EventStore(old, FixedClock()).create_table("t1", "Table 1")
    with old.engine.begin() as connection:  # as a station knowing migration 0001 only left it
        connection.execute(text("DROP TABLE receipts"))
        connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    old.close()
    reopened = open_database(url)
    assert "receipts" in inspect(reopened.engine).get_table_names()
    assert [info.id for info in EventStore(reopened).tables()] == ["t1"]
    reopened.close()
