"""A reading drawn on the frame it came from: what a person aiming the camera checks.

The reader's output (``docs/contracts.md`` §6) says what each mat shows but not where it
lies in the frame; that is its pose (:class:`vision.reader.Observation` keeps one per mat
read). :func:`mat_geometry` turns a pose into plain pixel positions — the grid's corners,
its outline (bent as the lens bends it), every cell's centre — and :func:`draw_reading`
draws a reading with them: each mat outlined with its number, found or not, every cell's
class at its centre (``?`` in a filled red box, so the cells the reader cannot tell stand
out), each tag boxed with its id. Nothing here changes what ``vision read`` prints.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec
    >>> from vision.reader import Reader
    >>> from vision.render import render_photo
    >>> spec = MatSpec(3, 4, 6, "colour")
    >>> photo = render_photo(np.random.default_rng(7), [(spec, 20.0)])
    >>> observation = Reader([spec]).observe(photo.image)
    >>> geometry = observation_geometry([spec], observation)
    >>> geometry[3].centres.shape
    (4, 6, 2)
    >>> draw_reading(photo.image, observation.mats, geometry).shape
    (540, 960, 3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.layout import MatSpec
from vision.mats import MatPose

__all__ = ["MAX_WIDTH", "MatGeometry", "draw_reading", "mat_geometry", "observation_geometry",
           "scaled"]

MAX_WIDTH = 960  # the camera page's picture
OUTLINE_STEPS = 12  # points along each side of a mat's outline (a lens bends straight lines)
FONT = cv2.FONT_HERSHEY_SIMPLEX

# Colours, BGR.
FOUND = (60, 200, 60)
NOT_FOUND = (40, 40, 230)
GRID = (200, 200, 40)
UNKNOWN = (40, 40, 220)
TAG = (0, 215, 255)
TEXT = (255, 255, 255)
SHADOW = (0, 0, 0)


@dataclass(frozen=True)
class MatGeometry:
    """Where one mat lies in a frame, in the frame's pixels (x, y).

    ``corners``: the grid's TL, TR, BR, BL corners (4×2); ``outline``: points round the
    grid's edge, closed (N×2); ``lattice``: every cell corner ((rows+1)×(cols+1)×2);
    ``centres``: every cell's centre (rows×cols×2).
    """

    id: int
    corners: np.ndarray
    outline: np.ndarray
    lattice: np.ndarray
    centres: np.ndarray

    def to_json(self) -> dict[str, Any]:
        """Plain lists of pixel positions, rounded to a tenth of a pixel."""
        return {"id": self.id, "corners": _rounded(self.corners),
                "outline": _rounded(self.outline), "centres": _rounded(self.centres)}

    def cell_px(self) -> float:
        """The median side of a cell, in pixels (what the labels are sized by)."""
        across = np.linalg.norm(np.diff(self.lattice, axis=1), axis=-1)
        down = np.linalg.norm(np.diff(self.lattice, axis=0), axis=-1)
        return float(np.median(np.concatenate([across.ravel(), down.ravel()])))

    def scaled(self, factor: float) -> MatGeometry:
        """The same mat in a frame resized by ``factor``."""
        return MatGeometry(self.id, self.corners * factor, self.outline * factor,
                           self.lattice * factor, self.centres * factor)


def _rounded(points: np.ndarray) -> list[Any]:
    return np.round(points, 1).tolist()


def mat_geometry(spec: MatSpec, pose: MatPose) -> MatGeometry:
    """The pixel positions of ``spec`` laid where ``pose`` puts it (see :class:`MatGeometry`)."""
    rows, cols = spec.rows, spec.cols
    xs, ys = np.meshgrid(np.arange(cols + 1, dtype=np.float64), np.arange(rows + 1))
    lattice = pose.to_image(np.stack([xs, ys], -1).reshape(-1, 2)).reshape(rows + 1, cols + 1, 2)
    cx, cy = np.meshgrid(np.arange(cols) + 0.5, np.arange(rows) + 0.5)
    centres = pose.to_image(np.stack([cx, cy], -1).reshape(-1, 2)).reshape(rows, cols, 2)
    corners = np.array([[0.0, 0.0], [cols, 0.0], [cols, rows], [0.0, rows]])
    steps = np.linspace(0.0, 1.0, OUTLINE_STEPS, endpoint=False)[:, None]
    edge = np.concatenate([start + steps * (end - start)
                           for start, end in zip(corners, np.roll(corners, -1, axis=0),
                                                 strict=True)])
    return MatGeometry(spec.id, pose.to_image(corners), pose.to_image(edge), lattice, centres)


def observation_geometry(specs: Sequence[MatSpec], observation: Any) -> dict[int, MatGeometry]:
    """Each read mat's geometry, by mat number, from an :class:`~vision.reader.Observation`
    (its ``poses``; a mat not found has none)."""
    by_id = {spec.id: spec for spec in specs}
    return {mat_id: mat_geometry(by_id[mat_id], pose)
            for mat_id, pose in observation.poses.items() if mat_id in by_id}


def scaled(frame: np.ndarray, max_width: int = MAX_WIDTH) -> tuple[np.ndarray, float]:
    """``frame`` shrunk to at most ``max_width`` pixels wide (never enlarged; 0: as it is),
    and the factor it was resized by."""
    width = frame.shape[1]
    if max_width <= 0 or width <= max_width:
        return frame.copy(), 1.0
    factor = max_width / width
    size = (max_width, max(1, round(frame.shape[0] * factor)))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA), factor


def draw_reading(frame: np.ndarray, mats: Sequence[Mapping[str, Any]],
                 geometry: Mapping[int, MatGeometry],
                 max_width: int = MAX_WIDTH) -> np.ndarray:
    """A copy of ``frame`` (BGR; shrunk to ``max_width``, 0: full size) with ``mats`` (a
    reading, §6) drawn where ``geometry`` puts them, and a legend of every mat, found or
    not, in the top-left corner."""
    image, factor = scaled(frame, max_width)
    for mat in mats:
        where = geometry.get(mat["id"])
        if mat.get("found") and where is not None:
            _draw_mat(image, mat, where.scaled(factor))
    _draw_legend(image, mats)
    return image


def _draw_mat(image: np.ndarray, mat: Mapping[str, Any], where: MatGeometry) -> None:
    """One found mat: its grid, outline and number, each cell's class, its tags."""
    cell = where.cell_px()
    thick = max(1, round(cell / 25))
    for row in where.lattice[1:-1]:
        _polyline(image, row, GRID, 1, closed=False)
    for col in where.lattice[:, 1:-1].transpose(1, 0, 2):
        _polyline(image, col, GRID, 1, closed=False)
    _polyline(image, where.outline, FOUND, 2 * thick, closed=True)
    tl = where.corners[0]
    _label(image, f"mat {mat['id']}", (tl[0], tl[1] - 0.3 * cell), max(0.45, cell / 45), FOUND)
    for r, line in enumerate(mat.get("cells", [])):
        for c, value in enumerate(line):
            _draw_cell(image, value, where.centres[r, c], cell)
    for tag in mat.get("tags", []):
        _draw_tag(image, tag, where, cell)


def _draw_cell(image: np.ndarray, value: str, centre: np.ndarray, cell: float) -> None:
    """A cell's class at its centre; ``?`` in a filled red box; ``.`` as a small dot."""
    x, y = float(centre[0]), float(centre[1])
    if value == ".":
        cv2.circle(image, (round(x), round(y)), max(1, round(cell / 14)), TEXT, -1, cv2.LINE_AA)
        return
    scale = max(0.3, min(1.2, cell / 40))
    if value == "?":
        half = max(4, round(cell * 0.3))
        cv2.rectangle(image, (round(x) - half, round(y) - half), (round(x) + half, round(y) + half),
                      UNKNOWN, -1)
    _centred_text(image, value, (x, y), scale, TEXT)


def _draw_tag(image: np.ndarray, tag: Mapping[str, Any], where: MatGeometry,
              cell: float) -> None:
    """A tag: its cell boxed, its id just under the cell's centre."""
    row, col = int(tag["row"]), int(tag["col"])
    box = np.array([where.lattice[row, col], where.lattice[row, col + 1],
                    where.lattice[row + 1, col + 1], where.lattice[row + 1, col]])
    _polyline(image, box, TAG, max(1, round(cell / 20)), closed=True)
    centre = where.centres[row, col]
    _centred_text(image, f"#{tag['id']}", (float(centre[0]), float(centre[1]) + 0.3 * cell),
                  max(0.3, min(0.9, cell / 60)), TAG)


def _draw_legend(image: np.ndarray, mats: Sequence[Mapping[str, Any]]) -> None:
    """One line per mat in the top-left corner: found (with its ``?`` cells) or not found."""
    lines = []
    for mat in mats:
        if not mat.get("found"):
            lines.append((f"mat {mat['id']}: not found", NOT_FOUND))
            continue
        unknown = sum(line.count("?") for line in mat.get("cells", []))
        lines.append((f"mat {mat['id']}: found" + (f", {unknown} ?" if unknown else ""), FOUND))
    scale = 0.55
    height = 22
    if lines:
        width = max(cv2.getTextSize(text, FONT, scale, 1)[0][0] for text, _ in lines) + 16
        shade = image[:height * len(lines) + 10, :width]
        shade[:] = (shade * 0.35).astype(image.dtype)
    for index, (text, colour) in enumerate(lines):
        cv2.putText(image, text, (8, 20 + index * height), FONT, scale, colour, 1, cv2.LINE_AA)


def _polyline(image: np.ndarray, points: np.ndarray, colour: tuple[int, int, int],
              thickness: int, closed: bool) -> None:
    shape = np.round(points).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(image, [shape], closed, colour, thickness, cv2.LINE_AA)


def _label(image: np.ndarray, text: str, where: tuple[float, float], scale: float,
           colour: tuple[int, int, int]) -> None:
    """Text with a dark box behind it, its lower-left corner at ``where`` (kept inside)."""
    (width, height), base = cv2.getTextSize(text, FONT, scale, 1)
    x = int(min(max(where[0], 0), max(image.shape[1] - width - 4, 0)))
    y = int(min(max(where[1], height + 4), image.shape[0] - base - 1))
    cv2.rectangle(image, (x - 2, y - height - 3), (x + width + 2, y + base), SHADOW, -1)
    cv2.putText(image, text, (x, y), FONT, scale, colour, 1, cv2.LINE_AA)


def _centred_text(image: np.ndarray, text: str, centre: tuple[float, float], scale: float,
                  colour: tuple[int, int, int]) -> None:
    """Text centred on ``centre``, outlined in black so it reads on any colour."""
    (width, height), _ = cv2.getTextSize(text, FONT, scale, 1)
    origin = (round(centre[0] - width / 2), round(centre[1] + height / 2))
    cv2.putText(image, text, origin, FONT, scale, SHADOW, 3, cv2.LINE_AA)
    cv2.putText(image, text, origin, FONT, scale, colour, 1, cv2.LINE_AA)
