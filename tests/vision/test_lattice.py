"""A mat's lattice refined from its printed grid lines."""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import LatticeShift, plain_cells, refine_lattice
from vision.layout import MatSpec
from vision.render import MatContent, draw_mat

PPC = 40
OFFSET = 40 + 1.5 * PPC  # pixels from the photo's corner to the grid's (margin + border)


def _straight(points: np.ndarray) -> np.ndarray:
    """The pose as the markers give it: mat coordinates → pixels, no bow."""
    return np.asarray(points, np.float64) * PPC + OFFSET - 0.5


def _bowed_photo(spec: MatSpec, bow: LatticeShift) -> np.ndarray:
    """A photo of ``spec`` whose printed point p lies at ``_straight(p + bow(p))``, drawn
    three times finer and shrunk (the grid lines are a pixel wide, as on a camera)."""
    fine = 3
    flat = draw_mat(MatContent.empty(spec), PPC * fine, np.random.default_rng(0))
    height, width = (flat.shape[0] // fine + 80) * fine, (flat.shape[1] // fine + 80) * fine
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    pixels = (np.stack([xs.ravel(), ys.ravel()], -1) + 0.5) / fine - 0.5
    printed = bow.invert((pixels - OFFSET + 0.5) / PPC)
    source = ((printed + 1.5) * PPC * fine - 0.5).astype(np.float32).reshape(height, width, 2)
    photo = cv2.remap(flat, source, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                      borderValue=(90, 110, 140))
    photo = cv2.resize(photo, (width // fine, height // fine), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(photo, (0, 0), 0.8)


def _grey_rectified(photo: np.ndarray, spec: MatSpec, ppc: int = 16) -> np.ndarray:
    us, vs = np.meshgrid(np.arange((spec.cols + 2) * ppc), np.arange((spec.rows + 2) * ppc))
    mat = (np.stack([us.ravel(), vs.ravel()], -1) + 0.5) / ppc - 1
    where = _straight(mat).astype(np.float32).reshape((*vs.shape, 2))
    flat = cv2.remap(photo, where, None, cv2.INTER_LINEAR)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)


def _cell_centres(spec: MatSpec) -> np.ndarray:
    xs, ys = np.meshgrid(np.arange(spec.cols) + 0.5, np.arange(spec.rows) + 0.5)
    return np.stack([xs.ravel(), ys.ravel()], -1)


def test_a_bowed_grid_is_found_where_its_lines_are() -> None:
    spec = MatSpec(0, 6, 8, "tags")
    # the middle of the grid bowed outwards by 0.12 cells, nothing at the markers
    bow = LatticeShift(np.array([[0.0] * 8, [0.12, 0.0, 0.0, -0.06, 0.0, -0.06, 0.0, 0.0]]),
                       spec.rows, spec.cols)
    photo = _bowed_photo(spec, bow)
    plain = plain_cells(_grey_rectified(photo, spec), spec, 16)
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    found = refine_lattice(grey, spec, _straight, plain, {0, 1, 2, 3})
    assert found is not None
    centres = _cell_centres(spec)
    truth = bow.offsets(centres)
    assert np.abs(truth).max() > 0.1  # the markers' pose alone is this far off
    assert np.abs(found.offsets(centres) - truth).max() < 0.03


def test_a_straight_grid_needs_no_refinement() -> None:
    spec = MatSpec(0, 6, 8, "tags")
    flat = LatticeShift(np.zeros((2, 8)), spec.rows, spec.cols)
    photo = _bowed_photo(spec, flat)
    plain = plain_cells(_grey_rectified(photo, spec), spec, 16)
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    assert refine_lattice(grey, spec, _straight, plain, {0, 1, 2, 3}) is None


def test_a_shift_too_large_for_a_lens_is_refused() -> None:
    spec = MatSpec(0, 6, 8, "tags")
    slid = LatticeShift(np.array([[0.0] * 8, [0.0, 0.0, 0.35, 0.0, 0.0, 0.0, 0.0, 0.0]]),
                        spec.rows, spec.cols)
    photo = _bowed_photo(spec, slid)
    plain = plain_cells(_grey_rectified(photo, spec), spec, 16)
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    assert refine_lattice(grey, spec, _straight, plain, {0, 1, 2, 3}) is None


def test_the_shift_inverts() -> None:
    shift = LatticeShift(np.array([[0.02, 0.05, 0.0, 0.03, 0.01, 0.0, 0.02, 0.0],
                                   [0.0, 0.0, -0.04, 0.0, 0.02, 0.05, 0.0, -0.02]]), 5, 7)
    points = _cell_centres(MatSpec(0, 5, 7, "tags"))
    assert np.abs(shift.invert(shift.apply(points)) - points).max() < 1e-4
