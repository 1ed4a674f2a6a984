"""Learning a catalogue from the camera: one piece at a time on an otherwise empty mat.

:class:`Learner` takes the *stable* readings of the teaching mat (docs/formats.md §6's
stability, but with ``?`` cells kept as seen: a hand held still over a card must
never pass for the empty mat) and records each piece that lies still, alone,
with no ``?`` on it or beside it (:mod:`station.catalogue.pieces`), once. After a
piece is recorded the mat must be seen empty before the next one counts, so a
piece nudged while being taken away is not recorded twice; a mat whose only
content is ``?`` cells (a lamp's glare) counts as empty once the cells where the
piece lay read empty, or when the unreadable cells are too few to hide it (a
tagged piece seen again is a duplicate anyway). What it says to the person comes
back as :class:`Note` values.

The game's record says what is learnt (its :class:`~station.catalogue.wiring.CatalogueWiring`).
Example (a deck of cards, readings as the camera would give them)::

    >>> cards = Lesson("small-warehouse", "colour", "card", "cards", card_piece, id_prefix="c")
    >>> wiring = CatalogueWiring(cards, read=lambda document, defaults: {}, counted=("cards",))
    >>> learner = Learner(wiring, mat_id=0)
    >>> empty = {"id": 0, "found": True, "cells": ["....", "...."], "tags": []}
    >>> card = {"id": 0, "found": True, "cells": [".AC.", ".DD."], "tags": []}
    >>> [note.kind for frame, mat in enumerate([empty, card, empty, card])
    ...  for note in learner.see(frame, mat)]
    ['ready', 'recorded', 'ready', 'recorded']
    >>> learner.document()["cards"][1]
    {'id': 'c02', 'squares': ['AC', 'DD']}
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from station.catalogue.pieces import (
    EMPTY,
    PieceError,
    card_squares,
    is_empty,
    seen_cells,
    tagged_piece,
    unknown_cells,
    unknown_regions,
)
from station.catalogue.wiring import CatalogueWiring, Lesson, PieceReader

__all__ = ["Learner", "Lesson", "Note", "card_piece", "learn", "one_square", "shaped_piece"]


def card_piece(mat: dict[str, Any]) -> dict[str, Any]:
    """A card on a colour mat: its squares."""
    return {"squares": card_squares(mat["cells"])}


def shaped_piece(mat: dict[str, Any]) -> dict[str, Any]:
    """A tagged piece of any shape: its tag and shape."""
    tag, shape = tagged_piece(mat["cells"], mat.get("tags", []))
    return {"tag": tag, "shape": shape}


def one_square(noun: str) -> PieceReader:
    """A tagged piece that covers one square (``noun``: what the person is told it is)."""
    def read(mat: dict[str, Any]) -> dict[str, Any]:
        tag, shape = tagged_piece(mat["cells"], mat.get("tags", []))
        if shape != ["#"]:
            raise PieceError(f"a {noun} covers one square, this covers "
                             f"{''.join(shape).count('#')}: take everything else off the mat")
        return {"tag": tag}
    return read


@dataclass(frozen=True)
class Note:
    """One thing to tell the person: ``kind`` is ``ready``, ``recorded``, ``duplicate``,
    ``again`` (lay it again), ``clear`` (take it away first) or ``missing`` (mat not seen)."""

    frame: int
    kind: str
    message: str
    entry: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        found = {"frame": self.frame, "note": self.kind, "message": self.message}
        return found if self.entry is None else {**found, "entry": self.entry}


@dataclass
class Learner:
    """Records the pieces of a game (its record's ``wiring``) laid one at a time on mat
    ``mat_id``."""

    wiring: CatalogueWiring
    mat_id: int
    entries: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    _waiting: bool = False  # a piece was recorded: the mat must be empty before the next
    _missing: bool = False
    _ready_at: int | None = None  # frame where the mat was last seen empty
    _last_cells: set[tuple[int, int]] = field(default_factory=set)  # where it last recorded
    frames_per_piece: list[int] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.wiring.game

    @property
    def lesson(self) -> Lesson:
        return self.wiring.lesson

    def see(self, frame: int, mats: dict[str, Any] | list[dict[str, Any]]) -> list[Note]:
        """A new stable reading (the teaching mat, or every mat of a frame); what to say."""
        mat = mats if isinstance(mats, dict) else next(
            (m for m in mats if m["id"] == self.mat_id), {"id": self.mat_id, "found": False})
        if not mat.get("found"):
            return self._note(frame, "missing", f"mat {self.mat_id} is not in view", once=True)
        self._missing = False
        shows_nothing = not seen_cells(mat["cells"]) and not mat.get("tags")
        if is_empty(mat) or (shows_nothing and self._waiting and not self._may_hide_last(mat)):
            return self._ready(frame, len(unknown_cells(mat["cells"])))
        if shows_nothing:  # only ``?``: a hand or glare over the mat, maybe over a piece
            return [] if not self._waiting else self._note(
                frame, "clear", f"the mat cannot be seen empty: "
                f"{len(unknown_cells(mat['cells']))} cells cannot be read (a hand, a shadow or "
                f"glare); take the {self.lesson.noun} away, move what hides the mat")
        if self._waiting:
            if unknown_cells(mat["cells"]):
                return []  # a hand comes to take the piece away
            return self._note(frame, "clear", f"take the {self.lesson.noun} away: the mat must "
                              f"be empty before the next {self.lesson.noun}")
        try:
            entry = self.lesson.read(mat)
        except PieceError as error:
            return self._note(frame, "again", f"not recorded: {error}; lay it again")
        self._last_cells = seen_cells(mat["cells"])
        return self._record(frame, entry)

    def _ready(self, frame: int, unreadable: int) -> list[Note]:
        self._waiting, self._ready_at = False, frame
        hidden = f" ({unreadable} cells cannot be read)" if unreadable else ""
        return self._note(frame, "ready", f"mat {self.mat_id} is empty{hidden}: lay the next "
                          f"{self.lesson.noun} on it, alone, and keep still")

    def _may_hide_last(self, mat: dict[str, Any]) -> bool:
        """Whether the ``?`` cells of a mat that shows nothing else could hide the piece just
        recorded. A tagged piece seen again is a duplicate anyway; an untagged card could be
        recorded twice, so it must be seen gone: the cells where it lay read empty, or the
        unreadable cells too few to hold it."""
        last = self.entries[-1] if self.entries else None
        if last is None or "squares" not in last:
            return False
        if all(mat["cells"][r][c] == EMPTY for r, c in self._last_cells):
            return False
        size = sum(char != EMPTY for row in last["squares"] for char in row)
        return any(len(region) >= size for region in unknown_regions(mat["cells"]))

    @property
    def waiting(self) -> bool:
        """A piece was recorded and the mat has not been seen empty since."""
        return self._waiting

    def _record(self, frame: int, entry: dict[str, Any]) -> list[Note]:
        self._waiting = True
        noun = self.lesson.noun
        twin = next((index for index, seen in enumerate(self.entries)
                     if self.lesson.same(entry, seen)), None)
        if twin is not None:
            return self._note(frame, "duplicate", f"tag {entry['tag']} is already recorded "
                              f"({noun} {twin + 1}): not recorded again", entry)
        if self.lesson.id_prefix is not None:  # untagged pieces are numbered as laid
            entry = {"id": f"{self.lesson.id_prefix}{len(self.entries) + 1:02d}", **entry}
        same = [seen["id"] for seen in self.entries
                if "squares" in entry and seen["squares"] == entry["squares"]]
        self.entries.append(entry)
        if self._ready_at is not None:
            self.frames_per_piece.append(frame - self._ready_at)
        shown = " ".join(entry["squares"]) if "squares" in entry else (
            f"tag {entry['tag']}" + (f" {' '.join(entry['shape'])}" if "shape" in entry else ""))
        extra = (f" (the same squares as {', '.join(same)}: a deck may repeat a card; if you "
                 "laid the same card twice, remove one with 'packref catalogue edit')"
                 if same else "")
        return self._note(frame, "recorded", f"{noun} {len(self.entries)} recorded: "
                          f"{shown}{extra}; take it away", entry)

    def _note(self, frame: int, kind: str, message: str, entry: dict[str, Any] | None = None,
              once: bool = False) -> list[Note]:
        if once and self._missing:
            return []
        self._missing = kind == "missing"
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return [Note(frame, kind, message, entry)]

    def document(self) -> dict[str, Any]:
        """The catalogue learnt so far (docs/formats.md §11)."""
        return self.wiring.learnt_document(self.entries)


def learn(readings: Iterable[dict[str, Any]], learner: Learner) -> Iterator[Note]:
    """Every note of ``learner`` over ``readings`` (``{"frame": i, "mats": [...]}`` stable ones)."""
    for reading in readings:
        yield from learner.see(reading["frame"], reading["mats"])
