"""The exceptions the rules engines raise."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class RulesError(Exception):
    """Base class of every error raised by :mod:`rules`."""


class IllegalAction(RulesError):
    """An action the rules do not allow in the current state.

    ``reason`` is a sentence a player can read, e.g. ``"the supply has no card 7"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ReadMore(IllegalAction):
    """A camera reading that hides what would tell what happened: cells it could not read
    (a hand's edge, a glint) leave several placements that fit. A later reading will
    likely show more, so the station waits for one before it flags the table.

    >>> isinstance(ReadMore("the camera must read more of its cells"), IllegalAction)
    True
    """


@dataclass(frozen=True)
class Reading:
    """One way to read an observation: ``text``, in a person's words, and the ``actions`` it
    means, applied one after another (the whole list is one correction step)."""

    text: str
    actions: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """``{"text": ..., "actions": [...]}``, the actions copied as plain JSON."""
        return {"text": self.text, "actions": json.loads(json.dumps(self.actions))}


class AmbiguousReading(IllegalAction):
    """An observation a camera referee can read in two ways (or more) that lead to different
    states: an order of tiles, a group, a card. The station applies none of them: it flags
    the table with every reading in words and applies the one a person picks.

    Where every reading leads to the same state, a referee applies the first one and raises
    nothing. ``what`` says what the camera cannot tell; ``readings`` (two or more) are the
    :class:`Reading` values, each with its words and its actions; ``reason`` names them all.

    >>> error = AmbiguousReading("in which order Ana loaded I07 and B03", [
    ...     Reading("I07 first, then B03 (no damage)", [{"type": "load", "item": "I07"},
    ...                                                 {"type": "load", "item": "B03"}]),
    ...     Reading("B03 first, then I07 (B03 damaged)", [{"type": "load", "item": "B03"},
    ...                                                  {"type": "load", "item": "I07"}])])
    >>> print(error.reason)
    the camera cannot tell in which order Ana loaded I07 and B03: either I07 first, then B03
    (no damage) or B03 first, then I07 (B03 damaged); pick one
    >>> error.to_json()[1]["actions"][0]
    {'type': 'load', 'item': 'B03'}
    >>> isinstance(error, IllegalAction)
    True
    """

    def __init__(self, what: str, readings: Sequence[Reading]) -> None:
        readings = list(readings)
        if len(readings) < 2:
            raise ValueError("an ambiguous reading needs two readings or more")
        either = " or ".join(reading.text for reading in readings)
        super().__init__(f"the camera cannot tell {what}: either {either}; pick one")
        self.what = what
        self.readings = readings

    def to_json(self) -> list[dict[str, Any]]:
        """The readings as JSON, in order: ``[{"text": ..., "actions": [...]}, ...]``."""
        return [reading.to_json() for reading in self.readings]

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.what, self.readings)

    def __repr__(self) -> str:
        texts = " or ".join(repr(reading.text) for reading in self.readings)
        return f"<AmbiguousReading of {self.what}: {texts}>"


class GameOver(IllegalAction):
    """An action was applied to a game that has already ended."""

    def __init__(self) -> None:
        super().__init__("the game is over")


class UnknownGame(RulesError):
    """No game is registered under that name."""
