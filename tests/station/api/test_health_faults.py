"""Faults of the machine answered in words: a full disk is ``507`` "the data folder is full
(N MB free)", a database held by another writer is ``503`` with ``Retry-After``; nothing
is stored, and the same write succeeds once the fault clears."""

from __future__ import annotations

import errno
import html
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from station.api import Services, create_app
from station.store import database as database_module
from station.store.events import EventStore
from tests.station.api.conftest import AUTH

FULL = re.compile(r"^the data folder is full \(\d+ MB free\)$")


def _declare(client: TestClient, n: int = 1):
    return client.post("/api/tables/t1/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "add", "n": n}},
        "source": "button"})


def _stored(services: Services) -> int:
    return services.store.count_events(["t1"])


@contextmanager
def _full_database(services: Services) -> Iterator[None]:
    """SQLite's own 'database or disk is full' (SQLITE_FULL): the file may not grow by a
    page, as on a full disk, without filling one."""
    engine = services.database.engine
    with engine.connect() as connection:
        pages = connection.exec_driver_sql("PRAGMA page_count").scalar()

    def no_room(dbapi_connection, _record) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count={pages}")

    event.listen(engine, "connect", no_room)
    engine.dispose()  # every connection from now on has no room
    try:
        yield
    finally:
        event.remove(engine, "connect", no_room)
        engine.dispose()


def test_a_write_to_a_full_disk_is_507_in_words_and_stores_nothing(
        client: TestClient, services: Services, race_table: str) -> None:
    refused = []
    with _full_database(services):
        for number in range(200):  # until a page is wanted
            before = len(services.store.tables())
            answer = client.post("/api/tables", headers=AUTH,
                                 json={"name": f"Table {number}", "id": f"x{number}"})
            if answer.status_code != 201:
                refused.append((answer, len(services.store.tables()) - before))
                break
    assert refused, "the database never filled"
    answer, stored = refused[0]
    assert answer.status_code == 507 and FULL.match(answer.json()["detail"]), answer.text
    assert stored == 0
    again = client.post("/api/tables", headers=AUTH, json={"name": "Again", "id": "again"})
    assert again.status_code == 201  # room again: the same write succeeds


def test_a_write_refused_by_the_file_system_for_want_of_room_is_507(
        client: TestClient, services: Services, race_table: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(*_arguments, **_keywords):
        raise OSError(errno.ENOSPC, "No space left on device")

    before = _stored(services)
    monkeypatch.setattr(EventStore, "_append_to_hub", no_room)
    answer = _declare(client)
    assert answer.status_code == 507 and FULL.match(answer.json()["detail"]), answer.text
    monkeypatch.undo()
    assert _stored(services) == before
    assert _declare(client).status_code == 201


def test_a_database_held_by_another_writer_is_503_with_retry_after(
        client: TestClient, services: Services, race_table: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database_module, "BUSY_TIMEOUT_MS", 300)  # the short wait, shorter
    services.database.engine.dispose()  # connections made again, with it
    before = _stored(services)
    other = sqlite3.connect(services.settings.data_dir / "station.sqlite3", timeout=0.1,
                            isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another program's write transaction, held
    try:
        answer = _declare(client)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "2"
    assert answer.json()["detail"] == ("the database is busy (another program is writing "
                                       "to it): try again in 2 s")
    assert _stored(services) == before
    assert _declare(client).status_code == 201


def _damage(services: Services, table_id: str) -> int:
    """Store an event no version of the station can read (a game with no game): its seq."""
    seq = services.store.last_seq(table_id) + 1
    with services.database.engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO events (table_id, seq, kind, author, at, payload) "
            "VALUES (:table, :seq, 'game', 'someone', '2026-01-01 12:00:00', '{}')"),
            {"table": table_id, "seq": seq})
    return seq


def test_a_damaged_event_quarantines_its_table_and_every_other_table_runs(
        services: Services, toy_game: str) -> None:
    for table in ("t1", "t2"):
        services.station.create_table(f"Table {table}", table)
        services.station.start_game(table, toy_game, ["Ana", "Ben"], 0, None, "organiser")
    seq = _damage(services, "t1")
    services.station._tables.clear()  # as a station started again finds them
    with TestClient(create_app(services)) as client:  # starts: no exit, no traceback
        snapshot = client.get("/api/tables/t1").json()
        words = snapshot["quarantined"]
        assert re.fullmatch(rf"event {seq} \(game\) cannot be read \(.+\): the table is "
                            "read-only until it is repaired", words), words
        listed = client.get("/api/tables/t1/events")
        assert listed.status_code == 200, listed.text
        assert listed.json()[-1]["seq"] == seq and "unreadable" in listed.json()[-1]
        refused = _declare(client)
        assert refused.status_code == 409
        assert refused.json()["detail"] == f"table 't1' is read-only: {words}"
        other = client.post("/api/tables/t2/observations", headers=AUTH, json={
            "observation": {"kind": "declared", "action": {"type": "add", "n": 1}},
            "source": "button"})
        assert other.status_code == 201, other.text  # every other table runs
        health = client.get("/api/health", headers=AUTH).json()
        assert not health["ok"]
        assert {"name": "table t1", "ok": False, "status": "needs attention",
                "summary": words, "detail": words} in health["checks"]
        page = html.unescape(client.get("/health").text)
        assert words in page  # the page, for anyone


def test_a_failing_source_shows_on_the_health_page(client: TestClient, services: Services,
                                                   race_table: str) -> None:
    words = "the camera's frames stopped: camera 0: stopped giving frames; retrying in 4 s"
    services.station.source_faults.fail("t1", "camera", words)
    assert client.get("/api/tables/t1").json()["sources"] == [
        {"source": "camera", "words": words, "since": pytest.approx(time.time(), abs=60),
         "skipped": 0}]
    health = client.get("/api/health", headers=AUTH).json()
    assert {"name": "table t1: camera", "ok": False, "status": "needs attention",
            "summary": words, "detail": words} in health["checks"]
    services.station.source_faults.clear("t1", "camera")
    assert client.get("/api/tables/t1").json()["sources"] == []
    assert all(c["name"] != "table t1: camera"
               for c in client.get("/api/health", headers=AUTH).json()["checks"])
