"""A planned station started without the command line: each table's drone and camera in a
thread, a clock bridge between the two of one table, failures told, stop() stops them."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from station.live import runner
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


def test_a_failed_source_is_told_and_the_others_go_on(
        monkeypatch: pytest.MonkeyPatch, station: Station,
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_args: Any, **_options: Any) -> int:
        raise RuntimeError("the camera fell off")

    monkeypatch.setattr(runner.camera, "attach", broken)
    bet_on_card_1(station)
    plan = StationPlan(tables=(TablePlan("t1", camera="0", drone=SIM_3),))
    with runner.start(plan, station) as running:
        assert running.wait(timeout=60)
    assert capsys.readouterr().err == (
        "packref: the camera of table t1 stopped (see logs/station.log)\n")
    assert [record.getMessage() for record in caplog.records if record.name == "packref"] == [
        "the camera of table t1 stopped"]
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
