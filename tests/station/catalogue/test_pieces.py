"""A piece read on its mat → the recorded card squares or tag and shape, however it lies."""

import doctest
import itertools

import pytest

import station.catalogue.copy
import station.catalogue.form
import station.catalogue.learn
import station.catalogue.pieces
import station.catalogue.questions
import station.catalogue.walk
import station.copies
from station.catalogue.pieces import (
    PieceError,
    canonical_card,
    card_squares,
    tagged_piece,
    turned_clockwise,
)
from vision.games.removal import footprint


@pytest.mark.parametrize("module", [station.catalogue.pieces, station.catalogue.learn,
                                    station.catalogue.copy, station.catalogue.form,
                                    station.catalogue.questions, station.catalogue.walk,
                                    station.copies])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def _on_mat(rows, top, left, size=(8, 10)):
    grid = [["."] * size[1] for _ in range(size[0])]
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            grid[top + r][left + c] = char
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("squares", [["AAC", "DDC"], ["C#A", "CCA"], ["A.", "BB"], ["E"]])
def test_a_card_reads_the_same_anywhere_turned_any_way(squares):
    seen = {tuple(card_squares(_on_mat(turned_clockwise(squares, k), top, left)))
            for k, top, left in itertools.product(range(4), (0, 3), (0, 5))}
    assert seen == {tuple(canonical_card(squares))}
    recorded = seen.pop()
    assert len(recorded) <= len(recorded[0])  # landscape


def test_a_card_is_recorded_landscape():
    assert card_squares(_on_mat(["AD", "AD", "CC"], 1, 1)) == ["CAA", "CDD"]


def test_a_card_with_unknown_cells_is_refused():
    with pytest.raises(PieceError, match="cannot be read"):
        card_squares(_on_mat(["A?C", "DDC"], 0, 0))


@pytest.mark.parametrize(("rows", "refused"), [
    (["AAC.", "DDC?"], True),  # beside the card
    (["A.C", "D?C"], True),  # inside its outline (a card may have empty squares)
    (["?...", "....", "....", "..AC", "..DD"], False),  # far from it: glare on the mat
    (["???", "???"], True),  # nothing but unreadable cells
])
def test_a_question_mark_stops_a_card_only_where_it_could_hide_part_of_it(rows, refused):
    cells = _on_mat(rows, 1, 1)
    if refused:
        with pytest.raises(PieceError, match="be read"):
            card_squares(cells)
    else:
        assert card_squares(cells) == ["AC", "DD"]


SHAPES = [["##", "#."], ["#..#", "####"], ["#", "#", "#"], [".#.", "###"], ["##.", ".##"]]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_tagged_piece_is_recorded_with_its_tag_upright(shape, rotation):
    cells = footprint(shape, 3, 3, rotation, False)
    grid = [["."] * 8 for _ in range(8)]
    for r, c in cells:
        grid[r][c] = "X"
    tag = {"id": 88, "row": 3, "col": 3, "rotation": rotation}
    assert tagged_piece(["".join(row) for row in grid], [tag]) == (88, shape)


@pytest.mark.parametrize(("cells", "tags", "reason"), [
    (["XX", ".."], [], "no tag seen"),
    (["XX", "..", "X."], [{"id": 60, "row": 0, "col": 0, "rotation": 0}], "do not belong"),
    (["XX", "X."], [{"id": 60, "row": 0, "col": 0, "rotation": 0},
                    {"id": 61, "row": 1, "col": 0, "rotation": 0}], "one piece at a time"),
    (["XX", "X."], [{"id": 60, "row": 0, "col": 1, "rotation": 0}], "first square"),
    (["X?", "X."], [{"id": 60, "row": 0, "col": 0, "rotation": 0}], "cannot be read"),
])
def test_what_is_not_one_readable_tagged_piece_is_refused(cells, tags, reason):
    with pytest.raises(PieceError, match=reason):
        tagged_piece(cells, tags)
