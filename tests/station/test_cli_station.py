"""``packref table``, ``packref tournament`` and ``packref demo`` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from station.live.recordings import demo_recordings
from station.live.station import Station
from station.store import EventStore, open_database
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
    assert cli("table", "show", "table-3", "--data", data).json()["game"]["seed"] == 5
    assert cli("table", "events", "table-3", "--data", data).json_lines()[0]["kind"] == "game"


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
    assert csv_path.read_text().splitlines()[1] == "1,Cas,1,1,8,8.0,0"
    bad = cli("tournament", "result", "cup", str(game["id"]), "--score", "Ana=x", "--data", data)
    assert bad.status == 2 and "'x' is not a whole number" in bad.stderr
    wrong = cli("tournament", "tie-breakers", "cup", "wins,luck", "--data", data)
    assert wrong.status == 2 and "unknown tie-breaker 'luck'" in wrong.stderr
    assert cli("tournament", "show", "cup", "--data", data).json()["tie_breakers"] == [
        "points", "wins"]


def test_the_demo_plays_every_recording_through_the_live_loop_once(tmp_path: Path) -> None:
    environment = dict(os.environ, PACKREF_TOKEN="demo-test")
    finished = subprocess.run(
        [sys.executable, "-m", "station", "demo", "--once", "--port", "0", "--speed", "400",
         "--data", str(tmp_path)], cwd=REPO, env=environment, capture_output=True, text=True,
        timeout=120)
    assert finished.returncode == 0, finished.stderr
    lines = [json.loads(line) for line in finished.stdout.splitlines()]
    assert lines[0]["url"].startswith("http://127.0.0.1:") and "token" not in lines[0]
    summary = lines[-1]
    assert summary["games"] == len(summary["tables"]) >= 1
    database = open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}")
    station = Station(EventStore(database))
    recorded = {f"demo-{recording.game}": recording for recording in demo_recordings()}
    for table_id in summary["tables"]:
        snapshot = station.snapshot(table_id)
        assert snapshot["game"]["over"], table_id  # every recorded game ran to its end
        assert snapshot["flags"] == [] and snapshot["problems"] == []
        scores = {score["player"]: score["total"] for score in snapshot["game"]["scores"]}
        assert scores == recorded[table_id].final_scores
    database.close()
