"""The stages of the pipeline on small hand-made inputs."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cells import classify_cells, fit_white, tolerance_scale
from vision.layout import CLASS_COLOURS, WHITE, MatSpec, border_sample_cells, marker_corners
from vision.mats import fit_pose, pose_agrees
from vision.tags import tag_rotation, tags_on_mat

PPC = 16


def flat_mat(spec: MatSpec, cells: list[str]) -> np.ndarray:
    """A rectified mat (RGB, border included) with flat colours and patches."""
    image = np.full(((spec.rows + 2) * PPC, (spec.cols + 2) * PPC, 3), WHITE, np.float32)
    for row, line in enumerate(cells):
        for col, name in enumerate(line):
            colour = CLASS_COLOURS.get(name, (30, 120, 200))
            image[(row + 1) * PPC:(row + 2) * PPC, (col + 1) * PPC:(col + 2) * PPC] = colour
    if spec.has_patches:
        for col, name in enumerate("ABCDE#"):
            image[3:PPC - 3, (col + 1) * PPC + 3:(col + 2) * PPC - 3] = CLASS_COLOURS[name]
    return image


def lit(image: np.ndarray, gain: tuple[float, float, float], slope: float) -> np.ndarray:
    """``image`` under a colour cast and a left-to-right light gradient."""
    width = image.shape[1]
    ramp = 1 + slope * (np.arange(width) / width - 0.5) * 2
    return np.clip(image * np.array(gain) * ramp[None, :, None], 0, 255)


@pytest.mark.parametrize("gain", [(1.0, 1.0, 1.0), (0.8, 1.0, 1.2), (1.0, 0.75, 0.8)])
@pytest.mark.parametrize("slope", [0.0, 0.3])
def test_colour_cells_survive_casts_and_uneven_light(gain, slope) -> None:
    spec = MatSpec(0, 3, 7, "colour")
    cells = ["A.B#C.D", "E.....#", "ABCDE#."]
    image = lit(flat_mat(spec, cells) * 0.75, gain, slope)
    assert classify_cells(image, spec, PPC) == cells


def test_an_unknown_colour_is_a_question_mark_not_a_guess() -> None:
    spec = MatSpec(0, 1, 6, "colour")
    image = flat_mat(spec, ["A....."])
    image[PPC:2 * PPC, 2 * PPC:3 * PPC] = (230, 180, 150)  # skin over cell (0, 1)
    image[PPC:2 * PPC, 3 * PPC:4 * PPC] = (120, 120, 120)  # a deep shadow over (0, 2)
    assert classify_cells(image, spec, PPC) == ["A??..."]


def test_an_arm_crossing_the_border_makes_its_cells_unknown_on_a_tags_mat() -> None:
    spec = MatSpec(0, 3, 4, "tags")
    image = flat_mat(spec, ["....", "....", "...."])
    image[:, 2 * PPC + 4:3 * PPC - 2] = (225, 190, 165)  # an arm from the top edge down
    assert classify_cells(image, spec, PPC) == [".?..", ".?..", ".?.."]


def test_an_arms_shadow_like_the_empty_grey_does_not_swallow_the_empty_cells() -> None:
    # under a cast the empty grey sits 25 from its printed colour; the arm's shadow on
    # the border, 40 from it, is within reach of the cells' own look
    spec = MatSpec(0, 5, 6, "tags")
    image = flat_mat(spec, ["......"] * 5)
    image[PPC:-PPC, PPC:-PPC] = (185, 190, 200)
    image[-PPC:, -3 * PPC:] = image[-3 * PPC:, -PPC:] = (175, 180, 195)  # the shadow
    image[4 * PPC + 4:, 6 * PPC + 4:] = (150, 95, 70)  # the arm, up the last column
    assert classify_cells(image, spec, PPC) == ["......"] * 3 + [".....?"] * 2


def test_tag_cells_are_covered_on_a_tags_mat() -> None:
    spec = MatSpec(0, 1, 3, "tags")
    image = flat_mat(spec, ["..."])
    assert classify_cells(image, spec, PPC, tag_cells={(0, 2)}) == ["..X"]


def test_cells_outside_the_photo_are_unknown() -> None:
    spec = MatSpec(0, 1, 3, "tags")
    visible = np.array([[True, True, False]])
    assert classify_cells(flat_mat(spec, ["..."]), spec, PPC, visible=visible) == ["..?"]


def test_white_fit_ignores_a_border_sample_under_a_hand() -> None:
    spec = MatSpec(0, 4, 6, "tags")
    cells = border_sample_cells(spec)
    positions = np.array([(c + 0.5, r + 0.5) for r, c in cells], np.float32)
    white = 200 + 5 * positions[:, :1]  # brighter to the right
    pixels = np.repeat(np.repeat(white, 3, axis=1)[:, None, :], 9, axis=1).astype(np.float32)
    pixels[0] = (220, 180, 150)
    model = fit_white(positions, pixels)
    assert model is not None
    assert model.at(np.array([3.0]), np.array([2.0]))[0] == pytest.approx([215.0] * 3, abs=0.5)


def test_dark_classes_get_a_tighter_tolerance() -> None:
    assert tolerance_scale(np.array([[45.0, 45, 45]]))[0] < tolerance_scale(
        np.array([[205.0, 205, 205]]))[0]


def test_pose_from_any_subset_of_markers() -> None:
    spec = MatSpec(2, 5, 7, "colour")
    truth = np.array([[30.0, 4, 100], [-3, 28, 200], [0.001, 0.0005, 1]])
    import cv2
    seen_all = {marker_id: cv2.perspectiveTransform(marker_corners(spec, corner)[None], truth)[0]
                for corner, marker_id in enumerate(spec.marker_ids())}
    for hidden in range(4):
        seen = {i: c for i, c in seen_all.items() if i != spec.marker_ids()[hidden]}
        pose = fit_pose(spec, seen)
        assert pose is not None and pose.markers_seen == 3
        expected = cv2.perspectiveTransform(np.array([[[3.5, 2.5]]]), truth)[0]
        assert np.allclose(pose.to_image(np.array([[3.5, 2.5]])), expected, atol=1e-6)
        assert pose_agrees(pose, spec, seen_all, 0.5)
    assert fit_pose(spec, {99: seen_all[spec.marker_ids()[0]]}) is None


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_tag_rotation_is_clockwise(turns) -> None:
    upright = np.array([[0.0, 0], [1, 0], [1, 1], [0, 1]])
    assert tag_rotation(np.roll(upright, -turns, axis=0)) == 90 * turns


def test_tags_off_the_grid_or_of_the_wrong_size_are_ignored() -> None:
    from vision.layout import square_corners
    from vision.mats import MatPose

    spec = MatSpec(1, 2, 2, "tags")
    pose = MatPose(np.diag([40.0, 40.0, 1.0]), 4)
    tags = {60: square_corners((0.5, 0.5), 0.7) * 40, 61: square_corners((-0.5, 0.5), 0.7) * 40,
            62: square_corners((1.5, 1.5), 0.2) * 40}
    assert [tag["id"] for tag in tags_on_mat(tags, spec, pose)] == [60]
