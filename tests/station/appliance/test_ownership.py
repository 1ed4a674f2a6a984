"""One process owns each camera: a second station asking for it is refused, naming the owner."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from station.appliance.ownership import (
    CameraBusy,
    CameraOwnership,
    camera_owner,
    own_cameras,
)
from tests.conftest import REPO

HOLD = """
import sys, time
from pathlib import Path
from station.appliance.ownership import own_cameras
held = own_cameras({"t1": "0"}, "packref serve (data /srv/first)", Path(sys.argv[1]))
print("owned", flush=True)
time.sleep(60)
"""


@pytest.fixture
def owner(tmp_path: Path, monkeypatch):
    """Another process that owns camera 0 (the run directory is a temporary one)."""
    run = tmp_path / "run"
    monkeypatch.setenv("PACKREF_RUN_DIR", str(run))
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=REPO,
                               stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert process.stdout.readline().strip() == "owned"
    yield process
    process.kill()
    process.wait(timeout=10)


def test_a_second_station_is_refused_naming_the_owner(cli, tmp_path: Path, owner) -> None:
    result = cli("serve", "--data", str(tmp_path / "second"), "--port", "0",
                 "--camera", "t1=0")
    assert result.status == 2 and result.stdout == ""
    assert result.stderr.startswith(
        f"--camera: table 't1': camera 0 is owned by packref serve (data /srv/first) "
        f"(pid {owner.pid}, since ")
    assert len(result.stderr.splitlines()) == 1
    assert camera_owner("0").startswith("packref serve (data /srv/first)")


def test_the_station_file_s_camera_is_refused_the_same_way(cli, tmp_path: Path, owner) -> None:
    data = tmp_path / "second"
    data.mkdir()
    (data / "station.toml").write_text("port = 0\n[cameras]\ntable-9 = 0\n")
    result = cli("serve", "--data", str(data))
    assert result.status == 2
    assert f"table 'table-9': camera 0 is owned by packref serve (data /srv/first) (pid " \
           f"{owner.pid}" in result.stderr


def test_a_dead_owner_leaves_the_camera_free(tmp_path: Path, owner, monkeypatch) -> None:
    owner.kill()
    owner.wait(timeout=10)
    assert camera_owner("0") is None  # its file is there, its lock is not
    held = own_cameras({"t1": "0"}, "the next station", tmp_path)
    lock = json.loads((tmp_path / "run" / "camera-0.lock").read_text())
    assert lock["pid"] == os.getpid() and lock["name"] == "the next station"
    held[0].release()


def test_replays_need_no_owner_and_a_refusal_releases_what_was_taken(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PACKREF_RUN_DIR", str(tmp_path))
    assert own_cameras({"t1": str(tmp_path)}, "station", tmp_path) == []
    first = CameraOwnership.take("1", "first station", tmp_path)
    with pytest.raises(CameraBusy, match="table 't2': camera 1 is owned by first station"):
        own_cameras({"t1": "0", "t2": "1"}, "second station", tmp_path)
    again = CameraOwnership.take("0", "third station", tmp_path)  # camera 0 was let go
    again.release()
    first.release()
