"""A copy's catalogue file: checked value by value, completed from the defaults, played once.

The file ``packref catalogue learn`` writes and ``packref catalogue edit`` fills
holds what a physical copy has (docs/formats.md §11)::

    {"game": "removal", "items": [{"tag": 57, "shape": ["##", "#."], "heavy": true, ...}]}

:func:`read_copy` turns it into the catalogue the engine takes: every value
checked at its JSON path with the scoring commands' one-line errors (``$.boxes[2]
.weight: must be 1..7``), pieces named by their tag when they have no ``id``
(``T57``), and what the camera does not teach (trucks, house, vehicles, helper
cards...) taken from the default catalogue unless the file gives it. Each game's
reading is its record's (:class:`~station.catalogue.wiring.CatalogueWiring`, given by
the caller: this package never looks a game up by name); the shared parts (tags, ids,
lists) are here. :func:`check_playable` then sets the game up through its engine and
plays it once at random: a catalogue the engine cannot play is refused with the reason.

Example (a deck of one card, read as a game's wiring would read it)::

    >>> from station.catalogue.wiring import CatalogueWiring, Lesson
    >>> def cards(document, defaults):
    ...     return {"cards": pieces_of(document, "cards", lambda node: node.value)}
    >>> deck = CatalogueWiring(Lesson("small-warehouse", "colour", "card", "cards", dict),
    ...                        read=cards, counted=("cards",))
    >>> copy = read_copy(deck, Node({"cards": [{"id": "c01", "squares": ["AB"]}]}))
    >>> copy["cards"]
    [{'id': 'c01', 'squares': ['AB']}]
    >>> check_playable("small-warehouse", copy)
    Traceback (most recent call last):
    ...
    station.catalogue.copy.CopyError: small-warehouse cannot be played with this catalogue \
by 2 players: small-warehouse needs at least 7 cards, not 1
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rules import get_game
from rules.catalogue import default_catalogue
from rules.playout import play_randomly
from station.catalogue.wiring import CatalogueWiring
from station.errors import InputError
from station.jsonin import Node, load_json_file
from vision.config import FIRST_TAG_ID, LAST_TAG_ID

# The limits a copy's values are checked against; each one's source is in docs/kit.md
# ("What each value may be").


T = TypeVar("T")


class CopyError(InputError):
    """A catalogue the engine cannot play; the message gives the reason in one line."""


# -- reading one value ---------------------------------------------------------------------
def tag_of(node: Node, seen: dict[int, str]) -> int | None:
    """The piece's tag id, if it names one (each tag once: ``seen`` maps it to its path)."""
    field = node.get("tag")
    if field.is_null():
        return None
    tag = field.integer(FIRST_TAG_ID, LAST_TAG_ID)
    if tag in seen:
        raise field.fail(f"tag {tag} is already on {seen[tag]}")
    seen[tag] = node.path
    return tag


def piece_id(node: Node, tag: int | None, prefix: str, ids: set[str]) -> str:
    """The piece's ``id``, else ``prefix`` and its tag; each id once (``ids``)."""
    field = node.get("id")
    if field.is_null():
        if tag is None:
            raise node.fail("give the piece an 'id' or a 'tag'")
        piece = f"{prefix}{tag}"
    else:
        piece = field.string(non_empty=True)
    if piece in ids:
        raise (node if field.is_null() else field).fail(f"id {piece!r} is used twice")
    ids.add(piece)
    return piece


def pieces_of(document: Node, key: str, read: Callable[[Node], dict[str, Any]],
              min_length: int = 1) -> list[dict[str, Any]]:
    """Each entry of the list ``key``, read."""
    return [read(entry) for entry in document[key].items(min_length=min_length)]


def read_copy(wiring: CatalogueWiring, document: Node) -> dict[str, Any]:
    """The engine's catalogue for a copy's file of the game ``wiring`` reads; bad values
    raise InputError at their path."""
    game = wiring.game
    document.obj()
    named = document.get("game")
    if not named.is_null() and named.value != game:
        raise named.fail(f"this is a catalogue of {named.value!r}, not of {game!r}")
    return wiring.read(document, default_catalogue(game))


def check_playable(game: str, catalogue: dict[str, Any], players: int | None = None) -> None:
    """Set ``game`` up with ``catalogue`` for ``players`` (default: the fewest it takes) and
    play it once at random; :class:`CopyError` with the engine's reason when it cannot."""
    engine = get_game(game)
    count = engine.min_players if players is None else players
    names = [f"P{index + 1}" for index in range(count)]
    try:
        state = engine.new_game(names, seed=0, catalogue=catalogue)
        play_randomly(state, random.Random(0))
    except (ValueError, KeyError, TypeError, IndexError) as error:
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        raise CopyError(f"{game} cannot be played with this catalogue by {count} players: "
                        f"{reason}") from None


def checked_copy(wiring: CatalogueWiring, document: Node,
                 players: int | None = None) -> dict[str, Any]:
    """The engine catalogue of a copy's ``document``, checked value by value and played once
    by ``players``; InputError at a value's JSON path, :class:`CopyError` (the document's
    path, then the engine's reason) when the engine cannot play it.

    Example (a catalogue sent inline, as ``POST /api/tables`` takes it)::

        >>> from station.catalogue.wiring import CatalogueWiring, Lesson
        >>> deck = CatalogueWiring(Lesson("small-warehouse", "colour", "card", "cards", dict),
        ...     read=lambda document, defaults: {"cards": pieces_of(document, "cards", dict)},
        ...     counted=("cards",))
        >>> checked_copy(deck, Node({"cards": []}, "$.game.catalogue"))
        Traceback (most recent call last):
        ...
        station.errors.InputError: $.game.catalogue.cards: must have at least 1 entry
    """
    catalogue = read_copy(wiring, document)
    try:
        check_playable(wiring.game, catalogue, players)
    except CopyError as error:
        raise CopyError(str(error) if document.path == "$" else f"{document.path}: {error}") \
            from None
    return catalogue


def load_copy(wiring: CatalogueWiring, path: str | Path,
              players: int | None = None) -> dict[str, Any]:
    """The checked, playable engine catalogue in the file ``path`` (for ``--catalogue FILE``).

    Every error is one line starting with the file's name.
    """
    return in_file(path, lambda document: checked_copy(wiring, document, players))


def in_file(path: str | Path, read: Callable[[Node], T]) -> T:
    """``read`` of the JSON file ``path``; an InputError of either starts with the file's
    name."""
    try:
        return read(load_json_file(path))
    except InputError as error:
        text = str(error)
        raise type(error)(text if text.startswith(str(path)) else f"{path}: {text}") from None


def summary(wiring: CatalogueWiring, catalogue: dict[str, Any]) -> dict[str, int]:
    """How many of each kind of piece ``catalogue`` holds (the lists ``wiring`` counts),
    e.g. ``{"cards": 20}``."""
    return {key: len(value) for key, value in catalogue.items()
            if isinstance(value, list) and key in wiring.counted}
