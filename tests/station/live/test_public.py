"""station/live/public.py: the legal actions and entries as the table sees them."""

from __future__ import annotations

import json
import random

from rules import get_game
from rules.playout import random_reveal
from station.live.public import public_entry, public_legal_actions


def test_public_legal_actions_name_no_component_the_table_has_not_seen() -> None:
    state = get_game("moving-day").new_game(["Ana", "Ben"], deal="table")
    rng = random.Random(3)
    for _ in range(12):
        state.apply(random_reveal(state, rng) if state.is_chance()
                    else rng.choice(state.legal_actions()))
    shown = json.dumps(state.public_view())
    boxes = [box["box"] for action in state.legal_actions() for box in action.get("boxes", [])]
    assert any(f'"{box}"' not in shown for box in boxes)  # the engine's stand-ins for "?"
    public = public_legal_actions(state)
    named = {box["box"] for action in public for box in action.get("boxes", [])}
    assert None in named and all(box is None or f'"{box}"' in shown for box in named)


def test_a_refused_move_from_the_hand_shows_neither_its_card_nor_the_reason() -> None:
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=3)
    move = {"type": "place", "source": "hand", "card": "c07", "row": 0, "col": 0,
            "rotation": 0}
    entry = public_entry(state, {"kind": "flag", "action": move,
                                 "reason": "c07 does not fit at row 1, column 1"})
    assert entry["action"]["card"] is None and "c07" not in json.dumps(entry)
