"""``packref score pick-n-packers FILE``: score a game's rounds (docs/formats.md §3).

Input: ``{"players": [...], "rounds": [{"pilots": [a, b], "reached": 0-9,
"speculations": {name: 0-9, ...}}, ...]}``. Every player who is not a pilot
speculates exactly once per round and no two speculators hold the same card.
"""

from __future__ import annotations

from typing import Any

from rules.games.pick_n_packers import (
    FULL_CIRCUIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PILOTS_PER_ROUND,
    SPECULATION_CARDS,
    RoundResult,
    score_rounds,
)
from station.jsonin import Node


def score_document(node: Node) -> dict[str, Any]:
    """Validate the document and return totals, each round's points, completeness, winners."""
    players = read_players(node["players"])
    rounds = [read_round(entry, players) for entry in node["rounds"].items()]
    score = score_rounds(players, rounds)
    return {
        "players": [{"player": player, "total": score.totals[player]} for player in players],
        "rounds": score.rounds,
        "complete": score.complete,
        "winners": score.winners,
    }


def read_players(node: Node) -> list[str]:
    """The players' names: 3 to 8, non-empty, all different."""
    players: list[str] = []
    for entry in node.items(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS):
        name = entry.string(non_empty=True)
        if name in players:
            raise entry.fail(f"player {name!r} is listed twice")
        players.append(name)
    return players


def read_round(node: Node, players: list[str]) -> RoundResult:
    """One round, checked against the rules: two listed pilots, one card per speculator."""
    pilots = _read_pilots(node["pilots"], players)
    reached = node["reached"].integer(0, FULL_CIRCUIT)
    speculations_node = node["speculations"]
    speculations: dict[str, int] = {}
    holders: dict[int, str] = {}
    for name, guess_node in speculations_node.fields():
        if name not in players:
            raise guess_node.fail(f"{name!r} is not one of the players")
        if name in pilots:
            raise guess_node.fail(f"{name!r} is a pilot in this round and does not speculate")
        guess = guess_node.integer(SPECULATION_CARDS[0], SPECULATION_CARDS[-1])
        if guess in holders:
            raise guess_node.fail(f"card {guess} is already held by {holders[guess]!r}")
        holders[guess] = name
        speculations[name] = guess
    missing = [name for name in players if name not in pilots and name not in speculations]
    if missing:
        raise speculations_node.fail(f"missing the speculation of {missing[0]!r}")
    return RoundResult(tuple(pilots), reached, speculations)


def _read_pilots(node: Node, players: list[str]) -> list[str]:
    pilots: list[str] = []
    for entry in node.items(min_length=PILOTS_PER_ROUND, max_length=PILOTS_PER_ROUND):
        name = entry.string()
        if name not in players:
            raise entry.fail(f"{name!r} is not one of the players")
        if name in pilots:
            raise entry.fail(f"{name!r} cannot be both pilots")
        pilots.append(name)
    return pilots
