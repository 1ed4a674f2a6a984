"""The Small Warehouse camera referee: warehouse grids seen on the mats in, ``place`` out.

A pure translator for the live loop (``station.live.translators``): it compares
the warehouse grids the camera reads from each player's colour mat with the
engine's own grids, and returns the ``place`` action that explains the change.

The observation (``vision.games.small_warehouse.read_warehouses`` wrapped by
the station)::

    {"kind": "warehouses",
     "warehouses": [{"player": "Ana", "found": True, "grid": ["....", ...], "complete": False},
                    {"player": "Ben", "found": False}],
     "refill": "c03"}                                      # optional

Grid cells: ``.`` no card, ``#`` an empty box, ``A``–``Z`` merchandise, ``?``
where the camera could not tell. Readings (``docs/rules-notes.md``, "Camera
referees"):

- Nothing changed on any non-``?`` cell → ``[]``. A warehouse not ``found`` is
  not compared. A card laid exactly over squares that already showed the same
  symbols changes nothing the camera sees: declare that turn with a button.
- A change in the acting player's warehouse → the placement (supply or hand
  card, position and turn) whose resulting warehouse matches every non-``?``
  cell. Placements giving the same turned card are listed once, at their first
  rotation of 0, 90, 180, 270, as the engine does.
- Several placements giving the *same* warehouse (twin cards, or a card whose
  extra squares land on equal symbols) → the first in the engine's order:
  supply cards in supply order, then the hand; by rotation, then row, then col.
  Placements giving *different* warehouses that the ``?`` cells cannot tell
  apart → :class:`IllegalAction` naming them (the camera must see more).
- A card played from the hand takes a supply card into the hand, which the
  camera does not see: the observation's ``"refill"`` names it when given
  (e.g. by a button), else the *first* supply card (the oldest) is taken.
- A change in another player's warehouse → :class:`IllegalAction`.
- Once the game is over, observations mean nothing: ``[]``.

Example::

    >>> from rules import get_game
    >>> state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=7)
    >>> action = next(a for a in state.legal_actions() if a["source"] == "supply")
    >>> after = state.clone()
    >>> after.apply(action)
    >>> seen = {"kind": "warehouses",
    ...         "warehouses": [{"player": "Ana", "found": True, "grid": after.data["grids"][0]}]}
    >>> Referee().translate(state, seen) == [action]
    True
    >>> Referee().translate(after, seen)
    []
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rules.engine import Action, State
from rules.errors import IllegalAction
from rules.games.small_warehouse import NO_CARD, rotate_clockwise

GAME = "small-warehouse"
KIND = "warehouses"
UNKNOWN = "?"
ROTATIONS = (0, 90, 180, 270)
SHOWN_CELLS = 6  # how many changed cells an error message lists


class Referee:
    """Turns the warehouse grids the camera reads into Small Warehouse ``place`` actions.

    Stateless: every answer comes from the observation and the engine's state alone.
    See the module docstring for the readings.
    """

    def __repr__(self) -> str:
        return f"<small-warehouse Referee: {KIND!r} observations, refill default 'first supply'>"

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The ``place`` action the observed grids show, ``[]`` when nothing changed."""
        if observation.get("kind") != KIND or state.is_over():
            return []
        acting = state.current_player()
        changed_grid: dict[int, Sequence[str]] = {}
        for seen in observation.get("warehouses", []):
            if not seen.get("found", True):
                continue
            player = _player_index(state, seen.get("player"))
            grid = _checked_grid(state, player, seen.get("grid"))
            if _changed_cells(state.data["grids"][player], grid):
                changed_grid[player] = grid
        for player in changed_grid:
            if player != acting:
                raise IllegalAction(
                    f"the warehouse of {state.players[player]} changed, but it is "
                    f"{state.players[acting]}'s turn")
        if acting not in changed_grid:
            return []
        return [_placement_shown(state, changed_grid[acting], observation.get("refill"))]


# ------------------------------------------------------------------------ helpers
def _player_index(state: State, name: Any) -> int:
    if name not in state.players:
        raise IllegalAction(f"the camera read a warehouse of {name!r}, who is not playing here")
    return state.players.index(name)


def _checked_grid(state: State, player: int, grid: Any) -> list[str]:
    """The observed grid as a list of rows, refused when its size is not the warehouse's."""
    rows, cols = state.options["warehouse_rows"], state.options["warehouse_cols"]
    if (not isinstance(grid, list | tuple) or len(grid) != rows
            or any(not isinstance(line, str) or len(line) != cols for line in grid)):
        raise IllegalAction(f"the mat of {state.players[player]} should read {rows} rows of "
                            f"{cols} cells, not {grid!r}")
    return list(grid)


def _changed_cells(known: Sequence[str], seen: Sequence[str]) -> dict[tuple[int, int], str]:
    """The cells the camera read (not ``?``) that differ from the engine's grid."""
    return {(row, col): symbol
            for row, (old_line, new_line) in enumerate(zip(known, seen, strict=True))
            for col, (old, symbol) in enumerate(zip(old_line, new_line, strict=True))
            if symbol != UNKNOWN and symbol != old}


def _placement_shown(state: State, seen: Sequence[str], refill: Any) -> Action:
    """The one place action whose result matches ``seen``, or IllegalAction saying why not."""
    player = state.current_player()
    assert player is not None
    known = state.data["grids"][player]
    changed = _changed_cells(known, seen)
    legal: list[tuple[Action, list[str]]] = []
    refused: list[str] = []
    for action, cells in _candidates(state, refill):
        if not changed.keys() <= cells.keys() or not _agrees(cells, seen):
            continue
        try:
            state.check(action)
        except IllegalAction as error:
            refused.append(f"{action['card']} there: {error.reason}")
            continue
        legal.append((action, _laid(known, cells)))
    if not legal:
        why = f" ({refused[0]})" if refused else ""
        raise IllegalAction(f"the warehouse of {state.players[player]} shows "
                            f"{_describe(changed)}, which no legal placement gives{why}")
    grids = {tuple(grid) for _, grid in legal}
    if len(grids) > 1:
        options = " or ".join(_describe_action(action) for action, _ in legal[:3])
        raise IllegalAction(f"the warehouse of {state.players[player]} could show {options}: "
                            "the camera must read more of its cells")
    return legal[0][0]


def _candidates(state: State, refill: Any) -> Iterator[tuple[Action, dict[tuple[int, int], str]]]:
    """Every position of every supply and hand card, in the engine's order, with its squares."""
    player = state.current_player()
    supply = state.data["supply"]
    taken = refill if refill is not None else supply[0]  # an odd hint: the engine says why
    rows, cols = state.options["warehouse_rows"], state.options["warehouse_cols"]
    pools = [("supply", card) for card in supply]
    pools += [("hand", card) for card in state.data["hands"][player]]
    for source, card in pools:
        for rotation, turned in _distinct_turns(state.setup["cards"][card]):
            for row in range(rows - len(turned) + 1):
                for col in range(cols - len(turned[0]) + 1):
                    action: Action = {"type": "place", "source": source, "card": card,
                                      "row": row, "col": col, "rotation": rotation}
                    if source == "hand":
                        action["refill"] = taken
                    yield action, _squares_at(turned, row, col)


def _distinct_turns(squares: Sequence[str]) -> list[tuple[int, list[str]]]:
    """Each distinct turned card with its first rotation (the engine lists each once)."""
    turns: dict[tuple[str, ...], int] = {}
    for rotation in ROTATIONS:
        turns.setdefault(tuple(rotate_clockwise(squares, rotation)), rotation)
    return [(rotation, list(turned)) for turned, rotation in turns.items()]


def _squares_at(turned: Sequence[str], row: int, col: int) -> dict[tuple[int, int], str]:
    return {(row + dr, col + dc): symbol for dr, line in enumerate(turned)
            for dc, symbol in enumerate(line) if symbol != NO_CARD}


def _agrees(cells: Mapping[tuple[int, int], str], seen: Sequence[str]) -> bool:
    return all(seen[row][col] in (symbol, UNKNOWN) for (row, col), symbol in cells.items())


def _laid(known: Sequence[str], cells: Mapping[tuple[int, int], str]) -> list[str]:
    lines = [list(line) for line in known]
    for (row, col), symbol in cells.items():
        lines[row][col] = symbol
    return ["".join(line) for line in lines]


def _describe(changed: Mapping[tuple[int, int], str]) -> str:
    cells = [f"{symbol} at row {row} col {col}" for (row, col), symbol in sorted(changed.items())]
    more = len(cells) - SHOWN_CELLS
    return ", ".join(cells[:SHOWN_CELLS]) + (f" and {more} more" if more > 0 else "")


def _describe_action(action: Action) -> str:
    return (f"{action['card']} from the {action['source']} at row {action['row']} "
            f"col {action['col']} turned {action['rotation']}")
