"""Moving Day: scoring and damage (docs/formats.md §2), and the engine's turns and options."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.games.moving_day import (
    DamagedBox,
    LoadedBox,
    LoadedVehicle,
    LoadScore,
    MovingDayState,
    SeatedHelper,
    loaded_vehicles_from,
    score_load,
    winners_of,
)
from rules.playout import play_randomly


def box(row: int, col: int, weight: int = 1, points: int = 1, *, type: str = "t",
        colour: str = "c", fragile: bool = False) -> dict[str, Any]:
    """A box in the score-input format of §2."""
    return {"row": row, "col": col, "type": type, "colour": colour, "fragile": fragile,
            "weight": weight, "points": points}


def helper(count: int = 1, strength: int = 4, clumsy: bool = False) -> dict[str, Any]:
    return {"count": count, "clumsy": clumsy, "strength": strength}


def vehicle(name: str, layout: list[str], boxes: list[dict], helpers: list[dict],
            seats: int = 9) -> dict[str, Any]:
    return {"name": name, "layout": layout, "seats": seats, "boxes": boxes, "helpers": helpers}


# The rulebook's scoring example (its picture is lost; this layout follows the text):
# left, a weight-6 box on top damages the boxes under it; centre, helpers of strength 5
# fail a weight-6 box; right, 2 clumsy helpers damage 2 fragile boxes.
# Weight 16 (3+5+8), type 4 (0+2+2), colour 3 (0+3+0), snacks 8: 31.
RULEBOOK_EXAMPLE: dict[str, Any] = {"players": [{"player": "You", "snacks": 8, "vehicles": [
    vehicle("scooter", [".", ".", ".", "."], [
        box(0, 0, 6, 3, type="lamp", colour="red"),
        box(1, 0, 5, 2, type="lamp", colour="red"),
        box(2, 0, 3, 1, type="books", colour="blue"),
        box(3, 0, 2, 1, type="books", colour="blue"),
    ], [helper(2, 4), helper(1, 2)], seats=3),
    vehicle("car", ["..", "..", ".."], [
        box(0, 0, 1, 1, type="lamp", colour="red"),
        box(1, 0, 3, 1, type="lamp", colour="green"),
        box(1, 1, 2, 1, type="books", colour="green"),
        box(2, 0, 6, 2, type="lamp", colour="green"),
        box(2, 1, 4, 2, type="vase", colour="green"),
    ], [helper(2, 3), helper(1, 2)], seats=6),
    vehicle("truck", ["...", "..."], [
        box(0, 0, 2, 2, type="lamp", colour="green"),
        box(0, 1, 1, 1, type="lamp", colour="green", fragile=True),
        box(0, 2, 3, 2, type="books", colour="purple"),
        box(1, 0, 4, 2, type="chair", colour="red"),
        box(1, 1, 4, 2, type="chair", colour="blue"),
        box(1, 2, 3, 2, type="vase", colour="yellow", fragile=True),
    ], [helper(1, 3, clumsy=True), helper(1, 4, clumsy=True)], seats=9),
]}]}


def score_of(vehicles: list[dict], snacks: int = 0) -> LoadScore:
    return score_load(loaded_vehicles_from(vehicles), snacks)


def why(score: LoadScore) -> dict[tuple[str, int, int], str]:
    return {(damaged.vehicle, damaged.row, damaged.col): damaged.why for damaged in score.damaged}


# -- the rulebook and the damage rules --------------------------------------------------
def test_rulebook_scoring_example_totals_31() -> None:
    player = RULEBOOK_EXAMPLE["players"][0]
    score = score_of(player["vehicles"], player["snacks"])
    assert score.parts() == {"weight": 16, "type": 4, "colour": 3, "snacks": 8}
    assert score.total == 31
    assert why(score) == {
        ("scooter", 1, 0): "weight", ("scooter", 2, 0): "weight", ("scooter", 3, 0): "weight",
        ("car", 2, 0): "strength",
        ("truck", 0, 1): "clumsy", ("truck", 1, 2): "clumsy",
    }


def test_a_heavier_box_directly_above_damages_even_when_itself_damaged() -> None:
    boxes = [box(0, 0, 7), box(1, 0, 5), box(2, 0, 3), box(2, 1, 3), box(1, 1, 3)]
    score = score_of([vehicle("car", ["..", "..", ".."], boxes, [helper(3, 4), helper(3, 4)])])
    # equal weight above (col 1) damages nothing; the damaged 5 still damages the 3 below it
    assert why(score) == {("car", 1, 0): "weight", ("car", 2, 0): "weight"}


def test_helpers_too_weak_damage_heavier_boxes_and_no_helpers_damage_all() -> None:
    boxes = [box(1, 0, 4), box(1, 1, 5)]
    weak = score_of([vehicle("car", ["..", ".."], boxes, [helper(1, 2), helper(2, 2)])])
    assert why(weak) == {("car", 1, 1): "strength"}
    nobody = score_of([vehicle("car", ["..", ".."], boxes, [])])
    assert why(nobody) == {("car", 1, 0): "strength", ("car", 1, 1): "strength"}
    assert nobody.total == 0


def test_each_clumsy_helper_damages_one_fragile_box_all_when_fewer() -> None:
    fragile = [box(1, col, fragile=True, type=str(col), colour=str(col)) for col in range(3)]
    two = score_of([vehicle("truck", ["...", "..."], fragile, [helper(2, 4, clumsy=True)])])
    assert sorted(why(two).values()) == ["clumsy", "clumsy"]
    many = score_of([vehicle("truck", ["...", "..."], fragile,
                             [helper(3, 4, clumsy=True), helper(2, 4, clumsy=True)])])
    assert len(many.damaged) == 3 and many.weight == 0


def test_clumsy_helpers_leave_sturdy_boxes_alone() -> None:
    boxes = [box(1, 0, 1, 3), box(1, 1, 1, 3, fragile=True, type="x", colour="y")]
    score = score_of([vehicle("car", ["..", ".."], boxes, [helper(3, 4, clumsy=True)])])
    assert why(score) == {("car", 1, 1): "clumsy"}
    assert score.weight == 3


def test_clumsy_choice_prefers_a_box_damaged_anyway_and_names_clumsy_first() -> None:
    boxes = [box(0, 0, 5, 3, fragile=True, type="a", colour="a"),
             box(0, 1, 2, 1, fragile=True, type="b", colour="b"),
             box(1, 0, 1, 1, fragile=True, type="c", colour="c"),
             box(1, 1, 3, 1, type="d", colour="d")]
    helpers = [helper(1, 4, clumsy=True), helper(1, 4)]
    score = score_of([vehicle("car", ["..", ".."], boxes, helpers)])
    # the weight-1 box under the weight-5 box is crushed anyway: the clumsy helper takes it,
    # and it is listed once, with the first check that damaged it
    assert why(score) == {("car", 1, 0): "clumsy"}
    assert score.weight == 3 + 1 + 1


def test_clumsy_choice_keeps_the_most_points_not_the_first_box() -> None:
    boxes = [box(1, 0, 1, 3, fragile=True, type="a", colour="a"),
             box(1, 1, 1, 1, fragile=True, type="b", colour="b")]
    score = score_of([vehicle("car", ["..", ".."], boxes, [helper(1, 4, clumsy=True)])])
    assert why(score) == {("car", 1, 1): "clumsy"}
    assert score.weight == 3


def test_clumsy_choice_counts_the_neighbours_it_would_spoil() -> None:
    # Damaging (1,0) costs its point and both type points of the lamp pair;
    # damaging (1,2) costs only its point: same weight points, fewer neighbours spoiled.
    boxes = [box(1, 0, fragile=True, type="lamp", colour="a"),
             box(1, 1, type="lamp", colour="b"),
             box(1, 2, fragile=True, type="vase", colour="c")]
    score = score_of([vehicle("truck", ["...", "..."], boxes, [helper(1, 4, clumsy=True)])])
    assert why(score) == {("truck", 1, 2): "clumsy"}
    assert (score.weight, score.type) == (2, 2)


def test_equally_good_clumsy_choices_damage_the_first_in_reading_order() -> None:
    boxes = [box(1, col, fragile=True, type=str(col), colour=str(col)) for col in range(3)]
    boxes += [box(0, 2, fragile=True, type="x", colour="y")]
    score = score_of([vehicle("truck", ["...", "..."], boxes, [helper(2, 4, clumsy=True)])])
    assert why(score) == {("truck", 0, 2): "clumsy", ("truck", 1, 0): "clumsy"}


def test_winners_more_snack_points_then_shared() -> None:
    def result(weight: int, snacks: int) -> LoadScore:
        return LoadScore(weight, 0, 0, snacks, ())

    assert winners_of([("Ana", result(5, 5)), ("Ben", result(7, 3))]) == ["Ana"]
    assert winners_of([("Ana", result(5, 5)), ("Ben", result(5, 5)),
                       ("Cas", result(9, 0))]) == ["Ana", "Ben"]
    assert winners_of([("Ana", result(11, 0)), ("Ben", result(6, 4))]) == ["Ana"]


# -- the clumsy optimisation against brute force ----------------------------------------
def brute_force(layout: tuple[str, ...], boxes: list[LoadedBox],
                helpers: list[SeatedHelper], snacks: int) -> LoadScore:
    """Every clumsy choice tried, in reading order; the first best one kept."""
    def score_with(clumsy: tuple[LoadedBox, ...]) -> LoadScore:
        # damaging exactly ``clumsy``: clumsy helpers turned into a fixed choice
        cells = {(b.row, b.col): b for b in boxes}
        strength = sum(h.strength for h in helpers)
        hit = {(b.row, b.col): "clumsy" for b in clumsy}
        for (row, col), b in sorted(cells.items()):
            above = cells.get((row - 1, col))
            if above is not None and above.weight > b.weight:
                hit.setdefault((row, col), "weight")
            if b.weight > strength:
                hit.setdefault((row, col), "strength")
        intact = {cell: b for cell, b in cells.items() if cell not in hit}

        def matched(feature: str) -> int:
            return sum(1 for (row, col), b in intact.items()
                       if any(getattr(intact[near], feature) == getattr(b, feature)
                              for near in ((row - 1, col), (row + 1, col), (row, col - 1),
                                           (row, col + 1)) if near in intact))
        return LoadScore(sum(b.points for b in intact.values()), matched("type"),
                         matched("colour"), snacks,
                         tuple(DamagedBox("v", r, c, hit[r, c]) for r, c in sorted(hit)))

    fragile = sorted((b for b in boxes if b.fragile), key=lambda b: (b.row, b.col))
    victims = min(sum(h.count for h in helpers if h.clumsy), len(fragile))
    best = None
    for choice in itertools.combinations(fragile, victims):
        scored = score_with(choice)
        if best is None or scored.total > best.total:
            best = scored
    assert best is not None
    return best


@st.composite
def loaded_vehicles(draw: st.DrawFn) -> tuple[tuple[str, ...], list[LoadedBox],
                                              list[SeatedHelper]]:
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = [(row, col) for row in range(rows) for col in range(cols)]
    filled = draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells)))
    boxes = [LoadedBox(row, col, draw(st.sampled_from("AB")), draw(st.sampled_from("xy")),
                       draw(st.booleans()), draw(st.integers(1, 7)), draw(st.integers(1, 3)))
             for row, col in filled]
    helpers = draw(st.lists(st.builds(SeatedHelper, st.integers(1, 3), st.booleans(),
                                      st.integers(1, 4)), max_size=4))
    return tuple("." * cols for _ in range(rows)), boxes, helpers


@settings(max_examples=300, deadline=None)
@given(loaded_vehicles(), st.integers(0, 20))
def test_clumsy_optimisation_matches_brute_force(case: tuple, snacks: int) -> None:
    layout, boxes, helpers = case
    got = score_load([LoadedVehicle("v", layout, 99, tuple(boxes), tuple(helpers))], snacks)
    expected = brute_force(layout, boxes, helpers, snacks)
    assert got.parts() == expected.parts()
    assert got.damaged == expected.damaged


def test_scoring_a_large_layout_stays_fast_enough_to_finish() -> None:
    # 40 fragile boxes, 20 clumsy helpers: far too many choices to try them all
    layout = tuple("." * 8 for _ in range(5))
    boxes = tuple(LoadedBox(row, col, "AB"[(row + col) % 2], "xyz"[(row * 3 + col) % 3],
                            True, 1, 1 + (row * col) % 3)
                  for row in range(5) for col in range(8))
    helpers = tuple(SeatedHelper(2, True, 4) for _ in range(10))
    score = score_load([LoadedVehicle("big", layout, 30, boxes, helpers)], 0)
    assert len(score.damaged) == 20
    assert score.weight == sum(b.points for b in boxes) - sum(
        next(b.points for b in boxes if (b.row, b.col) == (d.row, d.col)) for d in score.damaged)


# -- the engine -------------------------------------------------------------------------
def new_game(players: int = 2, seed: int = 1, **options: Any) -> MovingDayState:
    state = get_game("moving-day").new_game([f"P{i + 1}" for i in range(players)], seed=seed,
                                            options=options)
    assert isinstance(state, MovingDayState)
    return state


def take(state: MovingDayState, group: int, places: list[tuple[str | None, int, int]],
         helper_vehicle: str | None) -> dict[str, Any]:
    boxes = state.data["groups"][group]["boxes"]
    entries = [{"box": box_id, "vehicle": name, "row": row, "col": col}
               if name else {"box": box_id, "vehicle": None}
               for box_id, (name, row, col) in zip(boxes, places, strict=True)]
    return {"type": "take", "group": group, "boxes": entries, "helper_vehicle": helper_vehicle}


def test_setup_lays_out_one_group_more_than_players() -> None:
    for players in (2, 3, 4):
        state = new_game(players)
        groups = state.data["groups"]
        assert len(groups) == players + 1
        assert all(len(group["boxes"]) == 2 and group["helper"] for group in groups)
        drawn = [box_id for group in groups for box_id in group["boxes"]]
        assert drawn == state.setup["box_pile"][:2 * (players + 1)]
    catalogue = default_catalogue("moving-day")
    assert len(catalogue["boxes"]) == 75 and len(catalogue["helpers"]) == 36
    assert len({b["id"] for b in catalogue["boxes"]}) == 75
    assert {(b["type"], b["colour"]) for b in catalogue["boxes"]} == {
        (t, c) for t in {b["type"] for b in catalogue["boxes"]}
        for c in {b["colour"] for b in catalogue["boxes"]}}
    assert len({b["type"] for b in catalogue["boxes"]}) == 5


def test_a_turn_loads_the_group_pays_its_snacks_and_feeds_the_neighbours() -> None:
    state = new_game(3)
    state.data["groups"][1]["snacks"] = 4
    group = state.data["groups"][1]
    helper_id, box_ids = group["helper"], list(group["boxes"])
    state.apply(take(state, 1, [("car", 2, 0), ("car", 2, 1)], "truck"))
    me = state.data["players"][0]
    assert me["snacks"] == 4
    assert me["vehicles"][1]["grid"][2] == box_ids
    assert me["vehicles"][2]["helpers"] == [helper_id]
    assert [group["snacks"] for group in state.data["groups"]] == [1, 0, 1, 0]
    assert state.data["groups"][1]["boxes"] == state.setup["box_pile"][8:10]
    assert state.current_player() == 1


def test_an_end_group_has_one_neighbour() -> None:
    state = new_game(2)
    state.apply(take(state, 2, [("scooter", 3, 0), ("scooter", 2, 0)], "car"))
    assert [group["snacks"] for group in state.data["groups"]] == [0, 1, 0]


def test_boxes_fill_the_lowest_row_with_a_free_space_first() -> None:
    state = new_game(2)
    with pytest.raises(IllegalAction, match="lowest row"):
        state.apply(take(state, 0, [("car", 2, 0), ("car", 1, 0)], "car"))
    # in the other order it is the same end position: the row above only once row 2 is full
    with pytest.raises(IllegalAction, match="lowest row"):
        state.apply(take(state, 0, [("car", 1, 0), ("car", 2, 0)], "car"))
    state.apply(take(state, 0, [("scooter", 2, 0), ("scooter", 3, 0)], "car"))
    assert state.data["players"][0]["vehicles"][0]["grid"][2:] == [
        [state.log[0]["boxes"][0]["box"]], [state.log[0]["boxes"][1]["box"]]]


def test_supported_option_lets_a_box_rest_on_another_box() -> None:
    state = new_game(2, placement="supported")
    state.apply(take(state, 0, [("car", 1, 0), ("car", 2, 0)], "car"))
    with pytest.raises(IllegalAction, match="rest on the floor"):
        state.apply(take(state, 0, [("truck", 0, 1), ("car", 0, 1)], "car"))


def test_bad_actions_are_refused_with_reasons() -> None:
    state = new_game(2)
    good = take(state, 0, [("truck", 1, 0), ("truck", 1, 1)], "car")
    cases = [
        ({**good, "group": 3}, "'group' must be a group's index"),
        ({**good, "boxes": good["boxes"][:1]}, "must list the group's 2 boxes"),
        ({**good, "boxes": [good["boxes"][0], good["boxes"][0]]}, "each of the group's"),
        ({**good, "boxes": [{**good["boxes"][0], "vehicle": "bike"}, good["boxes"][1]]},
         "no vehicle called 'bike'"),
        ({**good, "boxes": [{**good["boxes"][0], "row": 5}, good["boxes"][1]]}, "no box space"),
        ({**good, "boxes": [good["boxes"][0], {**good["boxes"][1], "col": 0}]}, "share"),
        ({**good, "boxes": [{**good["boxes"][0], "vehicle": None}, good["boxes"][1]]},
         "leaves play only"),
        ({**good, "helper_vehicle": None}, "must be seated"),
        ({**good, "helper_vehicle": "bike"}, "no vehicle called"),
        ({**good, "extra": 1}, "unknown field"),
        ({key: value for key, value in good.items() if key != "helper_vehicle"}, "missing"),
        ({**good, "helper_vehicle": ["car"]}, "no vehicle called"),
        ({**good, "boxes": [{**good["boxes"][0], "vehicle": {}}, good["boxes"][1]]},
         "no vehicle called"),
        ({**good, "boxes": [{**good["boxes"][0], "row": "1"}, good["boxes"][1]]}, "whole-number"),
        ({**good, "boxes": [[1], good["boxes"][1]]}, "is an object"),
    ]
    before = state.to_json()
    for action, reason in cases:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    assert state.to_json() == before
    state.apply(good)


def seat_helpers(state: MovingDayState, player: int, vehicle_index: int, count: int) -> None:
    """Fill seats of a vehicle by seating catalogue helper cards of ``count`` there."""
    in_groups = {group["helper"] for group in state.data["groups"]}
    cards = [card for card, row in state.setup["helpers"].items()
             if row[0] == count and card not in in_groups]
    state.data["players"][player]["vehicles"][vehicle_index]["helpers"] += cards[:1]


def test_a_helper_may_be_removed_only_when_it_lacks_seats() -> None:
    state = new_game(2, seed=4)
    group = state.data["groups"][0]
    seat_helpers(state, 0, 0, 3)  # the scooter's 3 seats are taken
    action = take(state, 0, [("truck", 1, 0), ("truck", 1, 1)], None)
    strict = new_game(2, seed=4, helper_discard="lacks-seats-everywhere")
    seat_helpers(strict, 0, 0, 3)
    with pytest.raises(IllegalAction, match="seated"):
        strict.apply(action)
    with pytest.raises(IllegalAction, match="too few free seats"):
        state.apply({**action, "helper_vehicle": "scooter"})
    state.apply(action)
    assert state.data["players"][0]["helpers_out"] == [group["helper"]]


def test_every_player_fills_all_sixteen_spaces_in_eight_rounds() -> None:
    for players in (2, 4):
        state = play_randomly(new_game(players, seed=players), random.Random(players))
        assert len(state.log) == 8 * players
        for player in state.data["players"]:
            assert all(box_id for vehicle in player["vehicles"]
                       for line in vehicle["grid"] for box_id in line)
            assert player["boxes_out"] == []


def test_legal_actions_are_exactly_the_actions_check_accepts() -> None:
    rng = random.Random(9)
    for seed in range(3):
        state = new_game(2, seed=seed, placement=["lowest-row", "supported"][seed % 2])
        for _ in range(rng.randrange(0, 12)):
            state.apply(rng.choice(state.legal_actions()))
        legal = {repr(action) for action in state.legal_actions()}
        accepted = set()
        for action in all_conceivable_actions(state):
            try:
                state.check(action)
            except IllegalAction:
                continue
            accepted.add(repr(action))
        assert legal == accepted


def all_conceivable_actions(state: MovingDayState) -> list[dict[str, Any]]:
    spaces: list[tuple[str | None, int, int]] = [(None, 0, 0)]
    for name, layout in zip(state.fleet.names, state.fleet.layouts, strict=True):
        spaces += [(name, row, col) for row in range(len(layout))
                   for col in range(len(layout[row]))]
    helpers = [None, *state.fleet.names]
    return [take(state, group, [first, second], helper_vehicle)
            for group in range(len(state.data["groups"]))
            for first in spaces for second in spaces for helper_vehicle in helpers]


def test_boxes_leave_play_only_when_no_vehicle_has_room() -> None:
    catalogue = default_catalogue("moving-day")
    catalogue["vehicles"] = [{"name": "cart", "layout": ["."], "seats": 1}]
    state = get_game("moving-day").new_game(["A", "B"], seed=2, catalogue=catalogue)
    actions = state.legal_actions()
    assert actions and all(sorted(entry["vehicle"] is None for entry in action["boxes"])
                           == [False, True] for action in actions)
    state = play_randomly(state, random.Random(2))
    assert len(state.data["players"][0]["boxes_out"]) == 15


def test_engine_scores_match_the_scoring_function() -> None:
    state = play_randomly(new_game(3, seed=8), random.Random(8))
    for index, score in enumerate(state.scores()):
        expected = score_load(state.loaded_vehicles(index),
                              state.data["players"][index]["snacks"])
        assert score.parts == expected.parts() and score.total == expected.total
    keys = {s.player: (s.total, s.parts["snacks"]) for s in state.scores()}
    assert state.winners() == [name for name in state.players if keys[name] == max(keys.values())]


def test_snacks_paid_equal_the_supply_spent() -> None:
    state = play_randomly(new_game(4, seed=3), random.Random(3))
    lying = sum(group["snacks"] for group in state.data["groups"])
    held = sum(player["snacks"] for player in state.data["players"])
    assert lying + held + state.data["supply"] == 26 + 5 * 8


@pytest.mark.parametrize("options", [{"rounds": 0}, {"placement": "anywhere"},
                                     {"helper_discard": "always"}])
def test_bad_option_values_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="option"):
        new_game(2, **options)


def test_shorter_game_option() -> None:
    state = play_randomly(new_game(2, rounds=3), random.Random(1))
    assert len(state.log) == 6 and state.is_over()


def filled_cells(vehicle_state: dict[str, Any]) -> set[tuple[int, int]]:
    return {(row, col) for row, line in enumerate(vehicle_state["grid"])
            for col, box_id in enumerate(line) if box_id is not None}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(["lowest-row", "supported"]),
       st.integers(1, 8))
def test_random_games_keep_the_placement_rule(seed: int, players: int, placement: str,
                                              turns: int) -> None:
    state = new_game(players, seed=seed, placement=placement)
    rng = random.Random(seed)
    for _ in range(turns):
        state.apply(rng.choice(state.legal_actions()))
    for player in state.data["players"]:
        for layout, vehicle_state in zip(state.fleet.layouts, player["vehicles"], strict=True):
            filled = filled_cells(vehicle_state)
            bottom = len(layout) - 1
            for row, col in filled:
                assert row == bottom or (row + 1, col) in filled  # rests on floor or a box
                if placement == "lowest-row" and row < bottom:
                    assert all((row + 1, other) in filled for other in range(len(layout[0])))
        seated = [sum(state.setup["helpers"][card][0] for card in vehicle_state["helpers"])
                  for vehicle_state in player["vehicles"]]
        assert all(used <= seats for used, seats in zip(seated, state.fleet.seats, strict=True))
