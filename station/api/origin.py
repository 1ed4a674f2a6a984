"""The live sockets open only to the station's own pages (no cross-site WebSocket hijacking).

A browser lets any page open a WebSocket to any address, and browsers send no CORS check
for it: a page on another site, open on a phone in the room, could follow every table
through the station's sockets. Each socket request a browser makes names its page's site
in ``Origin``, so a socket is accepted only when:

- it has no ``Origin`` (not a browser: scripts, tests, the kiosk's DevTools), or
- its ``Origin`` is the station itself: the same host and port as the request's ``Host``
  (compared without the scheme, in lower case, a default port — 80, 443 — dropped), or
- its ``Origin`` is in the station's allow list (``allowed_origins`` in ``station.toml``,
  ``serve --allow-origin``: a page served elsewhere, a proxy that changes ``Host``).

Anything else is closed before it is accepted, with code 1008 (policy violation) and a
reason naming the refused origin.

Example::

    >>> origin_key("HTTP://Pi.local:80"), host_key("pi.local", "ws")
    ('pi.local', 'pi.local')
    >>> same_site("http://evil.example", "pi.local:8000", "ws", ())
    False
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketException, status

from station.api.deps import WsServicesDep

DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}
REASON_CHARACTERS = 80  # a close reason is at most 123 bytes


def _key(hostname: str, port: int | None, scheme: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    host = hostname.lower()
    host = f"[{host}]" if ":" in host else host  # an IPv6 address, as written in a URL
    return host if port in (None, DEFAULT_PORTS.get(scheme)) else f"{host}:{port}"


def origin_key(origin: str) -> str | None:
    """An ``Origin`` (``scheme://host[:port]``) as ``host[:port]``; None when it is not one
    (``null``, a path, an unknown scheme)."""
    parts = urlsplit(origin.strip())
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        return None
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") \
            or parts.query or parts.fragment or parts.username is not None:
        return None
    return _key(parts.hostname, port, scheme)


def host_key(host: str | None, scheme: str) -> str | None:
    """A ``Host`` header as ``host[:port]`` (``scheme``: the request's, for its default port)."""
    if not host:
        return None
    parts = urlsplit(f"//{host.strip()}")
    try:
        port = parts.port
    except ValueError:
        return None
    return _key(parts.hostname, port, scheme.lower()) if parts.hostname else None


def canonical_origin(origin: str) -> str | None:
    """``scheme://host[:port]`` as the allow list compares it (None: not an origin)."""
    key = origin_key(origin)
    return f"{urlsplit(origin.strip()).scheme.lower()}://{key}" if key else None


def same_site(origin: str, host: str | None, scheme: str, allowed: Iterable[str]) -> bool:
    """Whether a socket from a page of ``origin`` may open (the station's, or allowed)."""
    key = origin_key(origin)
    if key is None:
        return False
    if key == host_key(host, scheme):
        return True
    return canonical_origin(origin) in {canonical_origin(each) for each in allowed}


async def refuse_other_sites(websocket: WebSocket, services: WsServicesDep) -> None:
    """A socket's dependency: close it (1008) before it is accepted when a page of another
    site opened it (see the module)."""
    origin = websocket.headers.get("origin")
    if origin is None or same_site(origin, websocket.headers.get("host"), websocket.url.scheme,
                                   services.settings.allowed_origins):
        return
    raise WebSocketException(status.WS_1008_POLICY_VIOLATION,
                             f"origin {origin[:REASON_CHARACTERS]!r} is not this station's")
