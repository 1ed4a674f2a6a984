"""Synthetic overhead photos of the kit, drawn from ``docs/visual-spec.md``, with their truth.

The renderer lays random mats on a table, photographs them with a virtual
pinhole camera (tilted up to 30°, any in-plane rotation), and then spoils the
picture the way a real one is spoilt: hands and their shadows, uneven light, a
colour cast, lens blur, sensor noise and JPEG. It knows the truth of every cell
and tag; the reader never sees it.

Example::

    >>> import numpy as np
    >>> photo = render_photo(np.random.default_rng(1))
    >>> photo.image.shape
    (1080, 1920, 3)
    >>> sorted(photo.truth)
    ['mats', 'params']

Re-render the committed fixtures with ``python -m vision.render fixtures/vision``.
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.config import FIRST_TAG_ID, LAST_TAG_ID
from vision.layout import (
    BORDER,
    CLASS_COLOURS,
    GRID_LINE,
    GRID_LINE_WIDTH,
    MARGIN,
    MARKER_SIDE,
    PATCH_CLASSES,
    PATCH_SIDE,
    TAG_SIDE,
    TAG_WHITE_SIDE,
    WHITE,
    MatSpec,
    marker_centre,
    outer_size,
    patch_centre,
)

FRAME_SIZE = (1920, 1080)
_OFFSET = BORDER + MARGIN
_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
_SKIN_TONES = [(236, 200, 175), (225, 180, 150), (200, 150, 115), (170, 120, 85),
               (140, 95, 65), (110, 75, 55), (90, 60, 45)]
_SHAPES = [[(0, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1), (1, 0), (1, 1)],
           [(0, 0), (1, 0), (1, 1)], [(0, 0), (0, 1), (0, 2)], [(0, 0), (1, 0), (2, 0)]]


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return rgb[2], rgb[1], rgb[0]


@dataclass
class MatContent:
    """What lies on one mat: cell classes (row strings) and tags ``(id, row, col, rotation)``."""

    spec: MatSpec
    cells: list[str]
    tags: list[tuple[int, int, int, int]] = field(default_factory=list)
    art: dict[tuple[int, int], int] = field(default_factory=dict)
    seed: int = 0
    #: When set, the grid is a game board's own artwork (a frame's window), not grey cells.
    board_seed: int | None = None

    @classmethod
    def empty(cls, spec: MatSpec) -> MatContent:
        """A mat with nothing on it."""
        return cls(spec, ["." * spec.cols] * spec.rows)

    def place_piece(self, cells: list[tuple[int, int]], tag: tuple[int, int, int, int],
                    art_seed: int = 1) -> None:
        """Lay a piece over ``cells`` carrying ``tag`` = (id, row, col, rotation)."""
        grid = [list(row) for row in self.cells]
        for offset, (row, col) in enumerate(cells):
            grid[row][col] = "X"
            self.art[(row, col)] = art_seed * 1000 + offset
        self.cells = ["".join(row) for row in grid]
        self.tags.append(tag)


# -- drawing a flat mat ----------------------------------------------------------
class _Canvas:
    """A flat mat image at ``ppc`` pixels per cell, drawn in mat coordinates."""

    def __init__(self, spec: MatSpec, ppc: int) -> None:
        width, height = outer_size(spec)
        self.ppc = ppc
        self.image = np.full((round(height * ppc), round(width * ppc), 3), _bgr(WHITE), np.uint8)

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x + _OFFSET) * self.ppc - 0.5, (y + _OFFSET) * self.ppc - 0.5

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: tuple) -> None:
        corners = [self.px(x0, y0), self.px(x1, y0), self.px(x1, y1), self.px(x0, y1)]
        points = np.round(np.array(corners) * 16).astype(np.int32)
        cv2.fillConvexPoly(self.image, points, colour, cv2.LINE_AA, shift=4)

    def paste(self, picture: np.ndarray, centre: tuple[float, float], side: float) -> None:
        size = max(4, round(side * self.ppc))
        scaled = cv2.resize(picture, (size, size), interpolation=cv2.INTER_NEAREST)
        x, y = self.px(centre[0] - side / 2, centre[1] - side / 2)
        x0, y0 = round(x + 0.5), round(y + 0.5)
        self.image[y0:y0 + size, x0:x0 + size] = scaled


def marker_picture(marker_id: int, rotation: int = 0) -> np.ndarray:
    """A DICT_4X4_250 marker (BGR, 60 px), turned ``rotation`` degrees clockwise."""
    picture = cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, 60)
    picture = np.rot90(picture, -rotation // 90)
    return cv2.cvtColor(np.ascontiguousarray(picture), cv2.COLOR_GRAY2BGR)


def draw_mat(content: MatContent, ppc: int, rng: np.random.Generator) -> np.ndarray:
    """The printed mat with its cards, pieces and tags, as a BGR image at ``ppc`` px per cell."""
    spec = content.spec
    canvas = _Canvas(spec, ppc)
    canvas.rect(0, 0, spec.cols, spec.rows, _bgr(GRID_LINE))
    half = GRID_LINE_WIDTH / 2
    for row in range(spec.rows):
        for col in range(spec.cols):
            canvas.rect(col + half, row + half, col + 1 - half, row + 1 - half,
                        _bgr(CLASS_COLOURS["."]))
    if content.board_seed is not None:
        _draw_board(canvas, spec, np.random.default_rng(content.board_seed))
    for corner, marker_id in enumerate(spec.marker_ids()):
        canvas.paste(marker_picture(marker_id), marker_centre(spec, corner), MARKER_SIDE)
    if spec.has_patches:
        for col, name in enumerate(PATCH_CLASSES):
            x, y = patch_centre(col)
            h = PATCH_SIDE / 2
            canvas.rect(x - h, y - h, x + h, y + h, _bgr(CLASS_COLOURS[name]))
    if spec.kind == "colour":
        _draw_cards(canvas, content, rng)
    else:
        _draw_pieces(canvas, content, rng)
    return canvas.image


def _draw_board(canvas: _Canvas, spec: MatSpec, rng: np.random.Generator) -> None:
    """A game board's artwork in the grid: tinted squares with a printed motif each."""
    base = np.array(_art_colour(rng), float)
    for row in range(spec.rows):
        for col in range(spec.cols):
            tint = tuple(int(v) for v in np.clip(base * rng.uniform(0.8, 1.2) + 40, 0, 255))
            canvas.rect(col + 0.03, row + 0.03, col + 0.97, row + 0.97, tint)
            centre = canvas.px(col + 0.5, row + 0.5)
            cv2.circle(canvas.image, (round(centre[0]), round(centre[1])),
                       round(canvas.ppc * 0.25), _art_colour(rng), -1, cv2.LINE_AA)


def _draw_cards(canvas: _Canvas, content: MatContent, rng: np.random.Generator) -> None:
    for row, line in enumerate(content.cells):
        for col, name in enumerate(line):
            if name == ".":
                continue
            inset = rng.uniform(0.0, 0.1, 4)
            box = (col + inset[0], row + inset[1], col + 1 - inset[2], row + 1 - inset[3])
            edge = tuple(int(v * 0.6) for v in _bgr(CLASS_COLOURS[name]))
            canvas.rect(*box, edge)
            canvas.rect(box[0] + 0.02, box[1] + 0.02, box[2] - 0.02, box[3] - 0.02,
                        _bgr(CLASS_COLOURS[name]))


def _art_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(90, 256), rng.integers(70, 240)]]])
    return tuple(int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])


def _draw_pieces(canvas: _Canvas, content: MatContent, rng: np.random.Generator) -> None:
    ppc = canvas.ppc
    for (row, col), seed in content.art.items():
        art_rng = np.random.default_rng(seed)
        base, stripe = _art_colour(art_rng), _art_colour(art_rng)
        canvas.rect(col + 0.02, row + 0.02, col + 0.98, row + 0.98, base)
        x0, y0 = canvas.px(col, row)
        period = art_rng.uniform(0.15, 0.4) * ppc
        for k in range(int(ppc / period) + 1):
            start = (round(x0 + k * period), round(y0 + 0.04 * ppc))
            end = (round(x0 + k * period), round(y0 + 0.96 * ppc))
            if x0 + 0.04 * ppc < start[0] < x0 + 0.96 * ppc:
                cv2.line(canvas.image, start, end, stripe, max(1, round(period / 3)))
    for tag_id, row, col, rotation in content.tags:
        h = TAG_WHITE_SIDE / 2
        canvas.rect(col + 0.5 - h, row + 0.5 - h, col + 0.5 + h, row + 0.5 + h, (250, 250, 250))
        canvas.paste(marker_picture(tag_id, rotation), (col + 0.5, row + 0.5), TAG_SIDE)


# -- random content ---------------------------------------------------------------
def random_colour_cells(spec: MatSpec, rng: np.random.Generator) -> list[str]:
    """Random cell classes for a colour mat (about 40 % empty)."""
    names = np.array(list(".#ABCDE"))
    weights = np.array([0.4, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])
    grid = rng.choice(names, size=(spec.rows, spec.cols), p=weights)
    return ["".join(row) for row in grid]


def random_pieces(spec: MatSpec, rng: np.random.Generator, free_ids: list[int]) -> MatContent:
    """Random polyomino pieces on a tags mat, each with one tag (ids taken from ``free_ids``)."""
    grid = [["."] * spec.cols for _ in range(spec.rows)]
    content = MatContent(spec, [])
    for _ in range(int(spec.rows * spec.cols * 0.25)):
        shape = _SHAPES[rng.integers(len(_SHAPES))]
        row0, col0 = int(rng.integers(spec.rows)), int(rng.integers(spec.cols))
        cells = [(row0 + dr, col0 + dc) for dr, dc in shape]
        if not free_ids or any(r >= spec.rows or c >= spec.cols or grid[r][c] != "."
                               for r, c in cells):
            continue
        for r, c in cells:
            grid[r][c] = "X"
            content.art[(r, c)] = int(rng.integers(1 << 30))
        tag_row, tag_col = cells[rng.integers(len(cells))]
        content.tags.append((free_ids.pop(), tag_row, tag_col, int(rng.integers(4)) * 90))
    content.cells = ["".join(row) for row in grid]
    return content


# -- the camera ---------------------------------------------------------------------
@dataclass
class Camera:
    """A pinhole camera over the table (table units: millimetres, y towards the viewer)."""

    tilt_deg: float
    yaw_deg: float
    height_mm: float
    focal_px: float = 1.0
    centre_px: tuple[float, float] = (0.0, 0.0)

    def table_to_image(self, target: tuple[float, float]) -> np.ndarray:
        """The homography from table millimetres to image pixels."""
        t, y = math.radians(self.tilt_deg), math.radians(self.yaw_deg)
        rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        rotation = rx @ rz
        axis = rotation.T @ np.array([0.0, 0.0, 1.0])
        centre = np.array([target[0], target[1], 0.0]) - self.height_mm * axis
        k = np.array([[self.focal_px, 0, self.centre_px[0]],
                      [0, self.focal_px, self.centre_px[1]], [0, 0, 1]])
        return k @ np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ centre])


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def mat_to_table(cell_mm: float, angle_deg: float, origin: tuple[float, float]) -> np.ndarray:
    """The similarity taking mat coordinates (cells) to table millimetres."""
    a = math.radians(angle_deg)
    c, s = cell_mm * math.cos(a), cell_mm * math.sin(a)
    return np.array([[c, -s, origin[0]], [s, c, origin[1]], [0, 0, 1]])


# -- the scene ----------------------------------------------------------------------
@dataclass
class PlacedMat:
    """A mat's content and where it lies: mat coordinates → table millimetres."""

    content: MatContent
    cell_mm: float
    to_table: np.ndarray


@dataclass
class Photo:
    """A rendered photo (BGR, after JPEG) and its truth as a JSON-ready dict."""

    image: np.ndarray
    truth: dict[str, Any]


def random_specs(rng: np.random.Generator) -> list[tuple[MatSpec, float]]:
    """One to three random mats (distinct numbers) with their cell sizes in millimetres."""
    numbers = [int(n) for n in rng.permutation(12)]
    chosen = []
    for _ in range(int(rng.integers(1, 4))):
        kind = "colour" if rng.random() < 0.5 else "tags"
        if kind == "colour":
            spec = MatSpec(numbers.pop(), int(rng.integers(4, 9)), int(rng.integers(6, 11)), kind)
            chosen.append((spec, 20.0))
        elif rng.random() < 0.2:
            chosen.append((MatSpec(numbers.pop(), 3, 3, kind), 60.0))
        else:
            spec = MatSpec(numbers.pop(), int(rng.integers(3, 7)), int(rng.integers(3, 7)), kind)
            chosen.append((spec, 20.0))
    return chosen


def _lay_out(specs: list[tuple[MatSpec, float]], rng: np.random.Generator,
             free_ids: list[int]) -> list[PlacedMat]:
    placed, x = [], 0.0
    for spec, cell_mm in specs:
        width, height = outer_size(spec)
        angle = float(rng.uniform(-12, 12))
        centre = (x + width * cell_mm / 2, float(rng.uniform(-40, 40)))
        a = math.radians(angle)
        cx, cy = spec.cols / 2, spec.rows / 2
        origin = (centre[0] - cell_mm * (cx * math.cos(a) - cy * math.sin(a)),
                  centre[1] - cell_mm * (cx * math.sin(a) + cy * math.cos(a)))
        if spec.kind == "colour":
            content = MatContent(spec, random_colour_cells(spec, rng))
        else:
            content = random_pieces(spec, rng, free_ids)
        placed.append(PlacedMat(content, cell_mm, mat_to_table(cell_mm, angle, origin)))
        x += max(width, height) * cell_mm + float(rng.uniform(30, 80))
    return placed


def _cell_lattice(spec: MatSpec) -> np.ndarray:
    xs, ys = np.meshgrid(np.arange(spec.cols + 1), np.arange(spec.rows + 1))
    return np.stack([xs, ys], -1).reshape(-1, 2).astype(np.float64)


def _outer_corners(spec: MatSpec) -> np.ndarray:
    o = _OFFSET
    return np.array([[-o, -o], [spec.cols + o, -o], [spec.cols + o, spec.rows + o],
                     [-o, spec.rows + o]])


def _cell_px_range(mats: list[PlacedMat], table_to_image: np.ndarray) -> tuple[float, float]:
    sides = []
    for mat in mats:
        spec = mat.content.spec
        lattice = _apply(table_to_image @ mat.to_table, _cell_lattice(spec))
        grid = lattice.reshape(spec.rows + 1, spec.cols + 1, 2)
        sides.append(np.linalg.norm(np.diff(grid, axis=0), axis=-1).ravel())
        sides.append(np.linalg.norm(np.diff(grid, axis=1), axis=-1).ravel())
    every = np.concatenate(sides)
    return float(every.min()), float(every.max())


def _aim_camera(mats: list[PlacedMat], rng: np.random.Generator,
                min_cell_px: float) -> np.ndarray | None:
    corners = np.concatenate([_apply(m.to_table, _outer_corners(m.content.spec)) for m in mats])
    target = tuple(corners.mean(axis=0))
    camera = Camera(float(rng.uniform(0, 30)), float(rng.uniform(0, 360)), 1000.0)
    unit = camera.table_to_image(target)
    smallest, _ = _cell_px_range(mats, unit)
    wanted = float(rng.uniform(min_cell_px, min_cell_px * 1.6))
    for cell_px in (wanted, min_cell_px):
        camera.focal_px = cell_px / smallest
        scaled = camera.table_to_image(target)
        outline = np.concatenate([_apply(scaled @ m.to_table, _outer_corners(m.content.spec))
                                  for m in mats])
        low, high = outline.min(axis=0), outline.max(axis=0)
        if np.all(high - low < np.array(FRAME_SIZE) * 0.96):
            middle = (low + high) / 2
            shift = np.array(FRAME_SIZE) / 2 - middle + rng.uniform(-0.5, 0.5, 2) * (
                np.array(FRAME_SIZE) * 0.96 - (high - low))
            return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ scaled
    return None


def _table(rng: np.random.Generator) -> np.ndarray:
    width, height = FRAME_SIZE
    base = np.array([rng.uniform(60, 170), rng.uniform(70, 150), rng.uniform(90, 190)])
    coarse = rng.normal(0, 14, (9, 16, 1)) + rng.normal(0, 4, (9, 16, 3))
    texture = cv2.resize(coarse.astype(np.float32), (width, height),
                         interpolation=cv2.INTER_CUBIC)
    return np.clip(base + texture, 0, 255).astype(np.float32)


def _paint_mat(photo: np.ndarray, mat: PlacedMat, table_to_image: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    mat_to_image = table_to_image @ mat.to_table
    _, largest = _cell_px_range([mat], table_to_image)
    ppc = int(min(140, max(24, largest * 1.25)))
    flat = draw_mat(mat.content, ppc, np.random.default_rng(mat.content.seed))
    to_mat = np.array([[1 / ppc, 0, 0.5 / ppc - _OFFSET], [0, 1 / ppc, 0.5 / ppc - _OFFSET],
                       [0, 0, 1]])
    outline = _apply(mat_to_image, _outer_corners(mat.content.spec))
    x0, y0 = np.maximum(np.floor(outline.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(outline.max(axis=0)).astype(int) + 2, FRAME_SIZE)
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]])
    h = shift @ mat_to_image @ to_mat
    roi = photo[y0:y1, x0:x1]
    warped = cv2.warpPerspective(flat.astype(np.float32), h, (x1 - x0, y1 - y0),
                                 flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones(flat.shape[:2], np.float32), h, (x1 - x0, y1 - y0),
                               flags=cv2.INTER_LINEAR)[..., None]
    roi[:] = roi * (1 - mask) + warped * mask
    return mat_to_image


def _hand_mask(centre: np.ndarray, px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    width, height = FRAME_SIZE
    mask = np.zeros((height, width), np.uint8)
    angle = rng.uniform(0, 2 * math.pi)
    out = np.array([math.cos(angle), math.sin(angle)])
    side = np.array([-out[1], out[0]])
    arm = 35 * px_per_mm
    far = centre + out * 4000
    polygon = np.array([centre + side * arm, far + side * arm * 1.2, far - side * arm * 1.2,
                        centre - side * arm])
    cv2.fillConvexPoly(mask, np.round(polygon * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    axes = (round(48 * px_per_mm), round(42 * px_per_mm))
    cv2.ellipse(mask, tuple(np.round(centre).astype(int)), axes, math.degrees(angle), 0, 360,
                255, -1, cv2.LINE_AA)
    for finger in range(int(rng.integers(2, 6))):
        spread = angle + math.pi + (finger - 1.5) * 0.25 + rng.normal(0, 0.05)
        direction = np.array([math.cos(spread), math.sin(spread)])
        start = centre + direction * 35 * px_per_mm
        tip = start + direction * rng.uniform(45, 75) * px_per_mm
        cv2.line(mask, tuple(np.round(start).astype(int)), tuple(np.round(tip).astype(int)),
                 255, max(2, round(17 * px_per_mm)), cv2.LINE_AA)
    return mask


def _add_hands(photo: np.ndarray, mats: list[PlacedMat], homographies: list[np.ndarray],
               rng: np.random.Generator, count: int | None = None) -> np.ndarray:
    """Draw hands (default 0–2) with their shadows; return the mask of what they spoil (0..1)."""
    spoilt = np.zeros(photo.shape[:2], np.float32)
    for _ in range(int(rng.choice([0, 1, 1, 2])) if count is None else count):
        which = int(rng.integers(len(mats)))
        spec, h = mats[which].content.spec, homographies[which]
        if rng.random() < 0.3:
            point = np.array(marker_centre(spec, int(rng.integers(4))))
        else:
            point = rng.uniform([0, 0], [spec.cols, spec.rows])
        centre = _apply(h, point[None])[0]
        step = _apply(h, np.array([point, point + np.array([1.0, 0.0])]))
        px_per_mm = float(np.linalg.norm(step[1] - step[0])) / mats[which].cell_mm
        hand = _hand_mask(centre, px_per_mm, rng).astype(np.float32) / 255
        offset = rng.uniform(-30, 30, 2) * px_per_mm
        moved = cv2.warpAffine(hand, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]),
                               FRAME_SIZE)
        shadow = cv2.GaussianBlur(moved, (0, 0), float(rng.uniform(6, 18)) * px_per_mm)
        darkness = float(rng.uniform(0.2, 0.45))
        photo *= (1 - darkness * shadow)[..., None]
        tone = np.array(_bgr(_SKIN_TONES[rng.integers(len(_SKIN_TONES))]), np.float32)
        shade = 1 + 0.15 * cv2.GaussianBlur(rng.normal(0, 1, (27, 48)).astype(np.float32),
                                            (0, 0), 2)
        shade = cv2.resize(shade, FRAME_SIZE)[..., None]
        photo[:] = photo * (1 - hand[..., None]) + (tone * shade) * hand[..., None]
        spoilt = np.maximum(spoilt, np.maximum(hand, np.where(shadow * darkness > 0.02, 1, 0)))
    return spoilt


def _light_and_lens(photo: np.ndarray, rng: np.random.Generator,
                    params: dict[str, Any], max_noise: float = 8.0) -> np.ndarray:
    width, height = FRAME_SIZE
    slope = float(rng.uniform(0, 0.35))
    angle = rng.uniform(0, 2 * math.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    along = ((xs - width / 2) * math.cos(angle) + (ys - height / 2) * math.sin(angle)) / (
        height / 2)
    gain = np.clip(1 + slope * along, 0.3, None)
    cast = rng.uniform(0.8, 1.2, 3)
    exposure = float(rng.uniform(0.9, 1.02)) / (gain.max() * cast.max())
    photo = photo * gain[..., None] * (cast * exposure).astype(np.float32)
    blur = float(rng.uniform(0, 1.2))
    if blur > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = float(rng.uniform(0, max_noise))
    photo = photo + rng.normal(0, noise, photo.shape).astype(np.float32)
    quality = int(rng.integers(60, 96))
    encoded = cv2.imencode(".jpg", np.clip(photo, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    params.update(light_slope=round(slope, 3), cast=[round(c, 3) for c in cast],
                  blur=round(blur, 2), noise=round(noise, 2), jpeg=quality)
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR)


def _covered_cells(spec: MatSpec, spoilt: np.ndarray, h: np.ndarray) -> list[str]:
    ppc = 8
    grown = cv2.dilate((spoilt > 0.01).astype(np.uint8), np.ones((5, 5), np.uint8))
    to_mat = np.array([[1 / ppc, 0, 0.5 / ppc], [0, 1 / ppc, 0.5 / ppc], [0, 0, 1]])
    flat = cv2.warpPerspective(grown, h @ to_mat, (spec.cols * ppc, spec.rows * ppc),
                               flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    blocks = flat.reshape(spec.rows, ppc, spec.cols, ppc).max(axis=(1, 3))
    return ["".join("1" if v else "0" for v in row) for row in blocks]


@dataclass
class Scene:
    """Mats laid on a table under a camera: photograph it as often as you like."""

    mats: list[PlacedMat]
    table_to_image: np.ndarray
    table_seed: int


def make_scene(rng: np.random.Generator, specs: list[tuple[MatSpec, float]] | None = None,
               min_cell_px: float = 36.0) -> Scene:
    """Random content on ``specs`` (default: random mats), seen by a random camera."""
    for _ in range(50):
        chosen = specs if specs is not None else random_specs(rng)
        free_ids = [int(i) for i in rng.permutation(np.arange(FIRST_TAG_ID, LAST_TAG_ID + 1))]
        mats = _lay_out(chosen, rng, free_ids)
        table_to_image = _aim_camera(mats, rng, min_cell_px)
        if table_to_image is not None:
            for mat in mats:
                mat.content.seed = int(rng.integers(1 << 30))
            return Scene(mats, table_to_image, int(rng.integers(1 << 30)))
    raise ValueError("these mats do not fit in one frame at the wanted cell size")


def _truth(mat: PlacedMat, covered: list[str]) -> dict[str, Any]:
    spec = mat.content.spec
    return {
        "id": spec.id, "rows": spec.rows, "cols": spec.cols, "kind": spec.kind,
        "cells": mat.content.cells, "covered": covered,
        "tags": [{"id": t, "row": r, "col": c, "rotation": rot, "covered": covered[r][c] == "1"}
                 for t, r, c, rot in mat.content.tags],
    }


def photograph(scene: Scene, rng: np.random.Generator, hands: int | None = None,
               max_noise: float = 8.0) -> Photo:
    """One photo of ``scene`` with ``hands`` hands (default: 0–2 at random) and fresh light.

    Sensor noise is drawn up to ``max_noise`` (σ, of 255).
    """
    photo = _table(np.random.default_rng(scene.table_seed))
    homographies = [_paint_mat(photo, mat, scene.table_to_image, rng) for mat in scene.mats]
    spoilt = _add_hands(photo, scene.mats, homographies, rng, hands)
    params: dict[str, Any] = {}
    image = _light_and_lens(photo, rng, params, max_noise)
    truth = [_truth(mat, _covered_cells(mat.content.spec, spoilt, h))
             for mat, h in zip(scene.mats, homographies, strict=True)]
    return Photo(image, {"mats": truth, "params": params})


def render_photo(rng: np.random.Generator,
                 specs: list[tuple[MatSpec, float]] | None = None,
                 min_cell_px: float = 36.0) -> Photo:
    """A random photo of ``specs`` (default: random mats), with its truth."""
    return photograph(make_scene(rng, specs, min_cell_px), rng)


def render_set(out: Path, count: int, seed: int, quality: int = 85) -> None:
    """Write ``count`` photos with their truth (``NNN.jpg`` + ``NNN.json``) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for index in range(count):
        photo = render_photo(rng)
        cv2.imwrite(str(out / f"{index:03d}.jpg"), photo.image,
                    [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / f"{index:03d}.json").write_text(json.dumps(photo.truth, indent=1) + "\n")


def main(argv: list[str] | None = None) -> None:
    """``python -m vision.render OUT [--count N] [--seed S]``: render a set of photos."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    render_set(arguments.out, arguments.count, arguments.seed)


if __name__ == "__main__":
    main()
