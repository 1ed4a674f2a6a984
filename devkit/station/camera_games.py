"""Whole hand-dealt games played in front of the camera, refereed by the station alone.

A seeded engine game gives the truth (every placement, the final scores); the
photoshoot model (:mod:`devkit.vision.photoshoot`, written apart from the reader)
renders the table as people play it — each state held a few frames, a card held
still just above the mat before it is laid, a hand lingering over it, sometimes a
lamp's glint at a cell's edge — into a replay folder; the station then plays a game
dealt by hand (``deal="table"``: it knows no card before the camera sees it) from
that folder through :func:`station.live.camera.attach`, what ``packref serve
--camera TABLE=FOLDER`` runs. Nobody steps in. The game is refereed right when the
station's game ends with the truth's warehouses and scores and no flag was raised.

Used by ``benchmarks/vision_games.py`` and ``tests/station/e2e/test_camera_games.py``.

Example::

    >>> states, truth = small_warehouse_states(seed=3, placements=2)
    >>> len(states), sorted(truth)
    (3, ['grids', 'placements', 'scores'])
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devkit.vision.photoshoot.sequences import Pacing, table_frames
from rules import get_game
from station.live.camera import attach
from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore, open_database

GAME = "small-warehouse"
PLAYERS = ("Ana", "Ben")
TABLE = "cam"


@dataclass
class CameraGame:
    """How one game went: what the station ended with against the truth."""

    seed: int
    mode: str
    placements: int  # the truth's
    applied: int  # placements the station applied
    flags: list[str] = field(default_factory=list)  # every flag raised, in words
    grids_right: bool = False
    scores_right: bool = False
    frames: int = 0
    unseen: int = 0  # placements (starting cards too) a glare hides in every still frame

    @property
    def seeable(self) -> bool:
        """Whether the camera could see every card laid (no glare washing one out)."""
        return self.unseen == 0

    @property
    def right(self) -> bool:
        """Refereed right: the same warehouses and scores, every placement, no flag."""
        return (self.grids_right and self.scores_right and not self.flags
                and self.applied == self.placements)

    def __repr__(self) -> str:
        verdict = "right" if self.right else "WRONG"
        return (f"<CameraGame seed={self.seed} {self.mode} {verdict} "
                f"{self.applied}/{self.placements} placements, {len(self.flags)} flags"
                f"{f', {self.unseen} unseen' if self.unseen else ''}>")


def small_warehouse_states(seed: int, placements: int | None = None,
                           players: tuple[str, ...] = PLAYERS) -> tuple[list[dict], dict]:
    """The table states of a seeded game played at random (first: the starting cards laid),
    and its truth (``grids``, ``scores``, ``placements``). ``placements``: stop after so many."""
    state = get_game(GAME).new_game(list(players), seed=seed)
    rng = random.Random(seed)
    states = [_table_state(state)]
    while not state.is_over() and (placements is None or len(states) <= placements):
        state.apply(rng.choice(state.legal_actions()))
        states.append(_table_state(state))
    truth = {"grids": [list(grid) for grid in state.data["grids"]],
             "scores": {score.player: score.total for score in state.scores()},
             "placements": len(states) - 1}
    return states, truth


def _table_state(state: Any) -> dict:
    rows, cols = state.options["warehouse_rows"], state.options["warehouse_cols"]
    return {"mats": [{"id": index, "rows": rows, "cols": cols, "kind": "colour",
                      "cells": list(grid)} for index, grid in enumerate(state.data["grids"])]}


def play_small_warehouse(seed: int, mode: str = "real", placements: int | None = None,
                         pacing: Pacing | None = None, folder: Path | None = None) -> CameraGame:
    """Render one game (``mode``: the photoshoot's ``plain`` or ``real``) and referee it."""
    states, truth = small_warehouse_states(seed, placements)
    with tempfile.TemporaryDirectory(prefix="packref-camera-game-") as scratch:
        frames = Path(folder or Path(scratch) / "frames")
        shot = table_frames(states, pacing or Pacing(), rng=seed, mode=mode, out=frames)
        game = referee_replay(frames, truth, Path(scratch))
    game.seed, game.mode, game.frames = seed, mode, len(shot["frames"])
    game.unseen = unseen_placements(states, shot["frames"])
    return game


def unseen_placements(states: list[dict], frames: list[dict]) -> int:
    """The cards laid that no still frame shows: more than half the cells they changed are
    under glare (or a hand) in every still frame of their state (the truth's ``occluded``)."""
    unseen = 0
    for index, state in enumerate(states):
        before = states[index - 1]["mats"] if index else None
        stills = [frame for frame in frames if frame.get("state") == index
                  and frame.get("phase") == "still"]
        for position, mat in enumerate(state["mats"]):
            old = before[position]["cells"] if before else ["." * mat["cols"]] * mat["rows"]
            changed = [(r, c) for r in range(mat["rows"]) for c in range(mat["cols"])
                       if mat["cells"][r][c] != old[r][c]]
            if changed and all(_mostly_hidden(still, mat["id"], changed) for still in stills):
                unseen += 1
    return unseen


def _mostly_hidden(frame: dict, mat_id: int, cells: list[tuple[int, int]]) -> bool:
    mat = next(m for m in frame["mats"] if m["id"] == mat_id)
    hidden = sum(mat["occluded"][r][c] == "o" for r, c in cells)
    return hidden * 2 > len(cells)


def referee_replay(frames: Path, truth: dict, scratch: Path,
                   players: tuple[str, ...] = PLAYERS) -> CameraGame:
    """Play a hand-dealt game at a fresh station from the replay folder ``frames``."""
    database = open_database(f"sqlite:///{scratch / 'packref.sqlite3'}")
    try:
        station = Station(EventStore(database), Hub())
        station.create_table("Camera table", TABLE)
        station.start_game(TABLE, GAME, list(players), 0, None, "organiser", deal="table")
        attach(station, TABLE, str(frames))
        return _judged(station, truth)
    finally:
        database.close()


def _judged(station: Station, truth: dict) -> CameraGame:
    current = station.refresh(TABLE).current
    events = station.store.events(TABLE)
    flags = [str(event.payload.get("reason", "")) for event in events if event.kind == "flag"]
    state = current.state
    placed = sum(len(records) for records in state.data["placed"]) - len(truth["grids"])
    scores = {score.player: score.total for score in state.scores()}
    return CameraGame(seed=0, mode="", placements=truth["placements"], applied=placed,
                      flags=flags, grids_right=state.data["grids"] == truth["grids"],
                      scores_right=scores == truth["scores"])
