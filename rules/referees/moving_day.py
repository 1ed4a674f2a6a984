"""The Moving Day camera referee: boxes seen in the vehicles in, ``take`` out.

A pure translator for the live loop (``station.live.translators``): it compares
the boxes the camera sees on each player's vehicle mats (tags already resolved
to box ids) with the engine's vehicles, and returns the ``take`` that explains
the boxes that appeared.

The observation (``vision.games.moving_day.read_vehicles`` wrapped by the
station)::

    {"kind": "vehicles",
     "players": [{"player": "Ana",
                  "vehicles": [{"vehicle": "car", "found": True,
                                "boxes": [{"box": "box-07", "row": 2, "col": 0, "rotation": 0}],
                                "unknown_tags": [], "unknown_cells": 0},
                               {"vehicle": "truck", "found": False}]}],
     "helper_vehicle": "car"}                              # optional; null: out of play

Readings (``docs/rules-notes.md``, "Camera referees"):

- Only vehicles ``found`` are compared; tags the catalogue does not know are
  ignored. No new box → ``[]``.
- New boxes in the acting player's vehicles → the legal ``take`` of the group
  holding them whose placed boxes are exactly the new ones, at the places seen.
  While only some of a group's boxes have appeared and the rest can still be
  placed, the referee waits (``[]``); a box goes out of play only when the
  rules give it no space.
- The helper card's vehicle is not seen: the observation's ``helper_vehicle``
  names it when the key is given (a button), else the engine's first choice:
  the first vehicle in the fleet's order (scooter, car, truck) with seats
  enough, out of play only when the rules allow nothing else.
- A take whose boxes all leave play changes nothing the camera sees: declare it.
- A box that left its space, moved, or appeared in another player's vehicle,
  a box in no group, or boxes at places the rules do not allow →
  :class:`IllegalAction` (with the engine's reason for the places).
- Once the game is over, observations mean nothing: ``[]``.

Example::

    >>> from rules import get_game
    >>> state = get_game("moving-day").new_game(["Ana", "Ben"], seed=3)
    >>> take = state.legal_actions()[0]
    >>> [(entry["vehicle"], entry["row"]) for entry in take["boxes"]]
    [('scooter', 2), ('scooter', 3)]
    >>> seen = [{"box": entry["box"], "row": entry["row"], "col": entry["col"], "rotation": 0}
    ...         for entry in take["boxes"]]
    >>> observation = {"kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
    ...     {"vehicle": "scooter", "found": True, "boxes": seen}]}]}
    >>> Referee().translate(state, observation) == [take]
    True
    >>> Referee().translate(state, {"kind": "vehicles", "players": [{"player": "Ana",
    ...     "vehicles": [{"vehicle": "scooter", "found": True, "boxes": seen[:1]}]}]})
    []
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.engine import Action, State
from rules.errors import IllegalAction

GAME = "moving-day"
KIND = "vehicles"

Spot = tuple[str, int, int]  # (vehicle name, row, col)


class Referee:
    """Turns the boxes the camera sees in the vehicles into Moving Day ``take`` actions.

    Stateless: every answer comes from the observation and the engine's state alone.
    See the module docstring for the readings.
    """

    def __repr__(self) -> str:
        return f"<moving-day Referee: {KIND!r} observations, helper default 'first that fits'>"

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The ``take`` the new boxes show, ``[]`` while nothing (or half a group) appeared."""
        if observation.get("kind") != KIND or state.is_over():
            return []
        acting = state.current_player()
        new_boxes: dict[str, Spot] = {}
        for seen in observation.get("players", []):
            player = _player_index(state, seen.get("player"))
            appeared = _appeared_boxes(state, player, seen.get("vehicles", []))
            if appeared and player != acting:
                raise IllegalAction(
                    f"{_listed(appeared)} appeared in {state.players[player]}'s vehicles, but it "
                    f"is {state.players[acting]}'s turn")
            if player == acting:
                new_boxes = appeared
        if not new_boxes:
            return []
        return _take_shown(state, new_boxes, observation)


# ------------------------------------------------------------------------ helpers
def _player_index(state: State, name: Any) -> int:
    if name not in state.players:
        raise IllegalAction(f"the camera read the vehicles of {name!r}, who is not playing here")
    return state.players.index(name)


def _appeared_boxes(state: State, player: int, vehicles: Iterable[Mapping[str, Any]]
                    ) -> dict[str, Spot]:
    """The boxes seen in ``player``'s found vehicles that the engine does not have there.

    A known box missing from, or moved within, a found vehicle is refused.
    """
    names = state.setup["vehicles"]
    grids = {vehicle["name"]: grid["grid"] for vehicle, grid
             in zip(names, state.data["players"][player]["vehicles"], strict=True)}
    appeared: dict[str, Spot] = {}
    for vehicle in vehicles:
        name = vehicle.get("vehicle")
        if not vehicle.get("found", True):
            continue
        if name not in grids:
            raise IllegalAction(f"the camera read a vehicle {name!r}, which this game has not")
        seen = {box["box"]: (name, box["row"], box["col"]) for box in vehicle.get("boxes", [])}
        for row, line in enumerate(grids[name]):
            for col, box in enumerate(line):
                if box is not None and seen.pop(box, None) != (name, row, col):
                    raise IllegalAction(
                        f"{box} is no longer seen in {state.players[player]}'s {name} at row "
                        f"{row} col {col}: once placed, boxes stay where they are")
        appeared.update(seen)
    return appeared


def _take_shown(state: State, new_boxes: Mapping[str, Spot],
                observation: Mapping[str, Any]) -> list[Action]:
    """The take placing exactly ``new_boxes``; [] while the group is half placed."""
    group_index, group = _group_holding(state, new_boxes)
    takes = [action for action in state.legal_actions() if action["group"] == group_index]
    exact = [action for action in takes if _placed(action) == dict(new_boxes)]
    if exact:
        return [_with_helper(state, exact, observation)]
    if any(_placed(action).items() >= new_boxes.items() for action in takes):
        return []  # the rest of the group is still on its way
    raise IllegalAction(_refusal(state, group_index, group, new_boxes))


def _group_holding(state: State, new_boxes: Mapping[str, Spot]) -> tuple[int, Mapping[str, Any]]:
    for index, group in enumerate(state.data["groups"]):
        if set(new_boxes) <= set(group["boxes"]):
            return index, group
    raise IllegalAction(f"{_listed(new_boxes)} appeared, but no group on the table holds "
                        f"{'them' if len(new_boxes) > 1 else 'it'}")


def _placed(action: Action) -> dict[str, Spot]:
    return {entry["box"]: (entry["vehicle"], entry["row"], entry["col"])
            for entry in action["boxes"] if entry["vehicle"] is not None}


def _with_helper(state: State, takes: list[Action], observation: Mapping[str, Any]) -> Action:
    """The take with the observed helper vehicle, or the engine's first choice."""
    chosen = takes[0]
    if "helper_vehicle" in observation:
        wanted = observation["helper_vehicle"]
        chosen = next((action for action in takes if action["helper_vehicle"] == wanted),
                      dict(chosen, helper_vehicle=wanted))
        state.check(chosen)  # a helper that may not sit there: the engine's reason
    return dict(chosen, boxes=[dict(entry) for entry in chosen["boxes"]])


def _refusal(state: State, group_index: int, group: Mapping[str, Any],
             new_boxes: Mapping[str, Spot]) -> str:
    """The engine's reason for the boxes at the places seen (the rest out of play)."""
    entries = []
    for box in group["boxes"]:
        spot = new_boxes.get(box)
        entries.append({"box": box, "vehicle": None} if spot is None else
                       {"box": box, "vehicle": spot[0], "row": spot[1], "col": spot[2]})
    action = {"type": "take", "group": group_index, "boxes": entries, "helper_vehicle": None}
    try:
        state.check(action)
    except IllegalAction as error:
        return f"{_listed(new_boxes)} cannot stand where the camera sees them: {error.reason}"
    return f"{_listed(new_boxes)} cannot stand where the camera sees them"


def _listed(boxes: Iterable[str]) -> str:
    return " and ".join(sorted(boxes))
