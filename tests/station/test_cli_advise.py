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


# -- --state --------------------------------------------------------------------------------
def stored_game(name: str, steps: int = 3) -> dict:
    import random

    from rules import get_game
    from rules.playout import random_step

    game = get_game(name)
    state = game.new_game([f"P{index}" for index in range(game.min_players)], seed=11)
    rng = random.Random(11)
    for _ in range(steps):
        state.apply(random_step(state, rng))
    return state.to_json()


def _game_names() -> list[str]:
    from rules import game_names

    return game_names()


@pytest.mark.parametrize("name", _game_names())
def test_state_advice_for_every_game(cli, write_json, name) -> None:
    document = stored_game(name)
    result = cli("advise", name, "--state", write_json(document), "--seconds", "0.3")
    assert result.status == 0, result.stderr
    answer = result.json()
    assert answer["game"] == name and answer["player"] in document["players"]
    if answer["playouts"]:  # a loaded machine may leave no time for one in 0.3 s
        assert list(answer["win_chances"]) == document["players"]
    else:
        assert answer["win_chances"] is None
    assert 1 <= len(answer["actions"]) <= 3
    for entry in answer["actions"]:
        assert set(entry) == {"action", "playouts", "expected_score", "win_chances"}


def test_state_advice_names_the_bad_place(cli, write_json) -> None:
    document = stored_game("small-warehouse")
    bad_action = {**document, "log": [dict(document["log"][0], row=99), *document["log"][1:]]}
    cli("advise", "small-warehouse", "--state", write_json(bad_action)).assert_bad_input(
        "$.log[0]:")
    cli("advise", "removal", "--state", write_json(document)).assert_bad_input("$.game:")
    moved = {**document, "state": {**document["state"], "to_act": 1 - document["state"]["to_act"]}}
    cli("advise", "small-warehouse", "--state", write_json(moved)).assert_bad_input("$.state:")
    cli("advise", "small-warehouse", "--state", write_json({**document, "setup": {}})
        ).assert_bad_input("$.setup:")
    cli("advise", "small-warehouse", "--state", write_json(document), "--seconds", "0"
        ).assert_bad_input("--seconds:")
    cli("advise", "small-warehouse", "--state", write_json([])).assert_bad_input("$:")


def test_state_advice_on_a_finished_game_is_refused(cli, write_json) -> None:
    import random

    from rules import get_game
    from rules.playout import play_randomly

    state = play_randomly(get_game("small-warehouse").new_game(["A", "B"], seed=2),
                          random.Random(2))
    cli("advise", "small-warehouse", "--state", write_json(state.to_json())
        ).assert_bad_input("$.log:")
