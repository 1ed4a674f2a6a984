"""No phantom mats: a mat is found only where the photo agrees with its printed geometry."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from devkit.vision.realistic import realistic_photo
from tests.vision.negatives import load_negative, negative_photo_paths
from vision.layout import MatSpec, marker_centre
from vision.reader import Reader
from vision.render import marker_picture

NEGATIVES = negative_photo_paths()
EVERY_MAT = [MatSpec(n, 4, 6, "colour" if n % 2 else "tags") for n in range(12)]


def test_the_real_photos_are_installed() -> None:
    assert len(NEGATIVES) >= 30  # scikit-image's and matplotlib's sample photos (dev extra)


@pytest.mark.parametrize("path", NEGATIVES, ids=lambda path: path.name)
def test_no_mat_and_no_tag_in_a_real_photo_without_the_kit(path) -> None:
    reader = Reader(EVERY_MAT)
    for frame in load_negative(path):
        for image in (frame, cv2.resize(frame, None, fx=2, fy=2)):
            assert [mat for mat in reader.read(image) if mat["found"]] == []


def _stick(image: np.ndarray, marker_id: int, centre: tuple[int, int], side: int,
           white: int = 0) -> None:
    """A marker of ``side`` px (with a ``white`` px white rim) pasted upright at ``centre``."""
    picture = cv2.resize(marker_picture(marker_id), (side, side), interpolation=cv2.INTER_NEAREST)
    if white:
        picture = cv2.copyMakeBorder(picture, white, white, white, white, cv2.BORDER_CONSTANT,
                                     value=(245, 245, 245))
    half = picture.shape[0] // 2
    x, y = centre
    image[y - half:y - half + picture.shape[0], x - half:x - half + picture.shape[1]] = picture


def _photo() -> np.ndarray:
    path = next(p for p in NEGATIVES if p.name == "astronaut.png")
    return cv2.resize(load_negative(path)[0], (1536, 1536))


def test_a_loose_corner_marker_sticker_is_not_a_mat() -> None:
    image = _photo()
    _stick(image, 4, (700, 700), 60, white=12)   # mat 1's top-left marker, on its own
    _stick(image, 130, (900, 700), 60, white=12)  # and a tag beside it
    assert Reader(EVERY_MAT).read(image)[1] == {"id": 1, "found": False}


def test_two_markers_of_one_mat_in_the_wrong_layout_are_not_a_mat() -> None:
    spec = MatSpec(2, 4, 6, "colour")  # TL and TR markers are 7 cells apart
    for gap_cells, size_px, found in ((7, 40, True), (4, 40, False), (7, 20, False)):
        image = np.full((900, 1200, 3), 120, np.uint8)
        _stick(image, 8, (200, 300), size_px)
        _stick(image, 9, (200 + gap_cells * 50, 300), size_px)
        assert Reader([spec]).read(image)[0]["found"] is found, (gap_cells, size_px)


def test_markers_disagreeing_with_the_rest_are_dropped() -> None:
    spec = MatSpec(0, 3, 4, "tags")
    image = np.full((900, 1200, 3), 245, np.uint8)
    cell = 60
    for corner in range(3):
        x, y = marker_centre(spec, corner)
        _stick(image, corner, (round(300 + x * cell), round(200 + y * cell)), 48)
    _stick(image, 3, (1000, 800), 48)  # the BL marker far from where the others put it
    reader = Reader([spec])
    mat = reader.read(image)[0]
    assert mat["found"] and reader.observe(image).poses[0].markers_seen == 3


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_clutter_beside_the_mats_finds_no_extra_mat_or_tag(seed) -> None:
    photo = realistic_photo(np.random.default_rng(seed), ("clutter", "texture"))
    assert photo.truth["params"]["clutter"] > 0
    present = {mat["id"]: mat for mat in photo.truth["mats"]}
    specs = [MatSpec(n, present[n]["rows"], present[n]["cols"], present[n]["kind"])
             if n in present else EVERY_MAT[n] for n in range(12)]
    for mat in Reader(specs).read(photo.image):
        truth = present.get(mat["id"])
        assert mat["found"] is (truth is not None), mat["id"]
        if truth is not None:
            expected = {(t["id"], t["row"], t["col"]) for t in truth["tags"]}
            assert {(t["id"], t["row"], t["col"]) for t in mat["tags"]} <= expected


def _flat_mat(spec: MatSpec, ppc: int) -> np.ndarray:
    from vision.render import MatContent, draw_mat

    flat = draw_mat(MatContent.empty(spec), ppc, np.random.default_rng(0))
    image = np.full((flat.shape[0] + 200, flat.shape[1] + 200, 3), (90, 110, 140), np.uint8)
    image[100:100 + flat.shape[0], 100:100 + flat.shape[1]] = flat
    return image


def test_one_marker_with_its_printed_border_is_a_mat_read_near_the_marker_only() -> None:
    spec, ppc = MatSpec(5, 6, 8, "tags"), 48
    image = _flat_mat(spec, ppc)
    for corner in (1, 2, 3):  # cover three markers with a brown cloth
        x, y = marker_centre(spec, corner)
        u, v = round(100 + (x + 1.5) * ppc), round(100 + (y + 1.5) * ppc)
        image[v - ppc // 2:v + ppc // 2, u - ppc // 2:u + ppc // 2] = (40, 60, 90)
    reader = Reader([spec])
    mat = reader.read(image)[0]
    assert reader.observe(image).poses[5].markers_seen == 1
    assert mat["cells"][0][:3] == "..." and mat["cells"][-1][-1] == "?"
    # the same marker with the border around it covered is not enough
    x, y = marker_centre(spec, 0)
    u, v = round(100 + (x + 1.5) * ppc), round(100 + (y + 1.5) * ppc)
    image[v + ppc // 2:v + 4 * ppc, u - ppc:u + ppc] = (40, 60, 90)
    image[v - ppc:v + ppc, u + ppc // 2:u + 4 * ppc] = (40, 60, 90)
    assert reader.read(image)[0] == {"id": 5, "found": False}


def _cover(image: np.ndarray, ppc: int, x0: float, y0: float, x1: float, y1: float) -> None:
    """Brown cloth over the mat region x0..x1, y0..y1 (mat coordinates) of a _flat_mat."""
    u0, v0 = round(100 + (x0 + 1.5) * ppc), round(100 + (y0 + 1.5) * ppc)
    u1, v1 = round(100 + (x1 + 1.5) * ppc), round(100 + (y1 + 1.5) * ppc)
    image[v0:v1, u0:u1] = (40, 60, 90)


def test_one_marker_with_only_the_border_beside_it_is_a_mat_when_the_grid_corner_shows() -> None:
    spec, ppc = MatSpec(5, 6, 8, "tags"), 48
    image = _flat_mat(spec, ppc)
    _cover(image, ppc, 1.0, -1.5, 9.5, 0.0)   # the top border but for the cell beside TL
    _cover(image, ppc, -1.5, 1.0, 0.0, 7.5)   # the left border but for the cell beside TL
    _cover(image, ppc, 1.0, 1.0, 9.5, 7.5)    # the rest of the mat, its markers with it
    reader = Reader([spec])
    mat = reader.read(image)[0]
    assert mat["found"] and reader.observe(image).poses[5].markers_seen == 1
    assert mat["cells"][0][0] == "."
    # a marker on a white page has the white beside it but no grid corner
    x0, y0 = round(100 + 1.5 * ppc), round(100 + 1.5 * ppc)
    image[y0:y0 + ppc, x0:x0 + ppc] = (245, 245, 245)
    assert reader.read(image)[0] == {"id": 5, "found": False}


def test_a_marker_run_into_a_shadow_is_found_where_the_lone_marker_puts_it() -> None:
    spec, ppc = MatSpec(5, 3, 3, "tags"), 48
    image = _flat_mat(spec, ppc)
    _cover(image, ppc, 4.0 - 1.0, -1.5, 4.5, 0.0)   # TR marker under cloth
    _cover(image, ppc, -1.5, 3.0, 0.0, 4.5)         # BL marker under cloth
    _cover(image, ppc, 0.0, -1.5, 3.0, 0.0)         # the border round TL too: no white frame
    _cover(image, ppc, -1.5, 0.0, 0.0, 3.0)
    x, y = marker_centre(spec, 2)                    # a dark shadow touching BR's frame
    u, v = round(100 + (x + 1.5) * ppc), round(100 + (y + 1.5) * ppc)
    image[v - ppc:v - 19, u - ppc:u + ppc] = (35, 30, 30)
    reader = Reader([spec])
    assert sorted(reader.detector.detect(image, {20, 21, 22, 23}).mat_markers()) == [20]
    observation = reader.observe(image)
    assert observation.mats[0]["found"] and observation.poses[5].markers_seen == 2
