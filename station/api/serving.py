"""How the station is served: uvicorn's settings for many watchers of live tables.

- ``TCP_NODELAY`` on every accepted connection: a small answer goes out at once, not
  after the client's delayed acknowledgement (40 ms a request on a keep-alive connection
  when the Nagle algorithm holds it). asyncio sets it on Linux already; it is set here
  explicitly so no event loop or platform leaves it off.
- No per-message compression of WebSocket messages: each update is encoded once
  (:meth:`station.live.station.Station.broadcast`) and that one text is what every
  watcher is sent. With ``permessage-deflate`` every connection compressed every snapshot
  again, on its own (about a sixth of the server's time with 100 watchers); on a venue's
  network a snapshot of a few tens of kB needs no compression.
- HTTP parsed by ``httptools`` (C) and the event loop ``uvloop`` where they are installed
  (both are dependencies; uvicorn's pure-Python ``h11`` and asyncio's own loop otherwise):
  with many tables posting readings, parsing and the loop took about a third of the
  server's time per request (benchmarks/station_ws.py ``--load``).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # httptools missing: the pure-Python parser serves, slower
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


def no_delay(transport: asyncio.BaseTransport) -> None:
    """Switch the Nagle algorithm off on ``transport``'s TCP socket (others are left)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class NoDelayH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, its connection's socket set ``TCP_NODELAY``."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        no_delay(transport)
        super().connection_made(transport)


if HttpToolsProtocol is not None:
    class NoDelayHttpToolsProtocol(HttpToolsProtocol):
        """uvicorn's ``httptools`` protocol, its connection's socket set ``TCP_NODELAY``."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            no_delay(transport)
            super().connection_made(transport)

    HTTP_PROTOCOL: type = NoDelayHttpToolsProtocol
else:
    HTTP_PROTOCOL = NoDelayH11Protocol


def server_config(app: Any, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the station's ``app`` (``settings``: host, port, log level...);
    ``loop="auto"``: uvloop where it is installed."""
    return uvicorn.Config(app, http=HTTP_PROTOCOL, ws="auto", loop="auto",
                          ws_per_message_deflate=False, lifespan="on", **settings)
