"""Inside ``station`` the live loop and the games' records never import what sits above them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

STATION = Path(__file__).resolve().parents[2] / "station"
ABOVE_LIVE = ("station.cli", "station.web", "station.api", "station.demo")
ABOVE_GAMES = (*ABOVE_LIVE, "station.live")


def imported(path: Path) -> set[str]:
    """Every module a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def _above(path: Path, layers: tuple[str, ...]) -> list[str]:
    return sorted(name for name in imported(path)
                  if any(name == layer or name.startswith(layer + ".") for layer in layers))


@pytest.mark.parametrize("package, layers", [("live", ABOVE_LIVE), ("games", ABOVE_GAMES)])
def test_a_layer_never_imports_the_ones_above_it(package: str, layers: tuple[str, ...]) -> None:
    files = sorted((STATION / package).glob("*.py"))
    assert files
    assert {path.name: _above(path, layers) for path in files if _above(path, layers)} == {}
