"""The import graph one reads is the one that runs; its arrows point as docs/architecture.md says.

The graph is read from the source (every ``import`` of a project module, at a module's top
or anywhere else), so a hidden import counts as much as a visible one. Checked on it:

- no project import inside a function body outside ``station/cli`` (the CLI may defer
  imports for start-up time);
- no cycle between modules;
- the packages' arrows hold *transitively*: ``rules`` reaches nothing of the others,
  ``vision`` and ``hardware`` reach neither ``rules`` nor ``station``, ``station`` hears the
  drone board only through ``hardware``; inside ``station`` the live loop never reaches the
  CLI, the web pages, the API or the demo, and the games' records never reach the live loop
  either.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "vision", "hardware", "firmware", "station")
ABOVE_LIVE = ("station.cli", "station.web", "station.api", "station.demo")
ABOVE_GAMES = (*ABOVE_LIVE, "station.live")
# What each package may reach, directly or through others (itself always).
MAY_REACH = {
    "rules": (),
    "vision": (),
    "hardware": ("firmware.frames",),
    "firmware": (),
    "station": ("rules", "vision", "hardware", "firmware.frames"),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def project_modules() -> dict[str, Path]:
    """Every module of the five packages, by dotted name."""
    return {_module_name(path): path
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:`` (no import runs there)."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _is_type_checking(child):
            yield from (node for branch in child.orelse for node in ast.walk(branch))
            continue
        yield child
        yield from _runtime_nodes(child)


def _targets(node: ast.AST, importer: str) -> list[str]:
    """The project modules one import statement loads (a named submodule, else the package)."""
    modules = project_modules()
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = importer.split(".")
            if modules[importer].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                 for alias in node.names]
    else:
        return []
    return [name for name in names if name.split(".")[0] in PACKAGES]


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _discovered(node: ast.AST, importer: str) -> list[str]:
    """The modules a registry loads by discovery: ``pkgutil.iter_modules(PACKAGE.__path__)``
    imports every module of PACKAGE (``__path__`` alone: the importer's own package)."""
    if not (isinstance(node, ast.Call) and _dotted(node.func).endswith("iter_modules")
            and node.args):
        return []
    path = _dotted(node.args[0])
    package = importer if path == "__path__" else path.removesuffix(".__path__")
    return [name for name in project_modules()
            if name.startswith(package + ".") and "." not in name[len(package) + 1:]]


@cache
def imports_of(module: str) -> frozenset[str]:
    """The project modules ``module`` imports when it runs (registries: what they discover)."""
    tree = ast.parse(project_modules()[module].read_text(encoding="utf-8"))
    found = {target for node in _runtime_nodes(tree)
             for target in (*_targets(node, module), *_discovered(node, module))}
    return frozenset(name for name in found if name in project_modules() and name != module)


@cache
def reachable(module: str) -> frozenset[str]:
    """Every project module that importing ``module`` can load, by any chain of imports."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for name in imports_of(todo.pop()):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return frozenset(seen)


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _function_imports(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            lines += [node.lineno for node in ast.walk(function)
                      if isinstance(node, ast.Import | ast.ImportFrom)
                      and _targets(node, _module_name(path))]
    return sorted(set(lines))


def test_no_project_import_hides_in_a_function_outside_the_cli() -> None:
    hidden = {name: _function_imports(path) for name, path in project_modules().items()
              if not _within(name, ("station.cli",))}
    assert {name: lines for name, lines in hidden.items() if lines} == {}


def test_no_module_imports_itself_back() -> None:
    cycles = sorted(name for name in project_modules() if name in reachable(name))
    assert cycles == []


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_reaches_only_what_the_arrows_allow(package: str) -> None:
    allowed = (package, *MAY_REACH[package])
    wrong = {name: sorted(other for other in reachable(name) if not _within(other, allowed))
             for name in project_modules() if _within(name, (package,))}
    assert {name: others for name, others in wrong.items() if others} == {}


def test_the_station_hears_the_board_only_through_hardware() -> None:
    direct = {name: sorted(other for other in imports_of(name) if _within(other, ("firmware",)))
              for name in project_modules() if _within(name, ("station",))}
    assert {name: others for name, others in direct.items() if others} == {}


@pytest.mark.parametrize("layer, above", [("station.live", ABOVE_LIVE),
                                          ("station.games", ABOVE_GAMES)])
def test_a_station_layer_never_reaches_the_ones_above_it(layer: str,
                                                         above: tuple[str, ...]) -> None:
    modules = [name for name in project_modules() if _within(name, (layer,))]
    assert modules
    wrong = {name: sorted(other for other in reachable(name) if _within(other, above))
             for name in modules}
    assert {name: others for name, others in wrong.items() if others} == {}


def test_the_graph_sees_hidden_and_relative_imports(tmp_path: Path) -> None:
    """The reader itself: an import in a function body and a relative import both count."""
    source = "from . import engine\n\ndef later():\n    import station.cli\n"
    tree = ast.parse(source)
    function = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef))
    hidden = [node for node in ast.walk(function) if isinstance(node, ast.Import)]
    assert _targets(hidden[0], "rules.registry") == ["station.cli"]
    relative = tree.body[0]
    assert _targets(relative, "rules.registry") == ["rules.engine"]
    discovery = ast.parse("pkgutil.iter_modules(rules.games.__path__)").body[0].value
    assert "rules.games.moving_day" in _discovered(discovery, "rules.registry")
