"""The camera's latest frame and reading, kept per table for the camera check page: published by
the camera's thread before and during a game, read by the API (``station.cameras``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from station.live.camera import PREVIEW_FPS, attach, looked_for_in_kit, preview
from station.live.camera_view import CameraView, CameraViews, MatsLookedFor
from station.live.station import Station
from tests.station.camera_frames import render_frames
from vision.reader import Reader
from vision.sources import ReplaySource


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render_frames(tmp_path_factory.mktemp("camera") / "removal")


def wait_for(condition: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_a_frame_and_its_reading_are_published_together() -> None:
    ticks = iter([10.0, 11.0])
    view = CameraView("t1", "0", clock=lambda: next(ticks))
    assert view.latest() is None
    image = np.zeros((4, 6, 3), np.uint8)
    first = view.publish(image, [{"id": 0, "found": False}], {})
    second = view.publish(image, [], {})
    assert (first.number, first.at, second.number, second.at) == (1, 10.0, 2, 11.0)
    assert view.latest() is second and first.mats == [{"id": 0, "found": False}]


def test_what_is_made_of_a_frame_is_made_once_while_it_is_the_latest() -> None:
    view = CameraView("t1", "0")
    made: list[int] = []
    frame = view.publish(np.zeros((2, 2, 3), np.uint8), [], {})
    for _ in range(3):
        assert view.remembered(frame, "png", lambda: made.append(1) or b"one") == b"one"
    newer = view.publish(np.zeros((2, 2, 3), np.uint8), [], {})
    assert view.remembered(newer, "png", lambda: b"two") == b"two" and made == [1]
    assert view.remembered(frame, "png", lambda: b"old") == b"old"  # not kept: not the latest


def test_a_view_is_bound_once_per_source() -> None:
    views = CameraViews()
    view = views.bind("t1", "0")
    view.choose("removal")
    assert views.bind("t1", "0") is view and view.chosen() == "removal"
    assert views.bind("t1", "/replay") is not view and views.get("t2") is None


def test_the_kit_mats_of_a_chosen_game_are_every_mat_the_kit_prints_for_it() -> None:
    removal = looked_for_in_kit("removal")
    assert [spec.id for spec in removal.specs] == [0, 1, 2, 3]
    assert removal.labels[0] == "truck 1" and removal.why == "chosen"
    assert looked_for_in_kit(None) == MatsLookedFor()
    assert removal.mats_file() == {"mats": [{"id": i, "rows": 6, "cols": 8, "kind": "tags"}
                                            for i in range(4)]}


def test_before_a_game_the_chosen_games_mats_are_read_as_the_reader_reads_them(
        station: Station, frames: Path) -> None:
    view = station.cameras.bind("t1", str(frames))
    view.choose("removal")
    stop = threading.Event()
    started = time.monotonic()
    thread = threading.Thread(target=preview, args=(station, "t1", str(frames), view, stop))
    thread.start()
    try:
        last = wait_for(lambda: (f := view.latest()) is not None and f.number == 3 and f)
        assert time.monotonic() - started >= 2 / PREVIEW_FPS  # played at the preview's pace
        assert "replay ended" in wait_for(lambda: "ended" in view.status() and view.status())
    finally:
        stop.set()
        thread.join(timeout=10)
    specs = list(looked_for_in_kit("removal").specs)
    image = list(ReplaySource(frames))[-1]
    assert np.array_equal(last.image, image)
    assert last.mats == Reader(specs).read(image)
    assert [m["found"] for m in last.mats] == [True, True, False, False]
    assert sorted(last.geometry) == [0, 1] and last.looked_for.why == "chosen"


def test_with_nothing_chosen_the_frames_alone_are_shown(station: Station, frames: Path) -> None:
    view = station.cameras.bind("t1", str(frames))
    stop = threading.Event()
    thread = threading.Thread(target=preview, args=(station, "t1", str(frames), view, stop))
    thread.start()
    try:
        frame = wait_for(view.latest)
        assert frame.mats == [] and frame.geometry == {} and frame.looked_for.why == "none"
        assert "choose a game" in view.status()
        view.choose("removal")  # a choice starts the reading again, with the kit's mats
        wait_for(lambda: not thread.is_alive())
    finally:
        stop.set()
        thread.join(timeout=10)


def test_attach_reads_the_chosen_mats_then_the_games_mats_once_it_starts(
        station: Station, frames: Path) -> None:
    stop = threading.Event()
    done: list[int] = []
    thread = threading.Thread(target=lambda: done.append(attach(station, "t1", str(frames),
                                                                stop=stop, stable_frames=1)))
    thread.start()
    try:
        view = wait_for(lambda: station.cameras.get("t1"))
        view.choose("removal")
        wait_for(lambda: (f := view.latest()) is not None and f.looked_for.why == "chosen")
        station.start_game("t1", "removal", ["Ana", "Ben"], 3, None, "organiser", deal="table")
        thread.join(timeout=60)
        assert not thread.is_alive() and done  # the replay, read for the game, ran out
    finally:
        stop.set()
        thread.join(timeout=10)
    last = view.latest()
    assert last.looked_for.why == "game" and [s.id for s in last.looked_for.specs] == [0, 1]
    assert [m["found"] for m in last.mats] == [True, True]
    assert view.status() == "the replay ended: its last frame stays"
