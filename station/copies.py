"""A physical copy's catalogue, by the game's name: its record's wiring handed to
:mod:`station.catalogue`.

:mod:`station.catalogue` is generic: it is given a game's
:class:`~station.catalogue.wiring.CatalogueWiring` and never looks a game up. What asks
for a game by its name — the CLI, the dashboard's catalogue page, a station's start —
comes here, where the records are (:mod:`station.games`).

Example::

    >>> catalogue_games()
    ['small-warehouse', 'moving-day', 'removal', 'pick-n-packers']
    >>> from station.jsonin import Node
    >>> read_copy("small-warehouse", Node({"cards": [{"id": "c01", "squares": ["AB"]}]}))
    {'cards': [{'id': 'c01', 'squares': ['AB']}]}
    >>> learnt_key("chess")
    Traceback (most recent call last):
    ...
    station.errors.InputError: GAME: no game called 'chess' (known: small-warehouse, \
moving-day, removal, pick-n-packers)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from station.catalogue import copy, files, form, walk
from station.catalogue.learn import Learner
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.errors import InputError
from station.games import game_record, game_records
from station.jsonin import Node


def catalogue_games() -> list[str]:
    """The games a copy's catalogue can be learnt for."""
    return [record.name for record in game_records() if record.catalogue is not None]


def catalogue_wiring(game: str) -> CatalogueWiring:
    """How ``game``'s copy is learnt and read: its record's ``catalogue``; InputError for a
    game without one."""
    record = game_record(game)
    if record is None or record.catalogue is None:
        raise InputError(f"GAME: no game called {game!r} (known: {', '.join(catalogue_games())})")
    return record.catalogue


def lesson_of(game: str) -> Lesson:
    """What ``game``'s copy learns from the camera (its record's lesson)."""
    return catalogue_wiring(game).lesson


def learnt_key(game: str) -> str:
    """The list of pieces ``game``'s copy learns from the camera (the rest may come from the
    defaults)."""
    return catalogue_wiring(game).lesson.key


def learner(game: str, mat_id: int) -> Learner:
    """A :class:`~station.catalogue.learn.Learner` of ``game``'s pieces laid on mat ``mat_id``."""
    return Learner(catalogue_wiring(game), mat_id)


def read_copy(game: str, document: Node) -> dict[str, Any]:
    """The engine's catalogue for a copy's file (:func:`station.catalogue.copy.read_copy`)."""
    return copy.read_copy(catalogue_wiring(game), document)


def checked_copy(game: str, document: Node, players: int | None = None) -> dict[str, Any]:
    """A copy's ``document`` checked and played once
    (:func:`station.catalogue.copy.checked_copy`)."""
    return copy.checked_copy(catalogue_wiring(game), document, players)


def load_copy(game: str, path: str | Path, players: int | None = None) -> dict[str, Any]:
    """The checked, playable engine catalogue in the file ``path`` (for ``--catalogue FILE``);
    every error is one line starting with the file's name."""
    return copy.in_file(path, lambda document: checked_copy(game, document, players))


def station_catalogues(folder: Path, given: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The copies' catalogues a station plays with: ``given`` (game → file, from
    ``serve --catalogue``), else ``folder/GAME.json`` where there is one (the dashboard's
    catalogue page saves there). Each is checked; a bad one raises InputError."""
    found = {game: folder / f"{game}.json" for game in catalogue_games()
             if (folder / f"{game}.json").exists()}
    found.update({game: Path(path) for game, path in given.items()})
    return {game: load_copy(game, path) for game, path in found.items()}


def summary(game: str, catalogue: dict[str, Any]) -> dict[str, int]:
    """How many of each kind of piece ``catalogue`` holds, e.g. ``{"cards": 20}``."""
    return copy.summary(catalogue_wiring(game), catalogue)


def walk_view(game: str, document: dict[str, Any]) -> dict[str, Any]:
    """The dashboard's walk through a copy (:func:`station.catalogue.walk.walk_view`)."""
    return walk.walk_view(catalogue_wiring(game), document)


def answer(document: dict[str, Any], key: str, index: int, field: str, text: str) -> Any:
    """Check and store one answer for the game ``document`` names
    (:func:`station.catalogue.form.answer`; no questions for a game without a catalogue)."""
    record = game_record(str(document.get("game", "")))
    return form.answer(record.catalogue if record is not None else None, document, key, index,
                       field, text)


def edit_in_terminal(game: str, path: Path, stdin: TextIO, say: Callable[[str], None],
                     ask_all: bool = False) -> int:
    """Ask on ``stdin`` for every open value of ``game``'s file ``path``
    (:func:`station.catalogue.form.edit_in_terminal`)."""
    return form.edit_in_terminal(catalogue_wiring(game), path, stdin, say, ask_all)


class CopyFolder(files.CopyFolder):
    """The station's copies' catalogues (:class:`station.catalogue.files.CopyFolder`), one for
    each game with a catalogue."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder, catalogue_games())
