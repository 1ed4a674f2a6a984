"""What the table sees: a game's record cut down to what nobody may be refused.

Each game says what the table cannot see, in three places of its engine:

- :meth:`~rules.engine.State.public_view`: the position without its hidden parts (a
  hand, a face-down card);
- :meth:`~rules.engine.State.public_action` and :meth:`~rules.engine.State.public_choice`:
  an action made, or one not made yet, without what it hides;
- :attr:`~rules.engine.Game.secret_properties`: properties of components that stay
  secret until the game is over (a Removal box's back side).

This module applies them to what a record holds besides: the setup (a seeded game's
draw orders are its future; a game dealt by hand has none) and the catalogue. The
station serves the public only through these (``station/live/public.py``), and the
advisor studies only their result (:mod:`rules.advice.knowledge`).

>>> from rules import get_game
>>> state = get_game("removal").new_game(["Ana", "Ben"], seed=3)
>>> setup = public_setup(state)
>>> "bag" in setup, setup["deal"], setup["catalogue"]["boxes"][0]["value"]
(False, 'table', None)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine import Game, State, json_copy

HIDDEN = None  # what a secret property shows to the public


def public_setup(state: State, canonical: bool = False) -> dict[str, Any]:
    """``state``'s setup as the table sees it: the setup of a game dealt by hand (the copy's
    components, no draw order, no seed's deal), each secret property hidden — as None, or
    with ``canonical`` dealt out afresh in a fixed order (the values sorted, given in the
    order of the components' ids) so that a program that needs a value gets one that
    depends only on which values the copy has, never on which component has which."""
    setup = {key: json_copy(state.setup[key]) for key in copy_keys(state) if key in state.setup}
    setup["deal"] = "table"
    return hide_secret_properties(state.game, setup, canonical)


def copy_keys(state: State) -> set[str]:
    """The keys of a setup dealt by hand for ``state``'s game: the copy's components. What a
    seeded setup holds beyond them is its deal (none for a game that cannot be dealt by
    hand: all its setup is its deal)."""
    try:
        return set(state.game.make_table_setup(list(state.players), dict(state.options), None))
    except ValueError:
        return set()


def public_catalogue(game: Game, catalogue: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A copy's catalogue as the table sees it (its secret properties hidden), or None."""
    if catalogue is None:
        return None
    return hide_secret_properties(game, json_copy(dict(catalogue)), canonical=False)


def public_game_start(game: Game, payload: Mapping[str, Any]) -> dict[str, Any]:
    """A stored ``game`` event's payload (or entry) as the table sees it: no seed (replaying
    it would deal every hidden card), the public setup (when it has one), the copy's
    catalogue without its secrets; its other fields as they are."""
    shown = {key: json_copy(value) for key, value in payload.items()
             if key not in ("seed", "setup", "catalogue")}
    if "setup" in payload:
        start = game.replay({"players": payload["players"], "options": payload["options"],
                             "setup": payload["setup"], "log": []})
        shown["setup"] = public_setup(start)
    if payload.get("catalogue") is not None:
        shown["catalogue"] = public_catalogue(game, payload["catalogue"])
    return shown


def component_ids(setup: Mapping[str, Any]) -> set[str]:
    """The ids of the copy's components in ``setup``: the ``id`` of each listed component,
    and the keys of a mapping of components (``{"c01": {...}}``, ``{"box-01": [...]}``).

    >>> sorted(component_ids({"cards": {"c01": {"squares": []}, "c02": {"squares": []}},
    ...                       "catalogue": {"items": [{"id": "I01"}]}}))
    ['I01', 'c01', 'c02']
    """
    found: set[str] = set()
    for listed in setup.values():  # not the setup itself: its keys name kinds, not pieces
        for value in walk(listed):
            if not isinstance(value, dict):
                continue
            if isinstance(value.get("id"), str):
                found.add(value["id"])
            entries = list(value.values())
            if len(entries) > 1 and (all(isinstance(e, dict) for e in entries)
                                     or all(isinstance(e, list) for e in entries)):
                found.update(value)  # a mapping of components by id (rows or objects)
    return found


def hide_unshown(action: Any, unshown: set[str]) -> Any:
    """``action`` with each component id of ``unshown`` (components the table has not seen:
    a box still face down, a card not yet drawn) replaced by None; JSON."""
    if isinstance(action, dict):
        return {key: hide_unshown(value, unshown) for key, value in action.items()}
    if isinstance(action, list):
        return [hide_unshown(value, unshown) for value in action]
    return None if isinstance(action, str) and action in unshown else action


def unshown_components(state: State) -> set[str]:
    """The components of ``state``'s copy that its public view does not show."""
    shown = {value for value in walk(state.public_view()) if isinstance(value, str)}
    return component_ids(public_setup(state)) - shown


def walk(document: Any) -> Iterator[Any]:
    """``document`` (JSON) and every value in it, depth first."""
    yield document
    if isinstance(document, dict):
        for value in document.values():
            yield from walk(value)
    elif isinstance(document, list):
        for value in document:
            yield from walk(value)


def hide_secret_properties(game: Game, document: dict[str, Any],
                           canonical: bool = False) -> dict[str, Any]:
    """``document`` (a setup or a catalogue, changed in place and returned) with the
    :attr:`~rules.engine.Game.secret_properties` of every component listed under their key,
    at any depth, hidden (see :func:`public_setup` for ``canonical``)."""
    for kind, properties in game.secret_properties.items():
        for components in _listed_under(document, kind):
            for prop in properties:
                _hide(components, prop, canonical)
    return document


def _listed_under(document: Any, kind: str) -> list[list[dict[str, Any]]]:
    """Every collection of components (a list or a mapping of objects) under key ``kind``."""
    found: list[list[dict[str, Any]]] = []
    if isinstance(document, dict):
        for key, value in document.items():
            if key == kind and isinstance(value, list | dict):
                entries = list(value.values()) if isinstance(value, dict) else list(value)
                found.append([entry for entry in entries if isinstance(entry, dict)])
            else:
                found += _listed_under(value, kind)
    elif isinstance(document, list):
        for value in document:
            found += _listed_under(value, kind)
    return found


def _hide(components: list[dict[str, Any]], prop: str, canonical: bool) -> None:
    holders = [entry for entry in components if prop in entry]
    if not canonical:
        for entry in holders:
            entry[prop] = HIDDEN
        return
    values = sorted((entry[prop] for entry in holders), key=json.dumps)
    for entry, value in zip(sorted(holders, key=lambda e: str(e.get("id"))), values,
                            strict=True):
        entry[prop] = value
