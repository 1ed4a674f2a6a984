"""The event store without its hub: events kept locally, sent once, never numbered twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.store import EventStore, FixedClock, StoreConflict, open_database
from station.store.spool import Spool
from tests.station.conftest import postgres_url


@pytest.fixture
def hub(own_postgres_cluster):
    url = postgres_url(own_postgres_cluster)
    opened = []

    def store(tmp: Path, name: str) -> EventStore:
        database = open_database(url)
        opened.append(database)
        return EventStore(database, FixedClock(), Spool(tmp / f"{name}-spool.sqlite3"))

    yield own_postgres_cluster, store
    for database in opened:
        database.close()


def test_events_wait_in_the_spool_and_are_sent_in_order(tmp_path: Path, hub) -> None:
    cluster, open_store = hub
    store = open_store(tmp_path, "a")
    store.create_table("t1", "Table 1")
    store.append("t1", [("game", {"n": 0})], "a", expected_last=0)
    cluster.stop("fast")
    kept = store.append("t1", [("observation", {"n": 1}), ("action", {"n": 1})], "a",
                        expected_last=1)
    assert [event.seq for event in kept] == [2, 3] and store.spool.count() == 2
    assert [e.seq for e in store.events("t1", after=1)] == [2, 3]  # read back locally
    assert store.last_event("t1", "action", 3).seq == 3  # found locally too
    assert store.last_event("t1", "action", 2) is None
    assert [t.id for t in store.tables()] == ["t1"]  # the tables last seen
    with pytest.raises(StoreConflict):
        store.append("t1", [("observation", {})], "a", expected_last=1)
    store.append("t1", [("observation", {"n": 4})], "a", expected_last=3)
    cluster.start()
    assert store.send_spooled() == set()
    assert store.spool.count() == 0
    assert [(e.seq, e.payload) for e in store.events("t1")] == [
        (1, {"n": 0}), (2, {"n": 1}), (3, {"n": 1}), (4, {"n": 4})]
    assert store.send_spooled() == set()  # nothing sent twice
    assert store.last_seq("t1") == 4


def test_a_send_cut_short_is_not_repeated(tmp_path: Path, hub) -> None:
    cluster, open_store = hub
    store = open_store(tmp_path, "a")
    store.create_table("t1", "Table 1")
    cluster.stop("fast")
    store.append("t1", [("observation", {"n": 1}), ("observation", {"n": 2})], "a",
                 expected_last=0)
    kept = store.spool.pending()
    cluster.start()
    store.send_spooled()
    store.spool.add(kept)  # as if the station died between the hub's commit and the spool's
    assert store.send_spooled() == set()
    assert [e.payload for e in store.events("t1")] == [{"n": 1}, {"n": 2}]


def test_two_stations_writing_one_table_without_the_hub_never_share_a_number(
        tmp_path: Path, hub) -> None:
    cluster, open_store = hub
    first, second = open_store(tmp_path, "a"), open_store(tmp_path, "b")
    first.create_table("t1", "Table 1")
    cluster.stop("fast")
    first.append("t1", [("observation", {"by": "a"})], "a", expected_last=0)
    second.append("t1", [("observation", {"by": "b"}), ("action", {"by": "b"})], "b",
                  expected_last=0)
    cluster.start()
    assert first.send_spooled() == set()
    assert second.send_spooled() == {"t1"}  # numbered after the first station's event
    stored = first.events("t1")
    assert [(e.seq, e.payload["by"]) for e in stored] == [(1, "a"), (2, "b"), (3, "b")]
