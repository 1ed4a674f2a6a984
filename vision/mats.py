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

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.layout import BORDER, MARKER_SIDE, MatSpec, marker_corners


@dataclass(frozen=True)
class MatPose:
    """Where a mat lies in an image: the homography from mat coordinates to pixels."""

    homography: np.ndarray
    markers_seen: int

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Mat coordinates (N×2) → image pixels."""
        return _transform(self.homography, points)

    def to_mat(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N×2) → mat coordinates."""
        return _transform(np.linalg.inv(self.homography), points)


def _transform(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    shaped = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(shaped, h).reshape(-1, 2)


def fit_pose(spec: MatSpec, markers: dict[int, np.ndarray],
             config: ReaderConfig = DEFAULT_CONFIG) -> MatPose | None:
    """The pose of ``spec`` from the detected ``markers`` (id → 4×2 corners), or None.

    ``markers`` may hold any markers; only this mat's four are used.
    """
    pairs = [(marker_corners(spec, corner), markers[marker_id])
             for corner, marker_id in enumerate(spec.marker_ids()) if marker_id in markers]
    if not pairs:
        return None
    source = np.concatenate([mat for mat, _ in pairs]).astype(np.float64)
    target = np.concatenate([image for _, image in pairs]).astype(np.float64)
    if len(pairs) == 1:
        homography, _ = cv2.findHomography(source, target, 0)
    else:
        homography, _ = cv2.findHomography(source, target, cv2.RANSAC, config.pose_ransac_px)
    if homography is None:
        return None
    errors = np.linalg.norm(_transform(homography, source) - target, axis=1)
    if float(np.median(errors)) > config.pose_max_error_px:
        return None
    return MatPose(homography, len(pairs))


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
    parts outside the photo come out black.
    """
    ppc = px_per_cell
    from_rectified = np.array([[1 / ppc, 0, 0.5 / ppc - BORDER], [0, 1 / ppc, 0.5 / ppc - BORDER],
                               [0, 0, 1]])
    size = (round((spec.cols + 2 * BORDER) * ppc), round((spec.rows + 2 * BORDER) * ppc))
    return cv2.warpPerspective(image, pose.homography @ from_rectified, size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)


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
