"""Fixtures of the live-loop tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore, FixedClock, open_database


@pytest.fixture
def station(tmp_path: Path) -> Iterator[Station]:
    """A station on a fresh SQLite file with one table, ``t1``, and a clock that stands still."""
    database = open_database(f"sqlite:///{tmp_path / 'station.sqlite3'}")
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Table 1", "t1")
    yield station
    database.close()
