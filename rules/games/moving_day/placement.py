"""Moving Day's vehicles and where the next boxes may go in them (the ``placement`` option).

A box goes into a vehicle from the bottom up: with ``lowest-row`` (the default) into a
free space of the lowest row that still has one, with ``supported`` into any free
space on the floor, on a ``#`` or on a box. :class:`Fleet` works out every legal end
position of a group's boxes, cached by the spaces already taken.

Example::

    >>> fleet = fleet_for([{"name": "car", "layout": ["..", ".#"], "seats": 2}], LOWEST_ROW)
    >>> fleet.open_spaces(frozenset())
    [(0, 1, 0)]
    >>> fleet.open_spaces(frozenset({(0, 1, 0)}))
    [(0, 0, 0), (0, 0, 1)]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Any

SPACE = "."
NO_SPACE = "#"

# placement: where the next box may go in a vehicle.
LOWEST_ROW = "lowest-row"  # a free space in the lowest row that still has one
SUPPORTED = "supported"  # a free space on the floor, on '#' or on a box
PLACEMENT_RULES = (LOWEST_ROW, SUPPORTED)

Place = tuple[int, int, int]  # (vehicle index, row, col) among one player's vehicles


@dataclass(frozen=True, slots=True)
class Endings:
    """The legal end positions of a group's boxes: ``legal`` holds each as a tuple of places.

    A place is None for a box out of play (allowed only when no space is open).
    ``places[slot]`` lists the places box ``slot`` can take, and ``choices`` gives
    each ending as one index into ``places`` per box, in a stable order.
    """

    legal: frozenset[tuple[Place | None, ...]]
    places: tuple[tuple[Place | None, ...], ...]
    choices: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, ends: Sequence[tuple[Place | None, ...]], boxes: int) -> Endings:
        places = tuple(tuple(dict.fromkeys(end[slot] for end in ends)) for slot in range(boxes))
        index = [{place: number for number, place in enumerate(slot)} for slot in places]
        choices = tuple(tuple(index[slot][place] for slot, place in enumerate(end))
                        for end in ends)
        return cls(frozenset(ends), places, choices)


class Fleet:
    """The set of vehicles each player owns, and where the next boxes may be placed."""

    def __init__(self, vehicles: Sequence[Mapping[str, Any]], placement: str) -> None:
        self.names: list[str] = [vehicle["name"] for vehicle in vehicles]
        self.index: dict[str, int] = {name: index for index, name in enumerate(self.names)}
        self.layouts: list[tuple[str, ...]] = [tuple(vehicle["layout"]) for vehicle in vehicles]
        self.seats: list[int] = [vehicle["seats"] for vehicle in vehicles]
        self.placement = placement
        self._endings: dict[tuple[frozenset[Place], int], Endings] = {}

    def is_space(self, place: Place) -> bool:
        """True when ``place`` is a box space ('.') of the vehicle."""
        vehicle, row, col = place
        layout = self.layouts[vehicle]
        return 0 <= row < len(layout) and 0 <= col < len(layout[row]) and (
            layout[row][col] == SPACE
        )

    def open_spaces(self, occupied: frozenset[Place]) -> list[Place]:
        """The free spaces where the next box may go, by vehicle then reading order."""
        if self.placement == SUPPORTED:
            return [place for vehicle in range(len(self.names))
                    for place in self._supported_spaces(vehicle, occupied)]
        return [place for vehicle in range(len(self.names))
                for place in self._lowest_row_spaces(vehicle, occupied)]

    def _lowest_row_spaces(self, vehicle: int, occupied: frozenset[Place]) -> list[Place]:
        layout = self.layouts[vehicle]
        for row in range(len(layout) - 1, -1, -1):
            free = [(vehicle, row, col) for col, char in enumerate(layout[row])
                    if char == SPACE and (vehicle, row, col) not in occupied]
            if free:
                return free
        return []

    def _supported_spaces(self, vehicle: int, occupied: frozenset[Place]) -> list[Place]:
        layout = self.layouts[vehicle]
        return [
            (vehicle, row, col)
            for row, line in enumerate(layout)
            for col, char in enumerate(line)
            if char == SPACE and (vehicle, row, col) not in occupied
            and (row + 1 == len(layout) or col >= len(layout[row + 1])
                 or layout[row + 1][col] == NO_SPACE or (vehicle, row + 1, col) in occupied)
        ]

    def endings(self, occupied: frozenset[Place], boxes: int) -> Endings:
        """Every legal way ``boxes`` boxes placed one after another, in any order, can end up.

        Positions do not depend on which box is which, so the answer is cached by
        the occupied spaces alone.
        """
        key = (occupied, boxes)
        found = self._endings.get(key)
        if found is None:
            ends: set[tuple[Place | None, ...]] = set()
            for order in permutations(range(boxes)):
                self._place_in_order(order, occupied, [None] * boxes, ends)
            found = self._endings[key] = Endings.of(sorted(ends, key=_place_sort_key), boxes)
        return found

    def _place_in_order(
        self, order: Sequence[int], occupied: frozenset[Place],
        assigned: list[Place | None], ends: set[tuple[Place | None, ...]],
    ) -> None:
        if not order:
            ends.add(tuple(assigned))
            return
        box, rest = order[0], order[1:]
        spaces = self.open_spaces(occupied)
        if not spaces:
            assigned[box] = None
            self._place_in_order(rest, occupied, assigned, ends)
        for place in spaces:
            assigned[box] = place
            self._place_in_order(rest, occupied | {place}, assigned, ends)


def _place_sort_key(assignment: tuple[Place | None, ...]) -> tuple[Place, ...]:
    return tuple((-1, -1, -1) if place is None else place for place in assignment)


@lru_cache(maxsize=64)
def _cached_fleet(vehicles_json: str, placement: str) -> Fleet:
    return Fleet(json.loads(vehicles_json), placement)


def fleet_for(vehicles: Sequence[Mapping[str, Any]], placement: str) -> Fleet:
    """The (shared, cached) :class:`Fleet` of these vehicle definitions."""
    return _cached_fleet(json.dumps(list(vehicles), sort_keys=True), placement)

