"""Advice on Pick 'n Packers: the advisor's guess of the speculation cards laid face down.

The advisor never reads a face-down card: each playout guesses them afresh
(:func:`rules.advice.knowledge.deal_face_down`, through the game's
:class:`~rules.engine.AdviceTuning`).
"""

from __future__ import annotations

import random

from rules.engine import State
from rules.games.pick_n_packers.scoring import SPECULATION_CARDS


def guess_speculations(state: State, rng: random.Random) -> None:
    """Pick 'n Packers: each face-down speculation card (None) becomes a card nobody is seen
    holding, drawn at random (a round's speculators all hold different cards). The round
    just ended by the advised action holds its cards too."""
    rounds = [state.data.get("speculations") or {}]
    rounds += [result["speculations"] for result in state.data.get("results", [])[-1:]]
    for speculations in rounds:
        hidden = [name for name, card in speculations.items() if card is None]
        if hidden:
            taken = set(speculations.values())
            free = [card for card in SPECULATION_CARDS if card not in taken]
            for name, card in zip(hidden, rng.sample(free, len(hidden)), strict=True):
                speculations[name] = card
