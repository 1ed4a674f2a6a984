"""One way to count for people: every text a person reads (a move in words, a flag's reason,
the picker, a refusal) numbers rows, columns and groups from 1 and says "row R, column C";
the JSON keeps its indices (0-based fields stay 0-based).

Each test names the same thing twice, the way two parts of one page name it, and checks
both say the same number: the picker and the refusal, the move and the flag, the words and
the board.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules import IllegalAction, State, get_game
from rules.games.removal.referee import Referee as RemovalReferee
from rules.games.removal.referee import tag_square
from rules.games.removal.truck import oriented_cells
from rules.games.small_warehouse.referee import Referee as WarehouseReferee
from station.games import (
    describe_action,
    describe_event,
    game_records,
    labelled_outcomes,
    named_cells,
    present,
)
from station.games.words import actor
from station.live.hub import Hub
from station.live.station import Station
from station.store import EventStore, FixedClock, open_database

ROOT = Path(__file__).resolve().parents[3]
AT = re.compile(r"\brow (\d+), column (\d+)\b")
GROUP = re.compile(r"\bgroups? (\d+)\b")
PLAYERS = ["Ana", "Ben", "Cas"]


def cells_named(text: str) -> set[tuple[int, int]]:
    """The cells ``text`` names ("row R, column C"), as JSON indices (counted from 0)."""
    return {(int(row) - 1, int(col) - 1) for row, col in AT.findall(text)}


def groups_named(text: str) -> set[int]:
    """The groups ``text`` names ("group N"), as JSON indices (counted from 0)."""
    return {int(number) - 1 for number in GROUP.findall(text)}


def refusal(state: State, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    return refused.value.reason


def players_of(game: str) -> list[str]:
    return PLAYERS[:max(get_game(game).min_players, 2)]


# -- every game: the words and the picker count from 1 ----------------------------------------
def _holds_a_piece(cell: dict[str, Any] | None) -> bool:
    return cell is not None and not {"wall", "minus"} & set(cell["m"])


@pytest.mark.parametrize("game", [record.name for record in game_records()])
def test_a_moves_words_name_a_square_the_piece_lies_on(game: str) -> None:
    """Every "row R, column C" in a move's words is a square of the acting player's boards
    that holds a piece once the move is made (as the board and its last-move outline show)."""
    for seed in range(3):
        state = get_game(game).new_game(players_of(game), seed=seed)
        rng = random.Random(seed)
        for _ in range(5):
            if state.is_over():
                break
            actions = state.legal_actions()
            who = actor(state)
            for action in rng.sample(actions, min(25, len(actions))):
                words = describe_action(state, action, face_up=True)
                assert " col " not in f"{words} ", words
                named = cells_named(words)
                if not named:
                    continue
                after = state.clone()
                after.apply(action)
                boards = [board["rows"] for board in present(after)["boards"]
                          if board["title"].startswith(who)]
                for row, col in named:
                    assert any(row < len(rows) and col < len(rows[row])
                               and _holds_a_piece(rows[row][col]) for rows in boards), (
                        f"{words!r} names a square no piece lies on ({action})")
            state.apply(rng.choice(actions))


@pytest.mark.parametrize("game", [record.name for record in game_records()])
def test_the_picker_counts_from_1_what_the_json_counts_from_0(game: str) -> None:
    """Each reveal's label names its row and column, group or slot counted from 1; its
    action keeps the JSON's indices."""
    state = get_game(game).new_game(players_of(game), deal="table")
    rng = random.Random(5)
    for _ in range(8):
        if state.is_over() or not state.chance_outcomes():
            break
        outcomes = state.chance_outcomes()
        for labelled, outcome in zip(labelled_outcomes(state, outcomes), outcomes, strict=True):
            action, label = labelled["action"], labelled["label"]
            assert action == outcome.action  # the JSON as it is, 0-based
            assert " col " not in label, label
            if "row" in action:
                assert cells_named(label) == {(action["row"], action["col"])}, label
            if "group" in action:
                assert groups_named(label) == {action["group"]}, label
            if "slot" in action:
                assert f" {action['slot'] + 1}: " in label, label
        state.apply(rng.choice(outcomes).action)


# -- Moving Day: one group, one number ---------------------------------------------------------
def test_moving_day_the_picker_the_event_and_the_refusal_name_one_group_alike() -> None:
    state = get_game("moving-day").new_game(["Ana", "Ben"], deal="table")
    outcomes = labelled_outcomes(state, state.chance_outcomes())
    helper = next(entry for entry in outcomes if "helper" in entry["action"])
    box = next(entry for entry in outcomes if "box" in entry["action"])
    group = helper["action"]["group"]
    said = describe_event(state, "action", {"action": helper["action"]})
    assert said == f"Revealed {helper['label']}"
    state.apply(helper["action"])
    another = next(o.action for o in state.chance_outcomes() if "helper" in o.action)
    refused = refusal(state, dict(another, group=group))  # its helper card is known already
    assert groups_named(said) == groups_named(helper["label"]) == groups_named(refused) \
        == {group}
    state.apply(box["action"])
    elsewhere = next(g for g in range(len(state.data["groups"])) if g != box["action"]["group"])
    refused = refusal(state, dict(box["action"], group=elsewhere))  # "... is already in group N"
    assert groups_named(refused) == groups_named(box["label"]) == {box["action"]["group"]}


def test_moving_day_a_flag_names_the_space_as_its_move_does() -> None:
    state = get_game("moving-day").new_game(["Ana", "Ben"], seed=3)
    take = state.legal_actions()[0]
    placed = next(entry for entry in take["boxes"] if entry["vehicle"])
    state.apply(take)
    state.apply(state.legal_actions()[0])  # Ben's take: Ana's turn again
    again = state.legal_actions()[0]
    entry = next(entry for entry in again["boxes"] if entry["vehicle"])
    onto = {key: placed[key] for key in ("vehicle", "row", "col")}
    wrong = dict(again, boxes=[dict(entry, **onto) if e is entry else e for e in again["boxes"]])
    reason = refusal(state.clone(), wrong)  # "the car's space at row R, column C holds a box"
    text = describe_event(state, "flag", {"action": wrong, "reason": reason})
    assert text is not None and " — " in text
    move, why = text.split(" — ")
    assert (placed["row"], placed["col"]) in cells_named(move)
    assert cells_named(why) == {(placed["row"], placed["col"])}, text
    marked = named_cells(state, wrong)  # the table page's dashed outline
    assert {"player": "Ana", "vehicle": placed["vehicle"], "row": placed["row"],
            "col": placed["col"]} in marked


# -- Removal: the house square, and a tile's square ---------------------------------------------
def test_removal_a_reveal_refused_names_the_house_square_as_the_picker_does() -> None:
    state = get_game("removal").new_game(["Ana", "Ben"], deal="table")
    first = labelled_outcomes(state, state.chance_outcomes())[0]
    slot = first["action"]
    square = {(slot["row"], slot["col"])}
    assert cells_named(first["label"]) == square
    boxes = [entry["id"] for entry in state.setup["catalogue"]["boxes"]]
    wrong_kind = refusal(state.clone(), dict(slot, item=boxes[0]))  # a box on an item's square
    assert cells_named(wrong_kind) == square, wrong_kind
    tile = slot["item"]
    seen = {"kind": "truck", "found": True,
            "tiles": [{"tile": tile, "row": 5, "col": 0, "rotation": 0}]}
    with pytest.raises(IllegalAction) as waiting:  # "the deal is not read yet: reveal ..."
        RemovalReferee().translate(state, seen)
    assert cells_named(waiting.value.reason) == square, waiting.value.reason


def uncovered_corner(state: State, load: dict[str, Any]) -> bool:
    """Whether the load's tile leaves the corner of its bounding box (its JSON row, col) free."""
    shape = state.specs[load["item"]].shape  # type: ignore[attr-defined]
    return (0, 0) not in oriented_cells(shape, load["rotation"], load["flip"])


def test_removal_a_load_is_named_by_its_tag_square_as_the_camera_reads_it() -> None:
    """The words name the square of the tile's tag (what the camera reads, and a square the
    tile always covers), not the corner of its bounding box (which it may not cover)."""
    state = get_game("removal").new_game(["Ana", "Ben"], seed=1)
    loads = [action for action in state.legal_actions() if action["type"] == "load"]
    corners_uncovered = 0
    for load in loads:
        shape = state.specs[load["item"]].shape  # type: ignore[attr-defined]
        tag = tag_square(shape, load["row"], load["col"], load["rotation"], load["flip"])
        covered = {(load["row"] + r, load["col"] + c)
                   for r, c in oriented_cells(shape, load["rotation"], load["flip"])}
        corners_uncovered += uncovered_corner(state, load)
        assert tag in covered
        assert cells_named(describe_action(state, load)) == {tag}, load
        if load["helpers"]:
            continue
        reading = {"tile": load["item"], "row": tag[0], "col": tag[1],
                   "rotation": load["rotation"], "flipped": load["flip"]}
        assert RemovalReferee().translate(
            state, {"kind": "truck", "found": True, "tiles": [reading]})[0] == dict(
            load, helpers=[])
    assert corners_uncovered  # the case the corner would have named a square left free


def test_removal_a_flag_marks_the_square_its_words_name(tmp_path: Path) -> None:
    database = open_database(f"sqlite:///{tmp_path / 'station.sqlite3'}")
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Table 1", "t1")
    station.start_game("t1", "removal", ["Ana", "Ben"], seed=1, options=None, author="organiser")
    state = station.table("t1").current.state  # type: ignore[union-attr]
    load = next(action for action in state.legal_actions() if action["type"] == "load"
                and not uncovered_corner(state, action))
    load = next((action for action in state.legal_actions() if action["type"] == "load"
                 and uncovered_corner(state, action)), load)  # its corner left free: the case
    words = describe_action(state, load)
    station.observe("t1", {"kind": "declared", "action": load}, "declared", "organiser")
    again = actor(station.table("t1").current.state)  # type: ignore[union-attr]
    station.observe("t1", {"kind": "declared", "action": load}, "declared", "organiser")
    flag = station.snapshot("t1")["flags"][0]  # refused: the item is not in the house any more
    assert flag["action"] == load
    assert flag["cells"] == [{"player": again, "row": row, "col": col}
                             for row, col in cells_named(words)]
    database.close()


# -- Small Warehouse: the placements a refusal names are the move list's ----------------------
def _placement_words(state: State, action: dict[str, Any]) -> str:
    """A place action's words without who placed it or the refill: "card c03 from ..."."""
    words = describe_action(state, action, face_up=True)
    return words.split(" placed ", 1)[1].split(", then took ")[0]


def test_small_warehouse_a_refusal_names_placements_and_squares_as_the_move_list_does() -> None:
    from tests.rules.games.small_warehouse.test_referee_small_warehouse import (
        placed_copy,
        seen_by_camera,
    )
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    action = next(a for a in state.legal_actions() if a["source"] == "supply")
    after = placed_copy(state, action)
    changed = {(r, c) for r, line in enumerate(after.data["grids"][0])
               for c, symbol in enumerate(line) if symbol != state.data["grids"][0][r][c]}
    hidden = {"Ana": changed - {min(changed)}}
    with pytest.raises(IllegalAction) as asked:  # "... could show card c03 from ... or ...: ..."
        WarehouseReferee().translate(state, seen_by_camera(after, hidden))
    shown = asked.value.reason.split(" could show ", 1)[1].split(": the camera")[0]
    in_words = {_placement_words(state, a) for a in state.legal_actions()}
    for placement in shown.split(" or "):
        assert placement in in_words, placement
    grid = list(state.data["grids"][0])
    grid[0] = "E" + grid[0][1:]
    with pytest.raises(IllegalAction) as stray:
        WarehouseReferee().translate(state, {"kind": "warehouses", "warehouses": [
            {"player": "Ana", "found": True, "grid": grid}]})
    assert cells_named(stray.value.reason) == {(0, 0)}, stray.value.reason


# -- Pick 'n Packers: the shop grid ---------------------------------------------------------------
def test_pick_n_packers_a_refused_reveal_names_the_shop_square_as_the_picker_does() -> None:
    state = get_game("pick-n-packers").new_game(PLAYERS, deal="table")
    first = labelled_outcomes(state, state.chance_outcomes())[0]
    square = {(first["action"]["row"], first["action"]["col"])}
    assert cells_named(first["label"]) == square
    state.apply(first["action"])
    other = next(o.action for o in state.chance_outcomes() if o.action.get("zone") == "shop")
    taken = refusal(state.clone(), dict(other, row=first["action"]["row"],
                                        col=first["action"]["col"]))  # "... already holds ..."
    moved = refusal(state.clone(), dict(other, card=first["action"]["card"]))  # "already lies"
    assert cells_named(taken) == cells_named(moved) == square, (taken, moved)


# -- the sources: one wording ---------------------------------------------------------------------
def test_no_text_for_people_says_col_for_column() -> None:
    """"row R, column C" everywhere: no "col N" in the words the code builds for people."""
    found = []
    for folder in ("rules", "station"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in {".py", ".js", ".html"}:
                continue
            for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
                if re.search(r"""\bcol (\{|["']\s*\+)|, col \{|col \{int""", line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
