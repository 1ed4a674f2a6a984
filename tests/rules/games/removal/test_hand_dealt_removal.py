"""A whole game of Removal dealt by hand, refereed from what the table shows.

The test is the table: it shuffles the bag and the boxes with its own generator
(never the engine's), lays out the house, moves the tiles and keeps its own
score with the rulebook's rules. The engine learns the game only from
observations, as the station would hand them on:

- the deal, read by a person (a reading of the house area, the waiting items and
  the keepsake cards: the camera films only the trucks), once with a hand over an
  area and then whole;
- each truck through the camera: tags mats as ``vision read`` gives them, through
  the stability filter (a hand over the mat now and then, frames repeated), then
  ``vision.games.removal.read_truck``, with the Helper cards declared beside it;
- a store, which no camera sees, declared by a person.

One placement is made against the rules: it alone must be flagged, and not applied.
The final scores must equal the rulebook's scoring of what the table holds,
with each drive scored by ``packref removal truck``'s function (docs/formats.md §4).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.engine import REVEAL, State
from rules.games.removal.referee import Referee
from station.games.removal.truck import truck_document
from station.jsonin import Node
from vision.games.removal import footprint, read_truck
from vision.stability import Stabilizer

CATALOGUE = default_catalogue("removal")
ENTRIES = {entry["id"]: entry for entry in CATALOGUE["items"] + CATALOGUE["boxes"]}
SHAPES = {tile: entry["shape"] for tile, entry in ENTRIES.items()}
TAGS = {300 + 2 * index + back: {"piece": tile, "face": "back" if back else "front"}
        for index, tile in enumerate(sorted(ENTRIES)) for back in (0, 1)}
TAG_OF = {(piece["piece"], piece["face"]): tag for tag, piece in TAGS.items()}
STABLE = 3
ANTIQUES = (0, 3, 5, 8, 10, 13, 15, 17, 20)


# ------------------------------------------------------------------------- the table

def tags_mat(layout: list[str], records: list[dict[str, Any]], shapes: dict[str, list[str]],
             tag_of: dict[tuple[str, str], int], mat: int) -> dict[str, Any]:
    """A truck's tags mat as ``vision read`` gives it, with these tiles on it (engine
    placements): covered cells ``X``, each tile's tag on its sticker square (its back tag
    when flipped) unless a later tile covers it (Helper 3 lets tiles overlap)."""
    cells = [["."] * len(layout[0]) for _ in layout]
    tags: list[dict[str, Any]] = []
    for record in records:
        shape = shapes[record["item"]]
        relative = footprint(shape, 0, 0, record["rotation"], record["flip"])
        row = record["row"] - min(r for r, _ in relative)
        col = record["col"] - min(c for _, c in relative)
        covered = footprint(shape, row, col, record["rotation"], record["flip"])
        tags = [tag for tag in tags if (tag["row"], tag["col"]) not in covered]
        face = "back" if record["flip"] else "front"
        tags.append({"id": tag_of[record["item"], face], "row": row, "col": col,
                     "rotation": record["rotation"]})
        for r, c in covered:
            cells[r][c] = "X"
    return {"id": mat, "found": True, "cells": ["".join(line) for line in cells],
            "tags": tags}

class Table:
    """The components on the table, dealt and moved by hand (the test's generator)."""

    def __init__(self, rng: random.Random, players: list[str], keepsakes: bool) -> None:
        self.rng, self.players = rng, players
        house = CATALOGUE["house"]["2" if len(players) == 2 else "3-4"]
        self.layout, self.waiting_count = house["layout"], house["waiting"]
        self.bag = [item["id"] for item in CATALOGUE["items"]]
        self.boxes = [box["id"] for box in CATALOGUE["boxes"]]
        rng.shuffle(self.bag)
        rng.shuffle(self.boxes)
        self.keepsakes = rng.sample(CATALOGUE["keepsakes"], 3) if keepsakes else []
        self.house: list[list[str | None]] = [[None] * len(line) for line in self.layout]
        self.waiting: list[str] = []
        self.round, self.over = 1, False
        count = len(players)
        self.trucks: list[list[dict[str, Any]]] = [[] for _ in range(count)]
        self.loads: list[list[dict[str, Any]]] = [[] for _ in range(count)]  # since the drive
        self.storage: list[str | None] = [None] * count
        self.helpers = [[1, 2, 3] for _ in range(count)]
        self.stacks: list[list[str]] = [[] for _ in range(count)]
        self.track = [0] * count
        self.deal()

    def deal(self) -> None:
        """Setup steps 5–7 (and the end of a round): boxes, items, the bottom row from the
        waiting items (each by its arrow, left to right), new waiting items."""
        waiting, bottom = self.waiting, len(self.layout) - 1
        for row, line in enumerate(self.layout):
            for col, area in enumerate(line):
                if area == "B":
                    self.house[row][col] = self.boxes.pop() if self.boxes else None
                elif area == "I" or (area == "4" and len(self.players) == 4):
                    if row == bottom and waiting:
                        self.house[row][col] = waiting.pop(0)
                    else:
                        self.house[row][col] = self.bag.pop() if self.bag else None
        count = self.waiting_count if self.round < 3 else 0
        self.waiting = [self.bag.pop() for _ in range(min(count, len(self.bag)))]

    def reading(self, hand: bool) -> dict[str, Any]:
        """What a person reads of the deal; with ``hand``, one area is hidden (``?``)."""
        house = [list(line) for line in self.house]
        if hand:
            filled = [(r, c) for r, line in enumerate(house) for c, t in enumerate(line) if t]
            row, col = self.rng.choice(filled)
            house[row][col] = "?"
        return {"kind": "house", "house": house, "waiting": list(self.waiting),
                "keepsakes": list(self.keepsakes)}

    def take(self, item: str) -> None:
        for line in self.house:
            if item in line:
                line[line.index(item)] = None
                return
        raise AssertionError(f"{item} is not on the house board")

    def place(self, player: int, item: str, action: dict[str, Any]) -> None:
        record = {"item": item, **{key: action[key] for key in ("row", "col", "rotation",
                                                               "flip")}}
        self.trucks[player].append(record)
        self.loads[player].append({"tile": item, **{k: v for k, v in record.items()
                                                    if k != "item"},
                                   "helpers": [h for h in action["helpers"] if h != 2]})

    def play(self, player: int, action: dict[str, Any]) -> bool:
        """Carry out a player's action on the table; True when it emptied the house ("The
        round ends when the last Item has been picked up and placed.")."""
        for helper in action.get("helpers", []):
            self.helpers[player].remove(helper)
        kind = action["type"]
        if kind in ("load", "store"):
            self.take(action["item"])
        if kind == "store":
            self.storage[player] = action["item"]
        elif kind == "load":
            self.place(player, action["item"], action)
        elif kind == "load-stored":
            item, self.storage[player] = self.storage[player], None
            assert item is not None
            self.place(player, item, action)
        else:
            self.drive(player, final=False)
        return kind in ("load", "store") and not any(t for line in self.house for t in line)

    def end_round(self) -> None:
        if self.round < 3:
            self.round += 1
            self.deal()
            return
        for player in range(len(self.players)):  # "All Trucks drive off and score"
            if self.trucks[player]:
                self.drive(player, final=True)
        self.over = True

    def drive(self, player: int, final: bool) -> None:
        """Score the truck with docs/formats.md §4's function, empty it onto the stack."""
        trucks = CATALOGUE["trucks"]
        document = {"truck": trucks[player % len(trucks)],
                    "tiles": {tile["tile"]: _tile_json(tile["tile"])
                              for tile in self.loads[player]},
                    "placements": self.loads[player], "drive": True, "final": final}
        scored = truck_document(Node(document))
        assert all(placement["ok"] for placement in scored["placements"])
        self.track[player] += scored["drive"]["total"]
        self.stacks[player] += [record["item"] for record in self.trucks[player]]
        self.trucks[player], self.loads[player] = [], []

    # -- the camera --------------------------------------------------------------------------
    def mat(self, player: int, records: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The truck's tags mat as ``vision read`` gives it: covered cells ``X``, the tag of
        each tile on its sticker square (its back tag when flipped) unless a later tile
        covers it."""
        trucks = CATALOGUE["trucks"]
        return tags_mat(trucks[player % len(trucks)],
                        self.trucks[player] if records is None else records, SHAPES, TAG_OF,
                        player)

    def frames(self, overrides: dict[int, list[dict[str, Any]]] | None = None
               ) -> list[list[dict[str, Any]]]:
        """The camera's frames of the trucks: now and then a hand over a mat first (``?``
        cells, tags under it unseen), then the still table, repeated."""
        overrides = overrides or {}
        clean = [self.mat(player, overrides.get(player)) for player in range(len(self.players))]
        frames = []
        if self.rng.random() < 0.4:
            hidden = [dict(mat) for mat in clean]
            player = self.rng.randrange(len(clean))
            row, col = self.rng.randrange(5), self.rng.randrange(7)
            hand = {(row + dr, col + dc) for dr in (0, 1) for dc in (0, 1)}
            hidden[player]["cells"] = ["".join("?" if (r, c) in hand else ch
                                               for c, ch in enumerate(line))
                                       for r, line in enumerate(clean[player]["cells"])]
            hidden[player]["tags"] = [tag for tag in clean[player]["tags"]
                                      if (tag["row"], tag["col"]) not in hand]
            frames.append(hidden)
        frames += [clean] * (STABLE + (self.rng.random() < 0.3))
        return frames


def _tile_json(tile: str) -> dict[str, Any]:
    """A catalogue tile in docs/formats.md §4's words."""
    entry = ENTRIES[tile]
    described: dict[str, Any] = {"shape": entry["shape"], "symbol": entry["symbol"]}
    for key in ("heavy", "upright", "antique"):
        if entry.get(key):
            described[key] = True
    if entry.get("delicate"):
        described["delicate"] = entry["delicate"]
    if "value" in entry:
        described["box"] = True
    return described


# -------------------------------------------------------------------- the rulebook's score
def rulebook_scores(table: Table) -> tuple[list[int], list[str]]:
    """Final scoring (End of the Game 2–4, Keepsake variant) and the winners."""
    totals = []
    symbol_counts = []
    for player in range(len(table.players)):
        stack = [ENTRIES[tile] for tile in table.stacks[player]]
        antiques = sum(1 for entry in stack if entry.get("antique"))
        antique_points = (ANTIQUES[antiques] if antiques < len(ANTIQUES)
                          else ANTIQUES[-1] + 2 * (antiques - len(ANTIQUES) + 1))
        totals.append(table.track[player] + sum(entry.get("value", 0) for entry in stack)
                      + antique_points - 2 * (table.storage[player] is not None)
                      + sum(table.helpers[player]))
        symbol_counts.append([entry["symbol"] for entry in stack])
    for card in table.keepsakes:
        counts = [symbols.count(card) for symbols in symbol_counts]
        leaders = [index for index, count in enumerate(counts) if count and count == max(counts)]
        for index in leaders:
            totals[index] += 4 if len(leaders) == 1 else 2
    antiques_of = [sum(1 for tile in stack if ENTRIES[tile].get("antique"))
                   for stack in table.stacks]
    best = max((total, -antiques_of[index]) for index, total in enumerate(totals))
    winners = [name for index, name in enumerate(table.players)
               if (totals[index], -antiques_of[index]) == best]
    return totals, winners


# ------------------------------------------------------------------------ the station
class Station:
    """Hands observations to the referee and applies what it returns; counts the flags."""

    def __init__(self, state: State) -> None:
        self.state, self.referee = state, Referee()
        self.flags: list[str] = []
        self.stabilizer = Stabilizer(STABLE)
        self.last: dict[int, dict[str, Any]] = {}

    def observe(self, observation: dict[str, Any]) -> list[dict[str, Any]]:
        try:
            actions = self.referee.translate(self.state, observation)
        except IllegalAction as flag:
            self.flags.append(flag.reason)
            return []
        for action in actions:
            self.state.apply(action)
        return actions

    def declare(self, action: dict[str, Any]) -> None:
        self.state.apply(action)

    def camera(self, frames: list[list[dict[str, Any]]], helpers: list[int]
               ) -> list[dict[str, Any]]:
        """Run frames through the stability filter; each truck that changed is observed
        (and, once accepted, observed again as a repeated identical reading: it must
        change nothing)."""
        done: list[dict[str, Any]] = []
        for mats in frames:
            stable = self.stabilizer.update(mats)
            if stable is None:
                continue
            for mat in stable:
                if self.last.get(mat["id"]) == mat:
                    continue
                self.last[mat["id"]] = mat
                truck = read_truck(mat, TAGS, SHAPES)
                observation = {"kind": "truck", "player": self.state.players[mat["id"]],
                               **truck, "helpers": helpers}
                flags = len(self.flags)
                done += self.observe(observation)
                if len(self.flags) == flags:  # accepted: the same reading again is nothing new
                    assert self.observe(observation) == [] and len(self.flags) == flags
        return done


# --------------------------------------------------------------------------- the game
def _illegal_spot(state: State, action: dict[str, Any]) -> dict[str, Any] | None:
    """The tile of ``action`` at a spot inside the truck where nothing holds it up."""
    for row in range(3):
        for col in range(8):
            trial = {**action, "row": row, "col": col}
            try:
                state.check(trial)
            except IllegalAction as refused:
                if "no square rests" in refused.reason:
                    return trial
    return None


def _read_deal(station: Station, table: Table) -> None:
    """A person reads the deal: first with a hand over an area, then whole."""
    partial = station.observe(table.reading(hand=True))
    assert all(action["type"] == REVEAL for action in partial)
    station.observe(table.reading(hand=False))
    assert not station.state.is_chance()
    assert station.observe(table.reading(hand=False)) == []  # read again: nothing new


def play_dealt_by_hand(seed: int, players: list[str], keepsakes: bool) -> None:
    rng = random.Random(seed)  # the table's own: the engine has no seed here
    table = Table(rng, players, keepsakes)
    state = get_game("removal").new_game(players, options={"keepsakes": keepsakes},
                                         deal="table")
    station = Station(state)
    assert station.camera(table.frames(), []) == []  # empty trucks, before the deal is read
    _read_deal(station, table)
    illegal_shown = False
    while not table.over:
        player = state.current_player()
        assert player is not None
        action = rng.choice(state.legal_actions())
        if action["type"] == "store":
            station.declare(action)  # no camera sees the storage: a person declares it
            round_over = table.play(player, action)
        else:
            if (not illegal_shown and action["type"] == "load" and len(state.log) > 40
                    and (wrong := _illegal_spot(state, action)) is not None):
                flags = len(station.flags)
                shown = [*table.trucks[player], {"item": action["item"], **{
                    key: wrong[key] for key in ("row", "col", "rotation", "flip")}}]
                assert station.camera(table.frames({player: shown}), action["helpers"]) == []
                assert len(station.flags) == flags + 1
                assert "no square rests on the floor or an item" in station.flags[-1]
                illegal_shown = True  # the player sees the flag and lays the tile again
            round_over = table.play(player, action)
            assert station.camera(table.frames(), action["helpers"]) == [action]
        if round_over:
            table.end_round()
        if round_over and not table.over:
            assert state.is_chance() and state.data["round"] == table.round
            assert state.legal_actions() == []
            _read_deal(station, table)
    assert illegal_shown and len(station.flags) == 1
    assert state.is_over()
    totals, winners = rulebook_scores(table)
    assert [score.total for score in state.scores()] == totals
    assert state.winners() == winners
    assert [player["storage"] for player in state.data["players"]] == table.storage


@pytest.mark.parametrize(("seed", "players", "keepsakes"), [
    (1, ["Ana", "Ben"], True),
    (2, ["Ana", "Ben", "Cas"], False),
    (3, ["Ana", "Ben", "Cas", "Dee"], True),
])
def test_a_game_dealt_by_hand_is_refereed_from_what_the_table_shows(
        seed: int, players: list[str], keepsakes: bool) -> None:
    play_dealt_by_hand(seed, players, keepsakes)
