"""Each game's wiring in the station: one module per game, each defining one record.

A module of this package that defines ``RECORD`` (a :class:`GameRecord`) adds
a game to the station: its referee, ``packref score``'s scorer, the table's
drawing view, the reveal picker's words, the camera's reading of its mats, the
kit's mats and tag stickers, and the demo's players. The modules are found by
themselves (``pkgutil``), so a fifth game is one new module here beside its
engine in ``rules``. A game without a record gets the generic behaviour (the
generic view, no camera, no mats, no scorer). The shared modules (``record``,
``views``, ``camera``, ``kit``) define no record.

    >>> [record.name for record in game_records()]
    ['small-warehouse', 'moving-day', 'removal', 'pick-n-packers']
    >>> game_record("moving-day").title
    'Moving Day'
    >>> game_record("test-race") is None
    True
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

from station.games.record import CameraWiring, CatalogueWiring, DemoWiring, GameRecord

__all__ = [
    "CameraWiring",
    "CatalogueWiring",
    "DemoWiring",
    "DuplicateRecord",
    "GameRecord",
    "forget_records",
    "game_record",
    "game_records",
]

_records: dict[str, GameRecord] | None = None
_lock = threading.Lock()


class DuplicateRecord(RuntimeError):
    """Two modules of :mod:`station.games` define a record of the same game."""


def _discover() -> dict[str, GameRecord]:
    found: dict[str, GameRecord] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        record = getattr(module, "RECORD", None)
        if not isinstance(record, GameRecord):
            continue
        if record.name in found:
            raise DuplicateRecord(f"two records of {record.name!r} in {__name__}")
        found[record.name] = record
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


def _all() -> dict[str, GameRecord]:
    global _records
    with _lock:  # tables are set up from several threads: discover once
        if _records is None:
            _records = _discover()
        return _records


def game_records() -> list[GameRecord]:
    """Every game's record, in the records' ``order``."""
    return list(_all().values())


def game_record(name: str) -> GameRecord | None:
    """The record of the game named ``name`` (the engine's name), or None."""
    return _all().get(name)


def forget_records() -> None:
    """Find the modules again at the next look-up (a test adding a module of its own)."""
    global _records
    with _lock:
        _records = None
