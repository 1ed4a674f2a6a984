"""§8 rankings checked against a brute force written here from the rules' text.

The brute force shares nothing with the code under test but the truck's loading rules
(§4, for Removal's legality and damage): its own turning, flood fill, scoring, touch test,
footprints and drive total.
"""

from __future__ import annotations

import copy
import random

import pytest

from rules.catalogue import default_catalogue
from rules.errors import IllegalAction
from rules.games.removal.advice import rank_truck_placements
from rules.games.removal.truck import TileSpec, Truck
from rules.games.small_warehouse.advice import rank_warehouse_placements

KINDS = "ABCD"


# -- Small Warehouse ----------------------------------------------------------------------
def turn(card: list[str]) -> list[str]:
    """``card`` turned 90° clockwise."""
    return ["".join(col) for col in zip(*reversed(card), strict=True)]


def total(grid: list[str]) -> tuple[int, int]:
    """§1 total and empty boxes, by a plain flood fill."""
    cells = {(r, c): ch for r, line in enumerate(grid) for c, ch in enumerate(line)}
    blocks: dict[str, list[int]] = {}
    seen: set[tuple[int, int]] = set()
    for start, kind in cells.items():
        if not kind.isalpha() or start in seen:
            continue
        todo, size = [start], 0
        seen.add(start)
        while todo:
            r, c = todo.pop()
            size += 1
            for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if cells.get(near) == kind and near not in seen:
                    seen.add(near)
                    todo.append(near)
        blocks.setdefault(kind, []).append(size)
    points = sum(max(sizes) * len(sizes) for sizes in blocks.values() if max(sizes) >= 4)
    return points, sum(line.count("#") for line in grid)


def brute_warehouse(grid: list[str], card: list[str]) -> list[dict]:
    rows, cols = len(grid), len(grid[0])
    before, _ = total(grid)
    taken = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] != "."}
    entries, looks = [], set()
    turned = card
    for rotation in (0, 90, 180, 270):
        if rotation:
            turned = turn(turned)
        squares = [(r, c, ch) for r, line in enumerate(turned) for c, ch in enumerate(line)
                   if ch != "."]
        for row in range(-len(turned), rows + 1):
            for col in range(-len(turned[0]), cols + 1):
                spots = {(row + r, col + c) for r, c, _ in squares}
                if not all(0 <= r < rows and 0 <= c < cols for r, c in spots):
                    continue
                near = {(r + dr, c + dc) for r, c in spots
                        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
                if not near & taken:
                    continue
                look = (tuple(turned), row, col)
                if look in looks:
                    continue
                looks.add(look)
                lines = [list(line) for line in grid]
                for r, c, ch in squares:
                    lines[row + r][col + c] = ch
                score, empty = total(["".join(line) for line in lines])
                entries.append({"row": row, "col": col, "rotation": rotation,
                                "score": score, "gain": score - before, "empty": empty})
    entries.sort(key=lambda e: (-e["score"], e["empty"], e["rotation"], e["row"], e["col"]))
    return [{k: v for k, v in e.items() if k != "empty"} for e in entries]


def random_card(rng: random.Random) -> list[str]:
    height, width = rng.randint(1, 3), rng.randint(1, 3)
    while True:
        card = ["".join(rng.choice(KINDS[:2] + "#.") for _ in range(width)) for _ in range(height)]
        if any(ch != "." for line in card for ch in line):
            return card


def random_grid(rng: random.Random, rows: int, cols: int) -> list[str]:
    fill = rng.random()
    return ["".join(rng.choice(KINDS + "#") if rng.random() < fill * 0.6 else "."
                    for _ in range(cols)) for _ in range(rows)]


@pytest.mark.parametrize("seed", range(30))
def test_warehouse_ranking_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(rng, rng.randint(2, 6), rng.randint(2, 7))
    card = random_card(rng)
    ranked = [placement.to_json() for placement in rank_warehouse_placements(grid, card)]
    assert ranked == brute_warehouse(grid, card)


def test_warehouse_ranking_of_catalogue_cards_on_the_kit_mat() -> None:
    rng = random.Random(5)
    cards = [card["squares"] for card in default_catalogue("small-warehouse")["cards"]]
    grid = ["." * 10] * 3 + ["...AABB...", "...A#BB...", "....CC...."] + ["." * 10] * 2
    for card in rng.sample(cards, 4):
        ranked = [placement.to_json() for placement in rank_warehouse_placements(grid, card)]
        assert ranked == brute_warehouse(grid, card)
        assert ranked and ranked[0]["score"] == max(entry["score"] for entry in ranked)


def test_an_empty_warehouse_has_no_legal_placement() -> None:
    assert rank_warehouse_placements(["...", "..."], ["A"]) == []


def test_a_symmetric_card_is_listed_once_per_position() -> None:
    ranked = rank_warehouse_placements(["A..", "..."], ["BB"])
    keys = [(p.row, p.col) for p in ranked if p.rotation in (0, 180)]
    assert len(keys) == len(set(keys)) and {p.rotation for p in ranked} == {0, 90}


# -- Removal ------------------------------------------------------------------------------
TILES = [
    TileSpec("piano", ("##", "##"), heavy=True),
    TileSpec("picture", ("#",), delicate=(2, -2)),
    TileSpec("vase", ("#", "#"), delicate=(1, -1), upright=True, symbol="hat"),
    TileSpec("lamp", ("#.", "##"), antique=True, symbol="hat"),
    TileSpec("sofa", ("###",), heavy=True),
    TileSpec("box3", ("##",), box=True, symbol="doll"),
    TileSpec("chair", ("#.", "##", "#."), delicate=(3, 0)),
]


def cells_of(shape: tuple[str, ...], rotation: int, flip: bool) -> list[tuple[int, int]]:
    rows = [line[::-1] if flip else line for line in shape]
    width = max(len(line) for line in rows)
    rows = [line.ljust(width, ".") for line in rows]
    for _ in range(rotation // 90):
        rows = turn(rows)
    return [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"]


def drive_total(layout: list[str], tiles: list[tuple[TileSpec, frozenset, bool]]) -> int:
    covered = set().union(*(cells for _, cells, _ in tiles)) if tiles else set()
    minus = sum(1 for r, line in enumerate(layout) for c, ch in enumerate(line)
                if ch == "-" and (r, c) not in covered)
    delicate = sum(spec.delicate[1 if hurt else 0] for spec, _, hurt in tiles if spec.delicate)
    return 10 + (3 if minus == 0 else -minus) + sum(1 for spec, _, _ in tiles if spec.heavy) \
        + delicate


def brute_truck(layout, truck, loaded, tile) -> dict[frozenset, set[tuple]]:
    """Footprint -> the outcomes (damaged, drive total) of every way to place there."""
    found: dict[frozenset, set[tuple]] = {}
    for rotation in (0, 90, 180, 270):
        for flip in (False, True):
            cells = cells_of(tile.shape, rotation, flip)
            for row in range(-3, len(layout) + 1):
                for col in range(-3, len(layout[0]) + 1):
                    trial = copy.deepcopy(truck)
                    try:
                        result = trial.place(tile, row, col, rotation, flip)
                    except IllegalAction:
                        continue
                    spot = frozenset((row + r, col + c) for r, c in cells)
                    hurt = set(result.damaged)
                    after = [(spec, cells_, h or spec.name in hurt)
                             for spec, cells_, h in loaded] + [(tile, spot, False)]
                    found.setdefault(spot, set()).add(
                        (tuple(sorted(result.damaged)), drive_total(layout, after)))
    return found


def random_truck(rng: random.Random):
    rows, cols = rng.randint(3, 5), rng.randint(4, 7)
    layout = ["".join(rng.choice("......-#") if r == rows - 1 else rng.choice("....-")
                      for _ in range(cols)) for r in range(rows)]
    truck, loaded = Truck(layout), []
    for spec in rng.sample(TILES, rng.randint(0, 4)):
        options = truck.legal_placements(spec)
        if options:
            pick = rng.choice(options)
            result = truck.place(spec, pick.row, pick.col, pick.rotation, pick.flip)
            for index, (old, cells, hurt) in enumerate(loaded):
                loaded[index] = (old, cells, hurt or old.name in result.damaged)
            spot = frozenset((pick.row + r, pick.col + c)
                             for r, c in cells_of(spec.shape, pick.rotation, pick.flip))
            loaded.append((spec, spot, False))
    return layout, truck, loaded


@pytest.mark.parametrize("seed", range(30))
def test_truck_ranking_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    layout, truck, loaded = random_truck(rng)
    tile = rng.choice([spec for spec in TILES if spec.name not in truck.names])
    ranked = rank_truck_placements(truck, tile)
    expected = brute_truck(layout, truck, loaded, tile)
    spots = [frozenset((p.row + r, p.col + c) for r, c in cells_of(tile.shape, p.rotation, p.flip))
             for p in ranked]
    assert sorted(map(sorted, spots)) == sorted(map(sorted, expected))  # each footprint once
    for placement, spot in zip(ranked, spots, strict=True):
        assert expected[spot] == {(tuple(sorted(placement.damaged)), placement.drive_total)}
    keys = [(-p.drive_total, len(p.damaged), p.rotation, p.flip, p.row, p.col) for p in ranked]
    assert keys == sorted(keys)


def test_truck_ranking_leaves_the_truck_unchanged() -> None:
    truck = Truck(["....", "--.."])
    truck.place(TILES[0], 0, 0)
    before = (truck.occupied, len(truck.tiles))
    assert rank_truck_placements(truck, TILES[1])
    assert (truck.occupied, len(truck.tiles)) == before
    assert rank_truck_placements(truck, TILES[0]) == []  # already in the truck
