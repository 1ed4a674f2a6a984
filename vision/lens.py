"""Lens distortion: a wide lens bows straight lines; a mat's pose must bow with them.

Two lenses, one interface (``distort``: ideal pinhole pixels → pixels in the
photo; ``undistort``: the reverse):

- :class:`RadialLens`, one coefficient ``k1`` around the image centre, which
  the reader estimates from the mats' own marker corners when there is no
  calibration (:func:`estimate_radial_lens`);
- :class:`CalibratedLens`, OpenCV's camera matrix and distortion
  coefficients from ``packref vision calibrate`` (:func:`load_lens`).

Example::

    >>> import numpy as np
    >>> lens = RadialLens(-0.2, (960.0, 540.0), 1728.0)
    >>> bowed = lens.distort(np.array([[1800.0, 1000.0]]))
    >>> np.round(lens.undistort(bowed), 3).tolist()
    [[1800.0, 1000.0]]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.errors import CalibrationFileError


class Lens(Protocol):
    """What a pose needs of a lens."""

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal (pinhole) pixels N×2 → pixels in the photo."""

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Pixels in the photo N×2 → ideal (pinhole) pixels."""


@dataclass(frozen=True)
class RadialLens:
    """``r_d = r (1 + k1 r²)``, ``r`` measured from ``centre`` in units of ``focal`` pixels."""

    k1: float
    centre: tuple[float, float]
    focal: float

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pixels → photo pixels."""
        offset = (np.asarray(points, np.float64) - self.centre) / self.focal
        r2 = (offset * offset).sum(axis=-1, keepdims=True)
        return self.centre + offset * (1 + self.k1 * r2) * self.focal

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Photo pixels → ideal pixels (Newton's method on the radius)."""
        seen = (np.asarray(points, np.float64) - self.centre) / self.focal
        bent = np.sqrt((seen * seen).sum(axis=-1, keepdims=True))
        radius = bent.copy()
        for _ in range(6):  # solve radius + k1 radius³ = bent
            slope = np.maximum(1 + 3 * self.k1 * radius * radius, 0.1)
            radius = radius - (radius + self.k1 * radius ** 3 - bent) / slope
        scale = np.where(bent > 0, radius / np.maximum(bent, 1e-12), 1.0)
        return self.centre + seen * scale * self.focal


@dataclass(frozen=True)
class CalibratedLens:
    """OpenCV's pinhole camera ``matrix`` (3×3) and ``distortion`` coefficients."""

    matrix: np.ndarray
    distortion: np.ndarray
    image_size: tuple[int, int]

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pixels → photo pixels (``cv2.projectPoints`` of the normalised rays)."""
        flat = np.asarray(points, np.float64).reshape(-1, 2)
        rays = np.column_stack([flat, np.ones(len(flat))]) @ np.linalg.inv(self.matrix).T
        projected, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3),
                                         self.matrix, self.distortion)
        return projected.reshape(-1, 2)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Photo pixels → ideal pixels (``cv2.undistortPoints`` back into the same matrix)."""
        flat = np.asarray(points, np.float64).reshape(-1, 1, 2)
        ideal = cv2.undistortPoints(flat, self.matrix, self.distortion, P=self.matrix)
        return ideal.reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        """The ``camera.json`` document."""
        return {"image_size": list(self.image_size),
                "camera_matrix": np.round(self.matrix, 6).tolist(),
                "distortion": np.round(self.distortion.ravel(), 8).tolist()}


def load_lens(path: str | Path) -> CalibratedLens:
    """A ``camera.json`` written by ``packref vision calibrate``.

    Raises :class:`CalibrationFileError` naming the JSON place that is wrong.
    """
    try:
        document = json.loads(Path(path).read_text())
    except OSError as error:
        raise CalibrationFileError("$", f"cannot read {path} ({error.strerror})") from None
    except ValueError:
        raise CalibrationFileError("$", f"{path} is not JSON") from None
    if not isinstance(document, dict):
        raise CalibrationFileError("$", "must be an object")
    matrix = _numbers(document, "camera_matrix", 9)
    distortion = _numbers(document, "distortion", None)
    size = _numbers(document, "image_size", 2)
    if len(distortion) not in (4, 5, 8, 12, 14):
        raise CalibrationFileError("$.distortion", "must hold 4, 5, 8, 12 or 14 numbers")
    if matrix[0] <= 0 or matrix[4] <= 0:
        raise CalibrationFileError("$.camera_matrix", "focal lengths must be positive")
    return CalibratedLens(matrix.reshape(3, 3), distortion,
                          (int(size[0]), int(size[1])))


def _numbers(document: dict, key: str, count: int | None) -> np.ndarray:
    value = document.get(key)
    flat = np.array(value, dtype=object).ravel() if isinstance(value, list) else None
    if flat is None or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                               for v in flat):
        raise CalibrationFileError(f"$.{key}", "must be a list of numbers")
    if count is not None and len(flat) != count:
        raise CalibrationFileError(f"$.{key}", f"must hold {count} numbers")
    return flat.astype(np.float64)


def _fit_error(pairs: list[tuple[np.ndarray, np.ndarray]], lens: RadialLens,
               cap_px: float) -> float:
    """Sum over mats of the capped squared reprojection error with ``lens``."""
    total = 0.0
    for mat_points, image_points in pairs:
        ideal = lens.undistort(image_points)
        homography, _ = cv2.findHomography(mat_points, ideal, 0)
        if homography is None:
            total += cap_px ** 2 * len(mat_points)
            continue
        mapped = cv2.perspectiveTransform(mat_points.reshape(-1, 1, 2), homography)
        errors = np.linalg.norm(lens.distort(mapped.reshape(-1, 2)) - image_points, axis=1)
        total += float(np.minimum(errors, cap_px) ** 2 @ np.ones(len(errors)))
    return total


def estimate_radial_lens(pairs: list[tuple[np.ndarray, np.ndarray]],
                         image_shape: tuple[int, ...],
                         config: ReaderConfig = DEFAULT_CONFIG) -> RadialLens | None:
    """The ``k1`` that lets one homography per mat fit its marker corners best, or None.

    ``pairs``: per mat, its marker corners in mat coordinates and in the
    photo (at least 12 points: three markers). No lens (None) when straight
    lines fit within ``config.lens_skip_rms_px`` (RMS), or bending them gains
    less than ``config.lens_min_gain_px``.
    """
    pairs = [pair for pair in pairs if len(pair[0]) >= config.lens_min_points]
    if not pairs:
        return None
    height, width = image_shape[:2]
    centre, focal = ((width - 1) / 2, (height - 1) / 2), config.lens_focal_share * width
    count = sum(len(mat) for mat, _ in pairs)
    cap = config.lens_error_cap_px

    def error(k1: float) -> float:
        return _fit_error(pairs, RadialLens(k1, centre, focal), cap)

    straight = math.sqrt(error(0.0) / count)
    if straight < config.lens_skip_rms_px:
        return None
    candidates = np.arange(config.lens_k1_min, config.lens_k1_max + 1e-9, config.lens_k1_step)
    errors = [error(float(k)) for k in candidates]
    best = int(np.argmin(errors))
    low = float(candidates[max(best - 1, 0)])
    high = float(candidates[min(best + 1, len(candidates) - 1)])
    for _ in range(config.lens_refine_steps):  # golden section between the best's neighbours
        a, b = low + 0.382 * (high - low), low + 0.618 * (high - low)
        if error(a) < error(b):
            high = b
        else:
            low = a
    k1 = (low + high) / 2
    bent = math.sqrt(error(k1) / count)
    if straight - bent < config.lens_min_gain_px:
        return None
    return RadialLens(k1, centre, focal)

