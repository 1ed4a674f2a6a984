"""The dashboard's walk through a copy's pieces: what each shows, what is asked, what is open.

Example (a box whose weight is asked; a game's record gives its wiring)::

    >>> from station.catalogue.questions import Question, number_answer
    >>> from station.catalogue.wiring import CatalogueWiring, Lesson
    >>> weight = Question("weight", "weight (1..7)", number_answer(1, 7, True))
    >>> def read(document, defaults):  # each box must have its weight
    ...     return {"boxes": [box["weight"].integer(1, 7) for box in document["boxes"].items()]}
    >>> boxes = CatalogueWiring(Lesson("moving-day", "tags", "box", "boxes", dict), read=read,
    ...                         counted=("boxes",), questions=lambda document, key: [weight])
    >>> view = walk_view(boxes, {"game": "moving-day", "boxes": [{"tag": 61}]})
    >>> view["pieces"][0]["title"], [q["key"] for q in view["pieces"][0]["questions"]]
    ('box 1 of 1: tag 61', ['weight'])
    >>> view["open"], view["playable"], view["reason"]
    (1, False, "$.boxes[0]: missing field 'weight'")
"""

from __future__ import annotations

from typing import Any

from station.catalogue.copy import check_playable, read_copy
from station.catalogue.form import describe, questions, to_ask
from station.catalogue.wiring import CatalogueWiring
from station.errors import InputError
from station.jsonin import Node


def walk_view(wiring: CatalogueWiring, document: dict[str, Any]) -> dict[str, Any]:
    """Every piece of a copy of the game ``wiring`` reads, with its questions and values, how
    many values are open, and whether the engine can play the copy (with the reason when
    not)."""
    game = wiring.game
    pieces, open_count = [], 0
    for key in wiring.lists():
        entries = document.get(key, [])
        for index, entry in enumerate(entries):
            asked = questions(wiring, document, key, index)
            still = [q.key for q in to_ask(wiring, document, key, index, ask_all=False)]
            open_count += sum(1 for q in asked if q.required and q.key not in entry)
            pieces.append({"list": key, "index": index, "entry": entry,
                           "title": describe(wiring.noun(key), index, entry, len(entries)),
                           "questions": [q.to_json() for q in asked], "open": still})
    try:
        check_playable(game, read_copy(wiring, Node(document)))
        verdict: dict[str, Any] = {"playable": True}
    except InputError as error:
        verdict = {"playable": False, "reason": str(error)}
    return {"game": game, "pieces": pieces, "open": open_count, **verdict}
