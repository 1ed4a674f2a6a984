"""Reading JSON input with the JSON path of every value, for one-line error messages.

Example::

    >>> doc = Node({"players": [{"player": "Ana", "snacks": -1}]})
    >>> doc["players"].items()[0]["snacks"].integer(0, 99)
    Traceback (most recent call last):
    ...
    station.errors.InputError: $.players[0].snacks: must be 0..99
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from station.errors import InputError

_MISSING = object()
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads would keep the last of two equal keys silently, hiding e.g. a
    # speculator entered twice in one round.
    document: dict[str, Any] = {}
    for key, value in pairs:
        if key in document:
            raise _DuplicateKey(key)
        document[key] = value
    return document


def nesting_depth(value: Any, stop: int) -> int:
    """How deep ``value`` nests (a number: 0, ``[1]``: 1, ``{"a": [1]}``: 2), counted without
    recursion (a document thousands deep is measured, not a crash) and no further than
    ``stop + 1``."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if depth > stop:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth) for child in children)
    return deepest


#: What stands in for the part of a document nested too deep to be shown.
TOO_DEEP = "(nested too deep to show)"


def clipped(value: Any, limit: int) -> Any:
    """``value`` itself when it nests at most ``limit`` levels; else a copy whose values
    below that depth are :data:`TOO_DEEP` (so a document stored before the station bounded
    depth can still be encoded and served)."""
    if nesting_depth(value, limit) <= limit:
        return value
    return _clip(value, limit)


def _clip(value: Any, levels: int) -> Any:
    if not isinstance(value, dict | list):
        return value
    if levels == 0:
        return TOO_DEEP
    root: Any = {} if isinstance(value, dict) else []
    pending = [(value, root, levels)]  # (original, its copy, levels left for it)
    while pending:
        original, copy, left = pending.pop()
        pairs = original.items() if isinstance(original, dict) else enumerate(original)
        for key, child in pairs:
            if isinstance(child, dict | list):
                inner: Any = TOO_DEEP if left == 1 else {} if isinstance(child, dict) else []
                if left > 1:
                    pending.append((child, inner, left - 1))
            else:
                inner = child
            if isinstance(copy, dict):
                copy[key] = inner
            else:
                copy.append(inner)
    return root


def load_json_file(path: str | Path) -> Node:
    """The JSON document in ``path`` as a :class:`Node`; unreadable or bad JSON: InputError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a JSON file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    try:
        document = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKey as error:
        raise InputError(f"{path}: the key {error.key!r} appears twice in one object") from None
    except json.JSONDecodeError as error:
        raise InputError(
            f"{path}: invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    return Node(document)


def _entries(count: int) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


class Node:
    """A value inside a JSON document, with its path (``$.a[0].b``)."""

    def __init__(self, value: Any, path: str = "$") -> None:
        self.value = value
        self.path = path

    def __repr__(self) -> str:
        return f"Node({self.path})"

    def fail(self, message: str) -> InputError:
        """An InputError at this node's path (raise it)."""
        return InputError(f"{self.path}: {message}")

    def _child_path(self, key: str) -> str:
        if _IDENTIFIER.match(key):
            return f"{self.path}.{key}"
        return f"{self.path}[{json.dumps(key)}]"

    # -- containers ---------------------------------------------------------------
    def obj(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(f"must be an object, not {_type_name(self.value)}")
        return self.value

    def __getitem__(self, key: str) -> Node:
        """The required field ``key`` of this object."""
        value = self.obj().get(key, _MISSING)
        if value is _MISSING:
            raise self.fail(f"missing field {key!r}")
        return Node(value, self._child_path(key))

    def get(self, key: str, default: Any = None) -> Node:
        """The optional field ``key``; a missing field gives ``default``."""
        value = self.obj().get(key, _MISSING)
        return Node(default if value is _MISSING else value, self._child_path(key))

    def has(self, key: str) -> bool:
        return key in self.obj()

    def keys(self) -> list[str]:
        return list(self.obj())

    def fields(self) -> list[tuple[str, Node]]:
        """The object's fields as (key, Node) pairs, in document order."""
        return [(key, Node(value, self._child_path(key))) for key, value in self.obj().items()]

    def players(self, key: str = "player", min_length: int = 1) -> list[tuple[str, Node]]:
        """Each entry of this list with its player's name (``entry[key]``): non-empty, distinct."""
        entries: list[tuple[str, Node]] = []
        for entry in self.items(min_length=min_length):
            name_node = entry[key]
            name = name_node.string(non_empty=True)
            if any(name == seen for seen, _ in entries):
                raise name_node.fail(f"player {name!r} is listed twice")
            entries.append((name, entry))
        return entries

    def items(self, min_length: int = 0, max_length: int | None = None) -> list[Node]:
        """The elements of this list."""
        if not isinstance(self.value, list):
            raise self.fail(f"must be a list, not {_type_name(self.value)}")
        if len(self.value) < min_length:
            raise self.fail(f"must have at least {_entries(min_length)}")
        if max_length is not None and len(self.value) > max_length:
            raise self.fail(f"must have at most {_entries(max_length)}")
        return [Node(value, f"{self.path}[{index}]") for index, value in enumerate(self.value)]

    # -- scalars ------------------------------------------------------------------
    def integer(self, low: int | None = None, high: int | None = None) -> int:
        value = self.value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"must be a whole number, not {_type_name(self.value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                raise self.fail(f"must be at least {low}")
            if low is None:
                raise self.fail(f"must be at most {high}")
            raise self.fail(f"must be {low}..{high}")
        return value

    def number(self, low: float | None = None, high: float | None = None) -> float:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"must be a number, not {_type_name(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.fail(f"must be {low}..{high}")
        return float(value)

    def string(self, non_empty: bool = False) -> str:
        if not isinstance(self.value, str):
            raise self.fail(f"must be a string, not {_type_name(self.value)}")
        if non_empty and not self.value:
            raise self.fail("must not be empty")
        return self.value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(f"must be true or false, not {_type_name(self.value)}")
        return self.value

    def choice(self, allowed: list[Any]) -> Any:
        if self.value not in allowed or isinstance(self.value, bool) != any(
            isinstance(option, bool) for option in allowed
        ):
            shown = ", ".join(json.dumps(option) for option in allowed)
            raise self.fail(f"must be one of {shown}")
        return self.value

    def is_null(self) -> bool:
        return self.value is None

    def grid(self, alphabet: str, rectangular: bool = True, min_rows: int = 1) -> list[str]:
        """A grid: a list of strings over ``alphabet``, all of one length when ``rectangular``;
        a wrong character is named by its column as people count it (from 1), after the
        JSON path of its row."""
        rows = self.items(min_length=min_rows)
        grid = [row.string() for row in rows]
        for row_node, row in zip(rows, grid, strict=True):
            for col, char in enumerate(row):
                if char not in alphabet:
                    raise row_node.fail(
                        f"column {col + 1}: {char!r} is not one of {' '.join(alphabet)}"
                    )
        if rectangular and grid:
            width = len(grid[0])
            if width == 0:
                raise rows[0].fail("must not be empty")
            for row_node, row in zip(rows, grid, strict=True):
                if len(row) != width:
                    raise row_node.fail(f"has {len(row)} cells, the first row {width}")
        return grid
