"""Small Warehouse: setup, turns, placement rules, scoring (the rulebook's examples too)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction, get_game
from rules.catalogue import default_catalogue
from rules.games.small_warehouse import (
    KindScore,
    rotate_clockwise,
    score_warehouse,
    warehouse_winners,
)
from rules.playout import play_randomly

GAME = get_game("small-warehouse")


def new_game(seed: int = 1, **options):
    return GAME.new_game(["Ana", "Ben"], seed=seed, options=options)


def place(state, source: str, card: str, row: int, col: int, rotation: int = 0, refill=None):
    action = {"type": "place", "source": source, "card": card, "row": row, "col": col,
              "rotation": rotation}
    if refill is not None:
        action["refill"] = refill
    state.apply(action)


def test_default_catalogue_has_twenty_two_by_three_cards() -> None:
    cards = default_catalogue("small-warehouse")["cards"]
    assert len(cards) == 20 and len({card["id"] for card in cards}) == 20
    for card in cards:
        assert [len(row) for row in card["squares"]] == [3, 3]
        assert set("".join(card["squares"])) <= set("ABCDE#")


# -- scoring ----------------------------------------------------------------------
def test_contract_example_scores() -> None:
    ana = score_warehouse(["AAB.", "#AB.", "CCCC"])
    assert (ana.total, ana.empty_boxes) == (4, 1)
    assert ana.kinds == {"A": KindScore(1, 3, 0), "B": KindScore(1, 2, 0), "C": KindScore(1, 4, 4)}
    ben = score_warehouse(["DD", "DD"])
    assert (ben.total, ben.kinds["D"]) == (4, KindScore(1, 4, 4))
    assert warehouse_winners([("Ana", ana), ("Ben", ben)]) == ["Ben"]


def test_rulebook_cotton_example_scores_seven_times_four() -> None:
    # A cotton (C) block of 7 squares and three more blocks (2, 1 and 1 squares).
    grid = [
        "CCCC..",
        "CCC.#C",
        "#..C.C",
        "C.#...",
    ]
    cotton = score_warehouse(grid).kinds["C"]
    assert cotton == KindScore(blocks=4, biggest=7, points=28)


def test_rulebook_tie_break_counts_empty_boxes_not_empty_squares() -> None:
    grid = ["########", "........"]
    assert score_warehouse(grid).empty_boxes == 8


def test_a_kind_needs_a_block_of_four_to_score() -> None:
    assert score_warehouse(["AAA.", "....", "A..A"]).kinds["A"] == KindScore(3, 3, 0)
    assert score_warehouse(["AAAA", "....", "A..A"]).kinds["A"] == KindScore(3, 4, 12)


def test_diagonal_squares_are_not_connected() -> None:
    assert score_warehouse(["A.A", ".A.", "A.A"]).kinds["A"] == KindScore(5, 1, 0)


def test_each_kind_scores_separately_and_adds_up() -> None:
    score = score_warehouse(["AABB", "AABB", "C#DD"])
    assert score.total == 4 + 4
    assert list(score.kinds) == ["A", "B", "C", "D"]
    assert score.kinds["C"].points == 0 and score.empty_boxes == 1


def test_ties_go_to_fewer_empty_boxes_then_are_shared() -> None:
    four = score_warehouse(["AAAA"])
    four_with_box = score_warehouse(["AAAA#"])
    assert warehouse_winners([("Ana", four_with_box), ("Ben", four)]) == ["Ben"]
    assert warehouse_winners([("Ana", four), ("Ben", four)]) == ["Ana", "Ben"]


def _rotate_grid(grid: list[str]) -> list[str]:
    return rotate_clockwise(grid, 90)


def _mirror_grid(grid: list[str]) -> list[str]:
    return [row[::-1] for row in grid]


grids = st.integers(1, 7).flatmap(
    lambda width: st.lists(st.text(alphabet="..##ABC", min_size=width, max_size=width),
                           min_size=1, max_size=7)
)


@given(grids)
def test_score_does_not_change_when_the_grid_is_turned_or_mirrored(grid: list[str]) -> None:
    score = score_warehouse(grid)
    assert score_warehouse(_rotate_grid(grid)) == score
    assert score_warehouse(_mirror_grid(grid)) == score
    assert score_warehouse(grid[::-1]) == score


@given(grids)
def test_total_is_the_sum_of_kind_points(grid: list[str]) -> None:
    score = score_warehouse(grid)
    assert score.total == sum(kind.points for kind in score.kinds.values())
    for letter, kind in score.kinds.items():
        squares = sum(row.count(letter) for row in grid)
        assert kind.biggest + kind.blocks - 1 <= squares


def test_rotate_clockwise_turns_the_rows() -> None:
    assert rotate_clockwise(["AB", "CD", "EF"], 90) == ["ECA", "FDB"]
    assert rotate_clockwise(["AB", "CD", "EF"], 180) == ["FE", "DC", "BA"]
    assert rotate_clockwise(["AB", "CD", "EF"], 270) == ["BDF", "ACE"]


# -- setup and turns ----------------------------------------------------------------
def test_setup_deals_one_card_each_warehouse_and_hand_three_supply_thirteen_drawn() -> None:
    state = new_game()
    data = state.data
    dealt = (state.setup["warehouse_cards"] + data["hands"][0] + data["hands"][1]
             + data["supply"] + state.setup["draw_pile"])  # the pile's order stays in setup
    assert [len(placed) for placed in data["placed"]] == [1, 1]
    assert [len(hand) for hand in data["hands"]] == [1, 1]
    assert (len(data["supply"]), data["draw_pile"]) == (3, 13)
    assert sorted(state.unseen()) == sorted(state.setup["draw_pile"])
    assert sorted(dealt) == sorted(state.setup["cards"])
    assert len(data["grids"][0]) == 8 and {len(row) for row in data["grids"][0]} == {10}
    assert state.current_player() == 0


def test_placing_from_the_supply_refills_it_from_the_draw_pile() -> None:
    state = new_game()
    card = state.data["supply"][0]
    next_card = state.setup["draw_pile"][0]
    place(state, "supply", card, 3, 0)
    assert card not in state.data["supply"] and next_card in state.data["supply"]
    assert state.data["placed"][0][-1] == {"card": card, "row": 3, "col": 0, "rotation": 0}
    assert state.current_player() == 1


def test_placing_from_the_hand_takes_the_chosen_supply_card_into_the_hand() -> None:
    state = new_game()
    hand_card = state.data["hands"][0][0]
    chosen = state.data["supply"][2]
    place(state, "hand", hand_card, 3, 6, refill=chosen)
    assert state.data["hands"][0] == [chosen]
    assert chosen not in state.data["supply"] and len(state.data["supply"]) == 3


def test_a_card_lies_over_others_and_only_the_top_square_counts() -> None:
    state = new_game()
    card = state.data["supply"][0]
    squares = state.setup["cards"][card]
    place(state, "supply", card, 3, 3)  # exactly over the first card
    grid = state.data["grids"][0]
    assert [grid[3][3:6], grid[4][3:6]] == squares


def test_game_ends_when_the_supply_cannot_be_refilled_with_eight_cards_each() -> None:
    state = play_randomly(new_game(seed=4), random.Random(4))
    assert len(state.log) == 14
    assert [len(placed) for placed in state.data["placed"]] == [8, 8]
    assert len(state.data["supply"]) == 2 and state.data["draw_pile"] == 0
    assert state.current_player() is None and state.legal_actions() == []


def test_scores_and_winners_come_from_the_warehouse_grids() -> None:
    state = play_randomly(new_game(seed=9), random.Random(9))
    expected = [score_warehouse(grid) for grid in state.data["grids"]]
    assert [score.total for score in state.scores()] == [score.total for score in expected]
    assert state.winners() == warehouse_winners(list(zip(state.players, expected, strict=True)))


# -- placement rules ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("row", "col", "rotation", "reason"),
    [
        (7, 0, 0, "inside"),       # a 2-row card on the last row sticks out
        (0, 8, 0, "inside"),
        (6, 8, 90, "inside"),      # turned, it is 3 rows high
        (0, 0, 0, "touch"),        # far from the first card (rows 3-4, cols 3-5)
        (3, 3, 45, "rotation"),
    ],
)
def test_bad_placements_are_refused(row: int, col: int, rotation: int, reason: str) -> None:
    state = new_game()
    before = state.to_json()
    with pytest.raises(IllegalAction, match=reason):
        place(state, "supply", state.data["supply"][0], row, col, rotation)
    assert state.to_json() == before


def test_placement_anywhere_option_allows_a_separate_card() -> None:
    state = new_game(placement="anywhere")
    place(state, "supply", state.data["supply"][0], 0, 0)
    assert state.data["grids"][0][0][0] != "."


def test_touching_by_an_edge_is_enough_but_a_corner_is_not() -> None:
    state = new_game()
    place(state, "supply", state.data["supply"][0], 1, 3)  # rows 1-2, over row 3's edge
    state = new_game()
    with pytest.raises(IllegalAction, match="touch"):
        place(state, "supply", state.data["supply"][0], 1, 0)  # only the corner (2,2)-(3,3)


def test_rotation_option_off_refuses_turned_cards() -> None:
    state = new_game(rotation=False)
    assert {action["rotation"] for action in state.legal_actions()} == {0}
    with pytest.raises(IllegalAction, match="turned"):
        place(state, "supply", state.data["supply"][0], 2, 3, 90)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"card": "nope"}, "no card"),
        ({"source": "deck"}, "source"),
        ({"refill": "c01"}, "exactly"),
        ({"row": "3"}, "whole numbers"),
    ],
)
def test_malformed_place_actions_are_refused(change: dict, reason: str) -> None:
    state = new_game()
    action = {"type": "place", "source": "supply", "card": state.data["supply"][0],
              "row": 3, "col": 0, "rotation": 0, **change}
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)


def test_hand_placement_needs_a_refill_from_the_supply() -> None:
    state = new_game()
    hand_card = state.data["hands"][0][0]
    with pytest.raises(IllegalAction, match="exactly"):
        place(state, "hand", hand_card, 3, 0)
    with pytest.raises(IllegalAction, match="supply to take"):
        place(state, "hand", hand_card, 3, 0, refill=state.setup["draw_pile"][0])


def test_every_listed_action_is_legal_and_placements_are_not_repeated() -> None:
    state = new_game(seed=2)
    actions = state.legal_actions()
    keys = [tuple(sorted(action.items())) for action in actions]
    assert len(keys) == len(set(keys))
    for action in random.Random(0).sample(actions, 50):
        state.check(action)
    hand_actions = [action for action in actions if action["source"] == "hand"]
    assert {action["refill"] for action in hand_actions} == set(state.data["supply"])


def test_a_half_turn_symmetric_card_is_listed_in_two_rotations_only() -> None:
    cards = [{"id": f"s{index}", "squares": ["AB#", "#BA"]} for index in range(20)]
    state = GAME.new_game(["Ana", "Ben"], seed=1, catalogue={"cards": cards})
    assert {action["rotation"] for action in state.legal_actions()} == {0, 90}
    place(state, "supply", state.data["supply"][0], 3, 0, 180)  # still a legal move


def test_a_catalogue_with_too_few_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 7"):
        GAME.new_game(["Ana", "Ben"], seed=1,
                      catalogue={"cards": [{"id": "x", "squares": ["AAA", "BBB"]}]})


@pytest.mark.parametrize("placement", ["touch", "anywhere"])
def test_legal_actions_match_a_brute_force_search(placement: str) -> None:
    state = new_game(seed=6, placement=placement)
    rng = random.Random(6)
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    player = state.current_player()

    def outcome(action: dict) -> tuple:
        trial = state.clone()
        trial.apply(action)
        return (action["source"], action["card"], action.get("refill"),
                tuple(trial.data["grids"][player]))

    brute = set()
    for source, cards in (("supply", state.data["supply"]),
                          ("hand", state.data["hands"][player])):
        refills = state.data["supply"] if source == "hand" else [None]
        for card in cards:
            for rotation in (0, 90, 180, 270):
                for row in range(8):
                    for col in range(10):
                        for refill in refills:
                            action = {"type": "place", "source": source, "card": card,
                                      "row": row, "col": col, "rotation": rotation}
                            if refill is not None:
                                action["refill"] = refill
                            try:
                                state.check(action)
                            except IllegalAction:
                                continue
                            brute.add(outcome(action))
    listed = [outcome(action) for action in state.legal_actions()]
    assert len(listed) == len(set(listed)) and set(listed) == brute


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_the_grid_is_the_placed_cards_stacked_in_order(seed: int) -> None:
    state = play_randomly(new_game(seed=seed), random.Random(seed))
    for grid, placed in zip(state.data["grids"], state.data["placed"], strict=True):
        rebuilt = [["."] * 10 for _ in range(8)]
        for card in placed:
            squares = rotate_clockwise(state.setup["cards"][card["card"]], card["rotation"])
            for dr, line in enumerate(squares):
                for dc, symbol in enumerate(line):
                    if symbol != ".":
                        rebuilt[card["row"] + dr][card["col"] + dc] = symbol
        assert ["".join(row) for row in rebuilt] == grid
