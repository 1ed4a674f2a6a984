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
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


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


def server_config(app: Any, **settings: Any) -> uvicorn.Config:
    """uvicorn's settings for the station's ``app`` (``settings``: host, port, log level...)."""
    return uvicorn.Config(app, http=NoDelayH11Protocol, ws="auto",
                          ws_per_message_deflate=False, lifespan="on", **settings)
