"""Removal's engine: house availability, Helper 2, extra actions, drives, rounds and the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.games.removal import RemovalState
from rules.playout import play_randomly

GAME = get_game("removal")
CATALOGUE = default_catalogue("removal")
ITEMS = {item["id"]: item for item in CATALOGUE["items"]}


def _new(players: int = 2, seed: int = 1, **options: Any) -> RemovalState:
    state = GAME.new_game([f"P{index + 1}" for index in range(players)], seed=seed,
                          options=options)
    assert isinstance(state, RemovalState)
    return state


def _restored(state: RemovalState, change) -> RemovalState:
    """A copy of ``state`` whose position has been edited by ``change(data)``."""
    document = json.loads(json.dumps(state.to_json()))
    change(document["state"])
    restored = GAME.from_json(document)
    assert isinstance(restored, RemovalState)
    return restored


def _first_load(state: RemovalState, item: str, helpers: list[int] | None = None) -> dict:
    placement = state.legal_placements(item, helpers or [])[0]
    return {"type": "load", "item": item, "row": placement.row, "col": placement.col,
            "rotation": placement.rotation, "flip": placement.flip, "helpers": helpers or []}


def _common_items(count: int) -> list[str]:
    return [item for item, entry in ITEMS.items()
            if not (entry.get("heavy") or entry.get("delicate"))][:count]


# -- setup ---------------------------------------------------------------------------------
def test_setup_fills_every_area_and_places_waiting_items() -> None:
    state = _new(players=3)
    layout = CATALOGUE["house"]["3-4"]["layout"]
    for row, line in enumerate(layout):
        for col, area in enumerate(line):
            tile = state.data["house"][row][col]
            if area in "I":
                assert tile in ITEMS
            elif area == "B":
                assert tile.startswith("B")
            else:  # no area, or an area used only with 4 players
                assert tile is None
    assert len(state.data["waiting"]) == 4
    assert len(_new(players=2).data["waiting"]) == 3
    four = _new(players=4)
    assert all(four.data["house"][0][col] for col in (0, 6))


def test_keepsakes_are_drawn_only_in_the_variant() -> None:
    assert _new().setup["keepsakes"] == []
    drawn = _new(keepsakes=True).setup["keepsakes"]
    assert len(drawn) == 3 and len(set(drawn)) == 3


# -- availability --------------------------------------------------------------------------------
# The 2-player side:  ".IBI." / "IIIII" / "IB.BI" / "IIIII" / ".III."
def _tile_at(state: RemovalState, row: int, col: int) -> str:
    return state.data["house"][row][col]


def test_available_items_have_nothing_directly_underneath() -> None:
    state = _new()
    available = set(state.available_items())
    expected = {(4, 1), (4, 2), (4, 3), (3, 0), (3, 4), (1, 2)}  # bottom row, above gaps
    assert available == {_tile_at(state, row, col) for row, col in expected}


def test_taking_an_item_frees_the_one_above() -> None:
    state = _new()
    above = _tile_at(state, 3, 2)
    assert above not in state.available_items()
    state.apply({"type": "store", "item": _tile_at(state, 4, 2)})
    assert above in state.available_items()


def test_an_unavailable_item_is_refused() -> None:
    state = _new()
    with pytest.raises(IllegalAction, match="not available"):
        state.apply({"type": "store", "item": _tile_at(state, 3, 2)})


def test_helper_2_takes_an_item_directly_above_an_available_one() -> None:
    state = _new()
    reachable = set(state.reachable_with_helper_2())
    assert reachable == {_tile_at(state, row, col)
                         for row, col in [(3, 1), (3, 2), (3, 3), (2, 0), (2, 4), (0, 2)]}
    two_above = _tile_at(state, 2, 1)
    assert two_above not in reachable
    with pytest.raises(IllegalAction):
        state.apply({"type": "store", "item": two_above, "helpers": [2]})
    state.apply({"type": "store", "item": _tile_at(state, 3, 1), "helpers": [2]})
    assert state.data["players"][0]["helpers"] == [1, 3]
    assert two_above in state.available_items()  # the area under it is empty now


def test_helper_2_cannot_be_played_twice() -> None:
    state = _new()
    state.apply({"type": "store", "item": _tile_at(state, 3, 1), "helpers": [2]})
    state.apply({"type": "store", "item": _tile_at(state, 4, 1)})
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(_first_load(state, _tile_at(state, 4, 3), [2]))


def test_legal_actions_offer_helper_2_only_for_reachable_items() -> None:
    state = _new()
    reachable = set(state.reachable_with_helper_2())
    for action in state.legal_actions():
        if action.get("item") in reachable:
            assert 2 in action["helpers"]
        else:
            assert 2 not in action.get("helpers", [])


# -- extra actions -------------------------------------------------------------------------------
def _with_truck_item(state: RemovalState, item: str) -> RemovalState:
    def change(data: dict) -> None:
        data["players"][0]["truck"] = [{"item": item, "row": 5, "col": 0, "rotation": 0,
                                        "flip": True, "damaged": False, "paired": False}]
    return _restored(state, change)


def _matching_pair(state: RemovalState) -> tuple[str, str]:
    """An available common item and another common item (not on the board) with its symbol."""
    on_board = {tile for line in state.data["house"] for tile in line if tile}
    for item in state.available_items():
        symbol = ITEMS.get(item, {}).get("symbol")
        for other, entry in ITEMS.items():
            if (other not in on_board and entry["symbol"] == symbol and entry["shape"] == ["#"]
                    and not entry.get("heavy")):
                return item, other
    raise AssertionError("no matching pair in this setup")


def test_a_pair_of_symbols_gives_the_same_player_one_mandatory_extra_action() -> None:
    state = _new(seed=4)
    item, partner = _matching_pair(state)
    state = _with_truck_item(state, partner)
    state.apply(_first_load(state, item))
    assert state.data["extra_action"] is True
    assert state.current_player() == 0
    assert state.data["last"]["extra_action"] is True
    state.apply({"type": "drive"})
    assert state.current_player() == 1 and state.data["extra_action"] is False


def test_the_stored_items_symbol_does_not_count() -> None:
    state = _new(seed=4)
    item, partner = _matching_pair(state)
    state = _restored(state, lambda data: data["players"][0].update(storage=partner))
    state.apply(_first_load(state, item))
    assert state.data["extra_action"] is False and state.current_player() == 1


# -- drive, helpers, the end --------------------------------------------------------------------
def test_an_empty_truck_does_not_drive_unless_the_option_allows_it() -> None:
    with pytest.raises(IllegalAction, match="empty"):
        _new().apply({"type": "drive"})
    state = _new(empty_truck_drives=True)
    state.apply({"type": "drive"})
    assert state.data["players"][0]["track"] == 10 - 12  # all twelve "−1" squares visible


def test_a_drive_scores_moves_the_load_to_the_stack_and_keeps_the_storage() -> None:
    state = _new(seed=2)
    first, second = state.available_items()[:2]
    state.apply({"type": "store", "item": first})
    state.apply({"type": "store", "item": second})
    state.apply({"type": "load-stored", **_placement_of(state, first)})
    state.apply(_first_load(state, state.available_items()[0]))
    truck_items = [record["item"] for record in state.data["players"][0]["truck"]]
    state = _restored(state, lambda data: data.update(turn=0, extra_action=False))
    state.apply({"type": "drive"})
    player = state.data["players"][0]
    assert player["truck"] == [] and player["transported"] == truck_items
    assert player["storage"] is None  # loaded from storage above
    assert state.data["last"]["drive"]["total"] == player["track"]


def _placement_of(state: RemovalState, item: str) -> dict:
    placement = state.legal_placements(item)[0]
    return {"row": placement.row, "col": placement.col, "rotation": placement.rotation,
            "flip": placement.flip}


def test_illegal_placements_are_refused_with_the_reason() -> None:
    state = _new()
    item = _tile_at(state, 4, 1)
    with pytest.raises(IllegalAction, match="no square rests"):
        state.apply({"type": "load", "item": item, "row": 0, "col": 3})
    for rotation in (45, 90.0, "90", True):
        with pytest.raises(IllegalAction, match="rotation"):
            state.apply({"type": "load", "item": item, "row": 4, "col": 3, "rotation": rotation})
    with pytest.raises(IllegalAction, match="whole number"):
        state.apply({"type": "load", "item": item, "row": "4", "col": 3})
    with pytest.raises(IllegalAction, match="is not on the house board"):
        state.apply({"type": "load", "item": "I99", "row": 4, "col": 3})
    assert state.log == []


def test_rounds_refill_the_house_from_the_waiting_items() -> None:
    state = _new(seed=6)
    rng = random.Random(6)
    waiting = list(state.data["waiting"])
    while state.data["round"] == 1:
        state.apply(rng.choice(state.legal_actions()))
    assert state.data["house"][-1][1:4] == waiting
    assert len(state.data["waiting"]) == 3
    while state.data["round"] == 2:
        state.apply(rng.choice(state.legal_actions()))
    assert state.data["waiting"] == []
    play_randomly(state, rng)
    assert state.is_over() and state.data["round"] == 3


def test_final_scoring_adds_storage_helpers_boxes_and_antiques() -> None:
    state = play_randomly(_new(players=3, seed=8, keepsakes=True), random.Random(8))
    for score, player in zip(state.scores(), state.data["players"], strict=True):
        assert score.parts["track"] == player["track"]
        assert score.parts["helpers"] == sum(player["helpers"])
        assert score.parts["storage"] == (-2 if player["storage"] else 0)
        boxes = [tile for tile in player["transported"] if tile.startswith("B")]
        assert score.parts["boxes"] == sum(
            next(box["value"] for box in CATALOGUE["boxes"] if box["id"] == tile)
            for tile in boxes)


def test_the_final_drive_empties_every_truck() -> None:
    state = play_randomly(_new(players=4, seed=9), random.Random(9))
    assert all(player["truck"] == [] for player in state.data["players"])


def test_ties_go_to_fewer_antiques_then_are_shared() -> None:
    state = play_randomly(_new(seed=3), random.Random(3))
    spoon, rocking_chair = "I48", "I31"
    assert ITEMS[rocking_chair].get("antique") and not ITEMS[spoon].get("antique")

    def hands(tracks: list[int], stacks: list[list[str]]):
        def change(data: dict) -> None:
            for player, track, stack in zip(data["players"], tracks, stacks, strict=True):
                player.update(track=track, helpers=[], storage=None, transported=stack)
        return change

    fewer = _restored(state, hands([53, 50], [[spoon], [rocking_chair]]))
    assert [score.total for score in fewer.scores()] == [53, 53]
    assert fewer.winners() == ["P1"]
    shared = _restored(state, hands([50, 50], [[rocking_chair], [rocking_chair]]))
    assert shared.winners() == ["P1", "P2"]
    ahead = _restored(state, hands([40, 50], [[spoon], [rocking_chair]]))
    assert ahead.winners() == ["P2"]
