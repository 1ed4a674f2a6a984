"""Pairing a round: who sits with whom, who has the bye, at which named table.

One integer cost is minimised (weights in :mod:`station.tournament.config`):
forbidden pairs, then locked players split, then repeated meetings, then repeated
byes, then standings gaps (Swiss: ``d * d`` for two players ``d`` places apart).

- 2-player tables: a maximum-weight perfect matching (networkx, Edmonds' blossom),
  with a "bye" vertex when the count is odd — exact.
- Tables of 3 to 8: an exhaustive branch-and-bound search up to
  ``EXACT_SEARCH_LIMIT`` players (exact: it finds a round without repeats whenever
  one exists), else an iterated local search (swaps between tables, seeded kicks).
- Named tables: a second matching of games to tables (a player's table not
  repeated, locked players at their table, top games at the first tables).

>>> request = PairingRequest(players=["Ana", "Ben", "Cas", "Dee"], size=2,
...                          met={frozenset({"Ana", "Ben"}): 1})
>>> sorted(sorted(group) for group in pair_round(request).groups)
[['Ana', 'Cas'], ['Ben', 'Dee']]
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
from scipy.optimize import linear_sum_assignment

from station.tournament import config

BYE = object()  # the matching's bye vertex (never a player name)


class PairingImpossible(ValueError):
    """The players cannot be seated (e.g. fewer than a table needs)."""


@dataclass
class PairingRequest:
    """Everything pairing needs; ``players`` are the active ones, best standing first."""

    players: list[str]
    size: int
    min_size: int = 2
    met: Counter[frozenset[str]] | dict[frozenset[str], int] = field(default_factory=Counter)
    byes: Counter[str] | dict[str, int] = field(default_factory=Counter)
    forbidden: set[frozenset[str]] = field(default_factory=set)
    locks: dict[str, str] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)
    table_history: dict[str, Counter[str]] = field(default_factory=dict)
    swiss: bool = True  # False: round 1, players in a seeded random order instead
    rounds_played: int = 0
    seed: int = 0


@dataclass
class PairedRound:
    """Groups (each a table's players, in standings order), their tables, the byes."""

    groups: list[list[str]]
    tables: list[str | None]
    byes: list[str]
    cost: int = 0


def table_sizes(count: int, size: int, min_size: int) -> tuple[list[int], int]:
    """Table sizes for ``count`` players and how many byes: as few tables as the size
    allows, sizes as even as possible, byes only when no split fits ``min_size``.

    >>> table_sizes(10, 4, 2), table_sizes(7, 2, 2), table_sizes(5, 4, 3)
    (([4, 3, 3], 0), ([2, 2, 2], 1), ([4], 1))
    """
    for byes in range(count + 1):
        seated = count - byes
        if seated == 0:
            return [], byes
        tables = math.ceil(seated / size)
        low, extra = divmod(seated, tables)
        if low >= min_size:
            return [low + 1] * extra + [low] * (tables - extra), byes
    return [], count


class CostModel:
    """The cost of seating two players together, as a dense matrix over player indices."""

    def __init__(self, request: PairingRequest) -> None:
        self.request = request
        players = request.players
        self.index = {name: i for i, name in enumerate(players)}
        count = len(players)
        self.pair = [[0] * count for _ in range(count)]
        for i, j in itertools.combinations(range(count), 2):
            self.pair[i][j] = self.pair[j][i] = self._pair_cost(i, j)

    def _pair_cost(self, i: int, j: int) -> int:
        request = self.request
        a, b = request.players[i], request.players[j]
        key = frozenset((a, b))
        cost = config.REPEAT_COST * request.met.get(key, 0)
        if key in request.forbidden:
            cost += config.FORBIDDEN_COST
        lock_a, lock_b = request.locks.get(a), request.locks.get(b)
        if lock_a and lock_b and lock_a != lock_b:
            cost += config.LOCK_CLASH_COST
        return cost + (i - j) ** 2  # standings gap (round 1: neighbours in the seeded draw)

    def bye_cost(self, i: int) -> int:
        """Giving player ``i`` the bye: never twice while avoidable, else the lowest standing."""
        request = self.request
        distance = len(request.players) - 1 - i
        return config.BYE_REPEAT_COST * request.byes.get(request.players[i], 0) + distance ** 2

    def group_cost(self, group: Sequence[int]) -> int:
        return sum(self.pair[i][j] for i, j in itertools.combinations(group, 2))

    def repeats(self, groups: Sequence[Sequence[int]]) -> int:
        return sum(self.request.met.get(frozenset((self.request.players[i],
                                                    self.request.players[j])), 0)
                   for group in groups for i, j in itertools.combinations(group, 2))


def pair_round(request: PairingRequest) -> PairedRound:
    """Pair one round (see the module's docstring)."""
    if request.size < 2:
        raise PairingImpossible("a table needs at least 2 seats")
    players = list(request.players)
    if not request.swiss:  # round 1: a seeded draw, then "neighbours" in the draw meet
        random.Random(request.seed).shuffle(players)
        request = _replace_players(request, players)
    costs = CostModel(request)
    sizes, bye_count = table_sizes(len(players), request.size, request.min_size)
    if not sizes:
        raise PairingImpossible(f"{len(players)} player(s) cannot fill a table of "
                                f"{request.min_size} or more")
    if request.size == 2 or set(sizes) == {2}:
        groups, byes = _match_pairs(costs, bye_count)
    else:
        byes = _choose_byes(costs, bye_count)
        seated = [i for i in range(len(players)) if i not in byes]
        groups = TableSearch(costs, sizes, request.seed).best(seated)
    groups = [sorted(group) for group in groups]
    groups.sort(key=lambda group: group[0])
    total = sum(costs.group_cost(group) for group in groups) + sum(map(costs.bye_cost, byes))
    names = [[players[i] for i in group] for group in groups]
    return PairedRound(names, assign_tables(request, names), [players[i] for i in sorted(byes)],
                       total)


def _replace_players(request: PairingRequest, players: list[str]) -> PairingRequest:
    fields = dict(request.__dict__, players=players)
    return PairingRequest(**fields)


def _choose_byes(costs: CostModel, count: int) -> set[int]:
    ranked = sorted(range(len(costs.request.players)), key=costs.bye_cost)
    return set(ranked[:count])


def _match_pairs(costs: CostModel, bye_count: int) -> tuple[list[list[int]], set[int]]:
    """Maximum-weight perfect matching: weight = ceiling - cost, so the cheapest round wins.

    Tried first without the edges costing a repeat or worse (fewer edges, faster): a
    perfect matching there is also the cheapest overall, since one such edge outweighs
    every standings gap together. Only if there is none are those edges added.
    """
    count = len(costs.request.players)
    band = max(config.MATCHING_BAND, 4 * costs.request.rounds_played)
    dense = count <= config.DENSE_MATCHING_LIMIT
    edges = [(i, j, costs.pair[i][j]) for i, j in itertools.combinations(range(count), 2)
             if dense or j - i <= band]
    if bye_count:
        edges += [(i, BYE, costs.bye_cost(i)) for i in range(count)]
    clean = [edge for edge in edges if edge[2] < config.REPEAT_COST]
    for candidates in (clean, edges):
        found = _perfect_matching(candidates, count)
        if found is not None:
            return found
    raise PairingImpossible("no complete pairing within the standings band")


def _perfect_matching(edges: list[tuple[Any, Any, int]],
                      count: int) -> tuple[list[list[int]], set[int]] | None:
    if not edges:
        return None
    ceiling = max(cost for _, _, cost in edges) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((i, j, ceiling - cost) for i, j, cost in edges)
    groups, byes = [], set()
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        if a is BYE or b is BYE:
            byes.add(b if a is BYE else a)
        else:
            groups.append([a, b])
    return (groups, byes) if 2 * len(groups) + len(byes) == count else None


class TableSearch:
    """Tables of 3+: exact branch and bound for small fields, iterated local search above."""

    def __init__(self, costs: CostModel, sizes: list[int], seed: int) -> None:
        self.costs = costs
        self.matrix = np.array(costs.pair, dtype=np.int64)
        self.sizes = sorted(sizes, reverse=True)
        self.rng = random.Random(seed)

    def best(self, seated: list[int]) -> list[list[int]]:
        groups = self._local_search(self._contiguous(seated))
        if len(seated) <= config.EXACT_SEARCH_LIMIT:
            groups = BranchAndBound(self.costs, self.sizes).solve(seated, groups)
        return groups

    def _contiguous(self, seated: list[int]) -> list[list[int]]:
        groups, start = [], 0
        for size in self.sizes:
            groups.append(seated[start:start + size])
            start += size
        return groups

    def _total(self, groups: list[list[int]]) -> int:
        return sum(map(self.costs.group_cost, groups))

    def _local_search(self, groups: list[list[int]]) -> list[list[int]]:
        groups = self._descend([list(group) for group in groups], set(range(len(groups))))
        best, best_cost = [list(g) for g in groups], self._total(groups)
        for _ in range(config.LOCAL_SEARCH_KICKS if len(groups) > 1 else 0):
            if best_cost < config.REPEAT_COST:
                break  # nothing left but standings gaps: kicks would only trade them around
            groups = [list(g) for g in best]
            touched = self._kick(groups)
            groups = self._descend(groups, touched)
            cost = self._total(groups)
            if cost < best_cost:
                best, best_cost = [list(g) for g in groups], cost
        return best

    def _kick(self, groups: list[list[int]]) -> set[int]:
        """Swap a player of a costly table with a random player elsewhere."""
        worst = max(range(len(groups)), key=lambda g: self.costs.group_cost(groups[g]))
        other = self.rng.choice([g for g in range(len(groups)) if g != worst])
        a, b = self.rng.randrange(len(groups[worst])), self.rng.randrange(len(groups[other]))
        groups[worst][a], groups[other][b] = groups[other][b], groups[worst][a]
        return {worst, other}

    def _descend(self, groups: list[list[int]], work: set[int]) -> list[list[int]]:
        """Best swap of a player of a table in ``work`` with a player elsewhere, while one
        lowers the cost (vectorised: ``seat_cost[p, t]`` is p's cost with table t)."""
        pair = self.matrix
        table_of = np.full(len(pair), -1)
        for number, group in enumerate(groups):
            table_of[group] = number
        seated = np.flatnonzero(table_of >= 0)
        seat_cost = np.stack([pair[:, group].sum(axis=1) for group in groups], axis=1)
        while work:
            g = work.pop()
            members = np.array(groups[g])
            others = seated[table_of[seated] != g]
            if not others.size:
                continue
            h = table_of[others]
            # gain of swapping x (row) with y (column): what each leaves minus what each
            # joins (each other's seat excepted: x and y never sit together)
            gain = ((seat_cost[others, h] - seat_cost[others, g])[None, :]
                    + seat_cost[members, g][:, None] - seat_cost[members][:, h]
                    + 2 * pair[np.ix_(members, others)])
            best = int(np.argmax(gain))
            i, j = divmod(best, gain.shape[1])
            if gain[i, j] <= 0:
                continue
            x, y, other = int(members[i]), int(others[j]), int(h[j])
            groups[g][groups[g].index(x)] = y
            groups[other][groups[other].index(y)] = x
            table_of[x], table_of[y] = other, g
            seat_cost[:, g] += pair[:, y] - pair[:, x]
            seat_cost[:, other] += pair[:, x] - pair[:, y]
            work.update((g, other))
        return groups


class BranchAndBound:
    """Exhaustive search over partitions into tables of the given sizes, cheapest first.

    The first unseated player opens a table; its other seats are tried in every
    combination; a branch is cut as soon as it costs as much as the best round
    found (costs are never negative, so the cut loses nothing).
    """

    def __init__(self, costs: CostModel, sizes: list[int]) -> None:
        self.costs = costs
        self.sizes = Counter(sizes)
        self.nodes = 0

    def solve(self, seated: list[int], incumbent: list[list[int]]) -> list[list[int]]:
        self.best = [list(g) for g in incumbent]
        self.best_cost = sum(map(self.costs.group_cost, incumbent))
        self._search(list(seated), [], 0)
        return self.best

    def _search(self, left: list[int], groups: list[list[int]], cost: int) -> None:
        if cost >= self.best_cost or self.nodes > config.EXACT_SEARCH_NODES:
            return
        if not left:
            self.best, self.best_cost = [list(g) for g in groups], cost
            return
        self.nodes += 1
        first, rest = left[0], left[1:]
        for size in sorted((s for s, n in self.sizes.items() if n), reverse=True):
            self.sizes[size] -= 1
            options = []
            for others in itertools.combinations(rest, size - 1):
                group = [first, *others]
                options.append((self.costs.group_cost(group), group))
            options.sort(key=lambda option: option[0])
            for added, group in options:
                if cost + added >= self.best_cost:
                    break
                remaining = [p for p in rest if p not in group]
                self._search(remaining, [*groups, group], cost + added)
            self.sizes[size] += 1


def assign_tables(request: PairingRequest, groups: list[list[str]]) -> list[str | None]:
    """Each group's named table (``None`` when there are more games than tables): the
    cheapest assignment (Hungarian algorithm, scipy) of games to tables."""
    tables = request.tables
    if not tables or not groups:
        return [None] * len(groups)
    costs = np.zeros((len(groups), len(tables)), dtype=np.int64)
    for g, group in enumerate(groups):
        for t, table in enumerate(tables):
            cost = config.TABLE_ORDER_COST * abs(g - t)
            for player in group:
                cost += config.TABLE_REPEAT_COST * request.table_history.get(
                    player, Counter()).get(table, 0)
                lock = request.locks.get(player)
                if lock is not None and lock != table:
                    cost += config.LOCK_TABLE_COST
            costs[g, t] = cost
    # More games than tables: the top games get the tables (locks still come first).
    costs += (config.TABLE_ORDER_COST * (len(groups) + len(tables))
              * np.arange(len(groups))[::-1, None] * -1)
    chosen: list[str | None] = [None] * len(groups)
    for g, t in zip(*linear_sum_assignment(costs), strict=True):
        chosen[g] = tables[t]
    return chosen
