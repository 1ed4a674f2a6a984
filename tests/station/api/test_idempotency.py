"""``Idempotency-Key`` (docs/station.md "Retrying a write"): a write sent again with its key
gets the first answer back and stores nothing twice, even after the answer was lost and
the station restarted; the key with another request is refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from station.api import Services, build_services, create_app
from station.config import Settings
from station.store import FixedClock
from tests.station.api.conftest import AUTH

ADD_ONE = {"observation": {"kind": "declared", "action": {"type": "add", "n": 1}},
           "source": "button"}


def _keyed(key: str) -> dict[str, str]:
    return {**AUTH, "Idempotency-Key": key}


def _events(client: TestClient, table: str) -> list[dict[str, Any]]:
    return client.get(f"/api/tables/{table}/events", headers=AUTH).json()


def test_a_retried_observation_gets_the_first_answer_and_is_stored_once(
        client: TestClient, race_table: str) -> None:
    before = len(_events(client, race_table))
    first = client.post(f"/api/tables/{race_table}/observations", headers=_keyed("k-1"),
                        json=ADD_ONE)
    assert first.status_code == 201, first.text
    again = client.post(f"/api/tables/{race_table}/observations", headers=_keyed("k-1"),
                        json=ADD_ONE)
    assert (again.status_code, again.json()) == (201, first.json())
    assert len(_events(client, race_table)) == before + len(first.json()["events"])


def test_without_a_key_the_same_observation_twice_is_two_writes(client: TestClient,
                                                                race_table: str) -> None:
    before = len(_events(client, race_table))
    for _ in range(2):
        assert client.post(f"/api/tables/{race_table}/observations", headers=AUTH,
                           json=ADD_ONE).status_code == 201
    assert len(_events(client, race_table)) == before + 4  # each: the reading, its action


def test_an_answer_lost_with_a_restart_is_given_on_the_retry(
        services: Services, settings: Settings, race_table: str) -> None:
    """A request cut off after it was stored (the station killed before it answered): the
    receipt was kept in the same transaction, so the retry, at a restarted station, finds
    it, answers as the first would have, and the table holds the reading once."""
    with TestClient(create_app(services)) as client:
        before = len(_events(client, race_table))
        lost = client.post(f"/api/tables/{race_table}/observations", headers=_keyed("lost-1"),
                           json=ADD_ONE).json()  # the client never sees this answer
    restarted = build_services(settings, FixedClock())
    with TestClient(create_app(restarted)) as client:
        retry = client.post(f"/api/tables/{race_table}/observations",
                            headers=_keyed("lost-1"), json=ADD_ONE)
        assert (retry.status_code, retry.json()) == (201, lost)
        events = _events(client, race_table)
        assert len(events) == before + len(lost["events"])
        assert client.get(f"/api/tables/{race_table}").json()["seq"] == events[-1]["seq"]
    restarted.database.close()


def test_a_key_reused_for_another_request_is_refused(client: TestClient,
                                                     race_table: str) -> None:
    client.post(f"/api/tables/{race_table}/observations", headers=_keyed("k-2"), json=ADD_ONE)
    before = len(_events(client, race_table))
    other = {**ADD_ONE, "observation": {"kind": "declared", "action": {"type": "add", "n": 2}}}
    answer = client.post(f"/api/tables/{race_table}/observations", headers=_keyed("k-2"),
                         json=other)
    assert answer.status_code == 422
    assert answer.json() == {"detail": "Idempotency-Key 'k-2' was used for a different "
                                       "request; send a new key for a new write"}
    assert len(_events(client, race_table)) == before


def test_a_refused_write_leaves_no_receipt(client: TestClient, race_table: str) -> None:
    """Nothing was stored, so the same key is free for the request put right."""
    wrong = {"action": {"type": "add", "n": 99}}
    assert client.post(f"/api/tables/{race_table}/corrections", headers=_keyed("k-3"),
                       json=wrong).status_code == 422
    retried = client.post(f"/api/tables/{race_table}/corrections", headers=_keyed("k-3"),
                          json=wrong)
    assert retried.status_code == 422


def test_a_retried_correction_is_applied_once(client: TestClient, race_table: str) -> None:
    body = {"action": {"type": "add", "n": 1}}
    first = client.post(f"/api/tables/{race_table}/corrections", headers=_keyed("c-1"),
                        json=body)
    assert first.status_code == 201, first.text
    seq = client.get(f"/api/tables/{race_table}").json()["seq"]
    again = client.post(f"/api/tables/{race_table}/corrections", headers=_keyed("c-1"),
                        json=body)
    assert (again.status_code, again.json()) == (201, first.json())
    assert client.get(f"/api/tables/{race_table}").json()["seq"] == seq


def test_a_retried_reveal_is_applied_once(client: TestClient, draw_game: str) -> None:
    client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1",
        "game": {"game": draw_game, "players": ["Ana", "Ben"], "deal": "table"}})
    outcome = client.get("/api/tables/t1/outcomes", headers=AUTH).json()["outcomes"][0]
    body = {"action": outcome.get("action", outcome)}
    first = client.post("/api/tables/t1/reveals", headers=_keyed("r-1"), json=body)
    assert first.status_code == 201, first.text
    seq = client.get("/api/tables/t1").json()["seq"]
    again = client.post("/api/tables/t1/reveals", headers=_keyed("r-1"), json=body)
    assert (again.status_code, again.json()) == (201, first.json())
    assert client.get("/api/tables/t1").json()["seq"] == seq


def test_a_retried_result_does_not_undo_a_later_correction(client: TestClient) -> None:
    """Result A (its answer lost), then B; A's retry must not put A back as a correction."""
    client.post("/api/tournaments", headers=AUTH,
                json={"name": "Cup", "id": "cup", "players": ["Ana", "Ben"]})
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"]}).json()
    path = f"/api/tournaments/cup/games/{game['id']}/result"
    first = client.put(path, headers=_keyed("res-a"), json={"scores": {"Ana": 20, "Ben": 14}})
    assert first.status_code == 200, first.text
    assert client.put(path, headers=_keyed("res-b"),
                      json={"scores": {"Ana": 12, "Ben": 14}}).status_code == 200
    retry = client.put(path, headers=_keyed("res-a"), json={"scores": {"Ana": 20, "Ben": 14}})
    assert (retry.status_code, retry.json()) == (200, first.json())
    result = client.get("/api/tournaments/cup").json()["rounds"][0]["games"][0]["result"]
    assert result["winners"] == ["Ben"] and len(result["corrections"]) == 1


@pytest.mark.parametrize("key", ["has space", "", "x" * 201, "tab\there"])
def test_a_malformed_key_is_refused_naming_the_header(client: TestClient, race_table: str,
                                                      key: str) -> None:
    answer = client.post(f"/api/tables/{race_table}/observations",
                         headers={**AUTH, "Idempotency-Key": key}, json=ADD_ONE)
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["place"] == "header.Idempotency-Key"
