"""One game's wiring in the station, as one record (see :mod:`station.games`), and the typed
seams the station asks a game through.

What every game has is required: its referee, its scorer, its presenter, its words, its
legend, its tie-breakers, and whether it has a camera, kit mats and a copy's catalogue
(``None`` says it has none: it is not read by the camera, prints no mats, learns no copy).
The rest has a default: no tag stickers, no demo of its own, no ranked placements in
``packref advise FILE``, no command of its own.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rules import Action, State
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.config import ADVICE_SECONDS
from station.games.camera import CameraLayout
from station.jsonin import Node

if TYPE_CHECKING:  # vision's kit and renderer load OpenCV: only their types are named here
    from vision.kit import KitMat
    from vision.layout import MatSpec
    from vision.render import MatContent

__all__ = [
    "CameraWiring",
    "CatalogueWiring",
    "Catalogues",
    "Cells",
    "DemoWiring",
    "DroneReadings",
    "GameCommand",
    "GameRecord",
    "Lesson",
    "MatPlan",
    "MatReader",
    "Pictured",
    "Presenter",
    "Ranker",
    "Referee",
    "Scorer",
    "Tapping",
    "View",
    "Words",
]

View = dict[str, Any]
Catalogues = Mapping[str, Mapping[str, Any]]
#: A person's words for an action in ``state`` (the state before it): describe, reveal_label.
Words = Callable[[State, Action], str]
#: How a person taps ``action`` (legal in ``state``) on the table page's board entry: the
#: piece, the place, the turn and anything after, each with words and a picture
#: (:mod:`station.games.tapping`); None for an action not entered by the board.
Tapping = Callable[[State, Action], "dict[str, Any] | None"]
#: A reveal's component as the table page draws it for the picker (``picture``: drawn
#: cells, ``words``: what it is, by the catalogue), ``state`` before the reveal.
Pictured = Callable[[State, Action], "dict[str, Any]"]
#: The cells an action in ``state`` names, as its words name them, for the table page's
#: marks: ``[{"player": name, "vehicle": name (optional), "row": r, "col": c}]`` (JSON
#: indices, counted from 0).
Cells = Callable[[State, Action], list[dict[str, Any]]]


class Presenter(Protocol):
    """The table's drawing view of a state (:mod:`station.games.views`)."""

    def __call__(self, state: State) -> View:
        ...


class Referee(Protocol):
    """Turns one stable observation into the actions it means (``station.live.translators``).

    It must not change ``state``, may raise :class:`rules.IllegalAction` for an observation
    it cannot make sense of, and may keep what it holds back in a ``held`` list (the table
    then waits for it before a game ends).
    """

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        ...


class Scorer(Protocol):
    """``packref score``'s reading of a JSON document: checked at its JSON paths, scored."""

    def __call__(self, document: Node) -> dict[str, Any]:
        ...


class Ranker(Protocol):
    """``packref advise GAME FILE``'s reading: every legal placement of the piece in hand,
    best first (docs/formats.md §8)."""

    def __call__(self, document: Node) -> dict[str, Any]:
        ...


class MatReader(Protocol):
    """Turns a frame's stable mat readings into the game's observations, by a key."""

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        ...


class DroneReadings(Protocol):
    """The demo's drone readings that go with a recorded game's actions."""

    def reading(self, t: float, action: Action,
                new_round: bool) -> tuple[float, dict[str, Any]] | None:
        ...


@dataclass(frozen=True)
class MatPlan:
    """One mat of the printable kit a game needs (``vision.kit.MatRequest`` without the game,
    which its record names): what it is for, its grid, kind and cell side in mm; ``frame``
    for a frame around a game board (the grid is a window to cut out). A plain value of its
    own because ``vision.kit`` loads numpy, which a game's import never needs."""

    label: str
    rows: int
    cols: int
    kind: str
    cell_mm: float
    frame: bool = False


#: The kit's mats of a game: ``(catalogues, per_game, sizes)`` → its mats, for as many
#: players as ``per_game`` mat numbers allow (``sizes``: cell sides in mm by ``"cell"``,
#: ``"truck"``, ``"shop"``).
MatsOf = Callable[[Catalogues, int, Mapping[str, float]], list[MatPlan]]


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
    renderer — what lies on each mat in ``state`` (None: the demo films no game of it);
    ``seen``: the kinds of observation of its reader that the table's events call "Seen by
    the camera" (any other is "Reported: KIND");
    ``entries(state, action)``: what a person enters on the table page for ``action``
    (``state`` before it) that no camera reads — the keys of a ``{"kind": "person"}``
    observation, e.g. where a helper card went; the demo enters them where the camera
    alone cannot read the action (None: nothing to enter);
    ``reads_unknown``: its reader and referee take ``?`` as "not seen": a cell no frame
    of a stable run read is passed on as ``?`` (not as its last stable value), and a
    changed reading that still has ``?`` cells (a hand over the mat, a card held above
    it) waits for one with none, up to ``part_hidden_frames`` (``vision.config``), so a
    hand is never taken for a move.
    """

    roles: Callable[[list[str], list[KitMat]], tuple[dict[str, Any], list[MatSpec]]]
    reader: Callable[[CameraLayout], MatReader]
    extend: Callable[[CameraLayout, Mapping[str, Any]], None] | None = None
    lay: Callable[[CameraLayout, State, dict[int, MatContent], dict[tuple[str, str], int]],
                  None] | None = None
    seen: tuple[str, ...] = ()
    entries: Callable[[State, Action], dict[str, Any]] | None = None
    reads_unknown: bool = False


@dataclass(frozen=True)
class DemoWiring:
    """How ``packref demo`` records a random game of this game (``station.demo.recordings``).

    ``choose(state, actions, rng)``: the action a demo player takes (default: any);
    ``readings(rng)``: the drone's readings that go with the actions (default: none).
    """

    choose: Callable[[State, list[Action], random.Random], Action] | None = None
    readings: Callable[[random.Random], DroneReadings] | None = None


@dataclass(frozen=True)
class GameCommand:
    """A ``packref`` command of the game's own: ``add(subparsers)`` adds its sub-parsers
    (as a module of ``station.cli`` does), at ``order`` in ``packref --help``."""

    order: int
    add: Callable[[argparse._SubParsersAction], None]


@dataclass(frozen=True)
class GameRecord:
    """Everything the station knows of one game, beside its engine in ``rules``.

    ``name``: the engine's name (``"moving-day"``); ``title``: as people write it;
    ``order``: where the game comes in lists and in the kit (its mats get their
    numbers in this order, so a new game takes a higher one); ``referee``: makes a
    fresh :class:`Referee` for a table (``station.live.translators``);
    ``scorer(node)``: ``packref score``'s validation and scoring of a JSON document;
    ``presenter(state)``: the table's drawing view; ``reveal_label(state, action)``:
    a person's words for a reveal in the table page's picker; ``describe(state,
    action)``: the action in a sentence, ``state`` before it (:mod:`station.games.words`);
    ``legend``: what the marks on its boards mean, under the table page's boards;
    ``camera``: see :class:`CameraWiring`; ``mats(catalogues, per_game, sizes)``: the
    kit's mats (:class:`MatPlan`); ``catalogue``: how a copy's catalogue is learnt and read
    (:class:`~station.catalogue.wiring.CatalogueWiring`); ``tie_breakers``: a new
    tournament's tie-breakers when it names this game (``station.tournament``).

    ``sticker_size``: which of the kit's sizes its stickers take; ``tagged``: the
    catalogue keys whose pieces carry tag stickers, handed out in ``tag_order`` (fixed,
    so stickers already printed keep their ids); ``loose_tags``: tagged things outside the
    catalogue (the drone); ``tag_backs``: whether a piece that differs from its mirror
    image gets a back sticker; ``demo``: see :class:`DemoWiring`; ``ranked_placements``:
    ``packref advise GAME FILE``'s reader (:class:`Ranker`); ``command``: a ``packref``
    command of its own (:class:`GameCommand`); ``named_cells(state, action)``: the cells
    the action's words name, where the table page marks a flagged move (default: the
    action's ``row`` and ``col``, or each placed box's, on the acting player's boards:
    :func:`station.games.views.flagged_cells`); ``tapping(state, action)``: how the
    table page's board entry offers a legal action (None: the game has no board entry,
    the referee's list of legal actions is the way); ``reveal_picture(state, action)``: a
    reveal's component drawn for the picker (None: the picker's words only);
    ``advice_seconds``: the win-chances worker's budget a position unless the station sets
    one for every game (``serve --advice-seconds``): about 50 playouts from the position
    make a chance sure enough to show (docs/advisor.md, "Calibration").
    """

    name: str
    title: str
    order: int
    referee: Callable[[], Referee]
    scorer: Scorer
    presenter: Presenter
    reveal_label: Words
    describe: Words
    legend: str
    camera: CameraWiring | None
    mats: MatsOf | None
    catalogue: CatalogueWiring | None
    tie_breakers: tuple[str, ...]
    sticker_size: str = "cell"
    tagged: tuple[str, ...] = ()
    tag_order: int = 0
    loose_tags: tuple[str, ...] = ()
    tag_backs: bool = False
    demo: DemoWiring | None = None
    ranked_placements: Ranker | None = None
    command: GameCommand | None = None
    named_cells: Cells | None = None
    tapping: Tapping | None = None
    reveal_picture: Pictured | None = None
    advice_seconds: float = ADVICE_SECONDS
