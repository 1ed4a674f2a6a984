"""The questions the camera cannot answer, asked piece by piece (terminal and dashboard).

A game's record lists the :class:`~station.catalogue.questions.Question` of its pieces
(its :class:`~station.catalogue.wiring.CatalogueWiring`, which the caller gives);
:func:`questions` lists what to ask of one piece; :func:`answer` checks one answer and
stores it; :func:`edit_in_terminal` walks a file through them on stdin.

Example (a box whose weight is asked)::

    >>> from station.catalogue.questions import Question, number_answer
    >>> from station.catalogue.wiring import CatalogueWiring, Lesson
    >>> weight = Question("weight", "weight (1..7)", number_answer(1, 7, True))
    >>> boxes = CatalogueWiring(Lesson("moving-day", "tags", "box", "boxes", dict), read=dict,
    ...                         counted=("boxes",), questions=lambda document, key: [weight])
    >>> document = {"game": "moving-day", "boxes": [{"tag": 61}]}
    >>> [q.key for q in questions(boxes, document, "boxes", 0)]
    ['weight']
    >>> answer(boxes, document, "boxes", 0, "weight", "9")
    Traceback (most recent call last):
    ...
    station.errors.InputError: $.boxes[0].weight: must be 1..7
    >>> answer(boxes, document, "boxes", 0, "weight", "6")
    6
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from station.catalogue.copy import check_playable, read_copy
from station.catalogue.files import write_atomically
from station.catalogue.questions import Question
from station.catalogue.wiring import CatalogueWiring
from station.errors import InputError
from station.jsonin import Node, load_json_file
from station.output import emit


def questions(wiring: CatalogueWiring | None, document: dict[str, Any], key: str,
              index: int) -> list[Question]:
    """What to ask of piece ``index`` of the list ``key`` in ``document`` (the questions of
    the game's ``wiring``; none for a game without)."""
    if wiring is None:
        return []
    return list(wiring.questions(document, key))


def answer(wiring: CatalogueWiring | None, document: dict[str, Any], key: str, index: int,
           field: str, text: str) -> Any:
    """Check the answer ``text`` for ``field`` of piece ``index``; store it (None removes it)."""
    asked = {q.key: q for q in questions(wiring, document, key, index)}
    if field not in asked:
        raise InputError(f"$.{key}[{index}]: no question {field!r} here")
    value = asked[field].parse(text, Node(None, f"$.{key}[{index}].{field}"))
    entry = document[key][index]
    if value is None or (value is False and not asked[field].required):
        entry.pop(field, None)
    else:
        entry[field] = value
    return value


def to_ask(wiring: CatalogueWiring, document: dict[str, Any], key: str, index: int,
           ask_all: bool) -> list[Question]:
    """The questions still open for a piece: all of them for a piece never asked, or with
    ``ask_all``; else the required ones missing."""
    every = questions(wiring, document, key, index)
    entry = document[key][index]
    if ask_all or any(q.required and q.key not in entry for q in every[:1]):
        return every
    return [q for q in every if q.required and q.key not in entry]


def describe(noun: str, index: int, entry: dict[str, Any], total: int) -> str:
    """A line naming the piece (a ``noun``) for the person: its number, tag and what the
    camera saw."""
    seen = [f"tag {entry['tag']}"] if "tag" in entry else []
    if "shape" in entry:
        seen.append("shape " + " ".join(entry["shape"]))
    for name in ("name", "id", "material"):
        if name in entry:
            seen.append(str(entry[name]))
            break
    return f"{noun} {index + 1} of {total}: {', '.join(seen)}"


def edit_in_terminal(wiring: CatalogueWiring, path: Path, stdin: TextIO,
                     say: Callable[[str], None], ask_all: bool = False) -> int:
    """Ask on ``stdin`` for every open value of the file ``path`` (a copy of the game
    ``wiring`` reads); write it back; check it."""
    game = wiring.game
    document = load_json_file(path)
    read_copy_game = document.get("game", game)
    if read_copy_game.value != game:
        raise read_copy_game.fail(f"this is a catalogue of {read_copy_game.value!r}, not {game!r}")
    data = document.value
    data["game"] = game
    answered, ended = 0, False
    for key in wiring.lists():
        pieces = Node(data.get(key, []), f"$.{key}").items()
        for index in range(len(pieces)):
            open_questions = to_ask(wiring, data, key, index, ask_all)
            if open_questions and not ended:
                say(describe(wiring.noun(key), index, data[key][index], len(pieces)))
            for question in open_questions:
                ended = ended or not _ask_until_valid(wiring, data, key, index, question,
                                                      stdin, say)
                if ended:
                    break
                answered += 1
    write_atomically(path, data)
    try:
        check_playable(game, read_copy(wiring, Node(data)))
    except InputError as error:
        raise InputError(f"{path}: {answers_saved(answered)}, but {error}") from None
    emit({"game": game, "file": str(path), "answered": answered, "playable": True})
    return 0


def answers_saved(count: int) -> str:
    return f"{count} answer{'' if count == 1 else 's'} saved"


def _ask_until_valid(wiring: CatalogueWiring, data: dict[str, Any], key: str, index: int,
                     question: Question, stdin: TextIO, say: Callable[[str], None]) -> bool:
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
            answer(wiring, data, key, index, question.key, text)
            return True
        except InputError as error:
            say(str(error))
