"""The camera source: rendered photos of a seeded game → reader → stability → game reader →
referee → engine, and the scores come out as the engine's own."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import pytest
from sqlalchemy.exc import OperationalError

from station.demo import camera_fixtures as fixtures
from station.live import runner, source_faults
from station.live.camera import (
    CameraError,
    CameraSource,
    GameReader,
    attach,
    camera_layout,
    open_frames,
)
from station.live.hub import Hub
from station.live.plan import StationPlan, TablePlan
from station.live.sources import Timed, hand_on
from station.live.station import Station
from station.store import EventStore, open_database
from tests.conftest import REPO

SCRIPT = (REPO / "station" / "games" / "small_warehouse" / "recordings"
          / "small-warehouse.camera.json")


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The Small Warehouse script and its frames, rendered once for this module."""
    script = fixtures.read_script(SCRIPT)
    folder = tmp_path_factory.mktemp("camera") / "small-warehouse"
    renderer = fixtures.Renderer(script, folder)
    assert sum(1 for _ in renderer) == len(renderer.plan)
    assert renderer.done() and renderer.unread == 0
    return script, folder


def start(station: Station, script: dict[str, Any]) -> None:
    station.start_game("t1", script["game"], script["players"], script["seed"], None, "organiser")


def scores(station: Station, table_id: str = "t1") -> dict[str, int]:
    return {s["player"]: s["total"] for s in station.snapshot(table_id)["game"]["scores"]}


def camera_items(folder: Path, script: dict[str, Any], **options: Any) -> list[Timed]:
    layout = camera_layout(script["game"], script["players"])
    settings = {"fps": fixtures.FPS, "stable_frames": fixtures.STABLE, **options}
    return list(CameraSource(open_frames(str(folder)), layout, **settings))


def test_a_replay_through_the_camera_source_rebuilds_the_recorded_game(
        replay: tuple[dict[str, Any], Path], station: Station) -> None:
    script, folder = replay
    start(station, script)
    items = camera_items(folder, script)
    assert {item.observation["kind"] for item in items} == {"warehouses"}
    assert [item.t for item in items] == sorted(item.t for item in items)
    assert all(abs(item.t * fixtures.FPS - round(item.t * fixtures.FPS)) < 0.01
               for item in items)  # a frame index / fps
    for item in items:
        hand_on(station, "t1", item, "camera")
    snapshot = station.snapshot("t1")
    assert snapshot["flags"] == [] and snapshot["problems"] == []
    assert station.table("t1").current.state.log == [step["action"] for step in script["steps"]]
    expected = {s.player: s.total for s in fixtures.replay_script(script).scores()}
    assert scores(station) == expected == script["final_scores"]


def spoilt_hand_frame(script: dict[str, Any], folder: Path, plan: list[Any]) -> int:
    """The first hand frame whose reading differs from what lies on the table."""
    renderer = fixtures.Renderer(script, folder.parent / "unused")
    layout = renderer.layout
    for index, frame in enumerate(plan):
        if frame.kind != "hand":
            continue
        truth = fixtures.truth_mats(fixtures.mat_contents(layout, renderer.states[frame.state]))
        seen = renderer.reader.read(cv2.imread(str(folder / f"{index:04d}.jpg")))
        if GameReader(layout).observations(seen, 0) != GameReader(layout).observations(truth, 0):
            return index
    raise AssertionError("no hand frame spoils the reading")


def play_clip(station: Station, script: dict[str, Any], folder: Path, frames: list[int],
              clip: Path) -> list[dict[str, Any]]:
    """These frames of the replay, in this order, through the camera source to table t1."""
    clip.mkdir()
    for order, index in enumerate(frames):
        shutil.copy(folder / f"{index:04d}.jpg", clip / f"{order:04d}.jpg")
    start(station, script)
    layout = camera_layout(script["game"], script["players"])
    for item in CameraSource(open_frames(str(clip)), layout, fps=fixtures.FPS,
                             stable_frames=fixtures.STABLE):
        hand_on(station, "t1", item, "camera")
    return station.table("t1").current.state.log


def test_a_hand_covered_frame_gives_no_wrong_action(
        replay: tuple[dict[str, Any], Path], station: Station, tmp_path: Path) -> None:
    script, folder = replay
    plan = fixtures.frame_plan(script)
    hand = spoilt_hand_frame(script, folder, plan)
    state = plan[hand].state
    actions = [step["action"] for step in script["steps"]]
    up_to_before = list(range(max(i for i, f in enumerate(plan) if f.state == state - 1) + 1))
    after = [i for i, frame in enumerate(plan) if frame.state == state and frame.kind != "hand"]
    # A hand passing while the piece is laid: only the right action, once the hand is gone.
    log = play_clip(station, script, folder, [*up_to_before, hand, *after], tmp_path / "a")
    assert log == actions[:state]
    assert station.snapshot("t1")["flags"] == []
    # A new game, and a hand resting there for as long as the filter needs: still no wrong
    # action (the hand's "?" cells keep their last stable value; the referee applies
    # nothing it is unsure of).
    log = play_clip(station, script, folder, [*up_to_before, *[hand] * fixtures.STABLE],
                    tmp_path / "b")
    assert log == actions[:len(log)] and len(log) in (state - 1, state)


def test_attach_drives_a_started_table_until_the_replay_ends(
        replay: tuple[dict[str, Any], Path], station: Station) -> None:
    script, folder = replay
    start(station, script)
    assert attach(station, "t1", str(folder), stable_frames=fixtures.STABLE) > 0
    assert scores(station) == script["final_scores"]


def test_a_planned_camera_replay_drives_its_table_and_keeps_the_frames_behind_rulings(
        replay: tuple[dict[str, Any], Path], station: Station, tmp_path: Path) -> None:
    script, folder = replay
    start(station, script)
    plan = StationPlan(archive=tmp_path / "archive",
                       tables=(TablePlan("t1", camera=str(folder)),))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=120), running
    assert scores(station) == script["final_scores"]
    assert list((tmp_path / "archive").rglob("*.jpg"))


def test_a_rendered_demo_table_replays_its_folder(
        replay: tuple[dict[str, Any], Path], station: Station) -> None:
    script, folder = replay
    recording = fixtures.camera_recording(SCRIPT, folder.parent.parent)
    recording.folder = folder  # rendered already: done.json says so
    assert recording.progress_note().startswith("camera replay of")
    start(station, script)
    for item in recording.stream():
        hand_on(station, "t1", item, "demo")
    assert scores(station) == recording.final_scores == script["final_scores"]


def test_serve_drives_a_table_from_a_camera_replay(
        replay: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    script, folder = replay
    database = open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}")
    station = Station(EventStore(database), Hub())
    station.create_table("Cam", "cam")
    station.start_game("cam", script["game"], script["players"], script["seed"], None, "organiser")
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(tmp_path),
         "--camera", f"cam={folder}"], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=dict(os.environ, PACKREF_TOKEN="camera-test"))
    try:
        assert json.loads(server.stdout.readline())["cameras"] == {"cam": str(folder)}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not station.refresh("cam").current.state.is_over():
            time.sleep(0.3)
        assert scores(station, "cam") == script["final_scores"]
    finally:
        server.terminate()
        server.communicate(timeout=30)
        database.close()


def test_live_time_stamps_come_from_the_clock_seam(
        replay: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    script, folder = replay
    clip = tmp_path / "clip"
    clip.mkdir()
    for index in range(6):
        shutil.copy(folder / f"{index:04d}.jpg", clip / f"{index:04d}.jpg")
    ticks = iter(range(0, 10_000, 10))
    items = camera_items(clip, script, fps=None, clock=lambda: float(next(ticks)))
    assert items and all(item.t % 10 == 0 and item.t > 0 for item in items)


def test_missing_or_unreadable_replays_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="no such file or folder"):
        open_frames(str(tmp_path / "nowhere"))
    with pytest.raises(CameraError, match="no images in this folder"):
        open_frames(str(tmp_path))
    (tmp_path / "0000.jpg").write_bytes(b"not a photo")
    layout = camera_layout("small-warehouse", ["Ana", "Ben"])
    with pytest.raises(CameraError, match=r"0000\.jpg: not an image OpenCV can read"):
        list(CameraSource(open_frames(str(tmp_path)), layout, fps=2.0))


def test_layouts_follow_the_kit_and_refuse_what_it_lacks() -> None:
    moving = camera_layout("moving-day", ["Ana", "Ben"])
    assert moving.roles == {"Ana": {"scooter": 0, "car": 1, "truck": 2},
                            "Ben": {"scooter": 3, "car": 4, "truck": 5}}
    assert camera_layout("removal", ["Ana", "Ben", "Cas"]).roles == {"Ana": 0, "Ben": 1, "Cas": 2}
    with pytest.raises(CameraError, match="mats for 2 players, not 3"):
        camera_layout("small-warehouse", ["Ana", "Ben", "Cas"])
    with pytest.raises(CameraError, match="does not read 'chess'"):
        camera_layout("chess", ["Ana"])


def test_the_shop_reader_gives_the_card_under_the_drone() -> None:
    layout = camera_layout("pick-n-packers", ["Ana", "Ben", "Cas"])
    tag_of = {piece["piece"]: tag for tag, piece in layout.tags.items()}
    cards = list(layout.card_numbers)[:9]
    shop = [{"id": tag_of[card], "row": i // 3, "col": i % 3, "rotation": 0}
            for i, card in enumerate(cards)]
    mat_id = layout.roles["shop"]
    reader = GameReader(layout)
    layout_seen = {"kind": "shop", "cards": [cards[0:3], cards[3:6], cards[6:9]]}
    assert reader.observations([{"id": mat_id, "found": True, "cells": ["XXX"] * 3,
                                 "tags": shop}], 1.0) == {"shop": layout_seen}
    drone = {"id": tag_of["drone"], "row": 1, "col": 2, "rotation": 0}
    covered = [tag for tag in shop if (tag["row"], tag["col"]) != (1, 2)] + [drone]
    seen = reader.observations([{"id": mat_id, "found": True, "cells": ["XXX"] * 3,
                                 "tags": covered}], 7.5)
    assert seen["drone"] == {"kind": "drone-position", "t": 7.5,
                             "card": layout.card_numbers[cards[5]]}
    assert seen["shop"] == layout_seen  # the card under the drone is remembered


def test_bad_frames_of_a_replay_are_skipped_and_counted(
        replay: tuple[dict[str, Any], Path], station: Station, tmp_path: Path) -> None:
    """A zero-byte image and a file of garbage in the middle of the replay: each is skipped
    and counted for the table's page, and the game is read to its end."""
    script, folder = replay
    damaged = tmp_path / "damaged"
    shutil.copytree(folder, damaged)
    images = sorted(p for p in damaged.iterdir() if p.suffix in (".png", ".jpg"))
    middle = images[len(images) // 2]
    (damaged / (middle.stem + "a.jpg")).write_bytes(b"")
    (damaged / (middle.stem + "b.jpg")).write_bytes(b"\xff\xd8 not really" * 50)
    start(station, script)
    assert attach(station, "t1", str(damaged), stable_frames=fixtures.STABLE) > 0
    assert scores(station) == script["final_scores"]
    assert station.snapshot("t1")["sources"] == [
        {"source": "camera", "words": None, "since": None, "skipped": 2}]


def test_a_camera_game_goes_on_through_a_full_disk_and_a_held_database(
        replay: tuple[dict[str, Any], Path], station: Station,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The store refuses two writes mid-game (disk full, then a database held by another
    writer): the table is flagged in words, the camera is tried again, the game ends right
    and the flag clears."""
    monkeypatch.setattr(source_faults, "FIRST_WAIT_S", 0.05)
    monkeypatch.setattr(source_faults, "HEALTHY_S", 0.2)
    script, folder = replay
    start(station, script)
    append, calls, flags = station.store.append, [0], []
    faults = {3: OSError(errno.ENOSPC, "No space left on device"),
              5: OperationalError("INSERT", {}, Exception("database is locked"))}

    def failing(*arguments: Any, **options: Any) -> Any:
        calls[0] += 1
        if calls[0] in faults:
            raise faults[calls[0]]
        return append(*arguments, **options)

    flag = station.source_faults.fail
    monkeypatch.setattr(station.store, "append", failing)
    monkeypatch.setattr(station.source_faults, "fail",
                        lambda table, kind, words: (flags.append(words), flag(table, kind, words)))
    plan = StationPlan(tables=(TablePlan("t1", camera=str(folder)),))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=120), running
    assert scores(station) == script["final_scores"]
    assert flags[0] == ("the camera's frames stopped: the disk is full: nothing it sees can "
                        "be stored until there is room; retrying in 0.05 s")
    # the wait doubles when the second fault comes within HEALTHY_S of the restart: how soon
    # the two writes between them are made is the machine's, not the station's
    assert len(flags) == 2 and re.fullmatch(
        r"the camera's frames stopped: the database is locked by another program: waiting "
        r"for it; retrying in 0\.(05|1) s", flags[1]), flags
    assert station.snapshot("t1")["sources"] == []


def test_a_deleted_replay_folder_is_flagged_and_retried_until_it_is_back(
        replay: tuple[dict[str, Any], Path], station: Station, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source_faults, "FIRST_WAIT_S", 0.05)
    monkeypatch.setattr(source_faults, "LONGEST_WAIT_S", 0.1)
    script, folder = replay
    gone = tmp_path / "gone"
    start(station, script)
    plan = StationPlan(tables=(TablePlan("t1", camera=str(gone)),))
    with runner.start(plan, station) as running:
        deadline = time.monotonic() + 60
        while not station.snapshot("t1")["sources"] and time.monotonic() < deadline:
            time.sleep(0.02)
        words = station.snapshot("t1")["sources"][0]["words"]
        assert words.startswith(f"the camera's frames stopped: {gone}: no such file or folder;")
        assert running.running() == ["camera of table t1"]  # not left dead
        shutil.copytree(folder, gone)  # the folder is back
        assert running.wait(timeout=120), running
    assert scores(station) == script["final_scores"]
    assert station.snapshot("t1")["sources"] == []
