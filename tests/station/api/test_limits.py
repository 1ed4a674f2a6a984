"""Bounds at the edge (docs/station.md "Limits"): a body too large is 413, a document nested
too deep or too large and a game option out of its bounds are 422 naming the place; none
of them stores anything, and an event stored before the bounds existed never makes its
table unreadable."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from station.api import Services, build_services, create_app
from station.api.limits import MAX_BODY_BYTES, MAX_DEPTH
from station.config import Settings
from station.jsonin import TOO_DEEP
from station.store import FixedClock
from tests.station.api.conftest import AUTH


def _nested(levels: int) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    for _ in range(levels - 1):
        inner = {"a": inner}
    return inner


def _declared(extra: Any) -> dict[str, Any]:
    return {"observation": {"kind": "declared", "action": {"type": "add", "n": 1},
                            "note": extra}, "source": "button"}


def _seq(client: TestClient, table: str) -> int:
    return client.get(f"/api/tables/{table}").json()["seq"]


def test_a_body_larger_than_the_limit_is_413_and_stores_nothing(client: TestClient,
                                                                race_table: str) -> None:
    before = _seq(client, race_table)
    body = _declared("x" * (MAX_BODY_BYTES + 1))
    answer = client.post(f"/api/tables/{race_table}/observations", headers=AUTH, json=body)
    assert answer.status_code == 413
    assert answer.json()["detail"].startswith("the request body is too large: at most 1048576")
    assert _seq(client, race_table) == before


def test_a_body_sent_in_chunks_is_cut_off_at_the_limit(client: TestClient,
                                                       race_table: str) -> None:
    chunk = b" " * 65536

    def chunks() -> Any:  # no Content-Length: the body only shows its size as it comes
        for _ in range(MAX_BODY_BYTES // len(chunk) + 2):
            yield chunk

    answer = client.post(f"/api/tables/{race_table}/observations",
                         headers={**AUTH, "Content-Type": "application/json"}, content=chunks())
    assert answer.status_code == 413
    assert answer.json()["detail"].endswith("this one is more than that")


@pytest.mark.parametrize("levels", [MAX_DEPTH, 300, 500])
def test_an_observation_nested_too_deep_is_refused_and_the_table_stays_readable(
        client: TestClient, race_table: str, levels: int) -> None:
    before = _seq(client, race_table)
    answer = client.post(f"/api/tables/{race_table}/observations", headers=AUTH,
                         json=_declared(_nested(levels)))
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == f"$.observation: nests deeper than {MAX_DEPTH} levels"
    assert _seq(client, race_table) == before
    assert client.get(f"/api/tables/{race_table}").status_code == 200
    assert client.get(f"/api/tables/{race_table}/events", headers=AUTH).status_code == 200


def test_an_observation_within_the_depth_is_taken(client: TestClient, race_table: str) -> None:
    answer = client.post(f"/api/tables/{race_table}/observations", headers=AUTH,
                         json=_declared(_nested(MAX_DEPTH - 2)))  # the observation: 1 level
    assert answer.status_code == 201, answer.text


def test_an_observation_too_large_is_refused(client: TestClient, race_table: str) -> None:
    answer = client.post(f"/api/tables/{race_table}/observations", headers=AUTH,
                         json=_declared("x" * 100_000))
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("$.observation: is 100")
    assert answer.json()["detail"].endswith("bytes as JSON; at most 65536 are taken")


@pytest.mark.parametrize("route", ["reveals", "corrections"])
def test_an_action_nested_too_deep_is_refused(client: TestClient, race_table: str,
                                              route: str) -> None:
    answer = client.post(f"/api/tables/{race_table}/{route}", headers=AUTH,
                         json={"action": {"type": "add", "n": 1, "why": _nested(400)}})
    assert answer.status_code == 422
    assert answer.json()["detail"] == f"$.action: nests deeper than {MAX_DEPTH} levels"


def test_an_event_stored_deep_before_the_bounds_leaves_its_table_readable(
        services: Services, settings: Settings, race_table: str) -> None:
    """What an older station stored (an observation 400 deep) is served clipped, before and
    after a restart: the table page and its record answer 200, every other value intact."""
    services.store.append(race_table, [("observation", {
        "observation": {"kind": "declared", "note": _nested(400)}, "source": "old"})], "old")
    for station in (services, build_services(settings, FixedClock())):
        with TestClient(create_app(station)) as client:
            table = client.get(f"/api/tables/{race_table}")
            assert table.status_code == 200, table.text
            record = client.get(f"/api/tables/{race_table}/events", headers=AUTH)
            assert record.status_code == 200, record.text
            stored = record.json()[-1]
            assert stored["source"] == "old"
            assert TOO_DEEP in str(stored["observation"]["note"])
            assert client.get(f"/api/tables/{race_table}/events").status_code == 200


WAREHOUSE = {"game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 1}


@pytest.mark.parametrize(("options", "place", "message"), [
    ({"warehouse_rows": 100_000, "warehouse_cols": 100_000}, "warehouse_rows",
     "must be a whole number 1..20"),
    ({"warehouse_cols": 300}, "warehouse_cols", "must be a whole number 1..20"),
    ({"warehouse_rows": 0}, "warehouse_rows", "must be a whole number 1..20"),
    ({"warehouse_rows": True}, "warehouse_rows", "must be a whole number 1..20"),
    ({"rotation": "yes"}, "rotation", "must be true or false"),
    ({"placement": "everywhere"}, "placement", "must be one of touch, anywhere"),
    ({"rows": 9}, "rows", "small-warehouse has no option 'rows' (its options: placement, "
     "rotation, warehouse_cols, warehouse_rows)"),
])
def test_game_options_out_of_bounds_are_422_with_their_place(
        client: TestClient, options: dict[str, Any], place: str, message: str) -> None:
    created = client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1", "game": {**WAREHOUSE, "options": options}})
    assert created.status_code == 422, created.text
    assert created.json()["detail"] == f"$.game.options.{place}: {message}"
    assert client.get("/api/tables").json() == []  # nothing made
    client.post("/api/tables", headers=AUTH, json={"name": "Table 1", "id": "t1"})
    started = client.post("/api/tables/t1/games", headers=AUTH,
                          json={**WAREHOUSE, "options": options})
    assert started.status_code == 422
    assert started.json()["detail"] == f"$.options.{place}: {message}"
    assert client.get("/api/tables/t1").json()["game"] is None


@pytest.mark.parametrize(("game", "options", "place", "message"), [
    ("moving-day", {"rounds": 1000}, "rounds", "must be a whole number 1..30"),
    ("moving-day", {"helper_discard": "never"}, "helper_discard", "must be one of"),
    ("pick-n-packers", {"starting_player": 99}, "starting_player", "must be a whole number"),
    ("pick-n-packers", {"load_before_lift": 1}, "load_before_lift", "must be true or false"),
    ("removal", {"keepsakes": "no"}, "keepsakes", "must be true or false"),
])
def test_every_games_options_are_bounded(client: TestClient, game: str,
                                         options: dict[str, Any], place: str,
                                         message: str) -> None:
    answer = client.post("/api/tables", headers=AUTH, json={
        "name": "T", "game": {"game": game, "players": ["Ana", "Ben"], "options": options}})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith(f"$.game.options.{place}: {message}")


def test_the_largest_warehouse_is_taken(client: TestClient) -> None:
    answer = client.post("/api/tables", headers=AUTH, json={"name": "T", "game": {
        **WAREHOUSE, "options": {"warehouse_rows": 20, "warehouse_cols": 20}}})
    assert answer.status_code == 201, answer.text


def test_a_tournament_games_options_are_bounded(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "t1", "id": "t1"})
    client.post("/api/tournaments", headers=AUTH,
                json={"name": "Cup", "id": "cup", "players": ["Ana", "Ben"]})
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"], "table": "t1"}).json()
    answer = client.post(f"/api/tournaments/cup/games/{game['id']}/start", headers=AUTH, json={
        "game": "small-warehouse", "options": {"warehouse_rows": 100_000}})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"] == "$.options.warehouse_rows: must be a whole number 1..20"


@pytest.mark.parametrize(("body", "place"), [
    ({"name": "x" * 201}, "$.name"),
    ({"name": ""}, "$.name"),
    ({"name": "T", "game": {"game": "removal", "players": ["A" * 201, "B"]}},
     "$.game.players[0]"),
])
def test_names_have_bounds(client: TestClient, body: dict[str, Any], place: str) -> None:
    answer = client.post("/api/tables", headers=AUTH, json=body)
    assert answer.status_code == 422 and answer.json()["errors"][0]["place"] == place
