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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.catalogue import default_catalogue
from rules.engine import Action, Game, PlayerScore, State, require, winners_by
from rules.registry import register

GAME_NAME = "pick-n-packers"
SHOP_NUMBERS = tuple(range(9))  # 0 is the "0/9" card
HOME = 0
FULL_CIRCUIT = 9  # reached when the drone lands back on "0/9"
SPECULATION_CARDS = tuple(range(10))
PILOTS_PER_ROUND = 2
TIMES_PILOT = 2
MIN_PLAYERS = 3
MAX_PLAYERS = 8
SPECULATION, CHALLENGE, OVER = "speculation", "challenge", "over"
ACTION_KEYS = {
    "speculate": {"type", "card"},
    "load": {"type"},
    "land": {"type", "card"},
    "fall": {"type"},
    "touch": {"type"},
}


# --------------------------------------------------------------------------- game
class PickNPackersGame(Game):
    """Pick 'n Packers for 3 to 8 players; one round per player, so each pilots twice.

    Options (see ``docs/rules-notes-pick-n-packers.md``):

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
        shops, presents = catalogue_components(
            catalogue if catalogue is not None else default_catalogue(GAME_NAME))
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
            "layout": [layout[row * 3 : row * 3 + 3] for row in range(3)],
            "presents": presents,
            "deals": deals,
        }


# -------------------------------------------------------------------------- state
class PickNPackersState(State):
    """A game of Pick 'n Packers.

    ``data``: ``round`` (0-based), ``phase`` (speculation, challenge or over), the
    round's ``pilots`` (names) and ``speculations`` (name → card), ``reached`` (the
    number of the last card the drone safely landed on this round, 0–9), ``loaded``
    (present ids, bottom first) and ``results`` (one entry per finished round:
    pilots, reached, speculations, ending).
    """

    def initial_data(self) -> dict[str, Any]:
        return {"round": 0, "phase": SPECULATION, "pilots": self._pilot_names(0),
                "speculations": {}, "reached": HOME, "loaded": [], "results": []}

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
        if phase == SPECULATION:
            return self.speculators()[len(self.data["speculations"])]
        return self.pilots()[0]

    def is_over(self) -> bool:
        return self.data["phase"] == OVER

    # -- what may happen ---------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.data["phase"]
        if phase == SPECULATION:
            return [{"type": "speculate", "card": card} for card in self.free_speculation_cards()]
        if phase == OVER:
            return []
        actions: list[Action] = []
        if not self._present_loaded_here():
            actions.append({"type": "load"})
        if self._present_loaded_here() or not self.options["load_before_lift"]:
            actions += [{"type": "land", "card": number} for number in SHOP_NUMBERS]
        if self.data["loaded"]:
            actions += [{"type": "fall"}, {"type": "touch"}]
        return actions

    def check(self, action: Action) -> None:
        kind = action["type"]
        require(kind in ACTION_KEYS, f"{GAME_NAME} has no action {kind!r}")
        require(set(action) == ACTION_KEYS[kind],
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
            require(not self._present_loaded_here(),
                    "the present of this card is already on the drone")
        elif kind == "land":
            require(self.shop_number(action["card"]) is not None,
                    "'card' is a shop card's number 0-9 (0 and 9 both name \"0/9\") or its id")
            require(self._present_loaded_here() or not self.options["load_before_lift"],
                    "load the present of this card before lifting the drone")
        else:
            require(bool(self.data["loaded"]), "no present is loaded on the drone yet")

    def perform(self, action: Action) -> None:
        kind = action["type"]
        if kind == "speculate":
            speculator = self.players[self.speculators()[len(self.data["speculations"])]]
            self.data["speculations"][speculator] = action["card"]
            if len(self.data["speculations"]) == len(self.speculators()):
                self.data["phase"] = CHALLENGE
        elif kind == "load":
            self.data["loaded"].append(self.present_on_card(self.drone_card()))
        elif kind == "land":
            self._land(self.shop_number(action["card"]))  # type: ignore[arg-type]
        else:
            self._end_round(kind)

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

    def present_on_card(self, number: int) -> str:
        """Id of the present lying under shop card ``number`` this round."""
        return self.setup["deals"][self.data["round"]][number]

    def loaded_mass_g(self) -> float:
        """Total catalogue mass of the presents on the drone, in grams."""
        return sum(self.setup["presents"][present]["mass_g"] for present in self.data["loaded"])

    def _present_loaded_here(self) -> bool:
        return self.present_on_card(self.drone_card()) in self.data["loaded"]

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
                         speculations={}, reached=HOME, loaded=[])

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


# ------------------------------------------------------------------------ scoring
@dataclass(frozen=True)
class RoundResult:
    """One finished round: its two pilots, the card reached (0–9) and each speculation."""

    pilots: tuple[str, ...]
    reached: int
    speculations: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameScore:
    """Scores of a series of rounds: totals, each round's points, completeness, winners."""

    totals: dict[str, int]
    rounds: list[dict[str, int]]
    complete: bool
    winners: list[str]


def speculation_points(guess: int, reached: int) -> int:
    """A speculator's points: guess + 1 when right, the guess when lower, 0 when higher.

    >>> speculation_points(6, 6), speculation_points(4, 6), speculation_points(7, 6)
    (7, 4, 0)
    """
    if guess == reached:
        return guess + 1
    return guess if guess < reached else 0


def round_points(result: RoundResult) -> dict[str, int]:
    """Points of one round: each pilot scores ``reached``, each speculator by the guess."""
    points = {pilot: result.reached for pilot in result.pilots}
    for speculator, guess in result.speculations.items():
        points[speculator] = speculation_points(guess, result.reached)
    return points


def score_rounds(players: Sequence[str], rounds: Sequence[RoundResult]) -> GameScore:
    """Score a game's rounds; ``complete`` when every player has piloted exactly twice.

    Players missing from a round score 0 in it; lists keep the order of ``players``.
    """
    per_round = []
    totals = dict.fromkeys(players, 0)
    pilot_turns = dict.fromkeys(players, 0)
    for result in rounds:
        points = round_points(result)
        per_round.append({player: points.get(player, 0) for player in players})
        for player in players:
            totals[player] += points.get(player, 0)
        for pilot in result.pilots:
            pilot_turns[pilot] += 1
    complete = all(turns == TIMES_PILOT for turns in pilot_turns.values())
    best = max(totals.values(), default=0)
    return GameScore(totals, per_round, complete,
                     [player for player in players if totals[player] == best])


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


def _check_options(options: Mapping[str, Any], player_count: int) -> None:
    start = options["starting_player"]
    if type(start) is not int or not 0 <= start < player_count:
        raise ValueError(f"option starting_player must be 0..{player_count - 1}")
    if not isinstance(options["load_before_lift"], bool):
        raise ValueError("option load_before_lift must be true or false")


register(PickNPackersGame())
