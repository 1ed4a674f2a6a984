"""``packref removal truck``, ``packref removal placements`` and ``packref score removal``."""

from __future__ import annotations

import copy
from typing import Any

import pytest

CONTRACT_TRUCK: dict[str, Any] = {
    "truck": ["......", "......", "--...."],
    "tiles": {
        "piano": {"shape": ["##", "##"], "heavy": True},
        "picture": {"shape": ["#"], "delicate": [2, -2]},
        "vase": {"shape": ["#", "#"], "delicate": [1, -1], "upright": True, "symbol": "hat"},
        "lamp": {"shape": ["#.", "##"], "antique": True, "symbol": "hat"},
        "box3": {"shape": ["##"], "box": True, "symbol": "doll"},
    },
    "placements": [
        {"tile": "piano", "row": 1, "col": 0, "rotation": 0, "flip": False},
        {"tile": "picture", "row": 1, "col": 3},
        {"tile": "lamp", "row": 1, "col": 2, "rotation": 90, "flip": True, "helpers": [1]},
    ],
    "drive": True, "final": False,
}

CONTRACT_SCORE: dict[str, Any] = {
    "keepsakes": ["yarn", "hat", "paw"],
    "players": [
        {"player": "Anna", "track": 61, "storage": None, "unused_helpers": [1, 3],
         "transported": [{"antique": True}, {"box": 2, "symbol": "yarn"},
                         {"symbol": "hat"}, {"antique": True, "symbol": "paw"}]},
    ],
}


def _run(cli, write_json, *command: str, document: Any):
    return cli(*command, write_json(document))


def _truck(cli, write_json, document: Any) -> dict:
    result = _run(cli, write_json, "removal", "truck", document=document)
    assert result.status == 0, result.stderr
    return result.json()


# -- packref removal truck ------------------------------------------------------------------
def test_the_contract_example(cli, write_json) -> None:
    assert _truck(cli, write_json, CONTRACT_TRUCK) == {
        "placements": [
            {"tile": "piano", "ok": True, "damaged": [], "extra_action": False},
            {"tile": "picture", "ok": False, "reason": "no square rests on the floor or an item"},
            {"tile": "lamp", "ok": True, "damaged": [], "extra_action": False},
        ],
        "visible_minus": 0,
        "drive": {"base": 10, "minus": 3, "heavy": 1, "delicate": 0, "total": 14},
    }


@pytest.mark.parametrize(("below", "damaged"), [
    (["crate", "picture", "chest"], False),  # 1 of 3 contact squares on the picture
    (["crate", "picture", None], False),  # 1 of 2
    (["picture", "picture2", "chest"], True),  # 2 of 3 (a two-square picture)
    (["picture", None, None], True),  # the only contact square
])
def test_the_golf_bag_examples(cli, write_json, below: list, damaged: bool) -> None:
    tiles = {"golf bag": {"shape": ["###"]}, "crate": {"shape": ["#"]},
             "chest": {"shape": ["#"]}, "picture": {"shape": ["#"], "delicate": [2, -2]}}
    placements = []
    if below[:2] == ["picture", "picture2"]:
        tiles["picture"]["shape"] = ["##"]
        below = ["picture", None, below[2]]
    for col, name in enumerate(below):
        if name:
            placements.append({"tile": name, "row": 1, "col": col})
    placements.append({"tile": "golf bag", "row": 0, "col": 0})
    output = _truck(cli, write_json, {"truck": ["...", "..."], "tiles": tiles,
                                      "placements": placements, "drive": True})
    assert output["placements"][-1]["damaged"] == (["picture"] if damaged else [])
    assert output["drive"]["delicate"] == (-2 if damaged else 2)


def test_carls_drive(cli, write_json) -> None:
    document = {
        "truck": ["-....-", "......", "......"],
        "tiles": {"piano": {"shape": ["##", "##"], "heavy": True},
                  "safe": {"shape": ["##", "##"], "heavy": True},
                  "hamster cage": {"shape": ["##"], "delicate": [2, -2], "upright": True}},
        "placements": [{"tile": "piano", "row": 1, "col": 0}, {"tile": "safe", "row": 1, "col": 2},
                       {"tile": "hamster cage", "row": 2, "col": 4}],
        "drive": True,
    }
    output = _truck(cli, write_json, document)
    assert output["visible_minus"] == 2
    assert output["drive"] == {"base": 10, "minus": -2, "heavy": 2, "delicate": 2, "total": 12}


def test_the_final_truck_with_twelve_visible_minus_squares(cli, write_json) -> None:
    document = {
        "truck": ["------", "------", "......", "......"],
        "tiles": {"safe": {"shape": ["##", "##"], "heavy": True},
                  "aquarium": {"shape": ["###"], "delicate": [2, -2]}},
        "placements": [{"tile": "safe", "row": 2, "col": 0},
                       {"tile": "aquarium", "row": 3, "col": 2}],
        "drive": True, "final": True,
    }
    output = _truck(cli, write_json, document)
    assert output["drive"] == {"base": 0, "minus": 0, "heavy": 1, "delicate": 2, "total": 3}


def test_symbols_and_the_extra_action(cli, write_json) -> None:
    symbols = ["hat", "doll", "hat", "doll", "doll"]
    document = {
        "truck": ["....."],
        "tiles": {f"t{index}": {"shape": ["#"], "symbol": symbol}
                  for index, symbol in enumerate(symbols)},
        "placements": [{"tile": f"t{index}", "row": 0, "col": index} for index in range(5)],
    }
    output = _truck(cli, write_json, document)
    assert [entry["extra_action"] for entry in output["placements"]] == [
        False, False, True, False, False]
    assert "drive" not in output


def test_helpers_are_played_once_and_illegal_placements_change_nothing(cli, write_json) -> None:
    document = {
        "truck": ["...", "..."],
        "tiles": {"a": {"shape": ["#"]}, "b": {"shape": ["#"]}, "c": {"shape": ["#"]}},
        "placements": [{"tile": "a", "row": 1, "col": 0, "helpers": [3]},
                       {"tile": "b", "row": 1, "col": 0, "helpers": [3]},
                       {"tile": "c", "row": 1, "col": 0}],
    }
    results = _truck(cli, write_json, document)["placements"]
    assert results[1] == {"tile": "b", "ok": False, "reason": "Helper 3 has already been played"}
    assert results[2]["ok"] is False and "overlap a" in results[2]["reason"]


@pytest.mark.parametrize(("change", "path"), [
    (lambda doc: doc.pop("truck"), "$: missing field 'truck'"),
    (lambda doc: doc.update(truck=["..x"]), "$.truck[0]: column 3"),
    (lambda doc: doc.update(truck=["...", ".."]), "$.truck[1]: has 2 cells"),
    (lambda doc: doc["tiles"]["piano"].update(shape=["..."]), "$.tiles.piano.shape:"),
    (lambda doc: doc["tiles"]["picture"].update(delicate=[2]), "$.tiles.picture.delicate:"),
    (lambda doc: doc["tiles"]["piano"].update(heavy="yes"), "$.tiles.piano.heavy:"),
    (lambda doc: doc["placements"][0].update(tile="sofa"), "$.placements[0].tile:"),
    (lambda doc: doc["placements"][0].update(rotation=45), "$.placements[0].rotation:"),
    (lambda doc: doc["placements"][1].pop("row"), "$.placements[1]: missing field 'row'"),
    (lambda doc: doc["placements"][2].update(helpers=[1, 1]), "$.placements[2].helpers[1]:"),
    (lambda doc: doc["placements"][2].update(helpers=[4]), "$.placements[2].helpers[0]:"),
    (lambda doc: doc.update(drive="yes"), "$.drive:"),
])
def test_bad_truck_input_is_one_line_with_its_path(cli, write_json, change, path) -> None:
    document = copy.deepcopy(CONTRACT_TRUCK)
    change(document)
    _run(cli, write_json, "removal", "truck", document=document).assert_bad_input(path)


def test_invalid_json_is_status_2(cli, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    result = cli("removal", "truck", path)
    assert result.status == 2 and result.stdout == "" and "invalid JSON" in result.stderr


# -- packref removal placements -----------------------------------------------------------------
def test_placements_lists_each_footprint_once_with_damage(cli, write_json) -> None:
    document = {"truck": ["....", "...."],
                "tiles": {"picture": {"shape": ["#"], "delicate": [2, -2]},
                          "crate": {"shape": ["##"]}},
                "placements": [{"tile": "picture", "row": 1, "col": 0}],
                "tile": "crate"}
    result = _run(cli, write_json, "removal", "placements", document=document)
    assert result.status == 0, result.stderr
    output = result.json()
    assert output["tile"] == "crate" and output["count"] == len(output["placements"])
    found = {(p["row"], p["col"], p["rotation"]): p["damaged"] for p in output["placements"]}
    assert found == {(0, 0, 0): ["picture"], (1, 1, 0): [], (1, 2, 0): [],
                     (0, 1, 90): [], (0, 2, 90): [], (0, 3, 90): []}  # upright on the floor


def test_placements_needs_a_known_tile(cli, write_json) -> None:
    document = {"truck": ["."], "tiles": {"a": {"shape": ["#"]}}, "tile": "b"}
    result = _run(cli, write_json, "removal", "placements", document=document)
    assert result.status == 2 and result.stderr.startswith("$.tile:")


# -- packref score removal ------------------------------------------------------------------------
def _score(cli, write_json, document: Any) -> dict:
    result = _run(cli, write_json, "score", "removal", document=document)
    assert result.status == 0, result.stderr
    return result.json()


def test_the_score_contract_example(cli, write_json) -> None:
    assert _score(cli, write_json, CONTRACT_SCORE) == {
        "players": [{"player": "Anna", "total": 84,
                     "points": {"track": 61, "boxes": 2, "antiques": 5, "storage": 0,
                                "helpers": 4, "keepsakes": 12}}],
        "winners": ["Anna"],
    }


@pytest.mark.parametrize(("antiques", "points"), [
    (0, 0), (1, 3), (2, 5), (3, 8), (4, 10), (5, 13), (6, 15), (7, 17), (8, 20), (9, 22),
    (11, 26),
])
def test_the_antiques_table(cli, write_json, antiques: int, points: int) -> None:
    document = {"players": [{"player": "A", "track": 0, "storage": None, "unused_helpers": [],
                             "transported": [{"antique": True}] * antiques}]}
    assert _score(cli, write_json, document)["players"][0]["points"]["antiques"] == points


def _hand(name: str, track: int = 0, symbols: tuple[str, ...] = (), **extra: Any) -> dict:
    return {"player": name, "track": track, "storage": None, "unused_helpers": [],
            "transported": [{"symbol": symbol} for symbol in symbols], **extra}


def test_the_keepsake_example(cli, write_json) -> None:
    document = {"keepsakes": ["yarn"],
                "players": [_hand("Anna", symbols=("yarn", "yarn")),  # basket, lava lamp
                            _hand("Carl", symbols=("yarn",))]}  # globe
    players = _score(cli, write_json, document)["players"]
    assert [player["points"]["keepsakes"] for player in players] == [4, 0]


def test_tied_keepsakes_give_2_each_and_nobody_scores_an_absent_symbol(cli, write_json) -> None:
    document = {"keepsakes": ["yarn", "paw"],
                "players": [_hand("Anna", symbols=("yarn",)), _hand("Carl", symbols=("yarn",)),
                            _hand("Dora")]}
    players = _score(cli, write_json, document)["players"]
    assert [player["points"]["keepsakes"] for player in players] == [2, 2, 0]


def test_storage_costs_2_and_ties_go_to_fewer_antiques(cli, write_json) -> None:
    document = {"players": [
        _hand("Anna", track=12, storage={"symbol": "hat"}),
        {**_hand("Carl", track=7), "transported": [{"antique": True}]},
        _hand("Dora", track=10),
    ]}
    output = _score(cli, write_json, document)
    assert [player["total"] for player in output["players"]] == [10, 10, 10]
    assert output["players"][0]["points"]["storage"] == -2
    assert output["winners"] == ["Anna", "Dora"]


@pytest.mark.parametrize(("change", "path"), [
    (lambda doc: doc.pop("players"), "$: missing field 'players'"),
    (lambda doc: doc["players"][0].update(track="x"), "$.players[0].track:"),
    (lambda doc: doc["players"][0]["transported"][1].update(box=3),
     "$.players[0].transported[1].box: must be 0..2"),
    (lambda doc: doc["players"][0].update(unused_helpers=[3, 3]),
     "$.players[0].unused_helpers[1]:"),
    (lambda doc: doc.update(keepsakes=["hat", "hat"]), "$.keepsakes[1]:"),
    (lambda doc: doc["players"].append(copy.deepcopy(doc["players"][0])),
     "$.players[1].player:"),
    (lambda doc: doc["players"][0]["transported"][0].update(antique=1),
     "$.players[0].transported[0].antique:"),
])
def test_bad_score_input_is_one_line_with_its_path(cli, write_json, change, path) -> None:
    document = copy.deepcopy(CONTRACT_SCORE)
    change(document)
    _run(cli, write_json, "score", "removal", document=document).assert_bad_input(path)
