"""``packref score moving-day``: the contract example, the rulebook example and bad input."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.rules.games.moving_day.test_moving_day import RULEBOOK_EXAMPLE, box, helper, vehicle

CONTRACT_INPUT = json.loads("""
{"players": [
  {"player": "Ana", "snacks": 8, "vehicles": [
    {"name": "car", "layout": ["..", "..", ".."], "seats": 6,
     "boxes": [{"row": 2, "col": 0, "type": "lamp", "colour": "green",
                "fragile": false, "weight": 3, "points": 2}],
     "helpers": [{"count": 2, "clumsy": false, "strength": 3}]}
  ]}
]}
""")

CONTRACT_OUTPUT = json.loads("""
{"players": [
  {"player": "Ana", "total": 10,
   "points": {"weight": 2, "type": 0, "colour": 0, "snacks": 8},
   "damaged": []}
 ],
 "winners": ["Ana"]}
""")


def test_contract_example(cli, write_json) -> None:
    result = cli("score", "moving-day", write_json(CONTRACT_INPUT))
    assert (result.status, result.stderr) == (0, "")
    assert result.json() == CONTRACT_OUTPUT
    assert list(result.json()["players"][0]) == ["player", "total", "points", "damaged"]
    assert list(result.json()["players"][0]["points"]) == ["weight", "type", "colour", "snacks"]


def test_rulebook_example_through_the_cli(cli, write_json) -> None:
    output = cli("score", "moving-day", write_json(RULEBOOK_EXAMPLE)).json()
    player = output["players"][0]
    assert player["total"] == 31
    assert player["points"] == {"weight": 16, "type": 4, "colour": 3, "snacks": 8}
    assert player["damaged"] == [
        {"vehicle": "scooter", "row": 1, "col": 0, "why": "weight"},
        {"vehicle": "scooter", "row": 2, "col": 0, "why": "weight"},
        {"vehicle": "scooter", "row": 3, "col": 0, "why": "weight"},
        {"vehicle": "car", "row": 2, "col": 0, "why": "strength"},
        {"vehicle": "truck", "row": 0, "col": 1, "why": "clumsy"},
        {"vehicle": "truck", "row": 1, "col": 2, "why": "clumsy"},
    ]


def player(name: str, snacks: int, boxes: list[dict]) -> dict[str, Any]:
    return {"player": name, "snacks": snacks,
            "vehicles": [vehicle("car", ["..", ".."], boxes, [helper(1, 4)], seats=6)]}


def test_ties_go_to_more_snacks_then_are_shared(cli, write_json) -> None:
    document = {"players": [player("Zed", 2, [box(1, 0, 1, 3)]),
                            player("Abe", 4, [box(1, 0, 1, 1)]),
                            player("Cas", 4, [box(1, 1, 1, 1)])]}
    output = cli("score", "moving-day", write_json(document)).json()
    assert [p["total"] for p in output["players"]] == [5, 5, 5]
    assert output["winners"] == ["Abe", "Cas"]
    assert [p["player"] for p in output["players"]] == ["Zed", "Abe", "Cas"]


def test_the_clumsy_choice_through_the_cli(cli, write_json) -> None:
    boxes = [box(1, 0, 1, 1, fragile=True, type="lamp"), box(1, 1, 1, 1, type="lamp"),
             box(0, 0, 1, 2, fragile=True, type="vase", colour="x")]
    document = {"players": [{"player": "Ana", "snacks": 0, "vehicles": [
        vehicle("car", ["..", ".."], boxes, [helper(1, 4, clumsy=True)], seats=6)]}]}
    output = cli("score", "moving-day", write_json(document)).json()["players"][0]
    # damaging (1,0) would cost 1 + 2 type + 2 colour; damaging (0,0) costs its 2 points
    assert output["damaged"] == [{"vehicle": "car", "row": 0, "col": 0, "why": "clumsy"}]
    assert output["points"] == {"weight": 2, "type": 2, "colour": 2, "snacks": 0}


def changed(path: list[Any], value: Any) -> dict[str, Any]:
    """The contract input with the value at ``path`` replaced (or deleted when ``...``)."""
    document = copy.deepcopy(CONTRACT_INPUT)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


CAR = ["players", 0, "vehicles", 0]
BOX = [*CAR, "boxes", 0]
HELPER = [*CAR, "helpers", 0]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({}, "$: missing field 'players'"),
        ({"players": {}}, "$.players: must be a list"),
        ({"players": []}, "$.players: must have at least 1"),
        (changed(["players", 0, "player"], ...), "$.players[0]: missing field 'player'"),
        (changed(["players", 0, "player"], 3), "$.players[0].player: must be a string"),
        (changed(["players", 0, "snacks"], -1), "$.players[0].snacks: must be at least 0"),
        (changed(["players", 0, "snacks"], "8"), "$.players[0].snacks: must be a whole number"),
        (changed(["players", 0, "vehicles"], None), "$.players[0].vehicles: must be a list"),
        (changed([*CAR, "name"], ...), "$.players[0].vehicles[0]: missing field 'name'"),
        (changed([*CAR, "layout"], ["..", ".x", ".."]),
         "$.players[0].vehicles[0].layout[1]: column 2"),
        (changed([*CAR, "layout"], ["..", ".", ".."]), "$.players[0].vehicles[0].layout[1]: has"),
        (changed([*CAR, "layout"], []), "$.players[0].vehicles[0].layout: must have at least 1"),
        (changed([*CAR, "seats"], 1.5), "$.players[0].vehicles[0].seats: must be a whole number"),
        (changed([*CAR, "boxes"], "x"), "$.players[0].vehicles[0].boxes: must be a list"),
        (changed([*BOX, "row"], 3), "$.players[0].vehicles[0].boxes[0].row: must be 0..2"),
        (changed([*BOX, "col"], -1), "$.players[0].vehicles[0].boxes[0].col: must be 0..1"),
        (changed([*BOX, "weight"], 8), "$.players[0].vehicles[0].boxes[0].weight: must be 1..7"),
        (changed([*BOX, "weight"], 0), "$.players[0].vehicles[0].boxes[0].weight: must be 1..7"),
        (changed([*BOX, "points"], 4), "$.players[0].vehicles[0].boxes[0].points: must be 1..3"),
        (changed([*BOX, "fragile"], 0),
         "$.players[0].vehicles[0].boxes[0].fragile: must be true or false"),
        (changed([*BOX, "type"], None), "$.players[0].vehicles[0].boxes[0].type: must be a string"),
        (changed([*BOX, "colour"], ...),
         "$.players[0].vehicles[0].boxes[0]: missing field 'colour'"),
        (changed([*HELPER, "count"], 4), "$.players[0].vehicles[0].helpers[0].count: must be 1..3"),
        (changed([*HELPER, "strength"], 0),
         "$.players[0].vehicles[0].helpers[0].strength: must be 1..4"),
        (changed([*HELPER, "clumsy"], "no"),
         "$.players[0].vehicles[0].helpers[0].clumsy: must be true or false"),
        (changed([*CAR, "layout"], ["..", "..", "#."]),
         '$.players[0].vehicles[0].boxes[0]: row 3, column 1 ("row": 2, "col": 0) is not a '
         "box space"),
        (changed([*CAR, "boxes"], [box(2, 0), box(1, 1), box(2, 0)]),
         '$.players[0].vehicles[0].boxes[2]: row 3, column 1 ("row": 2, "col": 0) already '
         "holds $.players[0].vehicles[0].boxes[0]"),
        (changed([*CAR, "seats"], 1), "$.players[0].vehicles[0].helpers: 2 helpers seated"),
        (changed([*CAR, "helpers"], [helper(3), helper(3), helper(1)]),
         "$.players[0].vehicles[0].helpers: 7 helpers seated, but the car has 6 seats"),
        (changed(["players", 0, "vehicles"], [CONTRACT_INPUT["players"][0]["vehicles"][0]] * 2),
         "$.players[0].vehicles[1].name: this player has two vehicles called 'car'"),
        ({"players": [CONTRACT_INPUT["players"][0]] * 2},
         "$.players[1].player: player 'Ana' is listed twice"),
    ],
)
def test_bad_input_is_one_line_naming_the_place(cli, write_json, document, message) -> None:
    cli("score", "moving-day", write_json(document)).assert_bad_input(message)


def test_invalid_json_is_status_2(cli, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"players": [', encoding="utf-8")
    result = cli("score", "moving-day", path)
    assert (result.status, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"{path}: invalid JSON")
