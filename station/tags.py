"""Which tag sticker goes on which piece: tag ids 50–249 assigned from the catalogues.

The camera identifies a piece by the ArUco tag stuck on it. Ids are handed
out in a fixed order, so the same catalogues always give the same stickers:
the tagged catalogue keys of each game's record (:mod:`station.games`) in the
records' ``tag_order`` — Removal's ``items`` then ``boxes``, Moving Day's
``boxes``, Pick 'n Packers' ``shop_cards`` —, then the loose tagged things
(the drone), and last the *back* stickers of the tiles whose shape differs from
its mirror image (seeing that sticker means the tile lies flipped; Removal).
A piece of a copy's catalogue that names its ``tag`` (the sticker
already on it, learnt by ``packref catalogue learn``) keeps that id; the others
take the free ids in the same order.

Example::

    >>> removal = {"items": [{"id": "I01", "shape": ["##", "#."]},
    ...                      {"id": "I02", "shape": ["##."  , ".##"]}], "boxes": []}
    >>> tags = assign_tags({"removal": removal, "moving-day": {"boxes": [{"id": "box-01"}]},
    ...                     "pick-n-packers": {"shop_cards": [{"id": "shop-0"}]}})
    >>> for tag_id, piece in sorted(tags.items()):
    ...     print(tag_id, piece["game"], piece["piece"], piece["face"])
    50 removal I01 front
    51 removal I02 front
    52 moving-day box-01 front
    53 pick-n-packers shop-0 front
    54 pick-n-packers drone front
    55 removal I02 back
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from station.errors import InputError
from station.games import GameRecord, game_records
from station.kit import default_catalogues
from vision.config import FIRST_TAG_ID, LAST_TAG_ID


def tagged_pieces() -> list[tuple[str, str]]:
    """(game, catalogue key) in the order tags are handed out.

    >>> tagged_pieces()
    [('removal', 'items'), ('removal', 'boxes'), ('moving-day', 'boxes'), \
('pick-n-packers', 'shop_cards')]
    """
    return [(record.name, key) for record in _tagged_records() for key in record.tagged]


def _tagged_records() -> list[GameRecord]:
    return sorted((record for record in game_records() if record.tagged or record.loose_tags),
                  key=lambda record: record.tag_order)


def _normalised(squares: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    top = min(r for r, _ in squares)
    left = min(c for _, c in squares)
    return frozenset((r - top, c - left) for r, c in squares)


def is_chiral(shape: list[str]) -> bool:
    """Whether a shape (rows of ``#``) differs from its mirror image under every rotation."""
    squares = {(r, c) for r, row in enumerate(shape) for c, char in enumerate(row) if char == "#"}
    if not squares:
        return False
    turns, current = set(), squares
    for _ in range(4):
        current = {(c, -r) for r, c in current}
        turns.add(_normalised(current))
    return _normalised({(r, -c) for r, c in squares}) not in turns


def assign_tags(catalogues: Mapping[str, Mapping[str, Any]]) -> dict[int, dict[str, str]]:
    """Tag id → ``{"game", "kind", "piece", "face"}`` for every piece the camera identifies.

    ``catalogues`` maps a game name to its catalogue; games missing from it get
    no tags. Raises :class:`InputError` when a piece id repeats or 200 ids are
    not enough.
    """
    pieces: list[dict[str, str]] = []
    backs: list[dict[str, str]] = []
    fixed: dict[int, dict[str, str]] = {}
    records = _tagged_records()
    backed = {record.name for record in records if record.tag_backs}
    for game, kind in tagged_pieces():
        seen: set[str] = set()
        for index, entry in enumerate(catalogues.get(game, {}).get(kind, [])):
            piece = str(entry["id"])
            if piece in seen:
                raise InputError(f"{game} catalogue: $.{kind}[{index}].id: {piece!r} repeats")
            seen.add(piece)
            front = {"game": game, "kind": kind, "piece": piece, "face": "front"}
            if entry.get("tag") is not None:
                _fix(fixed, int(entry["tag"]), front, f"{game} catalogue: $.{kind}[{index}].tag")
            else:
                pieces.append(front)
            if game in backed and is_chiral(list(entry.get("shape", []))):
                backs.append({"game": game, "kind": kind, "piece": piece, "face": "back"})
    for record in records:
        if record.name in catalogues:
            pieces += [{"game": record.name, "kind": loose, "piece": loose, "face": "front"}
                       for loose in record.loose_tags]
    every = pieces + backs
    free = [tag for tag in range(FIRST_TAG_ID, LAST_TAG_ID + 1) if tag not in fixed]
    if len(every) > len(free):
        raise InputError(f"catalogues: {len(every) + len(fixed)} tagged pieces, but only "
                         f"{LAST_TAG_ID - FIRST_TAG_ID + 1} tag ids ({FIRST_TAG_ID}-{LAST_TAG_ID})")
    return dict(sorted({**fixed, **dict(zip(free, every, strict=False))}.items()))


def _fix(fixed: dict[int, dict[str, str]], tag: int, piece: dict[str, str], where: str) -> None:
    """Give ``piece`` the tag id its catalogue names, once."""
    if not FIRST_TAG_ID <= tag <= LAST_TAG_ID:
        raise InputError(f"{where}: must be {FIRST_TAG_ID}..{LAST_TAG_ID}")
    if tag in fixed:
        raise InputError(f"{where}: tag {tag} is also on {fixed[tag]['piece']}")
    fixed[tag] = piece


def default_tags() -> dict[int, dict[str, str]]:
    """The tags of the default catalogues shipped in ``rules/catalogues``."""
    return assign_tags(default_catalogues())


def tags_for_game(tags: Mapping[int, Mapping[str, str]], game: str) -> dict[int, dict[str, str]]:
    """The plain tag → piece mapping a game's vision reader takes (``vision.games``)."""
    return {tag_id: {"piece": piece["piece"], "face": piece["face"]}
            for tag_id, piece in tags.items() if piece["game"] == game}
