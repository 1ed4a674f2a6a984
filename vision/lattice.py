"""A mat's cell lattice refined from its own printed grid lines.

A pose from the corner markers is exact at the markers; a wide lens that was
not calibrated (or estimated from too few markers) bows the grid between
them, so cells far from the markers are sampled off their true place. The
grid lines are printed (``docs/visual-spec.md``: width s/40, darker than the empty
cells), so each line segment between two plain cells shows where the lattice
really is, and the grid's outer edge shows against the white border.
:func:`refine_lattice` finds them in the photo, along profiles across each
segment, fits a smooth shift of mat coordinates to them (affine, plus the
quadratic and side-bowing terms drawn towards zero; held to zero at the
markers seen) and returns it as a
:class:`LatticeShift`; the pose then maps mat point ``p`` to the photo as
``pose(p + shift(p))``.

Example::

    >>> import numpy as np
    >>> shift = LatticeShift(np.array([[0.1] + [0] * 7, [0] * 8]), 4, 6)
    >>> shift.apply(np.array([[1.0, 2.0]])).round(3).tolist()
    [[1.1, 2.0]]
    >>> shift.invert(np.array([[1.1, 2.0]])).round(3).tolist()
    [[1.0, 2.0]]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.config import DEFAULT_CONFIG, ReaderConfig
from vision.layout import MatSpec, marker_centre


@dataclass(frozen=True)
class LatticeShift:
    """A shift of mat coordinates ``(dx, dy)``, each a smooth function of the position.

    ``coefficients`` (2×8) weigh ``1, u, v, u², uv, v², uv², u²v`` with ``u``,
    ``v`` the position scaled to −1…1 across the grid (``cols`` × ``rows``
    cells): a quadratic, plus the two terms by which a barrel lens bows the
    grid's sides outwards against a fit through its corners.
    """

    coefficients: np.ndarray
    rows: int
    cols: int

    def offsets(self, points: np.ndarray) -> np.ndarray:
        """The shift (N×2, cells) at mat points ``points`` (N×2)."""
        return _basis(np.asarray(points, np.float64), self.rows, self.cols) @ self.coefficients.T

    def apply(self, points: np.ndarray) -> np.ndarray:
        """Where the printed point ``p`` really lies in the pose's mat coordinates."""
        points = np.asarray(points, np.float64)
        return points + self.offsets(points)

    def invert(self, shifted: np.ndarray) -> np.ndarray:
        """The printed point that :meth:`apply` takes to ``shifted`` (fixed-point steps)."""
        shifted = np.asarray(shifted, np.float64)
        points = shifted.copy()
        for _ in range(4):  # the shift is small and smooth: a few steps converge
            points = shifted - self.offsets(points)
        return points

    def largest(self) -> float:
        """The largest shift over the grid, in cells."""
        xs, ys = np.meshgrid(np.linspace(0, self.cols, 5), np.linspace(0, self.rows, 5))
        shifts = self.offsets(np.stack([xs.ravel(), ys.ravel()], -1))
        return float(np.abs(shifts).max())


def plain_cells(rectified_grey: np.ndarray, spec: MatSpec, ppc: int,
                config: ReaderConfig = DEFAULT_CONFIG) -> np.ndarray:
    """rows×cols booleans: the cells of a rectified mat (grey, border included) whose
    centre is even (a plain card or the empty grey; not a tag, a hand or a glare's edge)."""
    inner = (round(ppc * config.lattice_segment_from), round(ppc * config.lattice_segment_to))
    grid = np.asarray(rectified_grey, np.float32)[ppc:(spec.rows + 1) * ppc,
                                                  ppc:(spec.cols + 1) * ppc]
    cells = grid.reshape(spec.rows, ppc, spec.cols, ppc)[:, inner[0]:inner[1], :,
                                                         inner[0]:inner[1]]
    return cells.std(axis=(1, 3)) <= config.lattice_plain_std


def _basis(points: np.ndarray, rows: int, cols: int) -> np.ndarray:
    u = points[:, 0] / max(cols, 1) * 2 - 1
    v = points[:, 1] / max(rows, 1) * 2 - 1
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v, u * v * v, u * u * v], -1)


def _line_dips(profiles: np.ndarray, config: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    """Per profile (K×W grey levels across a grid line, ``lattice_step`` cells apart,
    the expected place in the middle): the line's shift (cells) and whether a clear
    dip, darker than both sides, was found within ``lattice_max_shift`` of it."""
    width = profiles.shape[1]
    centre = (width - 1) / 2
    reach = config.lattice_max_shift / config.lattice_step
    low, high = max(1, int(np.floor(centre - reach))), min(width - 2, int(np.ceil(centre + reach)))
    at = low + profiles[:, low:high + 1].argmin(axis=1)
    k = np.arange(len(profiles))
    bottom = profiles[k, at]
    columns = np.arange(width)
    left = np.where(columns < at[:, None], profiles, -np.inf).max(axis=1)
    right = np.where(columns > at[:, None], profiles, -np.inf).max(axis=1)
    clear = (np.minimum(left, right) - bottom >= config.lattice_min_dip) & (at > low) & (at < high)
    before, after = profiles[k, at - 1], profiles[k, np.minimum(at + 1, width - 1)]
    curvature = np.maximum(before + after - 2 * bottom, 1e-6)
    place = at + 0.5 * (before - after) / curvature  # the parabola through the lowest three
    return (place - centre) * config.lattice_step, clear


def _edge_steps(profiles: np.ndarray, outside_first: bool,
                config: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    """Per profile across the grid's outer edge (the white border on one side): the
    shift (cells) of the steepest fall from the border into the grid, and whether it
    is clear (``lattice_min_step`` per sample) within ``lattice_max_shift``."""
    falls = np.diff(profiles if outside_first else profiles[:, ::-1], axis=1)
    width = falls.shape[1]
    centre = (width - 1) / 2
    reach = config.lattice_max_shift / config.lattice_step
    low, high = max(1, int(np.floor(centre - reach))), min(width - 2, int(np.ceil(centre + reach)))
    at = low + falls[:, low:high + 1].argmin(axis=1)
    k = np.arange(len(falls))
    bottom, before, after = falls[k, at], falls[k, at - 1], falls[k, at + 1]
    curvature = np.maximum(before + after - 2 * bottom, 1e-6)
    place = (at + 0.5 * (before - after) / curvature - centre) * config.lattice_step
    clear = (-bottom >= config.lattice_min_step) & (at > low) & (at < high)
    return (place if outside_first else -place), clear


def _segments(grey: np.ndarray, spec: MatSpec, to_image: Callable[[np.ndarray], np.ndarray],
              plain: np.ndarray, config: ReaderConfig,
              across: bool) -> tuple[np.ndarray, np.ndarray]:
    """Grid-line segments seen between plain cells: their mid-points (mat coordinates)
    and the line's shift from where ``to_image`` puts it (cells), for the vertical
    lines (``across`` False: shift in x) or the horizontal ones (shift in y).

    Each segment's profile is sampled straight from the photo, finer than a
    pixel, across the line and averaged along the central part of the cell side.
    """
    lines, rows = (spec.rows, spec.cols) if across else (spec.cols, spec.rows)
    reach = config.lattice_max_shift + 3 * config.lattice_step
    offsets = np.arange(-reach, reach + 1e-9, config.lattice_step)
    along = np.linspace(config.lattice_segment_from, config.lattice_segment_to,
                        config.lattice_samples_along)
    line, row, s, t = np.meshgrid(np.arange(lines + 1), np.arange(rows), along, offsets,
                                  indexing="ij")
    points = np.stack([line + t, row + s], -1).reshape(-1, 2)
    where = to_image(points[:, ::-1] if across else points).astype(np.float32)
    samples = cv2.remap(grey, where[:, :1].reshape(-1, 1), where[:, 1:].reshape(-1, 1),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    profiles = samples.reshape(lines + 1, -1, len(along), len(offsets)).mean(axis=2)
    shifts, clear = _line_dips(profiles.reshape(-1, len(offsets)), config)
    shifts, clear = shifts.reshape(lines + 1, -1), clear.reshape(lines + 1, -1)
    for edge, outside_first in ((0, True), (lines, False)):  # the border's white beside
        shifts[edge], clear[edge] = _edge_steps(profiles[edge], outside_first, config)
    shifts, clear = shifts.ravel(), clear.ravel()
    side = plain.T if across else plain  # rows × lines-1, the border beside the grid plain
    side = np.pad(side, ((0, 0), (1, 1)), constant_values=True)
    usable = clear & (side[:, :-1] & side[:, 1:]).T.ravel()
    mids = np.stack(np.meshgrid(np.arange(lines + 1), np.arange(rows) + 0.5, indexing="ij"),
                    -1).reshape(-1, 2)[usable]
    return (mids[:, ::-1] if across else mids), shifts[usable]


def _robust_fit(basis: np.ndarray, values: np.ndarray, anchors: np.ndarray,
                config: ReaderConfig) -> np.ndarray | None:
    """Least-squares coefficients (8, over :func:`_basis`), or None when too few
    samples agree with a smooth shift.

    The samples far from their median are dropped first (a card's edge taken
    for a line), then from each fit in turn; the quadratic terms are fitted
    only with ``lattice_quadratic_segments`` samples, else an affine shift.
    """
    keep = np.abs(values - np.median(values)) <= config.lattice_outlier_cells
    coefficients = np.zeros(basis.shape[1])
    for _ in range(3):
        if keep.sum() < config.lattice_min_segments:
            return None
        terms = basis.shape[1] if keep.sum() >= config.lattice_quadratic_segments else 3
        # the terms beyond affine are drawn towards zero: the edges alone leave the
        # middle of the mat free, and a bow is only believed where the lines show it
        ridge = np.zeros((terms - 3, terms))
        ridge[:, 3:] = np.eye(terms - 3) * config.lattice_bend_prior
        rows = np.vstack([basis[keep, :terms], anchors[:, :terms] * config.lattice_anchor_weight,
                          ridge])
        target = np.concatenate([values[keep], np.zeros(len(anchors) + terms - 3)])
        coefficients = np.zeros(basis.shape[1])
        coefficients[:terms] = np.linalg.lstsq(rows, target, rcond=None)[0]
        keep = np.abs(basis @ coefficients - values) <= config.lattice_outlier_cells
    if keep.sum() < config.lattice_min_segments or keep.mean() < config.lattice_min_agreeing:
        return None
    return coefficients


def refine_lattice(grey: np.ndarray, spec: MatSpec, to_image: Callable[[np.ndarray], np.ndarray],
                   plain: np.ndarray, corners_seen: set[int],
                   config: ReaderConfig = DEFAULT_CONFIG) -> LatticeShift | None:
    """The shift of the lattice seen in the photo (``grey``) of a mat that ``to_image``
    maps (mat coordinates → pixels), or None when the grid lines do not show it or
    it is too small to matter.

    Only segments between two ``plain`` cells (rows×cols booleans; the border
    beside the grid counts as plain) are used: a card's edge, a tag or a hand is
    not a grid line. ``corners_seen`` (0..3) are the markers the pose was fitted
    on; the shift is held to zero there.
    """
    if spec.rows < config.lattice_min_cells or spec.cols < config.lattice_min_cells:
        return None
    anchors = _basis(np.array([marker_centre(spec, corner) for corner in sorted(corners_seen)],
                              np.float64).reshape(-1, 2), spec.rows, spec.cols)
    coefficients = []
    for across in (False, True):
        points, shifts = _segments(grey, spec, to_image, plain, config, across)
        if len(shifts) < config.lattice_min_segments:
            return None
        fitted = _robust_fit(_basis(points, spec.rows, spec.cols), shifts, anchors, config)
        if fitted is None:
            return None
        coefficients.append(fitted)
    shift = LatticeShift(np.array(coefficients), spec.rows, spec.cols)
    largest = shift.largest()
    if largest < config.lattice_min_shift or largest > config.lattice_max_shift:
        return None
    return shift
