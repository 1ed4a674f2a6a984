"""The Small Warehouse camera referee: warehouse grids seen on the mats in, actions out.

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
- Several placements giving the *same* warehouse: those nobody can tell apart
  (twin cards from the same place, taking twin cards into the hand, one card at
  two places that show the same) and those leading to the same state → the
  first in the engine's order: supply cards in supply order, then the hand; by
  rotation, then row, then col. Those leading to different states (different
  cards whose extra squares land on equal symbols: which card stays in the
  supply or the hand differs) → :class:`~rules.errors.AmbiguousReading`, one
  reading per state ("c04 from the supply", "c12 from the hand and c03 from
  the supply into the hand"), for a person to pick. Placements giving
  *different* warehouses that the ``?`` cells cannot tell apart →
  :class:`IllegalAction` naming them (the camera must see more).
- A card played from the hand takes a supply card into the hand, which the
  camera does not see: the observation's ``"refill"`` names it when given
  (e.g. by a button); else the player's choice is not guessed: each supply
  card is a reading (cards that look the same count once), and when they lead
  to different states the referee asks, as above.
- A change in another player's warehouse too: the camera missed a state (a turn never
  held still long enough). The turns it shows at once are caught up: one placement per
  changed warehouse, in turn order from the acting player; the one sequence of legal
  placements leading there is returned, several leading to different states are asked
  about (:class:`~rules.errors.AmbiguousReading`, each sequence in words), none →
  :class:`IllegalAction`. A change in another player's warehouse alone →
  :class:`IllegalAction`.
- Once the game is over, observations mean nothing: ``[]``.

A game dealt by hand (``docs/rules-notes.md``, "Small Warehouse dealt by hand")
knows no card before it is seen:

- The first reading shows each player's starting card, laid in the middle of
  the mat, unturned: each becomes a ``{"type": "reveal", "zone": "warehouse",
  ...}`` naming the card not yet seen that shows those squares there (one
  warehouse at a time if the other is not read yet, or cannot be named yet).
  When the cells read (a glare over the rest) fit several cards, a person is
  asked (:class:`~rules.errors.AmbiguousReading`, one reading per card).
- A later change in the acting player's warehouse is a card from the supply or
  the hand, identified by its squares among the known supply cards, the
  player's known hand card and the cards not yet seen. A card not seen before
  that may come from either is ``"source": "supply-or-hand"``; from one only,
  that one. A hand play takes ``"refill"`` from the observation, else
  ``None`` (a supply card not seen: the engine then keeps every possibility).
- Placements giving the same grid with cards that look different (a card whose
  extra squares land on equal symbols) are asked about
  (:class:`~rules.errors.AmbiguousReading`, one reading per card): the
  difference matters later, so a person picks which. Twin cards are read as
  the first in the engine's order, as in a seeded game.

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

Dealt by hand, the first reading shows the starting cards::

    >>> table = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    >>> first = ["." * 10] * 3 + ["...AAC....", "...DDC...."] + ["." * 10] * 3
    >>> shown = {"kind": "warehouses", "warehouses": [
    ...     {"player": "Ana", "found": True, "grid": first}, {"player": "Ben", "found": False}]}
    >>> Referee().translate(table, shown)
    [{'type': 'reveal', 'zone': 'warehouse', 'player': 0, 'card': 'c01'}]
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rules.engine import REVEAL, Action, State, json_copy
from rules.errors import AmbiguousReading, IllegalAction, Reading, ReadMore
from rules.games.small_warehouse.engine import EITHER, placement_words
from rules.games.small_warehouse.grid import NO_CARD, rotate_clockwise
from rules.words import at

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
        return f"<small-warehouse Referee: {KIND!r} observations, asks which card was meant>"

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The ``place`` action the observed grids show, ``[]`` when nothing changed."""
        if observation.get("kind") != KIND or state.is_over():
            return []
        if state.is_chance():
            return self._starting_cards(state, observation)
        acting = state.current_player()
        changed_grid: dict[int, Sequence[str]] = {}
        for seen in observation.get("warehouses", []):
            if not seen.get("found", True):
                continue
            player = _player_index(state, seen.get("player"))
            grid = _checked_grid(state, player, seen.get("grid"))
            if _changed_cells(state.data["grids"][player], grid):
                changed_grid[player] = grid
        if any(player != acting for player in changed_grid):
            return _caught_up(state, changed_grid, observation.get("refill"))
        if acting not in changed_grid:
            return []
        return [_placement_shown(state, changed_grid[acting], observation.get("refill"))]

    def _starting_cards(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The reveals of the starting cards the reading shows in empty warehouses.

        A starting card the camera cannot name yet (a glare over part of it) waits while
        another can be revealed; alone, it is refused or, when the cells seen fit several
        cards, asked about (one reading per card)."""
        reveals: list[Action] = []
        taken: set[str] = set()
        held: list[IllegalAction] = []
        for seen in observation.get("warehouses", []):
            if not seen.get("found", True):
                continue
            player = _player_index(state, seen.get("player"))
            grid = _checked_grid(state, player, seen.get("grid"))
            if state.data["placed"][player] or not _changed_cells(state.data["grids"][player],
                                                                  grid):
                continue
            try:
                card = _starting_card(state, player, grid, taken)
            except IllegalAction as error:
                held.append(error)
                continue
            taken.add(card)
            reveals.append({"type": REVEAL, "zone": "warehouse", "player": player, "card": card})
        if held and not reveals:
            raise held[0]
        return reveals


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
    """The place action whose result matches ``seen``: the first in the engine's order when
    every match leads to the same state; AmbiguousReading when they lead to different
    states; IllegalAction saying why when none matches or the grids differ."""
    player = state.current_player()
    assert player is not None
    known = state.data["grids"][player]
    changed = _changed_cells(known, seen)
    legal: list[tuple[Action, list[str]]] = []
    refused: list[str] = []
    for action, cells in _candidates(state, refill, changed):
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
        shown = list(dict.fromkeys(_describe_action(action) for action, _ in legal))
        options = " or ".join(shown[:3])
        raise ReadMore(f"the warehouse of {state.players[player]} could show {options}: "
                       "the camera must read more of its cells")
    outcomes: dict[str, Action] = {}
    for action in _told_apart(state, [action for action, _ in legal]):
        outcomes.setdefault(_outcome_key(state, action), action)
    if len(outcomes) == 1:
        return legal[0][0]
    readings = [Reading(_reading_words(action), [action]) for action in outcomes.values()]
    raise AmbiguousReading(_what_differs(state, list(outcomes.values())), readings)


def _caught_up(state: State, changed: Mapping[int, Sequence[str]], refill: Any) -> list[Action]:
    """The turns a reading shows at once (the camera missed the states between): one
    placement per changed warehouse, in turn order from the acting player.

    The one sequence of legal placements leading there is applied; several are asked
    about (:class:`~rules.errors.AmbiguousReading`, each sequence in words); none:
    :class:`IllegalAction`, as for a change out of turn.
    """
    sequences = list(_sequences(state, dict(changed), refill))
    outcomes: dict[str, list[Action]] = {}
    for actions in sequences:
        after = state.clone()
        for action in actions:
            after.apply(action)
        outcomes.setdefault(json.dumps(after.to_json(), sort_keys=True), actions)
    if len(outcomes) == 1:
        return next(iter(outcomes.values()))
    acting = state.current_player()
    if not outcomes:
        other = next(player for player in changed if player != acting)
        raise IllegalAction(f"the warehouse of {state.players[other]} changed, but it is "
                            f"{state.players[acting]}'s turn")
    readings = [Reading(", then ".join(_reading_words(action) for action in actions), actions)
                for actions in outcomes.values()]
    raise AmbiguousReading("which cards were laid in the turns the camera missed", readings)


def _sequences(state: State, remaining: dict[int, Sequence[str]],
               refill: Any) -> Iterator[list[Action]]:
    """Every way the acting player and those after them, each once, reach ``remaining``."""
    if not remaining:
        yield []
        return
    acting = state.current_player()
    if state.is_over() or state.is_chance() or acting not in remaining:
        return
    rest = {player: grid for player, grid in remaining.items() if player != acting}
    try:
        options = [[_placement_shown(state, remaining[acting], refill)]]
    except AmbiguousReading as asked:
        options = [reading.actions for reading in asked.readings]
    except IllegalAction:
        return
    for actions in options:
        after = state.clone()
        for action in actions:
            after.apply(action)
        for later in _sequences(after, rest, None):
            yield [*actions, *later]


def _told_apart(state: State, actions: Sequence[Action]) -> list[Action]:
    """The first of each set of placements nobody can tell apart: equal cards (twins) from
    the same place, taking equal cards into the hand."""
    cards = state.setup["cards"]
    kept: dict[tuple[Any, ...], Action] = {}
    for action in actions:
        refill = action.get("refill")
        kept.setdefault((tuple(cards[action["card"]]), action["source"],
                         None if refill is None else tuple(cards[refill])), action)
    return list(kept.values())


def _outcome_key(state: State, action: Action) -> str:
    """The state after ``action`` as text, cards named by their squares: two placements with
    the same key play and score alike from there on.

    Equal cards (twins) are interchangeable, so a card counts by its squares, wherever it
    lies (supply, hands, loose cards, warehouses); the supply and the hands as sets (their
    order is nobody's choice); the cards laid as a set per warehouse, without the place or
    turn of each (the grid holds what the rules read).
    """
    trial = state.clone()
    trial.apply(action)
    cards = state.setup["cards"]

    def looks(slots: Sequence[str | None]) -> list[str]:
        return sorted("?" if card is None else "/".join(cards[card]) for card in slots)

    data = json_copy(trial.data)
    data["supply"], data["loose"] = looks(data["supply"]), looks(data["loose"])
    data["hands"] = [looks(hand) for hand in data["hands"]]
    data["placed"] = [looks([record["card"] for record in placed]) for placed in data["placed"]]
    return json.dumps(data, sort_keys=True)


def _reading_words(action: Action) -> str:
    """"c07 from the supply", "c12 from the hand and c03 from the supply into the hand", or
    the card alone when it may come from either."""
    card, source = action["card"], action["source"]
    if source == "hand" and action.get("refill") is not None:
        return f"{card} from the hand and {action['refill']} from the supply into the hand"
    if source == EITHER:
        return str(card)  # a card not seen before: from the supply or the hand alike
    return f"{card} from the {source}"


def _what_differs(state: State, actions: Sequence[Action]) -> str:
    name = state.players[state.current_player()]  # type: ignore[index]
    if len({action["card"] for action in actions}) == 1:
        return f"which supply card {name} took into the hand (no camera sees it)"
    if len({action.get("refill") for action in actions}) > 1:
        return f"which card {name} laid, nor which supply card went into the hand"
    return f"which card {name} laid (they look the same there)"


def _starting_card(state: State, player: int, seen: Sequence[str], taken: set[str]) -> str:
    """The card not yet seen whose squares, centred and unturned, the grid shows."""
    rows, cols = state.options["warehouse_rows"], state.options["warehouse_cols"]
    blank = [NO_CARD * cols] * rows
    changed = _changed_cells(blank, seen)
    fits: dict[tuple[str, ...], list[str]] = {}
    for card in state.unseen():
        squares = state.setup["cards"][card]
        cells = _squares_at(squares, (rows - len(squares)) // 2, (cols - len(squares[0])) // 2)
        if card not in taken and changed.keys() <= cells.keys() and _agrees(cells, seen):
            fits.setdefault(tuple(_laid(blank, cells)), []).append(card)
    name = state.players[player]
    if not fits:
        raise IllegalAction(f"the warehouse of {name} shows {_describe(changed)}, which is no "
                            "starting card not yet seen (laid in the middle, unturned)")
    if len(fits) > 1:
        readings = [Reading(cards[0],
                            [{"type": REVEAL, "zone": "warehouse", "player": player,
                              "card": cards[0]}]) for cards in fits.values()]
        raise AmbiguousReading(f"which starting card {name} laid (the cells read fit "
                               "several)", readings)
    return next(iter(fits.values()))[0]


def _candidates(state: State, refill: Any, changed: Mapping[tuple[int, int], str]
                ) -> Iterator[tuple[Action, dict[tuple[int, int], str]]]:
    """Every position covering the changed cells of every card the player may lay, in the
    engine's order (supply, hand, then cards not yet seen), with its squares."""
    rows, cols = state.options["warehouse_rows"], state.options["warehouse_cols"]
    low_row, high_row = min(r for r, _ in changed), max(r for r, _ in changed)
    low_col, high_col = min(c for _, c in changed), max(c for _, c in changed)
    for source, card, taken in _sources(state, refill):
        for rotation, turned in _distinct_turns(state.setup["cards"][card]):
            height, width = len(turned), len(turned[0])
            for row in range(max(0, high_row - height + 1), min(low_row, rows - height) + 1):
                for col in range(max(0, high_col - width + 1), min(low_col, cols - width) + 1):
                    action: Action = {"type": "place", "source": source, "card": card,
                                      "row": row, "col": col, "rotation": rotation}
                    if source == "hand":
                        action["refill"] = taken
                    yield action, _squares_at(turned, row, col)


def _sources(state: State, refill: Any) -> list[tuple[str, str, Any]]:
    """(source, card, refill if from the hand) of each card the acting player may lay."""
    player = state.current_player()
    supply, hand = state.data["supply"], state.data["hands"][player]
    table = state.deal == "table"
    # A hand play takes the supply card named; not named, in a seeded game any supply card
    # (each one a reading), at a table dealt by hand None (not seen: the engine keeps every
    # possibility). An odd name: the engine says why.
    takes = [refill] if refill is not None or table else [card for card in supply
                                                          if card is not None]
    sources = [("supply", card, None) for card in supply if card is not None]
    sources += [("hand", card, take) for card in hand if card is not None for take in takes]
    if table and (None in supply or None in hand):
        if None not in hand:
            source = "supply"
        elif None not in supply or refill is not None:
            source = "hand"  # a refill named: the card came from the hand
        else:
            source = EITHER
        sources += [(source, card, refill) for card in state.unlocated()]
    return sources


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
    cells = [f"{symbol} at {at(row, col)}" for (row, col), symbol in sorted(changed.items())]
    more = len(cells) - SHOWN_CELLS
    return ", ".join(cells[:SHOWN_CELLS]) + (f" and {more} more" if more > 0 else "")


def _describe_action(action: Action) -> str:
    return placement_words(action)
