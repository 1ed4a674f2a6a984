"""WebSocket live updates, and the pages that use them."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from station.api import Services
from tests.station.api.conftest import AUTH, declare, device_reads


def test_a_socket_gets_the_current_snapshot_then_each_update(client: TestClient,
                                                              race_table: str,
                                                              services: Services) -> None:
    declare(client, race_table, 2)
    with client.websocket_connect("/ws/tables/t1") as socket:
        first = socket.receive_json()
        assert first["type"] == "snapshot" and first["seq"] == 3
        assert [s["total"] for s in first["snapshot"]["game"]["scores"]] == [2, 0]
        declare(client, race_table, 1)
        update = socket.receive_json()
        assert update["seq"] == 5 and update["stored_at"] >= first["stored_at"] - 1
        assert [s["total"] for s in update["snapshot"]["game"]["scores"]] == [2, 1]
        device_reads(services, race_table, 7)
        flagged = socket.receive_json()["snapshot"]
        assert flagged["flags"][0]["reason"] == "you may add 1 or 2"


def test_a_socket_for_an_unknown_table_is_closed(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/tables/nope"):
        pass
    assert closed.value.code == 4404 and "no table 'nope'" in closed.value.reason


def test_a_tournament_socket_says_when_to_fetch_again(client: TestClient) -> None:
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["A", "B"]})
    with client.websocket_connect("/ws/tournaments/cup") as socket:
        assert socket.receive_json() == {"type": "changed"}
        client.post("/api/tournaments/cup/players", headers=AUTH, json={"name": "C"})
        assert socket.receive_json() == {"type": "changed"}


def test_the_live_page_shows_the_current_state_at_once(client: TestClient, race_table: str,
                                                       services: Services) -> None:
    declare(client, race_table, 2)
    device_reads(services, race_table, 3)
    page = client.get("/tables/t1")
    assert page.status_code == 200
    html = page.text
    assert '<td class="total" data-player="Ana">2</td>' in html
    assert "you may add 1 or 2" in html
    embedded = html.split('<script id="snapshot" type="application/json">')[1].split("</script>")[0]
    assert json.loads(embedded)["seq"] == 5
    projector = client.get("/tables/t1/projector").text
    assert 'class="projector"' in projector and 'data-player="Ben">0<' in projector
    index = client.get("/").text
    assert "/tables/t1" in index and "Ana 2" in index
    assert client.get("/static/live.js").status_code == 200


def test_the_table_list_socket_says_when_a_table_is_added_or_moves(client: TestClient,
                                                                   race_table: str) -> None:
    with client.websocket_connect("/ws/tables") as socket:
        assert socket.receive_json() == {"type": "tables"}
        declare(client, race_table, 2)
        assert socket.receive_json() == {"type": "table", "id": "t1", "seq": 3}
        client.post("/api/tables", headers=AUTH, json={"name": "Table 2"}).raise_for_status()
        assert socket.receive_json() == {"type": "tables"}


def test_the_front_pages_cards_say_each_tables_state_in_words(client: TestClient,
                                                              race_table: str,
                                                              services: Services) -> None:
    declare(client, race_table, 2)
    cards = client.get("/table-cards").text
    assert 'data-table="t1"' in cards and "Ana 2 · Ben 0" in cards
    assert "Ben to play" in cards and "playing" in cards
    device_reads(services, race_table, 7)  # refused: a flag
    assert "1 flag open: under review" in client.get("/table-cards").text
    front = client.get("/").text  # the page is served with the same cards
    assert '<div id="table-cards">' in front and "1 flag open: under review" in front
    assert "/static/index.js" in front and client.get("/static/index.js").status_code == 200
