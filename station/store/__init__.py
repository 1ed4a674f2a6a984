"""Storage: SQLAlchemy models, the append-only event store, the clock seam.

SQLite (in WAL mode) by default; the same schema on PostgreSQL for a
tournament hub that several stations write to. There are no migrations: the
schema is created with ``create_all`` on first start, and an index added later
is created when an older database is opened.
"""

from station.store.clock import Clock, FixedClock, SystemClock
from station.store.database import Database, open_database
from station.store.events import Event, EventStore, StoreConflict, TableInfo

__all__ = [
    "Clock",
    "Database",
    "Event",
    "EventStore",
    "FixedClock",
    "StoreConflict",
    "SystemClock",
    "TableInfo",
    "open_database",
]
