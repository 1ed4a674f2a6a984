"""A second, independent model of a real camera over the kit, for validation only.

``vision.render`` draws the photos the reader was developed on. This module
spoils the same printed kit in ways written apart from the reader's
assumptions, so that a benchmark on it does not flatter the reader:

- the table is wood grain, woven cloth or gravel, with printed text pages
  and loose ArUco markers (other mats' corners, tags) lying beside the mats;
- light is applied in *linear* light and converted to sRGB afterwards, with
  each channel's gain drawn independently in 0.8–1.2, vignetting (radial
  falloff up to 30 % at the corners), soft shadows of things beside the
  table (blurred polygons, up to 45 % darker) and an auto-exposure that may
  clip the paper white;
- a lamp's glare: specular blobs added in linear light, saturating the
  sensor (cells where it is strong are counted as covered: ``?`` is right);
- hands of random skin tone (ellipse palm, capsule arm, finger strokes);
- a wide lens: barrel distortion ``r_d = r (1 + k1 r² + k2 r⁴)`` (``r``
  normalised by a focal length of 0.9 × the image width) applied with
  ``cv2.remap``; then blur, sensor noise and JPEG.

Only the printed kit itself (``vision.render.draw_mat``, the mats' layout and
the camera's pose from ``vision.render.make_scene``) is shared.

Example::

    >>> import numpy as np
    >>> photo = realistic_photo(np.random.default_rng(3))
    >>> photo.image.shape, sorted(photo.truth["params"])[:3]
    ((1080, 1920, 3), ['blur', 'clutter', 'conditions'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.layout import BORDER, MARGIN, MatSpec
from vision.render import (
    FRAME_SIZE,
    Camera,
    MatContent,
    Photo,
    PlacedMat,
    Scene,
    draw_mat,
    make_scene,
    mat_to_table,
)

_OFFSET = BORDER + MARGIN
_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
#: Every condition a photo may be spoilt by; ``conditions`` picks a subset.
ALL_CONDITIONS = ("cast", "texture", "clutter", "shadow", "vignette", "glare", "hands",
                  "distortion")


@dataclass(frozen=True)
class Strength:
    """How hard each condition may be (the spec's real-camera envelope by default)."""

    gain_low: float = 0.8
    gain_high: float = 1.2
    vignette: float = 0.30
    shadow: float = 0.45
    k1_low: float = -0.28
    k1_high: float = 0.0
    k2: float = 0.04
    blur: float = 1.2
    noise: float = 8.0
    jpeg_low: int = 60
    #: Off-diagonal share of each channel's light leaking into the others.
    crosstalk: float = 0.06
    #: The brightest paper may be exposed up to this much over full scale (clipped).
    overexposure: float = 1.2
    #: Glare stronger than this (linear, added) over a cell counts the cell as covered.
    glare_cover: float = 0.25


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    x = (srgb / 255.0).astype(np.float32)
    return np.where(x <= 0.04045, x / 12.92, cv2.pow((x + 0.055) / 1.055, 2.4))


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    x = np.clip(linear, 0, 1).astype(np.float32)
    return 255 * np.where(x <= 0.0031308, 12.92 * x, 1.055 * cv2.pow(x, 1 / 2.4) - 0.055)


# -- the table ----------------------------------------------------------------------
def _soft(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur of a single-channel mask, done at a quarter of the size."""
    height, width = mask.shape[:2]
    if sigma < 8:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    small = cv2.resize(mask, (width // 4, height // 4), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (width, height),
                      interpolation=cv2.INTER_LINEAR)


def _wood(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    warp = cv2.resize(rng.normal(0, 1, (6, 10)).astype(np.float32), (width, height),
                      interpolation=cv2.INTER_CUBIC)
    angle = rng.uniform(0, math.pi)
    along = xs * math.cos(angle) + ys * math.sin(angle)
    period = rng.uniform(8, 30)
    rings = 0.5 + 0.5 * np.sin((along + 40 * warp) / period * 2 * math.pi)
    base = np.array([rng.uniform(40, 90), rng.uniform(70, 130), rng.uniform(110, 190)])  # BGR
    return base * (0.75 + 0.35 * rings[..., None])


def _cloth(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    pitch = rng.uniform(3, 7)
    weave = (np.sin(xs / pitch * math.pi) * np.sin(ys / pitch * math.pi)) * 0.5 + 0.5
    base = rng.uniform(30, 220, 3)
    folds = cv2.resize(rng.normal(0, 1, (4, 7)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_CUBIC)
    return base * (0.8 + 0.2 * weave[..., None]) * (1 + 0.08 * folds[..., None])


def _gravel(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    canvas = np.zeros((height, width, 3), np.float32)
    canvas[:] = rng.uniform(60, 160, 3)
    for _ in range(2500):
        centre = (int(rng.integers(width)), int(rng.integers(height)))
        axes = (int(rng.integers(4, 18)), int(rng.integers(4, 18)))
        shade = float(rng.uniform(40, 230))
        colour = tuple(float(shade * t) for t in rng.uniform(0.8, 1.1, 3))
        cv2.ellipse(canvas, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    return cv2.GaussianBlur(canvas, (0, 0), 1.0)


def _table(rng: np.random.Generator) -> tuple[np.ndarray, str]:
    width, height = FRAME_SIZE
    kind = ("wood", "cloth", "gravel")[int(rng.integers(3))]
    maker = {"wood": _wood, "cloth": _cloth, "gravel": _gravel}[kind]
    return np.clip(maker(rng, height, width), 0, 255).astype(np.float32), kind


def _mat_outlines(scene: Scene) -> list[np.ndarray]:
    outlines = []
    for mat in scene.mats:
        spec = mat.content.spec
        o = _OFFSET
        corners = np.array([[-o, -o], [spec.cols + o, -o], [spec.cols + o, spec.rows + o],
                            [-o, spec.rows + o]], np.float64)
        outlines.append(_apply(scene.table_to_image @ mat.to_table, corners))
    return outlines


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def _free_spot(rng: np.random.Generator, keep_out: np.ndarray, size: float) -> np.ndarray | None:
    width, height = FRAME_SIZE
    if 2 * size >= min(width, height):
        return None
    for _ in range(30):
        centre = rng.uniform([size, size], [width - size, height - size])
        x0, y0 = np.maximum((centre - size).astype(int), 0)
        x1, y1 = (centre + size).astype(int)
        if not keep_out[y0:y1, x0:x1].any():
            return centre
    return None


def _quad(centre: np.ndarray, size: float, angle: float, aspect: float = 1.0) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    half = np.array([[-1, -aspect], [1, -aspect], [1, aspect], [-1, aspect]]) * size / 2
    return centre + half @ np.array([[c, s], [-s, c]])


def _paste_quad(photo: np.ndarray, picture: np.ndarray, quad: np.ndarray) -> None:
    height, width = picture.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    h = cv2.getPerspectiveTransform(source, quad.astype(np.float32))
    warped = cv2.warpPerspective(picture.astype(np.float32), h, FRAME_SIZE)
    mask = cv2.warpPerspective(np.ones((height, width), np.float32), h, FRAME_SIZE)[..., None]
    photo[:] = photo * (1 - mask) + warped * mask


def _page(rng: np.random.Generator) -> np.ndarray:
    """A printed page: white paper, lines of 'text', sometimes a marker-like box."""
    page = np.full((420, 300, 3), rng.uniform(225, 250), np.float32)
    y = 30
    while y < 390:
        x = 25
        while x < 270:
            word = int(rng.integers(10, 45))
            cv2.rectangle(page, (x, y), (min(x + word, 275), y + 7), (35, 35, 35), -1)
            x += word + 8
        y += int(rng.integers(14, 22))
    if rng.random() < 0.5:
        cv2.rectangle(page, (100, 150), (200, 250), (20, 20, 20), -1)
        cv2.rectangle(page, (120, 170), (180, 230), (240, 240, 240), -1)
    return page


def _marker_sticker(marker_id: int) -> np.ndarray:
    picture = cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, 60)
    sticker = np.full((84, 84), 245, np.uint8)
    sticker[12:72, 12:72] = picture
    return cv2.cvtColor(sticker, cv2.COLOR_GRAY2BGR)


def _add_clutter(photo: np.ndarray, scene: Scene, rng: np.random.Generator) -> int:
    """Pages and loose markers beside the mats (never on them); how many were laid."""
    keep_out = np.zeros(photo.shape[:2], np.uint8)
    for outline in _mat_outlines(scene):
        cv2.fillConvexPoly(keep_out, np.round(outline).astype(np.int32), 1)
    keep_out = cv2.dilate(keep_out, np.ones((25, 25), np.uint8))
    in_scene = {marker for mat in scene.mats for marker in mat.content.spec.marker_ids()}
    strangers = [i for i in range(250) if i not in in_scene and not 48 <= i < 50]
    cell_px = _cell_px(scene)
    laid = 0
    for _ in range(int(rng.integers(1, 7))):
        is_page = rng.random() < 0.35
        size = cell_px * (rng.uniform(4, 8) if is_page else rng.uniform(0.9, 1.6))
        centre = _free_spot(rng, keep_out, size * 0.8)
        if centre is None:
            continue
        picture = _page(rng) if is_page else _marker_sticker(int(rng.choice(strangers)))
        quad = _quad(centre, size, rng.uniform(0, 2 * math.pi), 1.4 if is_page else 1.0)
        _paste_quad(photo, picture, quad)
        cv2.fillConvexPoly(keep_out, np.round(quad).astype(np.int32), 1)
        laid += 1
    return laid


def _cell_px(scene: Scene) -> float:
    mat = scene.mats[0]
    h = scene.table_to_image @ mat.to_table
    ends = _apply(h, np.array([[0.0, 0.0], [1.0, 0.0]]))
    return float(np.linalg.norm(ends[1] - ends[0]))


# -- the mats and hands --------------------------------------------------------------
def _paint_mat(photo: np.ndarray, mat: PlacedMat, table_to_image: np.ndarray) -> np.ndarray:
    mat_to_image = table_to_image @ mat.to_table
    ppc = 64
    flat = draw_mat(mat.content, ppc, np.random.default_rng(mat.content.seed))
    to_mat = np.array([[1 / ppc, 0, 0.5 / ppc - _OFFSET], [0, 1 / ppc, 0.5 / ppc - _OFFSET],
                       [0, 0, 1]])
    h = mat_to_image @ to_mat
    warped = cv2.warpPerspective(flat.astype(np.float32), h, FRAME_SIZE, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.ones(flat.shape[:2], np.float32), h, FRAME_SIZE)[..., None]
    photo[:] = photo * (1 - mask) + warped * mask
    return mat_to_image


def _add_hand(photo: np.ndarray, spoilt: np.ndarray, scene: Scene,
              rng: np.random.Generator) -> None:
    mat = scene.mats[int(rng.integers(len(scene.mats)))]
    spec = mat.content.spec
    h = scene.table_to_image @ mat.to_table
    cell = _cell_px(scene)
    tip = _apply(h, rng.uniform([-1, -1], [spec.cols + 1, spec.rows + 1])[None])[0]
    angle = rng.uniform(0, 2 * math.pi)
    out = np.array([math.cos(angle), math.sin(angle)])
    mask = np.zeros(photo.shape[:2], np.uint8)
    palm = tip + out * 1.8 * cell
    cv2.ellipse(mask, tuple(np.round(palm).astype(int)),
                (round(1.6 * cell), round(1.3 * cell)), math.degrees(angle), 0, 360, 255, -1)
    cv2.line(mask, tuple(np.round(palm).astype(int)),
             tuple(np.round(palm + out * 60 * cell).astype(int)), 255, round(2.4 * cell))
    for k in range(int(rng.integers(1, 5))):
        spread = angle + math.pi + (k - 1.5) * 0.3
        reach = np.array([math.cos(spread), math.sin(spread)]) * rng.uniform(1.8, 3.0) * cell
        cv2.line(mask, tuple(np.round(palm).astype(int)),
                 tuple(np.round(palm + reach).astype(int)), 255, max(3, round(0.55 * cell)))
    hand = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 1.0)
    hsv = np.uint8([[[rng.integers(5, 22), rng.integers(60, 170), rng.integers(60, 235)]]])
    tone = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    shadow = _soft(hand, 0.6 * cell)
    shifted = np.roll(shadow, (int(rng.integers(-cell, cell)), int(rng.integers(-cell, cell))),
                      axis=(0, 1))
    photo *= (1 - 0.4 * shifted)[..., None]
    photo[:] = photo * (1 - hand[..., None]) + tone * hand[..., None]
    spoilt[:] = np.maximum(spoilt, np.maximum(hand, (shifted * 0.4 > 0.02).astype(np.float32)))


# -- light, lens, sensor -----------------------------------------------------------------
def _shadows(rng: np.random.Generator, strength: float) -> np.ndarray:
    width, height = FRAME_SIZE
    mask = np.zeros((height, width), np.float32)
    for _ in range(int(rng.integers(1, 3))):
        centre = rng.uniform([0, 0], [width, height])
        points = centre + rng.normal(0, 350, (int(rng.integers(3, 7)), 2))
        hull = cv2.convexHull(np.round(points).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0)
    soft = _soft(mask, float(rng.uniform(40, 90)))
    return 1 - float(rng.uniform(0.15, strength)) * np.clip(soft, 0, 1)


def _vignette(strength: float) -> np.ndarray:
    width, height = FRAME_SIZE
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    return 1 - strength * r2 ** 1.5


def _glare(rng: np.random.Generator, scene: Scene) -> np.ndarray:
    width, height = FRAME_SIZE
    glare = np.zeros((height, width), np.float32)
    cell = _cell_px(scene)
    for _ in range(int(rng.integers(1, 3))):
        mat = scene.mats[int(rng.integers(len(scene.mats)))]
        spec = mat.content.spec
        where = _apply(scene.table_to_image @ mat.to_table,
                       rng.uniform([0, 0], [spec.cols, spec.rows])[None])[0]
        blob = np.zeros_like(glare)
        axes = (max(2, round(rng.uniform(0.4, 1.6) * cell)), max(2, round(rng.uniform(0.3, 1.0)
                                                                         * cell)))
        cv2.ellipse(blob, tuple(np.round(where).astype(int)), axes, float(rng.uniform(0, 180)),
                    0, 360, 1.0, -1)
        glare += float(rng.uniform(0.5, 1.6)) * _soft(blob, 0.4 * cell)
    return glare


def true_image_points(truth_mat: dict[str, Any], params: dict[str, Any],
                      points: np.ndarray) -> np.ndarray:
    """Where mat points (N×2) truly lie in a photo of :func:`realistic_photo`."""
    ideal = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                     np.array(truth_mat["mat_to_image"])).reshape(-1, 2)
    if "k1" not in params:
        return ideal
    width, height = FRAME_SIZE
    centre, focal = np.array([width / 2, height / 2]), 0.9 * width
    offset = (ideal - centre) / focal
    r2 = (offset * offset).sum(axis=1, keepdims=True)
    return centre + offset * (1 + params["k1"] * r2 + params["k2"] * r2 * r2) * focal


def distort_image(photo: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Barrel distortion: output pixel at distorted radius r_d shows the scene at r."""
    width, height = FRAME_SIZE
    focal = 0.9 * width
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    xd, yd = (xs - width / 2) / focal, (ys - height / 2) / focal
    rd = np.sqrt(xd * xd + yd * yd)
    r = rd.copy()
    for _ in range(20):  # solve r (1 + k1 r² + k2 r⁴) = r_d for r
        r = rd / (1 + k1 * r * r + k2 * r ** 4)
    scale = np.where(rd > 0, r / np.maximum(rd, 1e-9), 1.0)
    map_x = (xd * scale * focal + width / 2).astype(np.float32)
    map_y = (yd * scale * focal + height / 2).astype(np.float32)
    return cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=(70, 70, 70))


def _covered(spec: MatSpec, spoilt: np.ndarray, h: np.ndarray) -> np.ndarray:
    ppc = 8
    grown = cv2.dilate((spoilt > 0.01).astype(np.uint8), np.ones((5, 5), np.uint8))
    to_mat = np.array([[1 / ppc, 0, 0.5 / ppc], [0, 1 / ppc, 0.5 / ppc], [0, 0, 1]])
    flat = cv2.warpPerspective(grown, h @ to_mat, (spec.cols * ppc, spec.rows * ppc),
                               flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    return flat.reshape(spec.rows, ppc, spec.cols, ppc).max(axis=(1, 3)) > 0


def realistic_photo(rng: np.random.Generator, conditions: tuple[str, ...] = ALL_CONDITIONS,
                    strength: Strength = Strength(), scene: Scene | None = None) -> Photo:
    """A photo of random mats under ``conditions`` (a subset of :data:`ALL_CONDITIONS`);
    of ``scene``'s mats and camera when given (a camera fixed over a session's mat).

    The truth is the same as ``vision.render``'s, plus per mat ``glare`` (row
    strings, ``1`` = washed out) and ``mat_to_image`` (the homography before the
    lens, whose ``k1``, ``k2`` are in ``params``), and ``params`` saying what was
    drawn (:func:`true_image_points` maps mat points through both).
    """
    scene = make_scene(rng) if scene is None else scene
    params: dict[str, Any] = {"conditions": list(conditions)}
    if "texture" in conditions:
        photo, params["table"] = _table(rng)
    else:
        photo = np.full((FRAME_SIZE[1], FRAME_SIZE[0], 3), rng.uniform(60, 160, 3), np.float32)
    params["clutter"] = _add_clutter(photo, scene, rng) if "clutter" in conditions else 0
    homographies = [_paint_mat(photo, mat, scene.table_to_image) for mat in scene.mats]
    spoilt = np.zeros(photo.shape[:2], np.float32)
    if "hands" in conditions:
        for _ in range(int(rng.integers(0, 3))):
            _add_hand(photo, spoilt, scene, rng)
    light = np.ones(photo.shape[:2], np.float32)
    if "shadow" in conditions:
        light *= _shadows(rng, strength.shadow)
    if "vignette" in conditions:
        light *= _vignette(float(rng.uniform(0, strength.vignette)))
    mixing = np.eye(3)
    if "cast" in conditions:  # the sensor's channels overlap a little, then each gets its gain
        mixing = np.eye(3) + rng.uniform(-strength.crosstalk, strength.crosstalk, (3, 3)) * (
            1 - np.eye(3))
        mixing = np.diag(rng.uniform(strength.gain_low, strength.gain_high, 3)) @ (
            mixing / mixing.sum(axis=1, keepdims=True))
    linear = (_to_linear(photo) * light[..., None]) @ mixing.T.astype(np.float32)
    glare = _glare(rng, scene) if "glare" in conditions else np.zeros_like(light)
    # auto-exposure: the brightest paper lands between just under and a little over full scale
    exposure = float(rng.uniform(0.85, strength.overexposure)) / float(
        np.percentile(linear.max(axis=-1), 99.5))
    linear = linear * exposure + glare[..., None]
    photo = _to_srgb(linear).astype(np.float32)
    params.update(gains=np.round(mixing.sum(axis=1), 3).tolist(), exposure=round(exposure, 3),
                  glare=bool(glare.max() > 0))
    if "distortion" in conditions:
        k1 = float(rng.uniform(strength.k1_low, strength.k1_high))
        k2 = float(rng.uniform(0, strength.k2))
        photo = distort_image(photo, k1, k2)
        params.update(k1=round(k1, 3), k2=round(k2, 3))
    blur = float(rng.uniform(0.3, strength.blur))
    photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += rng.normal(0, rng.uniform(0, strength.noise), photo.shape).astype(np.float32)
    quality = int(rng.integers(strength.jpeg_low, 96))
    encoded = cv2.imencode(".jpg", np.clip(photo, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
    params.update(blur=round(blur, 2), jpeg=quality)
    washed = (glare > strength.glare_cover).astype(np.float32)
    truth = []
    for mat, h in zip(scene.mats, homographies, strict=True):
        spec = mat.content.spec
        covered = _covered(spec, spoilt, h)
        glared = _covered(spec, washed, h)
        truth.append({
            "id": spec.id, "rows": spec.rows, "cols": spec.cols, "kind": spec.kind,
            "cells": mat.content.cells, "mat_to_image": h.tolist(),
            "covered": ["".join("1" if c else "0" for c in row) for row in covered | glared],
            "glare": ["".join("1" if c else "0" for c in row) for row in glared],
            "tags": [{"id": t, "row": r, "col": c, "rotation": rot,
                      "covered": bool(covered[r, c] or glared[r, c])}
                     for t, r, c, rot in mat.content.tags]})
    return Photo(cv2.imdecode(encoded, cv2.IMREAD_COLOR), {"mats": truth, "params": params})



def calibration_views(rng: np.random.Generator, spec: MatSpec, count: int, k1: float,
                      focal_px: float = 1400.0) -> list[np.ndarray]:
    """``count`` photos of one empty mat by one camera (fixed focal length, principal
    point at the centre, barrel ``k1``) from several heights, tilts and turns."""
    width, height = FRAME_SIZE
    cell_mm = 20.0
    content = MatContent.empty(spec)
    origin = (-spec.cols * cell_mm / 2, -spec.rows * cell_mm / 2)
    mat = PlacedMat(content, cell_mm, mat_to_table(cell_mm, 0.0, origin))
    views = []
    while len(views) < count:
        camera = Camera(float(rng.uniform(10, 35)), float(rng.uniform(0, 360)),
                        float(rng.uniform(450, 700)), focal_px, (width / 2, height / 2))
        target = tuple(rng.uniform(-60, 60, 2))
        scene = Scene([mat], camera.table_to_image(target), 0)
        outline = _mat_outlines(scene)[0]
        if outline.min() < 0 or (outline.max(axis=0) >= (width, height)).any():
            continue
        photo = np.full((height, width, 3), rng.uniform(70, 150, 3), np.float32)
        _paint_mat(photo, mat, scene.table_to_image)
        photo = distort_image(photo, k1, 0.0)
        views.append(np.clip(photo, 0, 255).astype(np.uint8))
    return views
