"""Numbers in the words people read: rows, columns, groups and seats counted from 1.

The JSON counts from 0 (a cell's ``row`` and ``col``, a Moving Day ``group``, a
``player``); people count from 1. Every text a person reads — a refusal's reason, a
flag, a move in words, the picker — names them through these, so the same cell or
group has one number on every page: "row 2, column 3", "group 1". A text that quotes a
JSON field by its name ("'group' must be ...") gives the field's own value.

    >>> at(1, 2)
    'row 2, column 3'
    >>> counted(0)
    1
    >>> numbered("group", 2)
    'group 3'
    >>> either([0, 2])
    '1 or 3'
"""

from __future__ import annotations

from collections.abc import Iterable


def counted(index: int) -> int:
    """A JSON index (from 0) as people count it (from 1)."""
    return int(index) + 1


def at(row: int, col: int) -> str:
    """A cell in words: ``row R, column C``, counted from 1."""
    return f"row {counted(row)}, column {counted(col)}"


def numbered(noun: str, index: int) -> str:
    """``noun`` and its number counted from 1: ``group 1`` for index 0."""
    return f"{noun} {counted(index)}"


def either(indices: Iterable[int], word: str = "or") -> str:
    """Indices counted from 1 and listed: ``1``, ``1 or 3``, ``1, 2 and 4``."""
    names = [str(counted(index)) for index in indices]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"
