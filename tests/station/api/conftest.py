"""An API client over a fresh station (SQLite under tmp_path, a fixed clock, a known token)."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from station.api import Services, build_services, create_app
from station.config import AdviceSettings, Settings
from station.live.advisor import LiveAdvisor
from station.store import FixedClock
from tests.station.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}
def advice_with(playouts: int) -> AdviceSettings:
    """Win chances on, from a fixed number of playouts a position: the same chances each
    time, whatever the machine's load; every estimate shown, however few its playouts
    (what these tests check is what the chances may tell, not how sure they are)."""
    return AdviceSettings(win_chances=True, seconds=10.0, workers=1, min_playouts=0,
                          max_playouts=playouts, credible_width=None)


@pytest.fixture
def services(settings: Settings) -> Iterator[Services]:
    built = build_services(settings, FixedClock())
    yield built
    built.database.close()


@pytest.fixture
def playouts() -> int:
    """The advised services' playouts a position (a test module may ask for more)."""
    return 4


@pytest.fixture
def advised(settings: Settings, playouts: int) -> Iterator[Services]:
    """Services whose advisor studies every position in a thread, with a fixed budget."""
    advice = advice_with(playouts)
    services = build_services(dataclasses.replace(settings, advice=advice), FixedClock())
    pool = ThreadPoolExecutor(max_workers=1)
    services.advisor = LiveAdvisor(services.station, advice, services.advisor.hints_rule,
                                   executor=pool)
    yield services
    pool.shutdown(wait=True)
    services.database.close()


@pytest.fixture
def client(services: Services) -> Iterator[TestClient]:
    with TestClient(create_app(services)) as test_client:
        yield test_client


@pytest.fixture
def race_table(client: TestClient, toy_game: str) -> str:
    """A table 't1' playing the toy game, Ana to act."""
    answer = client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1",
        "game": {"game": toy_game, "players": ["Ana", "Ben"], "seed": 0}})
    assert answer.status_code == 201, answer.text
    return "t1"


def declare(client: TestClient, table: str, n: int, expect: int = 201) -> dict:
    """A person declares the toy game's ``add n`` through the API (refused: 422, no flag)."""
    answer = client.post(f"/api/tables/{table}/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "add", "n": n}},
        "source": "button"})
    assert answer.status_code == expect, answer.text
    return answer.json()


def device_reads(services: Services, table: str, n: int) -> list[dict[str, Any]]:
    """A device (a recording, a reader) reports the toy game's ``add n``: refused, it is
    flagged at the table, as a camera's reading is."""
    events = services.station.observe(
        table, {"kind": "declared", "action": {"type": "add", "n": n}}, "camera", "camera")
    return [event.to_json() for event in events]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class CountingApp:
    """The app, counting the HTTP requests that reach it."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.requests = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.requests += 1
        await self.app(scope, receive, send)


class LiveStation:
    """``packref serve`` in a thread: the real app behind a real HTTP server."""

    def __init__(self, settings: Settings) -> None:
        self.services = build_services(settings)
        self.port = _free_port()
        self.app = CountingApp(create_app(self.services))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.held: dict[str, list[str | int]] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveStation:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the station did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.services.database.close()


@pytest.fixture
def live_station(settings: Settings) -> Iterator[LiveStation]:
    """The station served over HTTP on loopback, empty."""
    with LiveStation(settings) as running:
        yield running
