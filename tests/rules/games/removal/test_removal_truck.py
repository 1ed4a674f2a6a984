"""Removal's truck: loading rules, damage, symbols, drives — every rulebook example."""

from __future__ import annotations

import random

import pytest

from rules.errors import IllegalAction
from rules.games.removal.truck import (
    ROTATIONS,
    TileSpec,
    Truck,
    orientations,
    shape_cells,
    transform,
)

PICTURE = TileSpec("picture", ("#",), delicate=(2, -2))
WIDE_PICTURE = TileSpec("picture", ("##",), delicate=(2, -2))
GOLF_BAG = TileSpec("golf bag", ("###",))
CRATE = TileSpec("crate", ("#",))
CHEST = TileSpec("chest", ("#",))
PIANO = TileSpec("piano", ("##", "##"), heavy=True)
SAFE = TileSpec("safe", ("##", "##"), heavy=True)


def _loaded(layout: list[str], *placements: tuple[TileSpec, int, int]) -> Truck:
    truck = Truck(layout)
    for spec, row, col in placements:
        truck.place(spec, row, col)
    return truck


# -- the four golf-bag examples -------------------------------------------------------------
def test_golf_bag_with_one_of_three_contact_squares_on_the_picture_does_no_damage() -> None:
    truck = _loaded(["...", "..."], (CRATE, 1, 0), (PICTURE, 1, 1), (CHEST, 1, 2))
    assert truck.place(GOLF_BAG, 0, 0).damaged == []


def test_golf_bag_with_one_of_two_contact_squares_on_the_picture_does_no_damage() -> None:
    truck = _loaded(["...", "..."], (CRATE, 1, 0), (PICTURE, 1, 1))
    assert truck.place(GOLF_BAG, 0, 0).damaged == []


def test_golf_bag_with_two_of_three_contact_squares_on_the_picture_damages_it() -> None:
    truck = _loaded(["...", "..."], (WIDE_PICTURE, 1, 0), (CHEST, 1, 2))
    assert truck.place(GOLF_BAG, 0, 0).damaged == ["picture"]
    assert truck.tiles[0].damaged


def test_golf_bag_with_its_only_contact_square_on_the_picture_damages_it() -> None:
    truck = _loaded(["...", "..."], (PICTURE, 1, 0))
    assert truck.place(GOLF_BAG, 0, 0).damaged == ["picture"]


def test_delicate_items_never_damage_delicate_items() -> None:
    truck = _loaded(["..", ".."], (PICTURE, 1, 0))
    vase = TileSpec("vase", ("#",), delicate=(1, -1))
    assert truck.place(vase, 0, 0).damaged == []


def test_helper_1_prevents_damage() -> None:
    truck = _loaded(["..", ".."], (PICTURE, 1, 0))
    assert truck.place(CRATE, 0, 0, helpers=[1]).damaged == []
    assert not truck.tiles[0].damaged


# -- the drive examples -------------------------------------------------------------------------
def test_carls_drive_scores_12() -> None:
    hamster_cage = TileSpec("hamster cage", ("##",), delicate=(2, -2), upright=True)
    truck = _loaded(["-....-", "......", "......"],
                    (PIANO, 1, 0), (SAFE, 1, 2), (hamster_cage, 2, 4))
    assert truck.visible_minus() == 2
    score = truck.drive_score()
    assert score.to_json() == {"base": 10, "minus": -2, "heavy": 2, "delicate": 2, "total": 12}


def test_annas_drive_scores_13() -> None:
    violin = TileSpec("violin", ("#", "#"), delicate=(0, -2), antique=True)
    aquarium = TileSpec("aquarium", ("###",), delicate=(2, -2))
    telescope = TileSpec("telescope", ("##",), delicate=(2, -2))
    truck = _loaded(["......", "......"], (violin, 0, 0), (aquarium, 1, 1), (telescope, 1, 4))
    assert truck.place(TileSpec("crate", ("##",)), 0, 4).damaged == ["telescope"]
    score = truck.drive_score()
    assert score.to_json() == {"base": 10, "minus": 3, "heavy": 0, "delicate": 0, "total": 13}


def test_final_truck_with_twelve_visible_minus_squares_scores_only_its_items() -> None:
    aquarium = TileSpec("aquarium", ("###",), delicate=(2, -2))
    truck = _loaded(["------", "------", "......", "......"], (SAFE, 2, 0), (aquarium, 3, 2))
    assert truck.visible_minus() == 12
    assert truck.drive_score(final=True).to_json() == {
        "base": 0, "minus": 0, "heavy": 1, "delicate": 2, "total": 3}
    assert truck.drive_score(final=False).total == 10 - 12 + 3


def test_nine_visible_minus_squares_at_the_end_still_drive_normally() -> None:
    truck = _loaded(["---------", "........."], (CRATE, 1, 0))
    assert truck.drive_score(final=True).to_json()["base"] == 10
    assert truck.drive_score(final=True).minus == -9


# -- loading rules -------------------------------------------------------------------------------
def test_a_tile_needs_a_contact_square() -> None:
    truck = Truck(["..", ".."])
    with pytest.raises(IllegalAction, match="no square rests on the floor or an item"):
        truck.place(CRATE, 0, 0)


def test_solid_body_supports_like_the_floor_and_cannot_be_covered() -> None:
    truck = Truck(["..", ".#"])
    truck.place(CRATE, 0, 1)
    with pytest.raises(IllegalAction, match="body"):
        truck.place(TileSpec("box", ("#",)), 1, 1)


def test_tiles_must_stay_inside_and_may_not_overlap() -> None:
    truck = _loaded(["...", "..."], (PIANO, 0, 0))
    with pytest.raises(IllegalAction, match="inside"):
        truck.place(CRATE, 1, 3)
    with pytest.raises(IllegalAction, match="overlap piano"):
        truck.place(CRATE, 1, 1)


def test_heavy_items_need_the_floor_or_another_heavy_item() -> None:
    truck = _loaded(["..", "..", ".."], (CRATE, 2, 0), (CHEST, 2, 1))
    with pytest.raises(IllegalAction, match="heavy"):
        truck.place(PIANO, 0, 0)
    truck.place(PIANO, 0, 0, helpers=[1])
    stacked = _loaded(["..", "..", "..", ".."], (PIANO, 2, 0))
    stacked.place(SAFE, 0, 0)


def test_upright_items_keep_rotation_0_but_may_flip_or_turn_with_a_helper() -> None:
    mirror = TileSpec("mirror", ("#.", "##"), delicate=(2, -2), upright=True)
    with pytest.raises(IllegalAction, match="upright"):
        Truck(["...", "..."]).place(mirror, 0, 0, rotation=90)
    Truck(["...", "..."]).place(mirror, 0, 0, flip=True)
    Truck(["...", "..."]).place(mirror, 0, 0, rotation=90, helpers=[1])
    Truck(["...", "..."]).place(mirror, 0, 0, rotation=270, helpers=[3])


def test_helper_3_allows_overlap_and_covered_minus_squares_count_as_covered() -> None:
    truck = _loaded(["...", "--."], (CRATE, 1, 0))
    with pytest.raises(IllegalAction, match="overlap"):
        truck.place(GOLF_BAG, 1, 0)
    truck.place(GOLF_BAG, 1, 0, helpers=[3])
    assert truck.visible_minus() == 0
    assert [tile.spec.name for tile in truck.tiles] == ["crate", "golf bag"]


def test_a_heavy_item_covered_under_helper_3_no_longer_carries_heavy_items() -> None:
    truck = _loaded(["..", "..", ".."], (PIANO, 1, 0))
    truck.place(TileSpec("rug", ("##",)), 1, 0, helpers=[3])
    with pytest.raises(IllegalAction, match="heavy"):
        truck.place(TileSpec("anvil", ("##",), heavy=True), 0, 0)


def test_overlap_on_a_tile_counts_as_contact() -> None:
    truck = _loaded(["..", ".."], (PIANO, 0, 0))
    truck.place(CRATE, 0, 0, helpers=[3])


def test_the_same_tile_cannot_be_loaded_twice() -> None:
    truck = _loaded(["..."], (CRATE, 0, 0))
    with pytest.raises(IllegalAction, match="already"):
        truck.place(CRATE, 0, 1)


def test_flip_mirrors_first_then_rotation_turns_clockwise() -> None:
    ell = shape_cells(["#.", "##"])
    assert transform(ell, 90, False) == ((0, 0), (0, 1), (1, 0))
    assert transform(ell, 0, True) == ((0, 1), (1, 0), (1, 1))
    assert transform(ell, 90, True) == ((0, 0), (1, 0), (1, 1))  # corner gap moves right


# -- symbols -------------------------------------------------------------------------------------
def _symbol_tile(name: str, symbol: str) -> TileSpec:
    return TileSpec(name, ("#",), symbol=symbol)


def test_a_pair_of_symbols_grants_an_extra_action_once() -> None:
    truck = Truck(["......"])
    assert not truck.place(_symbol_tile("a", "hat"), 0, 0).extra_action
    assert truck.place(_symbol_tile("b", "hat"), 0, 1).extra_action
    assert not truck.place(_symbol_tile("c", "hat"), 0, 2).extra_action  # a and b are used
    assert truck.place(_symbol_tile("d", "hat"), 0, 3).extra_action  # pairs with c


def test_a_pair_made_during_the_extra_action_grants_nothing_and_is_used_up() -> None:
    truck = Truck(["......"])
    truck.place(_symbol_tile("a", "hat"), 0, 0)
    truck.place(_symbol_tile("b", "doll"), 0, 1)
    assert truck.place(_symbol_tile("c", "hat"), 0, 2).extra_action
    assert not truck.place(_symbol_tile("d", "doll"), 0, 3, extra_turn=True).extra_action
    assert not truck.place(_symbol_tile("e", "doll"), 0, 4).extra_action  # b and d used up
    assert truck.place(_symbol_tile("f", "doll"), 0, 5).extra_action


# -- legal placements ----------------------------------------------------------------------------
def test_symmetric_tiles_list_each_footprint_once() -> None:
    assert len(orientations(("##", "##"))) == 1
    assert len(orientations(("###",))) == 2
    assert len(orientations(("#.", "##"))) == 4
    assert len(orientations((".#.", "###"))) == 4
    assert len(orientations(("##.", ".##"))) == 4
    assert len(orientations(("#..", "###"))) == 8
    found = Truck(["....", "...."]).legal_placements(PIANO)
    assert [(p.row, p.col, p.rotation, p.flip) for p in found] == [
        (0, 0, 0, False), (0, 1, 0, False), (0, 2, 0, False)]


def test_upright_tiles_only_offer_rotation_0() -> None:
    mirror = TileSpec("mirror", ("#.", "##"), delicate=(2, -2), upright=True)
    found = Truck(["...", "..."]).legal_placements(mirror)
    assert {p.rotation for p in found} == {0}
    assert {p.flip for p in found} == {False, True}
    assert {p.rotation for p in Truck(["...", "..."]).legal_placements(mirror, [1])} != {0}


def test_legal_placements_report_damage() -> None:
    truck = _loaded(["..", ".."], (PICTURE, 1, 0))
    found = {(p.row, p.col): p.damaged for p in truck.legal_placements(CRATE)}
    assert found == {(0, 0): ("picture",), (1, 1): ()}
    assert {(p.row, p.col): p.damaged for p in truck.legal_placements(CRATE, [1])}[(0, 0)] == ()


def _footprint(truck: Truck, spec: TileSpec, row: int, col: int, rotation: int, flip: bool):
    return truck.footprint(transform(shape_cells(spec.shape), rotation, flip), row, col)


def _random_truck(rng: random.Random, pieces: list[TileSpec]) -> Truck:
    truck = Truck(["-......-", "........", "..-.....", "........", "......##", "-.....##"])
    for spec in pieces:
        options = truck.legal_placements(spec)
        if options:
            choice = rng.choice(options)
            truck.place(spec, choice.row, choice.col, choice.rotation, choice.flip)
    return truck


@pytest.mark.parametrize("seed", range(12))
def test_legal_placements_match_a_brute_force_search(seed: int) -> None:
    rng = random.Random(seed)
    shapes = [("##", "##"), ("#", "#"), ("#.", "##"), ("###", "#.#"), ("#..", "###"), ("#",)]
    pieces = [TileSpec(f"t{index}", rng.choice(shapes), heavy=rng.random() < 0.2,
                      delicate=(1, -1) if rng.random() < 0.4 else None)
              for index in range(rng.randint(0, 6))]
    truck = _random_truck(rng, pieces)
    spec = TileSpec("new", rng.choice([*shapes, ("#####",), ("##.", ".##", ".#.")]),
                    heavy=rng.random() < 0.3, upright=rng.random() < 0.3)
    helpers = rng.choice([[], [1], [3]])
    expected: dict[int, tuple[str, ...]] = {}
    for row in range(-1, truck.rows + 1):
        for col in range(-1, truck.cols + 1):
            for rotation in ROTATIONS:
                for flip in (False, True):
                    try:
                        _, damaged = truck.check(spec, row, col, rotation, flip, helpers)
                    except IllegalAction:
                        continue
                    mask = _footprint(truck, spec, row, col, rotation, flip)
                    expected[mask] = tuple(tile.spec.name for tile in damaged)
    found = truck.legal_placements(spec, helpers)
    masks = [_footprint(truck, spec, p.row, p.col, p.rotation, p.flip) for p in found]
    assert len(masks) == len(set(masks))
    assert {mask: p.damaged for mask, p in zip(masks, found, strict=True)} == expected
