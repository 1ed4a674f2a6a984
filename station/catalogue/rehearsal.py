"""Rendered teaching sessions: a person laying pieces one at a time, as the camera sees it.

Used by the tests, the benchmark and the pictures of ``docs/kit.md``. The
project's renderer (:mod:`vision.render`) photographs one mat under a fixed
camera (tilted, turned, at the spec's smallest cell size): the empty mat, a
hand laying the piece, the piece still (fresh sensor noise and JPEG each frame),
a hand taking it away. Each piece lies somewhere at random, turned at random.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec
    >>> session = Rehearsal(MatSpec(0, 8, 10, "colour"), seed=1)
    >>> steps = session.plan([laid_card(["AAC", "DDC"], session.spec, np.random.default_rng(2))])
    >>> " ".join(step.what for step in steps)
    'empty empty empty hand piece piece piece hand empty empty empty'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from station.catalogue.config import STABLE_FRAMES
from station.catalogue.pieces import turned_clockwise

CELL_PX = 40.0  # a little above the visual spec's smallest cell (36 px)
STILL_NOISE = 3.0  # σ of the fresh sensor noise between two frames of a still scene
JPEG_QUALITY = 80


@dataclass
class Laid:
    """One piece as laid: the mat content (``vision.render.MatContent``) and what it is."""

    content: Any
    truth: dict[str, Any]
    hand_held_still: bool = False  # a hand rests over it as long as a still piece would


def laid_card(squares: list[str], spec: Any, rng: np.random.Generator) -> Laid:
    """A card turned at random, somewhere at random on the colour mat ``spec``."""
    from vision.render import MatContent

    turned = turned_clockwise(squares, int(rng.integers(4)))
    top = int(rng.integers(spec.rows - len(turned) + 1))
    left = int(rng.integers(spec.cols - len(turned[0]) + 1))
    content = MatContent.empty(spec)
    grid = [list(row) for row in content.cells]
    for r, row in enumerate(turned):
        for c, char in enumerate(row):
            grid[top + r][left + c] = char
    content.cells = ["".join(row) for row in grid]
    return Laid(content, {"squares": squares})


def laid_piece(tag: int, shape: list[str], spec: Any, rng: np.random.Generator,
               one_square_only: bool = False) -> Laid:
    """A tagged piece (tag on the first square of its top row) turned at random on ``spec``."""
    from vision.games.removal import footprint
    from vision.render import MatContent

    rotation = int(rng.integers(4)) * 90
    relative = footprint(shape, 0, 0, rotation, False)
    rows = [r for r, _ in relative]
    cols = [c for _, c in relative]
    row = int(rng.integers(-min(rows), spec.rows - max(rows)))
    col = int(rng.integers(-min(cols), spec.cols - max(cols)))
    content = MatContent.empty(spec)
    content.place_piece([(row + r, col + c) for r, c in relative], (tag, row, col, rotation),
                        art_seed=tag)
    return Laid(content, {"tag": tag} if one_square_only else {"tag": tag, "shape": shape})


@dataclass
class Step:
    """One frame of the session: ``what`` is ``empty``, ``piece`` or ``hand``."""

    what: str
    content: Any
    held: bool = False  # a still hand: the same hand photo again


class Rehearsal:
    """A camera fixed over one mat, and the frames of laying pieces on it one by one."""

    def __init__(self, spec: Any, seed: int, cell_mm: float = 20.0,
                 stable: int = STABLE_FRAMES) -> None:
        from vision.render import make_scene

        self.spec, self.stable = spec, stable
        self.rng = np.random.default_rng(seed)
        self.scene = make_scene(self.rng, [(spec, cell_mm)], min_cell_px=CELL_PX)

    def plan(self, pieces: list[Laid]) -> list[Step]:
        """Per piece: the empty mat held still, a hand laying it, the piece held still, a hand
        taking it away (a hand resting as long over a piece marked ``hand_held_still``)."""
        from vision.render import MatContent

        empty = MatContent.empty(self.spec)
        steps: list[Step] = []
        for laid in pieces:
            steps += [Step("empty", empty)] * self.stable + [Step("hand", laid.content)]
            if laid.hand_held_still:
                steps += [Step("hand", laid.content, held=True)] * self.stable
            steps += [Step("piece", laid.content)] * self.stable + [Step("hand", laid.content)]
        return steps + [Step("empty", empty)] * self.stable

    def frames(self, steps: list[Step]) -> Iterator[np.ndarray]:
        """The BGR frames of ``steps``: one photo per scene (the empty mat, each piece, each
        piece under a hand), and on every later frame of it fresh sensor noise and JPEG."""
        from vision.render import photograph

        photos: dict[tuple[int, str], np.ndarray] = {}
        last: tuple[int, str] | None = None
        for step in steps:
            key = (id(step.content), step.what)
            if key not in photos:
                self.scene.mats[0].content = step.content
                photos[key] = photograph(self.scene, self.rng,
                                         hands=1 if step.what == "hand" else 0).image
                yield photos[key]
            elif key == last and step.what == "hand" and step.held:
                yield photos[key]  # a hand resting: the very same reading again
            else:
                yield self._again(photos[key])
            last = key

    def _again(self, photo: np.ndarray) -> np.ndarray:
        noise = self.rng.standard_normal(photo.shape, dtype=np.float32) * STILL_NOISE
        encoded = cv2.imencode(".jpg", np.clip(photo + noise, 0, 255).astype(np.uint8),
                               [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1]
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR)

    def write(self, steps: list[Step], folder: Path) -> int:
        """The frames of ``steps`` as ``NNNN.jpg`` in ``folder`` (a replay); how many."""
        folder.mkdir(parents=True, exist_ok=True)
        count = 0
        for index, frame in enumerate(self.frames(steps)):
            cv2.imwrite(str(folder / f"{index:04d}.jpg"), frame,
                        [cv2.IMWRITE_JPEG_QUALITY, 95])
            count += 1
        return count


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
    from vision.layout import MatSpec

    rng = np.random.default_rng(seed)
    colour = Rehearsal(MatSpec(0, 8, 10, "colour"), seed=seed)
    card = laid_card(["AAC", "DDC"], colour.spec, rng)
    tags = Rehearsal(MatSpec(1, 6, 8, "tags"), seed=seed + 1)
    item = laid_piece(57, ["#..#", "####"], tags.spec, rng)
    shots = [("catalogue-1-empty", colour, [Step("empty", colour.plan([])[0].content)]),
             ("catalogue-2-laying", colour, [Step("hand", card.content)]),
             ("catalogue-3-recorded", colour, [Step("piece", card.content)]),
             ("catalogue-4-item", tags, [Step("piece", item.content)])]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, session, steps in shots:
        picture = crop_to_mat(session, next(session.frames(steps)))
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, 70])
        written.append(path)
    return written


if __name__ == "__main__":  # python -m station.catalogue.rehearsal docs/images
    import sys

    for written_path in write_pictures(Path(sys.argv[1])):
        print(written_path)
