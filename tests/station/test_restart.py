"""A real ``packref serve`` killed with SIGKILL mid-game loses no acknowledged event."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rules import get_game
from tests.conftest import REPO

TOKEN = "restart-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Serve:
    """A ``packref serve`` subprocess on a free loopback port."""

    def __init__(self, data: Path, token: str | None = TOKEN) -> None:
        environment = dict(os.environ, PACKREF_TOKEN=token or "")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data)],
            cwd=REPO, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.process.stdout.readline()  # printed once the socket listens
        if not first:
            raise AssertionError(self.process.stderr.read())
        self.announced = json.loads(first)
        self.url = self.announced["url"].rstrip("/")
        self.client = httpx.Client(base_url=self.url, timeout=10)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.client.close()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.kill()


def play(state, rng: random.Random) -> dict:
    action = rng.choice(state.legal_actions())
    state.apply(action)
    return {"observation": {"kind": "declared", "action": action}, "source": "test"}


def test_a_killed_station_restarts_with_every_acknowledged_event(tmp_path: Path,
                                                                 servers: list[Serve]) -> None:
    servers.append(first := Serve(tmp_path))
    created = first.client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1",
        "game": {"game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 11}})
    assert created.status_code == 201, created.text
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=11)
    rng = random.Random(3)
    acknowledged: list[dict] = []
    for _ in range(3):
        acknowledged += first.client.post("/api/tables/t1/observations", headers=AUTH,
                                          json=play(state, rng)).json()["events"]
    before = first.client.get("/api/tables/t1").json()
    killer = threading.Timer(0.15, first.kill)  # kill while observations are arriving
    killer.start()
    frames = 0
    try:
        while frames < 5000:  # the game, then plain camera frames, until the kill lands
            body = play(state, rng) if not state.is_over() else {
                "observation": {"kind": "frame", "n": (frames := frames + 1)}}
            acknowledged += first.client.post("/api/tables/t1/observations", headers=AUTH,
                                              json=body).json()["events"]
    except httpx.TransportError:
        pass
    killer.join()
    assert frames < 5000, "the station was not killed while writing"
    assert first.process.returncode == -signal.SIGKILL

    servers.append(second := Serve(tmp_path))
    stored = second.client.get("/api/tables/t1/events").json()
    by_seq = {event["seq"]: event for event in stored}
    assert all(by_seq[event["seq"]] == event for event in acknowledged)  # nothing lost
    assert [event["seq"] for event in stored] == list(range(1, len(stored) + 1))
    after = second.client.get("/api/tables/t1").json()
    assert len(stored) >= len(acknowledged) > 5
    applied = [event["action"] for event in stored if event["kind"] == "action"]
    replayed = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=11)
    for action in applied:
        replayed.apply(action)
    assert after["game"]["state"] == replayed.public_view()  # hands hidden, as at the table
    assert after["game"]["actions"] >= before["game"]["actions"] == 3
    if not replayed.is_over():  # the table resumes: the next action is taken where it stopped
        action = replayed.legal_actions()[0]
        resumed = second.client.post("/api/tables/t1/observations", headers=AUTH, json={
            "observation": {"kind": "declared", "action": action}}).json()["events"]
        assert [e["kind"] for e in resumed] == ["observation", "action"]
        assert resumed[0]["seq"] == len(stored) + 1


def test_the_first_start_prints_the_token_once(tmp_path: Path, servers: list[Serve]) -> None:
    servers.append(first := Serve(tmp_path, token=None))
    token = first.announced["token"]
    denied = first.client.post("/api/tables", json={"name": "T"})
    assert denied.status_code == 401
    assert first.client.post("/api/tables", json={"name": "T"},
                             headers={"Authorization": f"Bearer {token}"}).status_code == 201
    first.kill()
    servers.append(second := Serve(tmp_path, token=None))
    assert "token" not in second.announced
    assert second.client.post("/api/tables", json={"name": "U"},
                              headers={"Authorization": f"Bearer {token}"}).status_code == 201


def test_serve_refuses_a_bad_database_url_or_a_busy_port(cli, tmp_path: Path) -> None:
    bad = cli("serve", "--db", "not a url", "--data", tmp_path)
    assert bad.status == 2 and "--db: 'not a url' is not a database URL" in bad.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        taken = cli("serve", "--port", str(port), "--data", tmp_path)
    assert taken.status == 2 and f"cannot listen on 127.0.0.1:{port}" in taken.stderr
