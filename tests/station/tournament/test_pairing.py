"""Pairing quality: exact on small fields (checked by brute force), no avoidable repeats
on generated tournaments of 8-64 players, byes, drops, locks, forbidden pairs, tables."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest

from station.tournament.pairing import (
    CostModel,
    PairingRequest,
    assign_tables,
    pair_round,
    table_sizes,
)


def partitions(players: list[int], sizes: list[int]):
    """Every split of ``players`` into tables of ``sizes`` (brute force, small fields only)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [[first, *others], *tail]


def random_history(rng: random.Random, players: list[str], meetings: int) -> Counter:
    met: Counter = Counter()
    for _ in range(meetings):
        met[frozenset(rng.sample(players, 2))] += 1
    return met


@pytest.mark.parametrize("case", range(12))
def test_the_search_finds_the_cheapest_round_brute_force_can_find(case: int) -> None:
    rng = random.Random(case)
    count = rng.choice([6, 7, 8, 9])
    size = rng.choice([3, 4])
    players = [f"P{i}" for i in range(count)]
    request = PairingRequest(players=players, size=size, min_size=2,
                             met=random_history(rng, players, rng.randrange(4, 14)),
                             forbidden={frozenset(rng.sample(players, 2))}, seed=case)
    paired = pair_round(request)
    costs = CostModel(request)
    sizes, byes = table_sizes(count, size, 2)
    assert byes == 0 and sorted(map(len, paired.groups)) == sorted(sizes)
    brute = min(sum(map(costs.group_cost, split))
                for split in partitions(list(range(count)), sizes))
    assert paired.cost == brute
    no_repeat_exists = any(costs.repeats(split) == 0
                           for split in partitions(list(range(count)), sizes))
    index = {name: i for i, name in enumerate(players)}
    found = costs.repeats([[index[p] for p in group] for group in paired.groups])
    assert (found == 0) == no_repeat_exists


@pytest.mark.parametrize("count", [5, 7, 9])
def test_two_player_rounds_are_the_cheapest_matching(count: int) -> None:
    rng = random.Random(count)
    players = [f"P{i}" for i in range(count)]
    request = PairingRequest(players=players, size=2, met=random_history(rng, players, 8),
                             byes=Counter({players[-1]: 1}))
    paired = pair_round(request)
    costs = CostModel(request)
    best = min(sum(costs.pair[group[0]][group[-1]] if len(group) == 2
                   else costs.bye_cost(group[0]) for group in split)
               for split in partitions(list(range(count)), [2] * (count // 2) + [1]))
    assert paired.cost == best
    assert len(paired.byes) == 1 and paired.byes != [players[-1]]  # not the same bye twice


def test_table_sizes_use_the_largest_tables_the_count_allows() -> None:
    assert table_sizes(12, 4, 2) == ([4, 4, 4], 0)
    assert table_sizes(13, 4, 2) == ([4, 3, 3, 3], 0)
    assert table_sizes(9, 2, 2) == ([2, 2, 2, 2], 1)
    assert table_sizes(7, 5, 3) == ([4, 3], 0)
    assert table_sizes(4, 5, 5) == ([], 4)


def no_repeat_round_exists(players: list[str], size: int, met: Counter) -> bool:
    """Independently of the pairing code: a matching of unmet pairs for 2-player tables,
    brute force over every split for small fields of bigger tables, else assumed."""
    if size == 2:
        graph = nx.Graph()
        graph.add_nodes_from(players)
        graph.add_edges_from(pair for pair in itertools.combinations(players, 2)
                             if not met[frozenset(pair)])
        return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) >= len(players) - 1
    if len(players) > 9:
        return True
    sizes, _ = table_sizes(len(players), size, 2)
    return any(all(not met[frozenset((players[a], players[b]))]
                   for group in split for a, b in itertools.combinations(group, 2))
               for split in partitions(list(range(len(players))), sizes))


def simulate(count: int, size: int, rounds: int, seed: int, drops: int = 0,
             check=lambda paired: None, **rules):
    """A whole generated tournament (random winners, standings by wins, a drop a round
    when asked); per round, repeats seated and whether a round without repeats existed."""
    rng = random.Random(seed)
    players = [f"P{i:02}" for i in range(count)]
    wins: Counter = Counter()
    met: Counter = Counter()
    byes: Counter = Counter()
    active = list(players)
    per_round = []
    for number in range(1, rounds + 1):
        if number > 1 and drops:
            active.remove(rng.choice(active))
        ranked = sorted(active, key=lambda p: (-wins[p], p))
        avoidable = no_repeat_round_exists(ranked, size, met)
        paired = pair_round(PairingRequest(players=ranked, size=size, met=met, byes=byes,
                                           swiss=number > 1, rounds_played=number - 1,
                                           seed=seed * 100 + number, **rules))
        check(paired)
        seated = [p for group in paired.groups for p in group]
        assert sorted(seated + paired.byes) == sorted(active)  # everyone once
        repeats = sum(met[frozenset(pair)] for group in paired.groups
                      for pair in itertools.combinations(group, 2))
        per_round.append((repeats, avoidable))
        for group in paired.groups:
            met.update(frozenset(pair) for pair in itertools.combinations(group, 2))
            wins[rng.choice(group)] += 1
        byes.update(paired.byes)
        wins.update(paired.byes)
    return per_round, byes


def avoidable_repeats(per_round) -> list[int]:
    return [repeats for repeats, avoidable in per_round if avoidable and repeats]


@pytest.mark.parametrize("count", [8, 9, 15, 32, 64])
def test_generated_two_player_tournaments_repeat_nobody_while_avoidable(count: int) -> None:
    rounds = min(count - 1, 7)
    per_round, byes = simulate(count, 2, rounds, seed=count, drops=1)
    assert avoidable_repeats(per_round) == []
    assert sum(repeats for repeats, _ in per_round[:3]) == 0
    assert max(byes.values(), default=0) <= 1  # never a second bye while avoidable


@pytest.mark.parametrize(("count", "size", "rounds"), [(8, 4, 3), (9, 3, 4), (8, 3, 4),
                                                       (24, 3, 4), (32, 4, 4), (40, 5, 4),
                                                       (64, 4, 5)])
def test_generated_multiplayer_tournaments_repeat_nobody_while_avoidable(
        count: int, size: int, rounds: int) -> None:
    per_round, _ = simulate(count, size, rounds, seed=count + size)
    assert avoidable_repeats(per_round) == []
    if count > 9:
        assert [repeats for repeats, _ in per_round] == [0] * rounds


def test_a_two_player_repeat_happens_only_when_unavoidable() -> None:
    players = [f"P{i}" for i in range(4)]
    met = Counter({frozenset(p): 1 for p in [("P0", "P1"), ("P2", "P3"), ("P0", "P2"),
                                             ("P1", "P3")]})
    paired = pair_round(PairingRequest(players=players, size=2, met=met))
    assert sorted(map(sorted, paired.groups)) == [["P0", "P3"], ["P1", "P2"]]
    met[frozenset(("P0", "P3"))] = met[frozenset(("P1", "P2"))] = 1
    assert not no_repeat_round_exists(players, 2, met)
    assert len(pair_round(PairingRequest(players=players, size=2, met=met)).groups) == 2


def test_swiss_puts_similar_standings_together() -> None:
    players = [f"P{i}" for i in range(8)]
    paired = pair_round(PairingRequest(players=players, size=4))
    assert paired.groups == [players[:4], players[4:]]


def test_forbidden_pairs_and_locks_hold() -> None:
    players = [f"P{i}" for i in range(8)]
    request = PairingRequest(players=players, size=2, forbidden={frozenset(("P0", "P1"))},
                             locks={"P5": "t4"}, tables=["t1", "t2", "t3", "t4"])
    paired = pair_round(request)
    assert ["P0", "P1"] not in paired.groups
    at = {p: table for group, table in zip(paired.groups, paired.tables, strict=True)
          for p in group}
    assert at["P5"] == "t4"


def test_a_players_table_is_not_repeated_while_avoidable() -> None:
    request = PairingRequest(players=["A", "B", "C", "D"], size=2, tables=["t1", "t2"],
                             table_history={"A": Counter({"t1": 1}), "B": Counter({"t1": 1})})
    assert assign_tables(request, [["A", "B"], ["C", "D"]]) == ["t2", "t1"]
    assert assign_tables(request, [["A", "B"], ["C", "D"], ["E", "F"]]) == ["t2", "t1", None]


@pytest.mark.parametrize(("count", "size"), [(16, 2), (32, 4), (45, 5)])
def test_generated_tournaments_keep_locks_and_forbidden_pairs(count: int, size: int) -> None:
    tables = [f"t{i}" for i in range(count // size + 1)]
    locks = {"P00": "t3", "P07": "t1"}
    family = {"P01", "P02", "P03"}

    def check(paired) -> None:
        seat = {p: table for group, table in zip(paired.groups, paired.tables, strict=True)
                for p in group}
        assert all(seat[player] == table for player, table in locks.items())
        assert all(len(family & set(group)) <= 1 for group in paired.groups)

    per_round, _ = simulate(count, size, 5, seed=count, check=check, tables=tables,
                            locks=locks, forbidden={frozenset(pair) for pair in
                                                    itertools.combinations(family, 2)})
    assert [repeats for repeats, _ in per_round] == [0] * 5
