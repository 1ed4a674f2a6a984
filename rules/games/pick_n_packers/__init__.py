"""Pick 'n Packers: two pilots carry presents on a drone from shop to shop; the others bet.

The engine (:mod:`~rules.games.pick_n_packers.engine`), its scoring
(:mod:`~rules.games.pick_n_packers.scoring`), the views presenters read
(:mod:`~rules.games.pick_n_packers.views`), the advisor's guess of the cards laid face
down (:mod:`~rules.games.pick_n_packers.advice`) and the drone referee
(:mod:`~rules.games.pick_n_packers.referee`).

The package's ``GAME`` is what :mod:`rules.registry` registers; the referee, which only
the station needs, is imported on its own (``rules.games.pick_n_packers.referee``).
"""

from rules.games.pick_n_packers.engine import (
    FULL_CIRCUIT,
    GAME,
    GAME_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILOTS_PER_ROUND,
    PickNPackersGame,
    PickNPackersState,
    rounds_in_game,
)
from rules.games.pick_n_packers.scoring import (
    SPECULATION_CARDS,
    TIMES_PILOT,
    GameScore,
    RoundResult,
    round_points,
    score_rounds,
    speculation_points,
)
from rules.games.pick_n_packers.views import PlayedRound

__all__ = [
    "FULL_CIRCUIT",
    "GAME",
    "GAME_NAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PILOTS_PER_ROUND",
    "SPECULATION_CARDS",
    "TIMES_PILOT",
    "GameScore",
    "PickNPackersGame",
    "PickNPackersState",
    "PlayedRound",
    "RoundResult",
    "round_points",
    "rounds_in_game",
    "score_rounds",
    "speculation_points",
]
