"""One home per game: the shared code never looks a game up behind the records' back.

- ``station/catalogue`` is generic: it is given a game's wiring and never imports
  ``station.games`` (nor what looks games up: ``station.copies``, the CLI);
- the shared modules of ``station/games`` never import the registry (``station.games``
  itself), which discovers them: the import graph has no cycle through discovery;
- no project import hides in a function body there;
- importing a game's package loads no web server, database or OpenCV of its own.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from station.games import game_records

STATION = Path(__file__).resolve().parents[3] / "station"
PACKAGES = ("rules", "vision", "hardware", "firmware", "station")
SHARED = ("record.py", "views.py", "camera.py", "words.py")
NO_HIDDEN = [STATION / "games", STATION / "catalogue", STATION / "tags.py", STATION / "kit.py",
             STATION / "copies.py", STATION / "tournament", STATION / "advice.py",
             STATION / "output.py"]
NOT_YET = ("rehearsal.py",)  # test tooling, on its way out of the package


def _files(where: Path) -> list[Path]:
    return [where] if where.is_file() else sorted(
        path for path in where.rglob("*.py") if path.name not in NOT_YET)


def _imports(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_the_catalogue_is_given_a_games_wiring_and_never_looks_it_up() -> None:
    wrong = {str(path.relative_to(STATION)): name
             for path in _files(STATION / "catalogue")
             for _, name in _imports(ast.parse(path.read_text(encoding="utf-8")))
             if _within(name, ("station.games", "station.copies", "station.cli"))}
    assert wrong == {}


def test_the_shared_modules_of_the_games_never_import_the_registry() -> None:
    wrong = {name: module for name in SHARED
             for _, module in _imports(ast.parse((STATION / "games" / name).read_text()))
             if module == "station.games"}
    assert wrong == {}


@pytest.mark.parametrize("where", NO_HIDDEN, ids=lambda path: path.name)
def test_no_project_import_hides_in_a_function_body(where: Path) -> None:
    hidden = []
    for path in _files(where):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                hidden += [f"{path.relative_to(STATION)}:{line} {name}"
                           for line, name in _imports(function)
                           if name.split(".")[0] in PACKAGES]
    assert hidden == []


def _loaded(module: str) -> set[str]:
    """The top-level modules importing ``module`` loads, in a fresh interpreter."""
    code = f"import sys, {module}; print(' '.join({{m.split('.')[0] for m in sys.modules}}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize("game", [record.name.replace("-", "_") for record in game_records()])
def test_a_games_package_loads_no_server_database_or_opencv_of_its_own(game: str) -> None:
    loaded = _loaded(f"station.games.{game}")
    assert loaded.isdisjoint({"fastapi", "starlette", "uvicorn", "sqlalchemy"})
    if "cv2" in loaded:  # only through its mats' reader in vision, never through the station
        assert "cv2" in _loaded(f"vision.games.{game}")
