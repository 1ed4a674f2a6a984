"""Small Warehouse: two players lay cards of merchandise into their own warehouses.

The engine (:mod:`~rules.games.small_warehouse.engine`), the grid and its turned cards
(:mod:`~rules.games.small_warehouse.grid`), its scoring
(:mod:`~rules.games.small_warehouse.scoring`), the advisor's heuristic and rankings
(:mod:`~rules.games.small_warehouse.advice`) and the camera referee
(:mod:`~rules.games.small_warehouse.referee`).

The package's ``GAME`` is what :mod:`rules.registry` registers; the referee, which only
the station needs, is imported on its own (``rules.games.small_warehouse.referee``).
"""

from rules.games.small_warehouse.advice import (
    WarehouseEvaluator,
    WarehousePlacement,
    rank_warehouse_placements,
    warehouse_value,
)
from rules.games.small_warehouse.engine import (
    EITHER,
    GAME,
    GAME_NAME,
    SmallWarehouseGame,
    SmallWarehouseState,
    catalogue_cards,
)
from rules.games.small_warehouse.grid import (
    EMPTY_BOX,
    MERCHANDISE,
    NO_CARD,
    ROTATIONS,
    rotate_clockwise,
)
from rules.games.small_warehouse.scoring import (
    MIN_SCORING_BLOCK,
    KindScore,
    WarehouseScore,
    score_warehouse,
    warehouse_winners,
)

__all__ = [
    "EITHER",
    "EMPTY_BOX",
    "GAME",
    "GAME_NAME",
    "MERCHANDISE",
    "MIN_SCORING_BLOCK",
    "NO_CARD",
    "ROTATIONS",
    "KindScore",
    "SmallWarehouseGame",
    "SmallWarehouseState",
    "WarehouseEvaluator",
    "WarehousePlacement",
    "WarehouseScore",
    "catalogue_cards",
    "rank_warehouse_placements",
    "rotate_clockwise",
    "score_warehouse",
    "warehouse_value",
    "warehouse_winners",
]
