"""The printable kit planned: which mats a table needs, their numbers, the tag stickers
and the paper they are printed on.

Plain values only (no OpenCV): the games describe their mats with :class:`MatRequest`.
:mod:`vision.kit_print` draws the planned kit from :mod:`vision.layout`
(``docs/visual-spec.md``) and writes it as true-scale PDF (and PNG previews).

Example::

    >>> mats = plan_mats([MatRequest("small-warehouse", "Player 1 warehouse", 8, 10, "colour",
    ...                              20.0)], numbers=range(6, 12))
    >>> mats[0].spec
    MatSpec(id=6, rows=8, cols=10, kind='colour')
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.errors import KitError
from vision.layout import MAX_MAT_NUMBER, MatSpec

A4_MM = (210.0, 297.0)
PAGE_MARGIN_MM = 10.0
PAPERS = {"a4": A4_MM, "letter": (215.9, 279.4)}
FOOTER_MM = 16.0  # under the printable area: the tile label and the scale bar
OVERLAP_MM = 10.0  # tiles of a mat share this much, shaded grey on the tile beneath
SCALE_BAR_MM = 100.0


@dataclass(frozen=True)
class MatRequest:
    """A mat a game needs: what it is for, its grid, kind and cell size; ``frame`` for a
    frame around a game board (the grid is a window to cut out)."""

    game: str
    label: str
    rows: int
    cols: int
    kind: str
    cell_mm: float
    frame: bool = False


@dataclass(frozen=True)
class KitMat:
    """A planned mat: the request and the mat number it got."""

    request: MatRequest
    spec: MatSpec


@dataclass(frozen=True)
class Sticker:
    """One tag sticker: its id, the label printed beside it, and the cell side it is for."""

    tag_id: int
    label: str
    cell_mm: float


def table_numbers(table: int, tables: int) -> range:
    """The mat numbers of table ``table`` (0-based) when ``tables`` tables share a room.

    >>> table_numbers(1, 2)
    range(6, 12)
    """
    if not 1 <= tables <= MAX_MAT_NUMBER + 1 or not 0 <= table < tables:
        raise KitError(f"table {table} of {tables}: there are {MAX_MAT_NUMBER + 1} mat numbers")
    share = (MAX_MAT_NUMBER + 1) // tables
    return range(table * share, (table + 1) * share)


def plan_mats(requests: list[MatRequest], numbers: range) -> list[KitMat]:
    """Mat numbers for every request: each game counts up from the table's first number
    (one game is on a table at a time, so different games may share numbers)."""
    planned, used = [], {}
    for request in requests:
        index = used.get(request.game, 0)
        if index >= len(numbers):
            raise KitError(f"{request.game}: needs more than the {len(numbers)} mat numbers "
                           f"of this table ({numbers.start}-{numbers.stop - 1})")
        used[request.game] = index + 1
        spec = MatSpec(numbers[index], request.rows, request.cols, request.kind)
        planned.append(KitMat(request, spec))
    return planned


def paper_size(paper: str) -> tuple[float, float]:
    """Width and height in mm of a paper name (``a4``, ``letter``).

    >>> paper_size("letter")
    (215.9, 279.4)
    """
    if paper not in PAPERS:
        raise KitError(f"--paper {paper}: use {' or '.join(PAPERS)}")
    return PAPERS[paper]


def printable_mm(paper: str) -> tuple[float, float]:
    """The part of a page a mat (or a tile of one) may fill: inside the margins, above
    the footer."""
    width, height = paper_size(paper)
    return width - 2 * PAGE_MARGIN_MM, height - 2 * PAGE_MARGIN_MM - FOOTER_MM


def tile_spans(length: int, usable: int, overlap: int) -> list[tuple[int, int]]:
    """(start, size) of the fewest equal tiles of at most ``usable`` that cover ``length``
    with neighbours sharing ``overlap`` (one tile when it fits).

    >>> tile_spans(260, 190, 10)
    [(0, 135), (125, 135)]
    >>> tile_spans(100, 190, 10)
    [(0, 100)]
    """
    if length <= usable:
        return [(0, length)]
    count = -(-(length - overlap) // (usable - overlap))
    size = -(-(length + (count - 1) * overlap) // count)
    starts = [min(index * (size - overlap), length - size) for index in range(count)]
    return [(start, size) for start in starts]
