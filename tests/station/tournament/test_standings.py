"""Standings: tie-breakers in order, head-to-head among the tied, shared ranks, CSV."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from station.tournament.standings import GameResult, standings, standings_csv

RESULTS = [
    GameResult({"Ana": 30, "Ben": 20}, ["Ana"]),
    GameResult({"Ben": 25, "Cas": 15}, ["Ben"]),
    GameResult({"Cas": 40, "Ana": 10}, ["Cas"]),
    GameResult({"Dee": 12, "Eli": 12}, ["Dee", "Eli"]),  # a shared victory
]
PLAYERS = ["Ana", "Ben", "Cas", "Dee", "Eli"]


def order(lines) -> list[tuple[int, str]]:
    return [(line.rank, line.player) for line in lines]


def test_wins_then_points() -> None:
    lines = standings(PLAYERS, RESULTS, ["wins", "points"])
    assert order(lines) == [(1, "Cas"), (2, "Ben"), (3, "Ana"), (4, "Dee"), (4, "Eli")]
    assert lines[0].to_json() == {"rank": 1, "player": "Cas", "played": 2, "wins": 1,
                                  "points": 55, "average": 27.5, "opponents": 2,
                                  "opponents_strength": 0.5}


def test_head_to_head_only_counts_games_among_the_tied_players() -> None:
    results = [GameResult({"Ana": 10, "Ben": 9}, ["Ana"]),
               GameResult({"Ben": 30, "Cas": 1}, ["Ben"]),
               GameResult({"Cas": 5, "Dee": 4}, ["Cas"])]
    # Ana, Ben and Cas have one win each; Ben has the most points, but Ana beat Ben.
    assert order(standings(["Ana", "Ben", "Cas", "Dee"], results, ["wins", "head_to_head"]))[:2] \
        == [(1, "Ana"), (1, "Ben")]
    assert order(standings(["Ana", "Ben", "Cas", "Dee"], results,
                           ["wins", "head_to_head", "points"])) == [
        (1, "Ben"), (2, "Ana"), (3, "Cas"), (4, "Dee")]
    assert order(standings(["Ana", "Ben", "Cas", "Dee"], results, ["points"]))[0] == (1, "Ben")


def test_fewest_games_and_average() -> None:
    results = [GameResult({"Ana": 20, "Ben": 10}, ["Ana"]),
               GameResult({"Ben": 30, "Cas": 10}, ["Ben"])]
    assert order(standings(["Ana", "Ben", "Cas"], results, ["average"])) == [
        (1, "Ana"), (1, "Ben"), (3, "Cas")]
    assert order(standings(["Ana", "Ben", "Cas"], results, ["wins", "fewest_games"])) == [
        (1, "Ana"), (2, "Ben"), (3, "Cas")]


def test_the_order_never_depends_on_the_order_of_entry() -> None:
    expected = order(standings(PLAYERS, RESULTS, ["wins", "opponents", "points"]))
    for players in itertools.permutations(PLAYERS):
        for results in itertools.permutations(RESULTS):
            assert order(standings(list(players), list(results),
                                   ["wins", "opponents", "points"])) == expected


def test_unknown_or_repeated_tie_breakers_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-breaker 'luck'"):
        standings(PLAYERS, RESULTS, ["wins", "luck"])
    with pytest.raises(ValueError, match="twice"):
        standings(PLAYERS, RESULTS, ["wins", "wins"])


def test_csv_export() -> None:
    text = standings_csv(standings(PLAYERS, RESULTS, ["wins", "points"]))
    assert text.splitlines()[:3] == [
        "rank,player,played,wins,points,average,opponents,opponents_strength",
        "1,Cas,2,1,55,27.5,2,0.5", "2,Ben,2,1,45,22.5,2,0.5"]


def test_opponents_strength_is_the_mean_win_rate_of_the_tables_met() -> None:
    results = [GameResult({"Ana": 9, "Ben": 5, "Cas": 1, "Dee": 0}, ["Ana"]),
               GameResult({"Ben": 7, "Cas": 3}, ["Ben"]),
               GameResult({"Dee": 4}, ["Dee"])]  # a bye: a win without opponents
    lines = {line.player: line for line in standings(["Ana", "Ben", "Cas", "Dee"], results)}
    # Ana met Ben (1/2), Cas (0/2 -> floor 1/3) and Dee (1/2) at one table.
    assert lines["Ana"].opponents_strength == (Fraction(1, 2) + Fraction(1, 3) + Fraction(1, 2)) / 3
    # Ben: the 4-player table (Ana 1/1, Cas 1/3, Dee 1/2), then Cas alone (1/3).
    first = (1 + Fraction(1, 3) + Fraction(1, 2)) / 3
    assert lines["Ben"].opponents_strength == (first + Fraction(1, 3)) / 2
    assert lines["Dee"].played == 2 and lines["Dee"].wins == 1
    ordered = standings(["Ana", "Ben", "Cas", "Dee"], results, ["wins", "opponents_strength"])
    # Dee's bye adds no opponents: their one table (Ana 1/1, Ben 1/2, Cas 1/3) is strongest.
    assert [line.player for line in ordered][:3] == ["Dee", "Ben", "Ana"]


def test_a_corrected_result_re_derives_everything() -> None:
    before = standings(PLAYERS, RESULTS, ["wins", "opponents_strength", "points"])
    corrected = [GameResult({"Ana": 30, "Ben": 35}, ["Ben"]), *RESULTS[1:]]
    after = standings(PLAYERS, corrected, ["wins", "opponents_strength", "points"])
    assert dict((p, r) for r, p in order(before))["Ben"] > 1 and order(after)[0] == (1, "Ben")
    assert next(line for line in after if line.player == "Cas").opponents_strength == \
        (1 + Fraction(1, 3)) / 2  # Ben now 2/2, Ana 0/2 floored


def test_every_games_tie_breakers_name_a_real_game_and_real_criteria() -> None:
    from rules import game_names
    from station.games import game_records
    from station.tournament.standings import check_tie_breakers

    tie_breakers = {record.name: list(record.tie_breakers) for record in game_records()}
    assert set(tie_breakers) == set(game_names())
    for breakers in tie_breakers.values():
        assert check_tie_breakers(breakers) == breakers
