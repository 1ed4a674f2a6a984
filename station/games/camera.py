"""What the camera wiring of every game shares: the layout of a table's mats and its errors.

A game's record says how its mats are owned and read (:class:`station.games.CameraWiring`);
``station.live.camera`` turns frames into those readings and hands them to the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class CameraError(ValueError):
    """A camera, replay or layout that cannot be used; the message says why in one line."""


@dataclass
class CameraLayout:
    """Which mats to read for a game, whose each one is, and how tags map to pieces.

    ``roles``: as the game's record makes them — Small Warehouse and Removal
    ``{player: mat}``, Moving Day ``{player: {vehicle: mat}}``, Pick 'n Packers
    ``{"shop": mat}``. ``shapes`` and ``card_numbers``: what the game's reader
    takes from the catalogue besides the tags.
    """

    game: str
    players: list[str]
    specs: list[Any]  # vision.layout.MatSpec
    roles: dict[str, Any]
    tags: dict[int, dict[str, str]] = field(default_factory=dict)
    shapes: dict[str, list[str]] = field(default_factory=dict)
    card_numbers: dict[str, int] = field(default_factory=dict)


def one_mat_each(game: str, players: list[str], mats: list[Any]) -> tuple[dict[str, Any],
                                                                          list[Any]]:
    """Player *n* on the kit's *n*-th mat of the game; the mats used."""
    if len(players) > len(mats):
        raise CameraError(f"{game}: the kit has mats for {len(mats)} players, "
                          f"not {len(players)}")
    return ({player: mats[index].spec.id for index, player in enumerate(players)},
            [mat.spec for mat in mats[:len(players)]])


def in_order(mat: dict[str, Any]) -> dict[str, Any]:
    """The mat with its tags by place (the detector's order varies from frame to frame)."""
    if not mat.get("tags"):
        return mat
    return {**mat, "tags": sorted(mat["tags"], key=lambda t: (t["row"], t["col"], t["id"]))}


def tag_ids(layout: CameraLayout) -> dict[tuple[str, str], int]:
    """(piece, face) → the tag id stuck on it, in this layout."""
    return {(piece["piece"], piece["face"]): tag_id for tag_id, piece in layout.tags.items()}
