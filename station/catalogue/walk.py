"""The dashboard's walk through a copy's pieces: what each shows, what is asked, what is open.

Example::

    >>> view = walk_view("moving-day", {"game": "moving-day", "boxes": [{"tag": 61}]})
    >>> view["pieces"][0]["title"], [q["key"] for q in view["pieces"][0]["questions"]][:2]
    ('box 1 of 1: tag 61', ['type', 'colour'])
    >>> view["open"], view["playable"]
    (5, False)
"""

from __future__ import annotations

from typing import Any

from station.catalogue.form import describe, lists, questions, to_ask
from station.errors import InputError
from station.jsonin import Node


def walk_view(game: str, document: dict[str, Any]) -> dict[str, Any]:
    """Every piece with its questions and values, how many values are open, and whether the
    engine can play the copy (with the reason when not)."""
    from station.catalogue.copy import check_playable, read_copy

    pieces, open_count = [], 0
    for key in lists(game):
        entries = document.get(key, [])
        for index, entry in enumerate(entries):
            asked = questions(game, document, key, index)
            still = [q.key for q in to_ask(game, document, key, index, ask_all=False)]
            open_count += sum(1 for q in asked if q.required and q.key not in entry)
            pieces.append({"list": key, "index": index, "entry": entry,
                           "title": describe(key, index, entry, len(entries)),
                           "questions": [q.to_json() for q in asked], "open": still})
    try:
        check_playable(game, read_copy(game, Node(document)))
        verdict: dict[str, Any] = {"playable": True}
    except InputError as error:
        verdict = {"playable": False, "reason": str(error)}
    return {"game": game, "pieces": pieces, "open": open_count, **verdict}
