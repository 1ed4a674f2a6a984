"""Rendering a frame: compose the table in linear light, light it, photograph it.

The order follows a real camera: the scene's albedo is composed in the
undistorted image plane (table, clutter, mats with their cards and pieces,
held cards, hands), lit there by area lamps (inverse-square, Lambertian,
soft shadows of whatever is between a lamp and the table, a Blinn–Phong
specular lobe on glossy print), bent by the lens, then darkened by
vignetting, blurred by the optics, exposed, encoded to sRGB, given sensor
noise and JPEG-compressed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from devkit.vision.photoshoot import kit, textures
from devkit.vision.photoshoot.camera import (
    HEIGHT,
    WIDTH,
    Camera,
    canvas_camera,
    distort_coarse,
    distort_image,
)
from devkit.vision.photoshoot.hands import Caster, Hand, shadow_on_table

LIGHT_STEP = 4  # the light is computed on a grid 4× coarser than the photo
SHADOW_FLOOR = 0.55  # visual-spec.md: shadows darken the light by up to 45 %
UNEVEN_LIMIT = 0.35  # ±35 % across a mat
WASHED_OUT = 0.25  # glare adding a quarter of paper white's light hides the print
OCCLUDED_O, OCCLUDED_P = 0.5, 0.04


@dataclass
class Lamp:
    """A round area lamp facing down: centre (mm), radius (mm), power."""

    position: np.ndarray
    radius: float
    power: float

    def samples(self) -> np.ndarray:
        """Seven points over the lamp's disc (centre and a ring)."""
        ring = np.linspace(0, 2 * np.pi, 6, endpoint=False)
        offsets = np.column_stack([np.cos(ring), np.sin(ring), np.zeros(6)]) * self.radius * 0.7
        return np.vstack([self.position, self.position + offsets])


@dataclass
class Flat:
    """Something flat and parallel to the table at height ``z``: its texture
    (linear albedo, alpha, gloss) and the affine from texture pixels to mm."""

    albedo: np.ndarray
    alpha: np.ndarray
    gloss: np.ndarray | float
    affine: np.ndarray  # texture pixel index coords -> world (X, Y)
    z: float = 0.0
    elevated: bool = False  # lit without the table's shadows; hides what is under it

    def outline(self) -> np.ndarray:
        """Its texture's corners in world mm at its height (4, 3)."""
        h, w = self.alpha.shape
        corners = np.array([[-0.5, -0.5, 1], [w - 0.5, -0.5, 1], [w - 0.5, h - 0.5, 1],
                            [-0.5, h - 0.5, 1]])
        xy = corners @ self.affine.T
        return np.column_stack([xy[:, :2], np.full(4, self.z)])


@dataclass
class PlacedMat:
    """A mat on the table: its spec, where its paper's top-left corner is, its turn."""

    spec: kit.MatSpec
    origin: np.ndarray
    angle: float  # radians, anticlockwise seen from above
    tint: np.ndarray
    fibre: float
    gloss: float

    def area_affine(self) -> np.ndarray:
        """Texture *area* coordinates (0 at the paper's edge) to world mm."""
        k = self.spec.cell_mm / kit.PPC
        c, s = np.cos(self.angle), np.sin(self.angle)
        return np.array([[k * c, k * s, self.origin[0]], [k * s, -k * c, self.origin[1]],
                         [0, 0, 1]])

    def affine(self) -> np.ndarray:
        return self.area_affine() @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])

    def grid_world(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """Grid positions (cells) to world mm on the table (N, 3)."""
        x, y = kit.grid_to_px(np.asarray(rows, float), np.asarray(cols, float))
        xy = np.column_stack([x, y, np.ones_like(x)]) @ self.area_affine().T
        return np.column_stack([xy[:, :2], np.zeros(len(xy))])

    def paper_world(self) -> np.ndarray:
        width, height = self.spec.paper_cells
        return self.grid_world(np.array([-1.5, -1.5, height - 1.5, height - 1.5]),
                               np.array([-1.5, width - 1.5, width - 1.5, -1.5]))


@dataclass
class Setup:
    """Everything that stays put while a session is photographed."""

    mode: str
    camera: Camera
    mats: list[PlacedMat]
    lamps: list[Lamp]
    gains: np.ndarray
    table: Flat
    clutter: list[Flat]
    casters: list[Caster]
    shininess: float
    glare_peak: float
    shadows: bool
    blur: float
    noise: float
    jpeg: int
    vignette: float
    exposure: float
    paper_seed: int = 0
    conditions: dict = field(default_factory=dict)
    _sheets: dict = field(default_factory=dict)

    def sheet(self, placed: PlacedMat, rng_seed: int) -> kit.Sheet:
        """The mat as printed (cached: the same paper in every frame)."""
        key = placed.spec.id
        if key not in self._sheets:
            self._sheets[key] = kit.draw_mat(placed.spec, np.random.default_rng(rng_seed),
                                             placed.tint, placed.fibre, placed.gloss)
        return self._sheets[key]


@dataclass
class Frame:
    """What changes from frame to frame: what lies on the mats, hands, held cards."""

    contents: dict[int, kit.MatContents]
    hands: list[Hand] = field(default_factory=list)
    held: list[Flat] = field(default_factory=list)


@dataclass
class Photo:
    """One photo: the decoded image (BGR, as the JPEG holds it), its truth,
    the MATS.json to read it with, and the JPEG file's bytes."""

    image: np.ndarray
    truth: dict
    mats_json: dict
    jpeg: bytes = b""


class Canvas:
    """The undistorted image plane being composed (linear albedo and masks)."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.albedo = np.zeros((height, width, 3), np.float32)
        # gloss, elevated (lit without the table's shadows), hidden (by a hand or held card)
        self.masks = np.zeros((height, width, 3), np.float32)

    @property
    def gloss(self) -> np.ndarray:
        return self.masks[..., 0]

    def table(self, camera: Camera, flat: Flat) -> None:
        """The first layer, covering the whole view."""
        matrix = camera.plane_homography(flat.z) @ flat.affine
        cv2.warpPerspective(flat.albedo, matrix, (self.width, self.height), dst=self.albedo,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)

    def flat(self, camera: Camera, flat: Flat) -> None:
        """A flat thing over what is there, warped only where it lands."""
        corners = camera.project(flat.outline())
        left, top = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
        right, bottom = np.ceil(corners.max(axis=0)).astype(int) + 3
        right, bottom = min(right, self.width), min(bottom, self.height)
        if right <= left or bottom <= top:
            return
        shift = np.array([[1, 0, -left], [0, 1, -top], [0, 0, 1]], float)
        matrix = shift @ camera.plane_homography(flat.z) @ flat.affine
        size = (right - left, bottom - top)
        gloss = flat.gloss if isinstance(flat.gloss, np.ndarray) else None
        layers = [flat.albedo, flat.alpha] + ([gloss] if gloss is not None else [])
        warped = cv2.warpPerspective(np.dstack(layers).astype(np.float32), matrix, size,
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        alpha = warped[..., 3:4]
        view = self.albedo[top:bottom, left:right]
        view *= 1 - alpha
        view += warped[..., :3] * alpha
        masks = self.masks[top:bottom, left:right]
        shine = warped[..., 4] if gloss is not None else np.float32(flat.gloss)
        masks[..., 0] = masks[..., 0] * (1 - alpha[..., 0]) + shine * alpha[..., 0]
        if flat.elevated:
            np.maximum(masks[..., 1], alpha[..., 0], out=masks[..., 1])
            np.maximum(masks[..., 2], alpha[..., 0], out=masks[..., 2])

    def hand(self, camera: Camera, hand: Hand, rng: np.random.Generator) -> None:
        for part in hand.parts:
            points = camera.project(part.outline)
            if not np.all(np.isfinite(points)):
                continue
            _paint_part(self, points, hand.sleeve if part.sleeve else hand.skin, rng)


def _paint_part(canvas: Canvas, points: np.ndarray, colour: np.ndarray,
                rng: np.random.Generator) -> None:
    """A capsule of skin or sleeve, rounded by Lambert shading across its width."""
    points = np.clip(points, -4 * WIDTH, 5 * WIDTH)
    left, top = np.floor(points.min(axis=0)).astype(int) - 2
    right, bottom = np.ceil(points.max(axis=0)).astype(int) + 2
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, canvas.width), min(bottom, canvas.height)
    if right <= left or bottom <= top:
        return
    mask = np.zeros((bottom - top, right - left), np.uint8)
    shifted = np.round((points - (left, top)) * 16).astype(np.int32)
    cv2.fillPoly(mask, [shifted], 255, lineType=cv2.LINE_AA, shift=4)
    inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    width = max(float(inside.max()), 1.0)
    across = np.clip(inside / width, 0, 1)
    shade = 0.35 + 0.65 * np.sqrt(1 - (1 - across) ** 2)  # a cylinder's cosine
    alpha = mask.astype(np.float32) / 255
    grain = textures.grain(rng, *mask.shape, 0.04, name="moon")
    albedo = colour * (shade * grain)[..., None]
    view = canvas.albedo[top:bottom, left:right]
    view[:] = view * (1 - alpha[..., None]) + albedo * alpha[..., None]
    masks = canvas.masks[top:bottom, left:right]
    masks[..., 0] *= 1 - alpha
    np.maximum(masks[..., 1], alpha, out=masks[..., 1])
    np.maximum(masks[..., 2], alpha, out=masks[..., 2])


# --- light -------------------------------------------------------------------------

@dataclass
class Light:
    """Irradiance with and without shadows, and the specular glare, per pixel."""

    lit: np.ndarray
    free: np.ndarray
    glare: np.ndarray


def coarse_shape(camera: Camera) -> tuple[int, int]:
    """(h, w) of the coarse light grid over a camera's canvas."""
    return ((HEIGHT + 2 * camera.offset) // LIGHT_STEP, (WIDTH + 2 * camera.offset) // LIGHT_STEP)


def light_grid(camera: Camera) -> np.ndarray:
    """World (X, Y) of the coarse light grid's points on the table (h, w, 2)."""
    h, w = coarse_shape(camera)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    pix = np.stack([xx * LIGHT_STEP + (LIGHT_STEP - 1) / 2,
                    yy * LIGHT_STEP + (LIGHT_STEP - 1) / 2, np.ones_like(xx)], axis=-1)
    world = pix @ np.linalg.inv(camera.plane_homography(0)).T
    return world[..., :2] / world[..., 2:3]


def compute_light(setup: Setup, frame: Frame, mats_mask: np.ndarray) -> Light:
    camera = canvas_camera(setup.camera)
    grid = light_grid(camera).astype(np.float32)
    gx, gy = grid[..., 0], grid[..., 1]
    shape = grid.shape[:2]
    outlines = _shadow_outlines(setup, frame) if setup.shadows else []
    direct = np.zeros(shape, np.float32)
    free = np.zeros(shape, np.float32)
    glare = np.zeros(shape, np.float32)
    glare_free = np.zeros(shape, np.float32)
    eye = camera.centre.astype(np.float32)
    ex, ey = eye[0] - gx, eye[1] - gy
    to_eye = 1 / np.sqrt(ex * ex + ey * ey + eye[2] ** 2)
    ex, ey, ez = ex * to_eye, ey * to_eye, eye[2] * to_eye
    homography = camera.plane_homography(0)
    for lamp in setup.lamps:
        samples = lamp.samples().astype(np.float32)
        share = np.float32(lamp.power / len(samples))
        for sample in samples:
            ox, oy, oz = sample[0] - gx, sample[1] - gy, sample[2]
            inverse = 1 / np.sqrt(ox * ox + oy * oy + oz * oz)
            irradiance = share * oz * inverse ** 3  # inverse-square times Lambert's cosine
            visible = _visibility(outlines, sample, homography, shape)
            direct += irradiance * visible
            free += irradiance
            if setup.glare_peak > 0:  # Blinn-Phong: the half vector against the normal
                hx, hy, hz = ox * inverse + ex, oy * inverse + ey, oz * inverse + ez
                cosine = hz / np.sqrt(hx * hx + hy * hy + hz * hz)
                lobe = irradiance * np.exp(np.float32(setup.shininess) * np.log(cosine))
                glare += lobe * visible
                glare_free += lobe
    ambient = _ambient(free, mats_mask)
    lit = np.maximum(direct + ambient, SHADOW_FLOOR * (free + ambient))
    free = free + ambient
    if setup.glare_peak > 0 and mats_mask.any():
        peak = float((glare_free / free)[mats_mask].max())
        glare *= setup.glare_peak * kit.WHITE_LINEAR / max(peak, 1e-30)
    unit = float(free[mats_mask].mean()) if mats_mask.any() else float(free.mean())
    return Light(lit / unit, free / unit, glare / unit)  # 1 = the mats' mean light


def _ambient(free: np.ndarray, mats_mask: np.ndarray) -> float:
    """Room light (walls, ceiling) enough to keep each mat within ±35 %."""
    ambient = 0.1 * float(free[mats_mask].mean()) if mats_mask.any() else 0.1
    if not mats_mask.any():
        return ambient
    values = free[mats_mask]
    mean, high, low = float(values.mean()), float(values.max()), float(values.min())
    limit = UNEVEN_LIMIT * 0.97
    need_high = (high - (1 + limit) * mean) / limit
    need_low = ((1 - limit) * mean - low) / limit
    return max(ambient, need_high, need_low)


def _shadow_outlines(setup: Setup, frame: Frame) -> list[np.ndarray]:
    outlines = [caster.outline for caster in setup.casters]
    for hand in frame.hands:
        outlines.extend(hand.outlines())
    outlines.extend(flat.outline() for flat in frame.held)
    return outlines


def _visibility(outlines: list[np.ndarray], lamp: np.ndarray, homography: np.ndarray,
                shape: tuple[int, int]) -> np.ndarray:
    """1 where the lamp point is seen from the table, 0 in the shadows."""
    if not outlines:
        return np.ones(shape, np.float32)
    mask = np.zeros(shape, np.uint8)
    for outline in outlines:
        shadow = shadow_on_table(outline, lamp)
        if shadow is None:
            continue
        pix = np.column_stack([shadow, np.ones(len(shadow))]) @ homography.T
        if np.any(pix[:, 2] <= 0):
            continue
        pix = pix[:, :2] / pix[:, 2:3] / LIGHT_STEP - (LIGHT_STEP - 1) / (2 * LIGHT_STEP)
        pix = np.clip(pix, -10 * shape[1], 10 * shape[1])
        cv2.fillPoly(mask, [np.round(pix * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    return 1 - mask.astype(np.float32) / 255


# --- the whole photo ---------------------------------------------------------------

def compose(setup: Setup, frame: Frame, rng: np.random.Generator) -> Canvas:
    camera = canvas_camera(setup.camera)
    canvas = Canvas(WIDTH + 2 * camera.offset, HEIGHT + 2 * camera.offset)
    canvas.table(camera, setup.table)
    for flat in setup.clutter:
        canvas.flat(camera, flat)
    for index, placed in enumerate(setup.mats):
        base = setup.sheet(placed, setup.paper_seed + index)
        sheet = kit.Sheet(base.albedo.copy(), base.alpha, base.gloss.copy())
        contents = frame.contents.get(placed.spec.id, kit.MatContents())
        kit.lay(sheet, contents, np.random.default_rng(7 + index))
        canvas.flat(camera, Flat(sheet.albedo, sheet.alpha, sheet.gloss, placed.affine()))
    for flat in frame.held:
        canvas.flat(camera, flat)
    for hand in frame.hands:
        canvas.hand(camera, hand, rng)
    return canvas


def mats_mask_coarse(setup: Setup) -> np.ndarray:
    """Where the mats' papers are, on the coarse light grid."""
    camera = canvas_camera(setup.camera)
    mask = np.zeros(coarse_shape(camera), np.uint8)
    for placed in setup.mats:
        pix = (camera.project(placed.paper_world()) - (LIGHT_STEP - 1) / 2) / LIGHT_STEP
        cv2.fillConvexPoly(mask, np.round(pix).astype(np.int32), 1)
    return mask.astype(bool)


def render(setup: Setup, frame: Frame, rng: np.random.Generator, name: str) -> Photo:
    """Photograph one frame of a setup."""
    canvas = compose(setup, frame, rng)
    coarse_mats = mats_mask_coarse(setup)
    light = compute_light(setup, frame, coarse_mats)
    lens = setup.camera.lens
    coarse = distort_coarse(lens, np.dstack([light.lit, light.free, light.glare]), LIGHT_STEP)
    fine = cv2.resize(coarse, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)
    lit, free, glare = fine[..., 0], fine[..., 1], fine[..., 2]
    albedo = distort_image(lens, canvas.albedo)
    masks = distort_image(lens, canvas.masks)
    gloss, elevated, hidden = masks[..., 0], masks[..., 1], masks[..., 2]
    irradiance = lit * (1 - elevated) + free * elevated
    specular = gloss * glare * (1 - elevated)
    radiance = albedo * irradiance[..., None]
    radiance += specular[..., None]
    radiance *= setup.gains * (setup.exposure / _white_level(setup, light.free, coarse_mats))
    if setup.vignette > 0:
        radiance *= _vignette(setup.vignette)[..., None]
    if setup.blur > 0:
        radiance = cv2.GaussianBlur(radiance, (0, 0), setup.blur)
    image = _sensor(radiance, setup.noise, rng)
    _ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, setup.jpeg])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    washed = specular > WASHED_OUT * kit.WHITE_LINEAR * np.maximum(irradiance, 1e-6)
    covered = np.maximum(hidden, washed.astype(np.float32))
    shade = coarse[..., 0] / np.maximum(coarse[..., 1], 1e-6)
    truth = _truth(setup, frame, covered, washed, shade, name)
    mats_json = {"mats": [placed.spec.to_json()
                          for placed in sorted(setup.mats, key=lambda m: m.spec.id)]}
    return Photo(decoded, truth, mats_json, encoded.tobytes())


def _white_level(setup: Setup, free: np.ndarray, mats_mask: np.ndarray) -> float:
    """Paper white under the brightest light on the mats (auto-exposure's anchor)."""
    if "white_level" not in setup.conditions:
        level = float(np.percentile(free[mats_mask], 98)) if mats_mask.any() else float(free.mean())
        setup.conditions["white_level"] = level * kit.WHITE_LINEAR * float(setup.gains.max())
    return setup.conditions["white_level"]


_SRGB_LUT = textures.linear_to_srgb(np.linspace(0, 1, 8192)) * 255
_NOISE_LUT = np.sqrt(0.35 + 0.65 * _SRGB_LUT / 255).astype(np.float32)  # shot + read noise


@cache
def _vignette_shape() -> np.ndarray:
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    r2 = ((xx - WIDTH / 2) ** 2 + (yy - HEIGHT / 2) ** 2) / ((WIDTH / 2) ** 2 + (HEIGHT / 2) ** 2)
    return (r2 ** 1.3).astype(np.float32)


def _vignette(strength: float) -> np.ndarray:
    """Light falling off towards the corners, by ``strength`` at the corners."""
    return 1 - strength * _vignette_shape()


def _sensor(radiance: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """sRGB encoding, shot and read noise, 8-bit BGR."""
    scaled = np.clip(radiance, 0, 1)
    scaled *= len(_SRGB_LUT) - 1
    index = scaled.astype(np.uint16)
    encoded = _SRGB_LUT[index]
    sigma = _NOISE_LUT[index] * np.float32(noise)
    normal = np.empty(encoded.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))
    cv2.randn(normal, 0.0, 1.0)
    encoded += sigma * normal
    np.clip(encoded + 0.5, 0, 255, out=encoded)
    return np.ascontiguousarray(encoded.astype(np.uint8)[..., ::-1])


# --- truth ----------------------------------------------------------------------------

def _truth(setup: Setup, frame: Frame, covered: np.ndarray, washed: np.ndarray,
           shade: np.ndarray, name: str) -> dict:
    mats = []
    hidden_markers = []
    darkest = 1.0
    glare_max = 0.0
    for placed in sorted(setup.mats, key=lambda m: m.spec.id):
        spec = placed.spec
        contents = frame.contents.get(spec.id, kit.MatContents())
        occluded = []
        for row in range(spec.rows):
            line = ""
            for col in range(spec.cols):
                quad = _image_quad(setup, placed, row, col, 1.0)
                share = _mean_in(covered, quad)
                line += "o" if share >= OCCLUDED_O else "p" if share >= OCCLUDED_P else "."
            occluded.append(line)
        for corner, (row, col) in enumerate([(-1.0, -1.0), (-1.0, spec.cols),
                                             (spec.rows, spec.cols), (spec.rows, -1.0)]):
            quad = _image_quad(setup, placed, row + 0.1, col + 0.1, 0.8)
            if _mean_in(covered, quad) > 0.05:
                hidden_markers.append(4 * spec.id + corner)
        paper = _image_quad(setup, placed, 0, 0, 1.0, spec.rows, spec.cols)
        darkest = min(darkest, _min_in(shade, (paper - (LIGHT_STEP - 1) / 2) / LIGHT_STEP))
        glare_max = max(glare_max, _mean_in(washed.astype(np.float32), paper))
        mats.append({"id": spec.id, "cells": kit.cells_of(spec, contents),
                     "tags": kit.tags_of(contents), "occluded": occluded})
    conditions = {key: value for key, value in setup.conditions.items() if key != "white_level"}
    conditions.update({"shadow": round(1 - darkest, 3), "glare_share": round(glare_max, 3),
                       "hidden_markers": hidden_markers, "hands": len(frame.hands),
                       "held": len(frame.held)})
    return {"image": name, "mats": mats, "conditions": conditions}


def _image_quad(setup: Setup, placed: PlacedMat, row: float, col: float, side: float,
                rows: float | None = None, cols: float | None = None) -> np.ndarray:
    """A grid rectangle's corners in the photo (after the lens)."""
    height = rows if rows is not None else side
    width = cols if cols is not None else side
    world = placed.grid_world(np.array([row, row, row + height, row + height]),
                              np.array([col, col + width, col + width, col]))
    return setup.camera.image_points(world)


def _mean_in(values: np.ndarray, quad: np.ndarray) -> float:
    left, top = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    right, bottom = np.ceil(quad.max(axis=0)).astype(int) + 1
    right, bottom = min(right, WIDTH), min(bottom, HEIGHT)
    if right <= left or bottom <= top:
        return 1.0
    mask = np.zeros((bottom - top, right - left), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - (left, top)) * 16).astype(np.int32), 1,
                       cv2.LINE_8, shift=4)
    if not mask.any():
        return 0.0
    return float(values[top:bottom, left:right][mask.astype(bool)].mean())


def _min_in(values: np.ndarray, quad: np.ndarray) -> float:
    height, width = values.shape
    left, top = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    right = min(int(np.ceil(quad[:, 0].max())) + 1, width)
    bottom = min(int(np.ceil(quad[:, 1].max())) + 1, height)
    if right <= left or bottom <= top:
        return 1.0
    mask = np.zeros((bottom - top, right - left), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - (left, top)) * 16).astype(np.int32), 1,
                       cv2.LINE_8, shift=4)
    region = values[top:bottom, left:right][mask.astype(bool)]
    return float(region.min()) if region.size else 1.0
