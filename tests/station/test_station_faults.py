"""Short runs of ``benchmarks/station_faults.py``: a real ``packref serve`` killed with
SIGKILL mid-burst loses and doubles nothing, and a camera game goes on through a held
database and a full disk and ends as it would have without them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from tests.conftest import REPO

BENCHMARK = REPO / "benchmarks" / "station_faults.py"


def run_benchmark(*options: str, timeout: float = 240) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run([sys.executable, str(BENCHMARK), *options], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    return done.returncode, json.loads(lines[-1]), done.stderr


def test_a_station_killed_mid_burst_keeps_every_acknowledged_reading_once() -> None:
    status, figures, said = run_benchmark("--kills", "--kill-count", "1", "--writes", "40",
                                          "--clients", "4", "--tables", "2")
    kills = figures["kills"]
    assert kills["kills"] == 1 and kills["starts"] == 2, said
    assert kills["unanswered"] == 0 and kills["refused"] == {}
    assert kills["acknowledged"] == kills["sent"] == 40
    assert kills["stored_once"] == 40
    assert kills["stored_twice_or_more"] == kills["missing"] == 0
    assert kills["stored_never_sent"] == kills["half_written"] == 0
    assert kills["answers_match_record"]
    assert kills["resent_with_another_answer"] == 0  # each key answered with its first answer
    assert status == 0 and kills["sound"]
    assert "kill -9 x1 mid-burst: 40 readings sent" in said


@pytest.mark.skipif(os.geteuid() != 0, reason="filling a disk for real mounts a tmpfs (root)")
def test_a_camera_game_goes_on_through_a_held_database_and_a_full_disk() -> None:
    status, figures, said = run_benchmark("--camera", "--lock-seconds", "7",
                                          "--full-seconds", "3")
    camera = figures["camera"]
    assert set(camera["faults_at_s"]) == {"lock", "full"}, said
    assert any("database is locked" in words for words in camera["flagged_while_locked"])
    assert any("disk is full" in words for words in camera["flagged_while_full"])
    assert all(words.startswith("the camera's frames stopped: ") for _, words in camera["flags"])
    health = [line for line in camera["health_said"] if line.startswith("table cam: camera: ")]
    assert any("database is locked" in line for line in health)  # the health page too
    assert any("disk is full" in line for line in health)
    assert camera["record_whole"]
    assert camera["faulty"]["over"] and camera["faulty"] == camera["plain"]
    assert camera["faulty"]["scores"] == {"Ana": 0, "Ben": 0}  # the recording's final scores
    assert camera["flag_cleared"]
    assert status == 0 and camera["sound"]
