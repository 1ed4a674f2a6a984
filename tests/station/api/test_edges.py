"""Input is bounded at the edge: what the database could not hold is refused 422 naming the
place, and a refusal from the database itself is a 4xx, never a server error."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import DataError, IntegrityError

from station.api import Services, create_app
from tests.station.api.conftest import AUTH

HUGE = "96889974515226865215471616"


@pytest.fixture
def cup(client: TestClient) -> str:
    answer = client.post("/api/tournaments", headers=AUTH,
                         json={"name": "Cup", "id": "cup", "players": ["Ana", "Ben"]})
    assert answer.status_code == 201, answer.text
    return "cup"


@pytest.mark.parametrize(("method", "path", "place"), [
    ("put", f"/api/tournaments/cup/games/{HUGE}/result", "path.match_id"),
    ("post", f"/api/tournaments/cup/games/{2**31}/confirm", "path.match_id"),
    ("post", f"/api/tournaments/cup/games/{HUGE}/start", "path.match_id"),
    ("post", f"/api/tables/t1/flags/{HUGE}/accept", "path.flag"),
    ("get", f"/api/tables/t1/events?after={2**63}", "query.after"),
    ("get", "/api/tables/T%201", "path.table_id"),
    ("get", "/api/tournaments/%C2%84", "path.tournament_id"),
    ("get", "/api/tournaments/at-table/a%00b", "path.table_id"),
    ("post", "/api/tournaments/cup/players/A%00/drop", "path.name"),
])
def test_out_of_range_and_odd_ids_are_refused_at_the_edge(
        client: TestClient, cup: str, method: str, path: str, place: str) -> None:
    body = {"scores": {"Ana": 1}} if path.endswith("result") else \
        {"player": "Ana", "agree": True, "code": "ABCD-EFGH"} if path.endswith("confirm") else \
        {"game": "removal"} if path.endswith("start") else None
    answer = client.request(method, path, headers=AUTH, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["place"] == place


def test_the_largest_id_the_database_holds_is_simply_unknown(client: TestClient,
                                                             cup: str) -> None:
    answer = client.put(f"/api/tournaments/cup/games/{2**31 - 1}/result", headers=AUTH,
                        json={"scores": {"Ana": 1}})
    assert answer.status_code == 404
    assert answer.json() == {"detail": f"tournament 'cup' has no game {2**31 - 1}"}


@pytest.mark.parametrize(("path", "body", "place"), [
    ("/api/tables", {"name": "a\x00b"}, "$.name"),
    ("/api/tournaments/cup/players", {"name": "Z\x00"}, "$.name"),
    ("/api/tournaments/cup/forbidden", {"players": ["Ana", "B\x00"]}, "$.players[1]"),
])
def test_names_hold_no_nul_character(client: TestClient, cup: str, path: str, body: dict,
                                     place: str) -> None:
    answer = client.post(path, headers=AUTH, json=body)
    assert answer.status_code == 422 and answer.json()["errors"][0]["place"] == place


@pytest.mark.parametrize(("error", "status", "detail"), [
    (DataError("INSERT", {}, Exception("value too long")), 422,
     "a value does not fit the database"),
    (IntegrityError("INSERT", {}, Exception("duplicate key")), 409,
     "the database refused the write: it conflicts with what is stored"),
    (OverflowError("Python int too large to convert to SQLite INTEGER"), 422,
     "a number is too large"),
])
def test_a_refusal_of_the_database_is_a_clear_4xx(services: Services, error: Exception,
                                                  status: int, detail: str) -> None:
    app = create_app(services)

    @app.get("/raise")
    def failing() -> None:
        raise error

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/raise")
    assert answer.status_code == status and answer.json() == {"detail": detail}


def test_a_route_that_declares_no_422_is_described_with_the_stations_shape(
        services: Services) -> None:
    app = create_app(services)

    @app.get("/extra")
    def extra(n: int) -> int:
        return n

    with TestClient(app) as client:
        described = client.get("/openapi.json").json()
        refused = client.get("/extra?n=x")
    schema = described["paths"]["/extra"]["get"]["responses"]["422"]["content"]
    assert schema == {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}
    assert "HTTPValidationError" not in str(described)
    assert refused.status_code == 422 and refused.json()["errors"][0]["place"] == "query.n"
