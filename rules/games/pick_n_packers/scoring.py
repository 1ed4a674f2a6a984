"""Pick 'n Packers' scoring: the pilots score the card reached; a speculator who guessed it
scores the guess + 1, one who guessed lower the guess, one who guessed higher 0.

Shared by the engine and by ``packref score pick-n-packers``.

Example::

    >>> result = RoundResult(("Ana", "Ben"), 6, {"Cas": 4})
    >>> round_points(result)
    {'Ana': 6, 'Ben': 6, 'Cas': 4}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

SPECULATION_CARDS = tuple(range(10))
TIMES_PILOT = 2  # every player pilots this many rounds in a complete game


@dataclass(frozen=True)
class RoundResult:
    """One finished round: its two pilots, the card reached (0–9) and each speculation."""

    pilots: tuple[str, ...]
    reached: int
    speculations: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameScore:
    """Scores of a series of rounds: totals, each round's points, completeness, winners."""

    totals: dict[str, int]
    rounds: list[dict[str, int]]
    complete: bool
    winners: list[str]


def speculation_points(guess: int, reached: int) -> int:
    """A speculator's points: guess + 1 when right, the guess when lower, 0 when higher.

    >>> speculation_points(6, 6), speculation_points(4, 6), speculation_points(7, 6)
    (7, 4, 0)
    """
    if guess == reached:
        return guess + 1
    return guess if guess < reached else 0


def round_points(result: RoundResult) -> dict[str, int]:
    """Points of one round: each pilot scores ``reached``, each speculator by the guess."""
    points = {pilot: result.reached for pilot in result.pilots}
    for speculator, guess in result.speculations.items():
        points[speculator] = speculation_points(guess, result.reached)
    return points


def score_rounds(players: Sequence[str], rounds: Sequence[RoundResult]) -> GameScore:
    """Score a game's rounds; ``complete`` when every player has piloted exactly twice.

    Players missing from a round score 0 in it; lists keep the order of ``players``.
    """
    per_round = []
    totals = dict.fromkeys(players, 0)
    pilot_turns = dict.fromkeys(players, 0)
    for result in rounds:
        points = round_points(result)
        per_round.append({player: points.get(player, 0) for player in players})
        for player in players:
            totals[player] += points.get(player, 0)
        for pilot in result.pilots:
            pilot_turns[pilot] += 1
    complete = all(turns == TIMES_PILOT for turns in pilot_turns.values())
    best = max(totals.values(), default=0)
    return GameScore(totals, per_round, complete,
                     [player for player in players if totals[player] == best])

