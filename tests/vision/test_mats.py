"""Finding a mat's pose: two markers bowed apart by an uncalibrated wide lens."""

from __future__ import annotations

import cv2
import numpy as np

from devkit.vision.realistic import distort_image
from vision.layout import MatSpec, marker_centre
from vision.markers import MarkerDetector
from vision.mats import fit_pose, locate_mat
from vision.render import MatContent, draw_mat

PPC = 44


def _mat_near_the_edge(spec: MatSpec, k1: float, hidden: tuple[int, ...]) -> np.ndarray:
    """A 1080p photo of an empty ``spec`` turned by 200° near the frame's bottom right,
    the ``hidden`` corner markers under brown cloth, through barrel distortion ``k1``."""
    flat = draw_mat(MatContent.empty(spec), PPC, np.random.default_rng(0))
    for corner in hidden:
        x, y = marker_centre(spec, corner)
        u, v = round((x + 1.5) * PPC), round((y + 1.5) * PPC)
        flat[v - PPC // 2:v + PPC // 2, u - PPC // 2:u + PPC // 2] = (40, 60, 90)
    height, width = flat.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), 200, 1.0)
    turn[:, 2] += (1600 - width / 2, 800 - height / 2)
    photo = np.full((1080, 1920, 3), (60, 140, 40), np.uint8)
    inside = cv2.warpAffine(np.ones((height, width), np.uint8), turn, (1920, 1080)) > 0
    photo[inside] = cv2.warpAffine(flat, turn, (1920, 1080))[inside]
    return np.clip(distort_image(photo.astype(np.float32), k1, 0.0), 0, 255).astype(np.uint8)


def test_two_markers_bowed_apart_by_the_lens_are_found_through_a_lens_of_their_own() -> None:
    spec = MatSpec(10, 8, 7, "colour")
    image = _mat_near_the_edge(spec, -0.28, hidden=(1, 3))
    markers = MarkerDetector().detect(image).mat_markers()
    assert sorted(markers) == [40, 42]
    assert fit_pose(spec, markers) is None  # straight lines cannot hold both
    pose = locate_mat(image, spec, markers)
    assert pose is not None and pose.markers_seen == 2
    assert -0.35 <= pose.lens.k1 <= -0.15


def test_two_markers_in_the_wrong_layout_stay_refused_whatever_the_lens() -> None:
    spec = MatSpec(10, 8, 7, "colour")
    image = _mat_near_the_edge(spec, -0.28, hidden=(1, 3))
    markers = MarkerDetector().detect(image).mat_markers()
    wrong = MatSpec(10, 6, 7, "colour")  # the BR marker two rows off where it should be
    assert locate_mat(image, wrong, markers) is None
