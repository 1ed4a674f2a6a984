"""The set-up routes: signing in, the devices seen, a table's camera and drone bound while the
station runs (a camera replay and a drone capture play into their tables), a table removed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from station.api import Services, create_app
from station.demo import camera_fixtures as fixtures
from station.live.plan import StationPlan, TablePlan
from tests.conftest import REPO
from tests.station.api.conftest import AUTH

SCRIPT = (REPO / "station" / "games" / "small_warehouse" / "recordings"
          / "small-warehouse.camera.json")
CAPTURE = REPO / "fixtures" / "drone" / "sim-0003.bin"


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The Small Warehouse camera script and its frames (a replay folder), rendered once."""
    script = fixtures.read_script(SCRIPT)
    folder = tmp_path_factory.mktemp("camera") / "small-warehouse"
    assert sum(1 for _ in fixtures.Renderer(script, folder)) > 0
    return script, folder


def wait_for(check: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_the_session_route_tells_the_organiser_from_anyone(client: TestClient) -> None:
    assert client.get("/api/session", headers=AUTH).json() == {"organiser": True}
    refused = client.get("/api/session")
    assert refused.status_code == 401
    assert refused.json()["detail"] == (
        "writes need the organiser's token: send 'Authorization: Bearer TOKEN' "
        "(in a browser: sign in at /sign-in)")
    assert client.get("/api/session", headers={"Authorization": "Bearer guess"}).status_code == 401


def test_devices_list_the_replays_and_captures_of_the_data_folder(
        client: TestClient, services: Services) -> None:
    replays = services.settings.data_dir / "replays"
    (replays / "warm-up").mkdir(parents=True)
    (replays / "drone.bin").write_bytes(CAPTURE.read_bytes())
    assert client.get("/api/devices").status_code == 401
    seen = client.get("/api/devices", headers=AUTH).json()
    assert {"source": str(replays / "warm-up"), "kind": "replay", "name": "replay warm-up",
            "path": str(replays / "warm-up"), "table": None} in seen["cameras"]
    assert {"port": f"replay://{replays / 'drone.bin'}", "kind": "replay",
            "name": "drone capture drone.bin", "table": None} in seen["serial_ports"]
    for camera in seen["cameras"]:
        assert camera["kind"] == "replay" or camera["source"].isdigit()


def test_a_camera_replay_bound_through_the_api_reads_its_table_to_the_end(
        client: TestClient, replay: tuple[dict[str, Any], Path]) -> None:
    script, folder = replay
    answer = client.post("/api/tables", headers=AUTH, json={"name": "Cam", "id": "cam", "game": {
        "game": script["game"], "players": script["players"], "seed": script["seed"]}})
    assert answer.status_code == 201, answer.text
    assert client.put("/api/tables/cam/camera", json={"source": str(folder)}).status_code == 401
    bound = client.put("/api/tables/cam/camera", headers=AUTH, json={"source": str(folder)})
    assert bound.status_code == 200, bound.text
    assert bound.json()["camera"]["source"] == str(folder)
    assert bound.json()["camera"]["by"] == "dashboard" and bound.json()["drone"] is None

    def scores() -> dict[str, int]:
        game = client.get("/api/tables/cam").json()["game"]
        return {s["player"]: s["total"] for s in game["scores"]}

    wait_for(lambda: client.get("/api/tables/cam").json()["game"]["over"])
    assert scores() == script["final_scores"]
    events = client.get("/api/tables/cam/events", headers=AUTH).json()
    assert any(event["author"] == "camera" for event in events)  # what the camera saw
    seen = client.get("/api/tables/cam/sources").json()["camera"]
    assert seen == {"source": str(folder), "by": "dashboard", "running": False, "error": None}


def test_a_drone_capture_bound_through_the_api_plays_its_game(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Drone", "id": "drone", "game": {
        "game": "pick-n-packers", "players": ["Ana", "Ben", "Cas"], "seed": 1}})
    client.post("/api/tables/drone/observations", headers=AUTH, json={
        "observation": {"kind": "declared", "action": {"type": "speculate", "card": 1}},
        "source": "declared"}).raise_for_status()
    bound = client.put("/api/tables/drone/drone", headers=AUTH,
                       json={"port": f"replay://{CAPTURE}"})
    assert bound.status_code == 200, bound.text
    wait_for(lambda: not client.get("/api/tables/drone/sources").json()["drone"]["running"])
    assert client.get("/api/tables/drone/sources").json()["drone"]["error"] is None
    events = client.get("/api/tables/drone/events", headers=AUTH).json()
    assert any(event["author"] == "drone" for event in events)  # what the drone felt
    results = client.get("/api/tables/drone").json()["game"]["state"]["results"]
    assert results and results[0]["pilots"] == ["Ana", "Ben"]  # a flight was played


def test_a_live_serial_link_runs_until_it_is_stopped(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Loop", "id": "loop"})
    bound = client.put("/api/tables/loop/drone", headers=AUTH, json={"port": "loop://"})
    assert bound.status_code == 200, bound.text
    assert bound.json()["drone"]["running"]
    stopped = client.delete("/api/tables/loop/drone", headers=AUTH)
    assert stopped.status_code == 200 and stopped.json()["drone"] is None


@pytest.mark.parametrize(("kind", "body", "words"), [
    ("camera", {"source": "/no/such/replay"}, "$.source: "),
    ("camera", {"source": ""}, "$.source: String should have at least 1 character"),
    ("drone", {"port": "/dev/no-such-port"}, "$.port: cannot open /dev/no-such-port"),
    ("drone", {"port": "replay:///no/capture.bin"}, "$.port: no capture file at /no/capture.bin"),
])
def test_a_source_that_cannot_be_opened_is_one_line_naming_it(
        client: TestClient, kind: str, body: dict[str, str], words: str) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "T", "id": "t"})
    answer = client.put(f"/api/tables/t/{kind}", headers=AUTH, json=body)
    assert answer.status_code in (400, 422) and answer.json()["detail"].startswith(words)
    assert "\n" not in answer.json()["detail"]
    assert client.get("/api/tables/t/sources").json() == {"table": "t", "camera": None,
                                                          "drone": None}


def test_binding_to_an_unknown_table_is_a_404(client: TestClient) -> None:
    answer = client.put("/api/tables/nowhere/drone", headers=AUTH, json={"port": "loop://"})
    assert answer.status_code == 404 and answer.json()["detail"] == "there is no table 'nowhere'"


def test_a_source_serve_was_given_is_shown_and_left_alone(services: Services) -> None:
    services.station.create_table("Served", "served")
    services.bindings.note_plan(StationPlan(tables=(TablePlan("served", camera="0"),)))
    with TestClient(create_app(services)) as client:
        assert client.get("/api/tables/served/sources").json()["camera"] == {
            "source": "0", "by": "serve", "running": True, "error": None}
        refused = client.put("/api/tables/served/camera", headers=AUTH, json={"source": "1"})
        assert refused.status_code == 409
        assert "--camera or station.toml" in refused.json()["detail"]
        kept = client.delete("/api/tables/served", headers=AUTH)
        assert kept.status_code == 409 and "given when the station started" in kept.json()[
            "detail"]
        assert client.delete("/api/tables/served/camera", headers=AUTH).status_code == 409


def test_a_table_where_nothing_happened_can_be_removed_and_one_with_a_game_not(
        client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "Oops", "id": "oops"})
    client.post("/api/tables", headers=AUTH, json={"name": "Kept", "id": "kept", "game": {
        "game": "removal", "players": ["Ana", "Ben"], "deal": "table"}})
    assert client.delete("/api/tables/oops").status_code == 401
    client.put("/api/tables/kept/drone", headers=AUTH, json={"port": "loop://"})
    client.put("/api/tables/oops/drone", headers=AUTH, json={"port": "loop://?logging=info"})
    assert client.delete("/api/tables/oops", headers=AUTH).status_code == 204
    assert [t["id"] for t in client.get("/api/tables").json()] == ["kept"]
    assert client.delete("/api/tables/oops", headers=AUTH).status_code == 404
    refused = client.delete("/api/tables/kept", headers=AUTH)
    assert refused.status_code == 409
    assert refused.json()["detail"] == ("table 'kept' has a game in its record, so it stays "
                                        "(start a new game there instead)")
    assert client.get("/api/tables/kept/sources").json()["drone"]["running"]  # left alone
    client.delete("/api/tables/kept/drone", headers=AUTH)
    again = client.post("/api/tables", headers=AUTH, json={"name": "Oops", "id": "oops"})
    assert again.status_code == 201  # the id is free again, its drone stopped with it
    assert client.get("/api/tables/oops/sources").json()["drone"] is None


def test_a_table_a_tournament_game_names_stays(client: TestClient) -> None:
    client.post("/api/tables", headers=AUTH, json={"name": "T9", "id": "t9"})
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "id": "cup",
                                                        "players": ["Ana", "Ben"]})
    client.post("/api/tournaments/cup/games", headers=AUTH,
                json={"round": 1, "players": ["Ana", "Ben"], "table": "t9"}).raise_for_status()
    refused = client.delete("/api/tables/t9", headers=AUTH)
    assert refused.status_code == 409 and "tournament" in refused.json()["detail"]


def test_the_pages_are_served(client: TestClient) -> None:
    setup = client.get("/setup")
    assert setup.status_code == 200 and 'id="new-table"' in setup.text
    assert 'id="table-deal-table" value="table" checked' in setup.text
    sign_in = client.get("/sign-in?next=/tables/t1")
    assert 'data-next="/tables/t1"' in sign_in.text
    assert 'data-next="/setup"' in client.get("/sign-in?next=//evil.example").text
    assert 'id="sign-in-link"' in client.get("/").text
    assert 'href="/setup#new-table-section"' in client.get("/").text
