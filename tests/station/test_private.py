"""The data directory and what the station keeps in it are readable by their owner only."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from station.appliance.archive import _write_jpeg
from station.catalogue.files import CopyFolder
from station.config import load_settings
from station.private import private_dir, private_file
from station.store import open_database
from station.store.spool import Spool


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(params=[0o022, 0o277])
def umask(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """A usual umask (022: everything readable by all), then one that takes the owner's
    own bits too: the modes are the same under both."""
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    before = os.umask(request.param)
    yield request.param
    os.umask(before)


def test_a_new_station_keeps_its_folders_and_database_for_its_owner(tmp_path: Path,
                                                                    umask: int) -> None:
    data = tmp_path / "events" / "data"
    settings = load_settings(data)
    database = open_database(settings.database_url)
    try:
        with database.engine.begin() as connection:  # a write: the WAL and its index appear
            connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS probe (n INTEGER)")
            connection.exec_driver_sql("INSERT INTO probe VALUES (1)")
        assert {path.name for path in data.iterdir()} >= {"packref.sqlite3-wal",
                                                          "packref.sqlite3-shm"}
        for folder in (tmp_path / "events", data, data / "logs", data / "calibration"):
            assert mode(folder) == 0o700, folder
        for name in ("packref.sqlite3", "packref.sqlite3-wal", "packref.sqlite3-shm"):
            assert mode(data / name) == 0o600, name
    finally:
        database.close()


def test_the_spool_the_photos_and_the_catalogues_are_the_owners_only(tmp_path: Path,
                                                                     umask: int) -> None:
    spool = Spool(tmp_path / "data" / "hub-spool.sqlite3")
    assert mode(spool.path) == 0o600 and mode(spool.path.parent) == 0o700
    photo = tmp_path / "data" / "archive" / "frames" / "t1" / "000001" / "000007.jpg"
    _write_jpeg(photo, np.zeros((8, 8, 3), np.uint8), 85)
    assert mode(photo) == 0o600
    assert [mode(folder) for folder in photo.parents[:4]] == [0o700] * 4
    copies = CopyFolder(tmp_path / "data" / "catalogues", ["moving-day"])
    copies.save("moving-day", {"game": "moving-day"})
    assert mode(copies.folder) == 0o700 and mode(copies.path("moving-day")) == 0o600


def test_a_looser_data_directory_and_database_are_tightened_saying_so_once(
        tmp_path: Path, umask: int, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    data.mkdir()
    open_database(load_settings(data).database_url).close()  # a station's database ...
    capsys.readouterr()
    data.chmod(0o755)  # ... loosened since (an empty file is refused: not a database)
    (data / "packref.sqlite3").chmod(0o644)
    open_database(load_settings(data).database_url).close()
    assert mode(data) == 0o700 and mode(data / "packref.sqlite3") == 0o600
    said = capsys.readouterr().err.splitlines()
    assert said == [f"packref: {data}: was readable by others (755): now owner-only (700)",
                    f"packref: {data / 'packref.sqlite3'}: was readable by others (644): "
                    "now owner-only (600)"]
    open_database(load_settings(data).database_url).close()
    assert capsys.readouterr().err == ""  # once


def test_a_shared_folder_is_named_and_left_as_it_is(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "tmp"
    shared.mkdir()
    shared.chmod(0o1777)  # as /tmp: closing it would lock everyone else out
    private_dir(shared)
    assert mode(shared) == 0o1777
    assert "left as it is" in capsys.readouterr().err


def test_a_private_file_is_made_empty_and_an_existing_one_keeps_its_content(
        tmp_path: Path, umask: int) -> None:
    made = private_file(tmp_path / "new")
    assert made.read_bytes() == b"" and mode(made) == 0o600
    kept = tmp_path / "kept"
    kept.write_text("record")
    kept.chmod(0o664)
    assert private_file(kept).read_text() == "record" and mode(kept) == 0o600


def test_a_data_directory_that_is_a_file_is_one_line(tmp_path: Path, cli) -> None:
    (tmp_path / "data").write_text("not a folder")
    result = cli("table", "add", "T", "--data", tmp_path / "data")  # a command that makes it
    result.assert_bad_input(f"--data: cannot make {tmp_path / 'data'}:")
