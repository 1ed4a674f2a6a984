"""Writes queued behind a busy table are stored together (station/live/station.py
``_write_queued``): each decided on the view the ones before it left, one transaction,
one snapshot sent; each writer gets its own events or its own refusal."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from rules import IllegalAction
from station.live.hub import Hub
from station.live.station import Station
from station.store import AnsweredBefore, Database, EventStore, FixedClock
from station.store.receipts import Receipt, find_receipt, receipt_for
from tests.station.live.test_station import declared

WRITERS = 6


@pytest.fixture
def station(database: Database, toy_game: str) -> Station:
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Table 1", "t1")
    station.start_game("t1", toy_game, ["Ana", "Ben"], seed=0, options=None, author="organiser")
    return station


def queue_behind_the_lock(station: Station, writes: list[Any]) -> list[Any]:
    """Run each of ``writes`` (a function of no argument) in its own thread while the
    table's lock is held, so that all queue; then let them go. Returns each one's result
    (or the exception it raised), in the order of ``writes``."""
    results: list[Any] = [None] * len(writes)

    def run(index: int) -> None:
        try:
            results[index] = writes[index]()
        except Exception as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(writes))]
    with station.table_lock("t1"):
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while len(station._queue("t1")) < len(writes):  # every write has queued
            assert time.monotonic() < deadline, "the writes did not queue"
            time.sleep(0.01)
    for thread in threads:
        thread.join(10)
    return results


def snapshots_sent(station: Station) -> list[int]:
    seqs: list[int] = []
    station.hub.watch("table:t1", lambda _channel, message: seqs.append(
        int(message.split('"seq": ')[1].split(",")[0])))
    return seqs


def test_queued_writes_are_each_decided_on_the_one_before_and_sent_once(
        station: Station) -> None:
    sent = snapshots_sent(station)
    results = queue_behind_the_lock(station, [
        lambda: station.observe("t1", declared(1), "button", "camera")
        for _ in range(WRITERS)])
    assert all(isinstance(events, list) and len(events) == 2 for events in results)
    stored = station.store.events("t1")
    assert [event.seq for event in stored] == list(range(1, 2 + 2 * WRITERS))
    mine = sorted(event.seq for events in results for event in events)
    assert mine == list(range(2, 2 + 2 * WRITERS))  # every writer its own events, none twice
    snapshot = station.snapshot("t1")
    assert [score["total"] for score in snapshot["game"]["scores"]] == [3, 3]  # turns alternate
    assert sent == [1 + 2 * WRITERS]  # one snapshot for them all, of the last state


def test_a_refused_write_in_a_batch_gets_its_reason_and_the_others_are_stored(
        station: Station) -> None:
    writes = [lambda: station.observe("t1", declared(1), "button", "camera"),
              lambda: station.observe("t1", declared(5), "person", "organiser", answer=True),
              lambda: station.observe("t1", declared(2), "button", "camera")]
    results = queue_behind_the_lock(station, writes)
    refused = [result for result in results if isinstance(result, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], IllegalAction)
    assert "you may add 1 or 2" in str(refused[0])
    kinds = [event.kind for event in station.store.events("t1")]
    assert kinds == ["game", "observation", "action", "observation", "action"]


def test_each_queued_write_keeps_its_own_receipt(station: Station, database: Database) -> None:
    def keyed(key: str, n: int) -> Any:
        def write() -> Any:
            with receipt_for(Receipt(key, f"fingerprint {key}", 201)):
                return station.observe("t1", declared(n), "button", "camera")
        return write

    results = queue_behind_the_lock(station, [keyed(f"key-{n}", 1) for n in range(4)])
    for n, events in enumerate(results):
        kept = find_receipt(database, f"key-{n}")
        assert kept is not None and kept.fingerprint == f"fingerprint key-{n}"
        assert [event["seq"] for event in kept.body["events"]] == [e.seq for e in events]


def test_a_batch_that_cannot_be_stored_is_written_one_by_one(
        station: Station, monkeypatch: pytest.MonkeyPatch) -> None:
    """Anything going wrong with the batch's transaction (here: the store refuses it)
    stores none of it; each write is then written alone, as it would have been."""
    def refuse(*_arguments: Any, **_keywords: Any) -> Any:
        raise RuntimeError("the batch's transaction failed")

    monkeypatch.setattr(station.store, "appending", refuse)
    results = queue_behind_the_lock(station, [
        lambda: station.observe("t1", declared(1), "button", "camera")
        for _ in range(WRITERS)])
    assert all(isinstance(events, list) and len(events) == 2 for events in results)
    assert [event.seq for event in station.store.events("t1")] == list(range(1, 2 + 2 * WRITERS))


def test_a_queued_write_made_before_is_answered_so_and_stores_nothing(
        station: Station, database: Database) -> None:
    """Its receipt is looked up in the batch's transaction before it is decided: the
    retry gets the first answer's receipt, the others of the batch are stored."""
    def keyed(key: str) -> Any:
        def write() -> Any:
            with receipt_for(Receipt(key, f"fingerprint {key}", 201)):
                return station.observe("t1", declared(1), "button", "camera")
        return write

    first = keyed("key-once")()
    results = queue_behind_the_lock(station, [keyed("key-once"), keyed("key-new"),
                                              keyed("key-once")])
    again = [result for result in results if isinstance(result, AnsweredBefore)]
    assert len(again) == 2 and all(
        [event["seq"] for event in answered.kept.body["events"]] == [e.seq for e in first]
        for answered in again)
    stored = station.store.events("t1")
    assert [event.seq for event in stored] == list(range(1, 6))  # game, the two written
