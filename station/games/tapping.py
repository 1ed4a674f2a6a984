"""The table page's board entry: every legal action as the taps that make it.

Where no camera sees a move, a person enters it on the drawn board: the piece first
(pictures of what may be played now), then its place on the board, then its turn, then
anything after (a Small Warehouse card taken into the hand). A game's record says how
one action is tapped (``tapping``, a :data:`~station.games.record.Tapping`) as::

    {"piece": {"key": "supply:c07", "words": "supply card 1 (A, A and C)", "picture": rows},
     "place": {"key": "Ana's warehouse:2:4", "words": "at row 3, column 5",
               "board": "Ana's warehouse", "at": [2, 4], "cells": [[2, 4], [2, 5]]},
     "turn": {"key": "c07:90", "words": "turned 90° clockwise", "picture": rows},
     "then": None}

(``picture``: rows of drawn cells, :func:`station.games.views.cell`; ``place`` without a
``board`` is a place off the boards, "into storage"; a step None is not asked). This
module gathers them for the page: each step's choice once, each action by its steps'
keys, so the page offers at each step only what some legal action still allows. A place's
``cells`` (where the turned piece lies) belong to the move, not to the place: the same
square takes the piece turned several ways.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules import Action, State
from station.games.record import GameRecord

STEPS = ("piece", "place", "turn", "then")


def board_entry(state: State, actions: Iterable[Action],
                record: GameRecord | None) -> dict[str, Any]:
    """The legal ``actions`` as taps (``record``'s ``tapping``), for the table page::

        {"player": "Ana", "steps": [...], "choices": {key: choice},
         "moves": [{"action": ..., "keys": [piece key, place key or None, ...],
                    "cells": [[row, col], ...]}],
         "untapped": 0}

    ``untapped``: legal actions the game does not enter by the board (the referee's list
    has them). A game without ``tapping`` has ``"moves": []``."""
    player = state.players[state.current_player()] if not state.is_over() else ""  # type: ignore[index]
    choices: dict[str, dict[str, Any]] = {}
    moves, untapped = [], 0
    tapping = record.tapping if record is not None else None
    for action in actions:
        taps = tapping(state, action) if tapping is not None else None
        if taps is None:
            untapped += 1
            continue
        keys, cells = [], []
        for step in STEPS:
            choice = dict(taps.get(step) or {})
            if not choice:
                keys.append(None)
                continue
            cells = choice.pop("cells", cells)  # where the piece lies: the move's own
            key = f"{step}:{choice['key']}"
            choices.setdefault(key, {**choice, "key": key, "step": step})
            keys.append(key)
        moves.append({"action": action, "keys": keys, "cells": cells})
    return {"player": player, "steps": list(STEPS), "choices": choices, "moves": moves,
            "untapped": untapped}


def turn_words(rotation: int, flip: bool = False) -> str:
    """How a piece is turned, as a person says it.

    >>> turn_words(0), turn_words(90), turn_words(180, flip=True)
    ('as drawn, not turned', 'turned 90° clockwise', 'flipped over, then turned 180° clockwise')
    """
    turned = f"turned {rotation}° clockwise" if rotation else ""
    if flip:
        return "flipped over" + (f", then {turned}" if turned else "")
    return turned or "as drawn, not turned"


def footprint(cells: Iterable[tuple[int, int]], row: int, col: int) -> list[list[int]]:
    """A piece's squares (``cells``, from its top-left) laid at ``row``, ``col``: JSON pairs."""
    return [[row + r, col + c] for r, c in cells]
