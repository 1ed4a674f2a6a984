"""A copy's own Moving Day catalogue: its boxes learnt from their tags, the rest asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.catalogue.copy import piece_id, pieces_of, tag_of
from station.catalogue.learn import one_square
from station.catalogue.questions import Question, number_answer, text_answer, yes_no
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.jsonin import Node

NAME = "moving-day"
BOX_QUESTIONS = [
    Question("type", "type (e.g. books)", text_answer),
    Question("colour", "colour (e.g. red)", text_answer),
    Question("fragile", "fragile? (yes/no)", yes_no),
    Question("weight", "weight (1..7)", number_answer(1, 7, True)),
    Question("points", "weight symbols (1..3)", number_answer(1, 3, True)),
]


def questions(document: Mapping[str, Any], key: str) -> list[Question]:
    """What the camera cannot see of a box."""
    return BOX_QUESTIONS


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's boxes (tags learnt, the rest asked); vehicles, helpers and snacks from the
    file or the defaults."""
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def box(node: Node) -> dict[str, Any]:
        tag = tag_of(node, tags)
        entry: dict[str, Any] = {"id": piece_id(node, tag, "box-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        entry.update(type=node["type"].string(non_empty=True),
                     colour=node["colour"].string(non_empty=True),
                     fragile=node["fragile"].boolean(), weight=node["weight"].integer(1, 7),
                     points=node["points"].integer(1, 3))
        return entry

    helper_ids: set[str] = set()

    def helper(node: Node) -> dict[str, Any]:
        return {"id": piece_id(node, None, "", helper_ids), "count": node["count"].integer(1, 3),
                "clumsy": node["clumsy"].boolean(), "strength": node["strength"].integer(1, 4)}

    helpers = document.get("helpers", defaults["helpers"])
    return {"vehicles": document.get("vehicles", defaults["vehicles"]).value,
            "boxes": pieces_of(document, "boxes", box),
            "helpers": [helper(node) for node in helpers.items(min_length=1)],
            "snacks": document.get("snacks", defaults["snacks"]).value}


CATALOGUE = CatalogueWiring(lesson=Lesson(NAME, "tags", "box", "boxes", one_square("box")),
                            read=read_copy, counted=("boxes", "helpers"), questions=questions)
