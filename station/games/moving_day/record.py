"""Moving Day's record: what the station knows of it (see :mod:`station.games`)."""

from __future__ import annotations

from rules.games.moving_day.referee import Referee
from station.games.moving_day.camera import VehicleReader, entries, lay, mats, roles
from station.games.moving_day.catalogue import CATALOGUE
from station.games.moving_day.presenter import LEGEND, view
from station.games.moving_day.scorer import score_document
from station.games.moving_day.words import describe, reveal_label
from station.games.record import CameraWiring, GameRecord

NAME = "moving-day"
# Games at tables of 2-8: points are comparable across tables (same scoring for everyone),
# so they come before the opponents' strength; head-to-head last (tied players have
# rarely met).
TIE_BREAKERS = ("wins", "points", "opponents_strength", "head_to_head")

RECORD = GameRecord(
    name=NAME, title="Moving Day", order=20, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=VehicleReader, lay=lay, seen=("vehicles",),
                        entries=entries),
    mats=mats, sticker_size="cell", tagged=("boxes",), tag_order=20,
    catalogue=CATALOGUE, tie_breakers=TIE_BREAKERS,
    advice_seconds=2.0)  # a playout: tens of ms (its vehicles' placements)
