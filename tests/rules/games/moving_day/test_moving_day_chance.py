"""Moving Day's draws: unseen groups, their reveals (from the seed or the table), refusals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import IllegalAction, State, get_game
from rules.engine import REVEAL
from rules.games.moving_day import UNSEEN
from rules.playout import random_step

PLAYERS = ["Ana", "Ben"]


def table_game(players: list[str] = PLAYERS, **options: Any) -> State:
    return get_game("moving-day").new_game(players, options=options or None, deal="table")


def helper_kind(state: State, helper: str) -> tuple[Any, ...]:
    return tuple(state.setup["helpers"][helper])


def refused(state: State, action: dict[str, Any]) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as raised:
        state.apply(action)
    assert state.to_json() == before
    return raised.value.reason


def test_a_table_dealt_by_hand_starts_with_every_group_unseen_and_no_piles() -> None:
    state = table_game()
    assert state.deal == "table" and state.setup["deal"] == "table"
    assert "box_pile" not in state.setup and "helper_pile" not in state.setup
    assert state.data["groups"] == [{"boxes": [UNSEEN, UNSEEN], "helper": UNSEEN, "snacks": 0}
                                    for _ in range(3)]
    assert (state.data["box_next"], state.data["helper_next"]) == (6, 3)
    assert not any(box in json.dumps(state.data) for box in state.setup["boxes"])
    assert state.public_view() == state.data
    assert not state.is_chance()  # nobody waits: the take itself may reveal its group
    assert len(state.unseen()) == 75 + 36


def test_a_seeded_game_reveals_its_draws_at_once_and_logs_only_the_players_actions() -> None:
    state = get_game("moving-day").new_game(PLAYERS, seed=4)
    piles = state.setup["box_pile"], state.setup["helper_pile"]
    assert [group["boxes"] for group in state.data["groups"]] == [
        piles[0][0:2], piles[0][2:4], piles[0][4:6]]
    assert [group["helper"] for group in state.data["groups"]] == piles[1][:3]
    assert [step for step, _ in state.seed_reveals] == [0] * 3  # one reveal per group
    assert state.chance_outcomes() == [] and state.seeded_reveal() is None
    take = state.legal_actions()[5]
    state.apply(take)
    assert state.log == [take]
    group = state.data["groups"][take["group"]]
    assert group["boxes"] == piles[0][6:8] and group["helper"] == piles[1][3]
    assert [reveal for step, reveal in state.seed_reveals if step == 1] == [
        {"type": REVEAL, "group": take["group"], "boxes": piles[0][6:8],
         "helper": piles[1][3]}]
    assert "box_pile" not in json.dumps(state.public_view())


def test_the_outcomes_are_each_unseen_box_and_each_kind_of_helper_for_each_group() -> None:
    state = table_game()
    outcomes = state.chance_outcomes()
    boxes = [o for o in outcomes if "box" in o.action]
    helpers = [o for o in outcomes if "helper" in o.action]
    assert len(boxes) == 3 * 75 and all(o.count == 1 for o in boxes)
    assert len(helpers) == 3 * 12 and all(o.count == 3 for o in helpers)
    assert {o.action["group"] for o in outcomes} == {0, 1, 2}
    state.apply({"type": REVEAL, "group": 1, "box": "box-07"})
    state.apply({"type": REVEAL, "group": 1, "box": "box-08"})
    state.apply({"type": REVEAL, "group": 0, "helper": "helper-02"})
    outcomes = state.chance_outcomes()
    assert {o.action["group"] for o in outcomes if "box" in o.action} == {0, 2}
    assert not any(o.action.get("box") in ("box-07", "box-08") for o in outcomes)
    assert {o.action["group"] for o in outcomes if "helper" in o.action} == {1, 2}
    counts = {helper_kind(state, o.action["helper"]): o.count for o in outcomes
              if o.action["group"] == 1 and "helper" in o.action}
    assert counts[helper_kind(state, "helper-02")] == 2 and sum(counts.values()) == 35
    assert sum(state.unseen().values()) == 75 + 36 - 3


def test_any_card_of_a_helper_kind_is_accepted_not_only_the_one_listed() -> None:
    state = table_game()
    listed = {o.action["helper"] for o in state.chance_outcomes() if "helper" in o.action}
    twin = next(helper for helper in state.setup["helpers"] if helper not in listed)
    state.apply({"type": REVEAL, "group": 2, "helper": twin})
    assert state.data["groups"][2]["helper"] == twin


@pytest.mark.parametrize(("action", "reason"), [
    ({"type": REVEAL, "group": 1, "box": "box-07"}, "box-07 is already in group 1"),
    ({"type": REVEAL, "group": 1, "box": "x"}, "there is no box 'x' in this copy"),
    ({"type": REVEAL, "group": 1, "helper": "x"}, "there is no helper card 'x' in this copy"),
    ({"type": REVEAL, "group": 2, "helper": "helper-05"}, "helper-05 is already in group 1"),
    ({"type": REVEAL, "group": 0, "helper": "helper-06"},
     "group 1's helper card is known already: helper-05"),
    ({"type": REVEAL, "group": 7, "box": "box-09"},
     "'group' must be a group's index, 0 to 2 (group 1 is 0)"),
    ({"type": REVEAL, "box": "box-09"}, "a reveal names a 'group' and one 'box' of it"),
    ({"type": REVEAL, "group": 1, "box": "box-09", "boxes": ["box-10"]},
     "a reveal names a 'group' and one 'box' of it"),
    ({"type": REVEAL, "group": 1, "boxes": []}, "'boxes' lists one or more box ids"),
    ({"type": REVEAL, "group": 1, "boxes": ["box-09", "box-09"]},
     "a box cannot lie in a group twice"),
    ({"type": REVEAL, "group": 0, "boxes": ["box-09", "box-10"]},
     "group 1 has only 1 unseen box(es) left"),
])
def test_reveals_that_are_no_legal_outcome_are_refused_with_a_persons_reason(
        action: dict[str, Any], reason: str) -> None:
    state = table_game()
    state.apply({"type": REVEAL, "group": 0, "box": "box-07"})
    state.apply({"type": REVEAL, "group": 0, "helper": "helper-05"})
    assert refused(state, action).startswith(reason)


def test_a_person_may_enter_a_whole_group_at_once() -> None:
    state = table_game()
    whole = {"type": REVEAL, "group": 2, "boxes": ["box-09", "box-10"], "helper": "helper-30"}
    assert not any(outcome.action == whole for outcome in state.chance_outcomes())
    state.apply(whole)
    assert state.data["groups"][2] == {"boxes": ["box-09", "box-10"], "helper": "helper-30",
                                       "snacks": 0}


def test_a_full_group_refuses_another_box() -> None:
    state = table_game()
    state.apply({"type": REVEAL, "group": 0, "box": "box-07"})
    state.apply({"type": REVEAL, "group": 0, "box": "box-08"})
    assert refused(state, {"type": REVEAL, "group": 0, "box": "box-09"}) == (
        "every box of group 1 is known already: box-07, box-08")


def take(group: int, boxes: list[str], **fields: Any) -> dict[str, Any]:
    """A take putting ``boxes`` on the scooter's two lowest spaces, helper on the truck."""
    entries = [{"box": box, "vehicle": "scooter", "row": 3 - number, "col": 0}
               for number, box in enumerate(boxes)]
    return {"type": "take", "group": group, "boxes": entries, "helper_vehicle": "truck",
            **fields}


def test_a_take_reveals_the_unseen_boxes_and_helper_it_names() -> None:
    state = table_game()
    state.apply({"type": REVEAL, "group": 1, "box": "box-31"})
    state.apply(take(1, ["box-31", "box-07"], helper="helper-12"))
    ana = state.data["players"][0]
    assert [line[0] for line in ana["vehicles"][0]["grid"]] == [None, None, "box-07", "box-31"]
    assert ana["vehicles"][2]["helpers"] == ["helper-12"]
    assert state.data["groups"][1] == {"boxes": [UNSEEN, UNSEEN], "helper": UNSEEN,
                                       "snacks": 0}
    assert [group["snacks"] for group in state.data["groups"]] == [1, 0, 1]
    assert refused(state, {"type": REVEAL, "group": 0, "box": "box-07"}) == (
        "box-07 is already in a vehicle (Ana's scooter)")
    assert refused(state, {"type": REVEAL, "group": 0, "helper": "helper-12"}) == (
        "helper-12 is already seated in Ana's truck")
    assert state.game.replay(state.to_json()) == state


@pytest.mark.parametrize(("action", "reason"), [
    (take(0, ["box-07", "box-08"]), "the helper card of group 1 has not been seen: name it"),
    (take(0, ["box-07", "box-08"], helper="helper-05"), "helper-05 is already in group 2"),
    (take(0, ["box-09", "box-08"], helper="helper-01"), "box-09 is already in group 2"),
    (take(0, ["box-07", "nope"], helper="helper-01"), "there is no box 'nope' in this copy"),
    (take(0, ["box-07"], helper="helper-01"), "'boxes' must list the group's 2 boxes"),
    (take(0, ["box-07", "box-07"], helper="helper-01"),
     "'boxes' must list each of the group's boxes once: one not yet seen, one not yet seen"),
    (take(1, ["box-09", "box-08"], helper="helper-01"), "group 2's helper card is helper-05, "
                                                        "not 'helper-01'"),
])
def test_takes_of_unseen_groups_are_refused_with_a_reason(action: dict[str, Any],
                                                           reason: str) -> None:
    state = table_game()
    state.apply({"type": REVEAL, "group": 1, "box": "box-09"})
    state.apply({"type": REVEAL, "group": 1, "helper": "helper-05"})
    assert refused(state, action).startswith(reason)


def test_listed_takes_of_unseen_groups_stand_in_the_first_unseen_components() -> None:
    state = table_game()
    state.apply({"type": REVEAL, "group": 0, "box": "box-01"})
    takes = [action for action in state.legal_actions() if action["group"] == 0]
    assert takes and all({entry["box"] for entry in action["boxes"]} == {"box-01", "box-02"}
                         and action["helper"] == "helper-01" for action in takes)
    others = [action for action in state.legal_actions() if action["group"] == 1]
    assert all({entry["box"] for entry in action["boxes"]} == {"box-02", "box-03"}
               for action in others)
    state.apply(takes[-1])
    ana = state.data["players"][0]
    assert [h for v in ana["vehicles"] for h in v["helpers"]] + ana["helpers_out"] == [
        "helper-01"]


def test_the_refill_after_the_last_turn_stays_unseen() -> None:
    seeded = get_game("moving-day").new_game(PLAYERS, seed=2, options={"rounds": 1})
    rng = random.Random(2)
    while not seeded.is_over():
        seeded.apply(rng.choice(seeded.legal_actions()))
    assert sum(group["boxes"].count(UNSEEN) for group in seeded.data["groups"]) == 2
    assert seeded.scores()  # scoring needs nothing unseen


@pytest.mark.parametrize("seed", range(3))
def test_hand_dealt_random_games_reveal_only_unseen_components(seed: int) -> None:
    rng = random.Random(seed)
    state = table_game(["A", "B", "C", "D"])
    while not state.is_over():
        state.apply(random_step(state, rng))
    placed = [box for player in state.data["players"] for vehicle in player["vehicles"]
              for line in vehicle["grid"] for box in line if box is not None]
    seated = [helper for player in state.data["players"] for vehicle in player["vehicles"]
              for helper in vehicle["helpers"]]
    assert len(placed) == len(set(placed)) == 4 * 16
    assert len(seated) == len(set(seated))
    assert not set(placed) & set(state.unseen()) and not set(seated) & set(state.unseen())


def test_the_module_examples_run() -> None:
    import doctest

    import rules.games.moving_day.engine as module

    assert doctest.testmod(module).failed == 0
