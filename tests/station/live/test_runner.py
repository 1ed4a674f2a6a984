"""A planned station started without the command line: each table's drone and camera in a
thread, a clock bridge between the two of one table, failures told, stop() stops them."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from station.live import runner, source_faults
from station.live.clock_bridge import ClockBridge
from station.live.plan import StationPlan, TablePlan
from station.live.station import Station
from station.store import Database
from tests.conftest import REPO
from tests.station.live.test_drone import bet_on_card_1, drone_table

SIM_3 = f"replay://{REPO / 'fixtures' / 'drone' / 'sim-0003.bin'}"


def test_a_planned_drone_replay_plays_its_game_at_the_table(database: Database) -> None:
    station = drone_table(database, "drone")
    plan = StationPlan(tables=(TablePlan("drone", drone=SIM_3, drone_positions=(
        {"t": 5.0, "card": 1}, {"t": 9.2, "card": 2})),))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=60), running
    assert running.running() == [] and "0 of 1 sources running" in repr(running)
    assert station.snapshot("drone")["game"]["state"]["results"] == [
        {"pilots": ["Ana", "Ben"], "reached": 2, "speculations": {"Cas": 1}, "ending": "fall"}]


def test_a_table_with_a_drone_and_a_camera_shares_one_clock_bridge(
        monkeypatch: pytest.MonkeyPatch, station: Station) -> None:
    calls: dict[str, dict[str, Any]] = {}

    def recorder(what: str):  # type: ignore[no-untyped-def]
        def attach(station: Station, table_id: str, where: str, **options: Any) -> int:
            calls[f"{what} {table_id}"] = {"where": where, **options}
            return 0
        return attach

    monkeypatch.setattr(runner.drone, "attach", recorder("drone"))
    monkeypatch.setattr(runner.camera, "attach", recorder("camera"))
    plan = StationPlan(gpio_buttons="t1", drone_calibration="boards.json",
                       archive=Path("/srv/archive"), tables=(
                           TablePlan("t1", camera="0", drone="/dev/ttyACM0"),
                           TablePlan("t2", camera="1")))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=10)
    assert sorted(calls) == ["camera t1", "camera t2", "drone t1"]
    bridge = calls["drone t1"]["bridge"]
    assert isinstance(bridge, ClockBridge) and calls["camera t1"]["bridge"] is bridge
    assert calls["camera t2"]["bridge"] is None
    assert calls["drone t1"]["gpio_buttons"] and calls["drone t1"]["calibration_file"] == (
        "boards.json")
    keeper = calls["camera t2"]["keeper"]
    assert (keeper.table_id, keeper.root) == ("t2", Path("/srv/archive"))


def test_a_failed_source_flags_its_table_is_retried_and_the_others_go_on(
        monkeypatch: pytest.MonkeyPatch, station: Station) -> None:
    """A camera that fails (a full disk, a database held 7 s, a folder gone) is not left
    dead: its table says so in words while it is tried again with back-off, and the flag
    clears once it runs again."""
    monkeypatch.setattr(source_faults, "FIRST_WAIT_S", 0.05)
    monkeypatch.setattr(source_faults, "HEALTHY_S", 0.3)
    failures = iter([OSError(28, "No space left on device"),
                     OperationalError("INSERT", {}, Exception("database is locked"))])
    seen: list[list[dict]] = []
    recovered = threading.Event()

    def flaky(*_args: Any, stop: threading.Event, **_options: Any) -> int:
        seen.append(station.snapshot("t1")["sources"])
        failure = next(failures, None)
        if failure is not None:
            raise failure
        stop.wait(0.6)  # runs well: past HEALTHY_S
        recovered.set()
        return 0

    monkeypatch.setattr(runner.camera, "attach", flaky)
    bet_on_card_1(station)
    plan = StationPlan(tables=(TablePlan("t1", camera="0", drone=SIM_3),))
    with runner.start(plan, station) as running:
        assert recovered.wait(timeout=30)
        assert running.wait(timeout=60)
    assert seen[0] == []
    assert [s[0]["words"] for s in seen[1:]] == [
        "the camera's frames stopped: the disk is full: nothing it sees can be stored until "
        "there is room; retrying in 0.05 s",
        "the camera's frames stopped: the database is locked by another program: waiting for "
        "it; retrying in 0.1 s"]
    assert station.snapshot("t1")["sources"] == []  # recovered: the flag is gone
    assert station.snapshot("t1")["readings"]  # the drone played on


def test_stop_ends_a_source_that_would_run_on(station: Station) -> None:
    plan = StationPlan(tables=(TablePlan("t1", drone="/dev/packref-no-such-port"),))
    running = runner.start(plan, station)  # a port that does not open is tried every 2 s
    assert running.running() == ["drone of table t1"]
    started = time.monotonic()
    assert running.stop(timeout=10) and time.monotonic() - started < 10


def test_the_background_task_stops_its_sources_when_cancelled(station: Station) -> None:
    plan = StationPlan(tables=(TablePlan("t1", drone="/dev/packref-no-such-port"),))

    async def serve_a_moment() -> None:
        task = asyncio.create_task(runner.run(plan, station))
        await asyncio.sleep(0.2)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(asyncio.wait_for(serve_a_moment(), timeout=20))
    assert not any(thread.name.startswith("packref drone") for thread in threading.enumerate())


def test_a_plan_is_checked_as_it_is_made() -> None:
    with pytest.raises(ValueError, match="'t1' is planned twice"):
        StationPlan(tables=(TablePlan("t1", camera="0"), TablePlan("t1", drone="/dev/x")))
    with pytest.raises(ValueError, match="table 't1' has no drone"):
        TablePlan("t1", drone_positions=({"t": 1.0, "card": 0},))


def test_an_uncalibrated_drone_board_says_so_at_its_table(station: Station,
                                                         tmp_path: Path) -> None:
    """A board with no calibration (none in its capture, none in the calibrations file)
    sends loads nobody can weigh: its table says so instead of staying silent."""
    lines = (REPO / "fixtures" / "drone" / "sim-0003.bin").read_bytes().split(b"\n", 2)
    header = json.loads(lines[1])
    uncalibrated = tmp_path / "uncalibrated.bin"
    uncalibrated.write_bytes(b"\n".join([lines[0], json.dumps(
        {**header, "calibration": None}).encode(), lines[2]]))
    bet_on_card_1(station)
    plan = StationPlan(drone_calibration=str(tmp_path / "no-calibrations.json"),
                       tables=(TablePlan("t1", drone=f"replay://{uncalibrated}"),))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=60)
    assert [(s["source"], s["words"]) for s in station.snapshot("t1")["sources"]] == [
        ("calibration", "the drone board 73696d756c617465 is not calibrated: its loads are "
         "not weighed; calibrate it with 'packref drone calibrate'")]
