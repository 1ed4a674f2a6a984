"""Printing the kit at home: paper-size pages, tiled mats, a 100 mm scale bar on each page."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from vision.errors import KitError
from vision.kit import (
    OVERLAP_MM,
    PAGE_MARGIN_MM,
    SCALE_BAR_MM,
    KitMat,
    MatRequest,
    Sticker,
    paper_size,
    printable_mm,
    tile_spans,
)
from vision.kit_print import draw_kit_mat, draw_sticker_sheets, tile_mat, write_kit
from vision.layout import MatSpec

PX = 2.0


def _mat(rows: int, cols: int, cell_mm: float, number: int = 3) -> KitMat:
    request = MatRequest("small-warehouse", "test", rows, cols, "colour", cell_mm)
    return KitMat(request, MatSpec(number, rows, cols, "colour"))


def _media_boxes(pdf: bytes) -> list[tuple[float, float]]:
    return [(float(w) * 25.4 / 72, float(h) * 25.4 / 72)
            for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)]


@pytest.mark.parametrize(("paper", "size"), [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
def test_every_page_is_the_paper_size(tmp_path, paper, size) -> None:
    mats = [_mat(8, 10, 20.0, 1), _mat(3, 6, 10.0, 2)]
    write_kit(tmp_path, mats, [Sticker(60, "a", 20.0)] * 3, px_per_mm=PX, paper=paper)
    for name in ("small-warehouse.pdf", "tags.pdf"):
        boxes = _media_boxes((tmp_path / name).read_bytes())
        assert boxes
        for box in boxes:
            assert box == pytest.approx(size, abs=0.01)
    # the 8 x 10 mat (260 mm wide) takes two pages, the small one a single page
    assert len(_media_boxes((tmp_path / "small-warehouse.pdf").read_bytes())) == 3


def test_without_paper_pages_stay_true_size(tmp_path) -> None:
    write_kit(tmp_path, [_mat(8, 10, 20.0)], [], px_per_mm=PX)
    (box,) = _media_boxes((tmp_path / "small-warehouse.pdf").read_bytes())
    assert box[0] == pytest.approx(260, abs=0.6)


def test_a_bad_paper_name_is_a_kit_error(tmp_path) -> None:
    with pytest.raises(KitError, match="a4 or letter"):
        write_kit(tmp_path, [], [], px_per_mm=PX, paper="a3")


@pytest.mark.parametrize("length", [1, 189, 190, 191, 260, 379, 380, 381, 1000])
def test_tiles_cover_the_length_with_the_overlap(length) -> None:
    usable, overlap = 190, 10
    spans = tile_spans(length, usable, overlap)
    assert (len(spans) == 1) == (length <= usable)
    assert spans[0][0] == 0 and spans[-1][0] + spans[-1][1] == length
    assert all(0 < size <= usable for _, size in spans)
    assert len(spans) == max(1, -(-(length - overlap) // (usable - overlap)))  # the fewest
    for (before, size), (after, _) in itertools.pairwise(spans):
        assert after > before
        assert before + size - after >= overlap


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(("rows", "cols", "cell_mm"),
                         [(3, 6, 10.0), (8, 10, 20.0), (3, 3, 70.0), (12, 8, 20.0)])
def test_tiling_happens_exactly_when_the_mat_is_too_big(paper, rows, cols, cell_mm) -> None:
    image = draw_kit_mat(_mat(rows, cols, cell_mm), PX)
    usable_w, usable_h = (int(v * PX) for v in printable_mm(paper))
    fits = image.shape[1] <= usable_w and image.shape[0] <= usable_h
    pages = tile_mat(image, 3, PX, paper)
    assert (len(pages) == 1) == fits
    covered = np.zeros(image.shape[:2], int)
    page_w, page_h = (round(v * PX) for v in paper_size(paper))
    margin = round(PAGE_MARGIN_MM * PX)
    xs = [*sorted({box[0] for _, box in pages}), image.shape[1]]
    ys = [*sorted({box[1] for _, box in pages}), image.shape[0]]
    for page, (x, y, w, h) in pages:
        assert page.shape[:2] == (page_h, page_w)
        covered[y:y + h, x:x + w] += 1
        # the tile is printed unchanged up to where the next tile starts; the rest (the
        # overlap the next tile is glued over) is shaded grey
        same = (page[margin:margin + h, margin:margin + w] == image[y:y + h, x:x + w]).all(2)
        clear_w, clear_h = xs[xs.index(x) + 1] - x, ys[ys.index(y) + 1] - y
        assert same[:clear_h, :clear_w].all()
        for strip in (same[clear_h:], same[:, clear_w:]):  # (a mid-grey pixel stays)
            assert strip.size == 0 or strip.mean() < 0.02
    assert covered.min() >= 1  # the whole mat is printed
    for _, (x, y, w, h) in pages:  # neighbours overlap by at least 10 mm
        next_x, next_y = xs[xs.index(x) + 1], ys[ys.index(y) + 1]
        assert next_x == image.shape[1] or x + w - next_x >= round(OVERLAP_MM * PX)
        assert next_y == image.shape[0] or y + h - next_y >= round(OVERLAP_MM * PX)


def _bar_length_mm(page: np.ndarray, px_per_mm: float) -> float:
    """The longest run of black pixels in the page's bottom 25 mm, in mm."""
    bottom = page[-round(25 * px_per_mm):].max(axis=2) < 40
    best = 0
    for row in bottom:
        run = longest = 0
        for value in row:
            run = run + 1 if value else 0
            longest = max(longest, run)
        best = max(best, longest)
    return best / px_per_mm


@pytest.mark.parametrize("px_per_mm", [2.0, 5.0])
def test_every_page_has_a_100_mm_scale_bar(px_per_mm) -> None:
    pages = [page for page, _ in tile_mat(draw_kit_mat(_mat(8, 10, 20.0), px_per_mm), 1,
                                          px_per_mm, "letter")]
    pages += draw_sticker_sheets([Sticker(60, "a", 20.0)], px_per_mm, "a4")
    assert len(pages) >= 3
    for page in pages:
        assert _bar_length_mm(page, px_per_mm) == pytest.approx(SCALE_BAR_MM, abs=0.5)
