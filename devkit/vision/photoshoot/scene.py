"""Random scenes: which mats, where, under what light, with what on them.

``sample_setup`` draws everything that stays put during a session (mats and
their papers, the table, the camera and its lens, the lamps); the ``*_contents``
and ``sample_hands`` functions draw what lies on the mats and who reaches over.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from devkit.vision.photoshoot import camera as cam
from devkit.vision.photoshoot import kit, textures
from devkit.vision.photoshoot.hands import POSES, Hand, HandPlan, make_hand, person_caster
from devkit.vision.photoshoot.render import Flat, Lamp, PlacedMat, Setup

CATALOGUES = Path(__file__).resolve().parents[3] / "rules" / "catalogues"
MIN_CELL_PX = 37.0  # visual-spec.md: at least 36 px; a pixel's room for rounding
MODES = ("plain", "real")
PAPER_TINTS = {"white": (1.0, 1.0, 1.0), "pink": (1.0, 0.88, 0.92),
               "bluish": (0.9, 0.95, 1.0), "greenish": (0.92, 1.0, 0.9),
               "cream": (1.0, 0.97, 0.86), "grey": (0.93, 0.93, 0.93)}
STANDARD_MATS = (kit.MatSpec(0, 8, 10, "colour"), kit.MatSpec(3, 6, 7, "tags"))


@cache
def warehouse_cards() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The Small Warehouse engine's catalogue: (id, squares)."""
    cards = json.loads((CATALOGUES / "small-warehouse.json").read_text())["cards"]
    return tuple((card["id"], tuple(card["squares"])) for card in cards)


@cache
def removal_items() -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Removal items: (tag id, shape). The kit numbers tags from 50 in catalogue order."""
    items = json.loads((CATALOGUES / "removal.json").read_text())["items"]
    return tuple((50 + index, _padded(item["shape"])) for index, item in enumerate(items))


def _padded(shape: list[str]) -> tuple[str, ...]:
    """A shape with every row as long as the longest (a few catalogue rows are short)."""
    width = max(len(row) for row in shape)
    return tuple(row.ljust(width, ".") for row in shape)


# --- which mats -------------------------------------------------------------------

def sample_mats(rng: np.random.Generator) -> list[kit.MatSpec]:
    """Usually the warehouse mat and a Removal tags mat; sometimes other sizes."""
    if rng.random() < 0.6:
        cell = float(rng.choice([20.0, 20.0, 20.0, 18.0, 22.0, 25.0]))
        return [kit.MatSpec(m.id, m.rows, m.cols, m.kind, cell) for m in STANDARD_MATS]
    count = int(rng.choice([1, 2, 2, 3]))
    ids = rng.choice(12, size=count, replace=False)
    mats = []
    for mat_id in sorted(int(i) for i in ids):
        if rng.random() < 0.5:
            mats.append(kit.MatSpec(mat_id, int(rng.integers(3, 9)), int(rng.integers(6, 11)),
                                    "colour", float(rng.uniform(16, 26))))
        else:
            mats.append(kit.MatSpec(mat_id, int(rng.integers(2, 8)), int(rng.integers(2, 9)),
                                    "tags", float(rng.uniform(16, 28))))
    return mats


def place_mats(rng: np.random.Generator, specs: list[kit.MatSpec], mode: str,
               gains: np.ndarray) -> list[PlacedMat]:
    """Lay the mats on the table, any way round, not overlapping."""
    placed: list[PlacedMat] = []
    for spec in specs:
        for _ in range(200):
            angle = rng.uniform(0, 2 * np.pi)
            spread = 150 + 120 * len(placed)
            origin = rng.uniform(-spread, spread, 2)
            candidate = PlacedMat(spec, origin, angle, *_paper(rng, mode, gains))
            if not any(_overlap(candidate, other) for other in placed):
                placed.append(candidate)
                break
    centre = np.mean([p.paper_world()[:, :2].mean(axis=0) for p in placed], axis=0)
    for p in placed:
        p.origin = p.origin - centre
    return placed


def _paper(rng: np.random.Generator, mode: str, gains: np.ndarray) -> tuple:
    name = rng.choice(list(PAPER_TINTS))
    tint = 1 - (1 - np.array(PAPER_TINTS[name])) * rng.uniform(0.5, 1.0)
    # the paper and the light together stay inside the spec's 0.8-1.2 per channel
    combined = np.clip(tint * gains, 0.8, 1.2)
    tint = combined / gains
    gloss = rng.uniform(0.3, 1.0) if mode == "real" and rng.random() < 0.6 else 0.0
    return tint.astype(np.float32), float(rng.uniform(0.004, 0.015)), float(gloss)


def _overlap(one: PlacedMat, two: PlacedMat, gap: float = 15.0) -> bool:
    a = one.paper_world()[:, :2].astype(np.float32)
    b = two.paper_world()[:, :2].astype(np.float32)
    centre = a.mean(axis=0)
    a = centre + (a - centre) * (1 + gap / np.linalg.norm(a - centre, axis=1).min())
    area, _ = cv2.intersectConvexConvex(a, b)
    return area > 0


# --- the camera --------------------------------------------------------------------

def frame_camera(rng: np.random.Generator, mats: list[PlacedMat], lens: cam.Lens,
                 max_tilt: float) -> cam.Camera | None:
    """A camera seeing every mat whole, every cell at least MIN_CELL_PX wide."""
    target = np.array([*rng.uniform(-40, 40, 2), 0.0])
    tilt = rng.uniform(0, max_tilt)
    azimuth, roll = rng.uniform(0, 360, 2)
    focal = rng.uniform(0.8, 1.15) * cam.WIDTH
    cell_px = rng.uniform(38, 58)
    distance = focal * min(m.spec.cell_mm for m in mats) / cell_px
    for _ in range(30):
        camera = cam.look_at(target, distance, tilt, azimuth, roll, focal, lens)
        smallest, fits = _check_view(camera, mats)
        if smallest < MIN_CELL_PX:
            distance *= smallest / (MIN_CELL_PX + 0.5)
            if not fits:
                return None
            continue
        if not fits:
            distance *= 1.06
            continue
        return camera
    return None


def _check_view(camera: cam.Camera, mats: list[PlacedMat]) -> tuple[float, bool]:
    smallest = np.inf
    fits = True
    for placed in mats:
        rows, cols = placed.spec.rows, placed.spec.cols
        rr, cc = np.mgrid[0:rows + 1, 0:cols + 1]
        pts = camera.image_points(placed.grid_world(rr.ravel(), cc.ravel()))
        pts = pts.reshape(rows + 1, cols + 1, 2)
        across = np.linalg.norm(np.diff(pts, axis=1), axis=-1).min()
        down = np.linalg.norm(np.diff(pts, axis=0), axis=-1).min()
        smallest = min(smallest, across, down)
        paper = camera.image_points(placed.paper_world())
        margin = 12
        if (paper.min() < margin or paper[:, 0].max() > cam.WIDTH - margin
                or paper[:, 1].max() > cam.HEIGHT - margin):
            fits = False
    return float(smallest), fits


# --- light and table --------------------------------------------------------------

def sample_gains(rng: np.random.Generator, mode: str) -> np.ndarray:
    """The light's colour cast as the camera's white balance leaves it."""
    if mode == "real":
        return rng.uniform(0.8, 1.2, 3).astype(np.float32)
    warm = rng.uniform(-1, 1)
    return np.array([1 + 0.1 * warm, 1 + rng.uniform(-0.04, 0.04), 1 - 0.1 * warm],
                    np.float32)


def sample_lamps(rng: np.random.Generator, mats: list[PlacedMat], camera: cam.Camera,
                 glare: bool) -> list[Lamp]:
    """A ceiling lamp, sometimes a desk lamp beside the table; one may mirror in a mat."""
    lamps = [Lamp(np.array([*rng.uniform(-900, 900, 2), rng.uniform(1300, 2500)]),
                  rng.uniform(100, 400), rng.uniform(0.7, 1.3))]
    if rng.random() < 0.6:
        angle = rng.uniform(0, 2 * np.pi)
        reach = rng.uniform(500, 1000)
        lamps.append(Lamp(np.array([reach * np.cos(angle), reach * np.sin(angle),
                                    rng.uniform(450, 900)]), rng.uniform(40, 150),
                          rng.uniform(0.2, 0.5)))
    if glare:
        lamps.append(_mirrored_lamp(rng, mats, camera))
    return lamps


def _mirrored_lamp(rng: np.random.Generator, mats: list[PlacedMat],
                   camera: cam.Camera) -> Lamp:
    """A lamp placed where its mirror image in the print falls on a chosen cell."""
    placed = mats[int(rng.integers(len(mats)))]
    spot = placed.grid_world(np.array([rng.uniform(0, placed.spec.rows)]),
                             np.array([rng.uniform(0, placed.spec.cols)]))[0]
    height = rng.uniform(900, 2200)
    eye = camera.centre
    xy = spot[:2] + (spot[:2] - eye[:2]) * (height / eye[2])
    return Lamp(np.array([*xy, height]), rng.uniform(60, 250), rng.uniform(0.3, 0.8))


def table_flat(rng: np.random.Generator, camera: cam.Camera, textured: bool) -> Flat:
    """The table top under the whole view, in table millimetres."""
    corners = np.array([[0, 0, 1], [cam.WIDTH, 0, 1], [cam.WIDTH, cam.HEIGHT, 1],
                        [0, cam.HEIGHT, 1]], float)
    centre = np.array([cam.WIDTH / 2, cam.HEIGHT / 2, 0])
    corners = centre + (corners - centre) * 1.35
    corners[:, 2] = 1
    world = corners @ np.linalg.inv(camera.plane_homography(0)).T
    world = world[:, :2] / world[:, 2:3]
    low, high = world.min(axis=0), world.max(axis=0)
    mm_per_px = 0.9
    width, height = (np.ceil((high - low) / mm_per_px).astype(int) + 1).tolist()
    width, height = min(width, 2600), min(height, 2600)
    mm_per_px = max((high - low)[0] / width, (high - low)[1] / height)
    albedo = textures.table_top(rng, height, width, textured)
    affine = np.array([[mm_per_px, 0, low[0]], [0, mm_per_px, low[1]], [0, 0, 1]])
    return Flat(albedo, np.ones((height, width), np.float32), 0.0, affine)


def clutter(rng: np.random.Generator, mats: list[PlacedMat], camera: cam.Camera) -> list[Flat]:
    """Printed pages, photo prints and marker-like sheets lying beside the mats."""
    flats = []
    for _ in range(int(rng.integers(0, 4))):
        width_mm, height_mm = rng.uniform(80, 210), rng.uniform(60, 180)
        ppmm = 2.0
        w, h = int(width_mm * ppmm), int(height_mm * ppmm)
        if rng.random() < 0.4:
            albedo = _marker_sheet(rng, h, w)
        else:
            albedo = textures.printed_page(rng, h, w)
        angle = rng.uniform(0, 2 * np.pi)
        for _ in range(40):
            origin = rng.uniform(-700, 700, 2)
            c, s = np.cos(angle), np.sin(angle)
            k = 1 / ppmm
            affine = np.array([[k * c, k * s, origin[0]], [k * s, -k * c, origin[1]], [0, 0, 1]])
            flat = Flat(albedo, np.ones((h, w), np.float32), 0.0, affine)
            if not any(_flat_overlaps(flat, placed) for placed in mats):
                flats.append(flat)
                break
    return flats


def _marker_sheet(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A page of square black-and-white codes: other dictionaries, random bits."""
    page = np.full((h, w), 235, np.uint8)
    side = int(rng.uniform(30, 60))
    others = [cv2.aruco.DICT_5X5_100, cv2.aruco.DICT_6X6_250, cv2.aruco.DICT_APRILTAG_36h11]
    dictionary = cv2.aruco.getPredefinedDictionary(int(rng.choice(others)))
    for top in range(10, h - side - 10, side + 20):
        for left in range(10, w - side - 10, side + 20):
            if rng.random() < 0.5:
                bits = (rng.random((6, 6)) < 0.5).astype(np.uint8) * 255
                bits[0, :] = bits[-1, :] = bits[:, 0] = bits[:, -1] = 0
                marker = cv2.resize(bits, (side, side), interpolation=cv2.INTER_NEAREST)
            else:
                marker = cv2.aruco.generateImageMarker(dictionary, int(rng.integers(50)), side)
            page[top:top + side, left:left + side] = marker
    return textures.srgb8_to_linear(np.repeat(page[..., None], 3, axis=2))


def _flat_overlaps(flat: Flat, placed: PlacedMat) -> bool:
    a = flat.outline()[:, :2].astype(np.float32)
    b = placed.paper_world()[:, :2].astype(np.float32)
    centre = b.mean(axis=0)
    b = centre + (b - centre) * 1.1
    area, _ = cv2.intersectConvexConvex(a, b)
    return area > 0


# --- the whole setup -----------------------------------------------------------------

def sample_setup(rng: np.random.Generator, mode: str,
                 specs: list[kit.MatSpec] | None = None) -> Setup:
    """Everything that stays put: mats, papers, table, camera, lens, lamps, sensor."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    real = mode == "real"
    for _ in range(60):
        gains = sample_gains(rng, mode)
        mats = place_mats(rng, list(specs) if specs else sample_mats(rng), mode, gains)
        # whole twentieths: a handful of strengths, so the lens's pixel maps are reused
        strength = round(rng.uniform(0.2, 1.0) * 20) / 20 if real else 0.0
        lens = cam.pick_lens(rng, strength) if real else cam.NO_LENS
        camera = frame_camera(rng, mats, lens, 30.0)
        if camera is not None:
            break
    else:
        raise RuntimeError("no camera framing found")
    glare = real and rng.random() < 0.5
    lamps = sample_lamps(rng, mats, camera, glare)
    casters = []
    if real and rng.random() < 0.6:
        placed = mats[int(rng.integers(len(mats)))]
        spot = placed.grid_world(np.array([rng.uniform(0, placed.spec.rows)]),
                                 np.array([rng.uniform(0, placed.spec.cols)]))[0][:2]
        caster = person_caster(rng, lamps[0].position, spot)
        if _out_of_view(camera, caster.outline):
            casters.append(caster)
    k1, k2 = lens.k1_k2() if real else (0.0, 0.0)
    setup = Setup(
        mode=mode, camera=camera, mats=mats, lamps=lamps, gains=gains,
        table=table_flat(rng, camera, textured=real),
        clutter=clutter(rng, mats, camera) if real else [],
        casters=casters, shininess=float(rng.uniform(300, 3000)),
        glare_peak=float(rng.uniform(0.4, 3.0)) if glare else 0.0,
        shadows=real, blur=float(rng.uniform(0.0, 1.2)), noise=float(rng.uniform(0.5, 8.0)),
        jpeg=int(rng.integers(60, 96)), vignette=float(rng.uniform(0.05, 0.3)) if real else 0.0,
        exposure=float(rng.uniform(0.78, 0.97)), paper_seed=int(rng.integers(1 << 30)))
    setup.conditions.update(_conditions(setup, lens, k1, k2))
    return setup


def _out_of_view(camera: cam.Camera, outline: np.ndarray) -> bool:
    cam_z = ((outline - camera.centre) @ camera.rotation.T)[:, 2]
    if np.any(cam_z <= 0):
        return True
    pts = camera.project(outline)
    inside = ((pts[:, 0] > -50) & (pts[:, 0] < cam.WIDTH + 50) & (pts[:, 1] > -50)
              & (pts[:, 1] < cam.HEIGHT + 50))
    return not inside.any()


def _conditions(setup: Setup, lens: cam.Lens, k1: float, k2: float) -> dict:
    camera = setup.camera
    tilt = float(np.degrees(np.arccos(-camera.rotation[2, 2])))
    smallest, _ = _check_view(camera, setup.mats)
    return {"mode": setup.mode, "tilt": round(tilt, 2), "cell_px": round(smallest, 1),
            "blur": round(setup.blur, 2), "noise": round(setup.noise, 2), "jpeg": setup.jpeg,
            "gains": [round(float(g), 3) for g in setup.gains], "lens": lens.name,
            "k1": round(k1, 4), "k2": round(k2, 4), "vignette": round(setup.vignette, 3),
            "glare_peak": round(setup.glare_peak, 2), "lamps": len(setup.lamps),
            "papers": [[round(float(t), 3) for t in m.tint] for m in setup.mats],
            "table": "textured" if setup.mode == "real" else "plain",
            "clutter": len(setup.clutter), "casters": len(setup.casters)}


# --- what lies on the mats ---------------------------------------------------------------

def warehouse_contents(rng: np.random.Generator, spec: kit.MatSpec, real: bool,
                       count: int | None = None) -> kit.MatContents:
    """A warehouse in play: catalogue cards (and some small ones) touching or on top."""
    cards: list[kit.Card] = []
    filled = np.zeros((spec.rows, spec.cols), bool)
    count = int(rng.integers(0, 15)) if count is None else count
    for _ in range(count):
        squares = _card_squares(rng)
        for _ in range(40):
            rows, cols = len(squares), len(squares[0])
            if rows > spec.rows or cols > spec.cols:
                break
            row = int(rng.integers(0, spec.rows - rows + 1))
            col = int(rng.integers(0, spec.cols - cols + 1))
            if cards and not _touches(filled, row, col, rows, cols):
                continue
            cards.append(new_card(rng, squares, row, col, real))
            filled[row:row + rows, col:col + cols] = True
            break
    return kit.MatContents(cards=cards)


def _card_squares(rng: np.random.Generator) -> list[str]:
    if rng.random() < 0.25:
        rows, cols = (int(v) for v in rng.integers(1, 3, 2))
        return ["".join(rng.choice(list("ABCDE#"), cols)) for _ in range(rows)]
    _, squares = warehouse_cards()[int(rng.integers(len(warehouse_cards())))]
    return kit.turn(list(squares), int(rng.choice([0, 90, 180, 270])))


def new_card(rng: np.random.Generator, squares: list[str], row: int, col: int,
             real: bool) -> kit.Card:
    """A card laid by hand: a little off the grid, a little turned."""
    return kit.Card(squares, row, col, dx=float(rng.uniform(-0.05, 0.05)),
                    dy=float(rng.uniform(-0.05, 0.05)), angle=float(rng.uniform(-1.2, 1.2)),
                    margin=float(rng.uniform(0.015, 0.05)),
                    stock=tuple(int(v) for v in rng.integers(232, 252, 3)),
                    gloss=float(rng.uniform(0, 0.8)) if real else 0.0)


def _touches(filled: np.ndarray, row: int, col: int, rows: int, cols: int) -> bool:
    """The card overlaps a card or shares an edge with one."""
    padded = np.pad(filled, 1)
    region = padded[row:row + rows + 2, col:col + cols + 2].copy()
    region[0, 0] = region[0, -1] = region[-1, 0] = region[-1, -1] = False
    return bool(region.any())


def tags_contents(rng: np.random.Generator, spec: kit.MatSpec,
                  count: int | None = None) -> kit.MatContents:
    """Removal items (or other tagged pieces) lying apart on a tags mat."""
    pieces: list[kit.Piece] = []
    filled = np.zeros((spec.rows, spec.cols), bool)
    count = int(rng.integers(0, 6)) if count is None else count
    items = removal_items()
    used: set[int] = set()
    for _ in range(count):
        if rng.random() < 0.85:
            tag, shape = items[int(rng.integers(len(items)))]
        else:
            tag = int(rng.integers(125, 250))
            shape = ("#",) if rng.random() < 0.5 else ("##",)
        if tag in used:
            continue
        rotation = int(rng.choice([0, 90, 180, 270]))
        piece = place_piece(rng, spec, filled, tag, list(shape), rotation)
        if piece is not None:
            pieces.append(piece)
            used.add(tag)
    return kit.MatContents(pieces=pieces)


def place_piece(rng: np.random.Generator, spec: kit.MatSpec, filled: np.ndarray, tag: int,
                shape: list[str], rotation: int) -> kit.Piece | None:
    """Lay a piece where it fits without touching another's squares."""
    turned = kit.turn(shape, rotation)
    tag_cell = kit.turn_cell(shape, (0, shape[0].index("#")), rotation)
    cells = np.array([[ch == "#" for ch in line] for line in turned])
    rows, cols = cells.shape
    if rows > spec.rows or cols > spec.cols:
        return None
    for _ in range(60):
        row = int(rng.integers(0, spec.rows - rows + 1))
        col = int(rng.integers(0, spec.cols - cols + 1))
        if np.any(filled[row:row + rows, col:col + cols] & cells):
            continue
        filled[row:row + rows, col:col + cols] |= cells
        return kit.Piece(turned, row, col, tag, tag_cell, rotation,
                         art_seed=int(rng.integers(1 << 30)), dx=float(rng.uniform(-0.04, 0.04)),
                         dy=float(rng.uniform(-0.04, 0.04)), angle=float(rng.uniform(-2, 2)),
                         inset=float(rng.uniform(0.03, 0.07)))
    return None


def sample_contents(rng: np.random.Generator, setup: Setup) -> dict[int, kit.MatContents]:
    real = setup.mode == "real"
    contents = {}
    for placed in setup.mats:
        spec = placed.spec
        contents[spec.id] = (warehouse_contents(rng, spec, real) if spec.kind == "colour"
                             else tags_contents(rng, spec))
    return contents


# --- hands ------------------------------------------------------------------------------

def hand_towards(rng: np.random.Generator, setup: Setup, placed: PlacedMat,
                 row: float, col: float, pose: str | None = None,
                 lift: float | None = None) -> Hand:
    """A hand reaching from outside the photo to grid position (row, col) of a mat."""
    target = placed.grid_world(np.array([row]), np.array([col]))[0][:2]
    angle = rng.uniform(0, 2 * np.pi)
    entry = target + 700 * np.array([np.cos(angle), np.sin(angle)])
    plan = HandPlan(entry, target, pose or str(rng.choice(POSES)),
                    float(rng.uniform(5, 80)) if lift is None else lift)
    return make_hand(rng, plan)


def sample_hands(rng: np.random.Generator, setup: Setup) -> list[Hand]:
    """None, one or two hands over the mats; now and then one over a corner marker."""
    count = int(rng.choice([0, 0, 0, 1, 1, 1, 2], 1)[0])
    hands: list[Hand] = []
    for _ in range(count):
        for _ in range(10):
            placed = setup.mats[int(rng.integers(len(setup.mats)))]
            spec = placed.spec
            if rng.random() < 0.2:
                row, col = [(-0.5, -0.5), (-0.5, spec.cols + 0.5), (spec.rows + 0.5, -0.5),
                            (spec.rows + 0.5, spec.cols + 0.5)][int(rng.integers(4))]
            else:
                row, col = rng.uniform(0, spec.rows), rng.uniform(0, spec.cols)
            hand = hand_towards(rng, setup, placed, row, col)
            if markers_left(setup, [*hands, hand]):
                hands.append(hand)
                break
    return hands


def markers_left(setup: Setup, hands: list[Hand]) -> bool:
    """Every mat keeps at least three of its corner markers clear of the hands."""
    if not hands:
        return True
    mask = np.zeros((cam.HEIGHT // 4, cam.WIDTH // 4), np.uint8)
    for hand in hands:
        for outline in hand.outlines():
            pts = setup.camera.image_points(outline) / 4
            pts = np.clip(pts, -4 * cam.WIDTH, 4 * cam.WIDTH)
            cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    mask = cv2.dilate(mask, np.ones((7, 7), np.uint8))
    for placed in setup.mats:
        spec = placed.spec
        corners = placed.grid_world(np.array([-0.5, -0.5, spec.rows + 0.5, spec.rows + 0.5]),
                                    np.array([-0.5, spec.cols + 0.5, spec.cols + 0.5, -0.5]))
        hidden = 0
        for point in setup.camera.image_points(corners) / 4:
            x, y = int(point[0]), int(point[1])
            if 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and mask[y, x]:
                hidden += 1
        if hidden > 1:
            return False
    return True
