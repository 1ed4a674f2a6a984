"""Small Warehouse's record: what the station knows of it (see :mod:`station.games`)."""

from __future__ import annotations

from rules.games.small_warehouse.referee import Referee
from station.games.record import CameraWiring, GameRecord
from station.games.small_warehouse.advise import small_warehouse_document
from station.games.small_warehouse.camera import WarehouseReader, entries, lay, mats, roles
from station.games.small_warehouse.catalogue import CATALOGUE
from station.games.small_warehouse.presenter import LEGEND, view
from station.games.small_warehouse.scorer import score_document
from station.games.small_warehouse.tapping import reveal_picture, tapping
from station.games.small_warehouse.words import describe, reveal_label

NAME = "small-warehouse"
# Two players a table: who beat whom decides first, then the strength of the opponents met
# (points depend on the layouts drawn).
TIE_BREAKERS = ("wins", "head_to_head", "opponents_strength", "points")

RECORD = GameRecord(
    name=NAME, title="Small Warehouse", order=10, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=WarehouseReader, lay=lay,
                        seen=("warehouses",), entries=entries, reads_unknown=True),
    mats=mats, catalogue=CATALOGUE, tie_breakers=TIE_BREAKERS,
    ranked_placements=small_warehouse_document, tapping=tapping, reveal_picture=reveal_picture,
    advice_seconds=1.0)
