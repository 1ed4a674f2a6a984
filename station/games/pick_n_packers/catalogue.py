"""A copy's own Pick 'n Packers catalogue: its shop cards learnt from their tags (numbers
asked), its presents weighed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.catalogue import default_catalogue
from station.catalogue.copy import piece_id, pieces_of, tag_of
from station.catalogue.learn import one_square
from station.catalogue.questions import Question, number_answer
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.jsonin import Node

NAME = "pick-n-packers"
#: Largest present mass accepted, in grams (our choice: the rulebook gives no masses; the
#: presents are small wooden or folded paper pieces a toy drone lifts, 2.5–19 g in the
#: default catalogue, and the kit's smallest load cell is 300 g: more is a typo).
MAX_PRESENT_G = 300.0
SHOP_CARD = [Question("number", "number printed on it (0..8; 0 is the 0/9 card)",
                      number_answer(0, 8, True))]
PRESENT = [Question("mass_g", f"mass in grams (a kitchen scale, or the drone's load cell; "
                    f"up to {MAX_PRESENT_G:g})", number_answer(0, MAX_PRESENT_G, False))]


def questions(document: Mapping[str, Any], key: str) -> list[Question]:
    """A shop card's number; a present's mass."""
    return PRESENT if key == "presents" else SHOP_CARD


def learnt_presents() -> dict[str, Any]:
    """The presents carry no tag: the default ones, to be weighed in 'catalogue edit'."""
    return {"presents": [{"id": present["id"], "material": present["material"]}
                         for present in default_catalogue(NAME)["presents"]]}


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's shop cards (tags learnt, numbers asked: 0 to 8, once each) and presents
    (weighed)."""
    tags: dict[int, str] = {}
    ids: set[str] = set()
    numbers: dict[int, str] = {}

    def shop(node: Node) -> dict[str, Any]:
        tag = tag_of(node, tags)
        entry: dict[str, Any] = {"id": piece_id(node, tag, "shop-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        number = node["number"].integer(0, 8)
        if number in numbers:
            raise node["number"].fail(f"{number} is already the number of {numbers[number]}")
        numbers[number] = node.path
        label = node.get("label", "0/9" if number == 0 else str(number)).string(non_empty=True)
        return {**entry, "number": number, "label": label}

    present_ids: set[str] = set()

    def present(node: Node) -> dict[str, Any]:
        mass = node["mass_g"].number(0, MAX_PRESENT_G)
        if mass <= 0:
            raise node["mass_g"].fail(f"must be 0..{MAX_PRESENT_G:g} and more than 0")
        return {"id": piece_id(node, None, "", present_ids),
                "material": node["material"].string(non_empty=True), "mass_g": mass}

    cards = pieces_of(document, "shop_cards", shop)
    missing = sorted(set(range(9)) - set(numbers))
    if missing:
        raise document["shop_cards"].fail(
            f"the shop cards must be numbered 0 to 8, once each; missing {missing[0]}")
    return {"shop_cards": cards,
            "presents": [present(node) for node in
                         document.get("presents", defaults["presents"]).items(min_length=9)]}


CATALOGUE = CatalogueWiring(lesson=Lesson(NAME, "tags", "shop card", "shop_cards",
                                          one_square("shop card")),
                            read=read_copy, counted=("shop_cards", "presents"),
                            questions=questions, more_lists={"presents": "present"},
                            learnt_extras=learnt_presents)
