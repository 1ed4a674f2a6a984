"""Pick 'n Packers in the station: the shop grid under the camera, the drone on its sensors."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import Action, State
from rules.games.pick_n_packers.referee import Referee
from station.catalogue.config import MAX_PRESENT_G
from station.catalogue.copy import piece_id, pieces_of, tag_of
from station.catalogue.form import Question, number_answer
from station.catalogue.learn import Lesson, one_square
from station.games.camera import CameraLayout
from station.games.record import CameraWiring, CatalogueWiring, DemoWiring, GameRecord
from station.games.words import actor, plain
from station.inputs.pick_n_packers import score_document
from station.jsonin import Node
from station.tags import DRONE

NAME = "pick-n-packers"
LEGEND = ("Nine shop cards, 0/9 then 1 to 8 · yellow card (and “card reached”): where the "
          "drone got to · speculation cards stay face down until the round is scored")
SHOP_ROWS = SHOP_COLS = 3
PHASE_WORDS = {"speculation": "bets being laid", "challenge": "the drone in the air"}
ENDING_WORDS = {"home": "back home", "wrong-landing": "landed on the wrong card",
                "touch": "a foul (touched)", "fall": "a present fell"}
SKILL = 0.92  # how often the demo's pilots take the good move


def view(state: State) -> dict[str, Any]:
    """The drone challenge: shop cards 0-9, the card reached, past rounds with their bets,
    and who has laid a speculation card this round (face down: not which card)."""
    data = state.data
    face_down = list(state.public_view()["speculations"])
    played = len(data.get("results", []))
    presents = data.get("present_cards") or []  # under each shop card; None: not yet seen
    loaded = [presents[number] or f"card {number}'s present" for number in data["loaded"]]
    now = ("The game is over" if data["phase"] == "over" else
           f"Round {played + 1}, {PHASE_WORDS.get(data['phase'], data['phase'])}: "
           f"{' and '.join(data['pilots']) or 'nobody'} flying")
    lines = [now, f"On the drone: {', '.join(loaded) or 'nothing'}"]
    if face_down:
        lines.append(f"Speculation cards face down: {', '.join(face_down)}")
    for index, result in enumerate(data.get("results", []), start=1):
        ending = result.get("ending", "")
        lines.append(f"Round {index}: {' and '.join(result['pilots'])} reached shop card "
                     f"{result['reached']}, {ENDING_WORDS.get(ending, ending)}"
                     f"{_bets(result.get('speculations', {}))}")
    return {"boards": [], "lines": lines,
            "drone": {"reached": data["reached"], "face_down": face_down,
                      "pilots": list(data["pilots"])}}


def _bets(speculations: Mapping[str, Any]) -> str:
    """A scored round's speculation cards, turned up: "; bets: Cas on 4, Dee on 6"."""
    if not speculations:
        return ""
    return "; bets: " + ", ".join(f"{player} on {card}" for player, card in speculations.items())


def describe(state: State, action: Action) -> str:
    """"Ana bet on shop card 3", "The drone landed on shop card 2", ... (``state`` before)."""
    kind = action["type"]
    if kind == "speculate":
        if action.get("card") is None:  # laid face down: the table cannot see which
            return f"{actor(state)} laid a speculation card face down"
        return f"{actor(state)} bet on shop card {action.get('card')}"
    said = {"load": "The drone picked up a present", "fall": "A present fell",
            "touch": "The drone touched something it must not (a foul)"}
    if kind == "land":
        return f"The drone landed on shop card {action.get('card')}"
    return said.get(kind) or f"{actor(state)}: {plain(action)}"


def reveal_label(state: State, action: Action) -> str:
    """``shop row 1, col 3: shop-4`` (counted from 1), ``present under card 3: wood-2``."""
    if action.get("zone") == "present":
        return f"present under card {action['shop']}: {action['present']}"
    return f"shop row {int(action['row']) + 1}, col {int(action['col']) + 1}: {action['card']}"


def roles(players: list[str], mats: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """The shop grid is the only mat, nobody's own."""
    return {"shop": mats[0].spec.id}, [mats[0].spec]


class ShopReader:
    """The shop's layout and the card under the drone, remembering the last layout seen."""

    def __init__(self, layout: CameraLayout) -> None:
        self.layout = layout
        self.shop: list[list[str | None]] | None = None  # the last shop layout seen

    def observations(self, mats: list[dict[str, Any]], t: float) -> dict[str, dict[str, Any]]:
        """The shop's layout; the card under the drone as a drone position."""
        from vision.games.pick_n_packers import read_shop

        mat = next((m for m in mats if m["id"] == self.layout.roles["shop"]), {"found": False})
        shop = read_shop(mat, self.layout.tags, previous=self.shop)
        if not shop.get("found"):
            return {}
        self.shop = shop["cards"]
        # The shop's layout, for a game dealt by hand (the referee reveals the cards it sees).
        seen = {"shop": {"kind": "shop", "cards": shop["cards"]}}
        drone = shop.get("drone") or {}
        number = self.layout.card_numbers.get(drone.get("card") or "")
        if number is None:
            return seen
        return {**seen, "drone": {"kind": "drone-position", "t": round(t, 3), "card": number}}


def extend(layout: CameraLayout, catalogue: Mapping[str, Any]) -> None:
    """A shop card's number, for the drone position the reader reports."""
    layout.card_numbers = {card["id"]: int(card["number"]) for card in catalogue["shop_cards"]}


def mats(catalogues: Mapping[str, Any], per_game: int, sizes: Mapping[str, float]) -> list[Any]:
    """The shop grid."""
    from vision.kit import MatRequest

    return [MatRequest(NAME, "shop grid", SHOP_ROWS, SHOP_COLS, "tags", sizes["shop"])]


# -- a copy's own catalogue --------------------------------------------------------------
SHOP_CARD = [Question("number", "number printed on it (0..8; 0 is the 0/9 card)",
                      number_answer(0, 8, True))]
PRESENT = [Question("mass_g", f"mass in grams (a kitchen scale, or the drone's load cell; "
                    f"up to {MAX_PRESENT_G:g})", number_answer(0, MAX_PRESENT_G, False))]


def questions(document: dict[str, Any], key: str) -> list[Question]:
    """A shop card's number; a present's mass."""
    return PRESENT if key == "presents" else SHOP_CARD


def learnt_presents() -> dict[str, Any]:
    """The presents carry no tag: the default ones, to be weighed in 'catalogue edit'."""
    from rules.catalogue import default_catalogue

    return {"presents": [{"id": present["id"], "material": present["material"]}
                         for present in default_catalogue(NAME)["presents"]]}


def read_copy(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    """The copy's shop cards (tags learnt, numbers asked: 0 to 8, once each) and presents
    (weighed)."""
    tags: dict[int, str] = {}
    ids: set[str] = set()
    numbers: dict[int, str] = {}

    def shop(node: Node) -> dict[str, Any]:
        tag = tag_of(node, tags)
        entry: dict[str, Any] = {"id": piece_id(node, tag, "shop-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        number = node["number"].integer(0, 8)
        if number in numbers:
            raise node["number"].fail(f"{number} is already the number of {numbers[number]}")
        numbers[number] = node.path
        label = node.get("label", "0/9" if number == 0 else str(number)).string(non_empty=True)
        return {**entry, "number": number, "label": label}

    present_ids: set[str] = set()

    def present(node: Node) -> dict[str, Any]:
        mass = node["mass_g"].number(0, MAX_PRESENT_G)
        if mass <= 0:
            raise node["mass_g"].fail(f"must be 0..{MAX_PRESENT_G:g} and more than 0")
        return {"id": piece_id(node, None, "", present_ids),
                "material": node["material"].string(non_empty=True), "mass_g": mass}

    cards = pieces_of(document, "shop_cards", shop)
    missing = sorted(set(range(9)) - set(numbers))
    if missing:
        raise document["shop_cards"].fail(
            f"the shop cards must be numbered 0 to 8, once each; missing {missing[0]}")
    return {"shop_cards": cards,
            "presents": [present(node) for node in
                         document.get("presents", defaults["presents"]).items(min_length=9)]}


# -- the demo -------------------------------------------------------------------------------
def skilful_pilots(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Pilots who mostly load, and mostly fly to the next card."""
    if state.data.get("phase") == "challenge":
        wanted = [{"type": "load"},
                  {"type": "land", "card": (state.data.get("reached", 0) + 1) % 9}]
        good = [action for action in actions if action in wanted]
        if good and rng.random() < SKILL:
            return good[0]
    return rng.choice(actions)


class DroneScale:
    """Made-up load-cell readings to go with a recording (for the mass graph)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mass = 0.0

    def reading(self, t: float, action: Action, new_round: bool) -> tuple[float, Any] | None:
        """The drone's telemetry after ``action`` and its time, or None."""
        kind = action.get("type")
        if new_round:
            self.mass = 0.0
        if kind == "load":
            self.mass += self.rng.uniform(6.0, 18.0)
        elif kind in ("fall", "touch"):
            self.mass = max(0.0, self.mass - self.rng.uniform(5.0, 12.0))
        elif kind != "land":
            return None
        event = {"load": "load", "land": "land"}.get(kind, "drop")
        at = round(t + 0.3, 3)
        return at, {"kind": "telemetry", "t": at, "event": event,
                    "mass_g": round(self.mass + self.rng.uniform(-0.3, 0.3), 1)}


RECORD = GameRecord(
    name=NAME, title="Pick 'n Packers", order=40, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=ShopReader, extend=extend),
    mats=mats, sticker_size="shop", tagged=("shop_cards",), tag_order=30, loose_tags=(DRONE,),
    catalogue=CatalogueWiring(lesson=Lesson(NAME, "tags", "shop card", "shop_cards",
                                            one_square("shop card")),
                              read=read_copy, questions=questions, more_lists=("presents",),
                              learnt_extras=learnt_presents),
    demo=DemoWiring(choose=skilful_pilots, readings=DroneScale))
