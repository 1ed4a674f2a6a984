"""The demo from an installed wheel: the same recorded games as a checkout, camera and drone
tables included (the recordings are package data, not files beside the source tree)."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from station.demo.recordings import MissingRecording, demo_recordings
from station.live.station import Station
from station.store import EventStore, open_database
from tests.conftest import REPO

# development tooling kept out of the wheel (devkit/), by the paths it had in the product
DEVELOPMENT_MODULES = ("vision/realistic.py", "vision/fixture_sets.py",
                       "hardware/simulate_platform.py", "hardware/evaluation.py",
                       "hardware/fixtures.py", "station/catalogue/rehearsal.py")


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    finished = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                              **kwargs)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return finished


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel built from this checkout; its dependencies are the
    shared environment's (a path line, so that environment's editable packref stays out)."""
    pytest.importorskip("setuptools", minversion="77")  # the build backend, offline
    root = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", REPO, "--no-deps", "--no-build-isolation",
         "-w", root / "dist", "-q"], timeout=300)
    wheel = next((root / "dist").glob("packref-*.whl"))
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], timeout=120)
    python = venv / "bin" / "python"
    packages = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
                        ).stdout.strip())
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "-q", wheel], timeout=300, env=clean_environment())  # PYTHONPATH: the checkout
    (packages / "shared-dependencies.pth").write_text(  # after the install: pip would see
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8")  # the shared packref
    return venv


def clean_environment() -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environment["PACKREF_TOKEN"] = "demo-test"
    return environment


def test_the_installed_package_is_the_wheel_not_the_checkout(installed: Path) -> None:
    where = run([installed / "bin" / "python", "-c", "import station; print(station.__file__)"],
                cwd=installed, env=clean_environment()).stdout.strip()
    assert Path(where).is_relative_to(installed)


def test_the_wheel_holds_the_product_and_no_development_tooling(installed: Path) -> None:
    wheel = next((installed.parent / "dist").glob("packref-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "station/cli/__init__.py" in names
    assert "station/store/migrations/versions/0001_initial.py" in names  # the schema's steps
    assert not [name for name in names if name.split("/")[0] == "devkit"]
    assert not names & set(DEVELOPMENT_MODULES)


def test_the_demo_runs_from_the_wheel_with_its_camera_and_drone_tables(installed: Path,
                                                                       tmp_path: Path) -> None:
    data = tmp_path / "data"
    finished = run([installed / "bin" / "packref", "demo", "--once", "--port", "0", "--speed",
                    "400", "--data", data], cwd=tmp_path, env=clean_environment(), timeout=300)
    summary = json.loads(finished.stdout.splitlines()[-1])
    assert sorted(summary["tables"]) == ["demo-moving-day", "demo-pick-n-packers",
                                         "demo-removal", "demo-small-warehouse"]
    assert summary["games"] == 4
    database = open_database(f"sqlite:///{data / 'packref.sqlite3'}")
    station = Station(EventStore(database))
    recorded = {f"demo-{r.game}": r for r in demo_recordings(data_dir=tmp_path / "frames")}
    kinds = {"demo-pick-n-packers": "drone-event", "demo-small-warehouse": "warehouses",
             "demo-moving-day": "vehicles", "demo-removal": "trucks"}
    for table_id, kind in kinds.items():
        snapshot = station.snapshot(table_id)
        assert snapshot["game"]["over"], table_id
        scores = {s["player"]: s["total"] for s in snapshot["game"]["scores"]}
        assert scores == recorded[table_id].final_scores, table_id
        seen = {e.payload["observation"]["kind"] for e in station.store.events(table_id)
                if e.kind == "observation"}
        assert kind in seen, (table_id, seen)  # played by the camera or the drone
    database.close()
    assert any((data / "camera" / "removal").glob("*.jpg"))  # frames rendered from the wheel


def test_a_missing_recording_is_an_error_not_a_made_up_game(tmp_path: Path) -> None:
    for path in REPO.glob("station/games/*/recordings/*.jsonl"):
        if not path.name.startswith("removal"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    with pytest.raises(MissingRecording, match=r"removal\.jsonl: no demo recording of removal"):
        demo_recordings(tmp_path)
