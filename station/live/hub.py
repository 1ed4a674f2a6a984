"""Broadcasting updates to WebSocket clients, from any thread.

Each client has a small queue; a client too slow to keep up loses its oldest
updates, never the newest (every update is a whole snapshot, so the newest
one is all a page needs).
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict

QUEUE_SIZE = 8


class Hub:
    """Channels (``"table:t1"``, ``"tournament:spring"``...) and their subscribed queues."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Hub {sum(len(queues) for queues in self._subscribers.values())} subscribers>"

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver on ``loop`` (the server's event loop)."""
        self._loop = loop

    def subscribe(self, channel: str) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE_SIZE)
        with self._lock:
            self._subscribers[channel].add(queue)
        return queue

    def unsubscribe(self, channel: str, queue: asyncio.Queue[str]) -> None:
        with self._lock:
            self._subscribers[channel].discard(queue)

    def subscribers(self, channel: str) -> int:
        return len(self._subscribers.get(channel, ()))

    def publish(self, channel: str, message: str) -> None:
        """Send ``message`` to every subscriber of ``channel``; callable from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(channel, message)
        else:
            loop.call_soon_threadsafe(self._deliver, channel, message)

    def _deliver(self, channel: str, message: str) -> None:
        with self._lock:
            queues = list(self._subscribers.get(channel, ()))
        for queue in queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)
