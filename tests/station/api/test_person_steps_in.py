"""When a person steps in, the referee keeps its word: a person's entries live until the
action they were for, undo takes back a whole step, flags close when the table is back,
a person's refused entry flags nothing, and a game dealt by hand has no seed.

Each test here reproduces a failure found by trying the station as a new user would.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules import get_game
from rules.games.removal.referee import tag_square
from tests.station.api.conftest import AUTH

BEN_TAKE = [{"box": "box-03", "vehicle": "scooter", "row": 2, "col": 0},
            {"box": "box-04", "vehicle": "scooter", "row": 3, "col": 0}]
ANA_TAKE = [{"box": "box-01", "vehicle": "scooter", "row": 2, "col": 0},
            {"box": "box-02", "vehicle": "scooter", "row": 3, "col": 0}]


def post(client: TestClient, path: str, body: dict[str, Any] | None = None,
         expect: int = 201) -> dict[str, Any]:
    answer = client.post(f"/api/tables/t1{path}", headers=AUTH, json=body or {})
    assert answer.status_code == expect, answer.text
    return answer.json()


def observe(client: TestClient, observation: dict[str, Any], source: str = "camera",
            expect: int = 201) -> dict[str, Any]:
    return post(client, "/observations", {"observation": observation, "source": source},
                expect)


def snapshot(client: TestClient) -> dict[str, Any]:
    return client.get("/api/tables/t1").json()


def start(client: TestClient, game: str, deal: str = "table", seed: int | None = None) -> None:
    body: dict[str, Any] = {"game": game, "players": ["Ana", "Ben"], "deal": deal}
    if seed is not None:
        body["seed"] = seed
    answer = client.post("/api/tables", headers=AUTH,
                         json={"name": "Table 1", "id": "t1", "game": body})
    assert answer.status_code == 201, answer.text


def vehicles(ana: list[dict[str, Any]], ben: list[dict[str, Any]]) -> dict[str, Any]:
    """A Moving Day camera reading: each player's scooter with the boxes at their places."""
    def seat(player: str, boxes: list[dict[str, Any]]) -> dict[str, Any]:
        seen = [{"box": b["box"], "row": b["row"], "col": b["col"], "rotation": 0}
                for b in boxes if b["vehicle"] == "scooter"]
        return {"player": player,
                "vehicles": [{"vehicle": "scooter", "found": True, "boxes": seen}]}
    return {"kind": "vehicles", "players": [seat("Ana", ana), seat("Ben", ben)]}


def applied(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["action"] for e in events["events"] if e["kind"] in ("action", "correction")]


def ana_flagged_then_corrected(client: TestClient) -> None:
    """Ana's person entries, her boxes laid where the rules forbid (flagged), and the
    referee's correction with her real take."""
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01",
                     "helper_vehicle": "truck"}, "person")
    floating = [dict(ANA_TAKE[0], row=0), ANA_TAKE[1]]  # a box high above a free space
    flags = [e for e in observe(client, vehicles(floating, []))["events"] if e["kind"] == "flag"]
    assert flags
    post(client, "/corrections", {"flag": flags[0]["seq"], "action": {
        "type": "take", "group": 0, "boxes": ANA_TAKE, "helper": "helper-01",
        "helper_vehicle": "truck"}})


def test_moving_day_an_entry_is_used_by_the_correction_and_not_by_the_next_turn(
        client: TestClient) -> None:
    start(client, "moving-day")
    ana_flagged_then_corrected(client)
    assert snapshot(client)["entries"] == []  # the correction used Ana's entries
    observe(client, {"kind": "person", "group": 1, "helper": "helper-02"}, "person")
    answer = observe(client, vehicles(ANA_TAKE, BEN_TAKE))
    assert all(action.get("helper_vehicle") != "truck" for action in applied(answer)
               if action["type"] == "take")
    # Ben's helper could go to several vehicles: the station asks, his entry waits
    assert [e["entry"] for e in snapshot(client)["entries"]] == [
        {"group": 1, "helper": "helper-02"}]


def test_a_flag_that_asks_offers_its_readings_and_applies_the_one_picked(
        client: TestClient) -> None:
    start(client, "moving-day")
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01"}, "person")
    answer = observe(client, vehicles(ANA_TAKE, []))  # the helper card could go anywhere
    (flag,) = snapshot(client)["flags"]
    assert flag["seq"] == answer["events"][-1]["seq"] and len(flag["readings"]) > 1
    texts = [reading["text"] for reading in flag["readings"]]
    pick = next(i for i, text in enumerate(texts) if "car" in text)
    post(client, f"/flags/{flag['seq']}/choose", {"reading": pick})
    after = snapshot(client)
    assert after["flags"] == [] and after["entries"] == []
    assert after["game"]["last_move"]["action"]["helper_vehicle"] == "car"
    post(client, "/undo")  # one step: the take and the reveals it made
    assert snapshot(client)["game"]["actions"] == 0


def test_moving_day_a_helper_revealed_at_layout_is_not_overridden_by_the_last_turn(
        client: TestClient) -> None:
    start(client, "moving-day")
    post(client, "/reveals", {"action": {"type": "reveal", "group": 1, "helper": "helper-02"}})
    ana_flagged_then_corrected(client)
    observe(client, {"kind": "person", "group": 1, "helper_vehicle": "car"}, "person")
    answer = observe(client, vehicles(ANA_TAKE, BEN_TAKE))
    assert [e["kind"] for e in answer["events"]][-1] == "action", answer
    take = applied(answer)[-1]
    assert take["group"] == 1 and take["helper_vehicle"] == "car"
    assert snapshot(client)["flags"] == []


def test_moving_day_an_accepted_refusal_drops_the_entries_made_for_it(
        client: TestClient) -> None:
    start(client, "moving-day")
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01",
                     "helper_vehicle": "truck"}, "person")
    floating = [dict(ANA_TAKE[0], row=0), ANA_TAKE[1]]
    flag = next(e for e in observe(client, vehicles(floating, []))["events"]
                if e["kind"] == "flag")
    assert len(snapshot(client)["entries"]) == 1
    post(client, f"/flags/{flag['seq']}/accept")
    assert snapshot(client)["entries"] == []


def test_a_waiting_entry_is_shown_and_can_be_withdrawn(client: TestClient) -> None:
    start(client, "moving-day")
    entry = observe(client, {"kind": "person", "helper_vehicle": "truck"}, "person")
    seq = entry["events"][0]["seq"]
    waiting = snapshot(client)["entries"]
    assert [(e["seq"], e["entry"]) for e in waiting] == [(seq, {"helper_vehicle": "truck"})]
    assert "truck" in waiting[0]["text"]
    page = client.get("/tables/t1").text
    assert 'id="entries"' in page and waiting[0]["text"] in page
    assert "data-withdraw" in client.get("/static/live.js").text
    post(client, f"/entries/{seq}/withdraw")
    assert snapshot(client)["entries"] == []
    post(client, f"/entries/{seq}/withdraw", expect=409)


def removal_reading(state: Any, load: dict[str, Any]) -> dict[str, Any]:
    row, col = tag_square(state.specs[load["item"]].shape, load["row"], load["col"],
                          load["rotation"], load["flip"])
    return {"kind": "truck", "found": True, "tiles": [
        {"tile": load["item"], "row": row, "col": col, "rotation": load["rotation"],
         "flipped": load["flip"]}]}


def test_removal_a_helper_entry_is_used_by_a_declared_store(client: TestClient) -> None:
    start(client, "removal", deal="seed", seed=1)
    state = get_game("removal").new_game(["Ana", "Ben"], seed=1)
    store = next(a for a in state.legal_actions()
                 if a["type"] == "store" and a["helpers"] == [2])
    observe(client, {"kind": "person", "helpers": [2]}, "person")
    observe(client, {"kind": "declared", "action": store}, "button")
    state.apply(store)
    assert snapshot(client)["entries"] == []
    load = next(a for a in state.legal_actions() if a["type"] == "load")
    answer = observe(client, removal_reading(state, load))
    assert applied(answer) == [load]


def test_undo_takes_back_a_whole_step_with_its_reveals(client: TestClient) -> None:
    start(client, "moving-day")
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01",
                     "helper_vehicle": "scooter"}, "person")
    before = snapshot(client)["game"]["state"]
    answer = observe(client, vehicles(ANA_TAKE, []))
    assert [a["type"] for a in applied(answer)] == ["reveal", "reveal", "reveal", "take"]
    post(client, "/undo")
    assert snapshot(client)["game"]["state"] == before
    # the step was wrong: it was group 1 (the same boxes); one correction does it
    post(client, "/corrections", {"action": {
        "type": "take", "group": 1, "boxes": ANA_TAKE, "helper": "helper-01",
        "helper_vehicle": "scooter"}})


def test_a_correction_replaces_the_last_step_in_one_go(client: TestClient) -> None:
    start(client, "moving-day")
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01",
                     "helper_vehicle": "scooter"}, "person")
    observe(client, vehicles(ANA_TAKE, []))
    answer = post(client, "/corrections", {"replace": True, "action": {
        "type": "take", "group": 1, "boxes": ANA_TAKE, "helper": "helper-01",
        "helper_vehicle": "car"}})
    assert [e["kind"] for e in answer["events"]] == ["undo", "correction"]
    game = snapshot(client)["game"]
    assert game["actions"] == 1 and game["state"]["groups"][0]["boxes"] == ["?", "?"]


def test_a_tile_nudged_and_put_back_closes_its_flag(client: TestClient) -> None:
    start(client, "removal", deal="seed", seed=1)
    state = get_game("removal").new_game(["Ana", "Ben"], seed=1)
    load = next(a for a in state.legal_actions() if a["type"] == "load" and a["row"] < 4)
    placed = removal_reading(state, load)
    observe(client, placed)
    state.apply(load)
    nudged = {**placed, "player": "Ana",
              "tiles": [dict(placed["tiles"][0], row=placed["tiles"][0]["row"] + 1)]}
    assert any(e["kind"] == "flag" for e in observe(client, nudged)["events"])
    assert snapshot(client)["flags"]
    observe(client, {**placed, "player": "Ana"})
    assert snapshot(client)["flags"] == []


def test_a_refused_reveal_answers_the_caller_and_flags_nothing(client: TestClient) -> None:
    start(client, "moving-day")
    seq = snapshot(client)["seq"]
    answer = client.post("/api/tables/t1/reveals", headers=AUTH, json={
        "action": {"type": "reveal", "group": 0, "box": "box-99"}})
    assert answer.status_code == 422 and "box-99" in answer.json()["detail"]
    after = snapshot(client)
    assert after["flags"] == [] and after["seq"] == seq


def test_a_refused_declared_action_answers_the_caller_and_flags_nothing(
        client: TestClient) -> None:
    start(client, "removal", deal="seed", seed=1)
    seq = snapshot(client)["seq"]
    answer = client.post("/api/tables/t1/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "drive"}}, "source": "button"})
    assert answer.status_code == 422, answer.text
    after = snapshot(client)
    assert after["flags"] == [] and after["seq"] == seq


def test_a_game_dealt_by_hand_takes_no_seed(client: TestClient) -> None:
    answer = client.post("/api/tables", headers=AUTH, json={
        "name": "Table 1", "id": "t1",
        "game": {"game": "moving-day", "players": ["Ana", "Ben"], "deal": "table", "seed": 5}})
    assert answer.status_code == 422
    assert "$.game.seed" in answer.json()["detail"]
    assert client.get("/api/tables/t1").status_code == 404
    start(client, "moving-day")
    answer = client.post("/api/tables/t1/games", headers=AUTH, json={
        "game": "moving-day", "players": ["Ana", "Ben"], "deal": "table", "seed": 5})
    assert answer.status_code == 422 and "$.seed" in answer.json()["detail"]
    events = client.get("/api/tables/t1/events", headers=AUTH).json()
    assert all("seed" not in e for e in events if e["kind"] == "game")


def test_a_knocked_box_put_back_closes_its_flag(client: TestClient) -> None:
    start(client, "moving-day")
    observe(client, {"kind": "person", "group": 0, "helper": "helper-01",
                     "helper_vehicle": "scooter"}, "person")
    observe(client, vehicles(ANA_TAKE, []))
    knocked = [ANA_TAKE[0], dict(ANA_TAKE[1], col=1)]
    assert any(e["kind"] == "flag" for e in observe(client, vehicles(knocked, []))["events"])
    assert snapshot(client)["flags"]
    closed = observe(client, vehicles(ANA_TAKE, []))["events"]
    assert [e["kind"] for e in closed] == ["observation", "close"]
    assert snapshot(client)["flags"] == []
