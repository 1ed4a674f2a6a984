"""What a Removal table shows, as typed read-only values for presenters.

:class:`~rules.games.removal.engine.RemovalState` hands these out
(:meth:`~rules.games.removal.engine.RemovalState.tile_facts`,
:meth:`~rules.games.removal.engine.RemovalState.facts_of_tile`,
:meth:`~rules.games.removal.engine.RemovalState.player_view`), so that a presenter never
indexes the engine's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TileFacts:
    """An item or a box of the copy: its printed name (None when the catalogue has none) and
    its shape (rows of ``#`` squares and ``.``)."""

    name: str | None
    shape: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TruckTile:
    """A tile loaded in a truck: its id, the top-left corner of its turned shape, how it is
    turned (degrees clockwise, after a mirror when ``flip``) and whether it is damaged."""

    item: str
    row: int
    col: int
    rotation: int
    flip: bool
    damaged: bool


@dataclass(frozen=True, slots=True)
class RemovalPlayer:
    """One player's side of the table: points on the track, the item in storage (None:
    empty), the helper cards still in hand and the tiles in the truck."""

    track: int
    storage: str | None
    helpers: tuple[int, ...]
    truck: tuple[TruckTile, ...]
