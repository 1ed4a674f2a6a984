"""A station's local outbox for the time its hub (PostgreSQL) is out of reach.

Events the station decides while the hub is away are stored here (a SQLite
file in the data directory, one transaction per batch, like the hub) with the
numbers they will have on the hub, and sent in order when it is back. Sending
is idempotent: an event already on the hub (same table, number, time, author
and kind: a send interrupted after the hub's commit) is not sent again; if
another writer took its number meanwhile, the table's remaining events are
numbered after the hub's last one, so no number is ever used twice.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime
from pathlib import Path

from station.private import private_dir, private_file
from station.store.models import EventRow

_SCHEMA = ("CREATE TABLE IF NOT EXISTS spool (id INTEGER PRIMARY KEY AUTOINCREMENT, "
           "table_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, "
           "author TEXT NOT NULL, at TEXT NOT NULL, payload TEXT NOT NULL)")


class Spool:
    """Pending events, oldest first (thread-safe; ``lock`` also orders sends and writes)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.parent.exists():
            private_dir(self.path.parent)
        private_file(self.path)  # the events of the hub's absence: its owner's only
        self.lock = threading.RLock()
        with self._connect() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(_SCHEMA)

    def __repr__(self) -> str:
        return f"Spool({self.path}, {self.count()} pending)"

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, timeout=5)
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    def count(self) -> int:
        with self.lock, self._connect() as connection:
            return connection.execute("SELECT count(*) FROM spool").fetchone()[0]

    def last_seq(self, table_id: str) -> int | None:
        with self.lock, self._connect() as connection:
            return connection.execute("SELECT max(seq) FROM spool WHERE table_id = ?",
                                      (table_id,)).fetchone()[0]

    def add(self, rows: list[EventRow]) -> None:
        """Keep ``rows`` (one table's batch) until the hub is back: all or none."""
        with self.lock, self._connect() as connection:
            connection.executemany(
                "INSERT INTO spool (table_id, seq, kind, author, at, payload) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(row.table_id, row.seq, row.kind, row.author, row.at.isoformat(),
                  json.dumps(row.payload)) for row in rows])

    def pending(self, table_id: str | None = None, after: int = 0) -> list[EventRow]:
        """Spooled events (of one table, numbered above ``after``), oldest first."""
        query, values = "SELECT id, table_id, seq, kind, author, at, payload FROM spool", ()
        if table_id is not None:
            query, values = query + " WHERE table_id = ? AND seq > ?", (table_id, after)
        with self.lock, self._connect() as connection:
            found = connection.execute(query + " ORDER BY id", values).fetchall()
        return [_row(*record) for record in found]

    def remove(self, ids: list[int]) -> None:
        with self.lock, self._connect() as connection:
            connection.executemany("DELETE FROM spool WHERE id = ?", [(i,) for i in ids])


def _row(spool_id: int, table_id: str, seq: int, kind: str, author: str, at: str,
         payload: str) -> EventRow:
    row = EventRow(table_id=table_id, seq=seq, kind=kind, author=author,
                   at=datetime.fromisoformat(at), payload=json.loads(payload))
    row.id = spool_id  # the spool's id until it is sent (the hub gives its own)
    return row


def hub_copy(row: EventRow, seq: int) -> EventRow:
    """The row to insert on the hub (a fresh object: the spool's id is not the hub's)."""
    return EventRow(table_id=row.table_id, seq=seq, kind=row.kind, author=row.author,
                    at=row.at, payload=dict(row.payload))
