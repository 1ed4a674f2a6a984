"""A mat's pose (mat coordinates → image pixels) from its corner markers, and rectification.

Each visible corner marker gives four point pairs; the homography is fitted
over all of them at once (RANSAC when there are two markers or more), so any
subset of the four markers fixes the mat.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec, marker_corners
    >>> spec = MatSpec(0, 4, 6, "tags")
    >>> seen = {i: marker_corners(spec, i) * 40 + 100 for i in range(3)}   # BL hidden
    >>> pose = fit_pose(spec, seen)
    >>> np.round(pose.to_image(np.array([[0.0, 0.0], [6.0, 4.0]])), 3).tolist()
    [[100.0, 100.0], [340.0, 260.0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.lattice import LatticeShift
from vision.layout import (
    BORDER,
    MARKER_SIDE,
    MatSpec,
    border_sample_cells,
    marker_centre,
    marker_corners,
)
from vision.lens import Lens, RadialLens, estimate_radial_lens


@dataclass(frozen=True)
class MatPose:
    """Where a mat lies in an image: the homography from mat coordinates to ideal
    (pinhole) pixels, then the ``lens`` bending them into the photo (None: straight)."""

    homography: np.ndarray
    markers_seen: int
    lens: Lens | None = None
    #: The corner (0 TL … 3 BL) of the only marker seen, when just one was.
    single_corner: int | None = None
    #: Where the printed grid lines showed the lattice really is (``vision.lattice``).
    lattice: LatticeShift | None = None

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Mat coordinates (N×2) → image pixels."""
        if self.lattice is not None:
            points = self.lattice.apply(points)
        ideal = _transform(self.homography, points)
        return ideal if self.lens is None else self.lens.distort(ideal)

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N×2) → mat coordinates."""
        ideal = points if self.lens is None else self.lens.undistort(points)
        flat = _transform(np.linalg.inv(self.homography), ideal)
        return flat if self.lattice is None else self.lattice.invert(flat)


def _transform(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    shaped = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(shaped, h).reshape(-1, 2)


def marker_pairs(spec: MatSpec, markers: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """This mat's markers among ``markers`` (id → 4×2 image corners), by corner 0..3."""
    return {corner: markers[marker_id] for corner, marker_id in enumerate(spec.marker_ids())
            if marker_id in markers}


def _homography(seen: dict[int, np.ndarray], spec: MatSpec, lens: Lens | None,
                config: ReaderConfig) -> np.ndarray | None:
    source = np.concatenate([marker_corners(spec, corner) for corner in seen])
    target = np.concatenate(list(seen.values())).astype(np.float64)
    if lens is not None:
        target = lens.undistort(target)
    if len(seen) == 1:
        # One small square's corners fix its perspective poorly: a tilt read from
        # a pixel of noise swings the border cells a few cells away off the mat.
        # An affine map (least squares over the four corners) extrapolates steadily.
        ones = np.ones((len(source), 1))
        affine = np.linalg.lstsq(np.hstack([source, ones]), target, rcond=None)[0].T
        return np.vstack([affine, [0.0, 0.0, 1.0]])
    homography, _ = cv2.findHomography(source, target, cv2.RANSAC, config.pose_ransac_px)
    return homography


def _marker_errors(pose: MatPose, spec: MatSpec, seen: dict[int, np.ndarray],
                   config: ReaderConfig) -> dict[int, float]:
    """Per corner marker: its worst corner's error over the allowed error (≤ 1 agrees)."""
    errors = {}
    for corner, image in seen.items():
        side = float(np.linalg.norm(image - np.roll(image, -1, axis=0), axis=1).mean())
        allowed = max(config.pose_marker_error_px, config.pose_marker_error_share * side)
        worst = np.linalg.norm(pose.to_image(marker_corners(spec, corner)) - image, axis=1).max()
        errors[corner] = float(worst) / allowed
    return errors


def _camera_like(pose: MatPose, spec: MatSpec, config: ReaderConfig) -> bool:
    """Whether the pose could come from a camera: upright (not mirrored), cells of a
    plausible size, and not much larger on one side of the mat than the other."""
    xs = np.array([0.0, spec.cols, spec.cols, 0.0, spec.cols / 2])
    ys = np.array([0.0, 0.0, spec.rows, spec.rows, spec.rows / 2])
    scales = []
    for x, y in zip(xs, ys, strict=True):
        square = pose.to_image(np.array([[x, y], [x + 1, y], [x, y + 1]]))
        across, down = square[1] - square[0], square[2] - square[0]
        scales.append(across[0] * down[1] - across[1] * down[0])  # signed area of a cell
    scales = np.array(scales)
    if scales.min() <= 0:
        return False
    sides = np.sqrt(scales)
    return bool(sides.min() >= config.pose_min_cell_px
                and sides.max() <= config.pose_max_scale_ratio * sides.min())


def fit_pose(spec: MatSpec, markers: dict[int, np.ndarray],
             config: ReaderConfig = DEFAULT_CONFIG, lens: Lens | None = None) -> MatPose | None:
    """The pose of ``spec`` from the detected ``markers`` (id → 4×2 corners), or None.

    ``markers`` may hold any markers; only this mat's four are used. With two
    or more, every marker kept must agree with the fit of all of them (its
    corners where the printed layout puts them, :func:`_marker_errors`); a
    marker that does not is dropped and the rest refitted. A pose from one
    marker alone says nothing about the layout: :func:`locate_mat` verifies it
    against the printed border before it is believed.
    """
    seen = marker_pairs(spec, markers)
    while seen:
        homography = _homography(seen, spec, lens, config)
        if homography is None:
            return None
        pose = MatPose(homography, len(seen), lens,
                       next(iter(seen)) if len(seen) == 1 else None)
        errors = _marker_errors(pose, spec, seen, config)
        worst = max(errors, key=errors.get)
        if errors[worst] <= 1.0:
            return pose if _camera_like(pose, spec, config) else None
        if len(seen) <= 2:  # two markers that disagree: neither can be trusted
            return None
        del seen[worst]
    return None


def pose_agrees(pose: MatPose, spec: MatSpec, markers: dict[int, np.ndarray],
                tolerance_px: float) -> bool:
    """Whether the markers of ``spec`` seen now still sit where ``pose`` puts them."""
    errors = [np.linalg.norm(pose.to_image(marker_corners(spec, corner)) - markers[marker_id],
                             axis=1)
              for corner, marker_id in enumerate(spec.marker_ids()) if marker_id in markers]
    return not errors or float(np.median(np.concatenate(errors))) <= tolerance_px


def rectify(image: np.ndarray, spec: MatSpec, pose: MatPose,
            px_per_cell: int) -> np.ndarray:
    """The mat with its border, seen from straight above at ``px_per_cell``.

    Pixel (u, v) of the result shows mat point ((u + 0.5) / ppc − 1, (v + 0.5) / ppc − 1);
    parts outside the photo come out black. Through a lens or a refined
    lattice, every pixel is looked up where the pose puts it (``cv2.remap``).
    """
    ppc = px_per_cell
    from_rectified = np.array([[1 / ppc, 0, 0.5 / ppc - BORDER], [0, 1 / ppc, 0.5 / ppc - BORDER],
                               [0, 0, 1]])
    size = (round((spec.cols + 2 * BORDER) * ppc), round((spec.rows + 2 * BORDER) * ppc))
    if pose.lens is None and pose.lattice is None:
        return cv2.warpPerspective(image, pose.homography @ from_rectified, size,
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    us, vs = np.meshgrid(np.arange(size[0], dtype=np.float64), np.arange(size[1]))
    mat_points = (np.stack([us.ravel(), vs.ravel()], -1) + 0.5) / ppc - BORDER
    where = pose.to_image(mat_points).astype(np.float32).reshape(size[1], size[0], 2)
    return cv2.remap(image, where, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=0)


def cells_in_frame(spec: MatSpec, pose: MatPose, image_shape: tuple[int, ...]) -> np.ndarray:
    """A rows×cols boolean array: which cells lie wholly inside the photo."""
    xs, ys = np.meshgrid(np.arange(spec.cols + 1), np.arange(spec.rows + 1))
    corners = pose.to_image(np.stack([xs, ys], -1).reshape(-1, 2))
    height, width = image_shape[:2]
    inside = ((corners[:, 0] >= 0) & (corners[:, 0] <= width - 1) & (corners[:, 1] >= 0)
              & (corners[:, 1] <= height - 1)).reshape(spec.rows + 1, spec.cols + 1)
    return inside[:-1, :-1] & inside[1:, :-1] & inside[:-1, 1:] & inside[1:, 1:]


_BIT_CACHE: dict[int, np.ndarray] = {}


def _marker_bits(marker_id: int) -> np.ndarray:
    """The 6×6 bits of a DICT_4X4_250 marker, black border included (True = white)."""
    if marker_id not in _BIT_CACHE:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
        _BIT_CACHE[marker_id] = cv2.aruco.generateImageMarker(dictionary, marker_id, 6) > 127
    return _BIT_CACHE[marker_id]


def marker_paper_white(image: np.ndarray, spec: MatSpec, pose: MatPose,
                       seen: set[int]) -> tuple[np.ndarray, np.ndarray] | None:
    """The paper white at each seen marker of this mat: (centres K×2 in mat coordinates,
    median colours K×3 of the markers' white bits, in the image's channel order)."""
    centres, colours = [], []
    height, width = image.shape[:2]
    bit = MARKER_SIDE / 6
    for corner, marker_id in enumerate(spec.marker_ids()):
        if marker_id not in seen:
            continue
        rows, cols = np.nonzero(_marker_bits(marker_id))
        top_left = marker_corners(spec, corner)[0]
        points = top_left + np.stack([(cols + 0.5) * bit, (rows + 0.5) * bit], -1)
        pixels = np.round(pose.to_image(points)).astype(int)
        inside = ((pixels[:, 0] >= 0) & (pixels[:, 0] < width) & (pixels[:, 1] >= 0)
                  & (pixels[:, 1] < height))
        if inside.any():
            centres.append(points.mean(axis=0))
            colours.append(np.median(image[pixels[inside, 1], pixels[inside, 0]], axis=0))
    if not centres:
        return None
    return np.array(centres, np.float32), np.array(colours, np.float32)


def _square_samples(pose: MatPose, image: np.ndarray, centre: tuple[float, float],
                    half: float) -> np.ndarray | None:
    """Pixels (N×3) of a small square of mat coordinates, or None when it leaves the photo."""
    steps = np.linspace(-half, half, 5)
    xs, ys = np.meshgrid(centre[0] + steps, centre[1] + steps)
    pixels = np.round(pose.to_image(np.stack([xs.ravel(), ys.ravel()], -1))).astype(int)
    height, width = image.shape[:2]
    if (pixels.min() < 0 or pixels[:, 0].max() >= width or pixels[:, 1].max() >= height):
        return None
    return image[pixels[:, 1], pixels[:, 0]].astype(np.float32)


def _white_places(spec: MatSpec, corner: int, reach: float) -> list[tuple[float, float, float]]:
    """Centres and half-sides of printed white near corner marker ``corner``: the plain
    border cells within ``reach`` cells, and the margin strip just outside them."""
    mx, my = marker_centre(spec, corner)
    places = []
    for row, col in border_sample_cells(spec):
        x, y = col + 0.5, row + 0.5
        if math.hypot(x - mx, y - my) <= reach:
            places.append((x, y, 0.3))
            # the margin outside this border cell: away from the grid across the border
            out_x = -1.25 if col < 0 else spec.cols + 1.25 if col >= spec.cols else x
            out_y = -1.25 if row < 0 else spec.rows + 1.25 if row >= spec.rows else y
            places.append((out_x, out_y, 0.15))
    places.append((mx + (-0.75 if mx < 0 else 0.75), my, 0.15))  # margin beside the marker
    places.append((mx, my + (-0.75 if my < 0 else 0.75), 0.15))
    return places


def border_confirms(image: np.ndarray, spec: MatSpec, pose: MatPose,
                    config: ReaderConfig = DEFAULT_CONFIG) -> bool:
    """Whether the printed white border and margin lie around a mat's only seen marker.

    A place is white when it is as bright as the marker's own white bits
    (within ``single_marker_white_ratio``), even, and of the same tint; enough
    border cells and margin places must be (a hand may hide the rest). A
    stray square that decodes by chance in a photo has no such white frame.
    When an arm and its shadow hide all but the two border cells beside the
    marker, those two are enough if the grid's corner shows beside them too
    (:func:`grid_corner_seen`).
    """
    corner = pose.single_corner if pose.single_corner is not None else 0
    anchors = marker_paper_white(image, spec, pose, {spec.marker_ids()[corner]})
    if anchors is None:
        return False
    white = anchors[1][0]
    tint = white / max(float(white.mean()), 1.0)
    passed = cells = beside = 0
    mx, my = marker_centre(spec, corner)
    for x, y, half in _white_places(spec, corner, config.single_marker_reach):
        pixels = _square_samples(pose, image, (x, y), half)
        if pixels is None:
            continue
        mean = pixels.mean(axis=0)
        level = float(mean.mean())
        ratios = (mean / max(level, 1.0)) / tint
        good = (level >= config.single_marker_white_ratio * float(white.mean())
                and float(pixels.std(axis=0).max()) <= config.single_marker_white_evenness * level
                and float(ratios.max() - ratios.min()) <= config.white_tint_tolerance)
        passed += good
        cells += good and half > 0.2
        beside += good and half > 0.2 and math.hypot(x - mx, y - my) <= 1.0
    if passed - cells < config.single_marker_min_margin_places:
        return False
    return cells >= config.single_marker_min_white_cells or (
        beside == 2 and grid_corner_seen(image, spec, pose, corner, float(white.mean()), config))


def grid_corner_seen(image: np.ndarray, spec: MatSpec, pose: MatPose, corner: int,
                     white: float, config: ReaderConfig = DEFAULT_CONFIG) -> bool:
    """Whether the grid's corner next to corner marker ``corner`` shows: along both of
    its sides, the white border outside is clearly brighter than the grid inside
    (the grey cells, the grid line or whatever lies on them), at the printed place.

    A marker sticker lying on a page or a table has no such step at one cell's
    distance on two sides at once.
    """
    gx = 0.0 if corner in (0, 3) else float(spec.cols)
    gy = 0.0 if corner in (0, 1) else float(spec.rows)
    sx, sy = (1.0 if gx == 0 else -1.0), (1.0 if gy == 0 else -1.0)
    depth, half = config.single_marker_grid_depth, config.single_marker_grid_half
    for along in config.single_marker_grid_along:
        for outside, inside in (
                ((gx + sx * along, gy - sy * depth), (gx + sx * along, gy + sy * depth)),
                ((gx - sx * depth, gy + sy * along), (gx + sx * depth, gy + sy * along))):
            out_pixels = _square_samples(pose, image, outside, half)
            in_pixels = _square_samples(pose, image, inside, half)
            if out_pixels is None or in_pixels is None:
                return False
            out_level, in_level = float(out_pixels.mean()), float(in_pixels.mean())
            if (out_level < config.single_marker_white_ratio * white
                    or in_level > (1 - config.single_marker_grid_step) * out_level):
                return False
    return True


def _mat_lens(spec: MatSpec, markers: dict[int, np.ndarray], image_shape: tuple[int, ...],
              config: ReaderConfig) -> RadialLens | None:
    """A radial lens from the markers of this mat alone (two or more), or None."""
    seen = marker_pairs(spec, markers)
    if len(seen) < 2:
        return None
    pair = (np.concatenate([marker_corners(spec, corner) for corner in seen]),
            np.concatenate(list(seen.values())))
    low, high = config.pose_mat_lens_k1
    lens = estimate_radial_lens([pair], image_shape,
                                replace(config, lens_min_points=8, lens_k1_min=low,
                                        lens_k1_max=high))
    return lens if lens is not None and low <= lens.k1 <= high else None


def locate_mat(image: np.ndarray, spec: MatSpec, markers: dict[int, np.ndarray],
               config: ReaderConfig = DEFAULT_CONFIG, lens: Lens | None = None) -> MatPose | None:
    """The pose of ``spec`` if the photo agrees with its printed geometry, else None.

    Two or more markers must agree with the layout (:func:`fit_pose`); a
    single marker must have the printed white border round it
    (:func:`border_confirms`). Without a lens, two markers near the frame's
    edge may disagree only because the lens bows the mat between them: then
    a radial lens is estimated from this mat's markers alone (within the
    spec's range, ``pose_mat_lens_k1``) and they must agree through it.
    """
    pose = fit_pose(spec, markers, config, lens)
    if pose is None and lens is None:
        lens = _mat_lens(spec, markers, image.shape, config)
        pose = None if lens is None else fit_pose(spec, markers, config, lens)
    if pose is not None and pose.markers_seen == 1 and not border_confirms(image, spec, pose,
                                                                           config):
        return None
    return pose


def cells_near(spec: MatSpec, corner: int, reach: float) -> np.ndarray:
    """A rows×cols boolean array: the cells whose centre lies within ``reach`` cells
    of corner marker ``corner``."""
    mx, my = marker_centre(spec, corner)
    xs, ys = np.meshgrid(np.arange(spec.cols) + 0.5, np.arange(spec.rows) + 0.5)
    return np.hypot(xs - mx, ys - my) <= reach
