"""Storage: SQLAlchemy models, the append-only event store, the clock seam.

SQLite (in WAL mode) by default; the same schema on PostgreSQL for a
tournament hub that several stations write to. The schema is made and upgraded by
Alembic migrations shipped in :mod:`station.store.migrations`
(:mod:`station.store.schema`), under a lock, so stations may start together.
"""

from station.store.clock import Clock, FixedClock, SystemClock
from station.store.database import Database, open_database
from station.store.events import AnsweredBefore, Event, EventStore, StoreConflict, TableInfo

__all__ = [
    "AnsweredBefore",
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
