"""Rendered teaching sessions: a person laying pieces one at a time, as the camera sees it.

Used by the tests, the benchmark and the pictures of ``docs/kit.md``. A
:class:`Rehearsal` is a camera fixed over one mat (tilted, turned, at the visual
spec's smallest cell size) photographing it with the project's renderer
(:mod:`vision.render`) or, given ``conditions``, with the independent real-camera
model (:mod:`devkit.vision.realistic`: colour casts, table textures and clutter, shadows,
vignetting, a lamp's glare, hands, a wide lens). Each scene is photographed once;
every later frame of it gets fresh sensor noise and JPEG.

A :class:`Teacher` is the person: lays each piece somewhere at random, turned at
random (a hand over the mat), keeps it still until packref says something, lays
it again when told it could not be read, takes it away once recorded, and waits
until the mat is seen empty — moving what hides it (a new photo: the hand gone,
the lamp moved) when told the mat cannot be seen empty. The frames it makes are
read by the reader and the :class:`~station.catalogue.learn.Learner` as they
come (:func:`teach`), exactly as ``packref catalogue learn`` reads them, and can
be written to a folder for ``--replay``.

Example::

    >>> from vision.layout import MatSpec
    >>> session = Rehearsal(MatSpec(0, 8, 10, "colour"), seed=1)
    >>> card = laid_card(["AAC", "DDC"], session.spec, np.random.default_rng(2))
    >>> lesson = teach(session, [card], "small-warehouse")
    >>> lesson.learner.entries, [note.kind for note in lesson.notes]
    ([{'id': 'c01', 'squares': ['AAC', 'DDC']}], ['ready', 'recorded', 'ready'])
    >>> lesson.teacher.log[0].tries, lesson.teacher.log[0].still_frames
    (1, 6)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from devkit.vision.realistic import realistic_photo
from station.catalogue.pieces import turned_clockwise
from station.copies import learner as copy_learner
from vision.config import DEFAULT_CONFIG
from vision.games.removal import footprint
from vision.layout import MatSpec
from vision.reader import Reader
from vision.render import MatContent, make_scene, photograph
from vision.stability import watch

CELL_PX = 40.0  # a little above the visual spec's smallest cell (36 px)
STILL_NOISE = 3.0  # σ of the fresh sensor noise between two frames of a still scene
JPEG_QUALITY = 80
REPLAY_JPEG_QUALITY = 95  # the frames written for ``--replay``
# A piece laid again (or the mat cleared again) this often at most. A person keeps trying:
# in the items session of tests/station/e2e/test_copy_catalogue.py a lamp's glare
# lies beside most places a 5-square piece fits, and I44 took 13 tries.
TRIES = 24
PATIENCE = 3  # a person waits this many times the stable frames for packref to answer
HAND_DRAWS = 30  # photos drawn to find a hand resting over the piece (``hand_held_still``)
DONE = ("recorded", "duplicate")  # what the learner says when it has the piece


class RehearsalError(RuntimeError):
    """The session could not go on: a piece never recorded, a mat never seen empty."""


@dataclass
class Laid:
    """One piece as laid: the mat content (``vision.render.MatContent``) and what it is;
    ``again`` lays the same piece anew (somewhere else, turned another way)."""

    content: Any
    truth: dict[str, Any]
    again: Callable[[np.random.Generator], Laid]
    hand_held_still: bool = False  # a hand rests over it as long as a still piece would


def laid_card(squares: list[str], spec: Any, rng: np.random.Generator) -> Laid:
    """A card turned at random, somewhere at random on the colour mat ``spec``."""
    turned = turned_clockwise(squares, int(rng.integers(4)))
    top = int(rng.integers(spec.rows - len(turned) + 1))
    left = int(rng.integers(spec.cols - len(turned[0]) + 1))
    content = MatContent.empty(spec)
    grid = [list(row) for row in content.cells]
    for r, row in enumerate(turned):
        for c, char in enumerate(row):
            grid[top + r][left + c] = char
    content.cells = ["".join(row) for row in grid]
    return Laid(content, {"squares": squares}, lambda again: laid_card(squares, spec, again))


def laid_piece(tag: int, shape: list[str], spec: Any, rng: np.random.Generator,
               one_square_only: bool = False) -> Laid:
    """A tagged piece (tag on the first square of its top row) turned at random on ``spec``."""
    rotation = int(rng.integers(4)) * 90
    relative = footprint(shape, 0, 0, rotation, False)
    rows = [r for r, _ in relative]
    cols = [c for _, c in relative]
    row = int(rng.integers(-min(rows), spec.rows - max(rows)))
    col = int(rng.integers(-min(cols), spec.cols - max(cols)))
    content = MatContent.empty(spec)
    content.place_piece([(row + r, col + c) for r, c in relative], (tag, row, col, rotation),
                        art_seed=tag)
    truth = {"tag": tag} if one_square_only else {"tag": tag, "shape": shape}
    return Laid(content, truth,
                lambda again: laid_piece(tag, shape, spec, again, one_square_only))


def realistic_photograph(scene: Any, rng: np.random.Generator,
                         conditions: tuple[str, ...]) -> Any:
    """:func:`devkit.vision.realistic.realistic_photo` of the session's fixed camera and mat."""
    return realistic_photo(rng, conditions, scene=scene)


class Rehearsal:
    """A camera fixed over one mat: photos of what lies on it, with or without a hand.

    ``conditions``: None for :mod:`vision.render`'s photos; else the real-camera model's
    conditions (:data:`devkit.vision.realistic.ALL_CONDITIONS` or a subset). Hands come only in
    the photos that ask for them: a person's hand over the mat is part of the lesson.
    """

    def __init__(self, spec: Any, seed: int, cell_mm: float = 20.0,
                 conditions: tuple[str, ...] | None = None) -> None:
        self.spec, self.conditions = spec, conditions
        self.rng = np.random.default_rng(seed)
        self.scene = make_scene(self.rng, [(spec, cell_mm)], min_cell_px=CELL_PX)

    def photo(self, content: Any, hands: bool) -> Any:
        """A new photo (``vision.render.Photo``) of the mat holding ``content``."""
        self.scene.mats[0].content = content
        if self.conditions is None:
            return photograph(self.scene, self.rng, hands=1 if hands else 0)
        wanted = tuple(c for c in self.conditions if hands or c != "hands")
        return realistic_photograph(self.scene, self.rng, wanted)

    def hand_over(self, content: Any) -> Any:
        """A photo with a hand resting over part of the piece of ``content``, the rest in
        view (the first of :data:`HAND_DRAWS` drawn photos whose truth says so; else the
        last)."""
        piece = [(r, c) for r, row in enumerate(content.cells) for c, char in enumerate(row)
                 if char != "."]
        for _ in range(HAND_DRAWS):
            photo = self.photo(content, hands=True)
            covered = [photo.truth["mats"][0]["covered"][r][c] == "1" for r, c in piece]
            if any(covered) and not all(covered):
                break
        return photo

    def again(self, image: np.ndarray) -> np.ndarray:
        """The same scene a frame later: fresh sensor noise and JPEG."""
        noise = self.rng.standard_normal(image.shape, dtype=np.float32) * STILL_NOISE
        encoded = cv2.imencode(".jpg", np.clip(image + noise, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1]
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


@dataclass
class PieceLog:
    """What laying one piece took: tries, frames of stillness, hands over the mat."""

    truth: dict[str, Any]
    tries: int = 0
    still_frames: int = 0  # frames with nothing moving: the piece, then the empty mat
    hands: int = 0  # times a hand came over the mat (laying, laying again, taking away)
    outcomes: list[str] = field(default_factory=list)  # what packref said after each try


Frames = Generator[np.ndarray, None, Any]


class Teacher:
    """The person teaching: lays pieces and does what the learner's notes say.

    The teacher's frames are read by ``learner`` as they are made (:func:`teach`):
    when a frame is asked for, the learner has seen every frame before it.
    """

    def __init__(self, session: Rehearsal, learner: Any,
                 stable: int = DEFAULT_CONFIG.stable_frames) -> None:
        self.session, self.learner, self.stable = session, learner, stable
        self.log: list[PieceLog] = []
        self._empty: np.ndarray | None = None  # the photo of the empty mat while it serves

    def frames(self, pieces: Iterable[Laid]) -> Iterator[np.ndarray]:
        """Every camera frame of laying ``pieces`` one by one."""
        empty = MatContent.empty(self.session.spec)
        start = PieceLog({})
        yield from self._until_ready(empty, start)
        for laid in pieces:
            log = PieceLog(laid.truth)
            self.log.append(log)
            lying = yield from self._lay(laid, log)
            log.hands += 1
            yield self.session.photo(lying.content, hands=True).image  # taking it away
            yield from self._until_ready(empty, log)

    def _lay(self, laid: Laid, log: PieceLog) -> Frames:
        """Frames of laying ``laid`` until it is recorded; the piece as it lies then."""
        for _ in range(TRIES):
            log.tries, log.hands = log.tries + 1, log.hands + 1
            yield self.session.photo(laid.content, hands=True).image  # laying it
            outcome = ""
            if laid.hand_held_still and log.tries == 1:
                held = self.session.hand_over(laid.content).image
                outcome = yield from self._still(held, log, again=False)
                log.outcomes.append(outcome)
            if outcome not in DONE:
                outcome = yield from self._still(self.session.photo(laid.content, False).image,
                                                 log)
                log.outcomes.append(outcome)
            if outcome in DONE:
                return laid
            laid = laid.again(self.session.rng)  # told to lay it again: anywhere, turned
        raise RehearsalError(f"{laid.truth} not recorded after {TRIES} tries: "
                             f"packref said {log.outcomes}")

    def _until_ready(self, empty: Any, log: PieceLog) -> Frames:
        """Frames of the empty mat until the learner says it is empty; the room is left as
        it is (the same photo, fresh noise) until the learner says the mat cannot be seen."""
        for _ in range(TRIES):
            if self._empty is None:
                self._empty = self.session.photo(empty, False).image
            outcome = yield from self._still(self._empty, log, until_ready=True)
            if outcome == "ready":
                return
            log.outcomes.append(outcome)
            self._empty = None  # the person moves what hides the mat
        raise RehearsalError(f"the mat was never seen empty after {TRIES} tries: "
                             f"packref said {log.outcomes}")

    def _still(self, image: np.ndarray, log: PieceLog, until_ready: bool = False,
               again: bool = True) -> Frames:
        """Frames of one still scene until the learner says something (a held hand: exactly
        the same image each frame); what it said, or ``silence``."""
        counts = dict(self.learner.counts)
        for frame in range(PATIENCE * self.stable):
            log.still_frames += 1
            yield image if frame == 0 or not again else self.session.again(image)
            said = [kind for kind, count in self.learner.counts.items()
                    if count > counts.get(kind, 0)]
            if until_ready:
                if not self.learner.waiting and frame + 1 >= self.stable:
                    return "ready"
                if "clear" in said:
                    return "clear"
            elif said:
                return said[0]
        return "silence"


@dataclass
class Lesson:
    """A session read: the learner, every note it said, and the teacher's log."""

    learner: Any
    notes: list[Any]
    teacher: Teacher
    frames: int


def recorded(frames: Iterable[np.ndarray], folder: Path | None) -> Iterator[np.ndarray]:
    """``frames`` as ``--replay`` will read them: each written to ``folder/NNNNN.jpg`` (if
    given) and passed on as decoded from that file."""
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for index, frame in enumerate(frames):
        encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, REPLAY_JPEG_QUALITY])[1]
        if folder is not None:
            (folder / f"{index:05d}.jpg").write_bytes(encoded.tobytes())
        yield cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def teach(session: Rehearsal, pieces: Iterable[Laid], game: str, folder: Path | None = None,
          stable: int = DEFAULT_CONFIG.stable_frames) -> Lesson:
    """Read a teacher laying ``pieces`` as ``packref catalogue learn`` would (the frames also
    written to ``folder``, a replay, if given)."""
    learner = copy_learner(game, session.spec.id)
    teacher = Teacher(session, learner, stable)
    counted = _Counted(recorded(teacher.frames(pieces), folder))
    notes = [note for reading in watch(counted, Reader([session.spec]), stable,
                                       keep_unknown=True)
             for note in learner.see(reading["frame"], reading["mats"])]
    return Lesson(learner, notes, teacher, counted.count)


class _Counted:
    def __init__(self, frames: Iterable[np.ndarray]) -> None:
        self.frames, self.count = frames, 0

    def __iter__(self) -> Iterator[np.ndarray]:
        for frame in self.frames:
            self.count += 1
            yield frame


def crop_to_mat(session: Rehearsal, image: np.ndarray, width: int = 360) -> np.ndarray:
    """The part of ``image`` around the session's mat, scaled to ``width`` pixels (for docs)."""
    spec = session.spec
    margin = 2.0
    corners = np.array([[-margin, -margin], [spec.cols + margin, -margin],
                        [spec.cols + margin, spec.rows + margin], [-margin, spec.rows + margin]])
    to_image = session.scene.table_to_image @ session.scene.mats[0].to_table
    outline = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    x0, y0 = np.maximum(outline.min(axis=0).astype(int), 0)
    x1, y1 = outline.max(axis=0).astype(int)
    part = image[y0:y1, x0:x1]
    return cv2.resize(part, (width, round(part.shape[0] * width / part.shape[1])),
                      interpolation=cv2.INTER_AREA)


def write_pictures(folder: Path, seed: int = 3) -> list[Path]:
    """The pictures of ``docs/kit.md``: what the camera sees at each step of teaching."""
    rng = np.random.default_rng(seed)
    colour = Rehearsal(MatSpec(0, 8, 10, "colour"), seed=seed)
    card = laid_card(["AAC", "DDC"], colour.spec, rng)
    tags = Rehearsal(MatSpec(1, 6, 8, "tags"), seed=seed + 1)
    item = laid_piece(57, ["#..#", "####"], tags.spec, rng)
    shots = [("catalogue-1-empty", colour, MatContent.empty(colour.spec), False),
             ("catalogue-2-laying", colour, card.content, True),
             ("catalogue-3-recorded", colour, card.content, False),
             ("catalogue-4-item", tags, item.content, False)]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, session, content, hands in shots:
        picture = crop_to_mat(session, session.photo(content, hands).image)
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, 70])
        written.append(path)
    return written


if __name__ == "__main__":  # python -m devkit.station.rehearsal docs/images
    import sys

    for written_path in write_pictures(Path(sys.argv[1])):
        print(written_path)
