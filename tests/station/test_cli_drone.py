"""``packref drone events|record|simulate`` (docs/formats.md §7)."""

from __future__ import annotations

import json

import pytest

from hardware.samples import read_csv
from tests.conftest import FIXTURES

DRONE = FIXTURES / "drone"
HEADER = "t,force_g,ax,ay,az,gx,gy,gz"


def read_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", ["sim-0001", "sim-0002", "sim-0003", "sim-0004"])
def test_events_of_the_fixture_csvs(cli, name: str) -> None:
    result = cli("drone", "events", DRONE / f"{name}.csv")
    assert result.status == 0, result.stderr
    assert result.json_lines() == read_lines(DRONE / f"{name}.events.jsonl")


@pytest.mark.parametrize("name", ["sim-0001", "sim-0003"])
def test_events_of_a_capture_match_the_truth(cli, name: str) -> None:
    result = cli("drone", "events", DRONE / f"{name}.bin")
    assert result.status == 0, result.stderr
    events, truth = result.json_lines(), read_lines(DRONE / f"{name}.truth.jsonl")
    assert [e["event"] for e in events] == [e["event"] for e in truth]
    for found, true in zip(events, truth, strict=True):
        assert found["t"] == pytest.approx(true["t"], abs=0.1)
        assert found["mass_g"] == pytest.approx(true["mass_g"], abs=0.3)


def test_event_lines_have_exactly_the_contract_fields(cli) -> None:
    events = cli("drone", "events", DRONE / "sim-0003.csv").json_lines()
    assert events and all(list(event) == ["t", "event", "mass_g"] for event in events)
    assert [event["t"] for event in events] == sorted(event["t"] for event in events)
    assert {event["event"] for event in events} == {"load", "lift", "land", "drop"}


def test_a_frozen_load_cell_is_a_fault_line_not_a_load(cli, tmp_path) -> None:
    from hardware.samples import read_csv
    from hardware.simulate import inject_fault

    samples = read_csv(DRONE / "sim-0002.csv")
    truth = read_lines(DRONE / "sim-0002.truth.jsonl")
    load = next(event for event in truth if event["event"] == "load" and event["t"] > 3)
    stuck, injected = inject_fault(samples, "load-frozen", load["t"] - 1.0, 2.5)
    path = tmp_path / "stuck.csv"
    path.write_text(stuck.to_csv(digits=3), encoding="utf-8")
    events = cli("drone", "events", path).json_lines()
    faults = [event for event in events if event["event"].startswith("fault")]
    assert faults == [
        {"t": pytest.approx(injected.start, abs=0.011), "event": "fault", "sensor": "load-cell",
         "reason": faults[0]["reason"]},
        {"t": pytest.approx(injected.end, abs=0.011), "event": "fault-cleared",
         "sensor": "load-cell"}]
    assert faults[0]["reason"].startswith("reading frozen at ")
    inside = [event for event in events if event["event"] in ("load", "drop")
              and injected.start <= event["t"] <= injected.end]
    assert inside == []
    assert [event["t"] for event in events] == sorted(event["t"] for event in events)


@pytest.mark.parametrize(("content", "message"), [
    ("t,force,ax\n1,2,3\n", "line 1: header must be"),
    (HEADER + "\n0,1,0,0,9.8,0,0,0\n0.01,1,0,zero,9.8,0,0,0\n", "line 3: field ay: not a number"),
    (HEADER + "\n0,1,0,0,9.8,0,0,0\n0,1,0,0,9.8,0,0,0\n", "line 3: field t: must rise"),
    (HEADER + "\n", "no samples"),
])
def test_bad_csv_is_exit_2_with_one_line_naming_file_and_place(cli, tmp_path, content,
                                                                message) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    result = cli("drone", "events", path)
    assert result.status == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"{path}: ") and message in result.stderr


def test_bad_capture_and_missing_file_are_exit_2(cli, tmp_path) -> None:
    capture = tmp_path / "cut.bin"
    capture.write_bytes((DRONE / "sim-0001.bin").read_bytes()[:40])
    result = cli("drone", "events", capture)
    assert result.status == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{capture}: line 2:")
    binary = tmp_path / "random.dat"
    binary.write_bytes(b"\x00\x01\x02garbage")
    result = cli("drone", "events", binary)
    assert result.status == 2 and "neither a sample CSV nor" in result.stderr
    result = cli("drone", "events", tmp_path / "absent.csv")
    assert result.status == 2 and "no such file" in result.stderr


def test_simulate_writes_samples_and_prints_the_truth(cli, tmp_path) -> None:
    out = tmp_path / "run.csv"
    result = cli("drone", "simulate", "--seed", "4", "--out", out)
    assert result.status == 0
    truth = result.json_lines()
    assert truth[0]["event"] == "load"
    assert out.read_text(encoding="utf-8").startswith(HEADER + "\n")
    capture = tmp_path / "run.bin"
    assert cli("drone", "simulate", "--seed", "4", "--out", capture, "--capture").status == 0
    from_csv = cli("drone", "events", out).json_lines()
    from_capture = cli("drone", "events", capture).json_lines()
    assert [e["event"] for e in from_csv] == [e["event"] for e in from_capture]


def test_record_from_a_replayed_capture(cli, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PACKREF_CALIBRATION", str(tmp_path / "calibration.json"))
    out = tmp_path / "recorded.bin"
    result = cli("drone", "record", "--port", f"replay://{DRONE / 'sim-0001.bin'}",
                 "--out", out, "--seconds", "1")
    assert result.status == 0, result.stderr
    summary = result.json()
    assert summary["frames"] > 1000 and summary["calibrated"] is False
    assert out.read_bytes().startswith(b"PACKREF-DRONE-CAPTURE 1\n")


def test_record_from_a_missing_port_is_exit_2(cli, tmp_path) -> None:
    result = cli("drone", "record", "--port", "/dev/no-such-drone", "--out", tmp_path / "x.bin")
    assert result.status == 2
    assert result.stderr.startswith("--port /dev/no-such-drone: cannot open")
    result = cli("drone", "record", "--port", "loop://", "--out", tmp_path / "x.bin",
                 "--seconds", "0")
    assert result.status == 2 and "--seconds" in result.stderr


def test_calibrate_checks_its_arguments_and_port(cli, tmp_path) -> None:
    result = cli("drone", "calibrate", "--port", "loop://", "--mass", "-5")
    assert result.status == 2 and result.stderr.startswith("--mass: must be more than 0")
    result = cli("drone", "calibrate", "--port", "/dev/no-such-drone",
                 "--calibration", tmp_path / "c.json")
    assert result.status == 2 and result.stderr.startswith("--port /dev/no-such-drone: cannot")
    assert not (tmp_path / "c.json").exists()


def _with_values(path, rows: dict[int, dict[str, str]]) -> str:
    """The CSV at ``path`` with some fields of some sample rows (from 0) replaced."""
    lines = path.read_text(encoding="utf-8").splitlines()
    columns = HEADER.split(",")
    for row, values in rows.items():
        fields = lines[row + 1].split(",")
        for name, value in values.items():
            fields[columns.index(name)] = value
        lines[row + 1] = ",".join(fields)
    return "\n".join(lines) + "\n"


def _near(path, t: float) -> int:
    return int(abs(read_csv(path).t - t).argmin())


def test_impossible_load_spikes_are_a_load_cell_fault_never_a_reading(cli, tmp_path) -> None:
    """1e308 g spikes around a load made every mass 0.0 g (the spikes swamped the means)
    and no fault was said; now they are the load cell's fault, and the rest is read."""
    source = DRONE / "sim-0002.csv"
    clean = cli("drone", "events", source).json_lines()
    load = next(event for event in clean if event["event"] == "load" and event["t"] > 3)
    at = _near(source, load["t"])
    path = tmp_path / "spikes.csv"
    path.write_text(_with_values(source, {at + k: {"force_g": "1e308"} for k in (-5, 0, 5)}),
                    encoding="utf-8")
    result = cli("drone", "events", path)
    assert result.status == 0, result.stderr
    assert result.stderr == ""
    events = result.json_lines()
    faults = [event for event in events if event["event"].startswith("fault")]
    assert [(f["event"], f["sensor"]) for f in faults] == [("fault", "load-cell"),
                                                           ("fault-cleared", "load-cell")]
    assert faults[0]["reason"] == ("force_g reads 1e+308 g, beyond anything the sensor can "
                                   "read (±100000 g)")
    assert faults[0]["t"] <= load["t"] <= faults[1]["t"] + 0.5
    readings = [event for event in events if "mass_g" in event]
    assert all(0 < event["mass_g"] < 1000 for event in readings)
    # No load is inferred inside the fault (formats §7); every other event stands, at its
    # time, and once the next load is seen the masses are the clean stream's again.
    assert [(e["t"], e["event"]) for e in readings] == [
        (e["t"], e["event"]) for e in clean if e is not load]
    next_load = next(e for e in clean if e["event"] == "load" and e["t"] > load["t"])
    assert [e for e in readings if e["t"] >= next_load["t"]] == [
        e for e in clean if e["t"] >= next_load["t"]]


@pytest.mark.parametrize(("values", "sensor", "reason"), [
    ({"force_g": "nan"}, "load-cell", "force_g is not a number"),
    ({"force_g": "-inf"}, "load-cell", "force_g reads -inf g"),
    ({"az": "inf"}, "imu", "az reads inf m/s²"),
    ({"gx": "1e30"}, "imu", "gx reads 1e+30 °/s"),
])
def test_not_a_number_and_infinity_are_the_sensors_fault(cli, tmp_path, values, sensor,
                                                         reason) -> None:
    source = DRONE / "sim-0001.csv"
    path = tmp_path / "odd.csv"
    path.write_text(_with_values(source, {700: values, 701: values}), encoding="utf-8")
    result = cli("drone", "events", path)
    assert result.status == 0, result.stderr
    faults = [event for event in result.json_lines() if event["event"] == "fault"]
    assert [fault["sensor"] for fault in faults] == [sensor]
    assert faults[0]["reason"].startswith(reason)
    assert faults[0]["t"] == pytest.approx(float(read_csv(source).t[700]), abs=0.001)


def test_a_time_that_is_not_a_number_is_still_bad_input(cli, tmp_path) -> None:
    path = tmp_path / "t.csv"
    path.write_text(_with_values(DRONE / "sim-0001.csv", {3: {"t": "nan"}}), encoding="utf-8")
    result = cli("drone", "events", path)
    assert result.status == 2
    assert result.stderr.strip() == f"{path}: line 5: field t: must be finite"
