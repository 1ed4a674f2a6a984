"""benchmarks/drone_apart.py: its challenges are what they claim, and one runs end to end.

Skipped when the real recordings are absent (they are read from the shared folder beside
the checkout, or from ``PACKREF_DRONE_REAL``, never copied into the project)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("PACKREF_DRONE_REAL", ROOT.parent / "shared" / "data" / "drone-real"))


def _load_bench():
    spec = importlib.util.spec_from_file_location(
        "drone_apart_bench", ROOT / "benchmarks" / "drone_apart.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


bench = _load_bench()
needs_data = pytest.mark.skipif(not (DATA / "README.md").is_file(),
                                reason=f"no real recordings at {DATA}")


@pytest.fixture(scope="module")
def recordings():
    return bench.load_recordings(DATA)


def _challenge_with(recordings, note: str, seeds=range(60)):
    for seed in seeds:
        challenge = bench.compose(recordings, seed)
        if note in challenge.notes:
            return challenge
    raise AssertionError(f"no challenge with {note!r} in seeds {seeds}")


@needs_data
def test_events_are_labelled_where_the_recordings_show_them(recordings) -> None:
    # x-io: lifted at ~14.0 s (the hand's grasp before it moves nothing up), set down at 57.84
    assert 13.9 < recordings.xio_lift < 14.2
    assert 57.80 < recordings.xio_land < 57.90
    assert 94.50 < recordings.xio_soft_land < 94.60  # the hand-held tremor stops there
    for name in ("zplus", "zminus"):
        assert 1.40 < recordings.ncsu_lift[name] < 1.70
        assert 2.30 < recordings.ncsu_land[name] < 2.50


@needs_data
def test_a_challenge_is_a_valid_stream_with_its_truth_inside(recordings) -> None:
    challenge = bench.compose(recordings, 3)
    lines = challenge.csv().splitlines()
    assert lines[0] == "t,force_g,ax,ay,az,gx,gy,gz"
    assert np.all(np.diff(challenge.t) > 0)
    times = [event.t for event in challenge.truth]
    assert times == sorted(times)
    assert challenge.t[0] < times[0] and times[-1] < challenge.t[-1]
    assert bench.compose(recordings, 3).csv() == challenge.csv()  # seeded


@needs_data
def test_a_placed_present_reads_its_mass_at_rest(recordings) -> None:
    checked = 0
    for seed in range(20):
        challenge = bench.compose(recordings, seed)
        for event in challenge.truth:
            quiet = (event.t + 0.4, event.t + 1.4)
            if event.event != "load" or any(quiet[0] - 0.5 < other.t < quiet[1]
                                            for other in challenge.truth if other is not event):
                continue
            inside = (challenge.t > quiet[0]) & (challenge.t < quiet[1])
            assert abs(np.median(challenge.force[inside]) - event.mass_g) < 0.3, (seed, event)
            checked += 1
    assert checked >= 10


def test_the_load_cell_reads_the_normal_force_of_platform_and_presents() -> None:
    # level for a second (the tare), then tilted 60 degrees: the platform's own weight,
    # tared away level, no longer balances, so the reading falls below mass x cos 60
    t = np.arange(0, 4, 0.005)
    acc = np.zeros((len(t), 3))
    acc[:, 2] = np.where(t < 2.0, bench.G, bench.G * 0.5)
    forces = bench.Forces(steps=[(1.0, 1.1, 20.0)])

    class Recordings:  # noiseless readings at 10 SPS, as from a perfect HX711
        steady = startup = bench.LoadLog(np.arange(0, 100, 0.1), np.zeros(1000))

    class Draws:  # the seeded draws, but neither 80 SPS nor from power-up
        def __init__(self) -> None:
            self.rng = np.random.default_rng(1)

        def random(self) -> float:
            return 0.99

        def __getattr__(self, name: str):
            return getattr(self.rng, name)

    rng = Draws()
    recordings = Recordings()
    force = bench.load_cell_rows(t, acc, forces, recordings, rng, [])
    assert abs(np.median(force[(t > 1.5) & (t < 1.9)]) - 20.0) < 1e-6
    tilted = np.median(force[(t > 2.5) & (t < 3.9)])
    assert 10.0 - 0.5 * 12 <= tilted <= 10.0 - 0.5 * 3  # platform 3-12 g


@needs_data
@pytest.mark.parametrize(("note", "sensor"), [("load-cell frozen", "load-cell"),
                                              ("imu zeros", "imu"), ("imu frozen", "imu"),
                                              ("link", "link")])
def test_an_injected_fault_is_in_the_stream(recordings, note: str, sensor: str) -> None:
    challenge = _challenge_with(recordings, note)
    fault = next(event for event in challenge.truth if event.event == "fault")
    assert fault.sensor == sensor
    inside = (challenge.t >= fault.t) & (challenge.t < fault.end)
    if note == "load-cell frozen":
        assert np.ptp(challenge.force[inside]) == 0 and fault.end - fault.t >= 1.0
    elif note == "imu zeros":
        assert not challenge.acc[inside].any() and not challenge.gyro[inside].any()
    elif note == "imu frozen":
        assert np.ptp(challenge.acc[inside], axis=0).max() == 0
        assert inside.sum() > 100
    else:
        after = int(np.searchsorted(challenge.t, fault.t)) + 1
        assert challenge.t[after] - fault.t >= 0.5


@needs_data
def test_one_challenge_runs_through_the_real_cli_and_is_scored(tmp_path) -> None:
    figures = bench.run(DATA, seed=0, count=1, dump=tmp_path)
    json.dumps(figures)
    assert figures["cli_failed_seeds"] == []
    kept = json.loads((tmp_path / "challenge-0.truth.json").read_text())
    assert kept["seed"] == 0 and len(kept["truth"]) >= 3
    assert (tmp_path / "challenge-0.csv").read_text() == bench.compose(
        bench.load_recordings(DATA), 0).csv()
    assert figures["count"] == 1
    assert sum(row["truth"] for row in figures["kinds"].values()) >= 3
    for row in figures["kinds"].values():
        assert 0 <= row["found"] <= row["truth"]
    assert figures["cpu_per_challenge_s"] > 0


def test_without_the_recordings_it_skips_with_a_message(tmp_path, capsys) -> None:
    assert bench.main(["--data", str(tmp_path / "absent"), "--count", "1"]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "skipped, no recordings at" in captured.err


@needs_data
def test_a_challenge_the_cli_fails_on_is_named_and_scored_as_nothing_found(monkeypatch) -> None:
    monkeypatch.setattr(bench, "packref_main", lambda argv: 1)
    figures = bench.run(DATA, seed=0, count=1)
    assert figures["cli_failed_seeds"] == [0]
    assert all(row["found"] == 0 and row["false"] == 0 for row in figures["kinds"].values())
    assert sum(row["truth"] for row in figures["kinds"].values()) >= 3
