"""What :mod:`station.catalogue` asks of a game: how its copy is learnt, asked about and read.

A game's record (:mod:`station.games`) carries one :class:`CatalogueWiring`; the
generic code of this package takes it as an argument and never looks a game up by
its name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from station.catalogue.questions import Question
from station.jsonin import Node

#: A piece as the camera reads it on the teaching mat → its catalogue entry (PieceError).
PieceReader = Callable[[dict[str, Any]], dict[str, Any]]
#: The copy's file (a ``Node``) and the game's default catalogue → the engine's catalogue.
CopyReader = Callable[[Node, dict[str, Any]], dict[str, Any]]
#: The file being edited and a list's key → what to ask of each piece of that list.
QuestionsOf = Callable[[Mapping[str, Any], str], Sequence[Question]]


@dataclass(frozen=True)
class Lesson:
    """What one game's pieces are called, where they lie and what is recorded of them."""

    game: str
    mat_kind: str  # "colour" or "tags"
    noun: str
    key: str  # the catalogue's list of learnt pieces
    read: PieceReader
    id_prefix: str | None = None  # pieces without a tag get ids: prefix + number laid

    def same(self, entry: dict[str, Any], other: dict[str, Any]) -> bool:
        """Whether two entries are the same piece seen twice (cards may repeat in a deck)."""
        return "tag" in entry and entry["tag"] == other.get("tag")


def no_questions(document: Mapping[str, Any], key: str) -> list[Question]:
    """Nothing to ask: the camera sees all of a piece."""
    return []


@dataclass(frozen=True)
class CatalogueWiring:
    """How a copy's own catalogue is learnt, asked about and read.

    ``lesson``: what the camera learns (the mat, the pieces' noun, the list ``lesson.key``,
    how a piece is read); ``read(document, defaults)``: the copy's file → the engine's
    catalogue, each value checked at its JSON path; ``counted``: the lists of pieces
    ``catalogue check`` counts; ``questions(document, key)``: what to ask of a piece of the
    list ``key`` that the camera cannot see (:mod:`station.catalogue.form`);
    ``more_lists``: lists asked about after the learnt one, each with its piece's noun;
    ``learnt_extras()``: what the learnt file holds besides (pieces without tags, to be
    weighed or named later).
    """

    lesson: Lesson
    read: CopyReader
    counted: tuple[str, ...]
    questions: QuestionsOf = no_questions
    more_lists: Mapping[str, str] = field(default_factory=dict)
    learnt_extras: Callable[[], dict[str, Any]] | None = None

    @property
    def game(self) -> str:
        return self.lesson.game

    def lists(self) -> list[str]:
        """The lists of pieces a form walks through, in order."""
        return [self.lesson.key, *self.more_lists]

    def noun(self, key: str) -> str:
        """What one piece of the list ``key`` is called (``box``, ``shop card``)."""
        return self.lesson.noun if key == self.lesson.key else self.more_lists.get(key, key)

    def learnt_document(self, entries: list[dict[str, Any]]) -> dict[str, Any]:
        """The file ``catalogue learn`` writes for ``entries`` recorded in order (formats §11)."""
        document: dict[str, Any] = {"game": self.game, self.lesson.key: entries}
        if self.learnt_extras is not None:  # what carries no tag (Pick 'n Packers' presents)
            document.update(self.learnt_extras())
        return document
