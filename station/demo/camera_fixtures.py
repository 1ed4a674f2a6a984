"""Camera replays for ``packref demo``: seeded games photographed by the project's renderer.

A *camera script* (``<game>.camera.json`` in the game's demo recordings,
:func:`station.demo.folders.recordings_dir`: game, players, seed, the actions and
the render seed) is a game played through the engine with
actions the camera can see wherever the game allows. At demo start each
script is rendered into the data directory (``camera/<game>/NNNN.jpg``) by
:mod:`vision.render`: one photo of the table after each action (perspective,
light, colour cast, noise and JPEG drawn afresh), now and then a hand over
the cells while the piece is laid, and a repeated frame so the stability
filter has something to do. Frames are rendered *as the demo plays them*, so
the first camera-driven action comes within seconds even on a Raspberry Pi;
later passes (and later demos with the same ``--data``) replay the folder.

Actions the camera cannot see (a Removal ``store``, a Moving Day take whose boxes all
leave play...) are declared, as a referee's button would. What the camera sees but
cannot tell alone (where a Moving Day helper card went, which supply card went into a
Small Warehouse hand) a person enters on the table page first, as the game's camera
wiring says (``entries``): the script's step keeps it as ``"person"``.

Write the scripts (each into its game's recordings, or with ``DIR`` all into one folder)
with::

    python -m station.demo.camera_fixtures

and render one script's frames without the demo (e.g. for ``packref vision
watch --replay``) with ``--render DIR``.
"""

from __future__ import annotations

import argparse
import hashlib
import heapq
import json
import logging
import os
import random
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from rules import Action, State, get_game
from station.demo.folders import recordings_dir
from station.games import game_record, game_records
from station.games.camera import CameraError, tag_ids
from station.live.camera import (
    DEFAULT_STABLE,
    CameraLayout,
    CameraSource,
    GameReader,
    camera_layout,
)
from station.live.sources import Recording, Timed
from station.live.translators import TableTranslator
from vision.layout import BORDER, MARGIN, outer_size
from vision.reader import Reader
from vision.render import FRAME_SIZE, Camera, MatContent, PlacedMat, Scene, mat_to_table, photograph
from vision.sources import ReplaySource

LOG = logging.getLogger("packref.camera")
SCRIPT_SUFFIX = ".camera.json"  # a game's script: GAME.camera.json among its recordings
PLAYERS = ["Ana", "Ben"]
FPS = 3.0  # frames a second of the replay: about one action a second
STABLE = DEFAULT_STABLE  # the stability filter's frames, as ``serve --camera`` reads
HAND_CHANCE = 0.15
REPEAT_CHANCE = 0.25  # a third frame of a state now and then
TRIES = 8  # random actions tried for one the camera sees
CELL_MM = 20.0
JPEG_QUALITY = 85
VERIFY_TRIES = 5  # renders of a clean frame until the reader reads its truth


# ----------------------------------------------------------------- state → what lies
def mat_contents(layout: CameraLayout, state: State) -> list[Any]:
    """What lies on each of the layout's mats in ``state`` (``vision.render.MatContent``),
    as the game's record lays it."""
    contents = {spec.id: MatContent.empty(spec) for spec in layout.specs}
    _lay(layout.game)(layout, state, contents, tag_ids(layout))
    return [contents[spec.id] for spec in layout.specs]


def _lay(game: str) -> Any:
    record = game_record(game)
    if record is None or record.camera is None or record.camera.lay is None:
        raise CameraError(f"the demo cannot film {game!r}")
    return record.camera.lay


def filmed_games() -> list[str]:
    """The games whose record lays out its state on the mats (the camera demo's games)."""
    return [record.name for record in game_records()
            if record.camera is not None and record.camera.lay is not None]


def truth_mats(contents: list[Any]) -> list[dict[str, Any]]:
    """The mats as a perfect reader would read them (docs/contracts.md §6's objects)."""
    return [{"id": content.spec.id, "found": True, "cells": list(content.cells),
             "tags": [{"id": t, "row": r, "col": c, "rotation": rot}
                      for t, r, c, rot in content.tags]} for content in contents]


def _seen(layout: CameraLayout, state: State) -> dict[str, dict[str, Any]]:
    return GameReader(layout).observations(truth_mats(mat_contents(layout, state)), 0.0)


def camera_sees(layout: CameraLayout, before: State, action: Action, after: State,
                person: dict[str, Any] | None = None) -> bool:
    """Whether the game's camera referee turns the change ``action`` makes into ``action``
    (after a person's ``{"kind": "person", **person}`` entries, when given)."""
    old, new = _seen(layout, before), _seen(layout, after)
    referee = TableTranslator(layout.game)
    found: list[Action] = []
    try:
        for key, observation in new.items():
            if old.get(key) != observation:
                found += referee.translate(before, observation, person)
    except Exception:  # the referee refuses what it sees: the camera cannot show it
        return False
    return found == [action]


# ----------------------------------------------------------------------- the scripts
def make_script(game: str, seed: int, players: list[str] | None = None) -> dict[str, Any]:
    """A whole seeded game of ``game``, choosing actions the camera sees where it can."""
    players = players or PLAYERS
    layout = camera_layout(game, players)
    rng = random.Random(seed)
    state = get_game(game).new_game(players, seed=seed)
    steps = []
    while not state.is_over():
        action, seen, person = _choose(layout, state, rng)
        steps.append({"action": action, "camera": seen, **({"person": person} if person else {})})
        state.apply(action)
    return {"camera-script": 1, "game": game, "players": players, "seed": seed,
            "render_seed": seed, "steps": steps,
            "final_scores": {score.player: score.total for score in state.scores()}}


def _choose(layout: CameraLayout, state: State, rng: random.Random
            ) -> tuple[Action, bool, dict[str, Any]]:
    """An action the camera sees alone, else one it sees after a person's entries, else any
    (declared); with the entries it needs."""
    actions = state.legal_actions()
    tried = []
    for action in rng.sample(actions, min(TRIES, len(actions))):
        after = state.clone()
        after.apply(action)
        if camera_sees(layout, state, action, after):
            return action, True, {}
        tried.append((action, after))
    wiring = game_record(layout.game).camera  # type: ignore[union-attr]
    for action, after in tried if wiring is not None and wiring.entries else ():
        person = wiring.entries(state, action)  # type: ignore[union-attr]
        if person and camera_sees(layout, state, action, after, person):
            return action, True, person
    return rng.choice(actions), False, {}


def replay_script(script: dict[str, Any]) -> State:
    """The engine's state after the script's actions."""
    state = get_game(script["game"]).new_game(script["players"], seed=script["seed"],
                                              options=script.get("options"))
    for step in script["steps"]:
        state.apply(step["action"])
    return state


# ------------------------------------------------------------------ the frame plan
@dataclass(frozen=True)
class Frame:
    """One frame of the replay: the state it shows (index into the script) and how."""

    state: int
    kind: str  # "clean", "hand" or "copy" (the frame before it, again)


def frame_plan(script: dict[str, Any]) -> list[Frame]:
    """The frames of a script: per state a hand now and then, a clean photo, repeats."""
    rng = random.Random(script["render_seed"])
    frames = []
    for state in range(len(script["steps"]) + 1):
        if state and rng.random() < HAND_CHANCE:
            frames.append(Frame(state, "hand"))
        frames += [Frame(state, "clean")] + [Frame(state, "copy")] * (STABLE - 1)
        if rng.random() < REPEAT_CHANCE:
            frames.append(Frame(state, "copy"))
    return frames


def declared_items(script: dict[str, Any], plan: list[Frame]) -> list[Timed]:
    """The actions the camera cannot see, declared, and a person's entries for those it sees
    (``"person"``), half a frame before their state shows."""
    first = {}
    for index, frame in enumerate(plan):
        first.setdefault(frame.state, index)
    items = []
    for number, step in enumerate(script["steps"]):
        t = round((first[number + 1] - 0.5) / FPS, 3)
        if not step["camera"]:
            items.append(Timed(t, {"kind": "declared", "action": step["action"]}, "declared"))
        elif step.get("person"):
            items.append(Timed(t, {"kind": "person", **step["person"]}, "person"))
    return items


def script_hash(script: dict[str, Any]) -> str:
    text = json.dumps([script, HAND_CHANCE, REPEAT_CHANCE, STABLE, JPEG_QUALITY], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ------------------------------------------------------------------------- rendering
def _rows_of_mats(layout: CameraLayout) -> list[list[Any]]:
    """The mats as they lie on the table: one row per player (the shop alone)."""
    by_id = {spec.id: spec for spec in layout.specs}
    rows = []
    for role in layout.roles.values():
        ids = list(role.values()) if isinstance(role, dict) else [role]
        rows.append([by_id[mat_id] for mat_id in ids])
    return rows


def _placed_mats(layout: CameraLayout, rng: Any) -> list[Any]:
    """Each mat on the table (millimetres), a little turned, players' rows one under another."""
    placed, y = [], 0.0
    for row in _rows_of_mats(layout):
        x, height = 0.0, 0.0
        for spec in row:
            width, tall = (side * CELL_MM for side in outer_size(spec))
            pad = (BORDER + MARGIN) * CELL_MM
            origin = (x + pad + float(rng.uniform(-4, 4)), y + pad + float(rng.uniform(-4, 4)))
            turned = mat_to_table(CELL_MM, float(rng.uniform(-4, 4)), origin)
            placed.append((spec.id, PlacedMat(MatContent.empty(spec), CELL_MM, turned)))
            x += width + float(rng.uniform(25, 45))
            height = max(height, tall)
        y += height + float(rng.uniform(25, 45))
    order = {spec.id: index for index, spec in enumerate(layout.specs)}
    return [mat for _, mat in sorted(placed, key=lambda pair: order[pair[0]])]


def _project(h: Any, points: Any) -> Any:
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                    h).reshape(-1, 2)


def _smallest_cell(h: Any, mats: list[Any]) -> float:
    """The shortest cell side, in pixels, of any mat under homography ``h``."""
    sides = []
    for mat in mats:
        spec = mat.content.spec
        grid = _project(h @ mat.to_table, [(0, 0), (spec.cols, 0), (0, spec.rows)])
        sides += [np.linalg.norm(grid[1] - grid[0]) / spec.cols,
                  np.linalg.norm(grid[2] - grid[0]) / spec.rows]
    return float(min(sides))


def _outline(mats: list[Any]) -> Any:
    """Every mat's outer corners, in table millimetres."""
    o = BORDER + MARGIN
    return np.concatenate([_project(mat.to_table, [
        (-o, -o), (mat.content.spec.cols + o, -o),
        (mat.content.spec.cols + o, mat.content.spec.rows + o),
        (-o, mat.content.spec.rows + o)]) for mat in mats])


def _aim(mats: list[Any], rng: Any, cell_px: float = 44.0) -> Any:
    """A camera homography (table mm → pixels) seeing every mat, cells about ``cell_px`` wide."""
    corners = _outline(mats)
    target = tuple(corners.mean(axis=0))
    for _ in range(50):
        camera = Camera(float(rng.uniform(0, 20)), float(rng.uniform(0, 360)), 1000.0)
        camera.focal_px = cell_px / _smallest_cell(camera.table_to_image(target), mats)
        h = camera.table_to_image(target)
        seen = _project(h, corners)
        low, high = seen.min(axis=0), seen.max(axis=0)
        room = np.array(FRAME_SIZE) * 0.94 - (high - low)
        if np.all(room > 0):
            shift = np.array(FRAME_SIZE) / 2 - (low + high) / 2 + rng.uniform(-0.4, 0.4, 2) * room
            return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ h
    raise ValueError(f"{len(mats)} mats do not fit in one frame at {cell_px:g} px a cell")


def table_scene(layout: CameraLayout, rng: Any) -> Any:
    """The table of a game under the overhead camera (``vision.render.Scene``), contents empty."""
    mats = _placed_mats(layout, rng)
    scene_h = _aim(mats, rng)
    for mat in mats:
        mat.content.seed = int(rng.integers(1 << 30))

    return Scene(mats, scene_h, int(rng.integers(1 << 30)))


class Renderer:
    """Renders a script's frames into a folder, one at a time (a generator of BGR images)."""

    def __init__(self, script: dict[str, Any], folder: Path) -> None:
        self.script = script
        self.folder = folder
        self.layout = camera_layout(script["game"], script["players"])
        self.plan = frame_plan(script)
        self.scene = table_scene(self.layout, np.random.default_rng(script["render_seed"]))
        self.reader = Reader(self.layout.specs)
        self.states = self._states()
        self.unread = 0  # clean frames kept although the reader misread them

    def _states(self) -> list[State]:
        state = get_game(self.script["game"]).new_game(self.script["players"],
                                                      seed=self.script["seed"])
        states = [state.clone()]
        for step in self.script["steps"]:
            state.apply(step["action"])
            states.append(state.clone())
        return states

    def done(self) -> bool:
        """Whether the folder holds this script's whole replay already."""
        return self.done_in(self.script, self.folder)

    @staticmethod
    def done_in(script: dict[str, Any], folder: Path) -> bool:
        """Whether ``folder`` holds the whole replay of ``script``."""
        marker = folder / "done.json"
        try:
            return json.loads(marker.read_text()).get("hash") == script_hash(script)
        except (OSError, ValueError, AttributeError):
            return False

    def __iter__(self) -> Iterator[Any]:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "done.json").unlink(missing_ok=True)
        data, image, photo = b"", None, self.folder / "none"
        for index, frame in enumerate(self.plan):
            path = self.folder / f"{index:04d}.jpg"
            path.unlink(missing_ok=True)
            if frame.kind == "copy":
                _link_or_copy(photo, path)
            else:
                data, photo = self._photo(index, frame), path
                path.write_bytes(data)
                image = cv2.imdecode(_bytes(data), cv2.IMREAD_COLOR)
            yield image
        (self.folder / "done.json").write_text(json.dumps({
            "hash": script_hash(self.script), "frames": len(self.plan), "fps": FPS,
            "unread": self.unread}) + "\n")

    def _photo(self, index: int, frame: Frame) -> bytes:
        """A JPEG of the frame's state; a clean one is rendered again until it reads true."""
        contents = mat_contents(self.layout, self.states[frame.state])
        for mat, content in zip(self.scene.mats, contents, strict=True):
            content.seed = mat.content.seed
            mat.content = content
        truth = GameReader(self.layout).observations(truth_mats(contents), 0.0)
        for attempt in range(VERIFY_TRIES):
            rng = np.random.default_rng([self.script["render_seed"], index, attempt])
            photo = photograph(self.scene, rng, hands=1 if frame.kind == "hand" else 0,
                               max_noise=3.0)
            data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1]
            if frame.kind == "hand" or self._reads(data, truth):
                break
        else:
            self.unread += 1
            LOG.warning("%s frame %d: the reader did not read its truth in %d renders",
                        self.script["game"], index, VERIFY_TRIES)
        return data.tobytes()

    def _reads(self, data: Any, truth: dict[str, Any]) -> bool:
        mats = self.reader.observe(cv2.imdecode(data, cv2.IMREAD_COLOR)).mats
        return GameReader(self.layout).observations(mats, 0.0) == truth


def _link_or_copy(source: Path, target: Path) -> None:
    """A repeated frame: a hard link to the photo it repeats (a copy where links fail)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _bytes(data: bytes) -> Any:
    return np.frombuffer(data, np.uint8)


# --------------------------------------------------------------------- for the demo
@dataclass
class CameraRecording(Recording):
    """A demo table driven by a camera replay: rendered as it plays, replayed once rendered."""

    script: dict[str, Any] = field(default_factory=dict)
    folder: Path = Path(".")
    keeper: Any = None  # keeps the frames behind rulings (station.appliance.archive)

    def progress_note(self) -> str:
        """What the next pass does with the frames: render them as it plays, or replay them."""
        frames = len(frame_plan(self.script))
        if Renderer.done_in(self.script, self.folder):
            return f"camera replay of {frames} frames from {self.folder}"
        return (f"rendering {frames} camera frames into {self.folder} as they play "
                "(later passes replay them)")

    def stream(self, stop: threading.Event | None = None) -> Iterator[Timed]:
        """The table's items: the camera source's observations and the declared actions."""
        renderer = Renderer(self.script, self.folder)
        frames = ReplaySource(self.folder) if renderer.done() else renderer
        source = CameraSource(frames, renderer.layout, fps=FPS, stable_frames=STABLE,
                              stop=stop, keeper=self.keeper)
        renderer.reader = source.reader  # a frame checked while rendered is not read again
        declared = declared_items(self.script, renderer.plan)
        return heapq.merge(iter(source), declared, key=lambda item: item.t)


def read_script(path: Path) -> dict[str, Any]:
    """A camera script; ValueError when the file is not one."""
    script = json.loads(path.read_text(encoding="utf-8"))
    if script.get("camera-script") != 1:
        raise ValueError(f"{path}: not a packref camera script")
    return script


def camera_recording(path: Path, data_dir: Path) -> CameraRecording:
    """The demo recording of a camera script, its frames under ``data_dir/camera/<game>``."""
    script = read_script(path)
    return CameraRecording(script["game"], list(script["players"]), int(script["seed"]),
                           dict(script.get("options") or {}),
                           final_scores=script.get("final_scores"), script=script,
                           folder=data_dir / "camera" / script["game"])


def main(argv: list[str] | None = None) -> None:
    """``python -m station.demo.camera_fixtures [DIR] [--seed S] [--render OUT]``."""

    parser = argparse.ArgumentParser(description="Write the camera scripts of the demo "
                                     "(and, with --render, render their frames).")
    parser.add_argument("directory", type=Path, nargs="?",
                        help="one folder for them all (default: each game's recordings/)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--render", type=Path, help="also render the frames into this folder")
    arguments = parser.parse_args(argv)
    for game in filmed_games():
        folder = arguments.directory or recordings_dir(game)
        folder.mkdir(parents=True, exist_ok=True)
        script = make_script(game, arguments.seed)
        path = folder / f"{game}{SCRIPT_SUFFIX}"
        path.write_text(json.dumps(script) + "\n", encoding="utf-8")
        seen = sum(step["camera"] for step in script["steps"])
        print(f"{path}: {len(script['steps'])} actions, {seen} seen by the camera")
        if arguments.render:
            count = sum(1 for _ in Renderer(script, arguments.render / game))
            print(f"{arguments.render / game}: {count} frames")


if __name__ == "__main__":
    main()
