"""Learning from stable readings: once per piece, never a half-seen piece, duplicates reported;
and whole sets learnt from photo sequences made by the project's renderer."""

import numpy as np
import pytest

from devkit.station.rehearsal import Rehearsal, laid_card, laid_piece, teach
from rules.catalogue import default_catalogue
from station import copies
from station.catalogue.pieces import canonical_card
from vision.layout import MatSpec


def _mat(cells, tags=()):
    return {"id": 0, "found": True, "cells": cells, "tags": list(tags)}


EMPTY = _mat(["....", "....", "...."])
CARD = _mat([".AC.", ".DD.", "...."])


def _kinds(learner, readings):
    return [note.kind for frame, mat in enumerate(readings) for note in learner.see(frame, mat)]


def test_a_piece_is_recorded_once_and_the_mat_must_be_cleared_before_the_next():
    learner = copies.learner("small-warehouse", 0)
    nudged = _mat(["..AC", "..DD", "...."])
    hand = _mat(["..?C", "..??", "...."])
    assert _kinds(learner, [EMPTY, CARD, hand, nudged, EMPTY, CARD]) == [
        "ready", "recorded", "clear", "ready", "recorded"]
    assert [entry["id"] for entry in learner.entries] == ["c01", "c02"]


def test_a_half_seen_piece_is_not_recorded_and_the_person_is_told_to_lay_it_again():
    learner = copies.learner("small-warehouse", 0)
    hand = _mat([".A?.", ".D?.", "...."])
    kinds = _kinds(learner, [EMPTY, hand, CARD])
    assert kinds == ["ready", "again", "recorded"]
    assert learner.entries[0]["squares"] == ["AC", "DD"]


def test_a_tag_seen_twice_is_reported_not_recorded_twice():
    learner = copies.learner("removal", 0)
    item = _mat(["XX..", "X...", "...."], [{"id": 57, "row": 0, "col": 0, "rotation": 0}])
    again = _mat(["....", "..XX", "...X"], [{"id": 57, "row": 2, "col": 3, "rotation": 180}])
    assert _kinds(learner, [EMPTY, item, EMPTY, again]) == ["ready", "recorded", "ready",
                                                             "duplicate"]
    assert learner.document() == {"game": "removal", "items": [{"tag": 57, "shape": ["##", "#."]}]}


def test_a_missing_mat_is_said_once():
    learner = copies.learner("moving-day", 0)
    gone = {"id": 0, "found": False}
    assert _kinds(learner, [gone, gone, EMPTY, gone]) == ["missing", "ready", "missing"]


def test_a_question_mark_away_from_the_piece_does_not_stop_it():
    learner = copies.learner("small-warehouse", 0)
    glare = _mat(["..??", "....", "AC.."])  # a lamp's glare on an empty corner
    beside = _mat(["....", "?...", "AC.."])  # over the cell next to the card
    assert _kinds(learner, [EMPTY, beside, glare]) == ["ready", "again", "recorded"]
    assert learner.entries[0]["squares"] == ["AC"]


def test_the_mat_counts_as_empty_when_the_card_cannot_hide_under_what_is_unreadable():
    learner = copies.learner("small-warehouse", 0)
    card = _mat(["....", "....", "AC.."])
    where_it_lay = _mat(["....", "....", "??.."])  # glare just where the card lay: wait
    elsewhere = _mat(["???.", "?...", "...."])  # the card's place reads empty: it is gone
    assert _kinds(learner, [EMPTY, card, where_it_lay, elsewhere]) == [
        "ready", "recorded", "clear", "ready"]
    small = _mat(["....", "....", "?..."])  # one cell where it lay cannot hold two squares
    assert _kinds(learner, [card, where_it_lay, small]) == ["recorded", "clear", "ready"]


def test_a_tagged_piece_half_hidden_is_not_recorded():
    learner = copies.learner("removal", 0)
    hidden = _mat(["XX..", "X?..", "...."], [{"id": 57, "row": 0, "col": 0, "rotation": 0}])
    item = _mat(["XX..", "X...", "...?"], [{"id": 57, "row": 0, "col": 0, "rotation": 0}])
    assert _kinds(learner, [EMPTY, hidden, item]) == ["ready", "again", "recorded"]
    assert learner.entries == [{"tag": 57, "shape": ["##", "#."]}]


def test_a_whole_small_warehouse_deck_is_learnt_from_the_camera():
    spec = MatSpec(2, 8, 10, "colour")
    rng = np.random.default_rng(20)
    cards = default_catalogue("small-warehouse")["cards"]
    laid = [laid_card(card["squares"], spec, rng) for card in cards]
    laid[4].hand_held_still = laid[13].hand_held_still = True
    lesson = teach(Rehearsal(spec, seed=5), laid, "small-warehouse")
    assert [entry["squares"] for entry in lesson.learner.entries] == [
        canonical_card(card["squares"]) for card in cards]
    assert [entry["id"] for entry in lesson.learner.entries] == [card["id"] for card in cards]
    held = [lesson.teacher.log[4], lesson.teacher.log[13]]
    assert all(log.outcomes[0] != "recorded" for log in held)  # not from under the hand


REMOVAL_ITEMS = ["I01", "I04", "I06", "I08", "I09", "I13", "I18", "I21", "I44", "I50", "I61",
                 "I70", "I72", "I73"]


@pytest.mark.parametrize("seed", [11])
def test_a_set_of_removal_items_is_learnt_from_the_camera(seed):
    spec = MatSpec(5, 6, 8, "tags")
    rng = np.random.default_rng(seed)
    shapes = {item["id"]: item["shape"] for item in default_catalogue("removal")["items"]}
    pieces = [(60 + index, shapes[item]) for index, item in enumerate(REMOVAL_ITEMS)]
    laid = [laid_piece(tag, shape, spec, rng) for tag, shape in pieces]
    laid.append(laid_piece(*pieces[2], spec, rng))  # the same item laid again
    laid[6].hand_held_still = True
    lesson = teach(Rehearsal(spec, seed=seed), laid, "removal")
    assert lesson.learner.entries == [{"tag": tag, "shape": shape} for tag, shape in pieces]
    assert [note.kind for note in lesson.notes].count("duplicate") == 1


def test_moving_day_boxes_and_shop_cards_are_one_square_each():
    box = _mat(["....", ".X..", "...."], [{"id": 90, "row": 1, "col": 1, "rotation": 270}])
    two = _mat(["....", ".XX.", "...."], [{"id": 91, "row": 1, "col": 1, "rotation": 0}])
    for game in ("moving-day", "pick-n-packers"):
        learner = copies.learner(game, 0)
        assert _kinds(learner, [EMPTY, box, EMPTY, two]) == ["ready", "recorded", "ready", "again"]
        assert learner.entries == [{"tag": 90}]
    assert copies.learner("pick-n-packers", 0).document()["presents"][0] == {"id": "wood-1",
                                                                      "material": "wood"}
