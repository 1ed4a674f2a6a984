"""Photo sequences: teaching a copy (contracts.md §11) and a game being played.

Both keep one setup (camera, lens, lamps, table, papers) for the whole
sequence, as a fixed camera over a table does, and change only what lies on
the mats and who reaches over them. Each is written as a replay folder:
``0000.jpg``, ``0001.jpg``, ... (what ``packref vision watch --replay`` and
``packref catalogue learn --replay`` read), ``mats.json`` and ``truth.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from devkit.vision.photoshoot import kit
from devkit.vision.photoshoot.render import Flat, Frame, Photo, PlacedMat, Setup, render
from devkit.vision.photoshoot.scene import (
    _mirrored_lamp,
    hand_towards,
    new_card,
    place_piece,
    removal_items,
    sample_setup,
    warehouse_cards,
)

TEACH_MATS = {"small-warehouse": kit.MatSpec(0, 8, 10, "colour"),
              "removal": kit.MatSpec(0, 6, 8, "tags")}


@dataclass
class Pacing:
    """How people play, in frames."""

    hold: tuple[int, int] = (3, 6)  # each state stays on the table this long, no hands
    linger: tuple[int, int] = (1, 3)  # a hand stays over a just-laid card
    hover: tuple[int, int] = (1, 2)  # the card held still just above the mat first
    edge_glare: float = 0.4  # share of real-mode sessions with a lamp's glint at a cell's edge

    def draw(self, rng: np.random.Generator, name: str) -> int:
        low, high = getattr(self, name)
        return int(rng.integers(low, high + 1))


def _rng(rng: np.random.Generator | int | None) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng([0 if rng is None else int(rng), 0x5E9])


# --- held cards -----------------------------------------------------------------------

def held_flat(placed: PlacedMat, image: tuple[np.ndarray, np.ndarray], row: float,
              col: float, angle: float, height: float) -> Flat:
    """A card or piece held flat ``height`` mm over grid (row, col) of a mat."""
    albedo, alpha = image
    h, w = alpha.shape
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    x, y = kit.grid_to_px(row, col)
    matrix[:, 2] += (x, y)
    local = np.vstack([matrix, [0, 0, 1]]) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    return Flat(albedo, alpha, 0.0, placed.area_affine() @ local, z=height, elevated=True)


def _hover(rng: np.random.Generator, setup: Setup, placed: PlacedMat, thing, image,
           contents: dict) -> Frame:
    """The next thing held still just above where it goes, a hand pinching it."""
    height = float(rng.uniform(20, 50))
    dx, dy = rng.uniform(-0.3, 0.3, 2)
    flat = held_flat(placed, image, thing.row + dy, thing.col + dx, rng.uniform(-8, 8), height)
    rows, cols = image[1].shape[0] / kit.PPC, image[1].shape[1] / kit.PPC
    hand = hand_towards(rng, setup, placed, thing.row + dy + rows * rng.uniform(0.2, 0.8),
                        thing.col + dx + cols * rng.uniform(0.6, 1.0), pose="pinch",
                        lift=height + 8)
    return Frame(contents, [hand], [flat])


def _hand_over(rng: np.random.Generator, setup: Setup, placed: PlacedMat, row: float,
               col: float, contents: dict) -> Frame:
    hand = hand_towards(rng, setup, placed, row, col, lift=float(rng.uniform(5, 30)))
    return Frame(contents, [hand])


# --- teaching ----------------------------------------------------------------------------

def teaching_sequence(game: str, rng: np.random.Generator | int | None = 0,
                      mode: str = "real", out: str | Path | None = None,
                      count: int | None = None, still: tuple[int, int] = (4, 6)) -> dict:
    """Each component laid alone and still on its empty mat, then taken away.

    ``game`` is ``small-warehouse`` (the engine's 20 catalogue cards) or
    ``removal`` (12 items with their tag stickers and artwork); ``count``
    teaches only the first few. Returns the truth (and writes the replay
    folder when ``out`` is given): what was laid, in order, and every frame.
    """
    if game not in TEACH_MATS:
        raise ValueError(f"game must be small-warehouse or removal, not {game!r}")
    rng = _rng(rng)
    spec = TEACH_MATS[game]
    setup = sample_setup(rng, mode, [spec])
    placed = setup.mats[0]
    empty = {spec.id: kit.MatContents()}
    frames: list[tuple[Frame, dict]] = []
    laid: list[dict] = []
    for component in _components(game, rng, count):
        thing, contents, record = _lay_alone(rng, spec, component, setup.mode == "real")
        image = (kit.card_image(thing, np.random.default_rng(1)) if game == "small-warehouse"
                 else kit.piece_image(thing))
        centre_row = thing.row + len(_squares(thing)) / 2
        centre_col = thing.col + len(_squares(thing)[0]) / 2
        index = len(laid)
        laid.append(record)
        # the empty mat is seen a while between components, as long as one lies still
        steps = [(Frame(empty), "empty")] * int(rng.integers(still[0], still[1] + 1))
        hover = _hover(rng, setup, placed, thing, image, empty)
        steps += [(hover, "hover")] * Pacing().draw(rng, "hover")
        steps += [(_hand_over(rng, setup, placed, centre_row, centre_col, contents), "laying")]
        steps += [(Frame(contents), "still")] * int(rng.integers(still[0], still[1] + 1))
        steps += [(_hand_over(rng, setup, placed, centre_row, centre_col, contents), "taking")]
        steps += [(_hand_over(rng, setup, placed, centre_row, centre_col, empty), "leaving")]
        frames += [(frame, {"component": index, "phase": phase}) for frame, phase in steps]
    frames += [(Frame(empty), {"component": None, "phase": "empty"})] * still[0]
    truth = {"game": game, ("cards" if game == "small-warehouse" else "items"): laid}
    return _shoot(setup, frames, rng, truth, out)


def _components(game: str, rng: np.random.Generator, count: int | None) -> list:
    if game == "small-warehouse":
        chosen = list(warehouse_cards())
    else:
        items = removal_items()
        chosen = [items[i] for i in sorted(rng.choice(len(items), 12, replace=False))]
    return chosen[:count] if count is not None else chosen


def _squares(thing) -> list[str]:
    return thing.squares if isinstance(thing, kit.Card) else thing.shape


def _lay_alone(rng: np.random.Generator, spec: kit.MatSpec, component, real: bool):
    """One component anywhere on its mat, turned any way."""
    rotation = int(rng.choice([0, 90, 180, 270]))
    if spec.kind == "colour":
        card_id, squares = component
        turned = kit.turn(list(squares), rotation)
        row = int(rng.integers(0, spec.rows - len(turned) + 1))
        col = int(rng.integers(0, spec.cols - len(turned[0]) + 1))
        card = new_card(rng, turned, row, col, real)
        record = {"id": card_id, "squares": list(squares),
                  "laid": {"row": row, "col": col, "rotation": rotation, "squares": turned}}
        return card, {spec.id: kit.MatContents(cards=[card])}, record
    tag, shape = component
    filled = np.zeros((spec.rows, spec.cols), bool)
    piece = place_piece(rng, spec, filled, tag, list(shape), rotation)
    record = {"tag": tag, "shape": piece.shape,
              "laid": {"row": piece.row, "col": piece.col, "rotation": rotation}}
    return piece, {spec.id: kit.MatContents(pieces=[piece])}, record


# --- play ------------------------------------------------------------------------------------

def table_frames(states: list[dict], pacing: Pacing | None = None,
                 rng: np.random.Generator | int | None = 0, mode: str = "real",
                 out: str | Path | None = None) -> dict:
    """Frames of a game as people play it, from a list of table states.

    A state is ``{"mats": [{"id", "rows", "cols", "kind", "cells", "tags"?}]}``
    (the mats are the same in every state). Each state is held a few frames;
    before a new card lands it is held still just above the mat (truth: not
    laid yet), then a hand lingers over it. Returns the truth of every frame
    (and writes the replay folder when ``out`` is given).
    """
    pacing = pacing or Pacing()
    rng = _rng(rng)
    specs = [kit.MatSpec(m["id"], m["rows"], m["cols"], m["kind"], m.get("cell_mm", 20.0))
             for m in states[0]["mats"]]
    setup = sample_setup(rng, mode, specs)
    if setup.mode == "real" and rng.random() < pacing.edge_glare:
        _glint_at_cell_edge(rng, setup)
    layers = {spec.id: _Layers(spec) for spec in specs}
    frames: list[tuple[Frame, dict]] = []
    previous: dict[int, kit.MatContents] | None = None
    for index, state in enumerate(states):
        contents, news = {}, []
        for mat in state["mats"]:
            contents[mat["id"]], new = layers[mat["id"]].update(rng, mat, setup.mode == "real")
            news += [(mat["id"], thing) for thing in new]
        if previous is not None:
            for mat_id, thing in news:
                placed = next(p for p in setup.mats if p.spec.id == mat_id)
                image = (kit.card_image(thing, np.random.default_rng(1))
                         if isinstance(thing, kit.Card) else kit.piece_image(thing))
                for _ in range(pacing.draw(rng, "hover")):
                    frames.append((_hover(rng, setup, placed, thing, image, previous),
                                   {"state": index - 1, "laid": False, "phase": "hover"}))
            for mat_id, thing in news:
                placed = next(p for p in setup.mats if p.spec.id == mat_id)
                rows, cols = len(_squares(thing)), len(_squares(thing)[0])
                for _ in range(pacing.draw(rng, "linger")):
                    frame = _hand_over(rng, setup, placed, thing.row + rows / 2,
                                       thing.col + cols / 2, contents)
                    frames.append((frame, {"state": index, "laid": True, "phase": "linger"}))
        for _ in range(pacing.draw(rng, "hold")):
            frames.append((Frame(contents), {"state": index, "laid": True, "phase": "still"}))
        previous = contents
    return _shoot(setup, frames, rng, {"states": len(states)}, out)


def _glint_at_cell_edge(rng: np.random.Generator, setup: Setup) -> None:
    """A lamp whose glint on the glossy print sits on the edge between two cells."""
    placed = setup.mats[int(rng.integers(len(setup.mats)))]
    placed.gloss = max(placed.gloss, 0.6)
    setup._sheets.clear()
    lamp = _mirrored_lamp(rng, [placed], setup.camera)
    row = int(rng.integers(0, placed.spec.rows)) + 0.5
    col = int(rng.integers(1, placed.spec.cols)) * 1.0  # a vertical cell edge
    spot = placed.grid_world(np.array([row]), np.array([col]))[0]
    eye = setup.camera.centre
    lamp.position[:2] = spot[:2] + (spot[:2] - eye[:2]) * (lamp.position[2] / eye[2])
    lamp.radius = float(rng.uniform(20, 60))
    setup.lamps.append(lamp)
    setup.glare_peak = max(setup.glare_peak, float(rng.uniform(0.8, 2.0)))
    setup.shininess = float(rng.uniform(2000, 4000))


class _Layers:
    """What lies on one mat, kept from state to state so cards keep their place."""

    def __init__(self, spec: kit.MatSpec) -> None:
        self.spec = spec
        self.cells = ["." * spec.cols] * spec.rows
        self.cards: list[kit.Card] = []
        self.pieces: dict[tuple, kit.Piece] = {}

    def update(self, rng: np.random.Generator, mat: dict, real: bool):
        if self.spec.kind == "colour":
            return self._cards(rng, mat["cells"], real)
        return self._pieces(rng, mat)

    def _cards(self, rng: np.random.Generator, cells: list[str], real: bool):
        changed = [(r, c) for r in range(self.spec.rows) for c in range(self.spec.cols)
                   if cells[r][c] != self.cells[r][c]]
        self.cells = list(cells)
        if not changed:
            return kit.MatContents(cards=list(self.cards)), []
        if any(cells[r][c] == "." for r, c in changed):  # something was taken away
            self.cards = [new_card(rng, [row.replace("X", ".") for row in cells], 0, 0, real)]
            return kit.MatContents(cards=list(self.cards)), []
        rows = [r for r, _ in changed]
        cols = [c for _, c in changed]
        top, left = min(rows), min(cols)
        squares = ["".join(cells[r][c] if (r, c) in changed else "."
                           for c in range(left, max(cols) + 1))
                   for r in range(top, max(rows) + 1)]
        card = new_card(rng, squares, top, left, real)
        self.cards.append(card)
        return kit.MatContents(cards=list(self.cards)), [card]

    def _pieces(self, rng: np.random.Generator, mat: dict):
        covered = np.array([[ch == "X" for ch in row] for row in mat["cells"]])
        count, labels = cv2.connectedComponents(covered.astype(np.uint8), connectivity=4)
        tags = {(t["row"], t["col"]): t for t in mat.get("tags", [])}
        pieces, new = [], []
        for label in range(1, count):
            cells = np.argwhere(labels == label)
            top, left = cells.min(axis=0)
            bottom, right = cells.max(axis=0)
            key = tuple(map(tuple, cells))
            tag = next((tags[tuple(c)] for c in map(tuple, cells) if tuple(c) in tags), None)
            if key not in self.pieces:
                shape = ["".join("#" if labels[r, c] == label else "."
                                 for c in range(left, right + 1)) for r in range(top, bottom + 1)]
                tag_cell = (tag["row"] - top, tag["col"] - left) if tag else (0, 0)
                self.pieces[key] = kit.Piece(
                    shape, int(top), int(left), tag["id"] if tag else None, tag_cell,
                    tag["rotation"] if tag else 0, art_seed=int(rng.integers(1 << 30)),
                    dx=float(rng.uniform(-0.04, 0.04)), dy=float(rng.uniform(-0.04, 0.04)),
                    angle=float(rng.uniform(-2, 2)))
                new.append(self.pieces[key])
            pieces.append(self.pieces[key])
        return kit.MatContents(pieces=pieces), new


# --- shooting and writing -----------------------------------------------------------------------

def _shoot(setup: Setup, frames: list[tuple[Frame, dict]], rng: np.random.Generator,
           truth: dict, out: str | Path | None) -> dict:
    """Render the frames one by one (each written as soon as it is shot: a deck's
    few hundred frames would not fit in memory as images)."""
    records = []
    conditions: dict = {}
    mats_json: dict = {}
    for index, (frame, extra) in enumerate(frames):
        photo = render(setup, frame, rng, f"{index:04d}.jpg")
        records.append({"frame": index, **extra, "mats": photo.truth["mats"]})
        conditions = conditions or photo.truth["conditions"]
        mats_json = photo.mats_json
        if out is not None:
            write_replay([photo], out)
    truth = {**truth, "conditions": conditions, "frames": records}
    if out is not None:
        write_replay([], out, truth, mats_json)
    return truth


def write_replay(photos: list[Photo], out: str | Path, truth: dict | None = None,
                 mats_json: dict | None = None) -> Path:
    """A replay folder: numbered JPEGs, and mats.json and truth.json when given."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for photo in photos:
        (folder / photo.truth["image"]).write_bytes(photo.jpeg)
    mats_json = mats_json or (photos[0].mats_json if photos else None)
    if mats_json is not None:
        (folder / "mats.json").write_text(json.dumps(mats_json) + "\n")
    if truth is not None:
        (folder / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return folder
