"""A copy's own Small Warehouse catalogue: its cards, learnt square by square."""

from __future__ import annotations

from typing import Any

from rules.games.small_warehouse import MERCHANDISE
from station.catalogue.copy import piece_id, pieces_of
from station.catalogue.learn import card_piece
from station.catalogue.wiring import CatalogueWiring, Lesson
from station.jsonin import Node

NAME = "small-warehouse"


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's cards, each a grid of merchandise letters, ``#`` and ``.``."""
    ids: set[str] = set()

    def card(node: Node) -> dict[str, Any]:
        squares = node["squares"].grid(MERCHANDISE + "#.")
        if not "".join(squares).strip("."):
            raise node["squares"].fail("must have at least one square")
        return {"id": piece_id(node, None, "c", ids), "squares": squares}

    return {"cards": pieces_of(document, "cards", card)}


CATALOGUE = CatalogueWiring(lesson=Lesson(NAME, "colour", "card", "cards", card_piece,
                                          id_prefix="c"), read=read_copy, counted=("cards",))
