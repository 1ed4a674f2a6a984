"""The Removal camera referee: the tiles seen in the trucks in, ``load``/``store``/``drive`` out.

A pure translator for the live loop (``station.live.translators``): it compares
the tiles the camera sees on the players' truck mats with the engine's trucks and
returns the actions that explain the difference.

The camera's observation shows every truck at once (``vision.games.removal.read_truck``
per truck, wrapped by ``station.games.removal.camera``)::

    {"kind": "trucks",
     "trucks": [{"player": "Ana", "found": True,
                 "tiles": [{"tile": "I07", "row": 3, "col": 2, "rotation": 90,
                            "flipped": False}],
                 "unknown_tags": [], "consistent": True},
                {"player": "Ben", "found": True, "tiles": [], ...}],
     "helpers": [2],                                       # optional: Helper cards played
     "storage": "I12"}                                     # optional: the item in storage

(``helpers`` and ``storage``, a person's entries, speak of the acting player.) A reading
of one truck is read too (a person's, a recording's)::

    {"kind": "truck", "player": "Ana", "found": True, "tiles": [...],
     "helpers": [2], "storage": "I12"}

A tile's ``row``/``col`` is its *tag's* square: the first square of the top row
of its shape as the catalogue draws it, turned by ``rotation`` after a mirror
left to right when ``flipped`` (``"flip"`` is read too). The engine's
placements name the top-left corner of the turned tile's bounding box; the
referee converts. Readings (``docs/rules-notes.md``, "Camera referees"):

- ``player`` defaults to the player to act. A truck not ``found`` is not compared.
- Another player's truck changed too: the camera missed a state (turns that never held
  still long enough). The turns it shows at once are caught up: each truck's steps taken
  by its player whenever the engine gives them the turn, from the acting player on (a
  player's truck may show two turns, the others' between them); the one way there is
  applied (ways leading to the same state count once), several leading to different
  states are asked about (:class:`~rules.errors.AmbiguousReading`, each way turn by turn:
  "Ana: I17 first, then I57 (I57 damages I17, a drive now scores -4); then Ben: I05 (no
  damage, a drive now scores 0)"), none is refused ("the truck of Ben changed, but it
  is Ana's turn").
- A new tile → ``load`` when it comes from the house, ``load-stored`` when it
  is the player's stored item, at the turn and flip the tag shows; several new
  tiles (an extra action from a pair of symbols) → one action each, in an order
  the engine accepts. The camera sees only where they ended up: when every such
  order leads to the same state, the first is taken; when the orders lead to
  different states (a tile that slid under another's overhang is damaged only
  if it lay there first), :class:`~rules.errors.AmbiguousReading` with one
  reading per state, e.g. "I17 first, then I57 (I57 damages I17, a drive now
  scores -4)", and a person picks. An illegal placement →
  :class:`IllegalAction` with the engine's own reason.
- ``storage`` naming an item while the player's storage is empty → ``store``
  (ignored when that item is seen in the truck: a stale reading).
- Every tile gone from a truck that held some → ``drive``. Some of the acting
  player's loaded tiles gone, none new or moved → ``[]``: the truck is being
  emptied tile by tile (or a hand rests over part of it and the camera keeps
  what it saw there); the drive is read once it is empty.
- ``helpers`` go with the first action of the observation (``[]`` without it).
- A loaded tile seen elsewhere, or gone while others stay, is refused, unless
  its tag square is covered by another tile (Helper 3 lets tiles overlap).
- A turn that changes nothing the camera sees (driving an empty truck) is
  declared with a button. Once the game is over, observations mean nothing.

A game dealt by hand (docs/formats.md §9) is read before play goes on: while the
engine waits for the deal (:meth:`State.is_chance`), a truck that changed is
refused ("the deal is not read yet ...") and an unchanged one gives ``[]``.
The deal comes from a person's picker (reveal actions) or from a reading of
the house area, turned into the reveals of the slots still unread, in the
engine's order, up to the first slot the reading leaves open (``null`` or
``"?"``)::

    {"kind": "house",
     "house": [[null, "I07", "B03", ...], ...],   # rows as the house layout
     "waiting": ["I33", "I02", "I61"],            # optional
     "keepsakes": ["yarn", "hat", "paw"]}         # optional (the variant)

Slots already read are not compared again (a stale reading changes nothing);
a tile already on the table, of the wrong kind or not in the copy is refused
with the engine's reason.

Example::

    >>> from rules import get_game
    >>> state = get_game("removal").new_game(["Ana", "Ben"], seed=1)
    >>> load = next(a for a in state.legal_actions() if a["type"] == "load")
    >>> spot = tag_square(state.specs[load["item"]].shape, load["row"], load["col"],
    ...                   load["rotation"], load["flip"])
    >>> seen = {"tile": load["item"], "row": spot[0], "col": spot[1],
    ...         "rotation": load["rotation"], "flipped": load["flip"]}
    >>> Referee().translate(state, {"kind": "truck", "found": True, "tiles": [seen]}) == [load]
    True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from itertools import permutations
from typing import Any

from rules.engine import Action, State, json_copy
from rules.errors import AmbiguousReading, IllegalAction, Reading
from rules.games.removal.deal import slot_words
from rules.games.removal.truck import ROTATIONS, oriented_cells

GAME = "removal"
KIND = "truck"
TRUCKS_KIND = "trucks"  # a reading of every truck at once (the camera's)
HOUSE_KIND = "house"
UNREAD = (None, "?")

Cell = tuple[int, int]


class Referee:
    """Turns the tiles the camera sees in the trucks into Removal actions.

    Stateless: every answer comes from the observation and the engine's state alone.
    See the module docstring for the readings.
    """

    def __repr__(self) -> str:
        return (f"<removal Referee: {TRUCKS_KIND!r} and {KIND!r} observations, tags on the "
                "shape's first square>")

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The actions the trucks (and storage) show, or the reveals a reading of the house
        gives; ``[]`` when nothing changed."""
        if state.is_over():
            return []
        if observation.get("kind") == HOUSE_KIND:
            return house_reveals(state, observation)
        if observation.get("kind") not in (KIND, TRUCKS_KIND):
            return []
        acting = state.current_player()
        assert acting is not None
        steps = _steps_by_player(state, observation, acting)
        helpers = list(observation.get("helpers", []))
        if any(player != acting for player in steps):
            return _caught_up(state, steps, helpers)
        if acting not in steps:
            return []
        if state.is_chance():
            slot = state.unread_slot()  # type: ignore[attr-defined]
            raise IllegalAction(f"the deal is not read yet: reveal {_slot_words(slot)} "
                                "before play goes on")
        return _in_legal_order(state, steps[acting], helpers)

    def shows_state(self, state: State, observation: Mapping[str, Any]) -> bool:
        """Whether a reading shows the trucks it found just as the engine has them: every
        loaded tile at its place and no other (a tile nudged and put back shows it again)."""
        if observation.get("kind") not in (KIND, TRUCKS_KIND):
            return False
        acting = state.current_player()
        default = None if acting is None else state.players[acting]
        trucks = [truck for truck in _truck_entries(observation) if truck.get("found", True)]
        if not trucks or any(truck.get("player", default) not in state.players
                             for truck in trucks):
            return False
        return all({item: tile["cells"] for item, tile
                    in _seen_tiles(state, truck.get("tiles", [])).items()}
                   == _loaded_tiles(state, state.players.index(truck.get("player", default)))
                   for truck in trucks)


def house_reveals(state: State, observation: Mapping[str, Any]) -> list[Action]:
    """The reveals a reading of the house (and the waiting items, the keepsake cards) gives
    for the slots still unread, in the engine's order, up to the first one it leaves open."""
    reading = {"house": observation.get("house") or [],
               "waiting": observation.get("waiting") or [],
               "keepsakes": observation.get("keepsakes") or []}
    trial = state.clone() if state.is_chance() else state
    reveals: list[Action] = []
    while (slot := trial.unread_slot()) is not None:  # type: ignore[attr-defined]
        component = _read_slot(reading, slot)
        if component in UNREAD:
            break
        key = "keepsake" if slot["zone"] == "keepsakes" else "item"
        reveal = {**slot, key: component}
        trial.apply(reveal)  # IllegalAction with the engine's reason when it is no outcome
        reveals.append(reveal)
    return reveals


def _read_slot(reading: Mapping[str, Any], slot: Mapping[str, Any]) -> Any:
    """What the reading shows in the slot of a reveal action (None when it does not say)."""
    try:
        if slot["zone"] == "house":
            return reading["house"][slot["row"]][slot["col"]]
        return reading[slot["zone"]][slot["slot"]]
    except (IndexError, KeyError, TypeError):
        return None


def _slot_words(reveal: Mapping[str, Any]) -> str:
    return slot_words(dict(reveal))


def tag_square(shape: Sequence[str], row: int, col: int, rotation: int, flip: bool) -> Cell:
    """Where the tag of a tile placed at engine (``row``, ``col``, ``rotation``, ``flip``) is.

    >>> tag_square([".#", "##"], 0, 0, 0, False)
    (0, 1)
    """
    offsets = _offsets_from_tag(shape, rotation, flip)
    return row - min(r for r, _ in offsets), col - min(c for _, c in offsets)


# ------------------------------------------------------------------------ helpers
def _player_index(state: State, name: Any) -> int:
    if name not in state.players:
        raise IllegalAction(f"the camera read the truck of {name!r}, who is not playing here")
    return state.players.index(name)


def _truck_entries(observation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The trucks a reading shows: itself for a reading of one truck, else its ``trucks``."""
    if observation.get("kind") == KIND:
        return [observation]
    return list(observation.get("trucks") or [])


def _steps_by_player(state: State, observation: Mapping[str, Any],
                     acting: int) -> dict[int, list[Action]]:
    """The steps each found truck shows (players whose truck shows none left out).

    A person's ``storage`` entry on a reading of every truck speaks of the acting player's
    storage (as ``helpers`` speak of the acting player's turn)."""
    steps = {}
    for truck in _truck_entries(observation):
        if not truck.get("found", True):
            continue
        player = _player_index(state, truck.get("player", state.players[acting]))
        if player == acting and "storage" not in truck and "storage" in observation:
            truck = {**truck, "storage": observation["storage"]}
        shown = _truck_steps(state, player, truck, acting)
        if shown:
            steps[player] = shown
    return steps


def _truck_steps(state: State, player: int, truck: Mapping[str, Any],
                 acting: int) -> list[Action]:
    """What one truck shows: a drive when it was emptied, else a load per new tile (and a
    store); ``[]`` while the acting player's truck is being emptied (or a hand lies over
    some of it). A loaded tile moved, or gone while others stay, is refused."""
    loaded = _loaded_tiles(state, player)
    seen = _seen_tiles(state, truck.get("tiles", []))
    if loaded and not seen:
        return [{"type": "drive"}]
    if player == acting and _unloading(state, player, loaded, seen):
        return []  # tiles lifted off one by one (a drive), or a hand over some: wait
    _check_kept(state, player, loaded, seen)
    return _new_steps(state, player, loaded, seen, truck)


def _offsets_from_tag(shape: Sequence[str], rotation: int, flip: bool) -> list[Cell]:
    """The squares of a turned tile relative to its tag's square (mirror, then turn clockwise)."""
    squares = [(r, c) for r, line in enumerate(shape) for c, char in enumerate(line) if char == "#"]
    tag_row, tag_col = squares[0]
    offsets = []
    for r, c in squares:
        x, y = (tag_col - c if flip else c - tag_col), r - tag_row
        for _ in range(rotation // 90 % 4):
            x, y = -y, x
        offsets.append((y, x))
    return offsets


def _loaded_tiles(state: State, player: int) -> dict[str, frozenset[Cell]]:
    """The engine's tiles in the truck: item → the cells it covers."""
    loaded = {}
    for record in state.data["players"][player]["truck"]:
        cells = oriented_cells(state.specs[record["item"]].shape, record["rotation"],
                               record["flip"])
        loaded[record["item"]] = frozenset((record["row"] + r, record["col"] + c)
                                           for r, c in cells)
    return loaded


def _seen_tiles(state: State, tiles: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The observed tiles: item → engine placement (row, col, rotation, flip) and cells."""
    seen = {}
    for tile in tiles:
        item, rotation = tile.get("tile"), tile.get("rotation")
        flip = bool(tile.get("flipped", tile.get("flip", False)))
        if item not in state.specs:
            raise IllegalAction(f"the camera read a tile {item!r}, which this game has not")
        if rotation not in ROTATIONS or not all(isinstance(tile.get(key), int)
                                                for key in ("row", "col")):
            raise IllegalAction(f"the camera read {item} at an odd place: {dict(tile)}")
        offsets = _offsets_from_tag(state.specs[item].shape, rotation, flip)
        cells = frozenset((tile["row"] + r, tile["col"] + c) for r, c in offsets)
        seen[item] = {"row": min(r for r, _ in cells), "col": min(c for _, c in cells),
                      "rotation": rotation, "flip": flip, "cells": cells}
    return seen


def _unloading(state: State, player: int, loaded: Mapping[str, frozenset[Cell]],
               seen: Mapping[str, Mapping[str, Any]]) -> bool:
    """Some loaded tiles gone (no tile over their tag), none new or moved: the truck is
    being emptied."""
    return (set(seen) <= set(loaded) and bool(_gone(state, player, seen))
            and all(tile["cells"] == loaded[item] for item, tile in seen.items()))


def _gone(state: State, player: int, seen: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The loaded tiles not seen whose tag square no seen tile covers."""
    covered = frozenset().union(*(tile["cells"] for tile in seen.values()))
    return [record["item"] for record in state.data["players"][player]["truck"]
            if record["item"] not in seen and tag_square(
                state.specs[record["item"]].shape, record["row"], record["col"],
                record["rotation"], record["flip"]) not in covered]


def _check_kept(state: State, player: int, loaded: Mapping[str, frozenset[Cell]],
                seen: Mapping[str, Mapping[str, Any]]) -> None:
    """Refuse loaded tiles seen elsewhere, or gone without another tile covering their tag."""
    name = state.players[player]
    for item, tile in seen.items():
        if item in loaded and tile["cells"] != loaded[item]:
            raise IllegalAction(f"{item} moved in the truck of {name}: loaded tiles stay put")
    for item in _gone(state, player, seen)[:1]:
        raise IllegalAction(f"{item} is no longer seen in the truck of {name}: tiles "
                            "leave a truck only when it drives")


def _new_steps(state: State, player: int, loaded: Mapping[str, frozenset[Cell]],
               seen: Mapping[str, Mapping[str, Any]],
               observation: Mapping[str, Any]) -> list[Action]:
    """One load (or load-stored) per new tile, then a store when the storage filled up."""
    storage = state.data["players"][player]["storage"]
    steps: list[Action] = []
    for item, tile in seen.items():
        if item in loaded:
            continue
        place = {key: tile[key] for key in ("row", "col", "rotation", "flip")}
        steps.append({"type": "load-stored", **place} if item == storage
                     else {"type": "load", "item": item, **place})
    stored = observation.get("storage")
    if storage is None and stored is not None and stored not in seen:
        steps.append({"type": "store", "item": stored})
    return steps


def _in_legal_order(state: State, steps: list[Action], helpers: list[Any]) -> list[Action]:
    """The steps in an order the engine accepts one after another by the same player.

    Every accepted order is tried: when they all lead to the same state, the first is
    returned; when they lead to different states (a damage, a score), AmbiguousReading with
    the first order of each. No order accepted: IllegalAction with the engine's reason for
    the steps in the order seen.
    """
    first_reason = None
    outcomes: dict[str, tuple[list[Action], State, list[str]]] = {}
    for order in permutations(steps):
        actions = [dict(step, helpers=helpers if index == 0 else [])
                   for index, step in enumerate(order)]
        if len(actions) == 1:  # no order to tell: the engine's check is enough
            reason = _refusal(state, actions)
            if reason is None:
                return actions
            raise IllegalAction(reason)
        try:
            trial, damages = _applied_in_a_row(state, actions)
        except IllegalAction as error:
            first_reason = first_reason or error.reason
            continue
        outcomes.setdefault(_outcome_key(trial), (actions, trial, damages))
    if not outcomes:
        raise IllegalAction(first_reason or "these changes cannot be made sense of")
    if len(outcomes) == 1:
        return next(iter(outcomes.values()))[0]
    player = state.current_player()
    assert player is not None
    readings = [Reading(_order_words(state, actions, trial, damages, player), actions)
                for actions, trial, damages in outcomes.values()]
    raise AmbiguousReading(f"in which order {state.players[player]} "
                           f"{_moves_words(state, steps, player)}", readings)


def _caught_up(state: State, steps: Mapping[int, list[Action]],
               helpers: list[Any]) -> list[Action]:
    """The turns a reading shows at once (the camera missed the states between): each
    truck's steps, taken by its player whenever the engine gives them the turn, from the
    acting player on (an extra action stays in its turn; a player's truck may show two
    turns, the others' between them).

    The one way there is applied (ways that lead to the same state count once: the first);
    several leading to different states are asked about
    (:class:`~rules.errors.AmbiguousReading`, each way in words, turn by turn); none:
    :class:`IllegalAction`, as for a truck changed out of turn.
    """
    outcomes: dict[str, list[Action]] = {}
    for actions, after in _sequences(state, steps, helpers):
        outcomes.setdefault(_outcome_key(after), actions)
    if len(outcomes) == 1:
        return next(iter(outcomes.values()))
    acting = state.current_player()
    assert acting is not None
    if not outcomes:
        other = next(player for player in steps if player != acting)
        raise IllegalAction(f"the truck of {state.players[other]} changed, but it is "
                            f"{state.players[acting]}'s turn")
    readings = [Reading(_turns_words(state, actions), actions) for actions in outcomes.values()]
    raise AmbiguousReading("in which order the tiles were loaded in the turns the camera missed",
                           readings)


def _sequences(state: State, steps: Mapping[int, list[Action]],
               helpers: list[Any]) -> Iterator[tuple[list[Action], State]]:
    """Every way the players, each taking one of their own steps whenever the engine gives
    them the turn, take all ``steps``: the actions and the state they lead to. ``helpers``
    go with the first action (a person's entry speaks of the acting player's turn)."""
    if not any(steps.values()):
        yield [], state
        return
    player = state.current_player()
    if player is None or state.is_chance():
        return
    own = steps.get(player, [])
    for index, step in enumerate(own):
        action = dict(step, helpers=helpers)
        after = state.clone()
        try:
            after.apply(action)
        except IllegalAction:
            continue
        rest = {**steps, player: [*own[:index], *own[index + 1:]]}
        for later, end in _sequences(after, rest, []):
            yield [action, *later], end


def _refusal(state: State, actions: Sequence[Action]) -> str | None:
    """Why the engine refuses ``actions`` in a row by the player to act (None: it accepts)."""
    if len(actions) == 1:
        try:
            state.check(actions[0])
        except IllegalAction as error:
            return error.reason
        return None
    try:
        _applied_in_a_row(state, actions)
    except IllegalAction as error:
        return error.reason
    return None


def _applied_in_a_row(state: State, actions: Sequence[Action]) -> tuple[State, list[str]]:
    """A copy of ``state`` after ``actions`` by the player to act, and the damage each did in
    words ("I57 damages I17"); IllegalAction with the engine's reason if it refuses one."""
    trial = state.clone()
    acting = state.current_player()
    damages = []
    for action in actions:
        if trial.current_player() != acting:
            raise IllegalAction(f"{state.players[acting]} has no extra action left for "
                                f"{action.get('item', 'the stored item')}")
        trial.apply(action)
        damages += _damage_words(trial)
    return trial, damages


def _damage_words(state: State) -> list[str]:
    """The damage the latest action did, in words: ``["I57 damages I17"]`` (none: ``[]``)."""
    last = state.data["last"] or {}
    damaged = last.get("damaged") or []
    return [f"{last['item']} damages {' and '.join(damaged)}"] if damaged else []


def _outcome_key(state: State) -> str:
    """What a state is for the rest of the game, as text: two states with the same key play
    and score alike from there on.

    It is ``data`` without ``last`` (the outcome of the latest action: history, like the
    log), with each truck's tiles as a set plus, for each two tiles that overlap (Helper 3),
    which lies on top (the loading order counts nowhere else), its unused symbols counted
    (which tile of a pair keeps its symbol unused changes nothing: the next tile with that
    symbol pairs either way), and the tiles driven away as a set.
    """
    data = json_copy(state.data)
    data.pop("last", None)
    for index, player in enumerate(data["players"]):
        truck = player["truck"]
        player["unused_symbols"] = sorted(
            str(state.specs[record["item"]].symbol) for record in truck
            if not record.pop("paired") and state.specs[record["item"]].symbol)
        truck.sort(key=lambda record: record["item"])
        tiles = state.truck(index).tiles  # type: ignore[attr-defined]
        player["on_top"] = sorted([under.spec.name, over.spec.name]
                                  for number, under in enumerate(tiles)
                                  for over in tiles[number + 1:] if under.mask & over.mask)
        player["transported"] = sorted(player["transported"])
    return json.dumps(data, sort_keys=True)


def _step_words(state: State, action: Mapping[str, Any], player: int) -> str:
    """One step of an order in words: "I07", "I12 from storage", "I12 into storage",
    "a drive"."""
    if action["type"] == "store":
        return f"{action['item']} into storage"
    if action["type"] == "drive":
        return "a drive"
    if action["type"] == "load-stored":
        return f"{state.data['players'][player]['storage']} from storage"
    return str(action["item"])


def _order_words(state: State, actions: Sequence[Action], trial: State,
                 damages: Sequence[str], player: int) -> str:
    """An order and where it leads, in words: "I07 first, then B03 (B03 damages I07, a drive
    now scores 9)", "a drive (scoring 7)"; a Helper card goes with the first step. ``trial``
    is the state the order leads to."""
    steps = [_step_words(state, action, player) for action in actions]
    played = actions[0].get("helpers") or []
    if played:
        steps[0] += " with " + " and ".join(f"Helper {helper}" for helper in played)
    order = steps[0] if len(steps) == 1 else (
        f"{steps[0]} first, " + ", ".join(f"then {step}" for step in steps[1:]))
    if actions[-1]["type"] == "drive":
        scored = (trial.data["last"] or {}).get("drive") or {}
        return f"{order} (scoring {scored.get('total', 0)})"
    damage = ", ".join(damages) or "no damage"
    if trial.is_over():
        total = next(score.total for score in trial.scores()
                     if score.player == state.players[player])
        return f"{order} ({damage}, {state.players[player]} ends on {total})"
    drive = trial.truck(player).drive_score().total  # type: ignore[attr-defined]
    return f"{order} ({damage}, a drive now scores {drive})"


def _moves_words(state: State, steps: Sequence[Action], player: int) -> str:
    """What the player did, in words: "loaded I07 and B03", "loaded I07 and stored I12"."""
    loaded = [_step_words(state, step, player) for step in steps if step["type"] != "store"]
    stored = [step["item"] for step in steps if step["type"] == "store"]
    parts = ([f"loaded {' and '.join(loaded)}"] if loaded else []) + [
        f"stored {item}" for item in stored]
    return " and ".join(parts)


def _turns_words(state: State, actions: Sequence[Action]) -> str:
    """A catch-up in words, turn by turn: "Ana: I17 first, then I57 (I57 damages I17, a
    drive now scores -4); then Ben: I48 (no damage, a drive now scores 1)"."""
    turns: list[tuple[int, State, list[Action], list[str]]] = []  # who, before, what, damage
    trial = state.clone()
    for action in actions:
        player = trial.current_player()
        assert player is not None
        if not turns or turns[-1][0] != player:
            turns.append((player, trial.clone(), [], []))
        trial.apply(action)
        turns[-1][2].append(action)
        turns[-1][3].extend(_damage_words(trial))
    afters = [before for _, before, _, _ in turns[1:]] + [trial]
    return "; then ".join(
        f"{state.players[player]}: {_order_words(before, steps, after, damages, player)}"
        for (player, before, steps, damages), after in zip(turns, afters, strict=True))
