"""Pick 'n Packers: two pilots carry presents on a drone from shop to shop; the others bet.

Nine shop cards ("0/9", 1–8) lie in a 3 × 3 grid; each round a present card (and
its present) lies under each shop card. The starting player and the player to
their left are the pilots; the other players, clockwise from the left of the
pilots, each take one speculation card (0–9). Then the pilots load the present
of the drone's card, fly the drone to the next numbered card, load, fly on…
until the drone is back on "0/9" (9 reached), a present falls, the drone lands
on a wrong card, or a loaded present is touched. The last card safely landed on
is ``reached``: the pilots score it; a speculator who guessed it scores the
guess + 1, one who guessed lower scores the guess, one who guessed higher 0.

Players are listed clockwise, so "the player to the left" is the next in the
list. Actions (a contract with the drone referee)::

    {"type": "speculate", "card": 4}
    {"type": "load"}               # the present of the drone's card goes on the drone
    {"type": "land", "card": 3}    # on shop card 3 ("0/9" is 0, or 9; an id like "shop-3" too)
    {"type": "fall"}               # a loaded present fell
    {"type": "touch"}              # a loaded present was touched

While the pilots fly, :meth:`current_player` names the first pilot (the round's
starting player): both pilots act together, the referee speaks for them.

Chance (``docs/rules-notes.md``): two things are dealt, and neither ever changes
a ruling or a score, so neither blocks play (:meth:`~PickNPackersState.is_chance`
is always false) and both may stay unknown:

- the shop layout, which card lies in which cell of the grid (a landing is named
  by the card's number, which the camera reads from the card's own tag);
- each round, the present card under each shop card (the engine only needs to
  know *that* a card's present is on the drone, not which present it is).

An unknown is filled by a reveal: in a seeded game from the seed (the layout at
setup, a present as soon as it is loaded), in a game dealt by hand from the
camera's reading of the shop grid, the load cell's mass of a loaded present, or a
person::

    {"type": "reveal", "zone": "shop", "row": 0, "col": 2, "card": "shop-4"}
    {"type": "reveal", "zone": "present", "shop": 3, "present": "wood-2"}

(the second: the present under shop card 3 this round is ``wood-2``).

Example, a game dealt by hand::

    >>> from rules import get_game
    >>> state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], deal="table")
    >>> state.is_chance(), len(state.chance_outcomes())   # 9 × 9 cells, 9 × 12 presents
    (False, 189)
    >>> state.apply({"type": "reveal", "zone": "shop", "row": 0, "col": 0, "card": "shop-4"})
    >>> state.data["shop"][0]
    ['shop-4', None, None]
    >>> state.apply({"type": "reveal", "zone": "shop", "row": 1, "col": 1, "card": "shop-4"})
    Traceback (most recent call last):
    ...
    rules.errors.IllegalAction: shop-4 already lies in row 1, column 1

(People count the shop grid's rows and columns from 1, the JSON from 0.)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
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
    json_copy,
    require,
    winners_by,
)
from rules.errors import IllegalAction
from rules.games.pick_n_packers.advice import guess_speculations
from rules.games.pick_n_packers.scoring import (
    SPECULATION_CARDS,
    TIMES_PILOT,
    RoundResult,
    round_points,
)
from rules.games.pick_n_packers.views import PlayedRound
from rules.words import at

GAME_NAME = "pick-n-packers"
SHOP_NUMBERS = tuple(range(9))  # 0 is the "0/9" card
GRID = 3  # the shop cards lie in a GRID × GRID grid
HOME = 0
FULL_CIRCUIT = 9  # reached when the drone lands back on "0/9"
PILOTS_PER_ROUND = 2
MIN_PLAYERS = 3
MAX_PLAYERS = 8
SPECULATION, CHALLENGE, OVER = "speculation", "challenge", "over"
SHOP, PRESENT = "shop", "present"  # the zones of a reveal
ACTION_KEYS = {
    "speculate": {"type", "card"},
    "load": {"type"},
    "land": {"type", "card"},
    "fall": {"type"},
    "touch": {"type"},
}
REVEAL_KEYS = {
    SHOP: {"type", "zone", "row", "col", "card"},
    PRESENT: {"type", "zone", "shop", "present"},
}
# The legal actions, made once and handed out read-only (see FrozenAction).
_SPECULATE = {card: FrozenAction(type="speculate", card=card) for card in SPECULATION_CARDS}
_LOAD = FrozenAction(type="load")
_LANDINGS = tuple(FrozenAction(type="land", card=number) for number in SHOP_NUMBERS)
_MISHAPS = (FrozenAction(type="fall"), FrozenAction(type="touch"))


# --------------------------------------------------------------------------- game
class PickNPackersGame(Game):
    """Pick 'n Packers for 3 to 8 players; one round per player, so each pilots twice.

    Options (see ``docs/rules-notes.md``, "Pick 'n Packers — rule readings"):

    - ``starting_player``: index of the first round's starting pilot (default 0).
    - ``load_before_lift``: the present of the drone's card must be loaded before the
      drone may land elsewhere (default True: the rulebook's steps (1)–(3) in order).
    """

    name = GAME_NAME
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_options = {  # noqa: RUF012 - read-only class data, as in the base class
        "starting_player": 0,
        "load_before_lift": True,
    }
    #: The engine also checks the starting player against the game's player count.
    option_limits: ClassVar[dict[str, tuple[int, int]]] = {
        "starting_player": (0, MAX_PLAYERS - 1)}
    advice_tuning = AdviceTuning(guess_face_down=guess_speculations)

    @property
    def state_class(self) -> type[State]:
        return PickNPackersState

    def make_setup(
        self,
        players: list[str],
        seed: int,
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """Lay the shop cards out and deal the present cards of every round."""
        _check_options(options, len(players))
        shops, presents = _components(catalogue)
        rng = random.Random(seed)
        layout = [shop["id"] for shop in shops]
        rng.shuffle(layout)
        present_ids = sorted(presents)
        deals = []
        for _ in range(rounds_in_game(len(players))):
            rng.shuffle(present_ids)
            deals.append(present_ids[: len(SHOP_NUMBERS)])
        return {
            "shop_cards": {shop["id"]: shop["number"] for shop in shops},
            "layout": [layout[row * GRID : row * GRID + GRID] for row in range(GRID)],
            "presents": presents,
            "deals": deals,
        }

    def make_table_setup(
        self,
        players: list[str],
        options: dict[str, Any],
        catalogue: Mapping[str, Any] | None,
    ) -> dict[str, Any]:
        """The catalogue's shop cards and presents; the layout and the deals are revealed."""
        _check_options(options, len(players))
        shops, presents = _components(catalogue)
        return {"shop_cards": {shop["id"]: shop["number"] for shop in shops},
                "presents": presents}


# -------------------------------------------------------------------------- state
class PickNPackersState(State):
    """A game of Pick 'n Packers.

    ``data``: ``round`` (0-based), ``phase`` (speculation, challenge or over), the
    round's ``pilots`` (names) and ``speculations`` (name → card), ``reached`` (the
    number of the last card the drone safely landed on this round, 0–9), ``loaded``
    (the numbers of the shop cards whose presents are on the drone, bottom first),
    ``shop`` (the 3 × 3 grid of shop card ids as laid, None where not yet seen),
    ``present_cards`` (this round's present under each shop card 0–8, None where
    not yet seen) and ``results`` (one entry per finished round: pilots, reached,
    speculations, ending).
    """

    # Set once seeded_reveal() finds every shop cell laid (a laid cell never empties), so
    # that the grid is not scanned again after each action; not part of the position.
    _shop_full = False

    def initial_data(self) -> dict[str, Any]:
        return {"round": 0, "phase": SPECULATION, "pilots": self._pilot_names(0),
                "speculations": {}, "reached": HOME, "loaded": [],
                "shop": [[None] * GRID for _ in range(GRID)],
                "present_cards": [None] * len(SHOP_NUMBERS), "results": []}

    # -- who plays ---------------------------------------------------------------
    def pilots(self, round_index: int | None = None) -> list[int]:
        """Indices of a round's pilots (default this round's): the starting player and the
        one to their left."""
        if round_index is None:
            round_index = self.data["round"]
        first = (self.options["starting_player"] + round_index) % len(self.players)
        return [(first + offset) % len(self.players) for offset in range(PILOTS_PER_ROUND)]

    def _pilot_names(self, round_index: int) -> list[str]:
        return [self.players[index] for index in self.pilots(round_index)]

    def speculators(self) -> list[int]:
        """Indices of this round's speculators, clockwise from the left of the pilots."""
        first = self.pilots()[0]
        return [(first + offset) % len(self.players)
                for offset in range(PILOTS_PER_ROUND, len(self.players))]

    def current_player(self) -> int | None:
        phase = self.data["phase"]
        if phase == OVER:
            return None
        # The arithmetic of pilots()/speculators() inlined: this runs on every step.
        count = len(self.players)
        first = (self.options["starting_player"] + self.data["round"]) % count
        if phase == SPECULATION:
            return (first + PILOTS_PER_ROUND + len(self.data["speculations"])) % count
        return first

    def is_over(self) -> bool:
        return self.data["phase"] == OVER

    # -- what may happen ---------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.data["phase"]
        if phase == SPECULATION:
            return [_SPECULATE[card] for card in self.free_speculation_cards()]
        if phase == OVER:
            return []
        actions: list[Action] = []
        loaded_here = self.present_loaded_here()
        if not loaded_here:
            actions.append(_LOAD)
        if loaded_here or not self.options["load_before_lift"]:
            actions += _LANDINGS
        if self.data["loaded"]:
            actions += _MISHAPS
        return actions

    def check(self, action: Action) -> None:
        kind = action["type"]
        require(kind in ACTION_KEYS, f"{GAME_NAME} has no action {kind!r}")
        if action.keys() != ACTION_KEYS[kind]:  # the message is built only when it is needed
            raise IllegalAction(
                f"a {kind} action has exactly: {', '.join(sorted(ACTION_KEYS[kind]))}")
        phase = self.data["phase"]
        if kind == "speculate":
            require(phase == SPECULATION, "the speculators have all chosen: the pilots fly now")
            require(type(action["card"]) is int
                    and action["card"] in self.free_speculation_cards(),
                    f"speculation card {action['card']!r} is not among the remaining cards")
            return
        require(phase == CHALLENGE, "the speculators have not all chosen yet")
        if kind == "load":
            require(not self.present_loaded_here(),
                    "the present of this card is already on the drone")
        elif kind == "land":
            require(self.shop_number(action["card"]) is not None,
                    "'card' is a shop card's number 0-9 (0 and 9 both name \"0/9\") or its id")
            require(self.present_loaded_here() or not self.options["load_before_lift"],
                    "load the present of this card before lifting the drone")
        else:
            require(bool(self.data["loaded"]), "no present is loaded on the drone yet")

    def perform(self, action: Action) -> None:
        kind = action["type"]
        if kind == "speculate":
            speculations = self.data["speculations"]
            speculations[self.players[self.current_player()]] = action["card"]  # type: ignore[index]
            if len(speculations) == len(self.players) - PILOTS_PER_ROUND:
                self.data["phase"] = CHALLENGE
        elif kind == "load":
            self.data["loaded"].append(self.drone_card())
        elif kind == "land":
            self._land(self.shop_number(action["card"]))  # type: ignore[arg-type]
        elif kind == REVEAL:
            if action["zone"] == SHOP:
                self.data["shop"][action["row"]][action["col"]] = action["card"]
            else:
                self.data["present_cards"][action["shop"]] = action["present"]
        else:
            self._end_round(kind)

    # -- chance: the shop layout and the present cards ------------------------------
    def seeded_reveal(self) -> Action | None:
        """The seed's next reveal: an unseen shop card's place (all at setup), then the
        present just loaded (a present is known once it lies on the drone)."""
        if not self._shop_full:  # a filled cell never empties: stop looking once all are
            for row, cards in enumerate(self.data["shop"]):
                if None in cards:
                    col = cards.index(None)
                    return {"type": REVEAL, "zone": SHOP, "row": row, "col": col,
                            "card": self.setup["layout"][row][col]}
            self._shop_full = True
        loaded = self.data["loaded"]
        if loaded and self.data["present_cards"][loaded[-1]] is None:
            number = loaded[-1]
            return {"type": REVEAL, "zone": PRESENT, "shop": number,
                    "present": self.setup["deals"][self.data["round"]][number]}
        return None

    def chance_outcomes(self) -> list[Outcome]:
        """Every reveal a person or a sensor may make now (never needed to go on): an unseen
        shop card in an empty cell of the grid, an unseen present under a shop card whose
        present is unknown this round. None in a seeded game: the seed deals everything."""
        if self.deal == "seed" or self.data["phase"] == OVER:
            return []
        outcomes = []
        unplaced = self._unplaced_shop_cards()
        for row, cards in enumerate(self.data["shop"]):
            for col, card in enumerate(cards):
                if card is None:
                    outcomes += [Outcome({"type": REVEAL, "zone": SHOP, "row": row, "col": col,
                                          "card": shop}) for shop in unplaced]
        unseen = self._unseen_presents()
        for number, present in enumerate(self.data["present_cards"]):
            if present is None:
                outcomes += [Outcome({"type": REVEAL, "zone": PRESENT, "shop": number,
                                      "present": other}) for other in unseen]
        return outcomes

    def unseen(self) -> dict[str, int]:
        """Shop cards not yet seen in the grid and presents not yet seen this round (the
        three left aside each round stay unseen)."""
        unseen = dict.fromkeys(self._unplaced_shop_cards(), 1)
        if self.data["phase"] != OVER:
            unseen.update(dict.fromkeys(self._unseen_presents(), 1))
        return unseen

    def public_view(self) -> dict[str, Any]:
        """The position with this round's speculation cards face down (who chose, not what:
        they are revealed when the round is scored)."""
        view = json_copy(self.data)
        view["speculations"] = dict.fromkeys(view["speculations"])
        return view

    def public_action(self, action: Action) -> Action:
        """A speculation as the table sees it: a card laid face down (``"card": None``).

        >>> from rules import get_game
        >>> state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=1)
        >>> state.public_action({"type": "speculate", "card": 4})
        {'type': 'speculate', 'card': None}
        """
        if isinstance(action, dict) and action.get("type") == "speculate":
            return {**json_copy(action), "card": None}
        return super().public_action(action)

    def check_reveal(self, action: Action) -> None:
        """Refuse a reveal that is not one of :meth:`chance_outcomes`, saying why."""
        reason = self._reveal_problem(action)
        if reason is not None:
            raise IllegalAction(reason)

    def reveal_refusal(self, action: Action, outcomes: Sequence[Outcome]) -> str:
        return self._reveal_problem(action) or super().reveal_refusal(action, outcomes)

    def _reveal_problem(self, action: Action) -> str | None:
        """Why ``action`` is not a legal reveal now (None: it is one of the outcomes)."""
        if self.deal == "seed":
            return "the seed dealt this game: nothing is revealed by hand"
        if self.data["phase"] == OVER:
            return "the game is over: nothing is left to reveal"
        zone = action.get("zone")
        if zone not in REVEAL_KEYS:
            return f"a {GAME_NAME} reveal has the zone 'shop' or 'present', not {zone!r}"
        if set(action) != REVEAL_KEYS[zone]:
            return f"a {zone} reveal has exactly: {', '.join(sorted(REVEAL_KEYS[zone]))}"
        if zone == SHOP:
            return self._shop_reveal_problem(action["row"], action["col"], action["card"])
        return self._present_reveal_problem(action["shop"], action["present"])

    def _shop_reveal_problem(self, row: Any, col: Any, card: Any) -> str | None:
        cells = range(GRID)
        if type(row) is not int or type(col) is not int or row not in cells or col not in cells:
            return (f"the shop grid's 'row' and 'col' are 0 to {GRID - 1} (row 1 is 0), "
                    f"not {row!r}, {col!r}")
        if not isinstance(card, str) or card not in self.setup["shop_cards"]:
            return f"there is no shop card {card!r} in this copy"
        placed = self.data["shop"][row][col]
        if placed is not None:
            return f"{at(row, col)} already holds {placed}"
        for other_row, cards in enumerate(self.data["shop"]):
            if card in cards:
                return f"{card} already lies in {at(other_row, cards.index(card))}"
        return None

    def _present_reveal_problem(self, number: Any, present: Any) -> str | None:
        if type(number) is not int or number not in SHOP_NUMBERS:
            return f"'shop' is a shop card's number 0-8, not {number!r}"
        if not isinstance(present, str) or present not in self.setup["presents"]:
            return f"there is no present {present!r} in this copy"
        known = self.data["present_cards"][number]
        if known is not None:
            return f"the present under shop card {number} is already known: {known}"
        if present in self.data["present_cards"]:
            where = self.data["present_cards"].index(present)
            return f"{present} already lies under shop card {where} this round"
        return None

    def _unplaced_shop_cards(self) -> list[str]:
        placed = {card for cards in self.data["shop"] for card in cards}
        return [card for card in self.setup["shop_cards"] if card not in placed]

    def _unseen_presents(self) -> list[str]:
        seen = set(self.data["present_cards"])
        return [present for present in self.setup["presents"] if present not in seen]

    # -- the drone ---------------------------------------------------------------
    def free_speculation_cards(self) -> list[int]:
        """Speculation cards nobody has taken this round."""
        taken = set(self.data["speculations"].values())
        return [card for card in SPECULATION_CARDS if card not in taken]

    def shop_number(self, card: Any) -> int | None:
        """The number (0–8) of the shop card named by ``card`` — a number 0–9, where 0 and
        9 both name "0/9", or a catalogue id such as ``"shop-4"`` — else None."""
        if type(card) is int and 0 <= card <= FULL_CIRCUIT:
            return card % len(SHOP_NUMBERS)
        if isinstance(card, str):
            return self.setup["shop_cards"].get(card)
        return None

    def drone_card(self) -> int:
        """Number of the shop card the drone stands on (0 is "0/9")."""
        return self.data["reached"] % len(SHOP_NUMBERS)

    def present_on_card(self, number: int) -> str | None:
        """Id of the present lying under shop card ``number`` this round (None: not seen)."""
        return self.data["present_cards"][number]

    def loaded_presents(self) -> list[str | None]:
        """Ids of the presents on the drone, bottom first (None for one not yet seen)."""
        return [self.data["present_cards"][number] for number in self.data["loaded"]]

    def loaded_mass_g(self) -> float | None:
        """Total catalogue mass of the presents on the drone in grams (None while one of
        them is not yet seen)."""
        presents = self.loaded_presents()
        if None in presents:
            return None
        return sum(self.setup["presents"][present]["mass_g"] for present in presents)

    def present_loaded_here(self) -> bool:
        """Whether the present of the drone's card is on the drone."""
        return self.drone_card() in self.data["loaded"]

    def _land(self, number: int) -> None:
        if number != (self.data["reached"] + 1) % len(SHOP_NUMBERS):
            self._end_round("wrong-landing")
            return
        self.data["reached"] += 1
        if self.data["reached"] == FULL_CIRCUIT:
            self._end_round("home")

    def _end_round(self, ending: str) -> None:
        self.data["results"].append({
            "pilots": list(self.data["pilots"]),
            "reached": self.data["reached"],
            "speculations": dict(self.data["speculations"]),
            "ending": ending,
        })
        next_round = self.data["round"] + 1
        over = next_round == rounds_in_game(len(self.players))
        self.data.update(round=next_round, phase=OVER if over else SPECULATION,
                         pilots=[] if over else self._pilot_names(next_round),
                         speculations={}, reached=HOME, loaded=[],
                         present_cards=[None] * len(SHOP_NUMBERS))

    # -- read-only views, for presenters (never the JSON of ``data``) ----------------
    @property
    def phase(self) -> str:
        """``speculation`` (bets being laid), ``challenge`` (the drone in the air) or ``over``."""
        return self.data["phase"]

    @property
    def reached(self) -> int:
        """The number of the last card the drone safely landed on this round (0–9)."""
        return self.data["reached"]

    def round_pilots(self) -> tuple[str, ...]:
        """The names of this round's pilots (none once the game is over)."""
        return tuple(self.data["pilots"])

    def laid_speculations(self) -> tuple[str, ...]:
        """Who has laid a speculation card this round (face down: not which card)."""
        return tuple(self.data["speculations"])

    def loaded_cards(self) -> tuple[int, ...]:
        """The numbers of the shop cards whose presents are on the drone, bottom first."""
        return tuple(self.data["loaded"])

    def played_rounds(self) -> tuple[PlayedRound, ...]:
        """The finished rounds, with their speculation cards turned up and how they ended."""
        return tuple(PlayedRound(tuple(result["pilots"]), result["reached"],
                                 MappingProxyType(dict(result["speculations"])),
                                 result["ending"])
                     for result in self.data["results"])

    # -- scores ------------------------------------------------------------------
    def round_results(self) -> list[RoundResult]:
        """The finished rounds as :class:`RoundResult` values."""
        return [RoundResult(tuple(result["pilots"]), result["reached"],
                            dict(result["speculations"]))
                for result in self.data["results"]]

    def scores(self) -> list[PlayerScore]:
        """Totals split into points won as a pilot and as a speculator."""
        parts = {player: {"pilot": 0, "speculation": 0} for player in self.players}
        for result in self.round_results():
            for player, points in round_points(result).items():
                parts[player]["pilot" if player in result.pilots else "speculation"] += points
        return [PlayerScore(player, sum(parts[player].values()), parts[player])
                for player in self.players]

    def winners(self) -> list[str]:
        """The highest totals; a tie shares the win."""
        scores = self.scores()
        return winners_by(scores, {score.player: (score.total,) for score in scores})


# ------------------------------------------------------------------------ helpers
def rounds_in_game(player_count: int) -> int:
    """Rounds until every player has piloted twice: the pilots move one seat a round."""
    return player_count * TIMES_PILOT // PILOTS_PER_ROUND


def catalogue_components(
    catalogue: Mapping[str, Any],
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The catalogue's shop cards (numbers 0–8, once each) and presents ``{id: {...}}``."""
    shops = [{"id": shop["id"], "number": shop["number"]} for shop in catalogue["shop_cards"]]
    if sorted(shop["number"] for shop in shops) != list(SHOP_NUMBERS):
        raise ValueError("the shop cards must be numbered 0 to 8, once each (0 is \"0/9\")")
    presents: dict[str, dict[str, Any]] = {}
    for present in catalogue["presents"]:
        if present["id"] in presents:
            raise ValueError(f"present id {present['id']!r} appears twice in the catalogue")
        presents[present["id"]] = {"material": present["material"],
                                   "mass_g": present["mass_g"]}
    if len(presents) < len(SHOP_NUMBERS):
        raise ValueError(f"{GAME_NAME} needs at least {len(SHOP_NUMBERS)} presents")
    return shops, presents


def _components(
    catalogue: Mapping[str, Any] | None,
) -> tuple[Sequence[Mapping[str, Any]], dict[str, dict[str, Any]]]:
    """:func:`catalogue_components` of ``catalogue``, or of the default one (read once: a
    seeded game is set up many times a second in simulations; the presents are copied)."""
    if catalogue is not None:
        return catalogue_components(catalogue)
    shops, presents = _default_components()
    return shops, {present: dict(entry) for present, entry in presents.items()}


@cache
def _default_components() -> tuple[tuple[Mapping[str, Any], ...], dict[str, dict[str, Any]]]:
    shops, presents = catalogue_components(default_catalogue(GAME_NAME))
    return tuple(shops), presents


def _check_options(options: Mapping[str, Any], player_count: int) -> None:
    start = options["starting_player"]
    if type(start) is not int or not 0 <= start < player_count:
        raise ValueError(f"option starting_player must be 0..{player_count - 1}")
    if not isinstance(options["load_before_lift"], bool):
        raise ValueError("option load_before_lift must be true or false")


#: The game itself, as :mod:`rules.registry` finds it.
GAME = PickNPackersGame()
