"""``packref score small-warehouse``: the contract example and every kind of bad input."""

from __future__ import annotations

import pytest

CONTRACT_INPUT = {"warehouses": [
    {"player": "Ana", "grid": ["AAB.", "#AB.", "CCCC"]},
    {"player": "Ben", "grid": ["DD", "DD"]},
]}

CONTRACT_OUTPUT = {"players": [
    {"player": "Ana", "total": 4, "empty_boxes": 1,
     "kinds": {"A": {"blocks": 1, "biggest": 3, "points": 0},
               "B": {"blocks": 1, "biggest": 2, "points": 0},
               "C": {"blocks": 1, "biggest": 4, "points": 4}}},
    {"player": "Ben", "total": 4, "empty_boxes": 0,
     "kinds": {"D": {"blocks": 1, "biggest": 4, "points": 4}}},
], "winners": ["Ben"]}


def test_contract_example(cli, write_json) -> None:
    result = cli("score", "small-warehouse", write_json(CONTRACT_INPUT))
    assert (result.status, result.stderr) == (0, "")
    assert result.json() == CONTRACT_OUTPUT
    assert list(result.json()["players"][0]) == ["player", "total", "empty_boxes", "kinds"]


def test_rulebook_cotton_example_through_the_cli(cli, write_json) -> None:
    document = {"warehouses": [
        {"player": "Ana", "grid": ["CCCC..", "CCC.#C", "#..C.C", "C.#..."]},
        {"player": "Ben", "grid": ["CCCC..", "CCC.#C", "#..C.C", "C.##.."]},
    ]}
    output = cli("score", "small-warehouse", write_json(document)).json()
    assert output["players"][0]["kinds"]["C"] == {"blocks": 4, "biggest": 7, "points": 28}
    assert [player["empty_boxes"] for player in output["players"]] == [3, 4]
    assert output["winners"] == ["Ana"]  # tied on 28: fewer empty boxes wins


def test_a_full_tie_is_shared_and_players_keep_the_input_order(cli, write_json) -> None:
    document = {"warehouses": [{"player": "Zed", "grid": ["EEEE"]},
                               {"player": "Abe", "grid": ["BBBB"]}]}
    output = cli("score", "small-warehouse", write_json(document)).json()
    assert output["winners"] == ["Zed", "Abe"]
    assert [player["player"] for player in output["players"]] == ["Zed", "Abe"]


def test_an_empty_warehouse_scores_nothing(cli, write_json) -> None:
    document = {"warehouses": [{"player": "Ana", "grid": ["..", ".."]}]}
    output = cli("score", "small-warehouse", write_json(document)).json()
    assert output == {"players": [{"player": "Ana", "total": 0, "empty_boxes": 0, "kinds": {}}],
                      "winners": ["Ana"]}


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({}, "$: missing field 'warehouses'"),
        ({"warehouses": {}}, "$.warehouses: must be a list"),
        ({"warehouses": []}, "$.warehouses: must have at least 1"),
        ({"warehouses": [{"grid": ["A"]}]}, "$.warehouses[0]: missing field 'player'"),
        ({"warehouses": [{"player": 3, "grid": ["A"]}]},
         "$.warehouses[0].player: must be a string"),
        ({"warehouses": [{"player": "Ana"}]}, "$.warehouses[0]: missing field 'grid'"),
        ({"warehouses": [{"player": "Ana", "grid": "AB"}]}, "$.warehouses[0].grid: must be a list"),
        ({"warehouses": [{"player": "Ana", "grid": []}]},
         "$.warehouses[0].grid: must have at least"),
        ({"warehouses": [{"player": "Ana", "grid": ["AB", 7]}]},
         "$.warehouses[0].grid[1]: must be a string"),
        ({"warehouses": [{"player": "Ana", "grid": ["AB", "a."]}]},
         "$.warehouses[0].grid[1]: column 1"),
        ({"warehouses": [{"player": "Ana", "grid": ["AB."]},
                         {"player": "Ben", "grid": ["AB", "A"]}]},
         "$.warehouses[1].grid[1]: has 1 cells, the first row 2"),
        ({"warehouses": [{"player": "Ana", "grid": [""]}]}, "$.warehouses[0].grid[0]: must not"),
        ({"warehouses": [{"player": "Ana", "grid": ["A"]}, {"player": "Ana", "grid": ["B"]}]},
         "$.warehouses[1].player: player 'Ana' is listed twice"),
    ],
)
def test_bad_input_names_its_place_and_exits_2(cli, write_json, document, path) -> None:
    cli("score", "small-warehouse", write_json(document)).assert_bad_input(path)


def test_invalid_json_exits_2(cli, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"warehouses": [', encoding="utf-8")
    result = cli("score", "small-warehouse", path)
    assert (result.status, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1 and "invalid JSON" in result.stderr
