"""Removal's end-of-game scoring: boxes, the antiques table, storage, helpers, keepsakes.

Shared by the engine and by ``packref score removal`` (docs/formats.md §5).

Example::

    >>> antique_points(2), antique_points(9)
    (5, 22)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

ANTIQUE_TABLE = (0, 3, 5, 8, 10, 13, 15, 17, 20)  # points for 0..8 antiques
ANTIQUE_EXTRA = 2  # each antique beyond the table
STORAGE_PENALTY = -2
KEEPSAKE_SOLE = 4
KEEPSAKE_SHARED = 2
PART_NAMES = ("track", "boxes", "antiques", "storage", "helpers", "keepsakes")


@dataclass(frozen=True)
class Transported:
    """One tile in a player's stack of transported items."""

    antique: bool = False
    box_value: int | None = None
    symbol: str | None = None


@dataclass
class FinalHand:
    """What one player brings to the final scoring."""

    player: str
    track: int
    storage_holds_item: bool
    unused_helpers: Sequence[int]
    transported: Sequence[Transported] = field(default_factory=list)

    @property
    def antiques(self) -> int:
        return sum(1 for item in self.transported if item.antique)


def antique_points(count: int) -> int:
    """The antiques table: 1→3, 2→5, 3→8, 4→10, 5→13, 6→15, 7→17, 8→20, +2 each further one."""
    if count < len(ANTIQUE_TABLE):
        return ANTIQUE_TABLE[count]
    return ANTIQUE_TABLE[-1] + ANTIQUE_EXTRA * (count - len(ANTIQUE_TABLE) + 1)


def keepsake_points(hands: Sequence[FinalHand], keepsakes: Sequence[str]) -> list[int]:
    """Per player: 4 for each keepsake symbol they alone transported most of, 2 when tied."""
    points = [0] * len(hands)
    for symbol in keepsakes:
        counts = [sum(1 for item in hand.transported if item.symbol == symbol) for hand in hands]
        most = max(counts, default=0)
        if most == 0:
            continue
        leaders = [index for index, count in enumerate(counts) if count == most]
        for index in leaders:
            points[index] += KEEPSAKE_SOLE if len(leaders) == 1 else KEEPSAKE_SHARED
    return points


def final_parts(hands: Sequence[FinalHand], keepsakes: Sequence[str]) -> list[dict[str, int]]:
    """Each player's points by part (``PART_NAMES``), in player order."""
    keepsake = keepsake_points(hands, keepsakes)
    return [
        {
            "track": hand.track,
            "boxes": sum(item.box_value or 0 for item in hand.transported),
            "antiques": antique_points(hand.antiques),
            "storage": STORAGE_PENALTY if hand.storage_holds_item else 0,
            "helpers": sum(hand.unused_helpers),
            "keepsakes": keepsake[index],
        }
        for index, hand in enumerate(hands)
    ]


def winners(names: Sequence[str], totals: Sequence[int], antiques: Sequence[int]) -> list[str]:
    """Highest total wins; then fewer antiques; then the victory is shared (input order kept)."""
    keys = [(total, -count) for total, count in zip(totals, antiques, strict=True)]
    best = max(keys)
    return [name for name, key in zip(names, keys, strict=True) if key == best]
