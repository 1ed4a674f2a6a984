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

Scoring is one pure function, :func:`~rules.games.moving_day.scoring.score_load`, shared
with ``packref score moving-day``; where boxes may go is
:mod:`rules.games.moving_day.placement`. Rule readings are options, listed in
``docs/rules-notes.md`` (the Moving Day section).

Draws and reveals
-----------------

Refilling a group draws its boxes and helper card *unseen* (``"?"`` in
``data``): the draw order is never part of the position. A seeded game
(``deal="seed"``) reveals each at once from the piles shuffled into its setup,
so it plays exactly as before. In a game dealt by hand (``deal="table"``) the
groups lie face up but no camera films them; a group's box or helper is learnt
by one of two reveal actions, entered by a person at any time::

    {"type": "reveal", "group": 2, "box": "box-07"}       # the group's first unseen box
    {"type": "reveal", "group": 2, "helper": "helper-13"} # the group's helper card

(these are the chance outcomes listed; a whole group may also be entered at
once, ``{"type": "reveal", "group": 2, "boxes": [...], "helper": ...}``, which
is how a seeded game reveals each group it draws), or together with the take
itself: a take may name unseen boxes of its group
(the camera reads their tags as they are loaded) and, with ``"helper": id``,
its unseen helper card. Nothing ever waits for a reveal (:meth:`is_chance` is
never true): a group's helper card must be known only once that group is
taken. Helper cards with the same features are interchangeable, so the
chance outcomes list one helper per kind, with the number of copies unseen;
any unseen card of that kind is accepted.

    >>> from rules import get_game
    >>> state = get_game("moving-day").new_game(["Ana", "Ben"], deal="table")
    >>> state.data["groups"][0]
    {'boxes': ['?', '?'], 'helper': '?', 'snacks': 0}
    >>> state.apply({"type": "reveal", "group": 0, "box": "box-07"})
    >>> state.data["groups"][0]["boxes"]
    ['box-07', '?']
    >>> state.apply({"type": "reveal", "group": 1, "box": "box-07"})
    Traceback (most recent call last):
    ...
    rules.errors.IllegalAction: box-07 is already in group 1

(People count the groups from 1, the JSON from 0: ``"group": 0`` is group 1.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any, ClassVar

from rules.catalogue import default_catalogue
from rules.engine import (
    REVEAL,
    Action,
    AdviceTuning,
    FrozenAction,
    Game,
    Outcome,
    PlayerScore,
    State,
    require,
    winners_by,
)
from rules.errors import IllegalAction
from rules.games.moving_day.placement import (
    LOWEST_ROW,
    PLACEMENT_RULES,
    SUPPORTED,
    Endings,
    Place,
    fleet_for,
)
from rules.games.moving_day.scoring import (
    BOX_FEATURES,
    HELPER_FEATURES,
    LoadedBox,
    LoadedVehicle,
    LoadScore,
    SeatedHelper,
    score_load,
)
from rules.games.moving_day.views import BoxFacts, VehicleView
from rules.words import at, numbered

GAME_NAME = "moving-day"
BOXES_PER_GROUP = 2
UNSEEN = "?"  # a box or helper card of a group that the station has not seen yet
TAKE_FIELDS = frozenset({"type", "group", "boxes", "helper_vehicle", "helper"})

# helper_discard: when a helper card may be removed from play instead of seated.
LACKS_SEATS_SOMEWHERE = "lacks-seats-somewhere"  # some vehicle has too few free seats for it
LACKS_SEATS_EVERYWHERE = "lacks-seats-everywhere"  # no vehicle has enough free seats
HELPER_DISCARD_RULES = (LACKS_SEATS_SOMEWHERE, LACKS_SEATS_EVERYWHERE)
MAX_ROUNDS = 30  # the rulebook plays 8; more makes a game no table sits through
HELPER_COUNT = HELPER_FEATURES.index("count")


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
    option_limits: ClassVar[dict[str, tuple[int, int]]] = {"rounds": (1, MAX_ROUNDS)}
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "placement": PLACEMENT_RULES, "helper_discard": HELPER_DISCARD_RULES}
    advice_tuning = AdviceTuning(root_screen=80, rollout_sample=3)

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
        setup = self.make_table_setup(players, options, catalogue)
        rng = random.Random(seed)
        box_pile, helper_pile = list(setup["boxes"]), list(setup["helpers"])
        rng.shuffle(box_pile)
        rng.shuffle(helper_pile)
        supply = setup.pop("snack_supply")  # keeps today's key order in stored games
        setup.update(box_pile=box_pile, helper_pile=helper_pile, snack_supply=supply)
        return setup

    def make_table_setup(
        self,
        players: list[str],
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The catalogue's components, no piles: the table shuffled and dealt them."""
        _check_options(options)
        if catalogue is None:
            vehicles, boxes, helpers, supply = _default_components()
        else:
            vehicles, boxes, helpers, supply = _components(catalogue)
        return {"vehicles": vehicles, "box_fields": list(BOX_FEATURES), "boxes": boxes,
                "helper_fields": list(HELPER_FEATURES), "helpers": helpers,
                "snack_supply": supply}


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
    if UNSEEN in boxes or UNSEEN in helpers:
        raise ValueError(f"{UNSEEN!r} cannot be a box or helper id: it marks an unseen one")
    supply = sum(int(value) * number for value, number in catalogue["snacks"].items())
    return vehicles, boxes, helpers, supply


@lru_cache(maxsize=1)
def _default_components() -> Components:
    """The default catalogue's components, read once (the setup deep-copies them)."""
    return _components(default_catalogue(GAME_NAME))


def _check_options(options: Mapping[str, Any]) -> None:
    rounds = options["rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"option 'rounds' must be a whole number 1..{MAX_ROUNDS}")
    if options["placement"] not in PLACEMENT_RULES:
        raise ValueError(f"option 'placement' must be one of {', '.join(PLACEMENT_RULES)}")
    if options["helper_discard"] not in HELPER_DISCARD_RULES:
        raise ValueError(
            f"option 'helper_discard' must be one of {', '.join(HELPER_DISCARD_RULES)}"
        )


class MovingDayState(State):
    """A game of Moving Day in progress.

    ``data``: ``turn`` (turns played), ``groups`` (left to right: ``boxes`` ids,
    ``helper`` id or None when the helper pile ran out, ``"?"`` for one drawn but
    not yet seen, and the ``snacks`` value lying next to it), ``box_next`` and
    ``helper_next`` (how many boxes and helper cards were drawn), ``supply``
    (snack value left), and per player ``snacks``, ``vehicles`` (``grid`` of box
    ids by row and column, ``helpers`` ids seated) and what was removed from play.
    All of it lies face up on the table: :meth:`public_view` is ``data``.
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
        """A new group, unseen: 2 boxes and 1 helper, or what is left of them."""
        start = data["box_next"]
        drawn = min(BOXES_PER_GROUP, len(self.setup["boxes"]) - start)
        data["box_next"] = start + drawn
        helper = None
        if data["helper_next"] < len(self.setup["helpers"]):
            helper = UNSEEN
            data["helper_next"] += 1
        return {"boxes": [UNSEEN] * drawn, "helper": helper, "snacks": 0}

    # -- chance: what lies unseen, and its reveals ------------------------------------
    def seeded_reveal(self) -> Action | None:
        """The first group (left to right) with anything unseen, revealed whole from the piles.

        The piles are drawn in order: the next box is the one after those already seen.
        One reveal per group keeps a seeded game as fast as before. The refill after the
        last turn is never seen (a table dealt by hand cannot reveal it either: the game
        is over).
        """
        data = self.data
        if data["turn"] >= self.options["rounds"] * len(self.players):
            return None  # over
        groups = data["groups"]
        index = -1
        for group in groups:
            index += 1
            boxes, helper = group["boxes"], group["helper"]
            if UNSEEN not in boxes and helper != UNSEEN:
                continue
            # Groups before ``index`` are all seen: the unseen ones are the last drawn.
            unseen_boxes = unseen_helpers = 0
            for later in groups[index:]:
                unseen_boxes += later["boxes"].count(UNSEEN)
                unseen_helpers += later["helper"] == UNSEEN
            reveal: Action = {"type": REVEAL, "group": index}
            if UNSEEN in boxes:
                first = data["box_next"] - unseen_boxes
                reveal["boxes"] = self.setup["box_pile"][first:first + boxes.count(UNSEEN)]
            if helper == UNSEEN:
                reveal["helper"] = self.setup["helper_pile"][data["helper_next"] - unseen_helpers]
            return reveal
        return None

    def _box_places(self) -> Iterable[tuple[str, str]]:
        """Every box seen, with where it is in a person's words."""
        for index, group in enumerate(self.data["groups"]):
            for box in group["boxes"]:
                if box != UNSEEN:
                    yield box, f"in {numbered('group', index)}"
        for name, player in zip(self.players, self.data["players"], strict=True):
            for vehicle, state in zip(self.fleet.names, player["vehicles"], strict=True):
                for line in state["grid"]:
                    for box in line:
                        if box is not None:
                            yield box, f"in a vehicle ({name}'s {vehicle})"
            for box in player["boxes_out"]:
                yield box, f"out of play ({name} had no space for it)"

    def _helper_places(self) -> Iterable[tuple[str, str]]:
        """Every helper card seen, with where it is in a person's words."""
        for index, group in enumerate(self.data["groups"]):
            if group["helper"] not in (None, UNSEEN):
                yield group["helper"], f"in {numbered('group', index)}"
        for name, player in zip(self.players, self.data["players"], strict=True):
            for vehicle, state in zip(self.fleet.names, player["vehicles"], strict=True):
                for helper in state["helpers"]:
                    yield helper, f"seated in {name}'s {vehicle}"
            for helper in player["helpers_out"]:
                yield helper, f"out of play ({name} removed it)"

    def where_box(self, box: str) -> str | None:
        """Where box ``box`` has been seen, in a person's words ("in group 2": groups counted
        from 1), or None."""
        return next((where for seen, where in self._box_places() if seen == box), None)

    def box_endings(self, player: int, boxes: int) -> Endings:
        """The legal end places of ``boxes`` more boxes in player ``player``'s vehicles."""
        return self.fleet.endings(self._occupied(player), boxes)

    def helper_choices(self, player: int, helper: str | None) -> list[str | None]:
        """Where player ``player`` may put helper card ``helper``: vehicles, None (out)."""
        return self._helper_choices(self._free_seats(player), helper)

    def unseen_boxes(self) -> list[str]:
        """The boxes not seen yet, in catalogue order."""
        seen = {box for box, _ in self._box_places()}
        return [box for box in self.setup["boxes"] if box not in seen]

    def unseen_helpers(self) -> list[str]:
        """The helper cards not seen yet, in catalogue order."""
        seen = {helper for helper, _ in self._helper_places()}
        return [helper for helper in self.setup["helpers"] if helper not in seen]

    def unseen(self) -> dict[str, int]:
        return {component: 1 for component in [*self.unseen_boxes(), *self.unseen_helpers()]}

    def chance_outcomes(self) -> list[Outcome]:
        """Each unseen box for each group's unseen box, and each kind of unseen helper card
        (its first card in catalogue order, with how many of that kind are unseen) for each
        group's unseen helper."""
        groups = self.data["groups"]
        outcomes: list[Outcome] = []
        box_groups = [index for index, group in enumerate(groups) if UNSEEN in group["boxes"]]
        if box_groups:
            boxes = self.unseen_boxes()
            for index in box_groups:
                outcomes += [_box_outcome(index, box) for box in boxes]
        helper_groups = [index for index, group in enumerate(groups)
                         if group["helper"] == UNSEEN]
        if helper_groups:
            kinds = self._unseen_helper_kinds()
            for index in helper_groups:
                outcomes += [Outcome(FrozenAction(type=REVEAL, group=index, helper=helper), count)
                             for helper, count in kinds.items()]
        return outcomes

    def _unseen_helper_kinds(self) -> dict[str, int]:
        """The first unseen helper card of each kind (same features), and the kind's count."""
        helpers = self.setup["helpers"]
        first: dict[tuple[Any, ...], str] = {}
        counts: dict[str, int] = {}
        for helper in self.unseen_helpers():
            kind = first.setdefault(tuple(helpers[helper]), helper)
            counts[kind] = counts.get(kind, 0) + 1
        return counts

    def check_reveal(self, action: Action) -> None:
        """Boxes or a helper card of a group that are still unseen, and the group's slots for them.

        Besides the outcomes listed (one ``box`` or one ``helper``), a reveal may name several
        of the group's unseen boxes (``boxes``) and its helper at once, as a seeded game does.
        Any unseen helper card is accepted, not only the one that stands for its kind in
        :meth:`chance_outcomes`: cards of one kind are interchangeable.
        """
        parts = set(action) - {"type", "group"}
        require("group" in action and parts and parts <= {"box", "boxes", "helper"}
                and not {"box", "boxes"} <= parts,
                "a reveal names a 'group' and one 'box' of it (or its 'boxes') or its 'helper', "
                'e.g. {"type": "reveal", "group": 0, "box": "box-07"}')
        index = action["group"]
        group = self._checked_group(index)
        boxes = [action["box"]] if "box" in action else action.get("boxes", [])
        require(isinstance(boxes, list) and (boxes or "helper" in action),
                "'boxes' lists one or more box ids")
        for box in boxes:
            self._check_unseen_box(box)
        require(len(set(boxes)) == len(boxes), "a box cannot lie in a group twice")
        unseen = group["boxes"].count(UNSEEN)
        require(unseen or not boxes,
                f"every box of {numbered('group', index)} is known already: "
                f"{_listed(group['boxes'])}")
        require(len(boxes) <= unseen,
                f"{numbered('group', index)} has only {unseen} unseen box(es) left")
        if "helper" in action:
            self._check_unseen_helper(action["helper"])
            require(group["helper"] is not None, f"{numbered('group', index)} has no helper card")
            require(group["helper"] == UNSEEN, f"{numbered('group', index)}'s helper card is "
                                               f"known already: {group['helper']}")

    def _check_unseen_box(self, box: Any) -> None:
        require(isinstance(box, str) and box in self.setup["boxes"],
                f"there is no box {box!r} in this copy")
        for seen, where in self._box_places():
            require(seen != box, f"{box} is already {where}")

    def _check_unseen_helper(self, helper: Any) -> None:
        require(isinstance(helper, str) and helper in self.setup["helpers"],
                f"there is no helper card {helper!r} in this copy")
        for seen, where in self._helper_places():
            require(seen != helper, f"{helper} is already {where}")

    def _reveal(self, action: Action) -> None:
        group = self.data["groups"][action["group"]]
        boxes = group["boxes"]
        if "box" in action:
            boxes[boxes.index(UNSEEN)] = action["box"]
        for box in action.get("boxes", ()):
            boxes[boxes.index(UNSEEN)] = box
        if "helper" in action:
            group["helper"] = action["helper"]

    # -- read-only views, for presenters (never the JSON of ``data``) --------------------
    def box_facts(self) -> Mapping[str, BoxFacts]:
        """Every box of the copy, by id."""
        return MappingProxyType({box: BoxFacts(*values)
                                 for box, values in self.setup["boxes"].items()})

    def facts_of_box(self, box: str) -> BoxFacts | None:
        """Box ``box`` of the copy (None: the copy has no such box), without the whole copy's
        facts: words call this once per legal action."""
        values = self.setup["boxes"].get(box)
        return None if values is None else BoxFacts(*values)

    def vehicle_names(self) -> tuple[str, ...]:
        """The names of the vehicles every player owns, in their order."""
        return tuple(self.fleet.names)

    def vehicles(self, player: int) -> tuple[VehicleView, ...]:
        """Player ``player``'s vehicles as they stand: boxes on their spaces, helpers seated."""
        return tuple(
            VehicleView(name, layout, tuple(tuple(line) for line in vehicle["grid"]),
                        tuple(vehicle["helpers"]))
            for name, layout, vehicle in zip(self.fleet.names, self.fleet.layouts,
                                             self.data["players"][player]["vehicles"],
                                             strict=True))

    def snacks(self, player: int) -> int:
        """The snack value player ``player`` has taken."""
        return self.data["players"][player]["snacks"]

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
        free = []
        for seats, state in zip(self.fleet.seats, self.data["players"][player]["vehicles"],
                                strict=True):
            for helper in state["helpers"]:  # a plain loop: this runs on every move
                seats -= helpers[helper][HELPER_COUNT]
            free.append(seats)
        return free

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
            if UNSEEN in group["boxes"] or group["helper"] == UNSEEN:
                actions += self._takes_revealing(index, group, occupied, free_seats)
                continue
            helpers = self._helper_choices(free_seats, group["helper"])
            actions += [{"type": "take", "group": index, "boxes": [*placed],
                         "helper_vehicle": helper}
                        for placed in self._box_choices(occupied, group["boxes"])
                        for helper in helpers]
        return actions

    def _takes_revealing(self, index: int, group: Mapping[str, Any],
                         occupied: frozenset[Place], free_seats: list[int]) -> list[Action]:
        """The takes of a group with unseen boxes or helper, listed once: the first unseen
        components in catalogue order stand for them (any other unseen one is legal too)."""
        stand_ins = iter(self.unseen_boxes())
        boxes = [next(stand_ins) if box == UNSEEN else box for box in group["boxes"]]
        named: dict[str, Any] = {}
        helper = group["helper"]
        if helper == UNSEEN:
            helper = named["helper"] = self.unseen_helpers()[0]
        helpers = self._helper_choices(free_seats, helper)
        return [{"type": "take", "group": index, "boxes": [*placed],
                 "helper_vehicle": choice, **named}
                for placed in self._box_choices(occupied, boxes) for choice in helpers]

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
        # Reasons are built only when needed: check() runs on every move of a simulation.
        if action["type"] != "take":
            raise IllegalAction(
                f"unknown action {action['type']!r}: a turn is {{'type': 'take', ...}}")
        unknown = set(action) - TAKE_FIELDS
        if unknown:
            raise IllegalAction(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        player = self.current_player()
        assert player is not None  # apply() refuses actions once the game is over
        group = self._checked_group(action.get("group"))
        boxes, helper = group["boxes"], group["helper"]
        if UNSEEN in boxes:
            boxes = self._named_boxes(boxes, action.get("boxes"))
        if helper == UNSEEN or "helper" in action:
            helper = self._taken_helper(action["group"], helper, action)
        occupied = self._occupied(player)
        assignment = self._checked_assignment(boxes, action.get("boxes"), occupied)
        if assignment not in self.fleet.endings(occupied, len(assignment)).legal:
            raise IllegalAction(self._placement_reason(occupied))
        require("helper_vehicle" in action,
                "'helper_vehicle' is missing (null when the helper leaves play)")
        helper_vehicle = action["helper_vehicle"]
        if helper_vehicle not in self._helper_choices(self._free_seats(player), helper):
            raise IllegalAction(self._helper_reason(helper, helper_vehicle))

    def _named_boxes(self, boxes: list[str], entries: Any) -> list[str]:
        """The group's boxes with its unseen ones filled by the unseen boxes ``entries`` name
        (a take reveals the boxes it loads: the camera reads their tags)."""
        require(isinstance(entries, list) and len(entries) == len(boxes)
                and all(isinstance(entry, dict) for entry in entries),
                f"'boxes' must list the group's {len(boxes)} boxes, each an object: "
                f"{_listed(boxes)}")
        new = [entry.get("box") for entry in entries if entry.get("box") not in boxes]
        for box in new:
            self._check_unseen_box(box)
        require(len(set(new)) == len(new),
                f"'boxes' must list each of the group's boxes once: {_listed(boxes)}")
        stand_ins = iter(new)
        named = [next(stand_ins, UNSEEN) if box == UNSEEN else box for box in boxes]
        require(UNSEEN not in named and next(stand_ins, None) is None,
                f"'boxes' must list each of the group's boxes once: {_listed(boxes)}")
        return named

    def _taken_helper(self, index: int, helper: str | None, action: Action) -> str | None:
        """The group's helper card; an unseen one must be named by the take (``"helper"``)."""
        if "helper" not in action:
            require(helper != UNSEEN,
                    f"the helper card of {numbered('group', index)} has not been seen: name it "
                    "('helper') or reveal it first (no camera reads helper cards)")
            return helper
        named = action["helper"]
        if helper == UNSEEN:
            self._check_unseen_helper(named)
            return named
        require(named == helper,
                f"{numbered('group', index)}'s helper card is {helper or 'none'}, not {named!r}")
        return helper

    def _checked_group(self, index: Any) -> dict[str, Any]:
        groups = self.data["groups"]
        if not (isinstance(index, int) and not isinstance(index, bool)
                and 0 <= index < len(groups)):
            raise IllegalAction(f"'group' must be a group's index, 0 to {len(groups) - 1} "
                                "(group 1 is 0)")
        return groups[index]

    def _checked_assignment(
        self, boxes: list[str], entries: Any, occupied: frozenset[Place]
    ) -> tuple[Place | None, ...]:
        """The place of each of the group's boxes, in group order, from the action's entries."""
        if not isinstance(entries, list) or len(entries) != len(boxes):
            raise IllegalAction(f"'boxes' must list the group's {len(boxes)} boxes: "
                                f"{_listed(boxes)}")
        places: dict[str, Place | None] = {}
        for entry in entries:
            require(isinstance(entry, dict), "each entry of 'boxes' is an object")
            box = entry.get("box")
            if box not in boxes or box in places:  # (the reason is built only when needed)
                raise IllegalAction(
                    f"'boxes' must list each of the group's boxes once: {_listed(boxes)}")
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
        if not isinstance(vehicle, str) or vehicle not in self.fleet.index:
            raise IllegalAction(f"no vehicle called {vehicle!r}")
        row, col = entry.get("row"), entry.get("col")
        require(type(row) is int and type(col) is int,  # not bool, a subclass of int
                "a placed box needs whole-number 'row' and 'col'")
        place = (self.fleet.index[vehicle], row, col)
        if not self.fleet.is_space(place):
            raise IllegalAction(f"the {vehicle} has no box space at {at(row, col)}")
        if place in occupied:
            raise IllegalAction(f"the {vehicle}'s space at {at(row, col)} already holds a box")
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
        if action["type"] == REVEAL:
            self._reveal(action)
            return
        player_index = self.data["turn"] % len(self.players)
        player = self.data["players"][player_index]
        groups = self.data["groups"]
        taken = action["group"]
        group = groups[taken]
        for entry in action["boxes"]:
            self._load_box(player, entry)
        helper = group["helper"]
        if helper == UNSEEN:
            helper = action["helper"]
        if helper is not None:
            if action["helper_vehicle"] is None:
                player["helpers_out"].append(helper)
            else:
                vehicle = player["vehicles"][self.fleet.index[action["helper_vehicle"]]]
                vehicle["helpers"].append(helper)
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


@lru_cache(maxsize=4096)
def _box_outcome(group: int, box: str) -> Outcome:
    """The outcome "box ``box`` lies in group ``group``" (shared: outcomes are read-only)."""
    return Outcome(FrozenAction(type=REVEAL, group=group, box=box))


def _listed(components: Iterable[str | None]) -> str:
    """Components in a person's words: ``"?"`` is one not seen yet."""
    return ", ".join("one not yet seen" if item == UNSEEN else str(item) for item in components)


#: The game itself, as :mod:`rules.registry` finds it.
GAME = MovingDay()
