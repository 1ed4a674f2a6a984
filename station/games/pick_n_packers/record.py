"""Pick 'n Packers' record: what the station knows of it (see :mod:`station.games`)."""

from __future__ import annotations

from rules.games.pick_n_packers.referee import Referee
from station.games.pick_n_packers.camera import LOOSE_TAGS, ShopReader, extend, mats, roles
from station.games.pick_n_packers.catalogue import CATALOGUE
from station.games.pick_n_packers.demo import DroneScale, skilful_pilots
from station.games.pick_n_packers.presenter import LEGEND, view
from station.games.pick_n_packers.scorer import score_document
from station.games.pick_n_packers.words import describe, reveal_label
from station.games.record import CameraWiring, DemoWiring, GameRecord

NAME = "pick-n-packers"
# Games at tables of 2-8: points are comparable across tables (same scoring for everyone),
# so they come before the opponents' strength; head-to-head last (tied players have
# rarely met).
TIE_BREAKERS = ("wins", "points", "opponents_strength", "head_to_head")

RECORD = GameRecord(
    name=NAME, title="Pick 'n Packers", order=40, referee=Referee, scorer=score_document,
    describe=describe, legend=LEGEND,
    presenter=view, reveal_label=reveal_label,
    camera=CameraWiring(roles=roles, reader=ShopReader, extend=extend),
    mats=mats, sticker_size="shop", tagged=("shop_cards",), tag_order=30, loose_tags=LOOSE_TAGS,
    catalogue=CATALOGUE, tie_breakers=TIE_BREAKERS,
    demo=DemoWiring(choose=skilful_pilots, readings=DroneScale))
