"""Small Warehouse: two players lay cards of merchandise into their own warehouses.

Setup: one card face up in each warehouse, one card in each hand, three face-up
cards as the supply and the rest (13 of 20) as the draw pile. On a turn a
player places one card, from the supply or from the hand, into the warehouse;
a card taken from the hand is replaced by a supply card of the player's choice;
then the draw pile refills the supply to three. When it cannot, the game ends.

A card lies on the warehouse grid, squares aligned, and may cover other cards
wholly or partly: only the top square of each cell counts. Each kind of
merchandise scores ``biggest block × number of blocks`` when its biggest block
(squares joined through edges) has at least four squares.

An action::

    {"type": "place", "source": "supply", "card": "c07", "row": 2, "col": 4, "rotation": 90}
    {"type": "place", "source": "hand", "card": "c12", "row": 0, "col": 0, "rotation": 0,
     "refill": "c03"}

``rotation`` turns the card clockwise; the top-left corner of the turned card's
bounding box goes to (``row``, ``col``). ``refill`` (only with ``"source":
"hand"``) is the supply card taken into the hand.

Chance (``docs/rules-notes.md``, "Small Warehouse dealt by hand"; the actions in
``docs/formats.md``). The position holds only what the table sees: ``supply``
and ``hands`` are slots holding a card id or ``None`` (not seen), ``draw_pile``
is a count, and ``loose`` lists cards seen before whose slot (the supply or a
hand) is no longer known. Every card comes into view through a reveal::

    {"type": "reveal", "zone": "warehouse", "player": 0, "card": "c07"}  # starting card
    {"type": "reveal", "zone": "supply", "card": "c07"}   # fills an unknown supply slot
    {"type": "reveal", "zone": "hand", "player": 1, "card": "c07"}

A seeded game reveals from its seed straight after each draw; a game dealt by
hand waits for its two starting cards (``is_chance()``) and leaves the supply
and hands unknown until a person enters them: laying a card not yet seen is
legal and places it. Such a card may come from an unknown supply slot or an
unknown hand card; when both are possible and the camera cannot tell, the
action says so::

    {"type": "place", "source": "supply-or-hand", "card": "c19", "row": 3, "col": 6,
     "rotation": 0}

and in a game dealt by hand ``"refill": None`` means "a supply card not seen".
Either reading keeps every possibility open: when the card taken into the hand
is not known, the supply cards known before become ``loose`` and the supply
slots unknown, never a guess.

Example: a game dealt by hand, its starting cards revealed, a card never seen laid::

    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    >>> state.is_chance(), len(state.chance_outcomes())  # 20 cards × 2 warehouses, supply, 2 hands
    (True, 100)
    >>> state.apply({"type": "reveal", "zone": "warehouse", "player": 0, "card": "c01"})
    >>> state.apply({"type": "reveal", "zone": "warehouse", "player": 1, "card": "c02"})
    >>> state.is_chance(), state.data["supply"], state.data["draw_pile"]
    (False, [None, None, None], 13)
    >>> state.apply({"type": "place", "source": "supply-or-hand", "card": "c19",
    ...              "row": 3, "col": 6, "rotation": 0})
    >>> state.data["grids"][0][3], state.unseen().get("c19")
    ('...AACDDE.', None)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
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
    json_copy,
    require,
)
from rules.errors import IllegalAction
from rules.games.small_warehouse.advice import WarehouseEvaluator
from rules.games.small_warehouse.grid import (
    EMPTY_BOX,
    MERCHANDISE,
    NO_CARD,
    ROTATIONS,
    Cell,
    Squares,
    _footprint_mask,
    _lay,
    _occupied_mask,
    _oriented_cells,
    _touch_area,
    rotate_clockwise,
)
from rules.games.small_warehouse.scoring import WarehouseScore, score_warehouse, warehouse_winners
from rules.words import at

GAME_NAME = "small-warehouse"
SOURCES = ("supply", "hand")
EITHER = "supply-or-hand"  # a card not seen before: the camera cannot tell where it came from
SOURCE_WORDS = {"supply": "from the supply", "hand": "from the hand",
                EITHER: "from the supply or the hand"}
ZONES = ("warehouse", "supply", "hand")
SUPPLY_SIZE = 3
HAND_SIZE = 1
PLACEMENT_RULES = ("touch", "anywhere")
#: The largest warehouse side (the printed mat is 8 × 10): every position's footprints are
#: tabled, so a side of hundreds would cost seconds and gigabytes per read of the actions.
MAX_WAREHOUSE_SIDE = 20
PLACE_KEYS = frozenset({"type", "source", "card", "row", "col", "rotation"})
REVEAL_KEYS = {"warehouse": frozenset({"type", "zone", "player", "card"}),
               "supply": frozenset({"type", "zone", "card"}),
               "hand": frozenset({"type", "zone", "player", "card"})}

TurnedCardTable = tuple[tuple[int, ...], tuple[FrozenAction, ...], tuple["Action", ...]]
# Per distinct turn of a card: position masks and "supply-or-hand" place actions (deal="table").
EitherCardTable = tuple[tuple[int, ...], tuple[FrozenAction, ...]]


# --------------------------------------------------------------------------- game
class SmallWarehouseGame(Game):
    """Small Warehouse for two players on the kit's 8 × 10 warehouse mat.

    Options (see ``docs/rules-notes.md``, "Small Warehouse — rule readings"):

    - ``warehouse_rows``, ``warehouse_cols``: the warehouse grid (the kit mat: 8 × 10);
      cards must lie wholly inside it.
    - ``rotation``: cards may be turned by 90° steps (default True).
    - ``placement``: ``"touch"`` (default) — a new card must overlap or share an edge
      with a card already in the warehouse; ``"anywhere"`` — any position on the grid.
    """

    name = GAME_NAME
    min_players = 2
    max_players = 2
    default_options = {  # noqa: RUF012 - read-only class data, as in the base class
        "warehouse_rows": 8,
        "warehouse_cols": 10,
        "rotation": True,
        "placement": "touch",
    }
    option_limits: ClassVar[dict[str, tuple[int, int]]] = {
        "warehouse_rows": (1, MAX_WAREHOUSE_SIDE), "warehouse_cols": (1, MAX_WAREHOUSE_SIDE)}
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {"placement": PLACEMENT_RULES}
    advice_tuning = AdviceTuning(root_screen=2000, rollout_sample=6,
                                 evaluator=WarehouseEvaluator())

    @property
    def state_class(self) -> type[State]:
        return SmallWarehouseState

    def make_setup(
        self,
        players: list[str],
        seed: int,
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """Shuffle the cards and deal: warehouses, hands, supply, draw pile (the order
        stays here; the position learns each card through a reveal)."""
        cards = self.make_table_setup(players, options, catalogue)["cards"]
        count = len(players)
        order = sorted(cards)
        random.Random(seed).shuffle(order)
        hands = order[count : count * (1 + HAND_SIZE)]
        supply_end = count * (1 + HAND_SIZE) + SUPPLY_SIZE
        return {
            "cards": cards,
            "warehouse_cards": order[:count],
            "hands": [hands[index * HAND_SIZE : (index + 1) * HAND_SIZE] for index in range(count)],
            "supply": order[count * (1 + HAND_SIZE) : supply_end],
            "draw_pile": order[supply_end:],
        }

    def make_table_setup(
        self,
        players: list[str],
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The cards of the copy, checked; dealt by hand, in no known order."""
        _check_options(options)
        cards = catalogue_cards(catalogue if catalogue is not None
                                else default_catalogue(GAME_NAME))
        rows, cols = options["warehouse_rows"], options["warehouse_cols"]
        for card_id, squares in cards.items():
            if len(squares) > rows or len(squares[0]) > cols:
                raise ValueError(f"card {card_id!r} does not fit the {rows} x {cols} warehouse")
        needed = len(players) * (1 + HAND_SIZE) + SUPPLY_SIZE
        if len(cards) < needed:
            raise ValueError(f"{GAME_NAME} needs at least {needed} cards, not {len(cards)}")
        return {"cards": cards}


# -------------------------------------------------------------------------- state
class SmallWarehouseState(State):
    """A game of Small Warehouse.

    ``data`` holds ``grids`` (per player, the top square of each cell, ``.`` where
    no card lies), ``placed`` (per player, the cards in the order they were laid),
    ``hands`` and ``supply`` (slots: a card id, or None while not seen),
    ``draw_pile`` (how many cards it holds), ``loose`` (cards seen before whose slot
    in the supply or a hand is no longer known) and ``to_act`` (index of the player
    to act). The first player in ``players`` starts (the one who moved a box most
    recently).
    """

    def initial_data(self) -> dict[str, Any]:
        rows, cols = self.options["warehouse_rows"], self.options["warehouse_cols"]
        count = len(self.players)
        return {
            "grids": [[NO_CARD * cols] * rows for _ in range(count)],
            "placed": [[] for _ in range(count)],
            "hands": [[None] * HAND_SIZE for _ in range(count)],
            "supply": [None] * SUPPLY_SIZE,
            "draw_pile": len(self.setup["cards"]) - count * (1 + HAND_SIZE) - SUPPLY_SIZE,
            "loose": [],
            "to_act": 0,
        }

    def current_player(self) -> int | None:
        return None if self.is_over() else self.data["to_act"]

    def is_over(self) -> bool:
        return len(self.data["supply"]) < SUPPLY_SIZE

    def legal_actions(self) -> list[Action]:
        """Every placement of every supply and hand card (equal turned cards listed once).

        A placement from the supply is a read-only :class:`~rules.engine.FrozenAction`
        taken from a per-card table shared between calls and games (handed out as it is,
        not copied); a placement from the hand, one per refill card, is a new ``dict``.
        In a game dealt by hand, a card not yet seen is listed too, once per placement:
        as ``supply-or-hand`` when it may come from either, else from where it can.
        """
        if self.is_over() or self.is_chance():
            return []
        player = self.data["to_act"]
        reachable = _ReachablePositions(self._allowed_area(player))
        supply, hand = self.data["supply"], self.data["hands"][player]
        refills = supply
        if self.deal == "table":
            refills = [card for card in supply if card is not None]
            refills += [None] if None in supply else []
        actions: list[Action] = []
        for card_id in supply:
            if card_id is not None:
                for masks, listed, _ in self._card_table(card_id):
                    actions += map(listed.__getitem__, reachable.indices(masks))
        for card_id in hand:
            if card_id is not None:
                actions += self._hand_placements(card_id, reachable, refills)
        if self.deal == "table" and (None in supply or None in hand):
            for card_id in self.unlocated():
                if None not in hand:
                    for masks, listed, _ in self._card_table(card_id):
                        actions += map(listed.__getitem__, reachable.indices(masks))
                elif None in supply:
                    for masks, either in self._either_table(card_id):
                        actions += map(either.__getitem__, reachable.indices(masks))
                else:
                    actions += self._hand_placements(card_id, reachable, refills)
        return actions

    def _hand_placements(self, card_id: str, reachable: _ReachablePositions,
                         refills: Sequence[str | None]) -> list[Action]:
        return [dict(templates[index], refill=refill)
                for masks, _, templates in self._card_table(card_id)
                for index in reachable.indices(masks) for refill in refills]

    def check(self, action: Action) -> None:
        require(action["type"] == "place", f"{GAME_NAME} has no action {action['type']!r}")
        source = action.get("source")
        table = self.deal == "table"
        require(source in SOURCES or (table and source == EITHER),
                "'source' must be \"supply\" or \"hand\""
                + (f" (or \"{EITHER}\")" if table else ""))
        expected = PLACE_KEYS | ({"refill"} if source == "hand" else set())
        require(set(action) == expected,
                f"a place action from the {source} has exactly: {', '.join(sorted(expected))}")
        player = self.data["to_act"]
        self._check_source(source, action["card"], player)
        if source == "hand":
            refill = action["refill"]
            require((refill is None and table) or (refill is not None
                                                   and refill in self.data["supply"]),
                    f"there is no card {refill!r} in the supply to take into the hand")
        rotation = action["rotation"]
        require(type(rotation) is int and rotation in ROTATIONS,
                "'rotation' must be 0, 90, 180 or 270")
        require(rotation == 0 or self.options["rotation"], "cards may not be turned in this game")
        row, col = action["row"], action["col"]
        require(type(row) is int and type(col) is int,
                "'row' and 'col' must be whole numbers")
        cells = _oriented_cells(tuple(self.setup["cards"][action["card"]]), rotation)
        mask = _footprint_mask(cells, row, col, self.options["warehouse_rows"],
                               self.options["warehouse_cols"])
        require(mask is not None, "the card must lie wholly inside the warehouse")
        require(mask & self._allowed_area(player),
                "the card must overlap or touch a card already in the warehouse")

    def _check_source(self, source: str, card: Any, player: int) -> None:
        """Refuse a card that cannot come from ``source``, saying where it is."""
        require(isinstance(card, str) and card in self.setup["cards"],
                f"there is no card {card!r} in this copy")
        supply, hand = self.data["supply"], self.data["hands"][player]
        if (source == "supply" and card in supply) or (source == "hand" and card in hand):
            return
        if self.deal == "table" and card in self.unlocated():
            name = self.players[player]
            if source == "supply" and None not in supply:
                raise IllegalAction(f"{card} cannot come from the supply: its cards are known "
                                    f"({', '.join(supply)})")
            if source == "hand" and None not in hand:
                raise IllegalAction(f"{card} cannot come from {name}'s hand: that card is known")
            if source == EITHER and (None not in supply or None not in hand):
                only = "the supply" if None in supply else f"{name}'s hand"
                raise IllegalAction(f"{card} can only come from {only}: say so")
            return
        where = self._where(card) if self.deal == "table" else None
        if source == EITHER:
            require(False, f"{card} cannot have come unseen from the supply or the hand: "
                           f"it is {where}")
        require(False, f"there is no card {card!r} in the {source}"
                + (f": it is {where}" if where else ""))

    def perform(self, action: Action) -> None:
        if action["type"] == REVEAL:
            self._perform_reveal(action)
            return
        player = self.data["to_act"]
        card_id, row, col = action["card"], action["row"], action["col"]
        cells = _oriented_cells(tuple(self.setup["cards"][card_id]), action["rotation"])
        self.data["grids"][player] = _lay(self.data["grids"][player], cells, row, col)
        self.data["placed"][player].append(
            {"card": card_id, "row": row, "col": col, "rotation": action["rotation"]})
        supply = self.data["supply"]
        if card_id in self.data["loose"]:
            self.data["loose"].remove(card_id)
        if action["source"] == "supply":
            supply.remove(card_id if card_id in supply else None)
        else:  # from the hand; supply-or-hand is read as the hand with a refill not seen
            hand = self.data["hands"][player]
            hand.remove(card_id if card_id in hand else None)
            self._take_into_hand(hand, action.get("refill"))
        if self.data["draw_pile"]:
            self.data["draw_pile"] -= 1
            supply.append(None)
        self.data["to_act"] = (player + 1) % len(self.players)

    def _take_into_hand(self, hand: list[str | None], refill: str | None) -> None:
        """Move the supply card ``refill`` into ``hand``; None: a supply card not seen.

        Not seen, it may be any supply card: the known ones become ``loose`` (seen, still
        in the supply or that hand) and every supply slot unknown, so no guess is made.
        """
        supply = self.data["supply"]
        if refill is not None:
            supply.remove(refill)
        elif any(card is not None for card in supply):
            self.data["loose"] = sorted(self.data["loose"]
                                        + [card for card in supply if card is not None])
            supply[:] = [None] * (len(supply) - 1)
        else:
            supply.remove(None)
        hand.append(refill)

    # -- chance -----------------------------------------------------------------------
    def is_chance(self) -> bool:
        """True until both starting cards are on the table."""
        return not all(self.data["placed"])

    def seeded_reveal(self) -> Action | None:
        """The seed's next card for a slot not yet seen: starting cards, hands, supply."""
        data = self.data
        if None in data["supply"]:
            slot = data["supply"].index(None)
            drawn = len(self.setup["draw_pile"]) - data["draw_pile"]
            dealt = self.setup["supply"] + self.setup["draw_pile"]
            card = dealt[SUPPLY_SIZE + drawn - (len(data["supply"]) - slot)]
            return {"type": REVEAL, "zone": "supply", "card": card}
        for player, placed in enumerate(data["placed"]):
            if not placed:
                return {"type": REVEAL, "zone": "warehouse", "player": player,
                        "card": self.setup["warehouse_cards"][player]}
        for player, hand in enumerate(data["hands"]):
            if None in hand:
                card = self.setup["hands"][player][hand.index(None)]
                if card in self._pool():
                    return {"type": REVEAL, "zone": "hand", "player": player, "card": card}
        return None

    def chance_outcomes(self) -> list[Outcome]:
        """Starting cards while the warehouses are empty; any time a card for an unknown
        supply slot or hand card (each card once: every card of the copy is different)."""
        data = self.data
        pool = self._pool()
        outcomes = [Outcome({"type": REVEAL, "zone": "warehouse", "player": player,
                             "card": card})
                    for player, placed in enumerate(data["placed"]) if not placed
                    for card in pool]
        candidates = self.unlocated(pool)
        if None in data["supply"]:
            outcomes += [Outcome({"type": REVEAL, "zone": "supply", "card": card})
                         for card in candidates]
        for player, hand in enumerate(data["hands"]):
            if None in hand:
                outcomes += [Outcome({"type": REVEAL, "zone": "hand", "player": player,
                                      "card": card}) for card in candidates]
        return outcomes

    def unseen(self) -> dict[str, int]:
        """The cards not seen yet (the draw pile and the unknown slots), one of each."""
        return dict.fromkeys(self._pool(), 1)

    def public_view(self) -> dict[str, Any]:
        """The position with every hand card unknown (a hand card is unseen until played)."""
        view = json_copy(self.data)
        view["hands"] = [[None] * len(hand) for hand in view["hands"]]
        return view

    def public_action(self, action: Action) -> Action:
        """A card dealt into a hand as the table sees it: a card, not which one.

        >>> from rules import get_game
        >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
        >>> state.public_action({"type": "reveal", "zone": "hand", "player": 1, "card": "c07"})
        {'type': 'reveal', 'zone': 'hand', 'player': 1, 'card': None}
        """
        if isinstance(action, dict) and action.get("type") == REVEAL \
                and action.get("zone") == "hand":
            return {**json_copy(action), "card": None}
        return super().public_action(action)

    def public_choice(self, action: Action) -> Action:
        """A move from the hand not made yet hides its card (it is shown when it is laid)."""
        if isinstance(action, dict) and action.get("type") == "place" \
                and action.get("source") == "hand":
            return {**json_copy(action), "card": None}
        return self.public_action(action)

    def check_reveal(self, action: Action) -> None:
        """A reveal must be a legal outcome; a player is a whole number (not ``true``)."""
        player = action.get("player", 0)
        require(type(player) is int, self._no_player(player))
        super().check_reveal(action)

    def _no_player(self, player: Any) -> str:
        """A reveal's ``player`` that names nobody: the JSON's index (from 0), said so."""
        return (f"'player' must be 0 to {len(self.players) - 1} (the first player, "
                f"{self.players[0]}, is 0), not {player!r}")

    def reveal_refusal(self, action: Action, outcomes: Sequence[Outcome]) -> str:
        """Why a reveal cannot be: a card already seen, a slot already known, no such card."""
        zone, card = action.get("zone"), action.get("card")
        if zone not in ZONES or set(action) != REVEAL_KEYS[zone]:
            return ('a Small Warehouse reveal is {"type": "reveal", "zone": "warehouse", '
                    '"supply" or "hand", "card": ...} with "player" (0, 1) for a warehouse '
                    "or a hand")
        player = action.get("player")
        if zone != "supply" and (type(player) is not int
                                 or not 0 <= player < len(self.players)):
            return self._no_player(player)
        if card not in self.setup["cards"]:
            return f"there is no card {card!r} in this copy"
        where = self._where(card)
        if where and card not in self.data["loose"]:
            return f"{card} is already {where}"
        if zone == "warehouse":
            placed = self.data["placed"][player]
            if placed:
                return (f"{self.players[player]}'s starting card is already on the table "
                        f"({placed[0]['card']})")
            return super().reveal_refusal(action, outcomes)
        if zone == "supply" and None not in self.data["supply"]:
            return "every supply card is already known"
        if zone == "hand" and None not in self.data["hands"][player]:
            return f"{self.players[player]}'s hand card is already known"
        if card in self._pool():
            return (f"{card} cannot be there: the unknown supply and hand cards are "
                    f"{', '.join(self.data['loose'])}, seen before")
        return super().reveal_refusal(action, outcomes)

    def _perform_reveal(self, action: Action) -> None:
        card, zone = action["card"], action["zone"]
        if zone == "warehouse":
            player = action["player"]
            rows, cols = self.options["warehouse_rows"], self.options["warehouse_cols"]
            squares = self.setup["cards"][card]
            row, col = (rows - len(squares)) // 2, (cols - len(squares[0])) // 2
            grid = self.data["grids"][player]
            self.data["grids"][player] = _lay(grid, _oriented_cells(tuple(squares), 0), row, col)
            self.data["placed"][player].append(
                {"card": card, "row": row, "col": col, "rotation": 0})
            return
        slots = self.data["supply"] if zone == "supply" else self.data["hands"][action["player"]]
        slots[slots.index(None)] = card
        if card in self.data["loose"]:
            self.data["loose"].remove(card)

    def _pool(self) -> list[str]:
        """The cards never seen, in id order (the draw pile and the unknown slots hold them)."""
        data = self.data
        seen = {record["card"] for placed in data["placed"] for record in placed}
        seen.update(data["supply"], data["loose"], *data["hands"])
        return [card for card in sorted(self.setup["cards"]) if card not in seen]

    def unlocated(self, pool: list[str] | None = None) -> list[str]:
        """The cards an unknown supply or hand slot may hold: the loose ones, and cards
        never seen while the unknown slots outnumber the loose cards."""
        data = self.data
        unknown = data["supply"].count(None) + sum(hand.count(None) for hand in data["hands"])
        fresh = pool if pool is not None else self._pool()
        return (fresh if unknown > len(data["loose"]) else []) + data["loose"]

    def _where(self, card: str) -> str | None:
        """Where a seen card is, in a person's words (None when never seen)."""
        for player, placed in enumerate(self.data["placed"]):
            if any(record["card"] == card for record in placed):
                return f"in {self.players[player]}'s warehouse"
        if card in self.data["supply"]:
            return "in the supply"
        for player, hand in enumerate(self.data["hands"]):
            if card in hand:
                return f"in {self.players[player]}'s hand"
        if card in self.data["loose"]:
            return "in the supply or a hand (seen before)"
        return None

    # -- read-only views, for presenters (never the JSON of ``data``) ----------------
    def grid(self, player: int) -> tuple[str, ...]:
        """Player ``player``'s warehouse: the top square of each cell, ``.`` where no card lies."""
        return tuple(self.data["grids"][player])

    def supply_cards(self) -> tuple[str | None, ...]:
        """The supply's cards, face up (None: a card not seen yet)."""
        return tuple(self.data["supply"])

    @property
    def draw_pile_count(self) -> int:
        """How many cards the draw pile holds."""
        return self.data["draw_pile"]

    def warehouse_scores(self) -> list[WarehouseScore]:
        """Each player's warehouse scored as it lies now."""
        return [score_warehouse(grid) for grid in self.data["grids"]]

    def scores(self) -> list[PlayerScore]:
        """Totals with one part per kind of merchandise in the warehouse."""
        return [
            PlayerScore(player, score.total,
                        {kind: kind_score.points for kind, kind_score in score.kinds.items()})
            for player, score in zip(self.players, self.warehouse_scores(), strict=True)
        ]

    def winners(self) -> list[str]:
        """Higher total wins; then fewer empty boxes; then the victory is shared."""
        return warehouse_winners(list(zip(self.players, self.warehouse_scores(), strict=True)))

    # -- placement helpers ----------------------------------------------------------
    def _allowed_area(self, player: int) -> int:
        """Cells a new card must reach (as a bit mask): all, or the cards and their edges."""
        rows, cols = self.options["warehouse_rows"], self.options["warehouse_cols"]
        if self.options["placement"] == "anywhere":
            return (1 << (rows * cols)) - 1
        return _touch_area(_occupied_mask(self.data["grids"][player]), rows, cols)

    def _card_table(self, card_id: str) -> tuple[TurnedCardTable, ...]:
        """The placements of a card, one table per distinct turn of it."""
        return _card_table(
            card_id,
            tuple(self.setup["cards"][card_id]),
            ROTATIONS if self.options["rotation"] else (0,),
            self.options["warehouse_rows"],
            self.options["warehouse_cols"],
        )

    def _either_table(self, card_id: str) -> tuple[EitherCardTable, ...]:
        """The "supply-or-hand" placements of a card, per distinct turn (deal="table" only)."""
        return _either_table(
            card_id,
            tuple(self.setup["cards"][card_id]),
            ROTATIONS if self.options["rotation"] else (0,),
            self.options["warehouse_rows"],
            self.options["warehouse_cols"],
        )


# ------------------------------------------------------------------------ helpers
def catalogue_cards(catalogue: Mapping[str, Any]) -> dict[str, list[str]]:
    """The catalogue's cards as ``{id: squares}``, checked: rectangular, known symbols."""
    cards: dict[str, list[str]] = {}
    for card in catalogue["cards"]:
        card_id, squares = card["id"], list(card["squares"])
        if card_id in cards:
            raise ValueError(f"card id {card_id!r} appears twice in the catalogue")
        if not squares or not squares[0] or len({len(row) for row in squares}) != 1:
            raise ValueError(f"card {card_id!r}: squares must be equal, non-empty rows")
        if any(ch not in MERCHANDISE + EMPTY_BOX + NO_CARD for row in squares for ch in row):
            raise ValueError(f"card {card_id!r}: squares use A-Z, '#' and '.' only")
        if all(ch == NO_CARD for row in squares for ch in row):
            raise ValueError(f"card {card_id!r} has no square")
        cards[card_id] = squares
    return cards


def _check_options(options: Mapping[str, Any]) -> None:
    for key in ("warehouse_rows", "warehouse_cols"):
        value = options[key]
        if isinstance(value, bool) or not isinstance(value, int) or \
                not 1 <= value <= MAX_WAREHOUSE_SIDE:
            raise ValueError(f"option {key} must be a whole number 1..{MAX_WAREHOUSE_SIDE}")
    if not isinstance(options["rotation"], bool):
        raise ValueError("option rotation must be true or false")
    if options["placement"] not in PLACEMENT_RULES:
        raise ValueError(f"option placement must be one of {', '.join(PLACEMENT_RULES)}")


@cache
def _distinct_rotations(squares: Squares, rotations: tuple[int, ...]) -> tuple[int, ...]:
    """The rotations giving different turned cards (a half-turn-symmetric card has two)."""
    seen: set[tuple[str, ...]] = set()
    distinct = []
    for rotation in rotations:
        turned = tuple(rotate_clockwise(squares, rotation))
        if turned not in seen:
            seen.add(turned)
            distinct.append(rotation)
    return tuple(distinct)


@lru_cache(maxsize=256)
def _card_table(
    card_id: str, squares: Squares, rotations: tuple[int, ...], rows: int, cols: int
) -> tuple[TurnedCardTable, ...]:
    """Per distinct turn of a card: each position's footprint mask, its place action from
    the supply and its place action from the hand (still without ``refill``). The place
    actions from the supply or the hand (a game dealt by hand) are in :func:`_either_table`,
    built only when such a game needs them, so seeded games do not pay for them.

    Shared between calls and games (it is what keeps ``legal_actions`` fast): the supply
    actions are read-only :class:`~rules.engine.FrozenAction` and handed out as they are;
    the hand templates are only ever copied (with a ``refill``). About 1 MB for the
    default catalogue's 20 cards.
    """
    tables = []
    for rotation in _distinct_rotations(squares, rotations):
        cells = _oriented_cells(squares, rotation)
        positions = _positions(cells, rows, cols)
        masks = _position_masks(tuple((row, col) for row, col, _ in cells), rows, cols)
        supply, hand = (
            tuple({"type": "place", "source": source, "card": card_id, "row": row, "col": col,
                   "rotation": rotation} for row, col in positions)
            for source in SOURCES
        )
        tables.append((masks, tuple(map(FrozenAction, supply)), hand))
    return tuple(tables)


@lru_cache(maxsize=256)
def _either_table(
    card_id: str, squares: Squares, rotations: tuple[int, ...], rows: int, cols: int
) -> tuple[EitherCardTable, ...]:
    """Per distinct turn of a card (in :func:`_card_table`'s order): each position's footprint
    mask and its read-only place action from the supply or the hand (a card not seen before,
    in a game dealt by hand). Shared between calls and games like :func:`_card_table`."""
    tables = []
    for rotation in _distinct_rotations(squares, rotations):
        cells = _oriented_cells(squares, rotation)
        positions = _positions(cells, rows, cols)
        masks = _position_masks(tuple((row, col) for row, col, _ in cells), rows, cols)
        tables.append((masks, tuple(
            FrozenAction({"type": "place", "source": EITHER, "card": card_id, "row": row,
                          "col": col, "rotation": rotation}) for row, col in positions)))
    return tuple(tables)


@cache
def _positions(cells: tuple[Cell, ...], rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """(row, col) of every position where the turned card lies wholly inside the grid."""
    height = 1 + max(cell[0] for cell in cells)
    width = 1 + max(cell[1] for cell in cells)
    return tuple((row, col) for row in range(rows - height + 1)
                 for col in range(cols - width + 1))


@cache
def _position_masks(
    footprint: tuple[tuple[int, int], ...], rows: int, cols: int
) -> tuple[int, ...]:
    """The bit mask of a footprint at each of its positions; one shared tuple per footprint."""
    cells = tuple((row, col, "") for row, col in footprint)
    return tuple(_footprint_mask(cells, row, col, rows, cols) or 0
                 for row, col in _positions(cells, rows, cols))


class _ReachablePositions:
    """Which positions of a footprint reach the allowed area, worked out once per footprint."""

    def __init__(self, allowed: int) -> None:
        self.allowed = allowed
        self.found: dict[int, list[int]] = {}

    def indices(self, masks: tuple[int, ...]) -> list[int]:
        """Indices of the masks that reach the allowed area (``masks`` from _position_masks)."""
        key = id(masks)
        if key not in self.found:
            self.found[key] = [index for index, mask in enumerate(masks) if mask & self.allowed]
        return self.found[key]


def placement_words(action: Action) -> str:
    """A place action in a person's words, as the move list and the referee's refusals say
    it (rows and columns counted from 1; the card face down when it is None).

    >>> placement_words({"type": "place", "source": "supply", "card": "c07", "row": 1,
    ...                  "col": 4, "rotation": 90})
    'card c07 from the supply at row 2, column 5, turned 90°'
    """
    card = "a card" if action.get("card") is None else f"card {action['card']}"
    source = SOURCE_WORDS.get(str(action.get("source")), f"from {action.get('source')}")
    turned = f", turned {int(action['rotation'])}°" if action.get("rotation") else ""  # degrees
    return f"{card} {source} at {at(action['row'], action['col'])}{turned}"


#: The game itself, as :mod:`rules.registry` finds it.
GAME = SmallWarehouseGame()

