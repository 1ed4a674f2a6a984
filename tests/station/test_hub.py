"""One live hub: two real ``packref serve`` on one real PostgreSQL server.

Writes at one station reach the other station's WebSockets (tables and
tournaments) within a second, and a station that loses the hub mid-game keeps
refereeing, then sends what it stored when the hub is back: nothing lost,
nothing numbered twice.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from rules import get_game
from tests.conftest import REPO
from tests.station.conftest import postgres_url

TOKEN = "hub-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Station:
    """A ``packref serve`` subprocess on the hub database."""

    def __init__(self, data: Path, database_url: str) -> None:
        environment = dict(os.environ, PACKREF_TOKEN=TOKEN)
        data.mkdir(parents=True, exist_ok=True)
        self.log = open(data / "stderr.log", "w+")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data),
             "--db", database_url], cwd=REPO, env=environment, stdout=subprocess.PIPE,
            stderr=self.log, text=True)
        first = self.process.stdout.readline()
        if not first:
            raise AssertionError((data / "stderr.log").read_text())
        self.url = json.loads(first)["url"].rstrip("/")
        self.client = httpx.Client(base_url=self.url, timeout=15, headers=AUTH)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.process.stdout.close()
        self.log.close()
        self.client.close()


class Listener:
    """A WebSocket of a station's page, every message kept with the time it arrived."""

    def __init__(self, station: Station, path: str) -> None:
        self.socket = connect(station.url.replace("http", "ws", 1) + path)
        self.messages: list[tuple[float, dict]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                self.messages.append((time.time(), json.loads(text)))
        except Exception:  # closed at the end of the test
            return

    def wait_for(self, test, since: float, timeout: float = 10.0) -> float:
        """The arrival time of the first message after ``since`` passing ``test``."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for arrived, message in list(self.messages):
                if arrived >= since and test(message):
                    return arrived
            time.sleep(0.005)
        raise AssertionError(f"no such message within {timeout} s")

    def close(self) -> None:
        self.socket.close()


@pytest.fixture
def started() -> Iterator[list]:
    things: list = []
    yield things
    for thing in reversed(things):
        thing.close() if isinstance(thing, Listener) else thing.stop()


def play(state, rng: random.Random, frame: int) -> dict:
    if state.is_over():
        return {"observation": {"kind": "frame", "n": frame}, "source": "test"}
    action = rng.choice(state.legal_actions())
    state.apply(action)
    return {"observation": {"kind": "declared", "action": action}, "source": "test"}


def new_table(station: Station, seed: int):
    created = station.client.post("/api/tables", json={
        "name": "Table 1", "id": "t1",
        "game": {"game": "small-warehouse", "players": ["Ana", "Ben"], "seed": seed}})
    assert created.status_code == 201, created.text
    return get_game("small-warehouse").new_game(["Ana", "Ben"], seed=seed)


def test_writes_cross_between_two_stations_within_a_second(tmp_path: Path, postgres_cluster,
                                                           started: list) -> None:
    url = postgres_url(postgres_cluster)
    a = Station(tmp_path / "a", url)
    started.append(a)
    b = Station(tmp_path / "b", url)
    started.append(b)
    state, rng = new_table(a, seed=4), random.Random(4)
    table_page = Listener(b, "/ws/tables/t1")
    started.append(table_page)
    assert a.client.post("/api/tournaments", json={"name": "Cup",
                                                    "players": ["Ana", "Ben"]}).status_code == 201
    cup_page = Listener(b, "/ws/tournaments/cup")
    started.append(cup_page)
    table_page.wait_for(lambda m: m["type"] == "snapshot", 0)
    delays = []
    for n in range(40):
        sent = time.time()
        answer = a.client.post("/api/tables/t1/observations", json=play(state, rng, n))
        seq = answer.json()["events"][-1]["seq"]
        arrived = table_page.wait_for(lambda m, s=seq: m.get("seq", 0) >= s, sent)
        delays.append(arrived - sent)
        time.sleep(0.02)
    for n in range(10):  # tournament changes, both ways
        writer, page = (a, cup_page) if n % 2 == 0 else (b, None)
        if page is None:
            page = Listener(a, "/ws/tournaments/cup")
            started.append(page)
            page.wait_for(lambda m: m["type"] == "changed", 0)
        sent = time.time()
        assert writer.client.post("/api/tournaments/cup/players",
                                  json={"name": f"Late {n}"}).status_code == 201
        delays.append(page.wait_for(lambda m: m["type"] == "changed", sent) - sent)
    p95 = statistics.quantiles(delays, n=20)[-1]
    assert p95 <= 1.0, sorted(delays)[-5:]
    final_a = a.client.get("/api/tables/t1").json()
    final_b = b.client.get("/api/tables/t1").json()
    assert final_a["seq"] == final_b["seq"] and final_a["game"] == final_b["game"]
    players = b.client.get("/api/tournaments/cup").json()["players"]
    assert len(players) == 12  # every late entry, from either station


def _same(acknowledged: dict, stored: dict) -> bool:
    keys = set(acknowledged) - {"at"}
    return all(acknowledged[k] == stored[k] for k in keys) and \
        datetime.fromisoformat(acknowledged["at"]) == datetime.fromisoformat(stored["at"])


def test_a_station_that_loses_the_hub_keeps_refereeing_and_loses_nothing(
        tmp_path: Path, own_postgres_cluster, started: list) -> None:
    cluster = own_postgres_cluster
    url = postgres_url(cluster)
    a = Station(tmp_path / "a", url)
    started.append(a)
    b = Station(tmp_path / "b", url)
    started.append(b)
    state, rng = new_table(a, seed=9), random.Random(9)
    acknowledged: list[dict] = []
    for n in range(4):
        acknowledged += a.client.post("/api/tables/t1/observations",
                                      json=play(state, rng, n)).json()["events"]
    cluster.stop("fast")  # the hub goes away mid-game
    for n in range(4, 12):
        answer = a.client.post("/api/tables/t1/observations", json=play(state, rng, n))
        assert answer.status_code == 201, answer.text  # refereed and stored locally
        acknowledged += answer.json()["events"]
    during = a.client.get("/api/tables/t1").json()
    assert during["seq"] == acknowledged[-1]["seq"]
    cluster.start()  # the hub is back: A sends what it kept
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            stored = b.client.get("/api/tables/t1/events").json()
            if len(stored) >= len(acknowledged) + 1:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    stored = b.client.get("/api/tables/t1/events").json()
    assert [event["seq"] for event in stored] == list(range(1, len(stored) + 1))
    assert len(stored) == len(acknowledged) + 1  # the game's first event, then every one
    by_seq = {event["seq"]: event for event in stored}
    assert all(_same(event, by_seq[event["seq"]]) for event in acknowledged)
    assert b.client.get("/api/tables/t1").json()["game"] == \
        a.client.get("/api/tables/t1").json()["game"]
    after = a.client.post("/api/tables/t1/observations", json=play(state, rng, 99))
    assert after.json()["events"][0]["seq"] == len(stored) + 1


def test_two_stations_started_at_the_same_instant_on_a_fresh_hub_both_serve(
        tmp_path: Path, postgres_cluster, started) -> None:
    """At a venue every Pi boots at once: the schema is made by one station, under the
    hub's lock, and the other finds it made (each says so on stderr)."""
    hub = postgres_url(postgres_cluster)
    barrier = threading.Barrier(2)
    stations: list[Station | BaseException] = [None, None]  # type: ignore[list-item]

    def start(number: int) -> None:
        barrier.wait()
        try:
            stations[number] = Station(tmp_path / f"station-{number}", hub)
        except BaseException as error:
            stations[number] = error

    threads = [threading.Thread(target=start, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()  # a start on a loaded machine may take a minute: no shorter limit here
    started.extend(s for s in stations if isinstance(s, Station))
    assert all(isinstance(s, Station) for s in stations), stations
    for number, station in enumerate(stations):
        table = {"name": f"Table {number}", "id": f"t{number}",
                 "game": {"game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 1}}
        assert station.client.post("/api/tables", json=table).status_code == 201
    lines = sorted(line for number in range(2) for line in
                   (tmp_path / f"station-{number}" / "stderr.log").read_text().splitlines()
                   if "database schema" in line)
    head = lines[0].rsplit(" ", 1)[1]
    assert lines == [f"packref: database schema: found {head}, leaves {head}",
                     f"packref: database schema: found none (a new database), leaves {head}"]
