"""The printable kit's mats, from every game's record (``packref kit``, the camera's layout).

The mats are planned in the records' ``order``, so the same kit always gets the
same mat numbers; ``sizes`` gives the cell sides in mm a record's mats take
(``"cell"``: the mats, ``"truck"``: Removal's truck frames, ``"shop"``: the shop grid).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.catalogue import default_catalogue
from station.games import game_records
from vision.kit import MatRequest

KIT_SIZES = {"cell": 20.0, "truck": 20.0, "shop": 70.0}  # packref kit's defaults


def catalogued_games() -> list[str]:
    """The games whose catalogue pieces carry tag stickers (their catalogue shapes the kit)."""
    return [record.name for record in game_records() if record.tagged]


def default_catalogues() -> dict[str, dict[str, Any]]:
    """The default catalogue (``rules/catalogues``) of each game with tagged pieces."""
    return {game: default_catalogue(game) for game in catalogued_games()}


def mat_requests(catalogues: Mapping[str, Any], per_game: int,
                 sizes: Mapping[str, float] = KIT_SIZES) -> list[MatRequest]:
    """The mats of each game (its record's :class:`~station.games.MatPlan` list), for as many
    players as ``per_game`` mat numbers allow."""
    return [MatRequest(record.name, plan.label, plan.rows, plan.cols, plan.kind, plan.cell_mm,
                       frame=plan.frame)
            for record in game_records() if record.mats is not None
            for plan in record.mats(catalogues, per_game, sizes)]
