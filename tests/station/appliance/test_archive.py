"""The game archive: the frames behind rulings and flags, kept within a budget, as a ZIP."""

from __future__ import annotations

import io
import json
import os
import threading
import time
import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from station.api import build_services, create_app
from station.appliance.archive import FrameKeeper, prune, table_archive
from station.appliance.config import ArchiveLimits
from station.appliance.setup import archive_dir
from station.config import load_settings
from station.demo import camera_fixtures as fixtures
from station.demo.demo import DEMO_AUTHOR, demo_table_id, prepare_tables
from station.live.sources import Timed, hand_on
from station.live.station import Station
from tests.conftest import REPO
from tests.station.conftest import TOKEN

SCRIPT = (REPO / "station" / "games" / "small_warehouse" / "recordings"
          / "small-warehouse.camera.json")
CAMERA_ACTIONS = 3  # the demo table is stopped after the camera's third ruling


def zip_of(data: bytes) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(data))


@pytest.fixture(scope="module")
def demo_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory whose demo camera table played its first rulings through the keeper."""
    data = tmp_path_factory.mktemp("demo-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PACKREF_TOKEN", TOKEN)
        settings = load_settings(data)
    services = build_services(settings)
    try:
        recording = fixtures.camera_recording(SCRIPT, data)
        table = prepare_tables(services.station, [recording])[0]
        assert table == demo_table_id(recording)
        services.station.start_game(table, recording.game, recording.players, recording.seed,
                                    recording.options, DEMO_AUTHOR)
        recording.keeper = FrameKeeper(services.station, table, archive_dir(data))
        stop = threading.Event()
        for item in recording.stream(stop):  # what the demo's pace() does, without waiting
            hand_on(services.station, table, item, DEMO_AUTHOR)
            actions = [e for e in services.store.events(table) if e.kind == "action"
                       and e.author == DEMO_AUTHOR]
            if recording.keeper.kept >= CAMERA_ACTIONS and len(actions) >= CAMERA_ACTIONS:
                stop.set()
        stop.set()
    finally:
        services.database.close()
    return data


def manifest_of(archive: zipfile.ZipFile) -> dict:
    return json.loads(archive.read("manifest.json"))


def test_the_demo_table_s_archive_holds_its_events_and_photos(demo_data: Path) -> None:
    services = build_services(load_settings(demo_data))
    try:
        table = "demo-small-warehouse"
        archive = zip_of(table_archive(services.station, table, archive_dir(demo_data)))
        events = services.store.events(table)
    finally:
        services.database.close()
    manifest = manifest_of(archive)
    assert manifest["table"]["id"] == table and len(manifest["games"]) == 1
    game = manifest["games"][0]
    assert game["game"] == "small-warehouse" and game["players"] == ["Ana", "Ben"]
    assert set(game["final_scores"]) == {"Ana", "Ben"} and game["over"] is False
    lines = archive.read(f"{game['folder']}/events.jsonl").decode().splitlines()
    assert [json.loads(line) for line in lines] == [event.to_json() for event in events]
    camera_rulings = [r for r in game["rulings"] if r["photo"] is not None]
    assert len(camera_rulings) >= CAMERA_ACTIONS
    for ruling in camera_rulings:
        cause = next(e for e in events if e.seq == ruling["cause"])
        assert cause.kind == "observation" and cause.payload["source"] == "camera"
        photo = cv2.imdecode(np.frombuffer(archive.read(ruling["photo"]), np.uint8),
                             cv2.IMREAD_COLOR)
        assert photo is not None and photo.ndim == 3
    declared = [r for r in game["rulings"] if r["photo"] is None]
    assert all(next(e for e in events if e.seq == r["cause"]).payload["source"] != "camera"
               for r in declared)


def test_the_archive_from_the_api_and_the_command_line(demo_data: Path, cli,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    monkeypatch.setenv("PACKREF_TOKEN", TOKEN)
    services = build_services(load_settings(demo_data))
    try:
        with TestClient(create_app(services)) as client:
            refused = client.get("/api/tables/demo-small-warehouse/archive")
            answer = client.get("/api/tables/demo-small-warehouse/archive", headers=auth)
            missing = client.get("/api/tables/nope/archive", headers=auth)
    finally:
        services.database.close()
    assert refused.status_code == 401  # the whole record, face-down cards too
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    assert 'filename="demo-small-warehouse-archive.zip"' in answer.headers[
        "content-disposition"]
    assert missing.status_code == 404 and "nope" in missing.json()["detail"]
    out = demo_data / "out" / "archive.zip"
    result = cli("table", "archive", "demo-small-warehouse", "--out", out, "--data", demo_data)
    assert result.status == 0, result.stderr
    assert result.json() == {"table": "demo-small-warehouse", "out": str(out),
                             "bytes": out.stat().st_size}
    assert manifest_of(zip_of(out.read_bytes())) == manifest_of(zip_of(answer.content))
    assert sorted(p.name for p in out.parent.iterdir()) == ["archive.zip"]  # no leftovers


def test_archive_mistakes_are_one_line_and_write_nothing(cli, tmp_path: Path) -> None:
    assert cli("table", "add", "T", "--data", tmp_path).status == 0
    unknown = cli("table", "archive", "nope", "--out", tmp_path / "a.zip", "--data", tmp_path)
    assert unknown.status == 2 and "no table 'nope'" in unknown.stderr
    folder = cli("table", "archive", "t", "--out", tmp_path, "--data", tmp_path)
    assert folder.status == 2 and folder.stderr.startswith("--out: ")
    assert not (tmp_path / "a.zip").exists()


def test_a_flag_keeps_its_frame_and_the_final_scores_of_each_game(
        station: Station, toy_game: str, tmp_path: Path) -> None:
    keeper = FrameKeeper(station, "t1", tmp_path)
    frame = np.full((48, 64, 3), 90, np.uint8)

    def seen(action: dict) -> Path | None:
        item = Timed(0.0, {"kind": "declared", "action": action}, "camera")
        mark = keeper.mark()
        hand_on(station, "t1", item, "camera")
        return keeper.keep(mark, item, frame)

    station.start_game("t1", toy_game, ["Ana", "Ben"], 0, None, "organiser")
    assert seen({"type": "add", "n": 2}) is not None
    flagged = seen({"type": "add", "n": 5})
    assert flagged is not None and flagged.exists()
    station.start_game("t1", toy_game, ["Cas", "Dee"], 1, None, "organiser")
    assert seen({"type": "add", "n": 1}) is not None
    manifest = manifest_of(zip_of(table_archive(station, "t1", tmp_path)))
    first, second = manifest["games"]
    assert first["final_scores"] == {"Ana": 2, "Ben": 0} and second["players"] == ["Cas", "Dee"]
    flag = next(r for r in first["rulings"] if r["kind"] == "flag")
    assert flag["reason"] == "you may add 1 or 2" and flag["photo"].endswith(".jpg")
    assert [r["kind"] for r in first["rulings"]] == ["action", "flag"]


def test_an_observation_without_a_ruling_keeps_no_frame(
        station: Station, toy_game: str, tmp_path: Path) -> None:
    keeper = FrameKeeper(station, "t1", tmp_path)
    item = Timed(0.0, {"kind": "noise"}, "camera")  # no game yet: stored, nothing ruled
    mark = keeper.mark()
    hand_on(station, "t1", item, "camera")
    assert keeper.keep(mark, item, np.zeros((8, 8, 3), np.uint8)) is None
    assert not (tmp_path / "frames").exists()


def fill(folder: Path, kilobytes: int, age_s: float) -> None:
    folder.mkdir(parents=True)
    path = folder / "000001.jpg"
    path.write_bytes(b"x" * kilobytes * 1000)
    moment = time.time() - age_s
    os.utime(path, (moment, moment))


def test_frames_stay_within_the_budget_oldest_games_first(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    fill(frames / "t1" / "000001", 40, age_s=300)  # the oldest
    fill(frames / "t2" / "000001", 40, age_s=200)
    fill(frames / "t1" / "000050", 40, age_s=100)
    fill(frames / "t2" / "000080", 40, age_s=0)  # being played
    removed = prune(tmp_path, 100_000, keep=frames / "t2" / "000080")
    assert removed == [frames / "t1" / "000001", frames / "t2" / "000001"]
    assert sorted(str(p.relative_to(frames)) for p in frames.glob("*/*")) == [
        "t1/000050", "t2/000080"]
    assert prune(tmp_path, 1, keep=frames / "t2" / "000080") == [frames / "t1" / "000050"]
    assert (frames / "t2" / "000080").exists()  # the game being played is never removed


def test_the_keeper_prunes_as_it_keeps(station: Station, toy_game: str, tmp_path: Path) -> None:
    fill(tmp_path / "frames" / "old" / "000001", 50, age_s=1000)
    keeper = FrameKeeper(station, "t1", tmp_path, ArchiveLimits(budget_mb=0.04))
    station.start_game("t1", toy_game, ["Ana", "Ben"], 0, None, "organiser")
    item = Timed(0.0, {"kind": "declared", "action": {"type": "add", "n": 1}}, "camera")
    mark = keeper.mark()
    hand_on(station, "t1", item, "camera")
    kept = keeper.keep(mark, item, np.random.default_rng(0).integers(0, 255, (64, 64, 3),
                                                                      np.uint8))
    assert kept is not None and kept.exists()
    assert not (tmp_path / "frames" / "old" / "000001").exists()


def test_the_keeper_notes_each_table_s_latest_frame(station: Station, toy_game: str,
                                                    tmp_path: Path) -> None:
    from station.appliance.archive import RECENT_FRAMES

    keeper = FrameKeeper(station, "t1", tmp_path)
    station.start_game("t1", toy_game, ["Ana", "Ben"], 0, None, "organiser")
    frame = np.full((8, 8, 3), 7, np.uint8)
    item = Timed(0.0, {"kind": "noise"}, "camera")
    keeper.keep(keeper.mark(), item, frame)
    table, age, latest = RECENT_FRAMES.latest()
    assert table == "t1" and age < 60 and latest is frame
