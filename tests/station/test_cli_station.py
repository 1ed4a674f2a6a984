"""``packref table``, ``packref tournament`` and ``packref demo`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from station.demo.recordings import demo_recordings
from station.live.station import Station
from station.store import EventStore, FixedClock, open_database
from station.tournament.results import confirm_result
from tests.conftest import REPO


def test_tables_are_added_and_listed(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    added = cli("table", "add", "Table 3", "--game", "small-warehouse", "--players", "Ana,Ben",
                "--seed", "5", "--data", data)
    assert added.status == 0, added.stderr
    assert added.json() == {"id": "table-3", "name": "Table 3", "events": 1,
                            "game": "small-warehouse", "players": ["Ana", "Ben"],
                            "over": False, "scores": {"Ana": 0, "Ben": 0}}
    assert cli("table", "add", "Spare", "--data", data).status == 0
    assert [line["id"] for line in cli("table", "list", "--data", data).json_lines()] == [
        "table-3", "spare"]
    assert "seed" not in cli("table", "show", "table-3", "--data", data).json()["game"]  # public
    start = cli("table", "events", "table-3", "--data", data).json_lines()[0]  # the record
    assert start["kind"] == "game" and start["seed"] == 5


def test_table_mistakes_are_one_line_and_status_2(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    cases = [
        (["table", "add", "T", "--game", "small-warehouse", "--data", data], "--players"),
        (["table", "add", "T", "--game", "chess", "--players", "A,B", "--data", data],
         "no game called 'chess'"),
        (["table", "add", "T", "--game", "small-warehouse", "--players", "A,B,C", "--data",
          data], "takes 2 to 2 players"),
        (["table", "add", "T", "--game", "small-warehouse", "--players", "A,B", "--options",
          "[1]", "--data", data], "--options: must be a JSON object"),
        (["table", "show", "nope", "--data", data], "no table 'nope'"),
    ]
    for arguments, message in cases:
        result = cli(*arguments)
        assert result.status == 2 and result.stdout == ""
        assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert cli("table", "list", "--data", data).stdout == ""  # nothing half-written
    cli("table", "add", "T", "--data", data)
    again = cli("table", "add", "T", "--data", data)
    assert again.status == 2 and "already a table 't'" in again.stderr


def test_a_tournament_on_the_command_line(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    assert cli("tournament", "add", "Cup", "--players", "Ana,Ben", "--tie-breakers",
               "points,wins", "--data", data).json()["tie_breakers"] == ["points", "wins"]
    assert cli("tournament", "player", "cup", "Cas", "--data", data).json() == {
        "players": ["Ana", "Ben", "Cas"]}
    game = cli("tournament", "game", "cup", "--round", "1", "--players", "Ana,Cas",
               "--data", data).json()
    result = cli("tournament", "result", "cup", str(game["id"]), "--score", "Ana=3",
                 "--score", "Cas=8", "--data", data)
    assert result.json()["result"]["winners"] == ["Cas"]
    csv_path = tmp_path / "standings.csv"
    standings = cli("tournament", "standings", "cup", "--csv", csv_path, "--data", data).json()
    assert [line["player"] for line in standings] == ["Cas", "Ana", "Ben"]
    assert csv_path.read_text().splitlines()[1] == "1,Cas,1,1,8,8.0,0,0.333"
    bad = cli("tournament", "result", "cup", str(game["id"]), "--score", "Ana=x", "--data", data)
    assert bad.status == 2 and "'x' is not a whole number" in bad.stderr
    wrong = cli("tournament", "tie-breakers", "cup", "wins,luck", "--data", data)
    assert wrong.status == 2 and "unknown tie-breaker 'luck'" in wrong.stderr
    assert cli("tournament", "show", "cup", "--data", data).json()["tie_breakers"] == [
        "points", "wins"]


def test_the_organiser_reads_codes_and_settles_a_dispute_on_the_command_line(
        cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    cli("tournament", "add", "Cup", "--players", "Ana,Ben", "--data", data)
    game = str(cli("tournament", "game", "cup", "--round", "1", "--players", "Ana,Ben",
                   "--data", data).json()["id"])
    cli("tournament", "result", "cup", game, "--score", "Ana=3", "--score", "Ben=8",
        "--data", data)
    codes = cli("tournament", "codes", "cup", game, "--data", data).json()
    assert [line["player"] for line in codes["codes"]] == ["Ana", "Ben"]
    assert codes["disputed"] is False and codes["signing"] == []
    early = cli("tournament", "settle", "cup", game, "--note", "x", "--data", data)
    assert early.status == 2 and "no dispute to settle" in early.stderr
    database = open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}")
    with database.session() as session:  # Ana disagrees, on her phone
        confirm_result(session, FixedClock(), "cup", int(game), "Ana",
                       codes["codes"][0]["code"], False)
    database.close()
    settled = cli("tournament", "settle", "cup", game, "--note", "recounted", "--score",
                  "Ana=9", "--score", "Ben=8", "--data", data)
    assert settled.status == 0, settled.stderr
    assert settled.json()["result"]["winners"] == ["Ana"]
    assert settled.json()["result"]["settled"]["by"] == "cli"
    after = cli("tournament", "codes", "cup", game, "--data", data).json()
    assert [(s["kind"], s["who"], s["note"]) for s in after["signing"]] == [
        ("disagree", "Ana", ""), ("settle", "cli", "recounted")]


def test_the_demo_plays_every_recording_through_the_live_loop_once(tmp_path: Path) -> None:
    environment = dict(os.environ, PACKREF_TOKEN="demo-test")
    finished = subprocess.run(
        [sys.executable, "-m", "station", "demo", "--once", "--port", "0", "--speed", "400",
         "--data", str(tmp_path)], cwd=REPO, env=environment, capture_output=True, text=True,
        timeout=300)  # a guard against a hang: a loaded machine renders slowly
    assert finished.returncode == 0, finished.stderr
    lines = [json.loads(line) for line in finished.stdout.splitlines()]
    assert lines[0]["url"].startswith("http://127.0.0.1:") and "token" not in lines[0]
    summary = lines[-1]
    assert summary["games"] == len(summary["tables"]) >= 1
    database = open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}")
    station = Station(EventStore(database))
    recorded = {f"demo-{recording.game}": recording
                for recording in demo_recordings(data_dir=tmp_path)}
    for table_id in summary["tables"]:
        snapshot = station.snapshot(table_id)
        assert snapshot["game"]["over"], table_id  # every recorded game ran to its end
        assert snapshot["flags"] == [] and snapshot["problems"] == []
        scores = {score["player"]: score["total"] for score in snapshot["game"]["scores"]}
        assert scores == recorded[table_id].final_scores
    # Pick 'n Packers is played by drone captures: link replay, detector, live referee.
    events = station.store.events("demo-pick-n-packers")
    seen = {e.payload["observation"]["kind"] for e in events if e.kind == "observation"}
    assert seen == {"declared", "drone-event", "drone-position", "drone-clock", "button"}
    causes = {e.seq: e.payload["observation"] for e in events if e.kind == "observation"}
    from_drone = [e.payload["action"]["type"] for e in events if e.kind == "action"
                  and causes[e.payload["cause"]]["kind"] != "declared"]
    assert from_drone == ["load", "land", "fall", "load", "land", "load", "land", "load", "fall",
                          "load", "land", "load", "land", "load", "touch"]
    readings = station.snapshot("demo-pick-n-packers")["readings"]
    assert readings and all(r["observation"]["kind"].startswith("drone-") for r in readings)
    # The tile games are played by camera replays rendered into the data directory.
    for game, kind in (("small-warehouse", "warehouses"), ("moving-day", "vehicles"),
                       ("removal", "trucks")):
        check_camera_table(station, recorded[f"demo-{game}"], kind, tmp_path / "camera" / game)
    database.close()


def check_camera_table(station: Station, recording: Any, kind: str, frames: Path) -> None:
    """A camera demo table: its actions came from the camera (or declared where the camera
    cannot see them), and its scores are the engine's for the recorded script."""
    from station.demo.camera_fixtures import replay_script

    script = recording.script
    table_id = f"demo-{script['game']}"
    assert {s.player: s.total for s in replay_script(script).scores()} == recording.final_scores
    events = station.store.events(table_id)
    causes = {e.seq: e.payload["observation"]["kind"] for e in events if e.kind == "observation"}
    sources = [causes[e.payload["cause"]] for e in events if e.kind == "action"]
    assert sources.count(kind) == sum(step["camera"] for step in script["steps"]) > 0
    assert sources.count("declared") == len(script["steps"]) - sources.count(kind)
    assert len(list(frames.glob("*.jpg"))) > len(script["steps"])  # photos of every state


def test_serve_drone_options_are_checked_before_the_server_starts(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    positions = tmp_path / "positions.jsonl"
    positions.write_text('{"t": 5.0}\n')
    cases = [
        (["--drone", "table-1"], "--drone: write TABLE=VALUE"),
        (["--drone", "a=/dev/x", "--drone", "a=/dev/y"], "table 'a' is given twice"),
        (["--drone-positions", f"b={positions}"], "table 'b' has no --drone"),
        (["--drone", "b=/dev/x", "--drone-positions", f"b={positions}"], "line 1"),
        (["--gpio-buttons"], "exactly one --drone"),
        (["--camera", "t1"], "--camera: write TABLE=VALUE"),
        (["--camera", f"t1={tmp_path / 'nowhere'}"], "nowhere: no such file or folder"),
        (["--camera", f"t1={tmp_path}"], "no images in this folder"),
        (["--camera-calibration", str(positions)], "positions.jsonl: "),
    ]
    for arguments, message in cases:
        result = cli("serve", "--port", "0", "--data", data, *arguments)
        assert result.status == 2 and message in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1  # one line, before the server


def test_serve_drives_a_table_from_its_drones_serial_link(tmp_path: Path) -> None:
    database = open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}")
    station = Station(EventStore(database))
    station.create_table("Drone", "drone")
    station.start_game("drone", "pick-n-packers", ["Ana", "Ben", "Cas"], 1, None, "organiser")
    station.observe("drone", {"kind": "declared", "action": {"type": "speculate", "card": 1}},
                    "declared", "referee")
    positions = tmp_path / "positions.jsonl"
    positions.write_text('{"t": 5.0, "card": 1}\n{"t": 9.2, "card": 2}\n')
    capture = REPO / "fixtures" / "drone" / "sim-0003.bin"
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(tmp_path),
         "--drone", f"drone=replay://{capture}", "--drone-positions", f"drone={positions}"],
        cwd=REPO, env=dict(os.environ, PACKREF_TOKEN="drone-test"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        announced = json.loads(server.stdout.readline())
        assert announced["drones"] == {"drone": f"replay://{capture}"}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not Station(EventStore(database)).snapshot(
                "drone")["game"]["state"]["results"]:
            time.sleep(0.2)
    finally:
        server.terminate()
        server.communicate(timeout=30)
    game = Station(EventStore(database)).snapshot("drone")["game"]
    assert game["state"]["results"] == [{"pilots": ["Ana", "Ben"], "reached": 2,
                                         "speculations": {"Cas": 1}, "ending": "fall"}]
    database.close()


def test_a_terminated_demo_removes_its_temporary_folder() -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "station", "demo", "--port", "0"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        data = Path(json.loads(demo.stdout.readline())["data"])
        assert data.is_dir()
    finally:
        demo.terminate()
        _, errors = demo.communicate(timeout=30)
    assert demo.returncode == 130, errors
    assert not data.exists()


def test_rounds_paired_on_the_command_line(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    cli("tournament", "add", "Cup", "--players", "Ana,Ben,Cas", "--data", data)
    cli("table", "add", "Table 1", "--data", data)
    paired = cli("tournament", "pair", "cup", "--game", "small-warehouse", "--data", data)
    assert paired.status == 0, paired.stderr
    first = paired.json()
    assert first["round"] == 1 and len(first["byes"]) == 1
    assert first["games"][0]["table"] == "table-1" and len(first["games"][0]["players"]) == 2
    again = cli("tournament", "pair", "cup", "--game", "small-warehouse", "--data", data)
    assert again.status == 2 and "have no result yet" in again.stderr
    assert len(again.stderr.splitlines()) == 1
    assert cli("tournament", "drop", "cup", first["byes"][0], "--data", data).json() == {
        "player": first["byes"][0], "dropped_after_round": 1}
    forced = cli("tournament", "pair", "cup", "--game", "small-warehouse", "--size", "2",
                 "--force", "--data", data).json()
    assert forced["round"] == 2 and forced["byes"] == []
    assert first["byes"][0] not in forced["games"][0]["players"]
    assert cli("tournament", "forbid", "cup", "Ana", "--data", data).status == 2
