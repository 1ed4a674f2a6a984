"""Calibrating a camera from views of the kit: intrinsics and lens distortion.

Every mat seen through three or four markers in a frame is one view of a
flat target whose corner points are known (the markers' corners, in cells).
OpenCV's ``calibrateCamera`` fits the camera matrix and the distortion
coefficients over all such views; the result is written as ``camera.json``
and read back with :func:`vision.lens.load_lens`.

Example::

    >>> import numpy as np
    >>> from vision.layout import MatSpec
    >>> views = CalibrationViews([MatSpec(0, 4, 6, "colour")])
    >>> views.add(np.full((480, 640, 3), 255, np.uint8))
    0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.errors import CameraCalibrationError
from vision.layout import MatSpec, marker_corners
from vision.lens import CalibratedLens
from vision.markers import MarkerDetector
from vision.mats import locate_mat, marker_pairs


class CalibrationViews:
    """Collects the mats' marker corners from frames, one view per mat seen well."""

    def __init__(self, specs: Sequence[MatSpec], config: ReaderConfig = DEFAULT_CONFIG) -> None:
        self.specs = list(specs)
        self.config = config
        self.detector = MarkerDetector(config)
        self.object_points: list[np.ndarray] = []
        self.image_points: list[np.ndarray] = []
        self.image_size: tuple[int, int] | None = None

    def add(self, frame: np.ndarray) -> int:
        """Take the views in one BGR frame; how many mats it gave."""
        height, width = frame.shape[:2]
        if self.image_size not in (None, (width, height)):
            raise CameraCalibrationError(
                f"frames of different sizes: {self.image_size} and {(width, height)}")
        self.image_size = (width, height)
        markers = self.detector.detect(frame).mat_markers()
        taken = 0
        for spec in self.specs:
            seen = marker_pairs(spec, markers)
            if len(seen) < self.config.calibration_min_markers:
                continue
            if locate_mat(frame, spec, markers, self._loose()) is None:
                continue  # not the printed layout: a stray decode
            mat = np.concatenate([marker_corners(spec, corner) for corner in seen])
            self.object_points.append(np.column_stack([mat, np.zeros(len(mat))])
                                      .astype(np.float32))
            self.image_points.append(np.concatenate(list(seen.values())).astype(np.float32))
            taken += 1
        return taken

    def _loose(self) -> ReaderConfig:
        """Markers bent by an uncalibrated lens still have to agree, only less tightly."""
        return replace(self.config, pose_marker_error_share=self.config.calibration_marker_share)

    def calibrate(self) -> tuple[CalibratedLens, float]:
        """The lens and the RMS reprojection error in pixels.

        Raises :class:`CameraCalibrationError` with fewer than
        ``config.calibration_min_views`` views.
        """
        if self.image_size is None or len(self.object_points) < self.config.calibration_min_views:
            raise CameraCalibrationError(
                f"{len(self.object_points)} views of a mat through 3 or more markers; "
                f"at least {self.config.calibration_min_views} are needed (move the camera "
                "or the mats between frames)")
        width, height = self.image_size
        guess = np.array([[width, 0, (width - 1) / 2], [0, width, (height - 1) / 2], [0, 0, 1]])
        flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3
                 | cv2.CALIB_FIX_ASPECT_RATIO)
        rms, matrix, distortion, _, _ = cv2.calibrateCamera(
            self.object_points, self.image_points, self.image_size, guess, np.zeros(5),
            flags=flags)
        return CalibratedLens(matrix, distortion.ravel(), self.image_size), float(rms)


def calibrate_camera(frames: Iterable[np.ndarray], specs: Sequence[MatSpec],
                     config: ReaderConfig = DEFAULT_CONFIG,
                     max_frames: int | None = None) -> tuple[CalibratedLens, float, int]:
    """Calibrate from ``frames``: the lens, its RMS error (px) and the number of views."""
    views = CalibrationViews(specs, config)
    for index, frame in enumerate(frames):
        if max_frames is not None and index >= max_frames:
            break
        views.add(frame)
    lens, rms = views.calibrate()
    return lens, rms, len(views.object_points)
