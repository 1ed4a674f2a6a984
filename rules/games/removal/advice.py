"""Advice on Removal: the advisor's heuristic and the exact one-move rankings.

:class:`RemovalEvaluator` is the game's one-move heuristic for the advisor
(:class:`~rules.engine.AdviceTuning`); :func:`rank_truck_placements` lists every legal
placement of a tile without helpers, best first by the §4 drive total if the truck drove
right after it (docs/formats.md §8), each footprint once.

Example::

    >>> truck = Truck(["...", "..."])
    >>> best = rank_truck_placements(truck, TileSpec("cup", ("#",)))[0]
    >>> (best.row, best.col, best.drive_total)
    (1, 0, 13)
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from rules.advice.heuristics import Evaluator
from rules.engine import State
from rules.games.removal.truck import TileSpec, Truck


def guess_box_values(state: State, rng: random.Random) -> None:
    """Removal: the boxes' secret values dealt out afresh among the boxes (in place), so a
    playout never leans on which box has which value (the rulebook: nobody looks at them
    before the final scoring); the copy's values stay the same values."""
    entries = state.entries  # type: ignore[attr-defined]  # RemovalState's components by id
    boxes = sorted(tile for tile, entry in entries.items() if "value" in entry)
    values = [entries[tile]["value"] for tile in boxes]
    rng.shuffle(values)
    for tile, value in zip(boxes, values, strict=True):
        entries[tile] = {**entries[tile], "value": value}


class RemovalEvaluator(Evaluator):
    """Removal: the score plus what the player's truck would bring if it drove now (loading
    scores nothing until the drive, so plain scores cannot tell good loads from bad)."""

    def value(self, state: State, player: int) -> float:
        score = state.scores()[player].total
        truck = getattr(state, "truck", None)
        if truck is None:
            return score
        loaded = truck(player)
        return score + (loaded.drive_score().total if loaded.tiles else 0)


@dataclass(frozen=True)
class TruckPlacement:
    """One legal placement of a Removal tile (no helpers) and the drive total after it."""

    row: int
    col: int
    rotation: int
    flip: bool
    damaged: tuple[str, ...]
    drive_total: int

    def to_json(self) -> dict[str, object]:
        return {"row": self.row, "col": self.col, "rotation": self.rotation, "flip": self.flip,
                "damaged": list(self.damaged), "drive_total": self.drive_total}


def rank_truck_placements(truck: Truck, tile: TileSpec) -> list[TruckPlacement]:
    """Every legal placement of ``tile`` without helpers (each footprint once), ranked as §8
    says: highest drive total right after it (not the final drive), then fewer damaged
    items, then rotation, flip, row, col ascending. ``truck`` is left unchanged."""
    found = []
    for placement in truck.legal_placements(tile):
        loaded = copy.deepcopy(truck)
        loaded.place(tile, placement.row, placement.col, placement.rotation, placement.flip)
        found.append(TruckPlacement(placement.row, placement.col, placement.rotation,
                                    placement.flip, placement.damaged,
                                    loaded.drive_score(final=False).total))
    found.sort(key=lambda p: (-p.drive_total, len(p.damaged), p.rotation, p.flip, p.row, p.col))
    return found
