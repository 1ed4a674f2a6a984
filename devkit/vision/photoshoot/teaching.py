"""Teaching a copy in a closed loop: a person at the table doing what packref says.

:func:`~devkit.vision.photoshoot.sequences.teaching_sequence` shoots a fixed
replay: each component laid once, held still, taken away. A person listens to
``packref catalogue learn`` instead. :func:`teach_copy` renders each photoshoot
frame only when the camera asks for it, once the reader and the learner have
seen every frame before it (run as ``packref catalogue learn`` runs them:
``watch(frames, reader, stable, keep_unknown=True)`` and ``Learner.see``), and the
:class:`Teacher` acts on what the learner said last, as
``devkit.station.rehearsal.Teacher`` does over the project's other image models:

- it lays each component alone on the empty mat, somewhere at random and turned
  at random (held just above the mat first, then a hand laying it), and keeps
  it still until the learner says something, :data:`PATIENCE` times the stable
  frames at most;
- told to lay it again (part of it cannot be read), or told nothing, it picks it
  up and lays it again elsewhere, turned at random, :data:`TRIES` times at most.
  It never looks at the truth: places are drawn at random, not away from the
  glare;
- once it is recorded (or called a duplicate) a hand takes it away, and the mat
  is shown empty until the learner is ready for the next one;
- told the mat cannot be seen empty, it moves what hides the mat. The hands are
  gone by then, so what hides it is the lamp's glint: the person tilts that lamp
  (its reflection lands on another spot of the mat, as bright), and keeps it so.
  The rehearsal does the same in its own way: it takes a new photo there, the
  hand gone and the lamp moved. This happens :data:`TRIES` times at most.

The session keeps one setup throughout (mats, paper, table, camera, lens,
lamps, glare), drawn as ``teaching_sequence`` draws it for the same seed, with
the same components. Its frames are written, as they are shot, to a replay
folder (``0000.jpg`` …, ``mats.json``, and ``truth.json`` with what was laid at
each try), which ``packref catalogue learn GAME --replay FOLDER --mats
FOLDER/mats.json`` reads to the same catalogue.
"""

from __future__ import annotations

import dataclasses
import json
import tempfile
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from devkit.vision.photoshoot import kit
from devkit.vision.photoshoot.render import Frame, Photo, render
from devkit.vision.photoshoot.scene import _mirrored_lamp, new_card, sample_setup
from devkit.vision.photoshoot.sequences import (
    TEACH_MATS,
    Pacing,
    _components,
    _hand_over,
    _hover,
    _rng,
    _squares,
    write_replay,
)
from station.catalogue.learn import Learner, Note
from station.cli.vision import load_reader
from station.copies import learner as copy_learner
from vision.config import DEFAULT_CONFIG
from vision.stability import watch

# A component laid again (or the mat cleared again) this often at most: as the rehearsal,
# whose items session took up to 13 tries beside a lamp's glare.
TRIES = 24
PATIENCE = 3  # the person waits this many times the stable frames for packref to answer
# Frames (0.3 s at 10 frames a second) between packref first speaking and the person acting:
# the first stable reading after a card is laid still holds the laying hand's ``?`` cells
# (the stability window keeps every ``?`` of its frames), so "lay it again" may come one
# frame before "recorded"; a person does not move within a tenth of a second.
REACTION = 3
DONE = ("recorded", "duplicate")  # what the learner says when it has the component
MAX_FRAMES = 10_000  # replay names have four digits: ``0000.jpg`` … ``9999.jpg``

Shots = Generator[Photo, None, Any]  # photos shot; what the scene ended with


@dataclass
class Component:
    """One card or item to teach: what the catalogue says it is (``record``) and how it
    looks (``look``: its card stock and gloss, or its artwork), which stay the same each
    time it is laid."""

    record: dict[str, Any]
    look: kit.Card | kit.Piece


@dataclass
class Lying:
    """A component as it lies on the mat for one try."""

    thing: kit.Card | kit.Piece
    contents: dict[int, kit.MatContents]
    laid: dict[str, Any]  # where and how it was laid (truth.json)


@dataclass
class PieceLog:
    """What teaching one component took: every try, what packref said, frames shot."""

    record: dict[str, Any]
    tries: list[dict[str, Any]] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)  # what packref said after each try
    frames: int = 0  # from the first hand bringing it to the mat seen empty after it

    @property
    def recorded(self) -> bool:
        return bool(self.outcomes) and self.outcomes[-1] in DONE


class TeachingSession:
    """The table and the camera over it: one setup, a frame rendered when asked for."""

    def __init__(self, game: str, rng: np.random.Generator | int | None = 0,
                 mode: str = "real", count: int | None = None) -> None:
        if game not in TEACH_MATS:
            raise ValueError(f"game must be small-warehouse or removal, not {game!r}")
        self.game, self.spec = game, TEACH_MATS[game]
        self.rng = _rng(rng)  # the camera's: the same setup and components as teaching_sequence
        self.setup = sample_setup(self.rng, mode, [self.spec])
        self.placed = self.setup.mats[0]
        chosen = _components(game, self.rng, count)
        # the person's own choices (places, turns, hands) do not shift the camera's noise
        self.person = np.random.default_rng(self.rng.integers(1 << 62))
        self.components = [self._component(c) for c in chosen]
        self.frames: list[dict[str, Any]] = []  # each frame's truth, as shot
        self.lamp_tilts = 0

    @property
    def mats_json(self) -> dict[str, Any]:
        return {"mats": [self.spec.to_json()]}

    @property
    def empty(self) -> dict[int, kit.MatContents]:
        return {self.spec.id: kit.MatContents()}

    def _component(self, component: tuple) -> Component:
        real = self.setup.mode == "real"
        if self.spec.kind == "colour":
            card_id, squares = component
            look = new_card(self.person, list(squares), 0, 0, real)
            return Component({"id": card_id, "squares": list(squares)}, look)
        tag, shape = component
        shape = list(shape)
        look = kit.Piece(shape, 0, 0, tag, (0, shape[0].index("#")), 0,
                         art_seed=int(self.person.integers(1 << 30)),
                         inset=float(self.person.uniform(0.03, 0.07)))
        return Component({"tag": tag, "shape": shape}, look)

    def lay(self, component: Component) -> Lying:
        """The component anywhere on the mat, turned any way, a little off the grid."""
        rng, spec = self.person, self.spec
        rotation = int(rng.choice([0, 90, 180, 270]))
        base = component.record["squares" if spec.kind == "colour" else "shape"]
        turned = kit.turn(base, rotation)
        row = int(rng.integers(0, spec.rows - len(turned) + 1))
        col = int(rng.integers(0, spec.cols - len(turned[0]) + 1))
        laid = {"row": row, "col": col, "rotation": rotation, "squares": turned}
        offset = {"dx": float(rng.uniform(-0.05, 0.05)), "dy": float(rng.uniform(-0.05, 0.05))}
        if spec.kind == "colour":
            thing = dataclasses.replace(component.look, squares=turned, row=row, col=col,
                                        angle=float(rng.uniform(-1.2, 1.2)), **offset)
            return Lying(thing, {spec.id: kit.MatContents(cards=[thing])}, laid)
        tag_cell = kit.turn_cell(base, (0, base[0].index("#")), rotation)
        thing = dataclasses.replace(component.look, shape=turned, row=row, col=col,
                                    tag_cell=tag_cell, rotation=rotation,
                                    angle=float(rng.uniform(-2, 2)), **offset)
        return Lying(thing, {spec.id: kit.MatContents(pieces=[thing])}, laid)

    def image_of(self, thing: kit.Card | kit.Piece) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(thing, kit.Card):
            return kit.card_image(thing, np.random.default_rng(1))
        return kit.piece_image(thing)

    def shoot(self, frame: Frame, **truth: Any) -> Photo:
        """Render the next frame; its truth is kept with ``truth`` (phase, component, try)."""
        index = len(self.frames)
        if index >= MAX_FRAMES:
            raise RuntimeError(f"a teaching session of more than {MAX_FRAMES} frames")
        photo = render(self.setup, frame, self.rng, f"{index:04d}.jpg")
        self.frames.append({"frame": index, **truth, "mats": photo.truth["mats"]})
        return photo

    def tilt_the_lamp(self) -> bool:
        """Turn the glinting lamp so that its reflection falls on another spot of the mat
        (False: no lamp glints on this table)."""
        if self.setup.glare_peak <= 0:
            return False
        moved = _mirrored_lamp(self.person, self.setup.mats, self.setup.camera)
        self.setup.lamps[-1].position = moved.position  # sample_lamps adds the glint last
        self.lamp_tilts += 1
        return True

    def truth(self, logs: list[PieceLog], stopped: str | None) -> dict[str, Any]:
        """truth.json: every component with each try's place and packref's answers."""
        key = "cards" if self.spec.kind == "colour" else "items"
        laid = [{**log.record, "tries": log.tries, "outcomes": log.outcomes,
                 "recorded": log.recorded} for log in logs]
        conditions = {k: v for k, v in self.setup.conditions.items() if k != "white_level"}
        return {"game": self.game, key: laid, "lamp_tilts": self.lamp_tilts,
                "stopped": stopped, "conditions": conditions, "frames": self.frames}


class Teacher:
    """The person teaching: lays components and does what the learner's notes say.

    Its photos are read by the learner as they are shot (:func:`teach_copy`): when a
    frame is asked for, the learner has seen every frame before it, and what it said
    is in :attr:`heard`. The person listens all the time, also while a hand is over
    the mat, and acts :data:`REACTION` frames after packref first speaks, on all it
    said by then.
    """

    def __init__(self, session: TeachingSession, learner: Learner,
                 stable: int = DEFAULT_CONFIG.stable_frames) -> None:
        self.session, self.learner, self.stable = session, learner, stable
        self.heard: list[Note] = []  # every note so far, in order (teach_copy adds them)
        self.log: list[PieceLog] = []
        self.stopped: str | None = None  # why the session ended early, if it did

    def photos(self) -> Iterator[Photo]:
        """Every camera frame of teaching the session's components one by one."""
        if not (yield from self._until_ready(PieceLog({}), None)):
            return
        for index, component in enumerate(self.session.components):
            log = PieceLog(component.record)
            self.log.append(log)
            lying = yield from self._lay(component, index, log)
            yield from self._take_away(lying, index, log)
            if not (yield from self._until_ready(log, index)):
                return

    def _lay(self, component: Component, index: int, log: PieceLog) -> Shots:
        """Frames of laying a component until it is recorded (or :data:`TRIES` tries);
        the component as it lies last."""
        for attempt in range(TRIES):
            lying = self.session.lay(component)
            log.tries.append(lying.laid)
            yield from self._bring(lying, index, attempt, log)
            outcome = yield from self._still(Frame(lying.contents), log, index, attempt)
            if outcome not in DONE and attempt + 1 < TRIES:
                since = len(self.heard)
                yield from self._hand(lying, lying.contents, index, attempt, "picking up", log)
                if _answer(self.heard[since:]) in DONE:  # recorded as the hand came: it is
                    outcome = _answer(self.heard[since:])  # taken away, not laid again
            log.outcomes.append(outcome)
            if outcome in DONE:
                break
        return lying

    def _bring(self, lying: Lying, index: int, attempt: int, log: PieceLog) -> Shots:
        """Held just above its place for a frame or two, then a hand laying it."""
        session = self.session
        hover = _hover(session.person, session.setup, session.placed, lying.thing,
                       session.image_of(lying.thing), session.empty)
        for _ in range(Pacing().draw(session.person, "hover")):
            log.frames += 1
            yield session.shoot(hover, component=index, attempt=attempt, phase="hover")
        yield from self._hand(lying, lying.contents, index, attempt, "laying", log)

    def _take_away(self, lying: Lying, index: int, log: PieceLog) -> Shots:
        """A hand over it, then over the mat it leaves empty."""
        attempt = len(log.tries) - 1
        yield from self._hand(lying, lying.contents, index, attempt, "taking", log)
        yield from self._hand(lying, self.session.empty, index, attempt, "leaving", log)

    def _hand(self, lying: Lying, contents: dict[int, kit.MatContents], index: int,
              attempt: int, phase: str, log: PieceLog) -> Shots:
        session = self.session
        rows, cols = len(_squares(lying.thing)), len(_squares(lying.thing)[0])
        frame = _hand_over(session.person, session.setup, session.placed,
                           lying.thing.row + rows / 2, lying.thing.col + cols / 2, contents)
        log.frames += 1
        yield session.shoot(frame, component=index, attempt=attempt, phase=phase)

    def _until_ready(self, log: PieceLog, index: int | None) -> Shots:
        """Frames of the empty mat until the learner is ready for the next component;
        told the mat cannot be seen empty, the person tilts the glinting lamp. False when
        it never was ready (the session stops)."""
        empty = Frame(self.session.empty)
        for _ in range(TRIES):
            outcome = yield from self._still(empty, log, index, until_ready=True)
            if outcome == "ready":
                return True
            log.outcomes.append(f"{outcome} (mat)")
            self.session.tilt_the_lamp()  # no glint: the person just keeps watching
        self.stopped = f"the mat was never seen empty after {TRIES} tries: {log.outcomes}"
        return False

    def _still(self, frame: Frame, log: PieceLog, component: int | None,
               attempt: int | None = None, until_ready: bool = False) -> Shots:
        """Frames of one still scene until the person acts on what the learner said (or on
        its silence: ``silence``); what it said."""
        since, first = len(self.heard), None
        phase = "empty" if until_ready else "still"
        for shown in range(PATIENCE * self.stable):
            log.frames += 1
            yield self.session.shoot(frame, component=component, attempt=attempt, phase=phase)
            if until_ready and not self.learner.waiting and shown + 1 >= self.stable:
                return "ready"  # as the rehearsal: told so, or nothing left to wait for
            if first is None and len(self.heard) > since:
                first = shown
            if first is not None and shown - first >= REACTION:
                return _answer(self.heard[since:])
        return _answer(self.heard[since:]) if len(self.heard) > since else "silence"


def _answer(notes: list[Note]) -> str:
    """What a person makes of what packref said: it has the piece if it said so at all,
    else the last thing it said."""
    kinds = [note.kind for note in notes]
    return next((kind for kind in kinds if kind in DONE), kinds[-1] if kinds else "silence")


@dataclass
class TeachingRun:
    """A closed-loop session read: the truth, what was learnt, every note, each log."""

    truth: dict[str, Any]
    learnt: dict[str, Any]
    notes: list[Note]
    log: list[PieceLog]
    stopped: str | None
    folder: Path | None

    @property
    def frames(self) -> int:
        return len(self.truth["frames"])


def teach_copy(game: str, rng: np.random.Generator | int | None = 0, mode: str = "real",
               out: str | Path | None = None, count: int | None = None,
               stable: int = DEFAULT_CONFIG.stable_frames) -> TeachingRun:
    """Teach ``game``'s components (``count``: only the first few) to a learner watching the
    camera, the person doing what it says; the replay folder is written to ``out`` if
    given."""
    session = TeachingSession(game, rng, mode, count)
    folder = Path(out) if out is not None else None
    with tempfile.TemporaryDirectory() as scratch:
        mats_file = (folder or Path(scratch)) / "mats.json"
        write_replay([], mats_file.parent, mats_json=session.mats_json)
        reader = load_reader(str(mats_file))
    learner = copy_learner(game, session.spec.id)
    teacher = Teacher(session, learner, stable)
    notes = teacher.heard
    for reading in watch(_images(teacher.photos(), folder), reader, stable, keep_unknown=True):
        notes.extend(learner.see(reading["frame"], reading["mats"]))
    truth = session.truth(teacher.log, teacher.stopped)
    if folder is not None:
        (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return TeachingRun(truth, learner.document(), notes, teacher.log, teacher.stopped, folder)


def _images(photos: Iterator[Photo], folder: Path | None) -> Iterator[np.ndarray]:
    """Each photo as ``--replay`` will read it (its JPEG decoded), written as it is shot."""
    for photo in photos:
        if folder is not None:
            write_replay([photo], folder)
        yield photo.image
