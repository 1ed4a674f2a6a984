"""A copy's catalogue file: checked value by value, completed from the defaults, played once.

The file ``packref catalogue learn`` writes and ``packref catalogue edit`` fills
holds what a physical copy has (docs/formats.md §11)::

    {"game": "removal", "items": [{"tag": 57, "shape": ["##", "#."], "heavy": true, ...}]}

:func:`read_copy` turns it into the catalogue the engine takes: every value
checked at its JSON path with the scoring commands' one-line errors (``$.boxes[2]
.weight: must be 1..7``), pieces named by their tag when they have no ``id``
(``T57``), a Removal item with a box ``value`` counted as a box, and what the
camera does not teach (trucks, house, vehicles, helper cards...) taken from the
default catalogue unless the file gives it. Each game's reading is its record's
(:mod:`station.games`); the shared parts (tags, ids, lists) are here.
:func:`check_playable` then sets the game up through its engine and plays it
once at random: a catalogue the engine cannot play is refused with the reason.

Example::

    >>> from station.jsonin import Node
    >>> copy = read_copy("small-warehouse", Node({"cards": [{"id": "c01", "squares": ["AB"]}]}))
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
from typing import Any

from station.errors import InputError
from station.jsonin import Node, load_json_file
from vision.config import FIRST_TAG_ID, LAST_TAG_ID

# The limits a copy's values are checked against; each one's source is in docs/kit.md
# ("What each value may be").
MERCHANDISE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_BOX_VALUE = 2  # Removal's rulebook: a box has "0 to +2 points on its back"
# Removal's rulebook: a delicate item undamaged scores "the indicated plus points (or 0)",
# damaged "the indicated minus points"; at most one printed digit is our choice.
DELICATE_GOOD, DELICATE_BAD = (0, 9), (-9, -1)


class CopyError(InputError):
    """A catalogue the engine cannot play; the message gives the reason in one line."""


def catalogue_wiring(game: str) -> Any:
    """How ``game``'s copy is learnt and read: its record's ``catalogue``
    (:class:`station.games.CatalogueWiring`); InputError for a game without one."""
    from station.games import game_record

    record = game_record(game)
    if record is None or record.catalogue is None:
        raise InputError(f"GAME: no game called {game!r} (known: {', '.join(catalogue_games())})")
    return record.catalogue


def catalogue_games() -> list[str]:
    """The games a copy's catalogue can be learnt for."""
    from station.games import game_records

    return [record.name for record in game_records() if record.catalogue is not None]


def learnt_key(game: str) -> str:
    """The list of pieces ``game``'s copy learns from the camera (the rest may come from the
    defaults)."""
    return str(catalogue_wiring(game).lesson.key)


def learnt_document(game: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The file ``catalogue learn`` writes for ``entries`` recorded in order (formats §11)."""
    wiring = catalogue_wiring(game)
    document: dict[str, Any] = {"game": game, wiring.lesson.key: entries}
    if wiring.learnt_extras is not None:  # what carries no tag (Pick 'n Packers' presents)
        document.update(wiring.learnt_extras())
    return document


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


def read_copy(game: str, document: Node) -> dict[str, Any]:
    """The engine's catalogue for a copy's file; bad values raise InputError at their path."""
    from rules.catalogue import default_catalogue

    wiring = catalogue_wiring(game)
    document.obj()
    named = document.get("game")
    if not named.is_null() and named.value != game:
        raise named.fail(f"this is a catalogue of {named.value!r}, not of {game!r}")
    return wiring.read(document, default_catalogue(game))


def check_playable(game: str, catalogue: dict[str, Any], players: int | None = None) -> None:
    """Set ``game`` up with ``catalogue`` for ``players`` (default: the fewest it takes) and
    play it once at random; :class:`CopyError` with the engine's reason when it cannot."""
    from rules import get_game
    from rules.playout import play_randomly

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


def station_catalogues(folder: Path, given: dict[str, str]) -> dict[str, dict[str, Any]]:
    """The copies' catalogues a station plays with: ``given`` (game → file, from
    ``serve --catalogue``), else ``folder/GAME.json`` where there is one (the dashboard's
    catalogue page saves there). Each is checked; a bad one raises InputError."""
    files = {game: folder / f"{game}.json" for game in catalogue_games()
             if (folder / f"{game}.json").exists()}
    files.update({game: Path(path) for game, path in given.items()})
    return {game: load_copy(game, path) for game, path in files.items()}


def checked_copy(game: str, document: Node, players: int | None = None) -> dict[str, Any]:
    """The engine catalogue of a copy's ``document``, checked value by value and played once
    by ``players``; InputError at a value's JSON path, :class:`CopyError` (the document's
    path, then the engine's reason) when the engine cannot play it.

    Example (a catalogue sent inline, as ``POST /api/tables`` takes it)::

        >>> checked_copy("small-warehouse", Node({"cards": []}, "$.game.catalogue"))
        Traceback (most recent call last):
        ...
        station.errors.InputError: $.game.catalogue.cards: must have at least 1 entry
    """
    catalogue = read_copy(game, document)
    try:
        check_playable(game, catalogue, players)
    except CopyError as error:
        raise CopyError(str(error) if document.path == "$" else f"{document.path}: {error}") \
            from None
    return catalogue


def load_copy(game: str, path: str | Path, players: int | None = None) -> dict[str, Any]:
    """The checked, playable engine catalogue in the file ``path`` (for ``--catalogue FILE``).

    Every error is one line starting with the file's name.
    """
    try:
        catalogue = checked_copy(game, load_json_file(path), players)
    except InputError as error:
        text = str(error)
        raise type(error)(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return catalogue


def summary(game: str, catalogue: dict[str, Any]) -> dict[str, int]:
    """How many of each kind of piece ``catalogue`` holds, e.g. ``{"cards": 20}``."""
    return {key: len(value) for key, value in catalogue.items()
            if isinstance(value, list) and key in ("cards", "items", "boxes", "helpers",
                                                     "shop_cards", "presents")}
