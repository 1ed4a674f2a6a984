"""A real ``packref serve`` killed with SIGKILL mid-game loses no acknowledged event."""

from __future__ import annotations

import json
import os
import pty
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rules import get_game
from station.config import TOKEN_FILE, hash_token
from tests.conftest import REPO

TOKEN = "restart-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Serve:
    """A ``packref serve`` subprocess on a free loopback port; ``terminal``: its stdout is a
    terminal (a pseudo-terminal), as for an organiser who starts it by hand."""

    def __init__(self, data: Path, token: str | None = TOKEN, terminal: bool = False) -> None:
        environment = dict(os.environ, PACKREF_TOKEN=token or "")
        if terminal:
            reading, out = pty.openpty()
        # a file, not a pipe: its worker processes may outlive a kill; closed by kill()
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(data)],
            cwd=REPO, env=environment, stdout=out if terminal else subprocess.PIPE,
            stderr=self.stderr, text=True)
        if terminal:
            os.close(out)
        self.stdout = (open(reading, encoding="utf-8") if terminal  # noqa: SIM115
                       else self.process.stdout)
        first = self.stdout.readline()  # printed once the server has started
        if not first:
            raise AssertionError(self.said())
        self.announced = json.loads(first)
        self.url = self.announced["url"].rstrip("/")
        self.client = httpx.Client(base_url=self.url, timeout=10)

    def said(self) -> str:
        """What it has said on stderr (all of it, once killed)."""
        if self.stderr.closed:
            return self.told
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self.client.close()
        self.stdout.close()
        self.told = self.said()
        self.stderr.close()


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
    stored = second.client.get("/api/tables/t1/events", headers=AUTH).json()  # the record
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


def test_the_first_start_at_a_terminal_prints_the_token_once(tmp_path: Path,
                                                              servers: list[Serve]) -> None:
    servers.append(first := Serve(tmp_path, token=None, terminal=True))
    token = first.announced["token"]
    assert (tmp_path / TOKEN_FILE).read_text().strip() == hash_token(token)
    denied = first.client.post("/api/tables", json={"name": "T"})
    assert denied.status_code == 401
    assert first.client.post("/api/tables", json={"name": "T"},
                             headers={"Authorization": f"Bearer {token}"}).status_code == 201
    first.kill()
    assert token not in first.said()  # stderr may be a log: the token is only on the terminal
    servers.append(second := Serve(tmp_path, token=None, terminal=True))
    assert "token" not in second.announced
    assert second.client.post("/api/tables", json={"name": "U"},
                              headers={"Authorization": f"Bearer {token}"}).status_code == 201


def test_a_station_started_into_a_pipe_shows_no_token_and_takes_one_issued_later(
        cli, tmp_path: Path, servers: list[Serve]) -> None:
    servers.append(station := Serve(tmp_path, token=None))  # systemd's journal, a pipe
    assert "token" not in station.announced and not (tmp_path / TOKEN_FILE).exists()
    refused = station.client.post("/api/tables", json={"name": "T"},
                                  headers={"Authorization": "Bearer guess"})
    assert refused.status_code == 401 and "none is issued yet" in refused.json()["detail"]
    issued = cli("token", "--new", "--print", "--data", tmp_path).json()["token"]
    assert station.client.post("/api/tables", json={"name": "T"}, headers={
        "Authorization": f"Bearer {issued}"}).status_code == 201  # no restart
    station.kill()
    said = station.said()
    assert f"token --new --data {tmp_path}" in said and issued not in said


def test_serve_refuses_a_bad_database_url_or_a_busy_port(cli, tmp_path: Path) -> None:
    bad = cli("serve", "--db", "not a url", "--data", tmp_path)
    assert bad.status == 2 and "--db: 'not a url' is not a database URL" in bad.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        taken = cli("serve", "--port", str(port), "--data", tmp_path)
    assert taken.status == 2 and f"cannot listen on 127.0.0.1:{port}" in taken.stderr


@pytest.fixture
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``packref serve`` in this process believes its stdout is a terminal (no token given)."""
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    monkeypatch.setattr("station.cli.serve.interactive", lambda: True)


def test_a_first_start_that_fails_leaves_no_token(cli, tmp_path: Path, at_a_terminal) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        taken = cli("serve", "--port", str(port), "--data", tmp_path)
    assert taken.status == 2 and taken.stdout == ""
    bad = cli("serve", "--db", "not a url", "--data", tmp_path)
    assert bad.status == 2 and bad.stdout == ""
    assert not (tmp_path / TOKEN_FILE).exists()


def test_a_station_that_fails_as_it_starts_leaves_no_token(cli, tmp_path: Path, at_a_terminal,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    def broken(self) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("station.live.station.Station.resume", broken)
    with pytest.raises(SystemExit):  # uvicorn's "startup failed"
        cli("serve", "--port", "0", "--data", tmp_path)
    assert not (tmp_path / TOKEN_FILE).exists()


def children_of(pid: int) -> set[int]:
    """The processes ``pid`` started (every thread's), from /proc."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_a_killed_stations_worker_processes_end_with_it(tmp_path: Path,
                                                        servers: list[Serve]) -> None:
    """SIGKILL to the station alone (as the out-of-memory killer sends it): its win-chances
    worker ends too, rather than wait for work for ever beside the restarted station."""
    servers.append(station := Serve(tmp_path))
    station.client.post("/api/tables", headers=AUTH, json={
        "name": "T", "id": "t1", "game": {"game": "moving-day", "players": ["Ana", "Ben"],
                                          "seed": 1}}).raise_for_status()
    deadline = time.monotonic() + 60
    while len(children_of(station.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the pool starts with the first position to study
    workers = children_of(station.process.pid)  # the worker and multiprocessing's tracker
    assert len(workers) >= 2, "no worker process was started"
    time.sleep(3)  # the worker has started (the station is killed while it works)
    station.kill()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(alive(pid) for pid in workers)
