"""Fixtures of the station's tests: the toy game, databases (SQLite, PostgreSQL), services."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import registry
from station.config import AdviceSettings, Settings, TokenCheck, hash_token
from station.store import Database, FixedClock, open_database
from tests.station.toy import DRAW_TOY, TOY, DrawGame, RaceGame

TOKEN = "test-organiser-token"


@pytest.fixture
def toy_game() -> Iterator[str]:
    """The toy game's name, registered for the test only."""
    registry._discover()
    registry.register(RaceGame())
    yield TOY
    registry._GAMES.pop(TOY, None)


@pytest.fixture
def draw_game() -> Iterator[str]:
    """The toy game with draws (a chance step before every turn), registered for the test."""
    registry._discover()
    registry.register(DrawGame())
    yield DRAW_TOY
    registry._GAMES.pop(DRAW_TOY, None)


# -- PostgreSQL: a throwaway cluster started by the tests themselves ------------------------
def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _as_cluster_owner(command: list[str]) -> list[str]:
    """Run as 'postgres' when we are root (initdb refuses root), else as ourselves."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresCluster:
    """A throwaway PostgreSQL server on a unix socket in a temporary directory."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="packref-pg-"))
        self.data = self.root / "data"
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self.port = str(_free_port())
        subprocess.run(_as_cluster_owner([str(bin_dir / "initdb"), "-D", str(self.data), "-A",
                                          "trust", "-U", "postgres", "--no-sync", "-E",
                                          "UTF8"]), check=True, capture_output=True)

    def __getitem__(self, key: str) -> str:  # cluster["host"], cluster["port"]
        return {"host": str(self.root), "port": self.port}[key]

    def start(self) -> None:
        options = f"-k {self.root} -p {self.port} -c listen_addresses='' -c fsync=off"
        subprocess.run(_as_cluster_owner([str(self.bin_dir / "pg_ctl"), "-D", str(self.data),
                                          "-o", options, "-l", str(self.root / "log"), "-w",
                                          "start"]), check=True, capture_output=True)

    def stop(self, mode: str = "immediate") -> None:
        subprocess.run(_as_cluster_owner([str(self.bin_dir / "pg_ctl"), "-D", str(self.data),
                                          "-m", mode, "-w", "stop"]), capture_output=True)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _new_cluster() -> PostgresCluster:
    bin_dir = _postgres_bin()
    if bin_dir is None:
        message = "PostgreSQL is not installed (make system-deps installs it)"
        if os.environ.get("PACKREF_REQUIRE_ALL"):
            pytest.fail(message)
        pytest.skip(message)
    cluster = PostgresCluster(bin_dir)
    cluster.start()
    return cluster


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server for this test session."""
    cluster = _new_cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def own_postgres_cluster() -> Iterator[PostgresCluster]:
    """A PostgreSQL server of the test's own, which it may stop and start again."""
    cluster = _new_cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


_databases = iter(range(1_000_000))


def postgres_url(cluster: PostgresCluster) -> str:
    """A fresh, empty database in the cluster."""
    import psycopg

    name = f"packref_test_{os.getpid()}_{next(_databases)}"
    with psycopg.connect(host=cluster["host"], port=cluster["port"], user="postgres",
                         dbname="postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@/{name}?host={cluster['host']}&port={cluster['port']}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database: SQLite in a temporary file, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'station.sqlite3'}"
    return postgres_url(request.getfixturevalue("postgres_cluster"))


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    opened = open_database(database_url)
    yield opened
    opened.close()


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings with a known token and a SQLite database under ``tmp_path``; no win chances
    (no worker process in every test: the advisor's tests ask for them)."""
    return Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'station.sqlite3'}",
                    token=TokenCheck(hash_token(TOKEN)),
                    advice=AdviceSettings(win_chances=False))
