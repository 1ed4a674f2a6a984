"""Fixtures of the live-loop tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from station.live import translators
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


def use_referee(monkeypatch: pytest.MonkeyPatch, game: str, factory: Callable[[], Any]) -> None:
    """Give ``game``'s tables the translator ``factory()`` for this test: as if its record
    (or a record the game does not have) named that referee."""
    records = translators.game_record

    def record(name: str) -> Any:
        return SimpleNamespace(referee=factory) if name == game else records(name)

    monkeypatch.setattr(translators, "game_record", record)
