"""One piece as the camera reads it on an otherwise empty mat, turned to a fixed orientation.

A piece may lie anywhere on its mat and turned any way, so what is recorded is
independent of both:

- a **card** (Small Warehouse, a colour mat): its squares trimmed to their bounding
  box, then turned to the one of its four turns that has no more rows than columns
  and, among those, whose rows come first in character order (``#`` < ``.`` <
  ``A``…). The same card laid any way gives the same squares; the camera cannot
  see which way up a card was printed, and the rules let cards be turned.
- a **tagged piece** (a Removal item or box, a Moving Day box, a Pick 'n Packers
  shop card; a tags mat): its tag id and the squares it covers, turned so that
  the tag reads upright. That is the kit's convention (``vision.games.removal``):
  the tag sits on the first square of the shape's top row, upright when the
  piece lies unturned; a piece whose tag sits elsewhere is refused with where
  to stick it.

A ``?`` cell (a hand, a shadow, a lamp's glare) next to the piece, or inside its
bounding box, might hide part of it: the piece is then refused (nothing is
recorded from a half-seen piece). A ``?`` elsewhere on the mat cannot be part
of the one piece on it (pieces are joined through their edges) and is ignored,
so a lamp's glare on an empty corner of the mat does not stop the lesson.

Example::

    >>> card_squares(["......", "..C...", "..C...", "..A..."])
    ['ACC']
    >>> tagged_piece(["....", ".XX.", "..X."], [{"id": 57, "row": 1, "col": 1, "rotation": 0}])
    (57, ['##', '.#'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

EMPTY = "."
UNKNOWN = "?"
SQUARE = "#"

Cell = tuple[int, int]


class PieceError(ValueError):
    """What the camera shows is not one readable piece; the message tells the person what to do."""


def unknown_cells(cells: Sequence[str]) -> list[Cell]:
    """The (row, col) of every ``?`` cell."""
    return [(r, c) for r, row in enumerate(cells) for c, char in enumerate(row) if char == UNKNOWN]


def is_empty(mat: dict[str, Any]) -> bool:
    """Whether a found mat shows nothing: every cell ``.`` and no tag."""
    return (all(char == EMPTY for row in mat["cells"] for char in row)
            and not mat.get("tags"))


def seen_cells(cells: Sequence[str]) -> set[Cell]:
    """The (row, col) of every cell that shows something: neither ``.`` nor ``?``."""
    return {(r, c) for r, row in enumerate(cells) for c, char in enumerate(row)
            if char not in (EMPTY, UNKNOWN)}


def unknown_regions(cells: Sequence[str]) -> list[set[Cell]]:
    """The ``?`` cells in groups joined through their edges (each could hide one piece)."""
    left, regions = set(unknown_cells(cells)), []
    while left:
        region = _connected(left, next(iter(left)))
        regions.append(region)
        left -= region
    return regions


def hides_part_of(cells: Sequence[str], piece: set[Cell]) -> bool:
    """Whether a ``?`` cell touches ``piece`` through an edge or lies inside its bounding box
    (a card may have empty squares): a part of the piece may be hidden there."""
    rows, cols = [r for r, _ in piece], [c for _, c in piece]
    for r, c in unknown_cells(cells):
        inside = min(rows) <= r <= max(rows) and min(cols) <= c <= max(cols)
        if inside or {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & piece:
            return True
    return False


def _trimmed(cells: Sequence[str], piece: set[Cell]) -> list[str]:
    """The bounding box of ``piece`` in ``cells``, every cell outside the piece ``.``."""
    rows, cols = [r for r, _ in piece], [c for _, c in piece]
    return ["".join(cells[r][c] if (r, c) in piece else EMPTY
                    for c in range(min(cols), max(cols) + 1))
            for r in range(min(rows), max(rows) + 1)]


def turned_clockwise(rows: Sequence[str], quarter_turns: int) -> list[str]:
    """``rows`` turned clockwise by ``quarter_turns`` quarter turns."""
    turned = list(rows)
    for _ in range(quarter_turns % 4):
        turned = ["".join(row[col] for row in reversed(turned)) for col in range(len(turned[0]))]
    return turned


def canonical_card(squares: Sequence[str]) -> list[str]:
    """The card's squares in the recorded orientation (see the module's text)."""
    turns = [turned_clockwise(squares, k) for k in range(4)]
    return min(turns, key=lambda rows: (len(rows) > len(rows[0]), rows))


def card_squares(cells: Sequence[str]) -> list[str]:
    """The one card on a colour mat's ``cells`` (no ``?`` on or beside it), in the recorded
    orientation."""
    piece = seen_cells(cells)
    if not piece:
        raise PieceError("nothing on the mat can be read" if unknown_cells(cells)
                         else "the mat is empty")
    if hides_part_of(cells, piece):
        raise PieceError("part of the card cannot be read (a hand, a shadow or glare)")
    return canonical_card(_trimmed(cells, piece))


def _connected(cells: set[Cell], start: Cell) -> set[Cell]:
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen


def is_one_piece(shape: Sequence[str]) -> bool:
    """Whether a shape's ``#`` squares are joined through edges and its top row has one."""
    squares = {(r, c) for r, row in enumerate(shape) for c, char in enumerate(row)
               if char == SQUARE}
    return bool(shape) and SQUARE in shape[0] and _connected(
        squares, (0, shape[0].index(SQUARE))) == squares


def _upright_shape(covered: set[Cell], tag: Cell, rotation: int) -> tuple[list[str], Cell]:
    """The covered squares turned back by the tag's ``rotation``; the tag's square in them."""
    points = [(c - tag[1], r - tag[0]) for r, c in covered]  # (x, y) from the tag, y down
    for _ in range(rotation // 90 % 4):
        points = [(y, -x) for x, y in points]  # a quarter turn counter-clockwise
    left, top = min(x for x, _ in points), min(y for _, y in points)
    width = max(x for x, _ in points) - left + 1
    height = max(y for _, y in points) - top + 1
    grid = [[EMPTY] * width for _ in range(height)]
    for x, y in points:
        grid[y - top][x - left] = SQUARE
    return ["".join(row) for row in grid], (-top, -left)


def tagged_piece(cells: Sequence[str], tags: Sequence[dict[str, Any]]) -> tuple[int, list[str]]:
    """The tag id and upright shape of the one tagged piece on a tags mat (no ``?`` on or
    beside it)."""
    if len(tags) > 1:
        raise PieceError(f"{len(tags)} tags on the mat: lay one piece at a time")
    covered = seen_cells(cells)
    if not tags:
        if unknown_cells(cells) and (not covered or hides_part_of(cells, covered)):
            raise PieceError("part of the piece cannot be read (a hand, a shadow or glare)")
        raise PieceError("no tag seen: lay the piece with its tag sticker up")
    tag = tags[0]
    where = (int(tag["row"]), int(tag["col"]))
    covered.add(where)
    piece = _connected(covered, where)
    if hides_part_of(cells, piece):
        raise PieceError("part of the piece cannot be read (a hand, a shadow or glare)")
    if piece != covered:
        raise PieceError(f"{len(covered - piece)} covered cells do not belong to the tagged "
                         "piece: take everything else off the mat")
    shape, tag_square = _upright_shape(piece, where, int(tag["rotation"]))
    first = (0, shape[0].index(SQUARE))
    if tag_square != first:
        raise PieceError(f"tag {tag['id']} is not on the first square of the piece's top row: "
                         "stick it there, upright, and lay the piece again")
    return int(tag["id"]), shape
