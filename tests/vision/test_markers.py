"""Finding markers: a blurred mat marker the detector cannot decode is rescued, nothing else;
a tag without contrast is no tag."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.markers import MarkerDetector, _pattern, _pattern_match

_DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_250)


def _blurred_marker(marker_id: int, side: int = 30, blur: float = 2.0,
                    angle: float = 37.0) -> tuple[np.ndarray, np.ndarray]:
    """A small marker turned by ``angle`` and blurred so that its lone white bits turn
    grey; the image and the marker's true corners (TL, TR, BR, BL)."""
    image = np.full((300, 300), 235, np.uint8)
    picture = cv2.aruco.generateImageMarker(_DICTIONARY, marker_id, 600)
    image[130:130 + side, 130:130 + side] = cv2.resize(picture, (side, side),
                                                       interpolation=cv2.INTER_AREA)
    turn = cv2.getRotationMatrix2D((150, 150), angle, 1.0)
    image = cv2.GaussianBlur(cv2.warpAffine(image, turn, (300, 300), borderValue=235),
                             (0, 0), blur)
    corners = np.float32([[[130, 130], [130 + side, 130], [130 + side, 130 + side],
                           [130, 130 + side]]]) - 0.5
    return image, cv2.transform(corners, turn)[0]


def test_a_blurred_mat_marker_the_detector_misses_is_rescued_with_its_corners() -> None:
    image, truth = _blurred_marker(35)
    detector = MarkerDetector()
    assert detector.detect(image).corners == {}  # the detector alone cannot decode it
    found = detector.detect(image, wanted={34, 35}).corners
    assert sorted(found) == [35]
    assert np.abs(found[35] - truth).max() < 1.5  # the top-left corner first, as ArUco gives


def test_only_the_wanted_markers_are_rescued() -> None:
    image, _ = _blurred_marker(35)
    assert MarkerDetector().detect(image, wanted={12, 13}).corners == {}


def test_a_plain_grey_square_is_no_marker() -> None:
    image = np.full((300, 300), 235, np.uint8)
    cv2.rectangle(image, (120, 120), (160, 160), 20, -1)
    cv2.rectangle(image, (128, 128), (152, 152), 120, -1)
    assert MarkerDetector().detect(cv2.GaussianBlur(image, (0, 0), 1.0),
                                   wanted=set(range(48))).corners == {}


def test_a_pattern_matches_only_when_every_white_bit_is_clearly_brighter() -> None:
    bits = np.where(_pattern(35), 180.0, 10.0)
    bits[2, 1] = 90.0  # a lone white bit washed grey: still above every black bit
    assert _pattern_match(bits, {34, 35}, 0.15, 40.0) == (35, 0)
    assert _pattern_match(np.rot90(bits, 1), {35}, 0.15, 40.0) == (35, 1)
    bits[3, 2] = 100.0  # a black bit brighter than a white one: not this marker
    assert _pattern_match(bits, {35}, 0.15, 40.0) is None
    assert _pattern_match(np.full((6, 6), 120.0), {35}, 0.15, 40.0) is None  # no contrast


def _faint_tag(tag_id: int, dark: int, light: int) -> np.ndarray:
    """A tag printed in two greys on white paper, slightly blurred."""
    image = np.full((800, 800), 235, np.uint8)
    picture = cv2.aruco.generateImageMarker(_DICTIONARY, tag_id, 60)
    image[370:430, 370:430] = np.where(picture > 127, light, dark)
    return cv2.GaussianBlur(image, (0, 0), 0.8)


def test_a_tag_decoded_from_a_square_without_contrast_is_dropped() -> None:
    # a glare-washed card: a smooth grey square whose faint shading decodes by chance
    washed = _faint_tag(117, 120, 140)
    assert cv2.aruco.ArucoDetector(_DICTIONARY).detectMarkers(washed)[1].ravel().tolist() == [117]
    assert MarkerDetector().detect(washed).tags() == {}
    assert sorted(MarkerDetector().detect(_faint_tag(117, 30, 220)).tags()) == [117]


def test_a_faint_copy_of_a_tag_id_does_not_hide_the_real_tag() -> None:
    # the faint square is dropped before ids seen twice are told apart
    image = _faint_tag(117, 120, 140)
    image[100:160, 100:160] = _faint_tag(117, 30, 220)[370:430, 370:430]
    found = MarkerDetector().detect(image)
    assert sorted(found.tags()) == [117] and found.repeated == {}
    assert found.tags()[117].mean(axis=0) == pytest.approx((129.5, 129.5), abs=2)
