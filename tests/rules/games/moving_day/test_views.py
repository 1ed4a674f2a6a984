"""Moving Day's read-only views: what the station's presenter reads instead of ``data``."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import get_game
from rules.games.moving_day import BoxFacts, MovingDayState, VehicleView


def _played(turns: int, seed: int = 4) -> MovingDayState:
    state = get_game("moving-day").new_game(["Ana", "Ben", "Cas"], seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, MovingDayState)
    return state


def test_box_facts_are_every_box_with_its_features() -> None:
    state = _played(0)
    facts = state.box_facts()
    fields = state.setup["box_fields"]
    assert set(facts) == set(state.setup["boxes"])
    for box, values in state.setup["boxes"].items():
        assert dataclasses.asdict(facts[box]) == dict(zip(fields, values, strict=True))
    assert isinstance(facts["box-07"], BoxFacts) and facts.get("no-such-box") is None


def test_vehicles_are_each_players_grids_layouts_and_helpers() -> None:
    state = _played(7)
    assert state.vehicle_names() == tuple(v["name"] for v in state.setup["vehicles"])
    for index, player in enumerate(state.data["players"]):
        vehicles = state.vehicles(index)
        assert all(isinstance(vehicle, VehicleView) for vehicle in vehicles)
        assert [vehicle.name for vehicle in vehicles] == list(state.vehicle_names())
        for vehicle, layout, raw in zip(vehicles, state.setup["vehicles"], player["vehicles"],
                                        strict=True):
            assert vehicle.layout == tuple(layout["layout"])
            assert [list(line) for line in vehicle.grid] == raw["grid"]
            assert list(vehicle.helpers) == raw["helpers"]
        assert state.snacks(index) == player["snacks"]
    assert any(box for vehicle in state.vehicles(0) for line in vehicle.grid for box in line)


def test_the_views_are_read_only_copies() -> None:
    state = _played(3)
    with pytest.raises(TypeError):
        state.box_facts()["box-07"] = BoxFacts("books", "red", False, 1, 1)  # type: ignore[index]
    vehicle = state.vehicles(0)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        vehicle.name = "van"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.box_facts()["box-07"].weight = 9  # type: ignore[misc]
    before = state.to_json()
    state.apply(random.Random(1).choice(state.legal_actions()))
    assert vehicle == VehicleView(vehicle.name, vehicle.layout, vehicle.grid, vehicle.helpers)
    assert before != state.to_json()  # the view kept its own values, the game moved on


def test_facts_of_one_box_are_its_entry_of_box_facts() -> None:
    state = _played(0)
    facts = state.box_facts()
    assert all(state.facts_of_box(box) == facts[box] for box in facts)
    assert state.facts_of_box("no-such-box") is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.facts_of_box("box-07").weight = 9  # type: ignore[union-attr,misc]
