"""The rules' exceptions: AmbiguousReading, the question a camera referee asks a person."""

from __future__ import annotations

import pickle

import pytest

import rules
from rules import AmbiguousReading, IllegalAction, Reading

FIRST = Reading("I07 first, then B03 (no damage)",
                [{"type": "load", "item": "I07"}, {"type": "load", "item": "B03"}])
SECOND = Reading("B03 first, then I07 (B03 damaged)",
                 [{"type": "load", "item": "B03"}, {"type": "load", "item": "I07"}])


def test_an_ambiguous_reading_is_an_illegal_action_naming_every_reading() -> None:
    error = AmbiguousReading("in which order Ana loaded I07 and B03", [FIRST, SECOND])
    assert isinstance(error, IllegalAction) and "AmbiguousReading" in rules.__all__
    assert error.reason == str(error) == (
        "the camera cannot tell in which order Ana loaded I07 and B03: either I07 first, "
        "then B03 (no damage) or B03 first, then I07 (B03 damaged); pick one")
    assert error.what == "in which order Ana loaded I07 and B03"
    assert error.readings == [FIRST, SECOND]
    third = Reading("neither", [])
    assert AmbiguousReading("x", [FIRST, SECOND, third]).reason.endswith(
        "(B03 damaged) or neither; pick one")


def test_its_json_form_lists_each_reading_with_a_copy_of_its_actions() -> None:
    error = AmbiguousReading("which", [FIRST, SECOND])
    shown = error.to_json()
    assert shown == [{"text": FIRST.text, "actions": FIRST.actions},
                     {"text": SECOND.text, "actions": SECOND.actions}]
    shown[0]["actions"][0]["item"] = "Z99"
    assert FIRST.actions[0]["item"] == "I07"


def test_it_reads_well_survives_pickling_and_needs_two_readings() -> None:
    error = AmbiguousReading("which", [FIRST, SECOND])
    assert repr(error) == ("<AmbiguousReading of which: 'I07 first, then B03 (no damage)' or "
                           "'B03 first, then I07 (B03 damaged)'>")
    again = pickle.loads(pickle.dumps(error))
    assert (again.reason, again.readings) == (error.reason, error.readings)
    with pytest.raises(ValueError, match="two readings or more"):
        AmbiguousReading("which", [FIRST])
