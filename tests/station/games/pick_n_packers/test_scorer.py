"""``packref score pick-n-packers``: the contract example, completeness and bad input."""

from __future__ import annotations

import copy

import pytest

CONTRACT_INPUT = {
    "players": ["Ana", "Ben", "Cas", "Dee"],
    "rounds": [{"pilots": ["Ana", "Ben"], "reached": 6,
                "speculations": {"Cas": 4, "Dee": 6}}],
}

CONTRACT_OUTPUT = {
    "players": [{"player": "Ana", "total": 6}, {"player": "Ben", "total": 6},
                {"player": "Cas", "total": 4}, {"player": "Dee", "total": 7}],
    "rounds": [{"Ana": 6, "Ben": 6, "Cas": 4, "Dee": 7}],
    "complete": False,
    "winners": ["Dee"],
}


def test_contract_example(cli, write_json) -> None:
    result = cli("score", "pick-n-packers", write_json(CONTRACT_INPUT))
    assert (result.status, result.stderr) == (0, "")
    assert result.json() == CONTRACT_OUTPUT
    assert list(result.json()) == ["players", "rounds", "complete", "winners"]
    assert list(result.json()["rounds"][0]) == ["Ana", "Ben", "Cas", "Dee"]


def _full_game() -> dict:
    seats = ["Ana", "Ben", "Cas"]
    rounds = []
    for index, reached in enumerate([9, 2, 5]):
        pilots = [seats[index], seats[(index + 1) % 3]]
        speculator = seats[(index + 2) % 3]
        rounds.append({"pilots": pilots, "reached": reached, "speculations": {speculator: 5}})
    return {"players": seats, "rounds": rounds}


def test_a_full_game_is_complete_and_sums_the_rounds(cli, write_json) -> None:
    output = cli("score", "pick-n-packers", write_json(_full_game())).json()
    # Speculating 5: Cas below 9 scores 5; Ana above 2 scores 0; Ben exactly 5 scores 6.
    assert output["rounds"] == [{"Ana": 9, "Ben": 9, "Cas": 5},
                                {"Ana": 0, "Ben": 2, "Cas": 2},
                                {"Ana": 5, "Ben": 6, "Cas": 5}]
    assert [player["total"] for player in output["players"]] == [14, 17, 12]
    assert output["complete"] is True and output["winners"] == ["Ben"]


def test_piloting_three_times_is_not_complete(cli, write_json) -> None:
    document = _full_game()
    document["rounds"].append(copy.deepcopy(document["rounds"][0]))
    assert cli("score", "pick-n-packers", write_json(document)).json()["complete"] is False


def test_no_rounds_yet_is_a_shared_zero(cli, write_json) -> None:
    output = cli("score", "pick-n-packers",
                 write_json({"players": ["Ana", "Ben", "Cas"], "rounds": []})).json()
    assert output["winners"] == ["Ana", "Ben", "Cas"] and output["complete"] is False


def _with(change: dict) -> dict:
    document = copy.deepcopy(CONTRACT_INPUT)
    document["rounds"][0].update(change)
    return document


@pytest.mark.parametrize(
    ("document", "path"),
    [
        ({"rounds": []}, "$: missing field 'players'"),
        ({"players": ["Ana", "Ben", "Cas"]}, "$: missing field 'rounds'"),
        ({"players": "Ana", "rounds": []}, "$.players: must be a list"),
        ({"players": ["Ana", "Ben"], "rounds": []}, "$.players: must have at least 3"),
        ({"players": ["Ana", "Ben", "Ana"], "rounds": []}, "$.players[2]: player 'Ana'"),
        ({"players": ["Ana", "Ben", 3], "rounds": []}, "$.players[2]: must be a string"),
        ({"players": ["Ana", "Ben", "Cas"], "rounds": {}}, "$.rounds: must be a list"),
        (_with({"reached": 10}), "$.rounds[0].reached: must be 0..9"),
        (_with({"reached": -1}), "$.rounds[0].reached: must be 0..9"),
        (_with({"reached": "6"}), "$.rounds[0].reached: must be a whole number"),
        (_with({"pilots": ["Ana"]}), "$.rounds[0].pilots: must have at least 2"),
        (_with({"pilots": ["Ana", "Ana"]}), "$.rounds[0].pilots[1]: 'Ana' cannot be both"),
        (_with({"pilots": ["Ana", "Eve"]}), "$.rounds[0].pilots[1]: 'Eve' is not one of"),
        (_with({"speculations": {"Cas": 4}}), "$.rounds[0].speculations: missing the "
                                              "speculation of 'Dee'"),
        (_with({"speculations": {"Cas": 6, "Dee": 6}}),
         "$.rounds[0].speculations.Dee: card 6 is already held by 'Cas'"),
        (_with({"speculations": {"Cas": 4, "Dee": 10}}), "$.rounds[0].speculations.Dee: must be"),
        (_with({"speculations": {"Cas": 4, "Dee": 1.5}}),
         "$.rounds[0].speculations.Dee: must be a whole number"),
        (_with({"speculations": {"Cas": 4, "Dee": 6, "Ana": 1}}),
         "$.rounds[0].speculations.Ana: 'Ana' is a pilot"),
        (_with({"speculations": {"Cas": 4, "Dee": 6, "Eve": 1}}),
         "$.rounds[0].speculations.Eve: 'Eve' is not one of"),
        (_with({"speculations": [4, 6]}), "$.rounds[0].speculations: must be an object"),
    ],
)
def test_bad_input_names_its_place_and_exits_2(cli, write_json, document, path) -> None:
    cli("score", "pick-n-packers", write_json(document)).assert_bad_input(path)


def test_invalid_json_exits_2(cli, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{'players': []}", encoding="utf-8")
    result = cli("score", "pick-n-packers", path)
    assert (result.status, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1 and "invalid JSON" in result.stderr
