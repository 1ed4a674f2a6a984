"""A tag id seen twice: the copy on a mat is the piece's, a loose sticker beside the mats is not."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.helpers import FIXTURES, load_truth, specs_of
from vision.reader import Reader
from vision.render import marker_picture

PHOTO = FIXTURES / "games" / "moving-day.jpg"


def _with_sticker(image: np.ndarray, tag_id: int, left: int, top: int) -> np.ndarray:
    """``image`` with a loose sticker of ``tag_id`` (a 32 px marker on white) pasted in."""
    sticker = np.full((48, 48, 3), 245, np.uint8)
    sticker[8:40, 8:40] = cv2.resize(marker_picture(tag_id), (32, 32),
                                     interpolation=cv2.INTER_AREA)
    spoilt = image.copy()
    spoilt[top:top + 48, left:left + 48] = sticker
    return spoilt


def _tags(reader: Reader, image: np.ndarray) -> dict[int, list[dict[str, int]]]:
    return {mat["id"]: mat["tags"] for mat in reader.read(image) if mat["found"]}


def test_a_loose_sticker_beside_the_mats_leaves_the_piece_on_its_mat() -> None:
    image = cv2.imread(str(PHOTO))
    reader = Reader(specs_of(load_truth(PHOTO)))
    before = _tags(reader, image)
    assert {"id": 122, "row": 0, "col": 1, "rotation": 180} in before[3]
    spoilt = _with_sticker(image, 122, 150, 900)
    assert _tags(reader, spoilt) == before
    assert 122 in reader.detector.detect(spoilt).repeated  # both copies were seen


def test_two_copies_of_a_tag_on_the_mats_are_both_dropped() -> None:
    image = cv2.imread(str(PHOTO))
    reader = Reader(specs_of(load_truth(PHOTO)))
    mat_3 = reader.observe(image).poses[3]
    left, top = np.round(mat_3.to_image(np.array([[1.5, 2.5]]))[0] - 24).astype(int)
    spoilt = _with_sticker(image, 122, left, top)  # over the cell of tag 124
    assert 122 in reader.detector.detect(spoilt).repeated
    seen = _tags(reader, spoilt)
    assert all(tag["id"] != 122 for tags in seen.values() for tag in tags)
