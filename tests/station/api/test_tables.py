"""``/api/tables``: reads are public, writes need the token, refusals are clear 4xx."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from station.api import Services
from tests.station.api.conftest import AUTH, declare, device_reads


def test_a_table_plays_through_observations_flags_and_referee_decisions(
        client: TestClient, race_table: str, services: Services) -> None:
    declare(client, race_table, 2)
    assert "you may add 1 or 2" in declare(client, race_table, 3, expect=422)["detail"]
    assert client.get("/api/tables/t1").json()["flags"] == []  # a person hears; no flag
    flagged = device_reads(services, race_table, 3)
    assert [e["kind"] for e in flagged] == ["observation", "flag"]
    assert flagged[1]["reason"] == "you may add 1 or 2"
    table = client.get("/api/tables/t1").json()
    assert [s["total"] for s in table["game"]["scores"]] == [2, 0]
    assert table["flags"][0]["seq"] == 5
    assert client.post("/api/tables/t1/corrections", headers=AUTH,
                       json={"action": {"type": "add", "n": 1}, "flag": 5}).status_code == 201
    assert client.post("/api/tables/t1/undo", headers=AUTH).status_code == 201
    assert client.post("/api/tables/t1/undo", headers=AUTH).status_code == 201
    table = client.get("/api/tables/t1").json()
    assert [s["total"] for s in table["game"]["scores"]] == [0, 0] and table["flags"] == []
    events = client.get("/api/tables/t1/events").json()
    assert [e["kind"] for e in events] == ["game", "observation", "action", "observation",
                                          "flag", "correction", "undo", "undo"]
    assert {e["author"] for e in events} == {"organiser", "camera"}  # a device read one
    assert client.get("/api/tables/t1/events?after=6").json()[0]["seq"] == 7
    listing = client.get("/api/tables").json()
    assert listing == [{"id": "t1", "name": "Table 1", "seq": 8, "flags": 0, "game": {
        "name": "test-race", "players": ["Ana", "Ben"], "over": False, "seq": 1}}]
    legal = client.get("/api/tables/t1/legal-actions").json()
    assert legal == {"actions": [{"type": "add", "n": 1}, {"type": "add", "n": 2}], "total": 2}


def test_writes_need_the_organisers_token(client: TestClient, race_table: str) -> None:
    body = {"observation": {"kind": "declared", "action": {"type": "add", "n": 1}}}
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic x"}):
        answer = client.post("/api/tables/t1/observations", json=body, headers=headers)
        assert answer.status_code == 401
        assert "organiser's token" in answer.json()["detail"]
    assert client.post("/api/tables", json={"name": "T2"}).status_code == 401
    assert client.get("/api/tables/t1").status_code == 200  # reads are public
    assert len(client.get("/api/tables/t1/events").json()) == 1


def test_the_author_header_names_who_wrote(client: TestClient, race_table: str) -> None:
    client.post("/api/tables/t1/undo", headers=AUTH)  # nothing to undo: refused
    client.post("/api/tables/t1/corrections", json={"action": {"type": "add", "n": 1}},
                headers=AUTH | {"X-Packref-Author": "Zoe"})
    assert client.get("/api/tables/t1/events").json()[-1]["author"] == "organiser:Zoe"


@pytest.mark.parametrize(("method", "path", "body", "status", "message"), [
    ("get", "/api/tables/nope", None, 404, "there is no table 'nope'"),
    ("post", "/api/tables/nope/undo", None, 404, "there is no table 'nope'"),
    ("post", "/api/tables/t1/undo", None, 409, "there is no action to undo"),
    ("post", "/api/tables/t1/flags/3/accept", None, 409, "there is no open flag at event 3"),
    ("post", "/api/tables/t1/corrections", {"action": {"type": "add", "n": 9}}, 422,
     "illegal action: you may add 1 or 2"),
    ("post", "/api/tables/t1/corrections", {"action": "add"}, 422,
     "$.action: Input should be a valid dictionary"),
    ("post", "/api/tables/t1/observations", {"observation": {}, "extra": 1}, 422,
     "$.extra: Extra inputs are not permitted"),
    ("post", "/api/tables", {"name": "T", "id": "Bad Id"}, 422, "$.id: String should match"),
    ("post", "/api/tables", {"name": "Table 1", "id": "t1"}, 409, "already a table 't1'"),
    ("post", "/api/tables", {"name": "T2", "game": {"game": "chess", "players": ["A", "B"]}},
     404, "no game called 'chess'"),
    ("post", "/api/tables/t1/games", {"game": "test-race", "players": ["Solo"]}, 400,
     "takes 2 to 4 players"),
    ("post", "/api/tables/t1/games", {"game": "test-race", "players": ["A", "A"]}, 400,
     "player names must be different"),
    ("post", "/api/tables/t1/games", {"game": "test-race", "players": ["A", "B"],
                                      "options": {"speed": 2}}, 422,
     "$.options.speed: test-race has no option 'speed'"),
])
def test_bad_requests_get_a_clear_4xx_and_change_nothing(
        client: TestClient, race_table: str, method: str, path: str, body: dict | None,
        status: int, message: str) -> None:
    answer = getattr(client, method)(path, headers=AUTH, **({"json": body} if body else {}))
    assert answer.status_code == status, answer.text
    assert message in answer.json()["detail"]
    assert len(client.get("/api/tables/t1/events").json()) == 1
    assert [t["id"] for t in client.get("/api/tables").json()] == ["t1"]


def test_invalid_json_is_a_422(client: TestClient, race_table: str) -> None:
    answer = client.post("/api/tables/t1/observations", headers=AUTH | {
        "Content-Type": "application/json"}, content=b"{nope")
    assert answer.status_code == 422
    assert "JSON" in answer.json()["detail"]


def test_games_lists_the_registered_engines(client: TestClient, toy_game: str) -> None:
    games = {game["name"]: game for game in client.get("/api/games").json()}
    assert games[toy_game]["min_players"] == 2


def test_a_snapshot_shows_a_speculation_face_down(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Drone", "id": "d1", "game": {
        "game": "pick-n-packers", "players": ["Ana", "Ben", "Cas"], "seed": 1}})
    answer = client.post("/api/tables/d1/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "speculate", "card": 4}}})
    assert [event["kind"] for event in answer.json()["events"]] == ["observation", "action"]
    snapshot = client.get("/api/tables/d1").json()
    assert snapshot["recent"][0]["action"] == {"type": "speculate", "card": None}
    assert snapshot["last_observation"]["observation"]["action"]["card"] is None
    assert '"card": 4' not in json.dumps(snapshot)
    public = client.get("/api/tables/d1/events").json()
    assert public[-1]["action"] == {"type": "speculate", "card": None}
    assert '"card": 4' not in json.dumps(public)
    after = client.get(f"/api/tables/d1/events?after={public[-1]['seq'] - 1}").json()
    assert after == public[-1:]  # the game began before `after`: still face down
    record = client.get("/api/tables/d1/events", headers=AUTH).json()
    assert record[-1]["action"] == {"type": "speculate", "card": 4}  # the record keeps it
    wrong = client.get("/api/tables/d1/events", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401


def test_legal_actions_show_a_speculators_cards_to_the_organiser_only(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1", "game": {
        "game": "pick-n-packers", "players": ["Ana", "Ben", "Cas"], "seed": 1}}).raise_for_status()
    everything = client.get("/api/tables/t1/legal-actions", headers=AUTH).json()
    assert everything["total"] == 10 and {a["card"] for a in everything["actions"]} >= {4}
    public = client.get("/api/tables/t1/legal-actions").json()
    assert public == {"actions": [{"type": "speculate", "card": None}], "total": 1}
    wrong = client.get("/api/tables/t1/legal-actions", headers={"Authorization": "Bearer no"})
    assert wrong.status_code == 401
