"""Drawing views: what a table's SVG shows, made from a game's state.

A *view* is plain JSON the browser draws without knowing the game::

    {"boards": [{"title": "Ana's truck", "rows": [[cell or null, ...], ...]}],
     "lines": ["Supply: card c03, card c11, card c19"],
     "drone": {"reached": 6, "speculations": {"Cas": 4}, "pilots": ["Ana"]}}

A cell is ``{"t": text, "k": colour key, "m": [marks]}``; marks are
``damaged``, ``minus`` (a visible "−1" square), ``wall`` (no space),
``empty-box``, ``fragile``. A game with a record (:mod:`station.games`) gets the
view its presenter makes, drawn with :func:`cell`; any other game gets a generic
one found in its state (every grid-like value). A presenter that fails (an
engine changed) is logged, and the table gets the generic view with a
``"problem"`` saying so (the table page shows it above the boards).

The records are looked up by :mod:`station.games` (``present``); this module is
given the record.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from rules import State
from rules.engine import Outcome
from station.games.record import GameRecord, View

LOG = logging.getLogger("packref.games")
Cell = dict[str, Any] | None
Board = dict[str, Any]
MAX_BOARDS = 16


def cell(text: str, key: str = "", *marks: str) -> dict[str, Any]:
    """One drawn cell: its text, its colour key and its marks (empty marks left out).

    >>> cell("3", "red", "damaged", "")
    {'t': '3', 'k': 'red', 'm': ['damaged']}
    """
    return {"t": text, "k": key, "m": [mark for mark in marks if mark]}


# -- generic ------------------------------------------------------------------------------
def _is_grid(value: Any) -> bool:
    if not isinstance(value, list) or not value:
        return False
    if all(isinstance(row, str) and row for row in value):
        return len({len(row) for row in value}) == 1 and len(value) > 1
    return all(isinstance(row, list) and row and all(
        item is None or isinstance(item, str | int) for item in row) for row in value) and len(
        {len(row) for row in value}) == 1


def _grid_rows(grid: list[Any]) -> list[list[Cell]]:
    rows = []
    for row in grid:
        rows.append([None if value in (None, ".") else cell(str(value), str(value))
                     for value in row])
    return rows


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if _is_grid(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _walk(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def generic_view(state: State) -> dict[str, Any]:
    """Every grid found in the state as the table sees it (:meth:`State.public_view`: a
    failing presenter's fallback is served to everyone, so no hand or pile order), titled
    by where it was found."""
    seen = state.public_view()
    boards = [{"title": path, "rows": _grid_rows(grid)}
              for path, grid in _walk(seen, "")][:MAX_BOARDS]
    lines = [f"{key}: {value}" for key, value in seen.items()
             if isinstance(value, int | str | bool) and not isinstance(value, dict)]
    return {"boards": boards, "lines": lines[:12]}


def view_of(state: State, record: GameRecord | None, table: str = "") -> View:
    """The drawing view of ``state``: its ``record``'s presenter's, or the generic one (no
    record; or a presenter that failed, logged with the game and ``table``, the view then
    carrying a ``"problem"`` the table page shows)."""
    if record is None:
        return generic_view(state)
    try:
        return record.presenter(state)
    except Exception:
        LOG.exception("the view of %s at table %s failed: the generic view is shown instead",
                      record.name, table or "(none)")
    return {**generic_view(state),
            "problem": f"{record.title}'s own drawing failed (the station's log says why): "
                       "the boards below are every grid found in the game's state."}


def labelled(state: State, outcomes: Iterable[Outcome],
             record: GameRecord | None) -> list[dict[str, Any]]:
    """The outcomes as JSON, each with a person's words for it (``label``, for the table
    page's picker) where the game's ``record`` has them; without, the page makes its own."""
    labels = record.reveal_label if record is not None else None
    found = []
    for outcome in outcomes:
        document = outcome.to_json()
        try:
            if labels is not None:
                document["label"] = labels(state, document["action"])
        except Exception:  # an engine that changed its reveals: the page's own words then
            pass
        found.append(document)
    return found


def flagged_cells(state: State, action: Any, record: GameRecord | None) -> list[dict[str, Any]]:
    """The cells a flagged ``action`` names, for the table page's dashed outline: the same
    cells its words name (its ``record``'s ``named_cells``), else the action's ``row`` and
    ``col``, or each placed box's, on the acting player's boards, as
    ``{"player", "vehicle" (a box's), "row", "col"}`` (JSON indices).

    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    >>> flagged_cells(state, {"type": "place", "row": 2, "col": 3}, None)
    [{'player': 'Ana', 'row': 2, 'col': 3}]
    """
    if not isinstance(action, dict):
        return []
    try:
        if record is not None and record.named_cells is not None:
            return record.named_cells(state, action)
        player = state.players[state.current_player()]  # type: ignore[index]
    except Exception:  # a mark is a courtesy: an odd action marks nothing
        return []
    cells = []
    if type(action.get("row")) is int and type(action.get("col")) is int:
        cells.append({"player": player, "row": action["row"], "col": action["col"]})
    for box in action.get("boxes") if isinstance(action.get("boxes"), list) else []:
        if isinstance(box, dict) and type(box.get("row")) is int and type(box.get("col")) is int:
            cells.append({"player": player, "vehicle": box.get("vehicle"), "row": box["row"],
                          "col": box["col"]})
    return cells


def changed_cells(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The cells of ``after``'s boards that a move filled or changed (not the ones it
    emptied: there is nothing left to point at), as ``{"board": title, "row", "col"}``.

    >>> was = {"boards": [{"title": "Ana's truck", "rows": [[None, None]]}]}
    >>> now = {"boards": [{"title": "Ana's truck", "rows": [[None, cell("2", "red")]]}]}
    >>> changed_cells(was, now)
    [{'board': "Ana's truck", 'row': 0, 'col': 1}]
    """
    earlier = {board.get("title"): board.get("rows") or [] for board in before.get("boards", [])}
    changed = []
    for board in after.get("boards", []):
        title, old = board.get("title"), earlier.get(board.get("title"), [])
        for r, row in enumerate(board.get("rows") or []):
            for c, now in enumerate(row):
                was = old[r][c] if r < len(old) and c < len(old[r]) else None
                if now is not None and now != was:
                    changed.append({"board": title, "row": r, "col": c})
    return changed
