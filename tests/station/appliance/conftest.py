"""Fixtures of the appliance's tests: the live loop's station (a table ``t1`` on SQLite)."""

from tests.station.live.conftest import station

__all__ = ["station"]
