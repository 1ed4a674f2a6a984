"""Per-game readers: mat observations (``vision read`` objects) → what each game needs.

They take plain values: the mats of one observation, which mat is whose, and
a tag → piece mapping (``station.tags`` builds it from the catalogues). A
mapping value is a piece id, or a dict with ``"piece"`` and optionally
``"face"`` (``"front"``/``"back"``).

Example::

    >>> piece_of({117: "box-03"}, 117), piece_of({60: {"piece": "I01", "face": "back"}}, 60)
    (('box-03', 'front'), ('I01', 'back'))
    >>> piece_of({}, 99) is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TagPieces = Mapping[int, Any]


def piece_of(tag_pieces: TagPieces, tag_id: int) -> tuple[str, str] | None:
    """The (piece id, face) a tag belongs to, or None for a tag not in the mapping."""
    entry = tag_pieces.get(tag_id)
    if entry is None:
        return None
    if isinstance(entry, str):
        return entry, "front"
    return str(entry["piece"]), str(entry.get("face", "front"))


def mat_by_id(mats: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The found mats of one observation, by mat number."""
    return {mat["id"]: mat for mat in mats if mat.get("found")}
