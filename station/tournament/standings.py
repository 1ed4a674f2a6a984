"""Standings from game results, ordered by configurable, deterministic tie-breakers.

Each finished game gives every player in it a total and says who won (several
players when the game's own tie-breaks leave a shared victory; a shared win
counts as a win for each). Players are ordered by the tie-breakers in turn:

``wins``          games won
``points``        sum of game totals
``average``       points per game played
``head_to_head``  among the players still tied, games in which the player
                  scored more than another of them
``opponents``     the wins of every opponent met, summed (a Buchholz score)
``opponents_strength``  the multiplayer form of opponents' win percentage: for each
                  game with opponents, the mean of their win rates (``wins / played``,
                  at least ``OPPONENT_WIN_RATE_FLOOR``); then the mean over those games.
                  A 4-player table counts as one game, its three opponents averaged,
                  so a player is not rewarded for merely sitting at bigger tables.
``fewest_games``  fewer games played ranks higher

A bye is a game won alone: it counts as played and won, with no points and no
opponents. Standings are always re-derived from every final result, so a
result corrected later moves everything after it (ranks, strengths, pairings).

Players still level after every tie-breaker share a rank and are listed by
name, so the order never depends on chance or on the order of entry.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from station.tournament.config import DEFAULT_TIE_BREAKERS, OPPONENT_WIN_RATE_FLOOR

TIE_BREAKERS = ("wins", "points", "average", "head_to_head", "opponents", "opponents_strength",
                "fewest_games")
__all__ = [
    "DEFAULT_TIE_BREAKERS",
    "TIE_BREAKERS",
    "GameResult",
    "Standing",
    "check_tie_breakers",
    "standings",
    "standings_csv",
]
CSV_COLUMNS = ("rank", "player", "played", "wins", "points", "average", "opponents",
               "opponents_strength")


@dataclass(frozen=True)
class GameResult:
    """One finished game: each player's total and the winners."""

    scores: dict[str, int]
    winners: list[str]


@dataclass
class Standing:
    """A player's line in the standings."""

    player: str
    played: int = 0
    wins: int = 0
    points: int = 0
    opponents: int = 0
    opponents_strength: Fraction = Fraction(0)
    rank: int = 0
    opponents_met: list[str] = field(default_factory=list)
    tables_met: list[list[str]] = field(default_factory=list)

    @property
    def average(self) -> Fraction:
        return Fraction(self.points, self.played) if self.played else Fraction(0)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "played": self.played,
                "wins": self.wins, "points": self.points,
                "average": round(float(self.average), 2), "opponents": self.opponents,
                "opponents_strength": round(float(self.opponents_strength), 3)}

    @property
    def win_rate(self) -> Fraction:
        rate = Fraction(self.wins, self.played) if self.played else Fraction(0)
        return max(rate, Fraction(OPPONENT_WIN_RATE_FLOOR).limit_denominator(1000))


def check_tie_breakers(names: Sequence[str]) -> list[str]:
    """The tie-breakers, validated: known names, each at most once."""
    unknown = [name for name in names if name not in TIE_BREAKERS]
    if unknown:
        raise ValueError(f"unknown tie-breaker {unknown[0]!r} (known: {', '.join(TIE_BREAKERS)})")
    if len(set(names)) != len(names):
        raise ValueError("a tie-breaker is listed twice")
    return list(names)


def _tally(players: Sequence[str], results: Sequence[GameResult]) -> dict[str, Standing]:
    lines = {player: Standing(player) for player in players}
    for result in results:
        for player, total in result.scores.items():
            line = lines.setdefault(player, Standing(player))
            line.played += 1
            line.points += total
            line.wins += player in result.winners
            others = [other for other in result.scores if other != player]
            line.opponents_met += others
            if others:
                line.tables_met.append(others)
    for line in lines.values():
        line.opponents = sum(lines[other].wins for other in line.opponents_met)
        strengths = [sum((lines[o].win_rate for o in table), Fraction(0)) / len(table)
                     for table in line.tables_met]
        line.opponents_strength = (sum(strengths, Fraction(0)) / len(strengths)
                                   if strengths else Fraction(0))
    return lines


def _head_to_head(group: list[Standing], results: Sequence[GameResult]) -> dict[str, int]:
    names = {line.player for line in group}
    beaten = dict.fromkeys(names, 0)
    for result in results:
        present = [name for name in result.scores if name in names]
        for player in present:
            beaten[player] += sum(result.scores[player] > result.scores[other]
                                  for other in present if other != player)
    return beaten


def _key(criterion: str, line: Standing, head_to_head: dict[str, int]) -> Any:
    if criterion == "head_to_head":
        return head_to_head[line.player]
    if criterion == "fewest_games":
        return -line.played
    return getattr(line, criterion)


def _split(group: list[Standing], criterion: str,
           results: Sequence[GameResult]) -> list[list[Standing]]:
    """``group`` ordered by ``criterion`` (best first), cut where the value changes."""
    h2h = _head_to_head(group, results) if criterion == "head_to_head" else {}
    ordered = sorted(group, key=lambda line: _key(criterion, line, h2h), reverse=True)
    pieces: list[list[Standing]] = []
    for line in ordered:
        if pieces and _key(criterion, pieces[-1][0], h2h) == _key(criterion, line, h2h):
            pieces[-1].append(line)
        else:
            pieces.append([line])
    return pieces


def standings(players: Sequence[str], results: Sequence[GameResult],
              tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> list[Standing]:
    """Every player's standing, best first, ranks shared only by a complete tie."""
    lines = _tally(players, results)
    groups = [sorted(lines.values(), key=lambda line: line.player)]
    for criterion in check_tie_breakers(tie_breakers):
        groups = [piece for group in groups
                  for piece in (_split(group, criterion, results) if len(group) > 1 else [group])]
    ordered: list[Standing] = []
    for group in groups:
        rank = len(ordered) + 1
        for line in sorted(group, key=lambda line: line.player):
            line.rank = rank
            ordered.append(line)
    return ordered


def standings_csv(lines: Sequence[Standing]) -> str:
    """The standings as CSV text with a header row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in lines:
        row = line.to_json()
        writer.writerow([row[key] for key in CSV_COLUMNS])
    return buffer.getvalue()
