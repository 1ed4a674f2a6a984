"""Finding ArUco markers: the mats' corner markers and the pieces' tags, in one pass.

``DICT_4X4_50`` is the start of ``DICT_4X4_250``, so one detector over the 250
dictionary finds both; ids 0–47 are mat corners, 50–249 are tags.

Example::

    >>> import numpy as np
    >>> detector = MarkerDetector()
    >>> detector.detect(np.full((120, 160, 3), 255, np.uint8)).corners
    {}
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.layout import FIRST_TAG_ID, LAST_TAG_ID, MAX_MAT_NUMBER

_LAST_MAT_MARKER = 4 * MAX_MAT_NUMBER + 3


@dataclass
class Detections:
    """Marker corners found in one image, by id: a 4×2 array each (ArUco corner order)."""

    corners: dict[int, np.ndarray]

    def mat_markers(self) -> dict[int, np.ndarray]:
        """The corner markers of mats (ids 0..47)."""
        return {i: c for i, c in self.corners.items() if i <= _LAST_MAT_MARKER}

    def tags(self) -> dict[int, np.ndarray]:
        """The pieces' tags (ids 50..249)."""
        return {i: c for i, c in self.corners.items() if FIRST_TAG_ID <= i <= LAST_TAG_ID}


def _parameters(config: ReaderConfig) -> cv2.aruco.DetectorParameters:
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = config.adaptive_window_min
    parameters.adaptiveThreshWinSizeMax = config.adaptive_window_max
    parameters.adaptiveThreshWinSizeStep = config.adaptive_window_step
    parameters.minMarkerPerimeterRate = config.min_marker_perimeter_rate
    parameters.maxMarkerPerimeterRate = config.max_marker_perimeter_rate
    parameters.polygonalApproxAccuracyRate = config.polygonal_approx_accuracy
    parameters.minCornerDistanceRate = config.min_corner_distance_rate
    parameters.errorCorrectionRate = config.error_correction_rate
    parameters.maxErroneousBitsInBorderRate = config.max_erroneous_border_bits
    parameters.perspectiveRemoveIgnoredMarginPerCell = config.bit_margin
    parameters.perspectiveRemovePixelPerCell = config.bit_cell_pixels
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
    return parameters


class MarkerDetector:
    """One ArUco detector, built once and reused for every image.

    Large images are searched at ``config.detect_scale``; the corners of the
    mats' markers are then refined with ``cornerSubPix`` on the full image.
    """

    def __init__(self, config: ReaderConfig = DEFAULT_CONFIG) -> None:
        self.config = config
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)
        self._detector = cv2.aruco.ArucoDetector(dictionary, _parameters(config))
        self._criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05)

    def detect(self, image: np.ndarray) -> Detections:
        """Every marker in a BGR or grey image, with corners in full-image pixels."""
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        scale = 1.0
        searched = grey
        if self.config.detect_scale < 1 and grey.shape[1] >= self.config.downscale_min_width:
            scale = self.config.detect_scale
            searched = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found, ids, _ = self._detector.detectMarkers(searched)
        if ids is None:
            return Detections({})
        corners: dict[int, np.ndarray] = {}
        for marker_id, points in zip(ids.ravel().tolist(), found, strict=True):
            if marker_id in corners:  # the same id twice: trust neither
                corners[marker_id] = np.full((4, 2), np.nan)
                continue
            corners[marker_id] = (points.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5
        corners = {i: c for i, c in corners.items() if not np.isnan(c).any()}
        self._refine(grey, corners)
        return Detections(corners)

    def _refine(self, grey: np.ndarray, corners: dict[int, np.ndarray]) -> None:
        mats = [i for i in corners if i <= _LAST_MAT_MARKER]
        if not mats:
            return
        points = np.concatenate([corners[i] for i in mats]).astype(np.float32)
        window = self.config.subpixel_window
        refined = cv2.cornerSubPix(grey, points.reshape(-1, 1, 2), (window, window), (-1, -1),
                                   self._criteria).reshape(-1, 4, 2)
        for marker_id, better in zip(mats, refined, strict=True):
            corners[marker_id] = better.astype(np.float64)
