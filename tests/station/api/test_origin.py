"""The live sockets refuse a page of another site (cross-site WebSocket hijacking)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from station.api import Services, create_app
from station.api.origin import host_key, origin_key, same_site
from station.appliance.station_file import apply_station_file
from station.cli import build_parser
from station.cli.serve import _allowed_origins
from tests.station.api.conftest import AUTH, LiveStation

SOCKETS = ["/ws/tables", "/ws/tables/t1", "/ws/tournaments/cup"]


@pytest.fixture
def held(client: TestClient, race_table: str) -> TestClient:
    """A station holding a table (t1) and a tournament (cup): every socket can open."""
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["A", "B"]})
    return client


def refusal(client: TestClient, path: str, origin: str) -> WebSocketDisconnect:
    with pytest.raises(WebSocketDisconnect) as closed, \
            client.websocket_connect(path, headers={"origin": origin}):
        pass
    return closed.value


@pytest.mark.parametrize("path", SOCKETS)
def test_a_page_of_another_site_is_refused_before_the_socket_opens(held: TestClient,
                                                                  path: str) -> None:
    closed = refusal(held, path, "http://evil.example")
    assert closed.code == 1008
    assert closed.reason == "origin 'http://evil.example' is not this station's"


@pytest.mark.parametrize("path", SOCKETS)
@pytest.mark.parametrize("headers", [{}, {"origin": "http://testserver"},
                                     {"origin": "HTTP://TestServer:80"}])
def test_the_stations_own_pages_and_other_clients_are_accepted(held: TestClient, path: str,
                                                               headers: dict) -> None:
    with held.websocket_connect(path, headers=headers) as socket:
        assert socket.receive_json()["type"] in ("tables", "snapshot", "changed")


@pytest.mark.parametrize("origin", ["null", "http://testserver:8000", "https://testserver.evil",
                                    "http://evil.example/testserver", "file://", "testserver"])
def test_what_only_looks_like_the_station_is_refused(held: TestClient, origin: str) -> None:
    assert refusal(held, "/ws/tables", origin).code == 1008


@pytest.fixture
def allowing(services: Services) -> Iterator[TestClient]:
    """The station with ``https://screens.example`` in its allow list."""
    services.settings = dataclasses.replace(services.settings,
                                            allowed_origins=("https://Screens.example:443",))
    with TestClient(create_app(services)) as test_client:
        yield test_client


def test_an_allowed_site_may_open_the_sockets(allowing: TestClient) -> None:
    with allowing.websocket_connect("/ws/tables",
                                    headers={"origin": "https://screens.example"}) as socket:
        assert socket.receive_json() == {"type": "tables"}
    assert refusal(allowing, "/ws/tables", "http://screens.example").code == 1008  # not https


def test_over_real_http_a_refused_handshake_is_403(live_station: LiveStation) -> None:
    url = live_station.url.replace("http://", "ws://") + "/ws/tables"
    with connect(url, origin=live_station.url) as socket:  # the station's own page
        assert socket.recv(timeout=10) == '{"type": "tables"}'
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=10)
    assert refused.value.response.status_code == 403


def test_hosts_and_origins_compare_without_scheme_case_or_default_port() -> None:
    assert origin_key("https://PI.local:443") == host_key("pi.local", "wss") == "pi.local"
    assert origin_key("https://pi.local") == host_key("pi.local", "ws")  # a TLS proxy before it
    assert origin_key("http://[::1]:8000") == host_key("[::1]:8000", "ws") == "[::1]:8000"
    assert origin_key("http://pi:99999") is None and host_key("pi:x", "ws") is None
    assert same_site("http://10.0.0.5:8000", "10.0.0.5:8000", "ws", ())
    assert not same_site("http://10.0.0.5:8001", "10.0.0.5:8000", "ws", ())
    assert not same_site("http://10.0.0.5:8000", None, "ws", ())  # no Host: nothing to match


def test_the_allow_list_comes_from_the_station_file_and_the_command_line(cli, tmp_path) -> None:
    (tmp_path / "station.toml").write_text('allowed_origins = ["https://screens.example"]\n')
    arguments = build_parser().parse_args(["serve", "--allow-origin", "http://pi.local:8080"])
    apply_station_file(arguments, tmp_path, "station.toml")
    assert _allowed_origins(arguments) == ("https://screens.example", "http://pi.local:8080")
    bad = cli("serve", "--allow-origin", "screens.example", "--port", "0", "--data", tmp_path)
    bad.assert_bad_input("--allow-origin (or allowed_origins): 'screens.example' is not an origin")
    (tmp_path / "station.toml").write_text('allowed_origins = "https://screens.example"\n')
    wrong = cli("serve", "--port", "0", "--data", tmp_path)
    wrong.assert_bad_input(f"{tmp_path / 'station.toml'}: $.allowed_origins: must be")
