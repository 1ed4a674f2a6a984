"""How the station is served (station/api/serving.py), on real loopback sockets:
``TCP_NODELAY`` on each accepted connection, and WebSocket updates sent as the one
encoding every watcher shares (no per-connection compression)."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
import websockets

from station.api import Services, create_app
from station.api.serving import server_config
from tests.station.api.conftest import AUTH


@pytest.fixture
def served(services: Services) -> Iterator[tuple[uvicorn.Server, int]]:
    """The app behind the server ``packref serve`` runs, on a free loopback port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(server_config(create_app(services), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield server, port
    server.should_exit = True
    thread.join(timeout=30)
    listener.close()


def test_accepted_connections_have_tcp_nodelay(served: tuple[uvicorn.Server, int]) -> None:
    server, port = served
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", "/api/games")
    assert connection.getresponse().read()
    sockets = [protocol.transport.get_extra_info("socket")
               for protocol in server.server_state.connections]
    assert sockets, "no accepted connection seen"
    assert all(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for sock in sockets)
    connection.close()


def test_updates_go_uncompressed_the_same_text_to_every_watcher(
        served: tuple[uvicorn.Server, int], toy_game: str) -> None:
    """The client offers permessage-deflate (as browsers do); the station declines, so the
    update encoded once is what each connection sends."""
    _server, port = served
    race_table = "t1"
    _send(port, "POST", "/api/tables", {"name": "Table 1", "id": race_table, "game": {
        "game": toy_game, "players": ["Ana", "Ben"], "seed": 0}})

    async def watch() -> list[tuple[str | None, str]]:
        url = f"ws://127.0.0.1:{port}/ws/tables/{race_table}"
        async with websockets.connect(url, compression="deflate") as first, \
                websockets.connect(url, compression="deflate") as second:
            await first.recv()
            await second.recv()
            await asyncio.to_thread(_declare, port, race_table)
            seen = []
            for watcher in (first, second):
                message = await asyncio.wait_for(watcher.recv(), 10)
                extensions = watcher.response.headers.get("Sec-WebSocket-Extensions")
                seen.append((extensions, message))
            return seen

    (ext_a, text_a), (ext_b, text_b) = asyncio.run(watch())
    assert ext_a is None and ext_b is None
    assert text_a == text_b and json.loads(text_a)["type"] == "snapshot"


def _declare(port: int, table: str) -> None:
    _send(port, "POST", f"/api/tables/{table}/observations", {
        "observation": {"kind": "declared", "action": {"type": "add", "n": 1}},
        "source": "button"})


def _send(port: int, method: str, path: str, body: dict) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request(method, path, body=json.dumps(body),
                       headers={**AUTH, "Content-Type": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 201, answer.read()
    connection.close()
