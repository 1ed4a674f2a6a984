"""The one place the station cuts its record down to what the table sees.

Whatever is served without the organiser's token (the snapshot and its WebSocket
messages, the events, the legal actions, the picker, the advice, flag and event words)
goes through these functions; they apply each game's own notion of what the table
cannot see (:mod:`rules.public`: the public view, public actions and choices, secret
properties, no seed). The full record (what replay needs) is the event store's, served
only with the token.

>>> from rules import get_game
>>> state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=1)
>>> public_entry(state, {"kind": "flag", "action": {"type": "speculate", "card": 4},
...                      "reason": "speculation card 4 is not among the remaining cards"})
{'kind': 'flag', 'action': {'type': 'speculate', 'card': None}, 'reason': 'refused: ...'}
"""

from __future__ import annotations

import json
from typing import Any

from rules import Action, State, get_game
from rules.public import hide_unshown, public_game_start, unshown_components


def public_entry(state: State | None, entry: dict[str, Any]) -> dict[str, Any]:
    """An event, flag or observation entry as the whole table sees it; ``state``: the state
    of the entry's game (only its kind of game matters). A ``game`` start shows no seed and
    the public setup; an action made shows what :meth:`~rules.State.public_action` shows; a
    refused one (a flag) or one only declared shows what
    :meth:`~rules.State.public_choice` shows, with the reason the table may read."""
    if entry.get("kind") == "game":
        return public_game_start(get_game(str(entry["game"])), entry)
    shown = dict(entry)
    if state is None:
        return shown
    action = shown.get("action")
    if isinstance(action, dict):
        if "reason" in shown:  # refused: the move was not made, what it hides stays hidden
            shown["reason"] = state.public_reason(action, str(shown["reason"]))
            shown["action"] = state.public_choice(action)
        else:
            shown["action"] = state.public_action(action)
    if isinstance(shown.get("readings"), list):  # a flag that asks: each reading as chosen
        shown["readings"] = [{**reading, "actions": [state.public_choice(action) for action
                                                      in reading.get("actions", [])]}
                             for reading in shown["readings"]]
    observation = shown.get("observation")
    if isinstance(observation, dict) and isinstance(observation.get("action"), dict):
        shown["observation"] = {**observation,
                                "action": state.public_choice(observation["action"])}
    return shown


def public_legal_actions(state: State) -> list[Action]:
    """The legal actions now as the whole table may see them: each as
    :meth:`~rules.State.public_choice` shows it, once. A Pick 'n Packers speculator's
    cards are one face-down speculation, a Small Warehouse hand card is "a card from the
    hand": the list does not tell what a player holds; a component the table has not seen
    (a Moving Day group's boxes still face down) is named None, not by the id the engine
    took as a stand-in.

    >>> from rules import get_game
    >>> state = get_game("pick-n-packers").new_game(["Ana", "Ben", "Cas"], seed=1)
    >>> len(state.legal_actions()), public_legal_actions(state)
    (10, [{'type': 'speculate', 'card': None}])
    """
    unshown = unshown_components(state)  # a Moving Day group's face-down boxes
    shown: dict[str, Action] = {}
    for action in state.legal_actions():
        public = hide_unshown(state.public_choice(action), unshown)
        shown.setdefault(json.dumps(public, sort_keys=True), public)
    return list(shown.values())
