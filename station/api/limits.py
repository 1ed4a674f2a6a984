"""Bounds at the edge: how large a request body, how deep and large a JSON document inside
it, and which game options the station takes (docs/station.md "Limits").

What passes these bounds can be stored, replayed and served back: a refused request stores
nothing, and an answer is 413 (the body) or 422 naming the place (``$.options.rows: ...``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic_core import PydanticCustomError

from rules import UnknownGame, get_game
from station.jsonin import nesting_depth

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body taken (a catalogue file is the largest thing sent: tens of kB).
MAX_BODY_BYTES = 1024 * 1024
#: How deep a document sent inside a request (an observation, an action) may nest: a
#: camera's observation nests 4 levels; the JSON encoders of the answers stop near 255.
MAX_DEPTH = 32
#: How large such a document may be, as compact JSON (every snapshot carries recent ones).
MAX_DOCUMENT_BYTES = 64 * 1024


class BodyLimit:
    """Refuse (413) a request body larger than :data:`MAX_BODY_BYTES` before the app sees
    any of it: by its ``Content-Length``, or, sent in chunks, once it grows past the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(send, int(declared))
            return
        body, more = await self._read(receive)
        if more:
            await self._refuse(send, None)
            return
        await self.app(scope, _replaying(body, receive), send)

    async def _read(self, receive: Receive) -> tuple[list[Message], bool]:
        """The body's messages up to the limit; True when there was more than that."""
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages, False  # the client went away: the app hears it
            size += len(message.get("body", b""))
            if size > self.limit:
                return messages, True
            if not message.get("more_body", False):
                return messages, False

    async def _refuse(self, send: Send, size: int | None) -> None:
        sent = f"{size} bytes" if size is not None else "more than that"
        detail = (f"the request body is too large: at most {self.limit} bytes "
                  f"({self.limit // 1024} KiB) are taken, this one is {sent}")
        payload = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that hands out the body already read, then listens as before."""
    waiting = list(messages)

    async def replay() -> Message:
        return waiting.pop(0) if waiting else await receive()

    return replay


def bounded_document(value: Any) -> Any:
    """``value`` if it nests at most :data:`MAX_DEPTH` levels and takes at most
    :data:`MAX_DOCUMENT_BYTES` as JSON; else a validation error for its place."""
    if nesting_depth(value, MAX_DEPTH) > MAX_DEPTH:
        raise PydanticCustomError("too_deep", "nests deeper than {limit} levels",
                                  {"limit": MAX_DEPTH})
    size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_DOCUMENT_BYTES:
        raise PydanticCustomError(
            "too_large", "is {size} bytes as JSON; at most {limit} are taken",
            {"size": size, "limit": MAX_DOCUMENT_BYTES})
    return value


def check_options(game: str, options: dict[str, Any] | None,
                  place: tuple[str, ...]) -> None:
    """Refuse (422, each option's place: ``$.options.warehouse_rows``) options ``game``
    has not, or out of their documented bounds. An unknown game is left to the route (404)."""
    if not options:
        return
    try:
        engine = get_game(game)
    except UnknownGame:
        return
    problems = [{"loc": (*place, key), "type": "value_error", "input": value, "msg": problem}
                for key, value in options.items()
                if (problem := engine.option_problem(key, value)) is not None]
    if problems:
        raise RequestValidationError(problems)
