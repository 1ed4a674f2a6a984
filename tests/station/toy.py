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


# -- a toy game with draws: for the station's hand-dealt tables (docs/formats.md §9) --------
DRAW_TOY = "test-draw"
DECK = {"c1": 2, "c2": 2, "c3": 1}  # card -> copies; a card scores its number
TURNS = 4


class DrawState(State):
    """Each turn the player to act takes the face-up card; then the next card is drawn.

    The draw is a chance step that blocks play: seeded, it comes from ``setup["deck"]``;
    dealt by hand, from a ``{"type": "reveal", "card": ...}``.
    """

    def initial_data(self) -> dict[str, Any]:
        return {"taken": [[] for _ in self.players], "face_up": None, "drawn": 0, "turn": 0}

    def current_player(self) -> int | None:
        return None if self.is_over() else self.data["turn"] % len(self.players)

    def is_chance(self) -> bool:
        return not self.is_over() and self.data["face_up"] is None

    def unseen(self) -> dict[str, int]:
        seen: dict[str, int] = {}
        taken = [card for cards in self.data["taken"] for card in cards]
        for card in [*taken, self.data["face_up"]]:
            if card is not None:
                seen[card] = seen.get(card, 0) + 1
        return {card: count - seen.get(card, 0) for card, count in DECK.items()
                if count > seen.get(card, 0)}

    def chance_outcomes(self) -> list[Any]:
        from rules.engine import Outcome

        if not self.is_chance():
            return []
        return [Outcome({"type": "reveal", "card": card}, count)
                for card, count in self.unseen().items()]

    def seeded_reveal(self) -> Action | None:
        if not self.is_chance():
            return None
        return {"type": "reveal", "card": self.setup["deck"][self.data["drawn"]]}

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over() or self.is_chance() else [{"type": "take"}]

    def check(self, action: Action) -> None:
        require(action.get("type") == "take", "the only action is 'take'")

    def perform(self, action: Action) -> None:
        if action["type"] == "reveal":
            self.data["face_up"] = action["card"]
            self.data["drawn"] += 1
            return
        self.data["taken"][self.current_player()].append(self.data["face_up"])
        self.data["face_up"] = None
        self.data["turn"] += 1

    def is_over(self) -> bool:
        return self.data["turn"] >= TURNS

    def scores(self) -> list[PlayerScore]:
        totals = [sum(int(card[1:]) for card in taken) for taken in self.data["taken"]]
        return [PlayerScore(p, t, {"cards": t}) for p, t in zip(self.players, totals, strict=True)]

    def winners(self) -> list[str]:
        scores = self.scores()
        best = max(score.total for score in scores)
        return [score.player for score in scores if score.total == best]


class DrawGame(Game):
    name = DRAW_TOY
    min_players = 2
    max_players = 2

    @property
    def state_class(self) -> type[State]:
        return DrawState

    def make_setup(self, players: list[str], seed: int, options: dict[str, Any],
                   catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
        import random

        deck = [card for card, count in DECK.items() for _ in range(count)]
        random.Random(seed).shuffle(deck)
        return {"deck": deck}

    def make_table_setup(self, players: list[str], options: dict[str, Any],
                         catalogue: Mapping[str, Any] | None) -> dict[str, Any]:
        return {}
