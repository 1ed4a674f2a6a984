"""A table's camera and drone bound while the station runs: one source a kind a table, the old
one stopped when another is bound, a camera device owned by this station, failures kept."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from station.appliance.ownership import CameraOwnership
from station.errors import InputError
from station.live import bindings as module
from station.live.bindings import Bindings
from station.live.station import Station, UnknownTable


def wait_until(check, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_binding_again_stops_the_old_source(station: Station) -> None:
    bound = Bindings(station)
    bound.bind_drone("t1", "loop://")
    first = bound._bound[("t1", "drone")]
    bound.bind_drone("t1", "loop://?logging=warning")
    assert not first.thread.is_alive() and first.stop.is_set()
    assert bound.bound("t1")["drone"]["source"] == "loop://?logging=warning"
    assert bound.sources_in_use() == {"loop://?logging=warning": "t1"}
    bound.stop_all()
    assert bound.bound("t1") == {"camera": None, "drone": None}


def test_a_source_that_fails_is_retried_with_its_reason_shown(
        station: Station, monkeypatch: pytest.MonkeyPatch) -> None:

    def broken(*_args: object, **_options: object) -> int:
        raise RuntimeError("the board went away\nand more")

    monkeypatch.setattr(module.drone, "attach", broken)
    bound = Bindings(station)
    bound.bind_drone("t1", "loop://")
    wait_until(lambda: bound.bound("t1")["drone"]["error"] is not None)
    drone = bound.bound("t1")["drone"]
    assert drone["running"]  # tried again, not left dead
    assert drone["error"] == ("the drone's readings stopped: the board went away; "
                              "retrying in 1 s")
    assert station.snapshot("t1")["sources"][0]["words"] == drone["error"]
    bound.stop_all()


def test_a_camera_device_is_owned_and_let_go(
        station: Station, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    station.create_table("T2", "t2")
    monkeypatch.setenv("PACKREF_RUN_DIR", str(tmp_path))

    class Frames:
        def close(self) -> None:
            pass

    monkeypatch.setattr(module.camera, "open_frames", lambda where: Frames())
    monkeypatch.setattr(module.camera, "attach", lambda *a, stop, **k: stop.wait(30) and 0)
    bound = Bindings(station, tmp_path)
    bound.bind_camera("t1", "3")
    with pytest.raises(InputError, match="camera 3 already feeds table 't1'"):
        bound.bind_camera("t2", "3")
    with pytest.raises(InputError, match="is owned by"):  # as another station would be told
        CameraOwnership.take("3", "another station", tmp_path)
    bound.unbind("t1", "camera")
    CameraOwnership.take("3", "another station", tmp_path).release()  # free again


def test_an_unknown_table_is_refused_before_anything_opens(station: Station) -> None:
    with pytest.raises(UnknownTable):
        Bindings(station).bind_drone("nowhere", "loop://")
