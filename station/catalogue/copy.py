"""A copy's catalogue file: checked value by value, completed from the defaults, played once.

The file ``packref catalogue learn`` writes and ``packref catalogue edit`` fills
holds what a physical copy has (contracts §11)::

    {"game": "removal", "items": [{"tag": 57, "shape": ["##", "#."], "heavy": true, ...}]}

:func:`read_copy` turns it into the catalogue the engine takes: every value
checked at its JSON path with the scoring commands' one-line errors (``$.boxes[2]
.weight: must be 1..7``), pieces named by their tag when they have no ``id``
(``T57``), a Removal item with a box ``value`` counted as a box, and what the
camera does not teach (trucks, house, vehicles, helper cards...) taken from the
default catalogue unless the file gives it. :func:`check_playable` then sets the
game up through its engine and plays it once at random: a catalogue the engine
cannot play is refused with the reason.

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

from station.catalogue.config import MAX_PRESENT_G
from station.errors import InputError
from station.jsonin import Node, load_json_file

GAMES = ("small-warehouse", "removal", "moving-day", "pick-n-packers")
MERCHANDISE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FIRST_TAG, LAST_TAG = 50, 249
MAX_BOX_VALUE = 2
DELICATE_GOOD, DELICATE_BAD = (0, 9), (-9, 0)
#: The keys each game's copy learns from the camera (the rest may come from the defaults).
LEARNT_KEY = {"small-warehouse": "cards", "removal": "items", "moving-day": "boxes",
              "pick-n-packers": "shop_cards"}


class CopyError(InputError):
    """A catalogue the engine cannot play; the message gives the reason in one line."""


def learnt_document(game: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The file ``catalogue learn`` writes for ``entries`` recorded in order (contracts §11)."""
    document: dict[str, Any] = {"game": game, LEARNT_KEY[game]: entries}
    if game == "pick-n-packers":  # presents carry no tag: weigh them in 'catalogue edit'
        from rules.catalogue import default_catalogue

        document["presents"] = [{"id": present["id"], "material": present["material"]}
                                for present in default_catalogue(game)["presents"]]
    return document


# -- reading one value ---------------------------------------------------------------------
def _tag(node: Node, seen: dict[int, str]) -> int | None:
    field = node.get("tag")
    if field.is_null():
        return None
    tag = field.integer(FIRST_TAG, LAST_TAG)
    if tag in seen:
        raise field.fail(f"tag {tag} is already on {seen[tag]}")
    seen[tag] = node.path
    return tag


def _piece_id(node: Node, tag: int | None, prefix: str, ids: set[str]) -> str:
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


def _pieces(document: Node, key: str, read: Callable[[Node], dict[str, Any]],
            min_length: int = 1) -> list[dict[str, Any]]:
    return [read(entry) for entry in document[key].items(min_length=min_length)]


# -- the games -----------------------------------------------------------------------------
def _small_warehouse(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    ids: set[str] = set()

    def card(node: Node) -> dict[str, Any]:
        squares = node["squares"].grid(MERCHANDISE + "#.")
        if not "".join(squares).strip("."):
            raise node["squares"].fail("must have at least one square")
        return {"id": _piece_id(node, None, "c", ids), "squares": squares}

    return {"cards": _pieces(document, "cards", card)}


def _removal_piece(node: Node, tags: dict[int, str], ids: set[str], symbols: list[str],
                   trucks: list[list[str]]) -> dict[str, Any]:
    from station.catalogue.pieces import is_one_piece
    from station.inputs.removal import read_tile

    tag = _tag(node, tags)
    entry: dict[str, Any] = {"id": _piece_id(node, tag, "T", ids)}
    if tag is not None:
        entry["tag"] = tag
    spec = read_tile(entry["id"], node)
    shape = list(spec.shape)
    width = max(len(row) for row in shape)
    shape = [row.ljust(width, ".") for row in shape]
    if not is_one_piece(shape):
        raise node["shape"].fail("must be one piece: squares joined through edges, "
                                 "the top row not empty")
    entry["shape"] = shape
    for key in ("name",):
        if not node.get(key).is_null():
            entry[key] = node[key].string(non_empty=True)
    if spec.symbol is not None:
        if symbols and spec.symbol not in symbols:
            raise node["symbol"].fail(f"must be one of {', '.join(symbols)}")
        entry["symbol"] = spec.symbol
    if spec.delicate is not None:
        values = node["delicate"].items()
        entry["delicate"] = [values[0].integer(*DELICATE_GOOD), values[1].integer(*DELICATE_BAD)]
    for flag in ("heavy", "upright", "antique"):
        if getattr(spec, flag):
            entry[flag] = True
    if not node.get("value").is_null():
        entry["value"] = node["value"].integer(0, MAX_BOX_VALUE)
    if not any(_fits_truck(shape, truck, entry.get("upright", False)) for truck in trucks):
        raise node["shape"].fail("fits in no truck of the catalogue, turned any way allowed")
    return entry


def _fits_truck(shape: list[str], truck: list[str], upright: bool) -> bool:
    from station.catalogue.pieces import turned_clockwise

    turns = [shape, [row[::-1] for row in shape]] if upright else [
        turned_clockwise(rows, k) for rows in (shape, [row[::-1] for row in shape])
        for k in range(4)]
    for turn in turns:
        for top in range(len(truck) - len(turn) + 1):
            for left in range(len(truck[0]) - len(turn[0]) + 1):
                if all(char != "#" or truck[top + r][left + c] in ".-"
                       for r, row in enumerate(turn) for c, char in enumerate(row)):
                    return True
    return False


def _removal(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    catalogue = {key: document[key].value if document.has(key) else value
                 for key, value in defaults.items() if key not in ("notes", "items", "boxes")}
    trucks = [truck.grid(".-#") for truck in document.get("trucks", defaults["trucks"]).items(1)]
    symbols = [s.string(non_empty=True) for s in document.get("symbols", defaults["symbols"])
               .items()]
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def piece(node: Node) -> dict[str, Any]:
        return _removal_piece(node, tags, ids, symbols, trucks)

    def box(node: Node) -> dict[str, Any]:
        node["value"].integer(0, MAX_BOX_VALUE)  # a moving box has a value
        return piece(node)

    pieces = _pieces(document, "items", piece)
    boxes = _pieces(document, "boxes", box, 0) if document.has("boxes") else []
    boxes += [entry for entry in pieces if "value" in entry]
    catalogue["items"] = [entry for entry in pieces if "value" not in entry]
    catalogue["boxes"] = boxes or defaults["boxes"]
    return catalogue


def _moving_day(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    tags: dict[int, str] = {}
    ids: set[str] = set()

    def box(node: Node) -> dict[str, Any]:
        tag = _tag(node, tags)
        entry: dict[str, Any] = {"id": _piece_id(node, tag, "box-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        entry.update(type=node["type"].string(non_empty=True),
                     colour=node["colour"].string(non_empty=True),
                     fragile=node["fragile"].boolean(), weight=node["weight"].integer(1, 7),
                     points=node["points"].integer(1, 3))
        return entry

    helper_ids: set[str] = set()

    def helper(node: Node) -> dict[str, Any]:
        return {"id": _piece_id(node, None, "", helper_ids), "count": node["count"].integer(1, 3),
                "clumsy": node["clumsy"].boolean(), "strength": node["strength"].integer(1, 4)}

    helpers = document.get("helpers", defaults["helpers"])
    return {"vehicles": document.get("vehicles", defaults["vehicles"]).value,
            "boxes": _pieces(document, "boxes", box),
            "helpers": [helper(node) for node in helpers.items(min_length=1)],
            "snacks": document.get("snacks", defaults["snacks"]).value}


def _pick_n_packers(document: Node, defaults: dict[str, Any]) -> dict[str, Any]:
    tags: dict[int, str] = {}
    ids: set[str] = set()
    numbers: dict[int, str] = {}

    def shop(node: Node) -> dict[str, Any]:
        tag = _tag(node, tags)
        entry: dict[str, Any] = {"id": _piece_id(node, tag, "shop-T", ids)}
        if tag is not None:
            entry["tag"] = tag
        number = node["number"].integer(0, 8)
        if number in numbers:
            raise node["number"].fail(f"{number} is already the number of {numbers[number]}")
        numbers[number] = node.path
        label = node.get("label", "0/9" if number == 0 else str(number)).string(non_empty=True)
        return {**entry, "number": number, "label": label}

    present_ids: set[str] = set()

    def present(node: Node) -> dict[str, Any]:
        mass = node["mass_g"].number(0, MAX_PRESENT_G)
        if mass <= 0:
            raise node["mass_g"].fail(f"must be 0..{MAX_PRESENT_G:g} and more than 0")
        return {"id": _piece_id(node, None, "", present_ids),
                "material": node["material"].string(non_empty=True), "mass_g": mass}

    cards = _pieces(document, "shop_cards", shop)
    missing = sorted(set(range(9)) - set(numbers))
    if missing:
        raise document["shop_cards"].fail(
            f"the shop cards must be numbered 0 to 8, once each; missing {missing[0]}")
    return {"shop_cards": cards,
            "presents": [present(node) for node in
                         document.get("presents", defaults["presents"]).items(min_length=9)]}


READERS = {"small-warehouse": _small_warehouse, "removal": _removal,
           "moving-day": _moving_day, "pick-n-packers": _pick_n_packers}


def read_copy(game: str, document: Node) -> dict[str, Any]:
    """The engine's catalogue for a copy's file; bad values raise InputError at their path."""
    from rules.catalogue import default_catalogue

    if game not in READERS:
        raise InputError(f"GAME: no game called {game!r} (known: {', '.join(GAMES)})")
    document.obj()
    named = document.get("game")
    if not named.is_null() and named.value != game:
        raise named.fail(f"this is a catalogue of {named.value!r}, not of {game!r}")
    return READERS[game](document, default_catalogue(game))


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
    files = {game: folder / f"{game}.json" for game in GAMES if (folder / f"{game}.json").exists()}
    files.update({game: Path(path) for game, path in given.items()})
    return {game: load_copy(game, path) for game, path in files.items()}


def load_copy(game: str, path: str | Path, players: int | None = None) -> dict[str, Any]:
    """The checked, playable engine catalogue in the file ``path`` (for ``--catalogue FILE``).

    Every error is one line starting with the file's name.
    """
    try:
        catalogue = read_copy(game, load_json_file(path))
        check_playable(game, catalogue, players)
    except InputError as error:
        text = str(error)
        raise type(error)(text if text.startswith(str(path)) else f"{path}: {text}") from None
    return catalogue


def summary(game: str, catalogue: dict[str, Any]) -> dict[str, int]:
    """How many of each kind of piece ``catalogue`` holds, e.g. ``{"cards": 20}``."""
    return {key: len(value) for key, value in catalogue.items()
            if isinstance(value, list) and key in ("cards", "items", "boxes", "helpers",
                                                     "shop_cards", "presents")}
