"""``packref advise``: §8 rankings from a file, and advice on a stored game (``--state``)."""

from __future__ import annotations

import pytest

TRUCK = {
    "truck": ["......", "......", "--...."],
    "tiles": {
        "piano": {"shape": ["##", "##"], "heavy": True},
        "picture": {"shape": ["#"], "delicate": [2, -2]},
        "lamp": {"shape": ["#.", "##"], "antique": True, "symbol": "hat"},
    },
    "placements": [{"tile": "piano", "row": 1, "col": 2},
                   {"tile": "picture", "row": 0, "col": 5}],  # illegal: skipped, as in §4
}


def test_small_warehouse_ranking(cli, write_json) -> None:
    result = cli("advise", "small-warehouse",
                 write_json({"grid": ["AAB.", "#AB.", "CCCC"], "card": ["AA", "#."]}))
    assert result.status == 0, result.stderr
    placements = result.json()["placements"]
    assert placements[0] == {"row": 0, "col": 2, "rotation": 0, "score": 9, "gain": 5}
    assert all(set(entry) == {"row", "col", "rotation", "score", "gain"} for entry in placements)
    assert [e["score"] for e in placements] == sorted((e["score"] for e in placements),
                                                      reverse=True)


def test_removal_ranking(cli, write_json) -> None:
    result = cli("advise", "removal", write_json({**TRUCK, "tile": "lamp"}))
    assert result.status == 0, result.stderr
    placements = result.json()["placements"]
    assert placements and all(
        set(entry) == {"row", "col", "rotation", "flip", "damaged", "drive_total"}
        for entry in placements)
    # the piano (heavy, +1) leaves both "−1" squares free: the lamp covering both is best
    assert placements[0] == {"row": 1, "col": 0, "rotation": 0, "flip": False, "damaged": [],
                             "drive_total": 10 + 3 + 1}
    assert {entry["drive_total"] for entry in placements} == {14, 10 - 1 + 1, 10 - 2 + 1}


@pytest.mark.parametrize(("game", "document", "path"), [
    ("small-warehouse", {"grid": ["AA"], "card": ["A", 3]}, "$.card[1]:"),
    ("small-warehouse", {"grid": ["AA", "A"], "card": ["A"]}, "$.grid[1]:"),
    ("small-warehouse", {"grid": ["AA"], "card": ["..", ".."]}, "$.card:"),
    ("small-warehouse", {"grid": ["AA"]}, "$:"),
    ("small-warehouse", {"grid": ["Ax"], "card": ["A"]}, "$.grid[0]:"),
    ("removal", {**TRUCK, "tile": "sofa"}, "$.tile:"),
    ("removal", {**TRUCK, "tile": 3}, "$.tile:"),
    ("removal", TRUCK, "$:"),
    ("removal", {**TRUCK, "tile": "lamp", "truck": ["..", "x."]}, "$.truck[1]:"),
])
def test_bad_input_names_the_place(cli, write_json, game, document, path) -> None:
    cli("advise", game, write_json(document)).assert_bad_input(path)


def test_ranked_placements_only_for_two_games(cli, write_json) -> None:
    cli("advise", "moving-day", write_json({})).assert_bad_input("GAME:")


def test_either_file_or_state(cli, write_json) -> None:
    path = write_json({"grid": ["A"], "card": ["A"]})
    cli("advise", "small-warehouse").assert_bad_input()
    cli("advise", "small-warehouse", path, "--state", path).assert_bad_input()
