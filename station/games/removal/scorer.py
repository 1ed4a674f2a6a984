"""``packref score removal FILE``: final scoring (docs/formats.md §5).

Every mistake in a document is an :class:`~station.errors.InputError` naming its
JSON path.
"""

from __future__ import annotations

from typing import Any

from rules.games.removal.scoring import FinalHand, Transported, final_parts, winners
from station.games.removal.truck import read_helpers
from station.jsonin import Node

MAX_BOX_VALUE = 2  # Removal's rulebook: a box has "0 to +2 points on its back"


def read_transported(node: Node) -> Transported:
    node.obj()
    box = node.get("box")
    symbol = node.get("symbol")
    return Transported(
        antique=node.get("antique", False).boolean(),
        box_value=None if box.is_null() else box.integer(0, MAX_BOX_VALUE),
        symbol=None if symbol.is_null() else symbol.string(non_empty=True),
    )


def read_hand(node: Node) -> FinalHand:
    node.obj()
    return FinalHand(
        player=node["player"].string(non_empty=True),
        track=node["track"].integer(),
        storage_holds_item=not node.get("storage").is_null(),
        unused_helpers=read_helpers(node.get("unused_helpers", [])),
        transported=[read_transported(item) for item in node.get("transported", []).items()],
    )


def read_keepsakes(node: Node) -> list[str]:
    symbols = [item.string(non_empty=True) for item in node.items()]
    for index, symbol in enumerate(symbols):
        if symbol in symbols[:index]:
            raise node.items()[index].fail(f"keepsake {symbol!r} is listed twice")
    return symbols


def score_document(document: Node) -> dict[str, Any]:
    """The output of ``packref score removal`` for a §5 document."""
    keepsakes = read_keepsakes(document.get("keepsakes", []))
    hands = [read_hand(node) for _, node in document["players"].players()]
    parts = final_parts(hands, keepsakes)
    totals = [sum(part.values()) for part in parts]
    return {
        "players": [{"player": hand.player, "total": total, "points": part}
                    for hand, total, part in zip(hands, totals, parts, strict=True)],
        "winners": winners([hand.player for hand in hands], totals,
                           [hand.antiques for hand in hands]),
    }
