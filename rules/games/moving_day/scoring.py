"""Moving Day's scoring: plain values in, breakdown out (docs/formats.md §2).

Used by the engine and by ``packref score moving-day``. At the end, clumsy helpers,
heavy boxes on top and weak helpers damage boxes; undamaged boxes score their weight
symbols and their same-type and same-colour neighbours, and snacks score their value.

Example::

    >>> car = LoadedVehicle("car", ("..", ".."), 2, (
    ...     LoadedBox(1, 0, "books", "red", False, 3, 2),
    ...     LoadedBox(1, 1, "books", "blue", False, 2, 1)), (SeatedHelper(1, False, 3),))
    >>> score = score_load([car], snacks=2)
    >>> score.total, score.parts(), score.damaged
    (7, {'weight': 3, 'type': 2, 'colour': 0, 'snacks': 2}, ())
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BOX_FEATURES = ("type", "colour", "fragile", "weight", "points")
HELPER_FEATURES = ("count", "clumsy", "strength")

Cell = tuple[int, int]  # (row, col) inside one vehicle


@dataclass(frozen=True, slots=True)
class LoadedBox:
    """A box standing in a vehicle at ``row``, ``col`` (row 0 is the top)."""

    row: int
    col: int
    type: str
    colour: str
    fragile: bool
    weight: int
    points: int


@dataclass(frozen=True, slots=True)
class SeatedHelper:
    """A helper card seated in a vehicle: ``count`` helpers of ``strength``, maybe clumsy."""

    count: int
    clumsy: bool
    strength: int


@dataclass(frozen=True, slots=True)
class LoadedVehicle:
    """One vehicle at the end of the game. Assumed valid: boxes on distinct '.' spaces."""

    name: str
    layout: tuple[str, ...]
    seats: int
    boxes: tuple[LoadedBox, ...]
    helpers: tuple[SeatedHelper, ...]


@dataclass(frozen=True, slots=True)
class DamagedBox:
    """A damaged box and the first check that damaged it (``clumsy``, ``weight``, ``strength``)."""

    vehicle: str
    row: int
    col: int
    why: str


@dataclass(frozen=True, slots=True)
class LoadScore:
    """One player's points by part, and the damaged boxes in vehicle and reading order."""

    weight: int
    type: int
    colour: int
    snacks: int
    damaged: tuple[DamagedBox, ...]

    @property
    def total(self) -> int:
        return self.weight + self.type + self.colour + self.snacks

    def parts(self) -> dict[str, int]:
        """The points by part, keyed as in the score output."""
        return {"weight": self.weight, "type": self.type, "colour": self.colour,
                "snacks": self.snacks}


def score_load(vehicles: Sequence[LoadedVehicle], snacks: int) -> LoadScore:
    """Check damage and count the points of one player's vehicles (docs/formats.md §2).

    Vehicles are scored apart: neighbours only count inside one vehicle, so the
    best clumsy choice of each vehicle gives the best score of the player.
    """
    weight = type_points = colour_points = 0
    damaged: list[DamagedBox] = []
    for vehicle in vehicles:
        cells = {(box.row, box.col): box for box in vehicle.boxes}
        why = _damage(cells, vehicle.helpers)
        intact = {cell: box for cell, box in cells.items() if cell not in why}
        weight += sum(box.points for box in intact.values())
        type_points += _neighbour_points(intact, "type")
        colour_points += _neighbour_points(intact, "colour")
        damaged += [DamagedBox(vehicle.name, row, col, why[row, col]) for row, col in sorted(why)]
    return LoadScore(weight, type_points, colour_points, snacks, tuple(damaged))


def winners_of(results: Sequence[tuple[str, LoadScore]]) -> list[str]:
    """The winners: highest total, then more snack points, then a shared victory."""
    best = max((score.total, score.snacks) for _, score in results)
    return [name for name, score in results if (score.total, score.snacks) == best]


def _damage(cells: Mapping[Cell, LoadedBox], helpers: Sequence[SeatedHelper]) -> dict[Cell, str]:
    """Why each damaged box of one vehicle is damaged (the first check that hit it)."""
    strength = sum(helper.strength for helper in helpers)
    crushed = {
        (row, col) for (row, col), box in cells.items()
        if (above := cells.get((row - 1, col))) is not None and above.weight > box.weight
    }
    too_heavy = {cell for cell, box in cells.items() if box.weight > strength}
    later = crushed | too_heavy
    clumsy_helpers = sum(helper.count for helper in helpers if helper.clumsy)
    why = {cell: "clumsy" for cell in _clumsy_choice(cells, later, clumsy_helpers)}
    for cell in sorted(later):
        why.setdefault(cell, "weight" if cell in crushed else "strength")
    return why


def _neighbour_points(intact: Mapping[Cell, LoadedBox], feature: str) -> int:
    """How many boxes have a box with the same ``feature`` directly beside, above or below."""
    return sum(1 for cell, box in intact.items()
               if _has_match(intact, cell, getattr(box, feature), feature))


def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    row, col = cell
    return (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)


def _has_match(intact: Mapping[Cell, LoadedBox], cell: Cell, value: str, feature: str) -> bool:
    for near in _neighbours(cell):
        other = intact.get(near)
        if other is not None and getattr(other, feature) == value:
            return True
    return False


# -- the clumsy helpers' choice -----------------------------------------------------------
def _clumsy_choice(
    cells: Mapping[Cell, LoadedBox], damaged_later: set[Cell], victims: int
) -> list[Cell]:
    """The fragile boxes the clumsy helpers damage: best final score, then reading order.

    A fragile box that the weight or strength check damages anyway costs nothing,
    and any other box costs at least its weight symbols, so those come first (in
    reading order). The rest are chosen by :func:`_least_costly_removal`.
    """
    fragile = sorted(cell for cell, box in cells.items() if box.fragile)
    victims = min(victims, len(fragile))
    free = [cell for cell in fragile if cell in damaged_later]
    if len(free) >= victims:
        return free[:victims]
    intact = {cell: box for cell, box in cells.items() if cell not in damaged_later}
    candidates = [cell for cell in fragile if cell not in damaged_later]
    return sorted(free + _least_costly_removal(intact, candidates, victims - len(free)))


def _own_points(intact: Mapping[Cell, LoadedBox], cell: Cell) -> int:
    """The points a box scores itself: weight symbols plus its type and colour point."""
    box = intact[cell]
    return (box.points + _has_match(intact, cell, box.type, "type")
            + _has_match(intact, cell, box.colour, "colour"))


def _removal_loss(intact: dict[Cell, LoadedBox], cell: Cell) -> int:
    """Points lost when the box at ``cell`` is damaged: its own, and neighbours left alone."""
    loss = _own_points(intact, cell)
    box = intact.pop(cell)
    for near in _neighbours(cell):
        other = intact.get(near)
        if other is None:
            continue
        for feature in ("type", "colour"):
            value = getattr(other, feature)
            if value == getattr(box, feature) and not _has_match(intact, near, value, feature):
                loss += 1
    intact[cell] = box
    return loss


def _least_costly_removal(
    intact: dict[Cell, LoadedBox], candidates: list[Cell], count: int
) -> list[Cell]:
    """The ``count`` candidates whose damage costs fewest points; first in reading order on ties.

    Branch and bound over the candidates in reading order, taking a box before
    leaving it out, so the first best set found is the first in reading order.
    A bound: damaging more boxes costs at least what those boxes score
    themselves now (their neighbours can only lose points too). A greedy choice
    gives the first loss to beat, so that bound cuts early.
    """
    best: list[Cell] = []
    best_loss = [_greedy_loss(dict(intact), candidates, count) + 1]  # a loss to beat
    chosen: list[Cell] = []

    def search(start: int, loss: int) -> None:
        need = count - len(chosen)
        if need == 0:
            if loss < best_loss[0]:
                best_loss[0] = loss
                best[:] = chosen
            return
        rest = candidates[start:]
        if len(rest) < need:
            return
        if loss + sum(sorted(_own_points(intact, cell) for cell in rest)[:need]) >= best_loss[0]:
            return
        cell = candidates[start]
        step = _removal_loss(intact, cell)
        box = intact.pop(cell)
        chosen.append(cell)
        search(start + 1, loss + step)
        chosen.pop()
        intact[cell] = box
        search(start + 1, loss)

    search(0, 0)
    return list(best)


def _greedy_loss(intact: dict[Cell, LoadedBox], candidates: list[Cell], count: int) -> int:
    """The loss of damaging, one at a time, the candidate that costs least at that moment."""
    left, loss = list(candidates), 0
    for _ in range(count):
        step, cell = min((_removal_loss(intact, cell), cell) for cell in left)
        loss += step
        left.remove(cell)
        del intact[cell]
    return loss



def loaded_vehicles_from(vehicles: Iterable[Mapping[str, Any]]) -> list[LoadedVehicle]:
    """Plain :class:`LoadedVehicle` values from score-input style dictionaries (§2 format)."""
    return [
        LoadedVehicle(
            vehicle["name"], tuple(vehicle["layout"]), vehicle["seats"],
            tuple(LoadedBox(box["row"], box["col"], *(box[key] for key in BOX_FEATURES))
                  for box in vehicle["boxes"]),
            tuple(SeatedHelper(*(helper[key] for key in HELPER_FEATURES))
                  for helper in vehicle["helpers"]),
        )
        for vehicle in vehicles
    ]

