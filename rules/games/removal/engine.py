"""Removal: pick items from the house, load them into your truck, drive off, three rounds.

Actions (JSON objects; ``helpers`` is optional everywhere, default ``[]``):

- ``{"type": "load", "item": "I07", "row": 3, "col": 2, "rotation": 90, "flip": false}``
  — A: take an available item from the house and load it;
- ``{"type": "store", "item": "I07"}`` — B: take an available item into the storage;
- ``{"type": "load-stored", "row": 3, "col": 2, "rotation": 0, "flip": true}`` — C;
- ``{"type": "drive"}`` — D: drive off and score.

The deal (chance steps, docs/formats.md §9): every tile drawn from the bag (the boxes)
onto the house board or below it as a waiting item, and each keepsake card of
the variant, is dealt as an unknown slot (``"?"``) listed in ``to_reveal``, in
the order it is read: the keepsake cards, the house areas in reading order,
then the waiting items. Nobody acts while a slot is unread (:meth:`is_chance`):
the house decides what is available. A reveal reads the *next* slot:

- ``{"type": "reveal", "zone": "house", "row": 0, "col": 1, "item": "I07"}`` — an
  item area takes an item, a box area a box (``"item": "B03"``);
- ``{"type": "reveal", "zone": "waiting", "slot": 0, "item": "I33"}``;
- ``{"type": "reveal", "zone": "keepsakes", "slot": 0, "keepsake": "yarn"}``.

A seeded game reads each slot from its shuffled piles in ``setup`` at once;
at a table dealt by hand a person reads the board (or the referee turns a
reading of the house into reveals), see ``docs/rules-notes.md``.

Loading follows docs/formats.md §4 (see :mod:`rules.games.removal.truck`); the end of
the game follows §4's ``final`` drive and §5 (:mod:`rules.games.removal.scoring`).
Readings of open rules are options, listed in ``docs/rules-notes.md`` (section Removal).

Example::

    >>> from rules import get_game
    >>> state = get_game("removal").new_game(["Ana", "Ben"], seed=1)
    >>> state.apply(state.legal_actions()[0])
    >>> len(state.log)
    1
    >>> table = get_game("removal").new_game(["Ana", "Ben"], deal="table")
    >>> table.is_chance(), table.unread_slot()
    (True, {'type': 'reveal', 'zone': 'house', 'row': 0, 'col': 1})
    >>> table.apply({"type": "reveal", "zone": "house", "row": 0, "col": 1, "item": "I07"})
    >>> len(table.chance_outcomes())  # row 0 col 2 is a box area: any of the 10 boxes
    10
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from rules.catalogue import default_catalogue
from rules.engine import REVEAL, Action, AdviceTuning, Game, PlayerScore, State, require
from rules.games.removal.advice import RemovalEvaluator, guess_box_values
from rules.games.removal.deal import KEEPSAKES, NO_AREA, UNKNOWN, DealtHouse
from rules.games.removal.scoring import FinalHand, Transported, final_parts, winners
from rules.games.removal.truck import (
    HELPER_IGNORE,
    HELPER_OVERLAP,
    HELPER_REACH,
    ROTATIONS,
    LoadedTile,
    Placement,
    TileSpec,
    Truck,
    oriented_cells,
)
from rules.games.removal.views import RemovalPlayer, TileFacts, TruckTile

NAME = "removal"
ACTION_TYPES = ("load", "store", "load-stored", "drive")
KEEPSAKES_DRAWN = 3
CATALOGUE_KEYS = ("items", "boxes", "trucks", "house", "keepsakes", "helpers", "rounds",
                  "boxes_per_round")


def tile_spec(entry: Mapping[str, Any]) -> TileSpec:
    """The loading-rule view of a catalogue item or box; its ``id`` is the tile's name."""
    delicate = entry.get("delicate")
    return TileSpec(
        name=entry["id"], shape=tuple(entry["shape"]), heavy=bool(entry.get("heavy")),
        delicate=(int(delicate[0]), int(delicate[1])) if delicate else None,
        upright=bool(entry.get("upright")), antique=bool(entry.get("antique")),
        box="value" in entry, symbol=entry.get("symbol"),
    )


class RemovalGame(Game):
    """Removal for 2 to 4 players; the catalogue is ``rules/catalogues/removal.json``."""

    name = NAME
    min_players = 2
    max_players = 4
    default_options: ClassVar[dict[str, Any]] = {"keepsakes": False, "empty_truck_drives": False,
                                                 "last_item_extra_action": False}
    advice_tuning = AdviceTuning(root_screen=60, rollout_sample=2, evaluator=RemovalEvaluator(),
                                 guess_face_down=guess_box_values)
    # "These back sides are secret and cannot be looked at until the final scoring!"
    secret_properties: ClassVar[dict[str, tuple[str, ...]]] = {"boxes": ("value",)}

    @property
    def state_class(self) -> type[State]:
        return RemovalState

    def make_setup(self, players: list[str], seed: int, options: dict[str, Any],
                   catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
        """Shuffle the bag and the boxes, draw the keepsakes, pick the house side."""
        setup = self.make_table_setup(players, options, catalogue)
        source = setup["catalogue"]
        rng = random.Random(seed)
        bag = [item["id"] for item in source["items"]]
        boxes = [box["id"] for box in source["boxes"]]
        rng.shuffle(bag)
        rng.shuffle(boxes)
        keepsakes = (rng.sample(list(source["keepsakes"]), KEEPSAKES_DRAWN)
                     if options["keepsakes"] else [])
        return {**setup, "bag": bag, "box_bag": boxes, "keepsakes": keepsakes}

    def make_table_setup(self, players: list[str], options: dict[str, Any],
                         catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
        """The catalogue and the house side for the number of players: nothing shuffled."""
        source = dict(catalogue) if catalogue is not None else default_catalogue(NAME)
        missing = [key for key in CATALOGUE_KEYS if key not in source]
        if missing:
            raise ValueError(f"the Removal catalogue lacks {', '.join(missing)}")
        if options["keepsakes"] and len(source["keepsakes"]) < KEEPSAKES_DRAWN:
            raise ValueError(f"the Keepsake variant needs {KEEPSAKES_DRAWN} keepsake cards")
        side = "2" if len(players) == 2 else "3-4"
        kept = {key: source[key] for key in CATALOGUE_KEYS if key != "house"}
        kept["house"] = source["house"][side]
        return {"catalogue": kept, "side": side}


class RemovalState(DealtHouse, State):
    """A game of Removal; the whole position is in ``self.data`` (see :meth:`initial_data`);
    the deal and its chance steps come from :class:`~rules.games.removal.deal.DealtHouse`."""

    def __init__(self, game: Game, players: list[str], options: dict[str, Any],
                 setup: Mapping[str, Any], restore: Mapping[str, Any] | None = None) -> None:
        catalogue = setup["catalogue"]
        self.entries = {entry["id"]: entry for entry in [*catalogue["items"], *catalogue["boxes"]]}
        self.specs = {tile_id: tile_spec(entry) for tile_id, entry in self.entries.items()}
        self.layout: list[str] = list(catalogue["house"]["layout"])
        self._trucks: dict[int, Truck] = {}
        super().__init__(game, players, options, setup, restore)

    # -- the position -------------------------------------------------------------------
    def initial_data(self) -> dict[str, Any]:
        """Round 1 dealt: keepsakes, house and waiting items as unknown slots to reveal
        (``to_reveal``, in the order they are revealed), everyone's truck empty."""
        helpers = list(self.setup["catalogue"]["helpers"])
        keepsakes = KEEPSAKES_DRAWN if self.options["keepsakes"] else 0
        self.data = {
            "round": 1, "turn": 0, "extra_action": False, "over": False,
            "bag_next": 0, "box_next": 0,
            "house": [[None] * len(row) for row in self.layout], "waiting": [],
            "keepsakes": [UNKNOWN] * keepsakes,
            "to_reveal": [[KEEPSAKES, slot] for slot in range(keepsakes)],
            "players": [{"track": 0, "helpers": list(helpers), "storage": None, "truck": [],
                         "transported": [], "final_drive": None} for _ in self.players],
            "last": None,
        }
        self._fill_house(waiting_first=False)
        return self.data

    def current_player(self) -> int | None:
        return None if self.data["over"] else self.data["turn"]

    def is_over(self) -> bool:
        return self.data["over"]

    # -- the house ----------------------------------------------------------------------
    def _is_available(self, row: int, col: int) -> bool:
        """An item is available when nothing lies directly underneath it."""
        below = row + 1
        return (below >= len(self.layout) or self.layout[below][col] == NO_AREA
                or self.data["house"][below][col] is None)

    def available_items(self) -> list[str]:
        """Ids of the items that may be taken now, in reading order."""
        house, layout = self.data["house"], self.layout
        bottom = len(layout) - 1
        found: list[str] = []
        for row, line in enumerate(house):
            if row == bottom:
                found += [tile for tile in line if tile is not None]
            else:
                below, below_area = house[row + 1], layout[row + 1]
                found += [tile for col, tile in enumerate(line) if tile is not None
                          and (below[col] is None or below_area[col] == NO_AREA)]
        return found

    def reachable_with_helper_2(self) -> list[str]:
        """Unavailable items lying directly above an available one (Helper 2 may take them)."""
        house, layout = self.data["house"], self.layout
        bottom = len(layout) - 1
        found: list[str] = []
        for row in range(bottom):  # an item in the bottom row is always available
            line, below, below_area = house[row], house[row + 1], layout[row + 1]
            for col, tile in enumerate(line):
                if tile is None or below[col] is None or below_area[col] == NO_AREA:
                    continue  # no item, or an available one
                if (row + 1 == bottom or layout[row + 2][col] == NO_AREA
                        or house[row + 2][col] is None):  # the item underneath is available
                    found.append(tile)
        return found

    def _where(self, tile: str) -> tuple[int, int] | None:
        for row, line in enumerate(self.data["house"]):
            if tile in line:
                return row, line.index(tile)
        return None

    def forget_derived(self) -> None:
        self._trucks = {}  # built from data["players"][...]["truck"] and changed in place

    # -- trucks -------------------------------------------------------------------------
    def truck(self, player: int) -> Truck:
        """Player ``player``'s truck as bitmasks, rebuilt from ``self.data`` when needed."""
        truck = self._trucks.get(player)
        if truck is None:
            layouts = self.setup["catalogue"]["trucks"]
            truck = Truck(layouts[player % len(layouts)])
            for record in self.data["players"][player]["truck"]:
                spec = self.specs[record["item"]]
                cells = oriented_cells(spec.shape, record["rotation"], record["flip"])
                mask = truck.footprint(cells, record["row"], record["col"]) or 0
                truck.add(LoadedTile(spec, record["row"], record["col"], record["rotation"],
                                     record["flip"], mask, record["damaged"], record["paired"]))
            self._trucks[player] = truck
        return truck

    def legal_placements(self, item: str, helpers: Sequence[int] = (),
                         player: int | None = None) -> list[Placement]:
        """Every legal placement of ``item`` in a player's truck (default: the one to act)."""
        index = self.data["turn"] if player is None else player
        return self.truck(index).legal_placements(self.specs[item], helpers)

    def _save_truck(self, player: int) -> None:
        self.data["players"][player]["truck"] = [
            {"item": tile.spec.name, "row": tile.row, "col": tile.col,
             "rotation": tile.rotation, "flip": tile.flip, "damaged": tile.damaged,
             "paired": tile.paired}
            for tile in self.truck(player).tiles
        ]

    # -- legal actions ----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action, with helpers only where they change something (see the module notes)."""
        if self.data["over"] or self.data.get("to_reveal"):
            return []
        player = self.data["players"][self.data["turn"]]
        owned = set(player["helpers"])
        loading_sets = [[]] + [[helper] for helper in (HELPER_IGNORE, HELPER_OVERLAP)
                               if helper in owned]
        takeable = [(tile, []) for tile in self.available_items()]
        if HELPER_REACH in owned:
            takeable += [(tile, [HELPER_REACH]) for tile in self.reachable_with_helper_2()]
        actions: list[Action] = []
        for tile, taking in takeable:
            keys = self._anchors_by_helpers(tile, loading_sets)
            for loading, found in zip(loading_sets, keys, strict=True):
                actions += self._loads("load", tile, sorted(taking + loading), found)
        if player["storage"] is None:
            actions += [{"type": "store", "item": tile, "helpers": list(taking)}
                        for tile, taking in takeable]
        else:
            keys = self._anchors_by_helpers(player["storage"], loading_sets)
            for loading, found in zip(loading_sets, keys, strict=True):
                actions += self._loads("load-stored", player["storage"], loading, found)
        if player["truck"] or self.options["empty_truck_drives"]:
            actions.append({"type": "drive", "helpers": []})
        return actions

    def _anchors_by_helpers(self, tile: str, loading_sets: list[list[int]]
                            ) -> list[list[tuple[int, bool, int]]]:
        """Anchor masks of ``tile`` for each helper set (Helper 1 changes nothing to where
        a tile that is neither heavy nor upright may go, so that list is shared)."""
        spec = self.specs[tile]
        truck = self.truck(self.data["turn"])
        plain = truck.anchor_masks(spec)
        same_as_plain = not (spec.heavy or spec.upright)
        return [plain if not loading or (loading == [HELPER_IGNORE] and same_as_plain)
                else truck.anchor_masks(spec, loading) for loading in loading_sets]

    def _loads(self, kind: str, tile: str, helpers: list[int],
               anchor_masks: list[tuple[int, bool, int]]) -> list[Action]:
        """Every ``load`` (of ``tile`` from the house) or ``load-stored`` with ``helpers``."""
        where = self.truck(self.data["turn"]).cell_of
        actions: list[Action] = []
        add = actions.append
        for rotation, flip, anchors in anchor_masks:
            while anchors:
                low = anchors & -anchors
                row, col = where[low.bit_length() - 1]
                anchors ^= low
                if kind == "load":
                    add({"type": kind, "item": tile, "row": row, "col": col,
                         "rotation": rotation, "flip": flip, "helpers": [*helpers]})
                else:
                    add({"type": kind, "row": row, "col": col, "rotation": rotation,
                         "flip": flip, "helpers": [*helpers]})
        return actions

    # -- checking ---------------------------------------------------------------------------
    def check(self, action: Action) -> None:
        kind = action["type"]
        require(kind in ACTION_TYPES,
                f"unknown action {kind!r}; Removal knows {', '.join(ACTION_TYPES)}")
        player = self.data["players"][self.data["turn"]]
        helpers = self._helpers_of(action, player)
        if kind in ("load", "store"):
            self._check_taking(action, helpers)
        if kind == "store":
            require(player["storage"] is None, "the storage already holds an item")
        if kind == "load":
            self._check_loading(action, action["item"], helpers)
        if kind == "load-stored":
            require(player["storage"] is not None, "the storage is empty")
            named = action.get("item", player["storage"])
            require(named == player["storage"],
                    f"the storage holds {player['storage']}, not {named}")
            self._check_loading(action, player["storage"], helpers)
        if kind == "drive":
            require(bool(player["truck"]) or self.options["empty_truck_drives"],
                    "the truck is empty: load something before driving")

    def _helpers_of(self, action: Action, player: Mapping[str, Any]) -> list[int]:
        helpers = action.get("helpers", [])
        require(isinstance(helpers, list) and all(
            isinstance(helper, int) and not isinstance(helper, bool) for helper in helpers),
            "helpers must be a list of Helper card numbers")
        require(len(set(helpers)) == len(helpers), "each Helper card can be played only once")
        for helper in helpers:
            require(helper in player["helpers"], f"Helper {helper} is not in your hand")
        return helpers

    def _check_taking(self, action: Action, helpers: list[int]) -> None:
        tile = action.get("item")
        require(isinstance(tile, str), "name the item to take ('item')")
        position = self._where(tile)
        require(position is not None, f"{tile} is not on the house board")
        if self._is_available(*position):
            return
        require(HELPER_REACH in helpers and tile in self.reachable_with_helper_2(),
                f"{tile} is not available: an item lies directly underneath it")

    def _check_loading(self, action: Action, tile: str, helpers: list[int]) -> None:
        for key in ("row", "col"):
            value = action.get(key)
            require(isinstance(value, int) and not isinstance(value, bool),
                    f"'{key}' must be a whole number")
        rotation = action.get("rotation", 0)
        require(isinstance(rotation, int) and not isinstance(rotation, bool)
                and rotation in ROTATIONS, "rotation must be 0, 90, 180 or 270")
        require(isinstance(action.get("flip", False), bool), "flip must be true or false")
        self.truck(self.data["turn"]).check(self.specs[tile], action["row"], action["col"],
                                            rotation, action.get("flip", False), helpers)

    # -- performing ---------------------------------------------------------------------------
    def perform(self, action: Action) -> None:
        if action["type"] == REVEAL:
            self._reveal(action)
            return
        turn = self.data["turn"]
        player = self.data["players"][turn]
        helpers = action.get("helpers", [])
        player["helpers"] = [helper for helper in player["helpers"] if helper not in helpers]
        outcome: dict[str, Any] = {"player": turn, "type": action["type"]}
        if action["type"] in ("load", "store"):
            outcome["item"] = self._take(action["item"])
        if action["type"] == "store":
            player["storage"] = action["item"]
        elif action["type"] == "load":
            outcome.update(self._load(turn, action["item"], action, helpers))
        elif action["type"] == "load-stored":
            outcome["item"] = player["storage"]
            outcome.update(self._load(turn, player["storage"], action, helpers))
            player["storage"] = None
        else:
            outcome["drive"] = self._drive(turn, final=False)
        self.data["last"] = outcome
        self._advance(bool(outcome.get("extra_action")))

    def _take(self, tile: str) -> str:
        position = self._where(tile)
        assert position is not None, "checked before"
        row, col = position
        self.data["house"][row][col] = None
        return tile

    def _load(self, turn: int, tile: str, action: Action, helpers: list[int]) -> dict[str, Any]:
        result = self.truck(turn).place(
            self.specs[tile], action["row"], action["col"], action.get("rotation", 0),
            action.get("flip", False), helpers, extra_turn=self.data["extra_action"])
        self._save_truck(turn)
        return {"damaged": result.damaged, "extra_action": result.extra_action}

    def _drive(self, turn: int, final: bool) -> dict[str, int] | None:
        """Score and empty a truck; None when an empty truck may not drive."""
        player = self.data["players"][turn]
        truck = self.truck(turn)
        if not truck.tiles and not self.options["empty_truck_drives"]:
            return None
        score = truck.drive_score(final=final).to_json()
        player["track"] += score["total"]
        player["transported"] += [tile.spec.name for tile in truck.empty()]
        player["truck"] = []
        return score

    def _advance(self, extra_granted: bool) -> None:
        """Give the extra action, or pass the turn; end the round when the house is empty.

        The round ends the moment its last item is placed ("The round ends when the last
        Item has been picked up and placed."): a pair of symbols that item makes is used up
        and grants nothing, unless the option ``last_item_extra_action`` lets the player
        take that extra action first, with the house empty.
        """
        house_empty = not any(tile is not None for line in self.data["house"] for tile in line)
        if extra_granted and house_empty and not self.options.get("last_item_extra_action"):
            extra_granted = False
            self.data["last"]["extra_action"] = False
        self.data["extra_action"] = extra_granted
        if not extra_granted:
            self.data["turn"] = (self.data["turn"] + 1) % len(self.players)
        if extra_granted or not house_empty:
            return
        if self.data["round"] < self.setup["catalogue"]["rounds"]:
            self.data["round"] += 1
            self._fill_house(waiting_first=True)
            return
        for index, player in enumerate(self.data["players"]):
            player["final_drive"] = self._drive(index, final=True)
        self.data["over"] = True

    # -- read-only views, for presenters (never the JSON of ``data``) ------------------------
    def round_number(self) -> int:
        """The round being played, from 1 (the last round's number once the game is over)."""
        return self.data["round"]

    def tile_facts(self) -> Mapping[str, TileFacts]:
        """Every item and box of the copy by id (items first, in catalogue order)."""
        return MappingProxyType({tile: TileFacts(entry.get("name"), tuple(entry["shape"]))
                                 for tile, entry in self.entries.items()})

    def facts_of_tile(self, tile: str) -> TileFacts | None:
        """Item or box ``tile`` of the copy (None: the copy has no such tile), without the
        whole copy's facts: words call this once per legal action."""
        entry = self.entries.get(tile)
        return None if entry is None else TileFacts(entry.get("name"), tuple(entry["shape"]))

    def truck_layout(self, player: int) -> tuple[str, ...]:
        """The rows of player ``player``'s truck board (``.`` a space, ``#`` none, ``-`` a
        space that costs a point while it shows)."""
        layouts = self.setup["catalogue"]["trucks"]
        return tuple(layouts[player % len(layouts)])

    def player_view(self, player: int) -> RemovalPlayer:
        """Player ``player``'s track, storage, helper cards and loaded truck."""
        side = self.data["players"][player]
        return RemovalPlayer(
            side["track"], side["storage"], tuple(side["helpers"]),
            tuple(TruckTile(tile["item"], tile["row"], tile["col"], tile["rotation"],
                            tile["flip"], bool(tile["damaged"])) for tile in side["truck"]))

    # -- scoring ------------------------------------------------------------------------------
    def _hands(self) -> list[FinalHand]:
        return [
            FinalHand(name, player["track"], player["storage"] is not None, player["helpers"],
                      [self._transported(tile) for tile in player["transported"]])
            for name, player in zip(self.players, self.data["players"], strict=True)
        ]

    def _transported(self, tile: str) -> Transported:
        entry = self.entries[tile]
        return Transported(bool(entry.get("antique")), entry.get("value"), entry.get("symbol"))

    def scores(self) -> list[PlayerScore]:
        """During the game only the track counts (stacks and boxes are secret); then everything."""
        if not self.data["over"]:
            return [PlayerScore(name, player["track"], {"track": player["track"]})
                    for name, player in zip(self.players, self.data["players"], strict=True)]
        parts = final_parts(self._hands(), self.data.get("keepsakes", self.setup.get("keepsakes")))
        return [PlayerScore(name, sum(part.values()), part)
                for name, part in zip(self.players, parts, strict=True)]

    def winners(self) -> list[str]:
        totals = [score.total for score in self.scores()]
        antiques = [hand.antiques if self.data["over"] else 0 for hand in self._hands()]
        return winners(self.players, totals, antiques)


#: The game itself, as :mod:`rules.registry` finds it.
GAME = RemovalGame()
