"""Running scripts under real MicroPython (the npm WebAssembly port, under Node)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO, require_tool

FIRMWARE = REPO / "firmware"
RUNNER = Path(__file__).with_name("run_micropython.mjs")
PACKAGE = REPO / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def require_micropython() -> str:
    """The node binary, once MicroPython's npm package is known to be installed."""
    node = require_tool("node")
    if not (PACKAGE / "micropython.mjs").exists():
        message = "node_modules has no MicroPython (make test runs npm install)"
        if os.environ.get("PACKREF_REQUIRE_ALL"):
            pytest.fail(message)
        pytest.skip(message)
    return node


def run_micropython(script: str, tmp_path: Path) -> str:
    """Run ``script`` with the firmware modules importable; its stdout (fails on error)."""
    node = require_micropython()
    path = tmp_path / "script.py"
    path.write_text(script, encoding="utf-8")
    completed = subprocess.run([node, str(RUNNER), str(FIRMWARE), str(path)],
                               capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout
