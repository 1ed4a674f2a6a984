"""The camera source: a table's observations from its overhead camera (or a replay of one).

Frames come from a camera (an index) or a replay (a folder of images in name
order, or a video file). The vision reader (one :class:`vision.Reader`, its
detector reused for every frame) reads the mats of the table's game; the
stability filter (``vision.stability``: ``K`` equal frames, a mat's last good
pose kept while a hand hides its markers) passes on what holds still; the
game's reader (``vision.games``) turns those mats into what the game needs,
tags resolved to pieces through :mod:`station.tags`. The table is told only
when a game observation *changes*, in the camera referees' formats::

    {"kind": "warehouses", "warehouses": [...]}           # Small Warehouse
    {"kind": "vehicles", "players": [...]}                # Moving Day
    {"kind": "trucks", "trucks": [{"player": ...}, ...]}  # Removal
    {"kind": "drone-position", "t": 7.5, "card": 1}       # Pick 'n Packers' drone

Which mat is whose comes from the printable kit (``packref kit``, table 0 of
1 unless told) and the game's record (:mod:`station.games`): Small Warehouse
player *n* lies on the *n*-th warehouse mat, Moving Day player *n* on the *n*-th
set of vehicle mats, Removal player *n* on truck *n*'s frame, and Pick 'n
Packers' shop on the shop grid. The record's reader turns the mats into the
game's observations; a game without camera wiring is not read.

Time stamps (``t``, seconds from the source's start): frame index / ``fps``
for replays, the monotonic clock for cameras (``clock``, one small seam). A live
camera given the table's :class:`~station.live.clock_bridge.ClockBridge` (a table
with a live drone too) stamps in the **drone stream's clock** instead, once the
drone has sent a frame (the bridge's offset added to ``clock()``); before that,
or with no drone, it keeps its own clock.

Every frame read is also published, with its reading, to the table's camera view
(:mod:`station.live.camera_view`, the camera check page). Before a game starts the
camera still reads, a few frames a second (``PREVIEW_FPS``), the kit's mats of the game
chosen on that page (none chosen: the frame alone), so a camera can be aimed before play.

Example::

    layout = camera_layout("small-warehouse", ["Ana", "Ben"])
    for item in CameraSource(open_frames("/tmp/frames/small-warehouse"), layout, fps=3.0):
        print(item.to_json())
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from station.games import game_record, game_records
from station.games.camera import CameraError, CameraLayout, in_order
from station.kit import default_catalogues, mat_requests
from station.live.camera_view import FROM_CHOICE, FROM_GAME, CameraView, MatsLookedFor
from station.live.clock_bridge import ClockBridge
from station.live.sources import Timed, hand_on
from station.live.station import Station, UnknownTable
from station.tags import assign_tags, tags_for_game
from vision.config import DEFAULT_CONFIG
from vision.errors import KitError, SourceError, VisionError
from vision.kit import plan_mats, table_numbers
from vision.overlay import observation_geometry
from vision.quiet import quiet_stderr
from vision.reader import Reader
from vision.sources import ReplaySource, open_camera
from vision.stability import Stabilizer, stable_readings

__all__ = ["PREVIEW_FPS", "CameraError", "CameraLayout", "CameraSource", "GameReader", "attach",
           "camera_games", "camera_layout", "ensure_table", "looked_for_in_game",
           "looked_for_in_kit", "open_frames", "preview", "table_layout"]

LOG = logging.getLogger("packref.camera")
Clock = Callable[[], float]
DEFAULT_STABLE = DEFAULT_CONFIG.stable_frames  # the stability filter's frames
PREVIEW_FPS = 4.0  # frames read a second before a game starts (aiming needs no more)
PREVIEW_CHECK_S = 0.5  # how often a replay shown to its end looks for a game or a new choice


def camera_games() -> list[str]:
    """The games whose record says how the camera reads them."""
    return [record.name for record in game_records() if record.camera is not None]


# ------------------------------------------------------------------------ the mats
def _kit_mats(catalogues: dict[str, Any], game: str, table: int, tables: int) -> list[Any]:
    """The kit's mats of ``game`` for table ``table`` of ``tables`` (as ``packref kit`` prints)."""
    try:
        numbers = table_numbers(table, tables)
        requests = mat_requests(catalogues, len(numbers))
        return [mat for mat in plan_mats(requests, numbers) if mat.request.game == game]
    except KitError as error:
        raise CameraError(f"kit: {error}") from None


def camera_layout(game: str, players: list[str], table: int = 0, tables: int = 1,
                  catalogue: dict[str, Any] | None = None) -> CameraLayout:
    """The mats, owners and tags of ``game`` played by ``players`` at kit table ``table``
    (``catalogue``: the copy's own, whose pieces keep the tags stuck on them)."""
    record = game_record(game)
    if record is None or record.camera is None:
        raise CameraError(f"the camera does not read {game!r} "
                          f"(it reads {', '.join(camera_games())})")
    catalogues = default_catalogues()
    if catalogue is not None and game in catalogues:
        catalogues[game] = catalogue
    roles, specs = record.camera.roles(list(players),
                                       _kit_mats(catalogues, game, table, tables))
    layout = CameraLayout(game, list(players), specs, roles,
                          tags_for_game(assign_tags(catalogues), game))
    if record.camera.extend is not None:
        record.camera.extend(layout, catalogues.get(game, {}))
    return layout


def looked_for_in_game(layout: CameraLayout) -> MatsLookedFor:
    """The mats a game's layout reads, labelled as the kit prints them."""
    return MatsLookedFor(layout.game, FROM_GAME, tuple(layout.specs), _kit_labels(layout.game))


def looked_for_in_kit(game: str | None) -> MatsLookedFor:
    """Every mat the kit prints for ``game`` (table 0 of 1), None: no mats."""
    if game is None:
        return MatsLookedFor()
    mats = _kit_mats(default_catalogues(), game, 0, 1)
    return MatsLookedFor(game, FROM_CHOICE, tuple(mat.spec for mat in mats),
                         {mat.spec.id: mat.request.label for mat in mats})


def _kit_labels(game: str) -> dict[int, str]:
    return {mat.spec.id: mat.request.label for mat in _kit_mats(default_catalogues(), game, 0, 1)}


# ------------------------------------------------------------ mats → game observations
class GameReader:
    """Turns stable mat readings into the game's observations (its record's reader, which
    keeps what it needs from frame to frame)."""

    def __init__(self, layout: CameraLayout) -> None:
        record = game_record(layout.game)
        if record is None or record.camera is None:
            raise CameraError(f"the camera does not read {layout.game!r}")
        self.layout = layout
        self.reader = record.camera.reader(layout)
        self.reads_unknown = record.camera.reads_unknown

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        """Each game observation the mats show, by a key (each told when it changes)."""
        return self.reader.observations([in_order(mat) for mat in mats], t)


# ---------------------------------------------------------------------------- frames
def open_frames(where: str | int) -> Any:
    """A vision frame source: a camera index (``0``, ``"1"``), or a replay folder or video.

    Raises :class:`CameraError` with one line when it cannot be opened.
    """
    text = str(where).strip()
    try:
        if text.isdigit():
            return open_camera(int(text))
        if not text:
            raise CameraError("give a camera number or a replay path")
        return ReplaySource(Path(text))
    except SourceError as error:
        raise CameraError(str(error)) from None


def _good_frame(frame: Any) -> bool:
    """Whether ``frame`` is an image the reader can take (a colour or grey picture)."""
    return (isinstance(frame, np.ndarray) and frame.size > 0 and frame.ndim in (2, 3)
            and min(frame.shape[:2]) >= 8 and (frame.ndim == 2 or frame.shape[2] in (3, 4)))


class SkippingFrames:
    """A frame source whose bad frames are skipped, each told to ``on_bad(what)``: an
    image file of a replay folder OpenCV cannot read, an empty or malformed frame from a
    camera. One bad frame never ends a table's camera."""

    def __init__(self, frames: Any, on_bad: Callable[[str], None]) -> None:
        self.frames = frames
        self.on_bad = on_bad

    def __repr__(self) -> str:
        return f"<SkippingFrames {self.frames!r}>"

    def __iter__(self) -> Iterator[Any]:
        files = getattr(self.frames, "files", None)
        if isinstance(self.frames, ReplaySource) and files:
            yield from self._files(files)
            return
        for number, frame in enumerate(self.frames):
            if _good_frame(frame):
                yield frame
            else:
                self.on_bad(f"frame {number}")

    def _files(self, files: list[Path]) -> Iterator[Any]:
        for file in files:
            try:
                with quiet_stderr():
                    frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
            except cv2.error:
                frame = None
            if frame is None and not file.exists():
                raise CameraError(f"{file}: the replay's image is gone")
            if _good_frame(frame):
                yield frame
            else:
                self.on_bad(str(file))

    def close(self) -> None:
        close = getattr(self.frames, "close", None)
        if callable(close):
            close()


class _RepeatAwareReader:
    """A reader that answers a frame identical to the one before without reading it again
    (a replay's repeated frames; a live camera's frames always differ a little)."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.config = reader.config
        self.specs = reader.specs
        self._last: tuple[Any, Any] | None = None

    def observe(self, image: Any, remembered: dict[int, Any] | None = None) -> Any:
        if self._last is not None and self._last[0].shape == image.shape and np.array_equal(
                self._last[0], image):
            return self._last[1]
        observation = self.reader.observe(image, remembered)
        self._last = (image, observation)
        return observation


class _Published:
    """A reader whose every reading is published, with its frame, to a camera view."""

    def __init__(self, reader: Any, view: CameraView) -> None:
        self.reader = reader
        self.config = reader.config
        self.specs = reader.specs
        self.view = view

    def observe(self, image: Any, remembered: dict[int, Any] | None = None) -> Any:
        observation = self.reader.observe(image, remembered)
        self.view.publish(image, observation.mats, observation_geometry(self.specs, observation))
        return observation


class CameraSource:
    """Timed observations of one table from its frames (see the module).

    ``frames``: any iterable of BGR images (a vision source is closed at the end).
    ``fps``: replay timing (frame index / fps); without it, ``clock`` (monotonic).
    ``bridge``: without ``fps``, stamp in the drone stream's clock when the bridge
    knows it (``clock`` must then be the host monotonic clock the drone source uses).
    ``keeper``: the frame behind each item (the game archive,
    ``station.appliance.archive.FrameKeeper``): ``mark()`` before the item is handed
    on, ``keep(mark, item, frame)`` once the consumer asks for the next one.
    ``view``: the table's camera view, given every frame read and its reading.
    """

    def __init__(self, frames: Iterable[Any], layout: CameraLayout, *, fps: float | None = None,
                 stable_frames: int = DEFAULT_STABLE, clock: Clock = time.monotonic,
                 stop: threading.Event | None = None,
                 bridge: ClockBridge | None = None, keeper: Any = None,
                 lens: Any = None, view: CameraView | None = None,
                 part_hidden_frames: int = DEFAULT_CONFIG.part_hidden_frames) -> None:
        if fps is not None and fps <= 0:
            raise CameraError(f"fps must be more than 0, not {fps}")
        if stable_frames < 1:
            raise CameraError("the stability filter needs at least 1 frame")
        self.frames = frames
        self.layout = layout
        self.fps = fps
        self.stable_frames = stable_frames
        self.part_hidden_frames = part_hidden_frames
        self.clock = clock
        self.bridge = bridge
        self.stop = stop or threading.Event()
        # one detector for every frame; ``lens``: the camera's calibration (vision.lens)
        reader = _RepeatAwareReader(Reader(layout.specs, lens=lens))
        self.reader = reader if view is None else _Published(reader, view)
        self.game = GameReader(layout)
        self.sent: dict[str, dict[str, Any]] = {}
        self.keeper = keeper
        self.latest: Any = None  # the frame read last: the one that made a reading stable
        self._passed: dict[int, dict[str, Any]] = {}  # each mat as last passed on

    def __repr__(self) -> str:
        timing = f"{self.fps:g} fps" if self.fps else "live"
        return f"<CameraSource {self.layout.game} {timing} K={self.stable_frames}>"

    def _frames(self) -> Iterator[Any]:
        for frame in self.frames:
            if self.stop.is_set():
                return
            self.latest = frame
            yield frame

    def __iter__(self) -> Iterator[Timed]:
        started = self.clock()
        stabilizer = Stabilizer(self.stable_frames, fill=not self.game.reads_unknown)
        waiting: list[tuple[int, list[dict[str, Any]]]] = []  # (stable since frame, reading)
        index = 0
        try:
            for index, changed in stable_readings(self._frames(), self.reader, stabilizer):
                if changed is not None:
                    waiting.append((index, changed))
                while (mats := self._next_passed(waiting, index)) is not None:
                    yield from self._passed_on(mats, index, started)
            for _, mats in waiting:  # the frames ran out: what held is told as it is
                yield from self._passed_on(mats, index, started)
        except VisionError as error:
            raise CameraError(str(error)) from None
        finally:
            close = getattr(self.frames, "close", None)
            if callable(close):
                close()

    def _passed_on(self, mats: list[dict[str, Any]], index: int,
                   started: float) -> Iterator[Timed]:
        t = index / self.fps if self.fps else self._live_time(started)
        self._passed = {mat["id"]: mat for mat in mats if mat.get("found")}
        yield from self._changes(mats, round(t, 3))

    def _next_passed(self, waiting: list[tuple[int, list[dict[str, Any]]]],
                     index: int) -> list[dict[str, Any]] | None:
        """The next stable reading to pass on at frame ``index`` (taken off ``waiting``),
        None: none yet.

        A game that reads ``?`` (its record's ``reads_unknown``) is not told of a reading
        a hand or a held card still partly hides — a ``?`` beside a cell that changed
        since the reading passed on last (a glare away from the change is not waited
        for) — until a later one without holds (then the hidden one is dropped), or
        ``part_hidden_frames`` after it held (then it is passed on as it is: a glare that
        stays beside a change must not cost a state). Readings are passed in order.
        """
        while waiting:
            since, mats = waiting[0]
            if self._hides_change(mats) and index - since < self.part_hidden_frames:
                if not any(not self._hides_change(later) for _, later in waiting[1:]):
                    return None
                del waiting[0]  # what a hand hid is seen whole in a later reading
                continue
            del waiting[0]
            return mats
        return None

    def _hides_change(self, mats: list[dict[str, Any]]) -> bool:
        return self.game.reads_unknown and any(
            _hidden_beside_change(mat, self._passed.get(mat["id"]))
            for mat in mats if mat.get("found"))

    def _live_time(self, started: float) -> float:
        """A live frame's time: the drone stream's when the bridge knows it, else our own."""
        now = self.clock()
        drone_t = self.bridge.to_drone(now) if self.bridge is not None else None
        return now - started if drone_t is None else drone_t

    def _changes(self, mats: list[dict[str, Any]], t: float) -> Iterator[Timed]:
        """The game observations that differ from the last ones handed on."""
        for key, observation in self.game.observations(mats, t).items():
            compared = {k: v for k, v in observation.items() if k != "t"}
            if self.sent.get(key) == compared:
                continue
            self.sent[key] = compared
            if self._forwarded(observation):
                continue
            yield from self._kept(Timed(t, observation, "camera"))

    def _kept(self, item: Timed) -> Iterator[Timed]:
        """Yield ``item``; once it was handed on, give its frame to the keeper (if any)."""
        if self.keeper is None:
            yield item
            return
        frame, mark = self.latest, self.keeper.mark()
        yield item
        try:
            self.keeper.keep(mark, item, frame)
        except Exception:  # the archive must never stop a table
            LOG.exception("the frame behind an observation could not be kept")

    def _forwarded(self, observation: dict[str, Any]) -> bool:
        """Whether a live drone position went to the table's drone source (see the bridge)."""
        return (observation.get("kind") == "drone-position" and self.fps is None
                and self.bridge is not None and self.bridge.offset() is not None
                and self.bridge.forward(observation))


def _hidden_beside_change(mat: dict[str, Any], before: dict[str, Any] | None) -> bool:
    """Whether a ``?`` cell of ``mat`` touches (or is) a cell read differently from
    ``before`` (None: an empty mat), as a hand resting on a card just laid does."""
    rows = mat["cells"]
    old = before["cells"] if before else ["." * len(row) for row in rows]
    if [len(row) for row in old] != [len(row) for row in rows]:
        return False
    changed = {(r, c) for r, (row, old_row) in enumerate(zip(rows, old, strict=True))
               for c, (cell, was) in enumerate(zip(row, old_row, strict=True))
               if cell != "?" and cell != was}
    return any(cell == "?" and any((r + dr, c + dc) in changed for dr in (-1, 0, 1)
                                   for dc in (-1, 0, 1))
               for r, row in enumerate(rows) for c, cell in enumerate(row))


# ------------------------------------------------------------------ to a live table
def ensure_table(station: Station, table_id: str) -> None:
    """Create the table (named as its id) if the station has none by that id."""
    try:
        station.table(table_id)
    except UnknownTable:
        station.create_table(table_id, table_id)


def table_layout(station: Station, table_id: str) -> tuple[int, CameraLayout] | None:
    """The game now played at the table (its event's seq) and its camera layout (None: no game).

    Raises :class:`CameraError` for a game the camera cannot read (or not for so many players).
    """
    current = station.refresh(table_id).current  # a game another writer started counts too
    if current is None:
        return None
    return current.seq, camera_layout(current.game.name, list(current.state.players),
                                      catalogue=current.catalogue)


def _read_game(station: Station, table_id: str, source: CameraSource, game_seq: int,
               author: str) -> tuple[int, bool]:
    """Hand the source's items to the table while its game goes on; (items, source ran out)."""
    handed = 0
    for item in source:
        current = station.refresh(table_id).current
        if current is None or current.seq != game_seq:
            return handed, False  # another game started: read its mats instead
        hand_on(station, table_id, item, author)
        handed += 1
    return handed, True


def attach(station: Station, table_id: str, where: str, *, stop: threading.Event | None = None,
           stable_frames: int = DEFAULT_STABLE, author: str = "camera",
           wait_s: float = 2.0, bridge: ClockBridge | None = None, keeper: Any = None,
           lens: Any = None) -> int:
    """Drive a table from its camera until ``stop`` (``packref serve --camera``; blocking).

    The mats are those of the game now started at the table; a new game there starts a
    new source with its own layout. Before any game the frames are shown on the camera
    check page (:func:`preview`). Every frame read goes to the table's camera view
    (``station.cameras``). A replay ends
    when it runs out, and its errors end it; a camera that fails, or a game it
    cannot read, is logged and tried again every ``wait_s`` seconds. Returns
    the observations handed on. ``bridge``: the table's clock bridge when it has a
    live drone too (used by a camera, not a replay: see :class:`CameraSource`).
    ``keeper``: keeps the frames behind rulings (see :class:`CameraSource`); ``lens``: the
    camera's calibration (``packref vision calibrate``), else a distortion is estimated.
    """
    stop = stop or threading.Event()
    ensure_table(station, table_id)
    view = station.cameras.bind(table_id, str(where))
    replay = _is_replay(where)
    handed, warned = 0, ""
    while not stop.is_set():
        try:
            game = table_layout(station, table_id)
            if game is None:
                preview(station, table_id, where, view, stop, lens=lens)
                continue
            view.looking_for(looked_for_in_game(game[1]), "reading the mats of the game "
                             "at the table")
            frames = SkippingFrames(open_frames(where), partial(_bad_frame, station, table_id))
            source = CameraSource(frames, game[1], stable_frames=stable_frames,
                                  stop=stop, bridge=None if replay else bridge,
                                  keeper=keeper, lens=lens, view=view)
            count, ended = _read_game(station, table_id, source, game[0], author)
            handed += count
            station.source_faults.clear(table_id, "camera")  # it read again
            if ended and replay:
                view.say("the replay ended: its last frame stays")
                return handed
            continue
        except CameraError as error:
            view.say(f"{error}" if replay else f"{error}; trying again every {wait_s:g} s")
            if replay:
                raise
            station.source_faults.fail(table_id, "camera", f"the camera's frames stopped: "
                                       f"{error}; retrying every {wait_s:g} s")
            if str(error) != warned:
                LOG.warning("table %s: %s; trying again every %g s", table_id, error, wait_s)
                warned = str(error)
        stop.wait(wait_s)
    return handed


def _bad_frame(station: Station, table_id: str, what: str) -> None:
    """A bad frame skipped: counted for the table's page, logged (the first few)."""
    count = station.source_faults.skipped(table_id, "camera")
    if count <= 3:
        LOG.warning("table %s: %s is not an image the camera can read: skipped (%d so far)",
                    table_id, what, count)


def _is_replay(where: str | int) -> bool:
    return not str(where).strip().isdigit()


def preview(station: Station, table_id: str, where: str, view: CameraView,
            stop: threading.Event, *, lens: Any = None,
            clock: Clock = time.monotonic) -> None:
    """The camera before a game: until a game starts at the table, another game is chosen
    on the camera page, or ``stop``, its frames go to ``view`` at ``PREVIEW_FPS``, read
    with the kit's mats of the chosen game (none chosen: the frames alone, unread).

    A camera's frames between two reads are dropped; a replay is played at that pace,
    once, and its last frame stays. Raises :class:`CameraError` when the source fails.
    """
    chosen = view.chosen()
    mats = looked_for_in_kit(chosen)
    view.looking_for(mats, "no game at the table: " + (
        f"reading the kit's mats of {chosen}" if chosen else
        "choose a game on the camera page to look for its mats"))
    reader = Reader(list(mats.specs), lens=lens) if mats.specs else None

    def changed() -> bool:
        return (stop.is_set() or view.chosen() != chosen
                or station.refresh(table_id).current is not None)

    if _preview_frames(open_frames(where), view, reader, changed, stop, clock):
        return
    view.say("the replay ended: its last frame stays until a game starts or another game "
             "is chosen" if _is_replay(where) else "the camera gave no more frames")
    while not changed():
        stop.wait(PREVIEW_CHECK_S)


def _preview_frames(frames: Any, view: CameraView, reader: Reader | None,
                    changed: Callable[[], bool], stop: threading.Event, clock: Clock) -> bool:
    """Publish ``frames`` at ``PREVIEW_FPS`` until ``changed()``; whether it did change
    (False: the frames ran out)."""
    replay = isinstance(frames, ReplaySource)
    due = clock()
    try:
        for frame in frames:
            now = clock()
            if now < due:
                if not replay:
                    continue  # a camera's frame between two reads: dropped
                stop.wait(due - now)
            if changed():
                return True
            due = clock() + 1 / PREVIEW_FPS
            if reader is None:
                view.publish(frame, [], {})
                continue
            observation = reader.observe(frame)
            view.publish(frame, observation.mats, observation_geometry(reader.specs, observation))
    except VisionError as error:
        raise CameraError(str(error)) from None
    finally:
        frames.close()
    return changed()
