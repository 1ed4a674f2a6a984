"""Moving Day: fill your scooter, car and truck with boxes, and seat helpers who carry them.

The engine (:mod:`~rules.games.moving_day.engine`: the game, its state, its chance steps),
its scoring (:mod:`~rules.games.moving_day.scoring`), where boxes may go
(:mod:`~rules.games.moving_day.placement`), the views presenters read
(:mod:`~rules.games.moving_day.views`) and the camera referee
(:mod:`~rules.games.moving_day.referee`).

The package's ``GAME`` is what :mod:`rules.registry` registers; the referee, which only
the station needs, is imported on its own (``rules.games.moving_day.referee``).
"""

from rules.games.moving_day.engine import GAME, GAME_NAME, UNSEEN, MovingDay, MovingDayState
from rules.games.moving_day.placement import NO_SPACE, SPACE, Fleet, fleet_for
from rules.games.moving_day.scoring import (
    DamagedBox,
    LoadedBox,
    LoadedVehicle,
    LoadScore,
    SeatedHelper,
    loaded_vehicles_from,
    score_load,
    winners_of,
)
from rules.games.moving_day.views import BoxFacts, VehicleView

__all__ = [
    "GAME",
    "GAME_NAME",
    "NO_SPACE",
    "SPACE",
    "UNSEEN",
    "BoxFacts",
    "DamagedBox",
    "Fleet",
    "LoadScore",
    "LoadedBox",
    "LoadedVehicle",
    "MovingDay",
    "MovingDayState",
    "SeatedHelper",
    "VehicleView",
    "fleet_for",
    "loaded_vehicles_from",
    "score_load",
    "winners_of",
]
