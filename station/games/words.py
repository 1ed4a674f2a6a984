"""Events and flags in words, as people at the table say them.

Each game's record has ``describe(state, action)``: the action in a sentence,
``state`` being the game *before* the action (so the player to act is the one who
acted). For a game without a record, or when its words fail, the action's fields
are read out plainly. The records are looked up by :mod:`station.games`
(``describe_action``, ``describe_event``); this module is given them.

    >>> from rules import get_game
    >>> state = get_game("removal").new_game(["Ana", "Ben"], seed=2)
    >>> action_words(state, {"type": "drive", "helpers": []}, None)
    'Ana: drive {"helpers": []}'
    >>> at(1, 2)
    'row 2, column 3'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from rules import Action, State
from rules.engine import REVEAL, json_copy
from rules.words import at as rules_at
from station.games.record import GameRecord

#: The record of the game of a name, or None (:func:`station.games.game_record`).
RecordOf = Callable[[str], GameRecord | None]


def at(row: int, col: int) -> str:
    """A board position in words, counted from 1 as people count (:func:`rules.words.at`:
    the rules' refusals name cells the same way)."""
    return rules_at(row, col)


def actor(state: State) -> str:
    """The player to act in ``state`` (the one who takes the next action)."""
    try:
        return state.players[state.current_player()]
    except (IndexError, TypeError, ValueError):
        return "The table"


def plain(action: Action) -> str:
    """An action's fields as JSON (its indices as the JSON has them, from 0), for a game
    without words of its own."""
    fields = {key: value for key, value in action.items() if key != "type"}
    shown = f" {json.dumps(fields, default=repr)}" if fields else ""
    return f"{action.get('type', 'action')}{shown}"


def action_words(state: State, action: Action, record: GameRecord | None,
                 face_up: bool = False) -> str:
    """``action`` in a sentence, from the game's ``record`` (see the module's docstring); as
    the whole table sees it (a card laid face down shows no face) unless ``face_up`` (a move
    proposed to the player, not yet made)."""
    shown = json_copy(action) if face_up else state.public_action(action)
    try:
        if shown.get("type") == REVEAL and record is not None and record.reveal_label:
            return f"Revealed {record.reveal_label(state, shown)}"
        if record is not None and record.describe is not None:
            return record.describe(state, shown)
    except Exception:  # words are a courtesy: a strange action is read out plainly
        pass
    return f"{actor(state)}: {plain(shown)}"


def entry_words(entry: dict[str, Any]) -> str:
    """A person's entry (what no camera sees) in words, counted from 1 as people count.

    >>> entry_words({"group": 0, "helper": "helper-02", "helper_vehicle": "car"})
    'Group 1, helper card helper-02, the helper in the car'
    >>> entry_words({"helpers": [2]})
    'Helper cards played: 2'
    """
    said = []
    for key, value in entry.items():
        if key == "group" and isinstance(value, int):
            said.append(f"group {value + 1}")
        elif key == "helper":
            said.append(f"helper card {value}")
        elif key == "helper_vehicle":
            said.append("the helper out of play" if value is None else f"the helper in the {value}")
        elif key == "helpers" and isinstance(value, list):
            said.append("Helper cards played: " + (", ".join(map(str, value)) or "none"))
        elif key == "storage":
            said.append(f"{value} in storage")
        else:
            said.append(f"{key} {value}")
    text = ", ".join(said) or "nothing"
    return text[0].upper() + text[1:]


SAID_BY = {"declared": "Declared by hand", "button": "A button pressed",
           "reveal": "Entered by a person"}
SEEN = "Seen by the camera"


def describe_observation(observation: dict[str, Any], camera_kinds: Collection[str] = ()) -> str:
    """What a sensor or a person reported, before the engine took it (its action follows);
    ``camera_kinds``: the observations the games' camera readers report as seen
    (:class:`station.games.CameraWiring`'s ``seen``).

    >>> describe_observation({"kind": "drone-event", "event": "fault", "sensor": "load-cell"})
    'The drone reported: fault (load cell)'
    >>> describe_observation({"kind": "drone-position", "card": 3})
    'The drone is over shop card 3'
    >>> describe_observation({"kind": "declared", "action": {"type": "drive"}})
    'Declared by hand'
    """
    kind = str(observation.get("kind", ""))
    if kind == "person":
        return "A person entered: " + entry_words(
            {key: value for key, value in observation.items() if key != "kind"})
    if kind == "drone-position":
        return f"The drone is over shop card {observation.get('card')}"
    if kind == "drone-clock" and isinstance(observation.get("mass_g"), int | float):
        return f"The drone weighs {observation['mass_g']:.1f} g"
    if kind.startswith("drone-"):
        what = str(observation.get("event") or kind.removeprefix("drone-"))
        sensor = observation.get("sensor")
        return (f"The drone reported: {what.replace('-', ' ')}"
                + (f" ({str(sensor).replace('-', ' ')})" if sensor else ""))
    if kind in camera_kinds:
        return SEEN
    return SAID_BY.get(kind, f"Reported: {kind}" if kind else "Reported")


def event_words(state: State | None, kind: str, payload: dict[str, Any],
                record_of: RecordOf, camera_kinds: Collection[str] = ()) -> str | None:
    """A stored event (``kind``, ``payload``) in a sentence, or None when it has no words
    (``record_of``: the record of a game by its name; ``camera_kinds``: as
    :func:`describe_observation` takes them)."""
    action = payload.get("action")
    if kind == "observation" and isinstance(payload.get("observation"), dict):
        return describe_observation(payload["observation"], camera_kinds)
    if kind == "game":
        record = record_of(str(payload.get("game")))
        title = record.title if record is not None else payload.get("game")
        return f"A new game of {title}: {', '.join(payload.get('players', []))}"
    if kind == "undo":
        step = payload.get("step") or [payload.get("undoes")]
        return (f"The referee took back event {step[0]}" if len(step) == 1 else
                f"The referee took back events {step[0]}–{step[-1]} (one step)")
    if kind == "close":
        return "The camera sees the table as it was: flag closed"
    if kind == "withdraw":
        return f"A person withdrew the entry of event {payload.get('entry')}"
    if kind == "accept":
        return f"The referee accepted the move flagged at event {payload.get('flag')}"
    if kind == "end":
        return f"The game was ended: {payload.get('reason') or 'no reason given'}"
    if kind == "hints":
        return f"The organiser switched hints {'on' if payload.get('on') else 'off'}"
    if state is None or not isinstance(action, dict):
        return None
    said = action_words(state, action, record_of(state.game.name))
    if kind == "correction":
        return f"Referee's correction: {said}"
    if kind == "flag":
        return f"Not accepted: {said} — {payload.get('reason', '')}"
    return said
