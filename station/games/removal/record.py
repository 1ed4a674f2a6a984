"""Removal's record: what the station knows of it (see :mod:`station.games`)."""

from __future__ import annotations

from rules.games.removal.referee import Referee
from station.games.record import CameraWiring, GameCommand, GameRecord
from station.games.removal.advise import removal_document
from station.games.removal.camera import TruckReader, extend, lay, mats, roles
from station.games.removal.catalogue import CATALOGUE
from station.games.removal.command import ORDER, add_commands
from station.games.removal.presenter import LEGEND, view
from station.games.removal.scorer import score_document
from station.games.removal.tapping import reveal_picture, tapping
from station.games.removal.words import describe, named_cells, reveal_label

NAME = "removal"
# Points are comparable across tables (same scoring for everyone), so they come before
# the opponents' strength; head-to-head last (tied players have rarely met).
TIE_BREAKERS = ("wins", "points", "opponents_strength", "head_to_head")

RECORD = GameRecord(
    name=NAME, title="Removal", order=30, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=TruckReader, extend=extend, lay=lay,
                        seen=("trucks", "truck")),
    mats=mats, sticker_size="truck", tagged=("items", "boxes"), tag_order=10, tag_backs=True,
    catalogue=CATALOGUE, tie_breakers=TIE_BREAKERS, ranked_placements=removal_document,
    command=GameCommand(order=ORDER, add=add_commands), named_cells=named_cells,
    tapping=tapping, reveal_picture=reveal_picture,
    advice_seconds=2.0)  # a playout: tens of ms (its trucks' placements)
