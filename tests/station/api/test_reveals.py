"""Tables dealt by hand (docs/formats.md §9): the picker's outcomes, reveals, hidden order."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.station.api.conftest import AUTH


@pytest.fixture
def dealt_table(client: TestClient, draw_game: str) -> str:
    answer = client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1",
        "game": {"game": draw_game, "players": ["Ana", "Ben"], "deal": "table"}})
    assert answer.status_code == 201, answer.text
    return "t1"


def _reveal(client: TestClient, card: str) -> tuple[int, dict]:
    answer = client.post("/api/tables/t1/reveals", headers=AUTH,
                         json={"action": {"type": "reveal", "card": card}})
    return answer.status_code, answer.json()


def test_the_picker_lists_exactly_the_legal_outcomes(client: TestClient,
                                                      dealt_table: str) -> None:
    game = client.get("/api/tables/t1").json()["game"]
    assert game["deal"] == "table"
    assert game["chance"] == {"waiting": True, "outcomes": 3, "unseen": 5}
    public = client.get("/api/tables/t1/outcomes").json()  # what is not listed tells a hand
    assert public == {"waiting": True, "unseen": 5, "total": 3, "outcomes": []}
    outcomes = client.get("/api/tables/t1/outcomes", headers=AUTH).json()
    assert outcomes == {"waiting": True, "unseen": 5, "total": 3, "outcomes": [
        {"action": {"type": "reveal", "card": "c1"}, "count": 2},
        {"action": {"type": "reveal", "card": "c2"}, "count": 2},
        {"action": {"type": "reveal", "card": "c3"}, "count": 1}]}


def test_a_hand_dealt_game_is_played_from_reveals(client: TestClient, dealt_table: str) -> None:
    for card in ("c3", "c1", "c2", "c1"):
        status, answer = _reveal(client, card)
        assert status == 201, answer
        assert [event["kind"] for event in answer["events"]] == ["observation", "action"]
        take = client.post("/api/tables/t1/observations", headers=AUTH, json={
            "observation": {"kind": "declared", "action": {"type": "take"}}})
        assert take.status_code == 201
    game = client.get("/api/tables/t1").json()["game"]
    assert game["over"] and game["winners"] == ["Ana"]
    assert [score["total"] for score in game["scores"]] == [5, 2]  # c3 + c2, c1 + c1


def test_a_reveal_that_is_no_legal_outcome_is_refused_and_changes_nothing(
        client: TestClient, dealt_table: str) -> None:
    assert _reveal(client, "c3")[0] == 201
    client.post("/api/tables/t1/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "take"}}})
    before = client.get("/api/tables/t1").json()["game"]
    status, answer = _reveal(client, "c3")  # the only c3 is already taken
    assert status == 422
    assert answer["detail"].startswith("illegal action: ")
    table = client.get("/api/tables/t1").json()
    assert table["flags"] == []  # the caller heard why: nothing to review at the table
    assert table["game"]["state"] == before["state"]
    assert table["game"]["actions"] == before["actions"]
    assert _reveal(client, "c9")[0] == 422  # not in this copy at all
    wrong_kind = client.post("/api/tables/t1/reveals", headers=AUTH,
                             json={"action": {"type": "take"}})
    assert wrong_kind.status_code == 422


def test_play_waits_for_the_draw(client: TestClient, dealt_table: str) -> None:
    answer = client.post("/api/tables/t1/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "take"}}})
    assert answer.status_code == 422 and "revealed first" in answer.json()["detail"]


def test_a_seeded_snapshot_never_shows_the_draw_order(client: TestClient,
                                                      draw_game: str) -> None:
    client.post("/api/tables", headers=AUTH, json={
        "name": "Seeded", "id": "s1", "game": {"game": draw_game, "players": ["Ana", "Ben"],
                                               "seed": 4}})
    snapshot = client.get("/api/tables/s1").json()
    assert snapshot["game"]["deal"] == "seed"
    assert "deck" not in json.dumps(snapshot["game"])
    assert snapshot["game"]["state"]["face_up"] is not None  # drawn from the seed at once
    assert "setup" not in json.dumps(snapshot["recent"])


def test_reveals_need_the_organisers_token(client: TestClient, dealt_table: str) -> None:
    answer = client.post("/api/tables/t1/reveals",
                         json={"action": {"type": "reveal", "card": "c1"}})
    assert answer.status_code == 401
