"""What each table's camera saw last: its latest frame and the reading of it, for the camera
check page (``/tables/ID/camera``).

The camera's thread (:func:`station.live.camera.attach`) binds a :class:`CameraView` to
its table and publishes every frame it reads with that frame's reading (the reader's
mats, ``docs/contracts.md`` §6, and where each mat lies: :class:`vision.overlay.MatGeometry`);
the API reads the latest one. One lock guards each view: a frame and its reading are
always handed over together, never one without the other.

The view also says which mats the camera looks for and why (:class:`MatsLookedFor`): the
game's at the table, else the kit's mats of the game a person chose on the page (kept
in memory only: a station restarted forgets the choice), else none. ``remembered``
keeps what a page asked to be made of the current frame (its PNG) so that several
pages polling the same frame make it once.

Example::

    >>> views = CameraViews()
    >>> view = views.bind("t1", "0")
    >>> view.latest() is None and views.get("t1") is view and views.get("t2") is None
    True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CameraFrame", "CameraView", "CameraViews", "MatsLookedFor"]

#: Why the camera looks for the mats it looks for.
FROM_GAME, FROM_CHOICE, FROM_NOTHING = "game", "chosen", "none"


@dataclass(frozen=True)
class MatsLookedFor:
    """The mats read: ``specs`` (``vision.layout.MatSpec``) of ``game``, from ``why``
    (``"game"``: the game at the table; ``"chosen"``: the kit's mats of the game chosen
    on the camera page; ``"none"``: nothing to look for yet); ``labels``: what the kit
    prints on each mat, by mat number."""

    game: str | None = None
    why: str = FROM_NOTHING
    specs: tuple[Any, ...] = ()
    labels: dict[int, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "because": self.why, "mats": [
            {"id": spec.id, "rows": spec.rows, "cols": spec.cols, "kind": spec.kind,
             **({"label": self.labels[spec.id]} if spec.id in self.labels else {})}
            for spec in self.specs]}

    def mats_file(self) -> dict[str, Any]:
        """The mats as ``MATS.json`` names them (``packref vision read --mats``)."""
        return {"mats": [{"id": spec.id, "rows": spec.rows, "cols": spec.cols,
                          "kind": spec.kind} for spec in self.specs]}


@dataclass(frozen=True)
class CameraFrame:
    """One frame as the camera read it: ``number`` counts the view's frames from 1, ``at``
    is when it was read (seconds since the epoch); ``image`` is the frame (BGR, as read);
    ``mats`` its reading (§6, one entry per mat looked for); ``geometry`` where each mat
    found lies (``vision.overlay.MatGeometry`` by mat number); ``looked_for`` the mats."""

    number: int
    at: float
    image: Any
    mats: list[dict[str, Any]]
    geometry: dict[int, Any]
    looked_for: MatsLookedFor


class CameraView:
    """One table's camera: its source, latest frame and reading, and what it looks for."""

    def __init__(self, table_id: str, source: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.table_id = table_id
        self.source = source
        self._clock = clock
        self._lock = threading.Lock()
        self._frame: CameraFrame | None = None
        self._looked_for = MatsLookedFor()
        self._chosen: str | None = None
        self._status = "starting"
        self._made: dict[Any, Any] = {}

    def __repr__(self) -> str:
        frame = self._frame
        return (f"<CameraView {self.table_id} {self.source!r} "
                f"{'no frame' if frame is None else f'frame {frame.number}'}>")

    def publish(self, image: Any, mats: Sequence[dict[str, Any]],
                geometry: dict[int, Any]) -> CameraFrame:
        """The camera read ``image`` as ``mats`` (with their ``geometry``): now the latest."""
        with self._lock:
            number = 1 if self._frame is None else self._frame.number + 1
            self._frame = CameraFrame(number, self._clock(), image, list(mats), dict(geometry),
                                      self._looked_for)
            self._made = {}
            return self._frame

    def latest(self) -> CameraFrame | None:
        """The frame read last (None before the first)."""
        with self._lock:
            return self._frame

    def looking_for(self, mats: MatsLookedFor, status: str) -> None:
        """From now on the camera reads ``mats``; ``status`` says how it goes, in words."""
        with self._lock:
            self._looked_for, self._status = mats, status

    def looked_for(self) -> MatsLookedFor:
        with self._lock:
            return self._looked_for

    def say(self, status: str) -> None:
        """How the camera goes, in a few words ("reading", "the replay ended", an error)."""
        with self._lock:
            self._status = status

    def status(self) -> str:
        with self._lock:
            return self._status

    def choose(self, game: str | None) -> None:
        """The game whose kit mats to look for while the table has no game (None: none)."""
        with self._lock:
            self._chosen = game

    def chosen(self) -> str | None:
        with self._lock:
            return self._chosen

    def remembered(self, frame: CameraFrame, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` for ``frame`` and ``key`` (e.g. its PNG at some width), made once while
        ``frame`` is the latest (``make`` runs outside the lock: a slow one blocks nobody)."""
        with self._lock:
            if self._frame is frame and key in self._made:
                return self._made[key]
        value = make()
        with self._lock:
            if self._frame is frame:
                self._made[key] = value
        return value


class CameraViews:
    """Every camera table's view, by table id (one per station: ``Station.cameras``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._views: dict[str, CameraView] = {}

    def __repr__(self) -> str:
        return f"<CameraViews {sorted(self._views)}>"

    def bind(self, table_id: str, source: str) -> CameraView:
        """The view of ``table_id``'s camera ``source`` (the same view when bound again
        to the same source, so a page's choice outlives a camera that is reopened)."""
        with self._lock:
            view = self._views.get(table_id)
            if view is None or view.source != source:
                view = self._views[table_id] = CameraView(table_id, source)
            return view

    def get(self, table_id: str) -> CameraView | None:
        """The view of the table's camera, None when the table has none."""
        with self._lock:
            return self._views.get(table_id)
