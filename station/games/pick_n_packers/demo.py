"""Pick 'n Packers in ``packref demo``: pilots who mostly fly well, a drone scale's readings."""

from __future__ import annotations

import random
from typing import Any, cast

from rules import Action, State
from rules.games.pick_n_packers import PickNPackersState

SKILL = 0.92  # how often the demo's pilots take the good move


def skilful_pilots(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Pilots who mostly load, and mostly fly to the next card."""
    game = cast(PickNPackersState, state)  # the policy of Pick 'n Packers' demo only
    if game.phase == "challenge":
        wanted = [{"type": "load"}, {"type": "land", "card": (game.reached + 1) % 9}]
        good = [action for action in actions if action in wanted]
        if good and rng.random() < SKILL:
            return good[0]
    return rng.choice(actions)


class DroneScale:
    """Made-up load-cell readings to go with a recording (for the mass graph)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mass = 0.0

    def reading(self, t: float, action: Action,
                new_round: bool) -> tuple[float, dict[str, Any]] | None:
        """The drone's telemetry after ``action`` and its time, or None."""
        kind = action.get("type")
        if new_round:
            self.mass = 0.0
        if kind == "load":
            self.mass += self.rng.uniform(6.0, 18.0)
        elif kind in ("fall", "touch"):
            self.mass = max(0.0, self.mass - self.rng.uniform(5.0, 12.0))
        elif kind != "land":
            return None
        event = {"load": "load", "land": "land"}.get(kind, "drop")
        at = round(t + 0.3, 3)
        return at, {"kind": "telemetry", "t": at, "event": event,
                    "mass_g": round(self.mass + self.rng.uniform(-0.3, 0.3), 1)}
