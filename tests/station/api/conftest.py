"""An API client over a fresh station (SQLite under tmp_path, a fixed clock, a known token)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from station.api import Services, build_services, create_app
from station.config import Settings
from station.store import FixedClock
from tests.station.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def services(settings: Settings) -> Iterator[Services]:
    built = build_services(settings, FixedClock())
    yield built
    built.database.close()


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


def declare(client: TestClient, table: str, n: int) -> dict:
    answer = client.post(f"/api/tables/{table}/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "add", "n": n}},
        "source": "button"})
    assert answer.status_code == 201, answer.text
    return answer.json()
