"""A copy's own Removal catalogue: its items and boxes learnt from their tags and shapes,
the rest asked, each checked to fit a truck."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.catalogue import default_catalogue
from station.catalogue.copy import piece_id, pieces_of, tag_of
from station.catalogue.learn import shaped_piece
from station.catalogue.pieces import is_one_piece, turned_clockwise
from station.catalogue.questions import (
    NONE_WORDS,
    Question,
    choice_answer,
    number_answer,
    optional,
    text_answer,
    yes_no,
)
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.games.removal.scorer import MAX_BOX_VALUE
from station.games.removal.truck import read_tile
from station.jsonin import Node

NAME = "removal"
# Removal's rulebook: a delicate item undamaged scores "the indicated plus points (or 0)",
# damaged "the indicated minus points"; at most one printed digit is our choice (docs/kit.md,
# "What each value may be").
DELICATE_GOOD, DELICATE_BAD = (0, 9), (-9, -1)


def delicate_answer(answer: str, node: Node) -> Any:
    """A delicate item's two values, undamaged and damaged (``2 -2``), or none."""
    if answer.strip().lower() in NONE_WORDS:
        return None
    parts = answer.replace(",", " ").split()
    if len(parts) != 2:
        raise node.fail("give two numbers, the value undamaged and damaged (e.g. 2 -2), "
                        "or 'none'")
    good = number_answer(*DELICATE_GOOD, True)(parts[0], Node(None, f"{node.path}[0]"))
    bad = number_answer(*DELICATE_BAD, True)(parts[1], Node(None, f"{node.path}[1]"))
    return [good, bad]


def questions(document: Mapping[str, Any], key: str) -> list[Question]:
    """What the camera cannot see of an item (or a moving box)."""
    symbols = list(document.get("symbols") or default_catalogue(NAME)["symbols"])
    return [
        Question("name", "name (what is it?)", text_answer),
        Question("heavy", "heavy? (yes/no)", yes_no, False),
        Question("upright", "must stand upright? (yes/no)", yes_no, False),
        Question("antique", "antique? (yes/no)", yes_no, False),
        Question("delicate", "delicate: value undamaged and damaged, e.g. '2 -2' (or none)",
                 delicate_answer, False),
        Question("symbol", f"symbol ({', '.join(symbols)}; or none)",
                 optional(choice_answer(symbols)), False),
        Question("value", f"a moving box? its value 0..{MAX_BOX_VALUE} (or none: an item)",
                 optional(number_answer(0, MAX_BOX_VALUE, True)), False),
    ]


def _removal_piece(node: Node, tags: dict[int, str], ids: set[str], symbols: list[str],
                   trucks: list[list[str]]) -> dict[str, Any]:
    tag = tag_of(node, tags)
    entry: dict[str, Any] = {"id": piece_id(node, tag, "T", ids)}
    if tag is not None:
        entry["tag"] = tag
    spec = read_tile(entry["id"], node)
    shape = list(spec.shape)
    width = max(len(row) for row in shape)
    shape = [row.ljust(width, ".") for row in shape]
    if not is_one_piece(shape):
        raise node["shape"].fail("must be one piece: squares joined through edges, "
                                 "the top row not empty")
    entry["shape"] = shape
    for key in ("name",):
        if not node.get(key).is_null():
            entry[key] = node[key].string(non_empty=True)
    if spec.symbol is not None:
        if symbols and spec.symbol not in symbols:
            raise node["symbol"].fail(f"must be one of {', '.join(symbols)}")
        entry["symbol"] = spec.symbol
    if spec.delicate is not None:
        values = node["delicate"].items()
        entry["delicate"] = [values[0].integer(*DELICATE_GOOD), values[1].integer(*DELICATE_BAD)]
    for flag in ("heavy", "upright", "antique"):
        if getattr(spec, flag):
            entry[flag] = True
    if not node.get("value").is_null():
        entry["value"] = node["value"].integer(0, MAX_BOX_VALUE)
    if not any(_fits_truck(shape, truck, entry.get("upright", False)) for truck in trucks):
        raise node["shape"].fail("fits in no truck of the catalogue, turned any way allowed")
    return entry


def _fits_truck(shape: list[str], truck: list[str], upright: bool) -> bool:
    turns = [shape, [row[::-1] for row in shape]] if upright else [
        turned_clockwise(rows, k) for rows in (shape, [row[::-1] for row in shape])
        for k in range(4)]
    for turn in turns:
        for top in range(len(truck) - len(turn) + 1):
            for left in range(len(truck[0]) - len(turn[0]) + 1):
                if all(char != "#" or truck[top + r][left + c] in ".-"
                       for r, row in enumerate(turn) for c, char in enumerate(row)):
                    return True
    return False


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's items and boxes (tags and shapes learnt, the rest asked), each checked to
    fit a truck; the rest of the catalogue from the file or the defaults."""
    catalogue = {key: document[key].value if document.has(key) else value
                 for key, value in defaults.items() if key not in ("notes", "items", "boxes")}
    trucks = [truck.grid(".-#") for truck in document.get("trucks", defaults["trucks"]).items(1)]
    symbols = [s.string(non_empty=True) for s in document.get("symbols", defaults["symbols"])
               .items()]
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def piece(node: Node) -> dict[str, Any]:
        return _removal_piece(node, tags, ids, symbols, trucks)

    def box(node: Node) -> dict[str, Any]:
        node["value"].integer(0, MAX_BOX_VALUE)  # a moving box has a value
        return piece(node)

    found = pieces_of(document, "items", piece)
    boxes = pieces_of(document, "boxes", box, 0) if document.has("boxes") else []
    boxes += [entry for entry in found if "value" in entry]
    catalogue["items"] = [entry for entry in found if "value" not in entry]
    catalogue["boxes"] = boxes or defaults["boxes"]
    return catalogue


CATALOGUE = CatalogueWiring(lesson=Lesson(NAME, "tags", "item", "items", shaped_piece),
                            read=read_copy, counted=("items", "boxes", "helpers"),
                            questions=questions)
