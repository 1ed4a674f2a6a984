"""One question the camera cannot answer, and the readers of a typed answer.

Each :class:`Question` turns a typed answer into a JSON value and checks it at
its JSON path with the same one-line errors as the scoring commands
(``$.boxes[2].weight: must be 1..7``). A game's record lists the questions of
its pieces (:class:`station.catalogue.wiring.CatalogueWiring`); the readers here
are the shared ones it builds them from.

Example::

    >>> from station.jsonin import Node
    >>> number_answer(1, 7, True)("9", Node(None, "$.boxes[0].weight"))
    Traceback (most recent call last):
    ...
    station.errors.InputError: $.boxes[0].weight: must be 1..7
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from station.jsonin import Node

NONE_WORDS = ("", "-", "none", "no")

#: Reads one typed answer at the JSON path of ``node``: the value, or InputError there.
AnswerReader = Callable[[str, Node], Any]


def text_answer(answer: str, node: Node) -> Any:
    return Node(answer.strip(), node.path).string(non_empty=True)


def yes_no(answer: str, node: Node) -> Any:
    word = answer.strip().lower()
    if word in ("y", "yes", "true", "1"):
        return True
    if word in ("n", "no", "false", "0", ""):
        return False
    raise node.fail("answer yes or no")


def number_answer(low: float, high: float, whole: bool) -> AnswerReader:
    def parse(answer: str, node: Node) -> Any:
        try:
            value: Any = json.loads(answer.strip())
        except json.JSONDecodeError:
            value = answer.strip()
        checked = Node(value, node.path)
        if whole:
            return checked.integer(int(low), int(high))
        number = checked.number(low, high)
        if number <= low:
            raise node.fail(f"must be {low:g}..{high:g} and more than {low:g}")
        return number
    return parse


def optional(parse: AnswerReader) -> AnswerReader:
    def maybe(answer: str, node: Node) -> Any:
        return None if answer.strip().lower() in NONE_WORDS else parse(answer, node)
    return maybe


def choice_answer(options: list[str]) -> AnswerReader:
    def parse(answer: str, node: Node) -> Any:
        return Node(answer.strip(), node.path).choice(options)
    return parse


@dataclass(frozen=True)
class Question:
    """One value of a piece: its key, what to ask, and how to read the answer."""

    key: str
    prompt: str
    parse: AnswerReader
    required: bool = True  # asked when missing; optional ones are asked with the piece's first

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "prompt": self.prompt, "required": self.required}
