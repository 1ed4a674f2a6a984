"""What the table cannot see, found in a game's full state, and a search for it in what a
door served (the door-walking tests of ``tests/station/api/test_public_doors.py``).

The secrets come from the engine, not from a list kept here: whatever
:meth:`~rules.State.public_view`, :meth:`~rules.State.public_action`,
:meth:`~rules.State.public_choice` and :attr:`~rules.Game.secret_properties` hide, and
every draw order of the setup not yet shown. A game that gains a hidden field is covered
without editing this file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules import Action, State
from rules.public import copy_keys, walk
from station.games import describe_action

RUN = 4  # draws in a row that make an order (three could line up by chance in a sorted list)


@dataclass
class Secrets:
    """Everything of one position the public may not read."""

    numbers: set[int] = field(default_factory=set)  # the seed
    texts: set[str] = field(default_factory=set)  # a hidden move or a refusal in words
    runs: list[tuple[str, ...]] = field(default_factory=list)  # unseen draws, in order
    leaves: list[tuple[tuple[Any, ...], Any]] = field(default_factory=list)  # hidden position
    properties: list[tuple[str, str, Any]] = field(default_factory=list)  # id, property, value
    actions: list[Action] = field(default_factory=list)  # moves with a hidden part
    position_keys: set[str] = field(default_factory=set)  # what a position's JSON holds

    def __len__(self) -> int:
        return (len(self.numbers) + len(self.texts) + len(self.runs) + len(self.leaves)
                + len(self.properties) + len(self.actions))


def secrets_of(state: State, seed: int | None, refused: Iterable[tuple[Action, str]]) -> Secrets:
    """The secrets of ``state`` (the engine's full state), its game's ``seed`` (None: dealt by
    hand) and the moves the engine ``refused`` at the table (action, reason)."""
    found = Secrets()
    if seed is not None:
        found.numbers.add(seed)
    public = state.public_view()
    found.position_keys = set(state.data)
    found.leaves = list(_differences(state.data, public, ()))
    shown = set(_strings(public))
    for order in _lists(_deal_of(state)):
        unseen = [item for item in order if item not in shown]
        found.runs += [tuple(unseen[i:i + RUN]) for i in range(len(unseen) - RUN + 1)]
    if not state.is_over():
        found.properties = list(_secret_properties(state))
    values = [value for _, value in found.leaves]
    hidden = _moves_still_hidden(state, found.leaves)
    hidden += [action for action in state.log if state.public_action(action) != action]
    if not state.is_over():
        hidden += [action for action in state.legal_actions()
                   if state.public_choice(action) != action
                   or any(isinstance(v, str) and v not in shown for v in _scalars(action)
                          if v in values)]
    for action in hidden:
        found.actions.append(action)
        words = describe_action(state, action, face_up=True)
        if any(_mentions(words, value) for value in _scalars(action) if value in values):
            found.texts.add(words)
    for action, reason in refused:
        named = [v for v in _scalars(action) if v in values and _mentions(reason, v)] \
            if isinstance(action, dict) else []
        if named or (isinstance(action, dict) and state.public_reason(action, reason) != reason):
            found.texts.add(reason)
            found.actions.append(action)
    return found


def _deal_of(state: State) -> dict[str, Any]:
    """What a seeded setup holds beyond the copy's components: its deal (the draw orders,
    the hands, the rounds to come), i.e. whatever a game dealt by hand lacks."""
    copy = copy_keys(state)
    return {key: value for key, value in state.setup.items() if key not in copy}


def _moves_still_hidden(state: State, leaves: list[tuple[tuple, Any]]) -> list[Action]:
    """The logged moves that put into the position a hidden part still hidden now (a card
    dealt into a hand, a speculation laid face down) that the table had not seen before,
    found by replaying the log."""
    now = {(path, json.dumps(value)) for path, value in leaves}
    replay = state.game.replay({**state.to_json(), "log": []})
    before = _hidden_parts(replay)
    moves = []
    for action in state.log:
        seen = {json.dumps(value) for value in _scalars(replay.public_view())}
        replay.apply(dict(action))
        after = _hidden_parts(replay)
        # a card taken from the face-up supply into a hand: the table saw which one
        if {part for part in (after - before) & now if part[1] not in seen}:
            moves.append(action)
        before = after
    return moves


def _hidden_parts(state: State) -> set[tuple[tuple, str]]:
    return {(path, json.dumps(value))
            for path, value in _differences(state.data, state.public_view(), ())}


def _scalars(document: Any) -> list[Any]:
    return [value for value in walk(document)
            if isinstance(value, str | int) and not isinstance(value, bool)]


def _mentions(text: str, value: Any) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(str(value))}(?![\w-])", text) is not None


def leaks(secrets: Secrets, served: Any, raw: str) -> list[str]:
    """What of ``secrets`` a door served: ``served`` its JSON (None for a page), ``raw``
    its text. Each leak in a few words."""
    found = [f"the number {number}" for number in secrets.numbers
             if str(number) in raw]
    found += [f"the words {text!r}" for text in secrets.texts if text in raw]
    if served is None:
        return found
    lists = [value for value in walk(served) if isinstance(value, list)]
    for run in secrets.runs:
        if any(_contains_run(values, run) for values in lists):
            found.append(f"the draw order {run}")
    dicts = [value for value in walk(served) if isinstance(value, dict)]
    most = len(secrets.position_keys) // 2 + 1  # the position itself, not a past round's record
    positions = [d for d in dicts if len(secrets.position_keys & set(d)) >= most]
    for path, value in secrets.leaves:
        if any(_at(d, path) == (True, value) for d in positions):
            found.append(f"the hidden {'/'.join(map(str, path))} = {value!r}")
    for component, prop, value in secrets.properties:
        if any(_component_shows(d, component, prop, value) for d in dicts):
            found.append(f"{component}'s {prop} = {value!r}")
    for action in secrets.actions:
        if any(all(d.get(k) == v for k, v in action.items()) for d in dicts):
            found.append(f"the move {action}")
    return found


def _differences(full: Any, public: Any, path: tuple[Any, ...]) -> Iterator[tuple[tuple, Any]]:
    """The leaves of ``full`` that ``public`` does not show at the same place."""
    if isinstance(full, dict):
        for key, value in full.items():
            shown = public.get(key, _MISSING) if isinstance(public, dict) else _MISSING
            yield from _differences(value, shown, (*path, key))
    elif isinstance(full, list):
        for index, value in enumerate(full):
            shown = public[index] if isinstance(public, list) and index < len(public) \
                else _MISSING
            yield from _differences(value, shown, (*path, index))
    elif full != public and full is not None:
        yield path, full


_MISSING = object()


def _strings(document: Any) -> Iterator[str]:
    for value in walk(document):
        if isinstance(value, str):
            yield value


def _lists(document: Any) -> Iterator[list[str]]:
    """Every list of strings in ``document``, and every list of lists flattened (a deal)."""
    for value in walk(document):
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            yield value
        elif isinstance(value, list) and value and all(isinstance(v, list) for v in value):
            flat = [item for inner in value for item in inner]
            if all(isinstance(item, str) for item in flat):
                yield flat


def _secret_properties(state: State) -> Iterator[tuple[str, str, Any]]:
    for kind, properties in state.game.secret_properties.items():
        for value in walk(state.setup):
            if not isinstance(value, dict) or kind not in value:
                continue
            listed = value[kind]
            entries = listed.items() if isinstance(listed, dict) else \
                [(entry.get("id"), entry) for entry in listed if isinstance(entry, dict)]
            for component, entry in entries:
                for prop in properties:
                    if isinstance(entry, dict) and entry.get(prop) is not None:
                        yield str(component), prop, entry[prop]


def _contains_run(values: list[Any], run: tuple[str, ...]) -> bool:
    width = len(run)
    return any(tuple(values[i:i + width]) == run for i in range(len(values) - width + 1))


def _at(document: dict[str, Any], path: tuple[Any, ...]) -> tuple[bool, Any]:
    """(True, the value at ``path`` under ``document``) or (False, None)."""
    value: Any = document
    for step in path:
        in_dict = isinstance(value, dict) and not isinstance(step, int) and step in value
        in_list = isinstance(value, list) and isinstance(step, int) and step < len(value)
        if in_dict or in_list:
            value = value[step]
        else:
            return False, None
    return True, value


def _component_shows(document: dict[str, Any], component: str, prop: str, value: Any) -> bool:
    if document.get("id") == component and document.get(prop) == value:
        return True
    entry = document.get(component)
    return isinstance(entry, dict) and entry.get(prop) == value


def as_text(served: Any) -> str:
    return json.dumps(served, ensure_ascii=False)
