"""Change notifications between the stations of one PostgreSQL hub (LISTEN/NOTIFY).

Every stored event and every new table is announced by a trigger on its row, on
channel ``packref_hub``, as JSON naming the writer (its connection's
``application_name``, unique per station process); tournament changes are
announced by the writer. A :class:`ChangeFeed` listens on its own connection
and hands each announcement to a callback; when the hub goes away it retries
until it is back, and says so (``on_connect``) so the station can send what it
stored meanwhile and catch up. SQLite is single-station: nothing is announced.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from station.store.database import Database
from station.store.hub_channel import CHANNEL

RETRY_SECONDS = 0.25
WAIT_SECONDS = 0.5

log = logging.getLogger("packref.hub")


def announce(database: Database, message: dict[str, Any]) -> bool:
    """Tell the other stations of a hub (``message`` gets this station's origin).

    Best effort: False on SQLite or when the hub cannot be reached (the writer's
    own pages are told directly; the others catch up when the hub is back).
    """
    if database.dialect != "postgresql":
        return False
    payload = json.dumps({**message, "origin": database.origin})
    try:
        with database.engine.begin() as connection:
            connection.execute(text("SELECT pg_notify(:channel, :payload)"),
                               {"channel": CHANNEL, "payload": payload})
    except Exception as error:  # an unreachable hub must not fail the write that was stored
        log.warning("hub: cannot announce %s: %s", message, error)
        return False
    return True


Handler = Callable[[dict[str, Any]], None]


class ChangeFeed:
    """Listens on ``packref_hub`` in a thread; ``on_message`` gets the announcements of the
    *other* stations, ``on_connect`` runs at every (re)connection, before any message."""

    def __init__(self, database: Database, on_message: Handler,
                 on_connect: Callable[[], None] | None = None) -> None:
        self.database = database
        self.on_message = on_message
        self.on_connect = on_connect or (lambda: None)
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        url = database.engine.url.set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)

    def __repr__(self) -> str:
        return f"<ChangeFeed {'connected' if self.connected.is_set() else 'waiting'}>"

    def start(self) -> ChangeFeed:
        self._thread = threading.Thread(target=self._run, name="packref-hub-feed", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as error:  # the hub went away: wait, then listen again
                if self.connected.is_set():
                    log.warning("hub: lost (%s); storing locally until it is back", error)
                self.connected.clear()
                self._stop.wait(RETRY_SECONDS)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=3,
                             application_name=f"{self.database.origin}-feed") as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.on_connect()
            self.connected.set()
            while not self._stop.is_set():
                for notice in connection.notifies(timeout=WAIT_SECONDS):
                    self._dispatch(notice.payload)
                connection.execute("SELECT 1")  # notices the hub going away while idle

    def _dispatch(self, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if message.get("origin") == self.database.origin:
            return
        try:
            self.on_message(message)
        except Exception:  # one bad update must not stop the feed
            log.exception("hub: cannot apply %s", message)
