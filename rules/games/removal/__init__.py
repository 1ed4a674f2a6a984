"""Removal: pick items from the house, load them into your truck, drive off, three rounds.

The engine (:mod:`~rules.games.removal.engine`), its truck and loading rules
(:mod:`~rules.games.removal.truck`), its deal as chance steps
(:mod:`~rules.games.removal.deal`), its end-of-game scoring
(:mod:`~rules.games.removal.scoring`), the views presenters read
(:mod:`~rules.games.removal.views`), the advisor's heuristic and rankings
(:mod:`~rules.games.removal.advice`) and the camera referee
(:mod:`~rules.games.removal.referee`).

The package's ``GAME`` is what :mod:`rules.registry` registers; the referee, which only
the station needs, is imported on its own (``rules.games.removal.referee``).
"""

from rules.games.removal.advice import RemovalEvaluator, TruckPlacement, rank_truck_placements
from rules.games.removal.engine import GAME, NAME, RemovalGame, RemovalState, tile_spec
from rules.games.removal.scoring import FinalHand, Transported, final_parts
from rules.games.removal.truck import ROTATIONS, TileSpec, Truck
from rules.games.removal.views import RemovalPlayer, TileFacts, TruckTile

__all__ = [
    "GAME",
    "NAME",
    "ROTATIONS",
    "FinalHand",
    "RemovalEvaluator",
    "RemovalGame",
    "RemovalPlayer",
    "RemovalState",
    "TileFacts",
    "TileSpec",
    "Transported",
    "Truck",
    "TruckPlacement",
    "TruckTile",
    "final_parts",
    "rank_truck_placements",
    "tile_spec",
]
