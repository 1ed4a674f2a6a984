"""The questions the camera cannot answer, asked piece by piece (terminal and dashboard).

Each :class:`Question` turns a typed answer into a JSON value and checks it at
its JSON path with the same one-line errors as the scoring commands
(``$.boxes[2].weight: must be 1..7``). :func:`questions` lists what to ask of one
piece; :func:`answer` checks one answer and stores it; :func:`edit_in_terminal`
walks a file through them on stdin.

Example::

    >>> document = {"game": "moving-day", "boxes": [{"tag": 61}]}
    >>> [q.key for q in questions("moving-day", document, "boxes", 0)]
    ['type', 'colour', 'fragile', 'weight', 'points']
    >>> answer(document, "boxes", 0, "weight", "9")
    Traceback (most recent call last):
    ...
    station.errors.InputError: $.boxes[0].weight: must be 1..7
    >>> answer(document, "boxes", 0, "weight", "6")
    6
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from station.catalogue.copy import DELICATE_BAD, DELICATE_GOOD, catalogue_wiring
from station.errors import InputError
from station.jsonin import Node

NONE_WORDS = ("", "-", "none", "no")


def text_answer(answer: str, node: Node) -> Any:
    return Node(answer.strip(), node.path).string(non_empty=True)


def yes_no(answer: str, node: Node) -> Any:
    word = answer.strip().lower()
    if word in ("y", "yes", "true", "1"):
        return True
    if word in ("n", "no", "false", "0", ""):
        return False
    raise node.fail("answer yes or no")


def number_answer(low: float, high: float, whole: bool) -> Callable[[str, Node], Any]:
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


def delicate_answer(answer: str, node: Node) -> Any:
    if answer.strip().lower() in NONE_WORDS:
        return None
    parts = answer.replace(",", " ").split()
    if len(parts) != 2:
        raise node.fail("give two numbers, the value undamaged and damaged (e.g. 2 -2), "
                        "or 'none'")
    good = number_answer(*DELICATE_GOOD, True)(parts[0], Node(None, f"{node.path}[0]"))
    bad = number_answer(*DELICATE_BAD, True)(parts[1], Node(None, f"{node.path}[1]"))
    return [good, bad]


def optional(parse: Callable[[str, Node], Any]) -> Callable[[str, Node], Any]:
    def maybe(answer: str, node: Node) -> Any:
        return None if answer.strip().lower() in NONE_WORDS else parse(answer, node)
    return maybe


def choice_answer(options: list[str]) -> Callable[[str, Node], Any]:
    def parse(answer: str, node: Node) -> Any:
        return Node(answer.strip(), node.path).choice(options)
    return parse


@dataclass(frozen=True)
class Question:
    """One value of a piece: its key, what to ask, and how to read the answer."""

    key: str
    prompt: str
    parse: Callable[[str, Node], Any]
    required: bool = True  # asked when missing; optional ones are asked with the piece's first

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "prompt": self.prompt, "required": self.required}


def questions(game: str, document: dict[str, Any], key: str, index: int) -> list[Question]:
    """What to ask of piece ``index`` of the list ``key`` in ``document`` (the game's record's
    questions; none for a game without)."""
    from station.games import game_record

    record = game_record(game)
    if record is None or record.catalogue is None:
        return []
    return list(record.catalogue.questions(document, key))


def lists(game: str) -> list[str]:
    """The lists of pieces a form walks through, in order."""
    wiring = catalogue_wiring(game)
    return [wiring.lesson.key, *wiring.more_lists]


def answer(document: dict[str, Any], key: str, index: int, field: str, text: str) -> Any:
    """Check the answer ``text`` for ``field`` of piece ``index``; store it (None removes it)."""
    game = document.get("game", "")
    asked = {q.key: q for q in questions(game, document, key, index)}
    if field not in asked:
        raise InputError(f"$.{key}[{index}]: no question {field!r} here")
    value = asked[field].parse(text, Node(None, f"$.{key}[{index}].{field}"))
    entry = document[key][index]
    if value is None or (value is False and not asked[field].required):
        entry.pop(field, None)
    else:
        entry[field] = value
    return value


def to_ask(game: str, document: dict[str, Any], key: str, index: int,
           ask_all: bool) -> list[Question]:
    """The questions still open for a piece: all of them for a piece never asked, or with
    ``ask_all``; else the required ones missing."""
    every = questions(game, document, key, index)
    entry = document[key][index]
    if ask_all or any(q.required and q.key not in entry for q in every[:1]):
        return every
    return [q for q in every if q.required and q.key not in entry]


def describe(key: str, index: int, entry: dict[str, Any], total: int) -> str:
    """A line naming the piece for the person: its number, tag and what the camera saw."""
    seen = [f"tag {entry['tag']}"] if "tag" in entry else []
    if "shape" in entry:
        seen.append("shape " + " ".join(entry["shape"]))
    for name in ("name", "id", "material"):
        if name in entry:
            seen.append(str(entry[name]))
            break
    noun = {"boxes": "box", "items": "item", "cards": "card", "shop_cards": "shop card",
            "presents": "present"}.get(key, key)
    return f"{noun} {index + 1} of {total}: {', '.join(seen)}"


def edit_in_terminal(game: str, path: Path, stdin: TextIO, say: Callable[[str], None],
                     ask_all: bool = False) -> int:
    """Ask on ``stdin`` for every open value of the file ``path``; write it back; check it."""
    from station.catalogue.copy import check_playable, read_copy
    from station.catalogue.files import write_atomically
    from station.cli._output import emit
    from station.jsonin import load_json_file

    document = load_json_file(path)
    read_copy_game = document.get("game", game)
    if read_copy_game.value != game:
        raise read_copy_game.fail(f"this is a catalogue of {read_copy_game.value!r}, not {game!r}")
    data = document.value
    data["game"] = game
    answered, ended = 0, False
    for key in lists(game):
        pieces = Node(data.get(key, []), f"$.{key}").items()
        for index in range(len(pieces)):
            open_questions = to_ask(game, data, key, index, ask_all)
            if open_questions and not ended:
                say(describe(key, index, data[key][index], len(pieces)))
            for question in open_questions:
                ended = ended or not _ask_until_valid(data, key, index, question, stdin, say)
                if ended:
                    break
                answered += 1
    write_atomically(path, data)
    try:
        check_playable(game, read_copy(game, Node(data)))
    except InputError as error:
        raise InputError(f"{path}: {answers_saved(answered)}, but {error}") from None
    emit({"game": game, "file": str(path), "answered": answered, "playable": True})
    return 0


def answers_saved(count: int) -> str:
    return f"{count} answer{'' if count == 1 else 's'} saved"


def _ask_until_valid(data: dict[str, Any], key: str, index: int, question: Question,
                     stdin: TextIO, say: Callable[[str], None]) -> bool:
    """Ask until the answer is valid; False when stdin ends first."""
    current = data[key][index].get(question.key)
    shown = "" if current is None else f" [{json.dumps(current)}]"
    while True:
        say(f"  {question.prompt}{shown}: ")
        line = stdin.readline()
        if not line:
            return False
        text = line.rstrip("\n")
        if not text.strip() and current is not None:
            return True  # keep what is there
        try:
            answer(data, key, index, question.key, text)
            return True
        except InputError as error:
            say(str(error))
