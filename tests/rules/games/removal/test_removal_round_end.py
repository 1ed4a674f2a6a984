"""Removal: a round ends the moment its last item is placed (issue 17).

The rulebook: "The round ends when the last Item has been picked up and placed."
and "The game ends when the last Item of the third round is picked up and placed."
A pair of symbols made by that last item therefore grants nothing, unless the
option ``last_item_extra_action`` keeps the older reading (the player takes the
extra action first, with the house empty).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from rules import get_game
from rules.catalogue import default_catalogue
from rules.games.removal import RemovalState
from rules.playout import play_randomly, random_reveal

GAME = get_game("removal")
CATALOGUE = default_catalogue("removal")
ITEMS = {item["id"]: item for item in CATALOGUE["items"]}
ON = {"last_item_extra_action": True}


def _new(players: int = 2, seed: int = 1, **options: Any) -> RemovalState:
    state = GAME.new_game([f"P{index + 1}" for index in range(players)], seed=seed,
                          options=options)
    assert isinstance(state, RemovalState)
    return state


def _common_pair(state: RemovalState) -> tuple[str, str]:
    """A common single-square item on the house board and another with its symbol, elsewhere."""
    on_board = {tile for line in state.data["house"] for tile in line if tile}
    waiting = set(state.data["waiting"])
    for item in sorted(on_board):
        entry = ITEMS.get(item)
        if not entry or entry.get("heavy") or entry.get("delicate") or entry["shape"] != ["#"]:
            continue
        for other, candidate in ITEMS.items():
            if (other not in on_board | waiting and candidate["symbol"] == entry["symbol"]
                    and candidate["shape"] == ["#"] and not candidate.get("heavy")):
                return item, other
    raise AssertionError("no matching pair in this setup")


def _last_item_makes_a_pair(state: RemovalState, round_: int, storage: str | None = None
                            ) -> tuple[RemovalState, str]:
    """``state`` edited so that the house holds one item, in the bottom row, whose symbol
    pairs with the one tile of P1's truck; P2's truck holds one tile too."""
    item, partner = _common_pair(state)
    layout = CATALOGUE["house"][state.setup["side"]]["layout"]
    bottom_col = layout[-1].index("I")
    document = json.loads(json.dumps(state.to_json()))
    data = document["state"]
    data["round"] = round_
    if round_ == CATALOGUE["rounds"]:
        data["waiting"] = []
    data["house"] = [[None] * len(line) for line in layout]
    data["house"][-1][bottom_col] = item
    data["players"][0]["truck"] = [{"item": partner, "row": 5, "col": 3, "rotation": 0,
                                    "flip": False, "damaged": False, "paired": False}]
    other = next(tile for tile in ITEMS if tile not in (item, partner, storage)
                 and ITEMS[tile]["shape"] == ["#"]
                 and ITEMS[tile]["symbol"] != ITEMS[item]["symbol"])
    data["players"][1]["truck"] = [{"item": other, "row": 5, "col": 3, "rotation": 0,
                                    "flip": False, "damaged": False, "paired": False}]
    data["players"][0]["storage"] = storage
    data["turn"] = 0
    restored = GAME.from_json(document)
    assert isinstance(restored, RemovalState)
    return restored, item


def _load_beside(state: RemovalState, item: str) -> dict:
    """Load ``item`` on the floor next to the tile already in P1's truck."""
    return {"type": "load", "item": item, "row": 5, "col": 4, "rotation": 0, "flip": False,
            "helpers": []}


# -- rounds 1 and 2 ---------------------------------------------------------------------------
@pytest.mark.parametrize("round_", [1, 2])
def test_the_round_ends_when_its_last_item_is_placed_and_its_pair_grants_nothing(
        round_: int) -> None:
    state, item = _last_item_makes_a_pair(_new(seed=4), round_)
    waiting = list(state.data["waiting"])
    state.apply(_load_beside(state, item))
    assert state.data["round"] == round_ + 1  # "The round ends when the last Item ... placed."
    assert state.data["last"] == {"player": 0, "type": "load", "item": item, "damaged": [],
                                  "extra_action": False}
    assert state.data["extra_action"] is False
    assert state.current_player() == 1  # "continues with the current order of players"
    assert all(record["paired"] for record in state.data["players"][0]["truck"])  # used up
    assert state.data["house"][-1][1:4] == waiting  # the bottom row from the Waiting Items
    boxes = [tile for line in state.data["house"] for tile in line if tile and tile[0] == "B"]
    assert len(boxes) == CATALOGUE["boxes_per_round"]
    assert len(state.data["waiting"]) == (3 if round_ + 1 < CATALOGUE["rounds"] else 0)


@pytest.mark.parametrize("round_", [1, 2])
def test_with_the_option_the_last_items_pair_gives_its_extra_action_first(round_: int) -> None:
    state, item = _last_item_makes_a_pair(_new(seed=4, **ON), round_)
    state.apply(_load_beside(state, item))
    assert state.data["round"] == round_ and state.current_player() == 0
    assert state.data["extra_action"] is True and state.data["last"]["extra_action"] is True
    assert {action["type"] for action in state.legal_actions()} == {"drive"}
    state.apply({"type": "drive"})
    assert state.data["round"] == round_ + 1 and state.current_player() == 1


# -- round 3: the end of the game --------------------------------------------------------------
def test_the_game_ends_when_the_last_item_of_round_3_is_placed() -> None:
    state, item = _last_item_makes_a_pair(_new(seed=4), 3, storage="I48")
    truck_of_p2 = [record["item"] for record in state.data["players"][1]["truck"]]
    state.apply(_load_beside(state, item))
    assert state.is_over() and state.current_player() is None and state.legal_actions() == []
    assert state.data["round"] == 3 and state.data["last"]["extra_action"] is False
    p1, p2 = state.data["players"]
    assert p1["truck"] == [] and p2["truck"] == []  # "All Trucks drive off and score"
    assert p1["final_drive"] is not None and p2["transported"] == truck_of_p2
    assert p1["storage"] == "I48"  # no extra action to load it: it is lost
    parts = state.scores()[0].parts
    assert parts["storage"] == -2 and parts["track"] == p1["final_drive"]["total"]


def test_with_the_option_round_3s_last_pair_lets_the_stored_item_escape() -> None:
    state, item = _last_item_makes_a_pair(_new(seed=4, **ON), 3, storage="I48")
    state.apply(_load_beside(state, item))
    assert not state.is_over() and state.current_player() == 0
    load_stored = next(a for a in state.legal_actions() if a["type"] == "load-stored")
    state.apply(load_stored)
    assert state.is_over()
    assert state.data["players"][0]["storage"] is None
    assert state.scores()[0].parts["storage"] == 0


def test_a_last_item_that_is_stored_ends_the_round_too() -> None:
    state, item = _last_item_makes_a_pair(_new(seed=4), 1)
    state.apply({"type": "store", "item": item})
    assert state.data["round"] == 2 and state.current_player() == 1
    assert state.data["players"][0]["storage"] == item


# -- random playouts, the option off and on -----------------------------------------------
def _house_empty(state: RemovalState) -> bool:
    return all(tile is None for line in state.data["house"] for tile in line)


def _playout(players: int, seed: int, options: dict[str, Any]) -> tuple[RemovalState, int, int]:
    """A random game checked step by step: the game, how often the last item of a round 1 or 2
    made a pair, and how often an action followed in the round of that last item."""
    state = _new(players, seed, **options)
    rng = random.Random(seed)
    pairs = extras = 0
    while not state.is_over():
        round_, acting = state.data["round"], state.current_player()
        during_extra = state.data["extra_action"]
        state.apply(rng.choice(state.legal_actions()))
        emptied = state.data["last"]["type"] in ("load", "store") and (
            state.data["round"] != round_ or state.is_over() or _house_empty(state))
        if not emptied:
            continue
        truck = state.data["players"][acting]["truck"]
        pairs += bool(state.data["last"]["type"] == "load" and not during_extra
                      and truck and truck[-1]["paired"])
        if options.get("last_item_extra_action") and state.data["extra_action"]:
            assert state.data["round"] == round_ and state.current_player() == acting
            assert _house_empty(state)
            extras += 1
        else:  # no action of the round follows the placement that emptied its house
            assert state.data["extra_action"] is False
            assert state.is_over() or (state.data["round"] == round_ + 1
                                       and not _house_empty(state))
    return state, pairs, extras


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_never_act_in_a_round_after_its_last_item(players: int) -> None:
    results = [_playout(players, seed, {}) for seed in range(8)]
    assert all(state.is_over() for state, _, _ in results)
    assert sum(pairs for _, pairs, _ in results) > 0  # the case did come up
    assert sum(extras for _, _, extras in results) == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_the_option_take_the_last_extra_action(players: int) -> None:
    results = [_playout(players, seed, ON) for seed in range(8)]
    assert all(state.is_over() for state, _, _ in results)
    assert sum(extras for _, _, extras in results) > 0


# Fingerprints (log and final scores) of random games played by the engine before issue 17:
# with the option on, the engine plays them exactly as it did.
BEFORE_ISSUE_17 = {
    "2-0": "2460e5d00b18", "2-1": "f7ca74f840b9", "2-2": "ddc06f3e5e0f", "2-3": "1f49357bb20d",
    "3-0": "bb54bda1e66b", "3-1": "1ef25b27b57f", "3-2": "60176cedc55c", "3-3": "62f55210e194",
    "4-0": "920ee1ef0654", "4-1": "b390f6302d34", "4-2": "09d9f504424f", "4-3": "5e3203e31133",
}


def _fingerprint(state: RemovalState) -> str:
    document = {"log": state.log,
                "scores": [[score.player, score.total, score.parts] for score in state.scores()]}
    return hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()[:12]


@pytest.mark.parametrize("case", sorted(BEFORE_ISSUE_17))
def test_the_option_keeps_the_earlier_games_exactly(case: str) -> None:
    players, seed = (int(part) for part in case.split("-"))
    state = play_randomly(_new(players, seed, **ON), random.Random(seed))
    assert _fingerprint(state) == BEFORE_ISSUE_17[case]


def test_the_default_changes_some_of_those_games() -> None:
    changed = [case for case in BEFORE_ISSUE_17 if _fingerprint(play_randomly(
        _new(*(int(part) for part in case.split("-"))),
        random.Random(int(case.split("-")[1])))) != BEFORE_ISSUE_17[case]]
    assert changed  # the last item's pair came up in some, and now grants nothing


@pytest.mark.parametrize("option", [False, True])
@pytest.mark.parametrize("deal", ["seed", "table"])
def test_random_playouts_round_trip_and_replay_with_the_option_off_and_on(option: bool,
                                                                          deal: str) -> None:
    """The battery's playout checks, for each setting of ``last_item_extra_action``."""
    for players in (2, 4):
        rng = random.Random(players)
        state = GAME.new_game([f"P{index + 1}" for index in range(players)], seed=players,
                              options={"last_item_extra_action": option}, deal=deal)
        steps = 0
        while not state.is_over():
            reveal = random_reveal(state, rng) if state.is_chance() else None
            state.apply(reveal or rng.choice(state.legal_actions()))
            steps += 1
            if steps % 5 == 0 or state.is_over():
                document = json.loads(json.dumps(state.to_json()))
                assert GAME.from_json(document) == state
        assert state.legal_actions() == [] and state.current_player() is None
        assert GAME.replay(json.loads(json.dumps(state.to_json()))) == state
        for score in state.scores():
            assert score.total == sum(score.parts.values())
