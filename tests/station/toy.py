"""A tiny game for the station's tests: players take turns adding 1 or 2; the first to 5 wins.

It is registered only while a test asks for the ``toy_game`` fixture, so the
rules battery never sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import Action, Game, PlayerScore, State
from rules.engine import require

TOY = "test-race"
GOAL = 5


class RaceState(State):
    def initial_data(self) -> dict[str, Any]:
        return {"totals": [0] * len(self.players), "to_act": self.setup["first"],
                "track": ["....." for _ in self.players]}

    def current_player(self) -> int | None:
        return None if self.is_over() else self.data["to_act"]

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over() else [{"type": "add", "n": 1}, {"type": "add", "n": 2}]

    def check(self, action: Action) -> None:
        require(action.get("type") == "add", "the only action is 'add'")
        require(action.get("n") in (1, 2), "you may add 1 or 2")

    def perform(self, action: Action) -> None:
        player = self.data["to_act"]
        self.data["totals"][player] = min(GOAL, self.data["totals"][player] + action["n"])
        total = self.data["totals"][player]
        self.data["track"][player] = "#" * total + "." * (GOAL - total)
        self.data["to_act"] = (player + 1) % len(self.players)

    def is_over(self) -> bool:
        return max(self.data["totals"]) >= GOAL

    def scores(self) -> list[PlayerScore]:
        return [PlayerScore(p, t, {"steps": t}) for p, t in zip(self.players, self.data["totals"],
                                                               strict=True)]

    def winners(self) -> list[str]:
        best = max(self.data["totals"])
        return [p for p, t in zip(self.players, self.data["totals"], strict=True) if t == best]


class RaceGame(Game):
    name = TOY
    min_players = 2
    max_players = 4

    @property
    def state_class(self) -> type[State]:
        return RaceState

    def make_setup(self, players: list[str], seed: int, options: dict[str, Any],
                   catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
        return {"first": seed % len(players)}
