"""Hands are not moves: a card held above the mat, a hand resting on a card just laid and a
glare beside a change, frame by frame through the camera source to a table dealt by hand.

The reader is scripted (each frame *is* what the reader reads from it), so these tests
pin the stability filter and the camera source's waiting, not the reader; the rendered
whole games are in ``tests/station/e2e/test_camera_games.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from devkit.station.camera_games import small_warehouse_states
from station.live import camera
from station.live.camera import CameraSource, camera_layout
from station.live.hub import Hub
from station.live.sources import hand_on
from station.live.station import Station
from station.store import EventStore, open_database
from vision.config import DEFAULT_CONFIG
from vision.reader import Observation

PLAYERS = ["Ana", "Ben"]


class ScriptedReader:
    """Reads frame ``i`` (an array holding ``i``) as the ``i``-th scripted list of mats."""

    config = DEFAULT_CONFIG

    def __init__(self, specs: list[Any], lens: Any = None) -> None:
        self.specs = specs

    def observe(self, image: np.ndarray, remembered: Any = None) -> Observation:
        return Observation(SCRIPT[int(image[0, 0])])


SCRIPT: list[list[dict[str, Any]]] = []


def mats(*grids: list[str]) -> list[dict[str, Any]]:
    return [{"id": index, "found": True, "cells": list(grid), "tags": []}
            for index, grid in enumerate(grids)]


def hide(grid: list[str], cells: set[tuple[int, int]], value: str = "?") -> list[str]:
    return ["".join(value if (r, c) in cells else ch for c, ch in enumerate(row))
            for r, row in enumerate(grid)]


def new_cells(before: list[str], after: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, (a, b) in enumerate(zip(before, after, strict=True))
            for c, (x, y) in enumerate(zip(a, b, strict=True)) if x != y}


def around(cells: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(r + dr, c + dc) for r, c in cells for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if 0 <= r + dr < 8 and 0 <= c + dc < 10}


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> list[list[dict[str, Any]]]:
    monkeypatch.setattr(camera, "Reader", ScriptedReader)
    SCRIPT.clear()
    return SCRIPT


def read(script: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    layout = camera_layout("small-warehouse", PLAYERS)
    frames = [np.full((1, 1), index) for index in range(len(script))]
    return [item.observation for item in CameraSource(frames, layout, fps=3.0)]


def grids_of(observation: dict[str, Any]) -> list[list[str]]:
    return [warehouse["grid"] for warehouse in observation["warehouses"]]


def played(tmp_path: Path, observations: list[dict[str, Any]]) -> Station:
    station = Station(EventStore(open_database(f"sqlite:///{tmp_path / 'db.sqlite3'}")), Hub())
    station.create_table("Cam", "cam")
    station.start_game("cam", "small-warehouse", PLAYERS, 0, None, "organiser", deal="table")
    for observation in observations:
        hand_on(station, "cam", camera.Timed(0.0, observation, "camera"), "camera")
    return station


def flags(station: Station) -> list[Any]:
    return [event for event in station.store.events("cam") if event.kind == "flag"]


def test_a_held_card_and_a_resting_hand_are_not_moves(
        scripted: list[list[dict[str, Any]]], tmp_path: Path) -> None:
    states, _ = small_warehouse_states(seed=3, placements=1)
    start = [mat["cells"] for mat in states[0]["mats"]]
    laid = [mat["cells"] for mat in states[1]["mats"]]
    card = new_cells(start[0], laid[0])
    wrong = hide(start[0], {(r, c + 1) for r, c in card if c + 1 < 10}, "C")  # held, offset
    held = hide(wrong, around(card) - {(r, c + 1) for r, c in card})
    resting = hide(laid[0], around(set(sorted(card)[: len(card) // 2 + 1])))
    scripted += [mats(*start)] * 3 + [mats(held, start[1])] * 2  # a card held above
    scripted += [mats(resting, start[1])] * 4  # a hand rests on the card just laid
    scripted += [mats(*laid)] * 3
    observations = read(scripted)
    assert [grids_of(o) for o in observations] == [start, laid]  # nothing in between
    station = played(tmp_path, observations)
    assert flags(station) == []
    assert station.refresh("cam").current.state.data["grids"] == laid


def test_a_glare_that_stays_beside_a_change_costs_no_state(
        scripted: list[list[dict[str, Any]]], tmp_path: Path) -> None:
    states, _ = small_warehouse_states(seed=3, placements=2)
    start, one, two = ([mat["cells"] for mat in state["mats"]] for state in states)
    glare = {min(new_cells(["." * 10] * 8, start[1]))}  # on Ben's starting card
    frames = [mats(start[0], hide(start[1], glare))] * 4
    frames += [mats(one[0], hide(one[1], glare))] * 4
    frames += [mats(two[0], hide(two[1], glare))] * 12
    scripted += frames
    observations = read(scripted)
    assert [grids_of(o) for o in observations] == [
        [start[0], hide(start[1], glare)], [one[0], hide(one[1], glare)],
        [two[0], hide(two[1], glare)]]  # each state, in order, none lost to the wait
    station = played(tmp_path, observations)
    assert flags(station) == []
    assert station.refresh("cam").current.state.data["grids"] == two


def test_a_hand_over_old_cards_away_from_the_change_does_not_wait(
        scripted: list[list[dict[str, Any]]]) -> None:
    states, _ = small_warehouse_states(seed=3, placements=1)
    start, laid = ([mat["cells"] for mat in state["mats"]] for state in states)
    far = {(0, 0), (0, 1), (7, 9)} - around(new_cells(start[0], laid[0]))
    scripted += [mats(*start)] * 3 + [mats(hide(laid[0], far), laid[1])] * 3
    observations = read(scripted)
    assert len(observations) == 2 and grids_of(observations[1])[0] == hide(laid[0], far)
    assert DEFAULT_CONFIG.part_hidden_frames > 3  # passed on at once, not after the wait
