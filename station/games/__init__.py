"""Each game's wiring in the station: one package per game, each defining one record.

A package (or module) of this package that defines ``RECORD`` (a :class:`GameRecord`)
adds a game to the station: its referee, ``packref score``'s scorer, the table's
drawing view, the reveal picker's words, the camera's reading of its mats, the
kit's mats and tag stickers, a copy's catalogue, its tie-breakers, and the demo's
players. They are found by themselves (``pkgutil``), so a fifth game is one new
package (or a single module) here beside its engine in ``rules``. A game without a
record gets the generic behaviour (the generic view, no camera, no mats, no scorer).
The shared modules (``record``, ``views``, ``camera``, ``words``) define no record and
never look a game up: they are given its record, and what asks for a game by its name
comes here.

    >>> [record.name for record in game_records()]
    ['small-warehouse', 'moving-day', 'removal', 'pick-n-packers']
    >>> game_record("moving-day").title
    'Moving Day'
    >>> game_record("test-race") is None
    True
    >>> game_package("removal")
    'station.games.removal'
    >>> from rules import get_game
    >>> state = get_game("removal").new_game(["Ana", "Ben"], seed=2)
    >>> describe_action(state, {"type": "drive", "helpers": []})
    'Ana drove the truck away'
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import threading
from collections.abc import Iterable
from typing import Any

from rules import Action, State
from rules.engine import Outcome
from station.games.record import (
    CameraWiring,
    CatalogueWiring,
    DemoWiring,
    GameCommand,
    GameRecord,
    MatPlan,
    MatReader,
    Presenter,
    Ranker,
    Referee,
    Scorer,
    View,
)
from station.games.tapping import board_entry
from station.games.views import flagged_cells, labelled, view_of
from station.games.words import action_words, event_words

__all__ = [
    "CameraWiring",
    "CatalogueWiring",
    "DemoWiring",
    "DuplicateRecord",
    "GameCommand",
    "GameRecord",
    "MatPlan",
    "MatReader",
    "Presenter",
    "Ranker",
    "Referee",
    "Scorer",
    "View",
    "board_moves",
    "describe_action",
    "describe_event",
    "forget_records",
    "game_package",
    "game_record",
    "game_records",
    "labelled_outcomes",
    "named_cells",
    "pictured_outcomes",
    "present",
]

_records: dict[str, GameRecord] | None = None
_packages: dict[str, str] = {}  # game → the package defining its record (not a single module)
_lock = threading.Lock()


class DuplicateRecord(RuntimeError):
    """Two modules of :mod:`station.games` define a record of the same game."""


def _discover() -> dict[str, GameRecord]:
    global _packages
    found: dict[str, GameRecord] = {}
    packages: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        record = getattr(module, "RECORD", None)
        if not isinstance(record, GameRecord):
            continue
        if record.name in found:
            raise DuplicateRecord(f"two records of {record.name!r} in {__name__}")
        found[record.name] = record
        if info.ispkg:
            packages[record.name] = module.__name__
    _packages = packages
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


def game_package(name: str) -> str | None:
    """The package that defines the record of the game named ``name``, where the game's
    package data lies (e.g. the demo's ``recordings/``), or None (no record, or a record
    in a single module)."""
    _all()
    return _packages.get(name)


def forget_records() -> None:
    """Find the modules again at the next look-up (a test adding a module of its own)."""
    global _records
    with _lock:
        _records = None


# -- what the table asks of a game, by the game's name ----------------------------------------
def present(state: State, table: str = "") -> View:
    """The drawing view of ``state`` (:func:`station.games.views.view_of`; ``table``: where
    it is played, named in the log when the game's presenter fails)."""
    return view_of(state, game_record(state.game.name), table)


def labelled_outcomes(state: State, outcomes: Iterable[Outcome]) -> list[dict[str, Any]]:
    """The outcomes as JSON, with the game's words for each
    (:func:`station.games.views.labelled`)."""
    return labelled(state, outcomes, game_record(state.game.name))


def board_moves(state: State, actions: Iterable[Action]) -> dict[str, Any]:
    """The legal ``actions`` as the table page's board entry taps them
    (:func:`station.games.tapping.board_entry`)."""
    return board_entry(state, actions, game_record(state.game.name))


def pictured_outcomes(state: State, outcomes: Iterable[Outcome]) -> list[dict[str, Any]]:
    """:func:`labelled_outcomes`, each with its component drawn and said by the catalogue
    (``picture``, ``words``) where the game's record draws its reveals."""
    record = game_record(state.game.name)
    found = labelled(state, outcomes, record)
    drawing = record.reveal_picture if record is not None else None
    for document in found if drawing is not None else []:
        with contextlib.suppress(Exception):  # a picture is a courtesy: the label says it
            document.update(drawing(state, document["action"]))
    return found


def named_cells(state: State, action: Any) -> list[dict[str, Any]]:
    """The cells a flagged ``action`` names (:func:`station.games.views.flagged_cells`)."""
    return flagged_cells(state, action, game_record(state.game.name))


def describe_action(state: State, action: Action, face_up: bool = False) -> str:
    """``action`` in a sentence (:func:`station.games.words.action_words`)."""
    return action_words(state, action, game_record(state.game.name), face_up)


def describe_event(state: State | None, kind: str, payload: dict[str, Any]) -> str | None:
    """A stored event in a sentence, or None (:func:`station.games.words.event_words`)."""
    return event_words(state, kind, payload, game_record, camera_kinds())


def camera_kinds() -> set[str]:
    """The observations the games' camera readers report as seen by the camera."""
    return {kind for record in game_records() if record.camera is not None
            for kind in record.camera.seen}
