"""``packref drone events|record|simulate`` (docs/formats.md §7)."""

from __future__ import annotations

import json

import pytest

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
