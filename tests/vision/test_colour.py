"""Colour from the mat itself: strong independent casts, crosstalk and clipping."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.cells import colour_correction, to_lab
from vision.layout import CLASS_COLOURS, MatSpec
from vision.reader import Reader
from vision.render import render_photo

CASTS = [gains for gains in itertools.product((0.8, 1.2), repeat=3) if len(set(gains)) > 1]


@pytest.fixture(scope="module")
def photo():
    specs = [(MatSpec(0, 6, 9, "colour"), 20.0), (MatSpec(1, 5, 5, "tags"), 20.0)]
    return render_photo(np.random.default_rng(404), specs)


@pytest.mark.parametrize("gains", CASTS, ids=str)
def test_each_channel_cast_on_its_own_reads_right_even_where_white_clips(photo, gains) -> None:
    # applied to the finished photo, so a gain of 1.2 clips the paper white at 255
    bgr = np.array(gains[::-1], np.float32)
    image = np.clip(photo.image.astype(np.float32) * bgr, 0, 255).astype(np.uint8)
    seen = Reader([MatSpec(0, 6, 9, "colour"), MatSpec(1, 5, 5, "tags")]).read(image)
    clear = unknown = 0
    for truth, mat in zip(photo.truth["mats"], seen, strict=True):
        assert mat["found"]
        for true_row, covered_row, row in zip(truth["cells"], truth["covered"], mat["cells"],
                                              strict=True):
            for true_cell, covered, cell in zip(true_row, covered_row, row, strict=True):
                assert cell in ("?", true_cell)
                clear += covered == "0"
                unknown += covered == "0" and cell == "?"
    assert unknown <= max(2, clear // 50)


def test_the_colour_map_undoes_crosstalk_learnt_from_the_cards() -> None:
    names = list("ABCDE#.")
    printed = np.array([CLASS_COLOURS[name] for name in names], np.float32)
    mixing = np.array([[0.9, 0.1, 0.0], [0.05, 0.9, 0.05], [0.0, 0.15, 0.85]], np.float32)
    seen = printed @ mixing.T
    pixels = np.repeat(seen[None, :, None, :], 9, axis=2)       # 1 row of 7 cells, 9 px each
    labels = np.array([names])
    correction = colour_correction(pixels, labels)
    assert correction is not None
    fixed = seen @ correction[:3] + correction[3]
    assert np.abs(to_lab(fixed) - to_lab(printed)).max() < 6


def test_no_colour_map_from_too_few_colours() -> None:
    pixels = np.full((1, 2, 9, 3), 205, np.float32)
    assert colour_correction(pixels, np.array([[".", "."]])) is None
