"""The printed kit's geometry and colours, as ``docs/visual-spec.md`` fixes them.

Everything here is in units of one cell side ``s``, in *mat coordinates*: the
origin is the grid's top-left corner, ``x`` runs right along the columns and
``y`` down along the rows. The renderer, the kit and the reader all draw on
this one description, so they cannot disagree about where a marker sits.

Example::

    >>> spec = MatSpec(id=2, rows=8, cols=10, kind="colour")
    >>> spec.marker_ids()
    (8, 9, 10, 11)
    >>> marker_corners(spec, 0)[0].tolist()   # top-left corner of the TL marker
    [-0.9, -0.9]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The mat kinds a ``MATS.json`` may name.
MAT_KINDS = ("colour", "tags")
#: Mat numbers a kit may use (four markers each out of DICT_4X4_50's 0..47).
MAX_MAT_NUMBER = 11

BORDER = 1.0  # border width, cells
MARGIN = 0.5  # white margin outside the border, cells
MARKER_SIDE = 0.8
PATCH_SIDE = 0.8
TAG_SIDE = 0.7
TAG_WHITE_SIDE = 0.9
GRID_LINE_WIDTH = 1 / 40

#: Printed sRGB colours, (R, G, B).
WHITE = (245, 245, 245)
GRID_LINE = (150, 150, 150)
CLASS_COLOURS: dict[str, tuple[int, int, int]] = {
    ".": (205, 205, 205),
    "#": (45, 45, 45),
    "A": (200, 45, 45),
    "B": (235, 195, 35),
    "C": (45, 150, 75),
    "D": (45, 90, 195),
    "E": (125, 65, 155),
}
#: The reference patches' classes, left to right above grid columns 0..5.
PATCH_CLASSES = "ABCDE#"


@dataclass(frozen=True)
class MatSpec:
    """One mat to look for: its number, grid size and kind (``colour`` or ``tags``)."""

    id: int
    rows: int
    cols: int
    kind: str

    def marker_ids(self) -> tuple[int, int, int, int]:
        """The ids of the TL, TR, BR and BL corner markers."""
        return (4 * self.id, 4 * self.id + 1, 4 * self.id + 2, 4 * self.id + 3)

    @property
    def has_patches(self) -> bool:
        """Whether the mat carries reference patches (colour mats with at least 6 columns)."""
        return self.kind == "colour" and self.cols >= len(PATCH_CLASSES)


def marker_centre(spec: MatSpec, corner: int) -> tuple[float, float]:
    """The centre (x, y) of corner marker ``corner`` (0 TL, 1 TR, 2 BR, 3 BL)."""
    xs = (-0.5, spec.cols + 0.5, spec.cols + 0.5, -0.5)
    ys = (-0.5, -0.5, spec.rows + 0.5, spec.rows + 0.5)
    return xs[corner], ys[corner]


def square_corners(centre: tuple[float, float], side: float) -> np.ndarray:
    """The TL, TR, BR, BL corners of an upright square, as a 4×2 float array."""
    x, y = centre
    h = side / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])


def marker_corners(spec: MatSpec, corner: int) -> np.ndarray:
    """The four corners of a corner marker in ArUco order, in mat coordinates."""
    return square_corners(marker_centre(spec, corner), MARKER_SIDE)


def patch_centre(col: int) -> tuple[float, float]:
    """The centre of the reference patch above grid column ``col``."""
    return col + 0.5, -0.5


def outer_size(spec: MatSpec) -> tuple[float, float]:
    """Width and height of the whole printed mat (border and margin included), in cells."""
    pad = 2 * (BORDER + MARGIN)
    return spec.cols + pad, spec.rows + pad


def border_sample_cells(spec: MatSpec) -> list[tuple[int, int]]:
    """Border cells (row, col in grid units, −1 or rows/cols on the ring) that are plain white.

    The four corner cells hold markers and, on a colour mat, the top cells
    above columns 0..5 hold patches; the rest of the ring is white border.
    """
    cells = []
    for col in range(spec.cols):
        if not (spec.has_patches and col < len(PATCH_CLASSES)):
            cells.append((-1, col))
        cells.append((spec.rows, col))
    for row in range(spec.rows):
        cells.append((row, -1))
        cells.append((row, spec.cols))
    return cells
