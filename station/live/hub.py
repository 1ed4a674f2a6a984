"""Broadcasting updates to WebSocket clients, from any thread; and, on a PostgreSQL
hub, relaying the other stations' writes to them (:class:`HubRelay`).

Each client has a small queue (a :class:`Mailbox`); a client too slow to keep up loses
its oldest updates, never the newest. An update published as the ``latest`` of its kind
(a table's snapshot: each is whole, so the newest one is all a page needs) replaces the
one of that kind still waiting, so a slow client is sent the newest at once, not a
backlog first; each client is sent to by its own task, so a slow one holds up no other.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, Protocol

from station.store.notify import ChangeFeed

QUEUE_SIZE = 8


class Mailbox(asyncio.Queue[str]):
    """A client's queue of messages, where a message of a kind can stand in for the one
    of that kind still waiting (the queue's own hooks, ``_init``/``_put``/``_get``, keep
    each message's kind beside it)."""

    def _init(self, maxsize: int) -> None:
        self._queue: deque[tuple[str | None, str]] = deque()

    def _put(self, item: tuple[str | None, str]) -> None:  # type: ignore[override]
        self._queue.append(item)

    def _get(self) -> str:
        return self._queue.popleft()[1]

    def put_message(self, message: str, latest: str | None = None) -> None:
        """Queue ``message``: in place of a waiting one of kind ``latest`` if given; the
        oldest waiting message is dropped when the queue is full."""
        if latest is not None:
            kept = deque(item for item in self._queue if item[0] != latest)
            if len(kept) != len(self._queue):
                self._queue = kept
        if self.full():
            self.get_nowait()
        self.put_nowait((latest, message))  # type: ignore[arg-type]


class Hub:
    """Channels (``"table:t1"``, ``"tournament:spring"``...) and their subscribed queues."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Mailbox]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self._watchers: list[tuple[str, Callable[[str, str], None]]] = []

    def __repr__(self) -> str:
        return f"<Hub {sum(len(queues) for queues in self._subscribers.values())} subscribers>"

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver on ``loop`` (the server's event loop)."""
        self._loop = loop

    def subscribe(self, channel: str) -> Mailbox:
        queue = Mailbox(maxsize=QUEUE_SIZE)
        with self._lock:
            self._subscribers[channel].add(queue)
        return queue

    def unsubscribe(self, channel: str, queue: asyncio.Queue[str]) -> None:
        with self._lock:
            self._subscribers[channel].discard(queue)

    def channels(self, prefix: str = "") -> list[str]:
        """The channels with subscribers, those starting with ``prefix``."""
        with self._lock:
            return [name for name, queues in self._subscribers.items()
                    if queues and name.startswith(prefix)]

    def watch(self, prefix: str, watcher: Callable[[str, str], None]) -> None:
        """Also hand every message of the channels starting with ``prefix`` to ``watcher``
        (called in the publishing thread: it must return at once)."""
        with self._lock:
            self._watchers.append((prefix, watcher))

    def publish(self, channel: str, message: str, latest: str | None = None) -> None:
        """Send ``message`` to every subscriber of ``channel``; callable from any thread.
        ``latest``: its kind, when it makes a waiting message of that kind stale (a
        table's ``"snapshot"``): that one is dropped for it."""
        for prefix, watcher in list(self._watchers):
            if channel.startswith(prefix):
                watcher(channel, message)
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(channel, message, latest)
        else:
            loop.call_soon_threadsafe(self._deliver, channel, message, latest)

    def _deliver(self, channel: str, message: str, latest: str | None = None) -> None:
        with self._lock:
            queues = list(self._subscribers.get(channel, ()))
        for queue in queues:
            queue.put_message(message, latest)


class RelayedStation(Protocol):
    """What the relay needs of :class:`~station.live.station.Station`."""

    store: Any

    def table(self, table_id: str) -> Any: ...
    def table_ids(self) -> list[str]: ...
    def refresh(self, table_id: str) -> Any: ...
    def broadcast(self, live: Any) -> None: ...
    def forget(self, table_id: str) -> None: ...


class HubRelay:
    """One live hub for many stations (PostgreSQL): brings every other station's writes
    to this station's pages and WebSockets, and this station's spooled events to the hub.

    Each announced event (see :mod:`station.store.notify`) is read from the database
    into the table's live view, whose snapshot is then broadcast as if written here; a
    tournament change is passed on to its pages. When the hub comes back after an
    outage, the events stored locally meanwhile are sent first, then every table is
    caught up and every page told.
    """

    def __init__(self, station: RelayedStation, hub: Hub) -> None:
        self.station = station
        self.hub = hub
        self.feed = ChangeFeed(station.store.database, self._on_message, self._on_connect)

    def __repr__(self) -> str:
        return f"<HubRelay {self.feed!r}>"

    def start(self) -> HubRelay:
        self.feed.start()
        return self

    def stop(self) -> None:
        self.feed.stop()

    def _on_connect(self) -> None:
        for table_id in self.station.store.send_spooled():
            self.station.forget(table_id)  # numbered anew on the hub: rebuild the view
        for table_id in self.station.table_ids():
            self.station.broadcast(self.station.refresh(table_id))
        self.hub.publish("tables", json.dumps({"type": "tables"}))
        for channel in self.hub.channels("tournament:"):
            self.hub.publish(channel, json.dumps({"type": "changed"}))

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "event":
            table_id, seq = str(message["table"]), int(message["seq"])
            if self.station.table(table_id).last_seq >= seq:
                return  # already caught up by an earlier announcement of the same batch
            self.station.broadcast(self.station.refresh(table_id))
        elif kind == "tables":
            self.hub.publish("tables", json.dumps({"type": "tables"}))
        elif kind == "tournament":
            self.hub.publish(f"tournament:{message['id']}", json.dumps({"type": "changed"}))
