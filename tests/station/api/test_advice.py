"""The hints switch and win chances through the API, the pages and the live channel."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from station.api import Services, build_services, create_app
from station.config import AdviceSettings, Settings
from station.store import FixedClock
from tests.station.api.conftest import AUTH


def make_table(client: TestClient, game: str = "small-warehouse",
               players: tuple[str, ...] = ("Ana", "Ben")) -> str:
    answer = client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1", "game": {"game": game, "players": list(players),
                                                "seed": 3}})
    assert answer.status_code == 201, answer.text
    return "t1"


def first_legal(client: TestClient, table: str) -> dict:
    return client.get(f"/api/tables/{table}/legal-actions?limit=1",
                      headers=AUTH).json()["actions"][0]


def test_hints_are_off_until_the_organiser_switches_them_on(client: TestClient) -> None:
    table = make_table(client)
    assert client.get(f"/api/tables/{table}/hints").json() == {
        "table": table, "on": False, "shown": False}
    assert client.get(f"/api/tables/{table}").json()["hints"] is False
    assert client.put(f"/api/tables/{table}/hints", json={"on": True}).status_code == 401
    switched = client.put(f"/api/tables/{table}/hints", headers=AUTH, json={"on": True})
    assert switched.status_code == 200 and switched.json()["shown"] is True
    snapshot = client.get(f"/api/tables/{table}").json()
    assert snapshot["hints"] is True
    assert snapshot["recent"][0]["text"] == "The organiser switched hints on"
    assert client.put(f"/api/tables/{table}/hints", headers=AUTH,
                      json={"on": "yes"}).status_code == 422
    assert client.put("/api/tables/nope/hints", headers=AUTH, json={"on": True}).status_code \
        == 404


def test_the_hints_switch_survives_a_restart(settings: Settings, client: TestClient) -> None:
    table = make_table(client)
    client.put(f"/api/tables/{table}/hints", headers=AUTH, json={"on": True})
    again = build_services(settings, FixedClock())
    try:
        with TestClient(create_app(again)) as restarted:
            assert restarted.get(f"/api/tables/{table}/hints").json()["on"] is True
            assert 'id="hints-switch" checked' in restarted.get(f"/tables/{table}").text
    finally:
        again.database.close()


def test_a_tournament_game_keeps_hints_off_unless_its_organiser_allows_them(
        client: TestClient) -> None:
    table = make_table(client)
    client.put(f"/api/tables/{table}/hints", headers=AUTH, json={"on": True})
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["Ana", "Ben"]})
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"], "table": table}).json()
    started = client.post(f"/api/tournaments/cup/games/{game['id']}/start", headers=AUTH,
                          json={"game": "small-warehouse", "replace": True})  # a game in play
    assert started.status_code == 201, started.text
    hints = client.get(f"/api/tables/{table}/hints").json()
    assert hints["on"] is True and hints["shown"] is False  # switched on before: now hidden
    assert "tournament 'cup'" in hints["refusal"]
    refused = client.put(f"/api/tables/{table}/hints", headers=AUTH, json={"on": True})
    assert refused.status_code == 409 and "not allowed hints" in refused.json()["detail"]
    assert client.get("/api/tournaments/cup").json()["allow_hints"] is False
    assert client.put("/api/tournaments/cup/hints", json={"on": True}).status_code == 401
    allowed = client.put("/api/tournaments/cup/hints", headers=AUTH, json={"on": True})
    assert allowed.json() == {"tournament": "cup", "allow_hints": True}
    assert client.get("/api/tournaments/cup").json()["allow_hints"] is True
    assert client.get(f"/api/tables/{table}/hints").json()["shown"] is True
    assert client.put("/api/tournaments/nope/hints", headers=AUTH,
                      json={"on": True}).status_code == 404


def test_without_win_chances_nor_hints_there_is_no_advice(client: TestClient) -> None:
    table = make_table(client)
    advice = client.get(f"/api/tables/{table}/advice").json()
    assert advice == {"type": "advice", "table": table, "hints_on": False}
    page = client.get(f"/tables/{table}").text
    assert 'id="advice"' in page and 'id="hints-switch"' in page
    projector = client.get(f"/tables/{table}/projector").text
    assert 'id="advice"' in projector and 'id="hints-switch"' not in projector


@pytest.fixture
def advised(settings: Settings) -> Iterator[Services]:
    """Services with win chances on (a real worker process), a short budget."""
    every = AdviceSettings(seconds=0.2, credible_width=None)  # every estimate shown
    built = build_services(dataclasses.replace(settings, advice=every),
                           FixedClock())
    yield built
    built.database.close()


def test_win_chances_follow_each_action_on_the_live_channel(advised: Services) -> None:
    with TestClient(create_app(advised)) as client:
        table = make_table(client, "pick-n-packers", ("Ana", "Ben", "Cy", "Dee"))
        with client.websocket_connect(f"/ws/tables/{table}") as socket:
            assert socket.receive_json()["type"] == "snapshot"
            client.put(f"/api/tables/{table}/hints", headers=AUTH, json={"on": True})
            client.post(f"/api/tables/{table}/corrections", headers=AUTH,
                        json={"action": first_legal(client, table)})
            advice = next(message for message in iter(socket.receive_json, None)
                          if message["type"] == "advice" and message["actions"] == 1)
        assert [line["player"] for line in advice["win_chances"]] == ["Ana", "Ben", "Cy", "Dee"]
        assert advice["hints_on"] is True and advice["player"] == "Dee"
        assert all(hint["words"].startswith("Dee bet on shop card ") for hint in advice["hints"])
        assert client.get(f"/api/tables/{table}/advice").json() == advice
        page = client.get(f"/tables/{table}/projector").text
        assert page.count('class="chance-bar"') == 4
