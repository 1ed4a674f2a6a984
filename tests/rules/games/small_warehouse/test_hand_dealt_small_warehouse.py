"""A whole game of Small Warehouse dealt by hand, refereed from the camera's readings alone.

The test is the table: it shuffles and deals the physical cards with its own
``random.Random`` (never the engine's), plays both players by the rulebook
(its own placement check, not the engine's), and shows the station only what
the overhead camera reads — the two warehouse mats, with ``?`` where a hand
hides cells, every reading seen twice — plus, once, the supply cards a person
enters with the picker (no camera films the supply). One card is laid where the
rules forbid; it must be the only flag. The final scores must equal the
rulebook's scoring of the cards on the table, computed here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules import IllegalAction, State, get_game
from rules.catalogue import default_catalogue
from rules.games.small_warehouse import rotate_clockwise
from rules.games.small_warehouse.referee import Referee
from vision.games.small_warehouse import read_warehouses

PLAYERS = ("Ana", "Ben")
MATS = {"Ana": 0, "Ben": 1}
ROWS, COLS = 8, 10
ILLEGAL_TURN = 2       # the turn on which a card is first laid where it may not go
PICKER_TURN = 5        # the turn before which a person enters the supply
CARDS = {card["id"]: card["squares"] for card in default_catalogue("small-warehouse")["cards"]}


# -- the physical table ---------------------------------------------------------------
@dataclass
class PhysicalTable:
    """The cards as they lie on a real table, dealt and played by the rulebook."""

    rng: random.Random
    grids: dict[str, list[str]] = field(default_factory=dict)
    hands: dict[str, list[str]] = field(default_factory=dict)
    supply: list[str] = field(default_factory=list)
    pile: list[str] = field(default_factory=list)

    def deal(self) -> None:
        deck = sorted(CARDS)
        self.rng.shuffle(deck)
        for player in PLAYERS:
            squares = CARDS[deck.pop()]
            row, col = (ROWS - len(squares)) // 2, (COLS - len(squares[0])) // 2
            self.grids[player] = lay(["." * COLS] * ROWS, squares, row, col)
        for player in PLAYERS:
            self.hands[player] = [deck.pop()]
        self.supply = [deck.pop() for _ in range(3)]
        self.pile = deck

    def over(self) -> bool:
        return len(self.supply) < 3

    def play(self, player: str) -> None:
        """A legal turn chosen at random: a card, a place for it, and a refill."""
        source = self.rng.choice(["supply", "hand"])
        card = self.rng.choice(self.supply if source == "supply" else self.hands[player])
        turned = rotate_clockwise(CARDS[card], self.rng.choice([0, 90, 180, 270]))
        grid = self.grids[player]
        places = [(r, c) for r in range(ROWS - len(turned) + 1)
                  for c in range(COLS - len(turned[0]) + 1)
                  if touches(grid, turned, r, c) and lay(grid, turned, r, c) != grid]
        row, col = self.rng.choice(places)
        self.grids[player] = lay(self.grids[player], turned, row, col)
        if source == "supply":
            self.supply.remove(card)
        else:
            self.hands[player].remove(card)
            taken = self.rng.choice(self.supply)
            self.supply.remove(taken)
            self.hands[player].append(taken)
        if self.pile:
            self.supply.append(self.pile.pop())

    # A card laid so that nothing the camera sees changes would be declared at the table
    # (docs/rules-notes.md); these players never lay one.

    def far_placement(self, player: str) -> list[str]:
        """The grid with a supply card laid touching no card (against the rules)."""
        squares = CARDS[self.supply[0]]
        for row in range(ROWS - 1):
            for col in range(COLS - 2):
                if not touches(self.grids[player], squares, row, col):
                    return lay(self.grids[player], squares, row, col)
        raise AssertionError("no room for a card apart")


def lay(grid: list[str], squares: list[str], row: int, col: int) -> list[str]:
    lines = [list(line) for line in grid]
    for dr, line in enumerate(squares):
        for dc, symbol in enumerate(line):
            if symbol != ".":
                lines[row + dr][col + dc] = symbol
    return ["".join(line) for line in lines]


def touches(grid: list[str], squares: list[str], row: int, col: int) -> bool:
    """The rulebook's placement as the kit reads it: on a card or beside one by an edge."""
    for dr, line in enumerate(squares):
        for dc, symbol in enumerate(line):
            r, c = row + dr, col + dc
            if symbol == ".":
                continue
            for nr, nc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < ROWS and 0 <= nc < COLS and grid[nr][nc] != ".":
                    return True
    return False


# -- the rulebook's scoring, computed here ------------------------------------------------
def rulebook_score(grid: list[str]) -> tuple[int, int]:
    """(points, empty boxes): per kind, biggest block × blocks when the biggest has 4+."""
    blocks: dict[str, list[int]] = {}
    seen: set[tuple[int, int]] = set()
    for r in range(ROWS):
        for c in range(COLS):
            kind = grid[r][c]
            if kind in ".#" or (r, c) in seen:
                continue
            size, todo = 0, [(r, c)]
            seen.add((r, c))
            while todo:
                cr, cc = todo.pop()
                size += 1
                for nr, nc in ((cr - 1, cc), (cr + 1, cc), (cr, cc - 1), (cr, cc + 1)):
                    if (0 <= nr < ROWS and 0 <= nc < COLS and (nr, nc) not in seen
                            and grid[nr][nc] == kind):
                        seen.add((nr, nc))
                        todo.append((nr, nc))
            blocks.setdefault(kind, []).append(size)
    points = sum(max(sizes) * len(sizes) for sizes in blocks.values() if max(sizes) >= 4)
    return points, sum(line.count("#") for line in grid)


# -- the station's side: observations in, actions applied or flagged -----------------------
@dataclass
class Station:
    """What the live loop does with each observation: translate, apply, or flag."""

    state: State
    referee: Referee = field(default_factory=Referee)
    flags: list[str] = field(default_factory=list)
    applied: list[dict[str, Any]] = field(default_factory=list)

    def observe(self, observation: dict[str, Any]) -> None:
        try:
            actions = self.referee.translate(self.state, observation)
        except IllegalAction as error:
            self.flags.append(error.reason)
            return
        self.apply(actions)

    def apply(self, actions: list[dict[str, Any]]) -> None:
        for action in actions:
            try:
                self.state.apply(action)
            except IllegalAction as error:
                self.flags.append(error.reason)
                return
            self.applied.append(action)


def camera_reading(grids: dict[str, list[str]], hidden: dict[str, set[tuple[int, int]]]
                   ) -> dict[str, Any]:
    """The stable observation the station makes of the two mats (``hidden`` cells '?')."""
    mats = [{"id": MATS[player], "found": True, "tags": [],
             "cells": ["".join("?" if (r, c) in hidden.get(player, set()) else symbol
                               for c, symbol in enumerate(line))
                       for r, line in enumerate(grids[player])]}
            for player in PLAYERS]
    return {"kind": "warehouses", "warehouses": read_warehouses(mats, MATS)}


def hand_over(rng: random.Random, before: list[str], after: list[str]) -> set[tuple[int, int]]:
    """Cells a hand hides: a few the last card did not change."""
    same = [(r, c) for r in range(ROWS) for c in range(COLS) if before[r][c] == after[r][c]]
    return set(rng.sample(same, 4))


def picked(state: State, card: str) -> dict[str, Any]:
    """The supply reveal a person picks for ``card``: the picker lists the legal outcomes by
    their squares, so of two equal cards the person takes the one offered."""
    return next(outcome.action for outcome in state.chance_outcomes()
                if outcome.action["zone"] == "supply"
                and CARDS[outcome.action["card"]] == CARDS[card])


def play_a_game(seed: int) -> tuple[PhysicalTable, Station, int]:
    rng = random.Random(seed)
    table = PhysicalTable(rng)
    table.deal()
    station = Station(get_game("small-warehouse").new_game(list(PLAYERS), deal="table"))
    first = camera_reading(table.grids, {"Ben": {(0, 0), (7, 9)}})
    station.observe(first)
    station.observe(first)
    turn = 0
    while not table.over():
        player = PLAYERS[turn % 2]
        other = PLAYERS[1 - turn % 2]
        if turn == PICKER_TURN:  # a person enters the face-up supply from the picker
            for card in table.supply:
                station.apply([picked(station.state, card)])
        if turn == ILLEGAL_TURN:
            wrong = dict(table.grids, **{player: table.far_placement(player)})
            station.observe(camera_reading(wrong, {}))
            station.observe(camera_reading(table.grids, {}))  # the card is taken back
        before = table.grids[player]
        table.play(player)
        reading = camera_reading(table.grids, {
            player: hand_over(rng, before, table.grids[player]),
            other: {(rng.randrange(ROWS), rng.randrange(COLS))}})
        station.observe(reading)
        station.observe(reading)  # the same reading again: nothing new
        turn += 1
    return table, station, turn


@pytest.mark.parametrize("seed", [3, 11, 2026])
def test_a_game_dealt_by_hand_is_refereed_from_what_the_table_shows(seed: int) -> None:
    table, station, turns = play_a_game(seed)
    state = station.state
    assert len(station.flags) == 1, station.flags
    assert "which no legal placement gives" in station.flags[0]
    assert "overlap or touch" in station.flags[0]
    assert turns == 14 and state.is_over()
    assert [state.data["grids"][i] for i in range(2)] == [table.grids[p] for p in PLAYERS]
    expected = {player: rulebook_score(table.grids[player]) for player in PLAYERS}
    assert [score.total for score in state.scores()] == [expected[p][0] for p in PLAYERS]
    keys = {player: (points, -boxes) for player, (points, boxes) in expected.items()}
    assert state.winners() == [p for p in PLAYERS if keys[p] == max(keys.values())]
    reveals = [action for action in station.applied if action["type"] == "reveal"]
    assert [action["zone"] for action in reveals] == ["warehouse"] * 2 + ["supply"] * 3
    assert state.game.replay(state.to_json()) == state

