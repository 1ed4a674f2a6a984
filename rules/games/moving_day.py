"""Moving Day: fill your scooter, car and truck with boxes, and seat helpers who carry them.

2–4 players, 8 rounds. In the middle of the table lie groups of 2 boxes and 1
helper card, one group more than there are players. On a turn a player takes
one group (with any snacks lying next to it), places both boxes into their own
vehicles from the bottom up, and seats the helper in one vehicle; then each
neighbouring group gets a snack of value 1 and the taken group is refilled.
At the end, clumsy helpers, heavy boxes on top and weak helpers damage boxes;
undamaged boxes score their weight symbols and their same-type and
same-colour neighbours, and snacks score their value.

One turn is one action::

    {"type": "take", "group": 1,
     "boxes": [{"box": "box-07", "vehicle": "car", "row": 2, "col": 0},
               {"box": "box-31", "vehicle": "truck", "row": 1, "col": 2}],
     "helper_vehicle": "car"}

``boxes`` says where each box of the group ends up (in any order: the move is
legal when the boxes can be placed there one after the other in some order).
A box goes ``{"box": id, "vehicle": null}`` (out of play) only when none of the
player's vehicles has a space for it; ``helper_vehicle`` is null when the
helper card is removed from play (see the ``helper_discard`` option) or the
group has no helper.

Scoring is one pure function, :func:`score_load`, shared with
``packref score moving-day``. Rule readings are options, listed in
``docs/rules-notes-moving-day.md``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Any, ClassVar

from rules.catalogue import default_catalogue
from rules.engine import Action, Game, PlayerScore, State, require, winners_by
from rules.errors import IllegalAction
from rules.registry import register

GAME_NAME = "moving-day"
SPACE = "."
NO_SPACE = "#"
BOXES_PER_GROUP = 2

# placement: where the next box may go in a vehicle.
LOWEST_ROW = "lowest-row"  # a free space in the lowest row that still has one
SUPPORTED = "supported"  # a free space on the floor, on '#' or on a box
PLACEMENT_RULES = (LOWEST_ROW, SUPPORTED)

# helper_discard: when a helper card may be removed from play instead of seated.
LACKS_SEATS_SOMEWHERE = "lacks-seats-somewhere"  # some vehicle has too few free seats for it
LACKS_SEATS_EVERYWHERE = "lacks-seats-everywhere"  # no vehicle has enough free seats
HELPER_DISCARD_RULES = (LACKS_SEATS_SOMEWHERE, LACKS_SEATS_EVERYWHERE)

POINT_PARTS = ("weight", "type", "colour", "snacks")
DAMAGE_CHECKS = ("clumsy", "weight", "strength")
BOX_FEATURES = ("type", "colour", "fragile", "weight", "points")
HELPER_FEATURES = ("count", "clumsy", "strength")
HELPER_COUNT = HELPER_FEATURES.index("count")

Cell = tuple[int, int]  # (row, col) inside one vehicle
Place = tuple[int, int, int]  # (vehicle index, row, col) among one player's vehicles


# ---------------------------------------------------------------------------------------
# Scoring: plain values in, breakdown out. Used by the engine and by the score command.
# ---------------------------------------------------------------------------------------
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
    """Check damage and count the points of one player's vehicles (contracts.md §2).

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


# ---------------------------------------------------------------------------------------
# Vehicles and where boxes may go
# ---------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------
class MovingDay(Game):
    """Moving Day for 2–4 players; see the module docstring and the rule notes."""

    name = GAME_NAME
    min_players = 2
    max_players = 4
    default_options: ClassVar[dict[str, Any]] = {
        "rounds": 8,
        "placement": LOWEST_ROW,
        "helper_discard": LACKS_SEATS_SOMEWHERE,
    }

    @property
    def state_class(self) -> type[State]:
        return MovingDayState

    def make_setup(
        self,
        players: list[str],
        seed: int,
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The catalogue's components and the shuffled box and helper piles."""
        _check_options(options)
        if catalogue is None:
            vehicles, boxes, helpers, supply = _default_components()
        else:
            vehicles, boxes, helpers, supply = _components(catalogue)
        rng = random.Random(seed)
        box_pile, helper_pile = list(boxes), list(helpers)
        rng.shuffle(box_pile)
        rng.shuffle(helper_pile)
        return {"vehicles": vehicles, "box_fields": list(BOX_FEATURES), "boxes": boxes,
                "helper_fields": list(HELPER_FEATURES), "helpers": helpers,
                "box_pile": box_pile, "helper_pile": helper_pile, "snack_supply": supply}


Components = tuple[list[dict[str, Any]], dict[str, list[Any]], dict[str, list[Any]], int]


def _components(catalogue: Mapping[str, Any]) -> Components:
    """Vehicles, boxes and helpers by id, and the snack supply's value, from a catalogue.

    A box is a row of its :data:`BOX_FEATURES`, a helper card of its
    :data:`HELPER_FEATURES` (compact, as every game's setup carries them).
    """
    vehicles = [dict(vehicle) for vehicle in catalogue["vehicles"]]
    if len({vehicle["name"] for vehicle in vehicles}) != len(vehicles):
        raise ValueError("vehicle names must be different")
    boxes = {box["id"]: [box[key] for key in BOX_FEATURES] for box in catalogue["boxes"]}
    helpers = {helper["id"]: [helper[key] for key in HELPER_FEATURES]
               for helper in catalogue["helpers"]}
    if len(boxes) != len(catalogue["boxes"]) or len(helpers) != len(catalogue["helpers"]):
        raise ValueError("box ids and helper ids must be different")
    supply = sum(int(value) * number for value, number in catalogue["snacks"].items())
    return vehicles, boxes, helpers, supply


@lru_cache(maxsize=1)
def _default_components() -> Components:
    """The default catalogue's components, read once (the setup deep-copies them)."""
    return _components(default_catalogue(GAME_NAME))


def _check_options(options: Mapping[str, Any]) -> None:
    rounds = options["rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError("option 'rounds' must be a whole number of at least 1")
    if options["placement"] not in PLACEMENT_RULES:
        raise ValueError(f"option 'placement' must be one of {', '.join(PLACEMENT_RULES)}")
    if options["helper_discard"] not in HELPER_DISCARD_RULES:
        raise ValueError(
            f"option 'helper_discard' must be one of {', '.join(HELPER_DISCARD_RULES)}"
        )


class MovingDayState(State):
    """A game of Moving Day in progress.

    ``data``: ``turn`` (turns played), ``groups`` (left to right: ``boxes`` ids,
    ``helper`` id or None, ``snacks`` value lying next to it), ``box_next`` and
    ``helper_next`` (how much of each pile is drawn), ``supply`` (snack value
    left), and per player ``snacks``, ``vehicles`` (``grid`` of box ids by row
    and column, ``helpers`` ids seated) and what was removed from play.
    """

    game: MovingDay

    def __init__(
        self,
        game: Game,
        players: list[str],
        options: dict[str, Any],
        setup: Mapping[str, Any],
        restore: Mapping[str, Any] | None = None,
    ) -> None:
        self.fleet = fleet_for(setup["vehicles"], options["placement"])
        super().__init__(game, players, options, setup, restore)

    # -- setup -------------------------------------------------------------------------
    def initial_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "turn": 0, "box_next": 0, "helper_next": 0,
            "supply": self.setup["snack_supply"], "groups": [],
        }
        for _ in range(len(self.players) + 1):
            data["groups"].append(self._draw_group(data))
        data["players"] = [self._empty_player() for _ in self.players]
        return data

    def _empty_player(self) -> dict[str, Any]:
        vehicles = [{"grid": [[None] * len(row) for row in layout], "helpers": []}
                    for layout in self.fleet.layouts]
        return {"snacks": 0, "vehicles": vehicles, "boxes_out": [], "helpers_out": []}

    def _draw_group(self, data: dict[str, Any]) -> dict[str, Any]:
        """A new group from the piles: 2 boxes and 1 helper, or what is left of them."""
        box_pile, helper_pile = self.setup["box_pile"], self.setup["helper_pile"]
        start = data["box_next"]
        boxes = box_pile[start:start + BOXES_PER_GROUP]
        data["box_next"] = start + len(boxes)
        helper = None
        if data["helper_next"] < len(helper_pile):
            helper = helper_pile[data["helper_next"]]
            data["helper_next"] += 1
        return {"boxes": boxes, "helper": helper, "snacks": 0}

    # -- whose turn ----------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.data["turn"] >= self.options["rounds"] * len(self.players)

    def current_player(self) -> int | None:
        return None if self.is_over() else self.data["turn"] % len(self.players)

    def round_number(self) -> int:
        """The round being played, from 1 (the last round's number once the game is over)."""
        return min(self.data["turn"] // len(self.players) + 1, self.options["rounds"])

    # -- legal actions -------------------------------------------------------------------
    def _occupied(self, player: int) -> frozenset[Place]:
        return frozenset(
            (vehicle, row, col)
            for vehicle, state in enumerate(self.data["players"][player]["vehicles"])
            for row, line in enumerate(state["grid"])
            for col, box in enumerate(line)
            if box is not None
        )

    def _free_seats(self, player: int) -> list[int]:
        """How many seats are still free in each of the player's vehicles."""
        helpers = self.setup["helpers"]
        return [seats - sum(helpers[helper][HELPER_COUNT] for helper in state["helpers"])
                for seats, state in zip(self.fleet.seats, self.data["players"][player]["vehicles"],
                                        strict=True)]

    def _helper_choices(self, free_seats: list[int], helper: str | None) -> list[str | None]:
        """Where the group's helper card may go: a vehicle's name, or None (out of play)."""
        if helper is None:
            return [None]
        count = self.setup["helpers"][helper][HELPER_COUNT]
        fits = [name for name, free in zip(self.fleet.names, free_seats, strict=True)
                if count <= free]
        may_discard = (not fits if self.options["helper_discard"] == LACKS_SEATS_EVERYWHERE
                       else len(fits) < len(free_seats))
        return [*fits, None] if may_discard else fits

    def _placement_entry(self, box: str, place: Place | None) -> dict[str, Any]:
        if place is None:
            return {"box": box, "vehicle": None}
        vehicle, row, col = place
        return {"box": box, "vehicle": self.fleet.names[vehicle], "row": row, "col": col}

    def legal_actions(self) -> list[Action]:
        """Every take: each group, each legal end position of its boxes, each helper choice.

        Actions of one group share their box entries: treat them as read-only
        (:meth:`apply` logs a copy).
        """
        player = self.current_player()
        if player is None:
            return []
        occupied = self._occupied(player)
        free_seats = self._free_seats(player)
        actions: list[Action] = []
        for index, group in enumerate(self.data["groups"]):
            helpers = self._helper_choices(free_seats, group["helper"])
            actions += [{"type": "take", "group": index, "boxes": [*placed],
                         "helper_vehicle": helper}
                        for placed in self._box_choices(occupied, group["boxes"])
                        for helper in helpers]
        return actions

    def _box_choices(self, occupied: frozenset[Place], boxes: list[str]) -> list[list[dict]]:
        """The ``boxes`` entries of every legal way to place the group's boxes."""
        endings = self.fleet.endings(occupied, len(boxes))
        entries = [[self._placement_entry(box, place) for place in places]
                   for box, places in zip(boxes, endings.places, strict=True)]
        if len(boxes) == BOXES_PER_GROUP:
            first, second = entries
            return [[first[one], second[two]] for one, two in endings.choices]
        return [[entries[slot][number] for slot, number in enumerate(choice)]
                for choice in endings.choices]

    # -- checking an action ---------------------------------------------------------------
    def check(self, action: Action) -> None:
        require(action["type"] == "take",
                f"unknown action {action['type']!r}: a turn is {{'type': 'take', ...}}")
        unknown = set(action) - {"type", "group", "boxes", "helper_vehicle"}
        require(not unknown, f"unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        player = self.current_player()
        assert player is not None  # apply() refuses actions once the game is over
        group = self._checked_group(action.get("group"))
        occupied = self._occupied(player)
        assignment = self._checked_assignment(group["boxes"], action.get("boxes"), occupied)
        if assignment not in self.fleet.endings(occupied, len(assignment)).legal:
            raise IllegalAction(self._placement_reason(occupied))
        require("helper_vehicle" in action,
                "'helper_vehicle' is missing (null when the helper leaves play)")
        helper_vehicle = action["helper_vehicle"]
        if helper_vehicle not in self._helper_choices(self._free_seats(player), group["helper"]):
            raise IllegalAction(self._helper_reason(group["helper"], helper_vehicle))

    def _checked_group(self, index: Any) -> dict[str, Any]:
        groups = self.data["groups"]
        require(isinstance(index, int) and not isinstance(index, bool)
                and 0 <= index < len(groups),
                f"'group' must be a group number 0..{len(groups) - 1}")
        return groups[index]

    def _checked_assignment(
        self, boxes: list[str], entries: Any, occupied: frozenset[Place]
    ) -> tuple[Place | None, ...]:
        """The place of each of the group's boxes, in group order, from the action's entries."""
        require(isinstance(entries, list) and len(entries) == len(boxes),
                f"'boxes' must list the group's {len(boxes)} boxes: {', '.join(boxes)}")
        places: dict[str, Place | None] = {}
        for entry in entries:
            require(isinstance(entry, dict), "each entry of 'boxes' is an object")
            box = entry.get("box")
            require(box in boxes and box not in places,
                    f"'boxes' must list each of the group's boxes once: {', '.join(boxes)}")
            places[box] = self._checked_place(entry, occupied)
        taken = [place for place in places.values() if place is not None]
        require(len(set(taken)) == len(taken), "two boxes cannot share one space")
        return tuple(places[box] for box in boxes)

    def _checked_place(
        self, entry: Mapping[str, Any], occupied: frozenset[Place]
    ) -> Place | None:
        vehicle = entry.get("vehicle")
        if vehicle is None:
            return None
        require(isinstance(vehicle, str) and vehicle in self.fleet.index,
                f"no vehicle called {vehicle!r}")
        row, col = entry.get("row"), entry.get("col")
        require(all(isinstance(value, int) and not isinstance(value, bool)
                    for value in (row, col)), "a placed box needs whole-number 'row' and 'col'")
        place = (self.fleet.index[vehicle], row, col)
        require(self.fleet.is_space(place), f"the {vehicle} has no box space at row {row} "
                                            f"col {col}")
        require(place not in occupied,
                f"the {vehicle}'s space at row {row} col {col} already holds a box")
        return place

    def _placement_reason(self, occupied: frozenset[Place]) -> str:
        if not self.fleet.open_spaces(occupied):
            return "no vehicle has a space left: the boxes go out of play"
        if self.options["placement"] == SUPPORTED:
            rule = "each box must rest on the floor or on another box"
        else:
            rule = "each box goes into the lowest row of its vehicle that still has a free space"
        return (f"the boxes cannot end up there: {rule}; "
                "a box leaves play only when no space is open")

    def _helper_reason(self, helper: str | None, vehicle: Any) -> str:
        if helper is None:
            return "this group has no helper: 'helper_vehicle' must be null"
        if vehicle is None:
            return f"helper {helper} must be seated: removing it is allowed only when it does " \
                   "not fit " + ("any vehicle" if self.options["helper_discard"]
                                 == LACKS_SEATS_EVERYWHERE else "some vehicle")
        if not isinstance(vehicle, str) or vehicle not in self.fleet.index:
            return f"no vehicle called {vehicle!r}"
        return f"the {vehicle} has too few free seats for helper {helper}"

    # -- performing an action -------------------------------------------------------------
    def perform(self, action: Action) -> None:
        player_index = self.data["turn"] % len(self.players)
        player = self.data["players"][player_index]
        groups = self.data["groups"]
        taken = action["group"]
        group = groups[taken]
        for entry in action["boxes"]:
            self._load_box(player, entry)
        if group["helper"] is not None:
            if action["helper_vehicle"] is None:
                player["helpers_out"].append(group["helper"])
            else:
                vehicle = player["vehicles"][self.fleet.index[action["helper_vehicle"]]]
                vehicle["helpers"].append(group["helper"])
        player["snacks"] += group["snacks"]
        for near in (taken - 1, taken + 1):
            if 0 <= near < len(groups) and self.data["supply"] > 0:
                groups[near]["snacks"] += 1
                self.data["supply"] -= 1
        groups[taken] = self._draw_group(self.data)
        self.data["turn"] += 1

    def _load_box(self, player: dict[str, Any], entry: Mapping[str, Any]) -> None:
        if entry["vehicle"] is None:
            player["boxes_out"].append(entry["box"])
            return
        vehicle = player["vehicles"][self.fleet.index[entry["vehicle"]]]
        vehicle["grid"][entry["row"]][entry["col"]] = entry["box"]

    # -- scoring ---------------------------------------------------------------------------
    def loaded_vehicles(self, player: int) -> list[LoadedVehicle]:
        """Player ``player``'s vehicles as plain values for :func:`score_load`."""
        boxes, helpers = self.setup["boxes"], self.setup["helpers"]
        loaded = []
        for name, layout, seats, state in zip(
            self.fleet.names, self.fleet.layouts, self.fleet.seats,
            self.data["players"][player]["vehicles"], strict=True,
        ):
            placed = tuple(LoadedBox(row, col, *boxes[box])
                           for row, line in enumerate(state["grid"])
                           for col, box in enumerate(line) if box is not None)
            seated = tuple(SeatedHelper(*helpers[helper]) for helper in state["helpers"])
            loaded.append(LoadedVehicle(name, layout, seats, placed, seated))
        return loaded

    def load_scores(self) -> list[LoadScore]:
        """Each player's score breakdown with damage, in player order."""
        return [score_load(self.loaded_vehicles(index), player["snacks"])
                for index, player in enumerate(self.data["players"])]

    def scores(self) -> list[PlayerScore]:
        return [PlayerScore(name, score.total, score.parts())
                for name, score in zip(self.players, self.load_scores(), strict=True)]

    def winners(self) -> list[str]:
        scores = self.scores()
        return winners_by(scores, {score.player: (score.total, score.parts["snacks"])
                                   for score in scores})


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


register(MovingDay())
