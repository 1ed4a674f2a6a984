"""The drone source: a committed capture through the link replay, detector, referee and engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devkit.hardware.fixtures import CALIBRATION
from hardware.capture import read_capture
from hardware.events import detect_events
from hardware.paced import PacedBoard
from hardware.samples import Samples
from hardware.simulate import inject_fault, simulate_challenge
from station.live.drone import DroneSource, RecordedButtons, drone_recording, read_positions
from station.live.hub import Hub
from station.live.sources import Timed, hand_on
from station.live.station import Station
from station.store import Database, EventStore, FixedClock
from tests.conftest import REPO

DRONE = REPO / "fixtures" / "drone"
SIM_3 = f"replay://{DRONE / 'sim-0003.bin'}"
# sim-0003: loads, lands (4.835), loads, lands (9.004), loads, a present falls in flight.
POSITIONS_3 = [{"t": 0.5, "card": 0}, {"t": 5.0, "card": 1}, {"t": 9.2, "card": 2}]


def items_of(port: str = SIM_3, **options: Any) -> list[Timed]:
    return list(DroneSource(port, positions=POSITIONS_3, **options))


def drone_table(database: Database, table_id: str = "t1") -> Station:
    """A station with a Pick 'n Packers table whose one speculator (Cas) bet 1."""
    station = Station(EventStore(database, FixedClock()), Hub())
    station.create_table("Drone table", table_id)
    return bet_on_card_1(station, table_id)


def bet_on_card_1(station: Station, table_id: str = "t1") -> Station:
    """Start a Pick 'n Packers game on the table, its one speculator (Cas) betting 1."""
    station.start_game(table_id, "pick-n-packers", ["Ana", "Ben", "Cas"], seed=1, options=None,
                       author="organiser")
    station.observe(table_id, {"kind": "declared", "action": {"type": "speculate", "card": 1}},
                    "declared", "referee")
    return station


def game(station: Station, table_id: str = "t1") -> dict[str, Any]:
    return station.snapshot(table_id)["game"]


def test_the_source_hands_on_the_detectors_events_in_time_order() -> None:
    items = items_of(offset=100.0)
    observations = [item.observation for item in items if item.observation]
    times = [observation["t"] for observation in observations]
    assert times == sorted(times)
    assert [item.t for item in items] == sorted(item.t for item in items)
    batch = detect_events(read_capture(DRONE / "sim-0003.bin").samples)  # the whole at once
    events = [{key: o[key] for key in ("t", "event", "mass_g")} for o in observations
              if o["kind"] == "drone-event"]
    assert [e["event"] for e in events] == [event.event for event in batch]
    # A landing is handed on once the level after it has stood 0.2 s, its mass that
    # level's (the whole stream's level is longer: a tenth of a gram apart at most).
    assert all(abs(e["mass_g"] - event.mass_g) < 0.2
               for e, event in zip(events, batch, strict=True))
    assert all(abs(e["t"] - 100.0 - event.t) < 0.05  # as hardware's own live test allows
               for e, event in zip(events, batch, strict=True))
    assert [e["event"] for e in events] == [
        json.loads(line)["event"] for line in (DRONE / "sim-0003.events.jsonl").open()]
    # Each item waits until the detector is certain past it: no item is handed on before
    # its own time, and a landing within a second of the touch-down (the level after it
    # has stood), not after the 2 s settling.
    assert all(item.t >= item.observation["t"] for item in items if item.observation)
    clocks = [o["t"] for o in observations if o["kind"] == "drone-clock"]
    landings = [e["t"] for e in events if e["event"] == "land"]
    assert clocks == [round(t + 0.55, 3) for t in landings]  # just past the 0.5 s fall window
    handed = {item.observation["t"]: item.t for item in items
              if (item.observation or {}).get("event") == "land"}
    assert all(handed[t] - t < 1.0 for t in landings[:2]), handed  # the last: at the end


def test_a_capture_through_source_referee_and_engine_reaches_two(database: Database) -> None:
    station = drone_table(database)
    for item in items_of():
        hand_on(station, "t1", item, "drone")
    snapshot = station.snapshot("t1")
    (result,) = snapshot["game"]["state"]["results"]
    assert result == {"pilots": ["Ana", "Ben"], "reached": 2, "speculations": {"Cas": 1},
                      "ending": "fall"}
    assert {s["player"]: s["total"] for s in snapshot["game"]["scores"]} == {
        "Ana": 2, "Ben": 2, "Cas": 1}
    assert snapshot["flags"] == [] and snapshot["problems"] == []
    masses = [reading["observation"]["mass_g"] for reading in snapshot["readings"]]
    assert masses[:2] == [22.9, 22.9] and max(masses) == 29.1  # the detector's mass


def test_a_restart_while_a_landing_is_held_rebuilds_the_same_table(database: Database) -> None:
    items = items_of()
    cut = next(index for index, item in enumerate(items)
               if (item.observation or {}).get("event") == "land") + 1
    station = drone_table(database)
    for item in items[:cut]:
        hand_on(station, "t1", item, "drone")
    assert station.table("t1").translator.inner.held[0]["event"] == "land"
    restarted = Station(EventStore(station.store.database, FixedClock()), Hub())
    assert restarted.resume() == ["t1"]
    assert restarted.snapshot("t1") == station.snapshot("t1")
    assert restarted.table("t1").translator.inner.held == station.table("t1").translator.inner.held
    for item in items[cut:]:
        hand_on(restarted, "t1", item, "drone")
    uninterrupted = drone_table(database, "t2")
    for item in items:
        hand_on(uninterrupted, "t2", item, "drone")
    assert game(restarted)["state"] == game(uninterrupted, "t2")["state"]
    assert game(restarted)["state"]["results"][0]["reached"] == 2


def play(station: Station, presses: list[dict]) -> dict[str, Any]:
    """sim-0003 with these button presses at table t1; the round's result."""
    for item in items_of(buttons=RecordedButtons(presses)):
        hand_on(station, "t1", item, "drone")
    (result,) = game(station)["state"]["results"]
    return result


def test_undo_takes_back_a_held_landing_through_the_referee(database: Database) -> None:
    station = drone_table(database)
    # 9.3: inside the second landing's fall window (9.004 + 0.5 s), while it is held.
    result = play(station, [{"t": 9.3, "button": "undo"}, {"t": 11.5, "button": "foul"}])
    assert result["ending"] == "touch" and result["reached"] == 1  # the 2nd landing undone
    events = station.store.events("t1")
    assert "undo" not in [event.kind for event in events]
    assert {"kind": "button", "t": 9.3, "button": "undo"} in [
        event.payload.get("observation") for event in events]


def test_undo_of_an_applied_call_is_the_tables_undo(database: Database) -> None:
    station = drone_table(database)
    result = play(station, [{"t": 8.0, "button": "undo"}])  # the second load is taken back
    assert [event.kind for event in station.store.events("t1")].count("undo") == 1
    assert result["ending"] == "fall" and result["reached"] == 1
    assert station.snapshot("t1")["flags"] == []


def test_a_port_that_cannot_open_is_a_link_error() -> None:
    from hardware.errors import LinkError

    with pytest.raises(LinkError, match="cannot open"):
        items_of("replay:///no/such/capture.bin")


def test_positions_files_are_read_or_refused_with_the_line(tmp_path: Path) -> None:
    good = tmp_path / "positions.jsonl"
    good.write_text('{"t": 6.9, "card": 1}\n\n{"t": 9, "card": 2}\n')
    assert read_positions(good) == [{"t": 6.9, "card": 1}, {"t": 9.0, "card": 2}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"t": 6.9, "card": 1}\n{"t": 7}\n')
    with pytest.raises(ValueError, match="line 2"):
        read_positions(bad)


def test_the_demos_drone_game_is_a_whole_game_of_three_rounds() -> None:
    recording = drone_recording(REPO / "station" / "games" / "pick_n_packers" / "recordings"
                                / "pick-n-packers.drone.json")
    kinds = {item.observation["kind"] for item in recording.items if item.observation}
    assert kinds == {"declared", "drone-event", "drone-position", "drone-clock", "button"}
    times = [item.t for item in recording.items]
    assert times == sorted(times)
    stream = [item.observation["t"] for item in recording.items
              if item.observation and "t" in item.observation]
    assert stream == sorted(stream)  # one clock that runs on from capture to capture
    assert recording.final_scores == {"Ana": 3, "Ben": 4, "Cas": 6}


def test_a_stuck_load_cell_flags_the_table_and_rules_no_load_from_it(
        database: Database, tmp_path: Path) -> None:
    from devkit.hardware.fixtures import CALIBRATION
    from hardware.capture import encode_capture
    from hardware.simulate import inject_fault

    samples = read_capture(DRONE / "sim-0003.bin").samples
    stuck, injected = inject_fault(samples, "load-frozen", 5.5, 1.8)  # the 2nd load, 6.86 s
    capture = tmp_path / "stuck.bin"
    capture.write_bytes(encode_capture(stuck, CALIBRATION))
    station = drone_table(database)
    items = items_of(f"replay://{capture}")
    for item in items:
        hand_on(station, "t1", item, "drone")
    observations = [item.observation for item in items if item.observation]
    faults = [o for o in observations if o.get("event", "").startswith("fault")]
    assert [(o["event"], o["sensor"]) for o in faults] == [
        ("fault", "load-cell"), ("fault-cleared", "load-cell")]
    assert faults[0]["t"] == pytest.approx(injected.start, abs=0.02)
    loads = [o["t"] for o in observations if o.get("event") == "load"]
    assert not any(injected.start <= t <= injected.end for t in loads)
    (flag,) = station.snapshot("t1")["flags"]
    assert flag["reason"].startswith("drone sensor fault: load-cell: reading frozen at ")
    assert flag["reason"].endswith("judge by eye")
    (result,) = game(station)["state"]["results"]
    assert result["reached"] == 1  # the landing on card 2 had no load the drone could see


# -- the live path in the stream's clock: a board written to loop:// as the source reads ---------
def flags_in_stream_time(station: Station, samples: Samples) -> tuple[list[Timed], list]:
    """Play ``samples`` through the real live path (``loop://`` link, frames, live detector,
    source, referee, table), the board writing 0.05 s of stream per read of the source;
    the items handed on, and (stream time carried when it was raised, reason) of each
    flag the table raised."""
    board = PacedBoard(samples, CALIBRATION)
    source = DroneSource("loop://", positions=POSITIONS_3, calibration=CALIBRATION,
                         link=board.link(), monotonic=board.monotonic, stop=board.stop)
    items, flags = [], []
    for item in source:
        hand_on(station, "t1", item, "drone")
        items.append(item)
        raised = station.snapshot("t1")["flags"]
        flags += [(board.written, flag["reason"]) for flag in raised[len(flags):]]
    return items, flags


@pytest.mark.parametrize(("kind", "start", "seconds"), [
    ("load-frozen", 5.5, 1.8),    # the slowest to be sure of: 1.0 s of one reading
    ("imu-zeros", 11.0, 2.0),
    ("link-stall", 7.5, 1.5),     # seen live from the port's silence
])
def test_a_fault_is_flagged_at_the_table_within_1_5_s_of_stream(
        station: Station, kind: str, start: float, seconds: float) -> None:
    stuck, injected = inject_fault(read_capture(DRONE / "sim-0003.bin").samples, kind, start,
                                   seconds)
    _, flags = flags_in_stream_time(bet_on_card_1(station), stuck)
    faults = [(at, reason) for at, reason in flags if reason.startswith("drone sensor fault")]
    assert faults, flags
    carried, reason = faults[0]
    assert reason.startswith(f"drone sensor fault: {injected.sensor}: ")
    assert carried - injected.start <= 1.5  # docs/contracts.md §7, in the stream's own clock
    assert carried >= injected.start  # not flagged before it began either


def test_a_healthy_stream_of_the_same_length_flags_nothing(station: Station) -> None:
    items, flags = flags_in_stream_time(bet_on_card_1(station),
                                        read_capture(DRONE / "sim-0003.bin").samples)
    observations = [item.observation for item in items if item.observation]
    assert flags == []
    assert not [o for o in observations if o.get("event", "").startswith("fault")]
    assert [o["event"] for o in observations if o["kind"] == "drone-event"] == [
        json.loads(line)["event"] for line in (DRONE / "sim-0003.events.jsonl").open()]


# -- stream time order: what the detector finds late still comes before what followed it ------
def played_in_stream_time(samples: Samples, positions: list[dict]) -> list[Timed]:
    """``samples`` through the real live path (``loop://`` board writing 0.05 s of stream
    per read, link, frames, live detector, source), with camera ``positions``."""
    board = PacedBoard(samples, CALIBRATION)
    source = DroneSource("loop://", positions=positions, calibration=CALIBRATION,
                         link=board.link(), monotonic=board.monotonic, stop=board.stop)
    return list(source)


@pytest.mark.parametrize("seed", [5, 29, 85])  # a present falls early in a flight of ~3 s
def test_a_drop_found_late_in_a_long_flight_comes_before_the_later_positions(
        seed: int, caplog: pytest.LogCaptureFixture) -> None:
    run = simulate_challenge(seed)
    every_quarter = [{"t": round(0.25 * step, 2), "card": step % 10}
                     for step in range(int(run.samples.t[-1] * 4))]
    items = played_in_stream_time(run.samples, every_quarter)
    observations = [item.observation for item in items if item.observation]
    times = [observation["t"] for observation in observations]
    assert times == sorted(times)
    (true_drop,) = [event for event in run.truth if event["event"] == "drop"]
    drops = [o for o in observations if o.get("event") == "drop"]
    assert [round(o["t"]) for o in drops] == [round(true_drop["t"])]
    flights = [o["event"] for o in observations if o.get("event") in ("lift", "land")]
    assert flights == ["lift", "land"] * (len(flights) // 2)  # each lift before its landing
    assert "came after" not in caplog.text  # in order as found, not put back in order


def test_a_position_stamped_long_ago_is_handed_on_at_the_last_time_and_counted(
        caplog: pytest.LogCaptureFixture) -> None:
    source = DroneSource(SIM_3, positions=POSITIONS_3)
    observations = []
    for item in source:
        observations.append(item.observation)
        if len(observations) == 3:  # the camera's thread stamps a sight from long before
            source.add_position({"kind": "drone-position", "t": 0.1, "card": 7})
    times = [observation["t"] for observation in observations]
    assert times == sorted(times)
    (late,) = [o for o in observations if o.get("card") == 7]
    assert late["t"] == observations[2]["t"] > 0.1
    assert source.handed_late == 1
    assert "came after" in caplog.text
