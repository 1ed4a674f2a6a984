"""Shared test helpers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from station.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
SHARED = REPO.parent / "shared"


@dataclass
class CliResult:
    status: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)

    def json_lines(self) -> list[Any]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]

    def assert_bad_input(self, starts_with: str = "") -> None:
        """The contract for a user mistake: status 2, no stdout, one stderr line."""
        assert self.status == 2, (self.status, self.stderr)
        assert self.stdout == ""
        lines = self.stderr.splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(starts_with), lines[0]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``packref`` in this process: ``cli("score", "moving-day", path)``."""

    def run(*args: str | os.PathLike[str]) -> CliResult:
        capsys.readouterr()
        status = main([str(arg) for arg in args])
        captured = capsys.readouterr()
        return CliResult(status, captured.out, captured.err)

    return run


@pytest.fixture
def write_json(tmp_path: Path):
    """Write a JSON document to a fresh file and return its path."""
    counter = iter(range(1_000_000))

    def write(document: Any, name: str | None = None) -> Path:
        path = tmp_path / (name or f"input{next(counter)}.json")
        path.write_text(json.dumps(document), encoding="utf-8")
        return path

    return write


def require_tool(name: str) -> str:
    """The path of an external program; skipped locally when missing, a failure in CI.

    CI (``PACKREF_REQUIRE_ALL=1``, set by ``.ci/run``) installs every tool, so a
    missing one there is a broken install, not a reason to skip.
    """
    path = shutil.which(name)
    if path:
        return path
    message = f"{name} is not installed (make system-deps installs it)"
    if os.environ.get("PACKREF_REQUIRE_ALL"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def pty_pair(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A serial cable in software: (board end, host end), two ptys joined by socat.

    Whatever is written to one end is read at the other, raw (no echo, no line
    discipline), as between a drone board and its station.
    """
    socat = require_tool("socat")
    board_end, host_end = tmp_path / "board", tmp_path / "host"
    process = subprocess.Popen([socat, f"pty,raw,echo=0,link={board_end}",
                                f"pty,raw,echo=0,link={host_end}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 5
        while not (board_end.exists() and host_end.exists()):
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail(f"socat made no pty pair in 5 s (exit status {process.poll()})")
            time.sleep(0.02)
        yield str(board_end), str(host_end)
    finally:
        process.terminate()
        process.wait(timeout=5)
