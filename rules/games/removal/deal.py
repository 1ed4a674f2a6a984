"""Removal's deal as chance steps: the house board, the waiting items and the keepsake cards.

Every tile drawn from the bag (the boxes) onto the house board or below it as a
waiting item, and each keepsake card of the variant, is dealt as an unread slot
(``"?"``) listed in the position's ``to_reveal``, in the order it is read: the
keepsake cards, the house areas in reading order, then the waiting items. A
reveal reads the next slot (see :mod:`rules.games.removal.engine` for its shape); a
seeded game takes it from the shuffled piles in ``setup`` (``bag``,
``box_bag``, ``keepsakes``), ``bag_next``/``box_next`` counting the tiles read.

:class:`DealtHouse` is the part of a Removal state that deals and reveals; the
state keeps ``data``, ``setup``, ``options``, ``layout``, ``players`` and
``entries`` (catalogue tiles by id).

Example::

    >>> from rules import get_game
    >>> state = get_game("removal").new_game(["Ana", "Ben"], deal="table")
    >>> state.data["house"][0], state.data["to_reveal"][:2]
    ([None, '?', '?', '?', None], [['house', 0, 1], ['house', 0, 2]])
    >>> get_game("removal").new_game(["Ana", "Ben"], seed=1).data["to_reveal"]
    []
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine import REVEAL, Action, Outcome
from rules.errors import IllegalAction
from rules.words import at, counted

UNKNOWN = "?"  # a slot dealt but not yet revealed (its component is on the table, unread)
HOUSE, WAITING, KEEPSAKES = "house", "waiting", "keepsakes"
NO_AREA = "."
FOUR_PLAYER_AREA = "4"
BOX_AREA = "B"
ITEM_AREA = "I"


class DealtHouse:
    """Deals the house as unread slots and reads them: Removal's chance steps."""

    data: dict[str, Any]
    setup: dict[str, Any]
    options: dict[str, Any]
    layout: list[str]
    players: list[str]
    entries: dict[str, Any]

    def _fill_house(self, waiting_first: bool) -> None:
        """Deal every area (bottom row from the waiting items when ``waiting_first``), then
        the next round's waiting items: each drawn tile is an unknown slot to reveal, in
        reading order, while the bag (the boxes) lasts. ``bag_next``/``box_next`` count the
        tiles revealed so far (in a seeded game, the next places in the shuffled piles)."""
        catalogue = self.setup["catalogue"]
        waiting = list(self.data["waiting"]) if waiting_first else []
        items_left = len(catalogue["items"]) - self.data["bag_next"]
        boxes_left = len(catalogue["boxes"]) - self.data["box_next"]
        pending = self.data.setdefault("to_reveal", [])  # absent in games stored before it
        bottom = len(self.layout) - 1
        for row, line in enumerate(self.layout):
            for col, area in enumerate(line):
                if area == BOX_AREA:
                    tile = UNKNOWN if boxes_left > 0 else None
                    boxes_left -= 1
                elif area == ITEM_AREA or (area == FOUR_PLAYER_AREA and len(self.players) == 4):
                    if row == bottom and waiting:
                        tile = waiting.pop(0)
                    else:
                        tile = UNKNOWN if items_left > 0 else None
                        items_left -= tile == UNKNOWN
                else:
                    continue
                self.data["house"][row][col] = tile
                if tile == UNKNOWN:
                    pending.append([HOUSE, row, col])
        count = catalogue["house"]["waiting"] if self.data["round"] < catalogue["rounds"] else 0
        count = max(0, min(count, items_left))
        self.data["waiting"] = [UNKNOWN] * count
        pending += [[WAITING, slot] for slot in range(count)]

    # -- chance: the tiles and cards dealt ------------------------------------------------
    def is_chance(self) -> bool:
        """True while a dealt keepsake card, house area or waiting item is unread: the
        house decides what is available, so nobody acts before the whole deal is known."""
        return bool(self.data.get("to_reveal"))

    def _pending(self) -> list[Any] | None:
        pending = self.data.get("to_reveal")
        return pending[0] if pending else None

    def _slot_kind(self, slot: Sequence[Any]) -> str:
        """What a slot takes: "keepsake", "box" or "item"."""
        if slot[0] == KEEPSAKES:
            return "keepsake"
        return "box" if slot[0] == HOUSE and self.layout[slot[1]][slot[2]] == BOX_AREA else "item"

    @staticmethod
    def _reveal_action(slot: Sequence[Any], component: str) -> Action:
        """The reveal of ``component`` in ``slot`` (see the module docstring)."""
        if slot[0] == HOUSE:
            return {"type": REVEAL, "zone": HOUSE, "row": slot[1], "col": slot[2],
                    "item": component}
        key = "keepsake" if slot[0] == KEEPSAKES else "item"
        return {"type": REVEAL, "zone": slot[0], "slot": slot[1], key: component}

    def unread_slot(self) -> Action | None:
        """The next slot to reveal, as a reveal action without its component (None if none)."""
        slot = self._pending()
        if slot is None:
            return None
        action = self._reveal_action(slot, "")
        del action["keepsake" if slot[0] == KEEPSAKES else "item"]
        return action

    def seeded_reveal(self) -> Action | None:
        """The next unread slot filled from the seed's piles (None when all are read)."""
        slot = self._pending()
        if slot is None:
            return None
        kind = self._slot_kind(slot)
        if kind == "keepsake":
            component = self.setup["keepsakes"][slot[1]]
        elif kind == "box":
            component = self.setup["box_bag"][self.data["box_next"]]
        else:
            component = self.setup["bag"][self.data["bag_next"]]
        return self._reveal_action(slot, component)

    def _seen_tiles(self) -> set[str]:
        """Every item and box that has left the bag and been read: on the house board, waiting,
        in a truck, a storage or a stack of transported items."""
        data = self.data
        seen = {tile for line in data["house"] for tile in line if tile}
        seen.update(data["waiting"])
        for player in data["players"]:
            seen.update(record["item"] for record in player["truck"])
            seen.update(player["transported"])
            if player["storage"] is not None:
                seen.add(player["storage"])
        seen.discard(UNKNOWN)
        return seen

    def _unseen_of(self, kind: str) -> list[str]:
        """The components of ``kind`` ("item", "box", "keepsake") not yet seen, catalogue order."""
        catalogue = self.setup["catalogue"]
        if kind == "keepsake":
            drawn = set(self.data.get("keepsakes", []))
            return [card for card in catalogue["keepsakes"] if card not in drawn]
        seen = self._seen_tiles()
        pile = catalogue["boxes"] if kind == "box" else catalogue["items"]
        return [entry["id"] for entry in pile if entry["id"] not in seen]

    def chance_outcomes(self) -> list[Outcome]:
        """The reveals of the next unread slot (reading order): each unseen tile of its kind."""
        slot = self._pending()
        if slot is None:
            return []
        return [Outcome(self._reveal_action(slot, component))
                for component in self._unseen_of(self._slot_kind(slot))]

    def unseen(self) -> dict[str, int]:
        """Items and boxes still in the bag (or dealt but unread); keepsake cards in the variant."""
        kinds = ("item", "box", "keepsake") if self.options["keepsakes"] else ("item", "box")
        return {component: 1 for kind in kinds for component in self._unseen_of(kind)}

    def check_reveal(self, action: Action) -> None:
        """A reveal must read the next unread slot, with a component of its kind not yet seen."""
        slot = self._pending()
        if slot is None:
            raise IllegalAction("nothing is waiting to be revealed now")
        kind = self._slot_kind(slot)
        key = "keepsake" if kind == "keepsake" else "item"
        component = action.get(key)
        expected = self._reveal_action(slot, component) if isinstance(component, str) else None
        if action != expected or component not in self._unseen_of(kind):
            raise IllegalAction(self._refusal(action, slot, kind, key))

    def _refusal(self, action: Action, slot: Sequence[Any], kind: str, key: str) -> str:
        """Why ``action`` is not the reveal of ``slot``, in a person's words."""
        where = self._slot_name(slot)
        component = action.get(key)
        wanted = {"keepsake": "a keepsake card", "box": "a box", "item": "an item"}[kind]
        if action.get("zone") != slot[0] or any(
                action.get(field) != value for field, value in
                zip(("row", "col") if slot[0] == HOUSE else ("slot",), slot[1:], strict=True)):
            return f"the next thing to reveal is {where}"
        if not isinstance(component, str):
            return f"name {wanted} for {where} ('{key}')"
        catalogue = self.setup["catalogue"]
        known = (set(catalogue["keepsakes"]) if kind == "keepsake"
                 else {entry["id"] for entry in catalogue["boxes" if kind == "box" else "items"]})
        if component not in known:
            if kind != "keepsake" and component in self.entries:
                other = "a box" if kind == "item" else "an item"
                return f"{component} is {other}: {where} takes {wanted}"
            name = "keepsake card" if kind == "keepsake" else kind
            return f"there is no {name} {component!r} in this copy ({where} takes {wanted})"
        if component not in self._unseen_of(kind):
            return f"{component} is already on the table"
        return f"a reveal names only the zone, the place and the {key}"

    def _slot_name(self, slot: Sequence[Any]) -> str:
        return slot_words(self._reveal_action(slot, ""))

    def _reveal(self, action: Action) -> None:
        """Fill the next unread slot (checked before)."""
        slot = self.data["to_reveal"].pop(0)
        if slot[0] == KEEPSAKES:
            self.data["keepsakes"][slot[1]] = action["keepsake"]
            return
        if slot[0] == HOUSE:
            self.data["house"][slot[1]][slot[2]] = action["item"]
        else:
            self.data["waiting"][slot[1]] = action["item"]
        counter = "box_next" if self._slot_kind(slot) == "box" else "bag_next"
        self.data[counter] += 1


def slot_words(reveal: Action) -> str:
    """The place a reveal reads, in a person's words (rows, columns and slots counted from 1,
    as the picker names them).

    >>> slot_words({"type": "reveal", "zone": "house", "row": 0, "col": 2})
    'the house area at row 1, column 3'
    >>> slot_words({"type": "reveal", "zone": "waiting", "slot": 0})
    'waiting item 1'
    """
    zone = reveal.get("zone")
    if zone == HOUSE:
        return f"the house area at {at(reveal['row'], reveal['col'])}"
    if zone == WAITING:
        return f"waiting item {counted(reveal['slot'])}"
    return f"keepsake card {counted(reveal['slot'])}"
