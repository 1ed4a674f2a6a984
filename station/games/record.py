"""One game's wiring in the station, as one record (see :mod:`station.games`).

Every part is optional: a game without a presenter gets the generic view, one
without a scorer is not offered by ``packref score``, one without camera
wiring is not read by the camera, one without mats prints none in the kit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rules import Action, State

View = dict[str, Any]
Catalogues = Mapping[str, Mapping[str, Any]]


class MatReader(Protocol):
    """Turns a frame's stable mat readings into the game's observations, by a key."""

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        ...


@dataclass(frozen=True)
class CameraWiring:
    """How the overhead camera reads a game (``station.live.camera``).

    ``roles(players, mats)``: who owns which of the kit's mats (planned ``vision.kit``
    mats of this game) and the mat specs read, raising
    :class:`station.games.camera.CameraError` when the kit has too few;
    ``reader(layout)``: a fresh :class:`MatReader` for one camera source;
    ``extend(layout, catalogue)``: what else the reader needs from the catalogue
    (shapes, card numbers), written into the layout;
    ``lay(layout, state, contents, tags)``: the inverse of the reader for the demo's
    renderer — what lies on each mat in ``state`` (None: the demo films no game of it).
    """

    roles: Callable[[list[str], list[Any]], tuple[dict[str, Any], list[Any]]]
    reader: Callable[[Any], MatReader]
    extend: Callable[[Any, Mapping[str, Any]], None] | None = None
    lay: Callable[[Any, State, dict[int, Any], dict[tuple[str, str], int]], None] | None = None


@dataclass(frozen=True)
class DemoWiring:
    """How ``packref demo`` records a random game of this game (``station.demo.recordings``).

    ``choose(state, actions, rng)``: the action a demo player takes (default: any);
    ``readings(rng)``: an object whose ``reading(t, action, new_round)`` gives the
    drone's reading that goes with an action, ``(t, observation)``, or None.
    """

    choose: Callable[[State, list[Action], Any], Action] | None = None
    readings: Callable[[Any], Any] | None = None


def _no_questions(document: dict[str, Any], key: str) -> list[Any]:
    return []


@dataclass(frozen=True)
class CatalogueWiring:
    """How a copy's own catalogue is learnt, asked about and read (``station.catalogue``).

    ``lesson``: what the camera learns (a ``station.catalogue.learn.Lesson``: the mat,
    the pieces' noun, the list ``lesson.key``, how a piece is read);
    ``read(document, defaults)``: the copy's file (a ``Node``) → the engine's catalogue,
    each value checked at its JSON path; ``questions(document, key)``: what to ask of a
    piece of the list ``key`` that the camera cannot see (``station.catalogue.form``);
    ``more_lists``: lists asked about after the learnt one; ``learnt_extras()``: what
    the learnt file holds besides (pieces without tags, to be weighed or named later).
    """

    lesson: Any
    read: Callable[[Any, dict[str, Any]], dict[str, Any]]
    questions: Callable[[dict[str, Any], str], list[Any]] = _no_questions
    more_lists: tuple[str, ...] = ()
    learnt_extras: Callable[[], dict[str, Any]] | None = None


@dataclass(frozen=True)
class GameRecord:
    """Everything the station knows of one game, beside its engine in ``rules``.

    ``name``: the engine's name (``"moving-day"``); ``title``: as people write it;
    ``order``: where the game comes in lists and in the kit (its mats get their
    numbers in this order, so a new game takes a higher one); ``referee``: makes a
    fresh translator of observations for a table (``station.live.translators``);
    ``scorer(node)``: ``packref score``'s validation and scoring of a JSON document;
    ``presenter(state)``: the table's drawing view; ``reveal_label(state, action)``:
    a person's words for a reveal in the table page's picker; ``describe(state,
    action)``: the action in a sentence, ``state`` before it (:mod:`station.games.words`);
    ``legend``: what the marks on its boards mean, under the table page's boards; ``camera``: see
    :class:`CameraWiring`; ``mats(catalogues, per_game, sizes)``: the kit's
    ``vision.kit.MatRequest`` list (``sizes``: cell sides in mm by ``"cell"``,
    ``"truck"``, ``"shop"``); ``sticker_size``: which of those sizes its stickers take;
    ``tagged``: the catalogue keys whose pieces carry tag stickers, handed out in
    ``tag_order`` (fixed, so stickers already printed keep their ids);
    ``loose_tags``: tagged things outside the catalogue (the drone);
    ``tag_backs``: whether a piece that differs from its mirror image gets a back sticker;
    ``catalogue``: see :class:`CatalogueWiring`; ``demo``: see :class:`DemoWiring`.
    """

    name: str
    title: str
    order: int
    referee: Callable[[], Any] | None = None
    scorer: Callable[[Any], dict[str, Any]] | None = None
    presenter: Callable[[State], View] | None = None
    reveal_label: Callable[[State, Action], str] | None = None
    describe: Callable[[State, Action], str] | None = None
    legend: str = ""
    camera: CameraWiring | None = None
    mats: Callable[[Catalogues, int, Mapping[str, float]], list[Any]] | None = None
    sticker_size: str = "cell"
    tagged: tuple[str, ...] = ()
    tag_order: int = 0
    loose_tags: tuple[str, ...] = ()
    tag_backs: bool = False
    catalogue: CatalogueWiring | None = None
    demo: DemoWiring | None = None
