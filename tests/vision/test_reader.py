"""The reader on the committed fixture photos, and its pieces on hand-made inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.helpers import FIXTURES, compare, load_truth, specs_of
from vision.errors import ImageError
from vision.layout import MatSpec
from vision.reader import Reader, load_image

PHOTOS = sorted((FIXTURES / "photos").glob("*.jpg"))
GAMES = sorted(path for path in (FIXTURES / "games").glob("*.jpg")
               if "frame" not in path.name)  # frames need their calibration photo


@pytest.mark.parametrize("image", PHOTOS + GAMES, ids=lambda path: path.name)
def test_fixture_photos_are_read_without_a_wrong_class(image) -> None:
    truth = load_truth(image)
    seen = Reader(specs_of(truth)).read_file(image)
    assert seen["image"] == str(image)
    for truth_mat, mat in zip(truth["mats"], seen["mats"], strict=True):
        if not mat["found"]:  # allowed only when a hand and its shadow hide it all
            assert set("".join(truth_mat["covered"])) == {"1"}, f"mat {truth_mat['id']}"
            continue
        counts = compare(truth_mat, mat)
        assert counts["wrong"] == 0
        assert counts["false_tags"] == 0
        assert counts["missed_tags"] == 0
        clear = sum(row.count("0") for row in truth_mat["covered"])
        assert counts["unknown_clear"] <= max(1, clear // 20)


def test_a_mat_not_in_the_picture_is_not_found() -> None:
    truth = load_truth(PHOTOS[0])
    present = {mat["id"] for mat in truth["mats"]}
    absent = next(number for number in range(12) if number not in present)
    reader = Reader([*specs_of(truth), MatSpec(absent, 4, 6, "colour")])
    mats = reader.read(load_image(PHOTOS[0]))
    assert mats[-1] == {"id": absent, "found": False}
    assert all(mat["found"] for mat in mats[:-1])


def test_a_mat_read_with_the_wrong_size_still_keeps_its_own_cells() -> None:
    truth = load_truth(GAMES[0])
    spec = specs_of(truth)[0]
    mats = Reader([spec]).read(load_image(GAMES[0]))
    assert len(mats[0]["cells"]) == spec.rows
    assert {len(row) for row in mats[0]["cells"]} == {spec.cols}


def test_one_reader_reads_many_images_in_order() -> None:
    reader = Reader([MatSpec(n, 4, 6, "colour") for n in range(12)])
    ids_first = reader.detector._detector
    results = [reader.read_file(path) for path in PHOTOS[:3]]
    assert [result["image"] for result in results] == [str(path) for path in PHOTOS[:3]]
    assert reader.detector._detector is ids_first


def test_unreadable_images_raise_image_error(tmp_path) -> None:
    not_image = tmp_path / "notes.jpg"
    not_image.write_text("hello")
    with pytest.raises(ImageError, match="not an image"):
        load_image(not_image)
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "absent.jpg")
    with pytest.raises(ImageError, match="directory"):
        load_image(tmp_path)


def test_a_blank_image_finds_nothing() -> None:
    reader = Reader([MatSpec(0, 4, 6, "colour")])
    assert reader.read(np.full((1080, 1920, 3), 200, np.uint8)) == [{"id": 0, "found": False}]


def test_a_frame_reads_empty_board_cells_against_its_calibration_photo() -> None:
    image = FIXTURES / "games" / "removal-frame.jpg"
    truth = load_truth(image)["mats"][0]
    spec = [MatSpec(9, 6, 8, "tags")]
    photo = load_image(image)
    empty = load_image(FIXTURES / "games" / "removal-frame-empty.jpg")
    calibrated = Reader(spec, empty_boards={9: empty}).read(photo)[0]
    counts = compare(truth, calibrated)
    assert (counts["wrong"], counts["missed_tags"], counts["false_tags"]) == (0, 0, 0)
    assert counts["unknown_clear"] <= 6
    plain = Reader(spec).read(photo)[0]
    assert "." not in "".join(plain["cells"])  # the board's artwork is never "empty" unaided


def test_a_calibration_photo_without_the_mat_is_refused() -> None:
    from vision.errors import CalibrationError

    other = load_image(PHOTOS[0])
    with pytest.raises(CalibrationError, match="not found") as caught:
        Reader([MatSpec(9, 6, 8, "tags")], empty_boards={9: other})
    assert caught.value.mat_id == 9
    with pytest.raises(CalibrationError, match="tags mat"):
        Reader([MatSpec(9, 6, 8, "colour")], empty_boards={9: other})
