"""Removal's read-only views: what the station's presenter reads instead of ``data``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import get_game
from rules.games.removal import RemovalPlayer, RemovalState, TileFacts, TruckTile
from rules.playout import random_step


def _played(steps: int, seed: int = 3) -> RemovalState:
    state = get_game("removal").new_game(["Ana", "Ben", "Cas"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(random_step(state, rng))
    assert isinstance(state, RemovalState)
    return state


def test_tile_facts_are_every_item_and_box_of_the_copy() -> None:
    state = _played(0)
    catalogue = state.setup["catalogue"]
    entries = catalogue["items"] + catalogue["boxes"]
    facts = state.tile_facts()
    assert list(facts) == [entry["id"] for entry in entries]
    for entry in entries:
        assert facts[entry["id"]] == TileFacts(entry.get("name"), tuple(entry["shape"]))
    with pytest.raises(TypeError):
        facts["I01"] = TileFacts(None, ("#",))  # type: ignore[index]


def test_each_players_side_of_the_table() -> None:
    state = _played(30)
    layouts = state.setup["catalogue"]["trucks"]
    assert state.round_number() == state.data["round"]
    for index, raw in enumerate(state.data["players"]):
        side = state.player_view(index)
        assert isinstance(side, RemovalPlayer)
        assert (side.track, side.storage, list(side.helpers)) == \
            (raw["track"], raw["storage"], raw["helpers"])
        assert side.truck == tuple(
            TruckTile(tile["item"], tile["row"], tile["col"], tile["rotation"], tile["flip"],
                      tile["damaged"]) for tile in raw["truck"])
        assert state.truck_layout(index) == tuple(layouts[index % len(layouts)])
    assert any(state.player_view(index).truck for index in range(3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.player_view(0).track = 99  # type: ignore[misc]


def test_facts_of_one_tile_are_its_entry_of_tile_facts() -> None:
    state = _played(0)
    facts = state.tile_facts()
    assert all(state.facts_of_tile(tile) == facts[tile] for tile in facts)
    assert state.facts_of_tile("no-such-tile") is None and state.facts_of_tile("") is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.facts_of_tile("I01").name = "sofa"  # type: ignore[union-attr,misc]
