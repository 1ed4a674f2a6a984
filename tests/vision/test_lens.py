"""Wide lenses: the radial lens, its estimate from the mats, and camera calibration."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from devkit.vision.realistic import Strength, calibration_views, realistic_photo
from vision.calibrate import CalibrationViews, calibrate_camera
from vision.errors import CalibrationFileError, CameraCalibrationError
from vision.layout import MatSpec, marker_corners
from vision.lens import CalibratedLens, RadialLens, estimate_radial_lens, load_lens
from vision.reader import Reader

CENTRE, FOCAL = (959.5, 539.5), 0.9 * 1920


def test_radial_lens_undistorts_what_it_distorts() -> None:
    lens = RadialLens(-0.28, CENTRE, FOCAL)
    points = np.random.default_rng(0).uniform([0, 0], [1920, 1080], (50, 2))
    assert np.abs(lens.distort(lens.undistort(points)) - points).max() < 1e-3
    corner = lens.distort(np.array([[0.0, 0.0]]))[0]
    assert corner[0] > 0 and corner[1] > 0  # barrel: the frame's corner is pulled inwards


def test_k1_is_estimated_from_the_marker_corners_of_a_mat() -> None:
    spec = MatSpec(0, 8, 10, "colour")
    mat = np.concatenate([marker_corners(spec, corner) for corner in range(4)])
    homography = np.array([[70.0, 8, 250], [-6, 68, 120], [1e-4, 5e-5, 1]])
    ideal = cv2.perspectiveTransform(mat.reshape(-1, 1, 2), homography).reshape(-1, 2)
    bent = RadialLens(-0.25, CENTRE, FOCAL).distort(ideal)
    estimate = estimate_radial_lens([(mat, bent)], (1080, 1920, 3))
    assert estimate is not None and estimate.k1 == pytest.approx(-0.25, abs=0.01)
    assert estimate_radial_lens([(mat, ideal)], (1080, 1920, 3)) is None  # straight: no lens


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_strong_barrel_distortion_is_read_without_a_calibration(seed) -> None:
    strength = Strength(k1_low=-0.28, k1_high=-0.28, k2=0.0)
    photo = realistic_photo(np.random.default_rng(seed), ("distortion",), strength)
    specs = [MatSpec(m["id"], m["rows"], m["cols"], m["kind"]) for m in photo.truth["mats"]]
    clear = unknown = 0
    for truth, mat in zip(photo.truth["mats"], Reader(specs).read(photo.image), strict=True):
        assert mat["found"]
        for true_cell, seen in zip("".join(truth["cells"]), "".join(mat["cells"]), strict=True):
            assert seen in ("?", true_cell)
            clear += 1
            unknown += seen == "?"
    assert unknown <= clear // 50


def test_calibration_from_views_of_a_mat_recovers_the_lens() -> None:
    spec = MatSpec(0, 6, 8, "colour")
    frames = calibration_views(np.random.default_rng(5), spec, 8, -0.28)
    lens, rms, views = calibrate_camera(frames, [spec])
    assert views == 8 and rms < 1.0
    truth = RadialLens(-0.28, (960.0, 540.0), FOCAL)
    points = np.random.default_rng(1).uniform([300, 200], [1620, 880], (40, 2))
    assert np.abs(lens.undistort(points) - truth.undistort(points)).max() < 30  # same bending
    straight = lens.undistort(truth.distort(points))
    assert np.abs(straight - points).std() < 8  # up to the matrix's own scale
    # read through the calibrated lens
    image = frames[0]
    mat = Reader([spec], lens=lens).read(image)[0]
    assert mat["found"] and set("".join(mat["cells"])) == {"."}


def test_too_few_views_are_refused() -> None:
    views = CalibrationViews([MatSpec(0, 4, 6, "colour")])
    with pytest.raises(CameraCalibrationError, match="at least"):
        views.calibrate()


def test_camera_json_round_trip_and_its_faults(tmp_path) -> None:
    lens = CalibratedLens(np.array([[1500.0, 0, 960], [0, 1500, 540], [0, 0, 1]]),
                          np.array([-0.2, 0.05, 0, 0, 0]), (1920, 1080))
    path = tmp_path / "camera.json"
    path.write_text(json.dumps(lens.to_json()))
    again = load_lens(path)
    points = np.array([[100.0, 100.0], [1800, 1000]])
    assert np.allclose(again.undistort(again.distort(points)), points, atol=0.05)
    for document, place in (([1], "$"), ({"camera_matrix": [1, 2]}, "$.camera_matrix"),
                            ({**lens.to_json(), "distortion": [0.1, "x"]}, "$.distortion"),
                            ({**lens.to_json(), "distortion": [0.1, 0.2]}, "$.distortion")):
        path.write_text(json.dumps(document))
        with pytest.raises(CalibrationFileError) as caught:
            load_lens(path)
        assert caught.value.place == place
