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

Optional keys a person adds (buttons on the table page): ``helper_vehicle``
(where the helper card went; null: out of play), ``group`` (the number of the
group taken, counted from 0 at the left) and ``helper`` (the id of the taken
group's helper card, when it was not entered before).

Readings (``docs/rules-notes.md``, "Camera referees" and Moving Day's "A table
dealt by hand"):

- Only vehicles ``found`` are compared; tags the catalogue does not know are
  ignored. No new box → ``[]``.
- New boxes in the acting player's vehicles → the legal ``take`` of the group
  holding them whose placed boxes are exactly the new ones, at the places seen.
  While only some of a group's boxes have appeared and the rest can still be
  placed, the referee waits (``[]``); a box goes out of play only when the
  rules give it no space.
- In a game dealt by hand no camera films the groups: a box not seen before
  may come from any group with an unseen box. The group is the one that holds
  a new box already seen (a person revealed it), else the ``group`` named,
  else the only group that can hold the new boxes. When several can, the
  referee does not guess: if their readings lead to different states (the
  group decides the snacks and the helper card), it asks with
  :class:`~rules.errors.AmbiguousReading`, one reading per group (and per
  place of its helper card, when that is not entered either), e.g. "from
  group 2 (1 snack), helper-04 in the car", each with its reveals and take;
  if a reading cannot be whole yet (a group's helper card not known, a group
  still on its way), :class:`IllegalAction` naming the groups. The take is
  preceded by the reveals it makes: ``{"type": "reveal", "group": g, "box":
  id}`` for each new box not seen before, and the named ``helper``.
- The helper card is not seen: a group's helper must have been revealed by a
  person (the picker) or be named by ``helper``; otherwise the referee asks.
  Its vehicle is ``helper_vehicle`` when the key is given, else the only
  place the rules leave it. Where they leave several (vehicles with seats
  enough; out of play where the ``helper_discard`` option allows), the
  referee does not guess: :class:`~rules.errors.AmbiguousReading` with one
  reading per place ("helper-04 in the car", "helper-04 out of play"), unless
  they all lead to the same state (then the first, in fleet order).
- A take whose boxes all leave play changes nothing the camera sees: declare
  it (likewise a box not seen before that leaves play: no camera saw which).
- A hand over a vehicle mat (``unknown_cells``) may hide boxes already placed:
  they are not missed while it lies there.
- New boxes in another player's vehicles too: the camera missed a state (a turn
  never held still long enough). The turns it shows at once are caught up: a
  take per player with new boxes, in turn order from the acting player; the one
  way there is applied, several leading to different states are asked about
  (:class:`~rules.errors.AmbiguousReading`), none → :class:`IllegalAction`.
- A box that left its space, moved, or appeared in another player's vehicle
  alone, a box already seen elsewhere ("box-07 is already in a vehicle (Ana's car)"),
  a box the catalogue has not ("there is no box 'x' in this copy"), a box in
  no group, or boxes at places the rules do not allow → :class:`IllegalAction`
  (with the engine's reason for the places). Nothing is returned then: no
  reveal is made from a refused reading.
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
    ...     {"vehicle": "scooter", "found": True, "boxes": seen}]}],
    ...     "helper_vehicle": take["helper_vehicle"]}  # a person's entry
    >>> Referee().translate(state, observation) == [take]
    True
    >>> del observation["helper_vehicle"]  # nobody said: the referee asks
    >>> try:
    ...     Referee().translate(state, observation)
    ... except AmbiguousReading as question:
    ...     [reading.text for reading in question.readings]
    ['helper-29 in the scooter', 'helper-29 in the car', 'helper-29 in the truck']
    >>> Referee().translate(state, {"kind": "vehicles", "players": [{"player": "Ana",
    ...     "vehicles": [{"vehicle": "scooter", "found": True, "boxes": seen[:1]}]}]})
    []
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rules.engine import REVEAL, Action, State
from rules.errors import AmbiguousReading, IllegalAction, Reading
from rules.games.moving_day.engine import UNSEEN
from rules.words import at, counted, either

GAME = "moving-day"
KIND = "vehicles"

Spot = tuple[str, int, int]  # (vehicle name, row, col)


class Referee:
    """Turns the boxes the camera sees in the vehicles into Moving Day ``take`` actions.

    Stateless: every answer comes from the observation and the engine's state alone.
    See the module docstring for the readings.
    """

    def __repr__(self) -> str:
        return f"<moving-day Referee: {KIND!r} observations, asks where a helper card went>"

    def translate(self, state: State, observation: Mapping[str, Any]) -> list[Action]:
        """The reveals and ``take`` the new boxes show; ``[]`` while nothing (or half a group)
        appeared."""
        if observation.get("kind") != KIND or state.is_over():
            return []
        appeared = _appeared_by_player(state, observation)
        acting = state.current_player()
        if any(player != acting for player in appeared):
            return _caught_up(state, observation, appeared)
        if acting not in appeared:
            return []
        return _take_shown(state, appeared[acting], observation)

    def shows_state(self, state: State, observation: Mapping[str, Any]) -> bool:
        """Whether the reading shows the vehicles just as the engine has them: no box new,
        none gone or moved (a knocked box put back shows it again)."""
        if observation.get("kind") != KIND:
            return False
        return not any(_appeared_boxes(state, _player_index(state, seen.get("player")),
                                       seen.get("vehicles", []))
                       for seen in observation.get("players", []))


# ------------------------------------------------------------------------ helpers
def _appeared_by_player(state: State, observation: Mapping[str, Any]) -> dict[int, dict[str, Spot]]:
    """The boxes new in each player's vehicles (players with none left out)."""
    appeared = {}
    for seen in observation.get("players", []):
        player = _player_index(state, seen.get("player"))
        boxes = _appeared_boxes(state, player, seen.get("vehicles", []))
        if boxes:
            appeared[player] = boxes
    return appeared


def _caught_up(state: State, observation: Mapping[str, Any],
               appeared: Mapping[int, Mapping[str, Spot]]) -> list[Action]:
    """The turns a reading shows at once (the camera missed the states between): a take
    per player with new boxes, in turn order from the acting player.

    The one way there is applied; several leading to different states are asked about
    (:class:`~rules.errors.AmbiguousReading`, each sequence in words); none:
    :class:`IllegalAction`, as for boxes out of turn. A person's keys (``group``,
    ``helper``, ``helper_vehicle``) speak of the acting player's turn only.
    """
    outcomes: dict[str, tuple[list[str], list[Action]]] = {}
    for words, actions in _sequences(state, observation, first=True):
        outcomes.setdefault(_applied(state, actions), (words, actions))
    if len(outcomes) == 1:
        return next(iter(outcomes.values()))[1]
    acting = state.current_player()
    if not outcomes:
        other = next(player for player in appeared if player != acting)
        raise IllegalAction(
            f"{_listed(appeared[other])} appeared in {state.players[other]}'s vehicles, but it "
            f"is {state.players[acting]}'s turn")
    readings = [Reading("; then ".join(word for word in words if word) or "as seen", actions)
                for words, actions in outcomes.values()]
    raise AmbiguousReading("which groups were taken in the turns the camera missed", readings)


def _sequences(state: State, observation: Mapping[str, Any],
               first: bool) -> Iterable[tuple[list[str], list[Action]]]:
    """Every way the acting player and those after them, a take each, reach the reading."""
    appeared = _appeared_by_player(state, observation)
    if not appeared:
        yield [], []
        return
    acting = state.current_player()
    if state.is_over() or state.is_chance() or acting not in appeared:
        return
    told = observation if first else {"kind": KIND, "players": observation.get("players", [])}
    try:
        options = [("", _take_shown(state, appeared[acting], told))]
    except AmbiguousReading as asked:
        options = [(reading.text, reading.actions) for reading in asked.readings]
    except IllegalAction:
        return
    for words, actions in options:
        if not actions:
            continue  # the acting player's group is still on its way: no whole turn
        after = state.clone()
        try:
            for action in actions:
                after.apply(action)
            later = list(_sequences(after, observation, first=False))
        except IllegalAction:
            continue
        for more_words, more in later:
            yield [f"{state.players[acting]}: {words}" if words else "", *more_words], \
                [*actions, *more]


def _player_index(state: State, name: Any) -> int:
    if name not in state.players:
        raise IllegalAction(f"the camera read the vehicles of {name!r}, who is not playing here")
    return state.players.index(name)


def _appeared_boxes(state: State, player: int, vehicles: Iterable[Mapping[str, Any]]
                    ) -> dict[str, Spot]:
    """The boxes seen in ``player``'s found vehicles that the engine does not have there.

    A known box missing from (unless a hand lies over the mat), or moved within, a found
    vehicle is refused.
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
        hand_over_it = vehicle.get("unknown_cells", 0) > 0  # it may hide boxes placed before
        for row, line in enumerate(grids[name]):
            for col, box in enumerate(line):
                if box is None:
                    continue
                spot = seen.pop(box, None)
                if spot != (name, row, col) and not (spot is None and hand_over_it):
                    raise IllegalAction(
                        f"{box} is no longer seen in {state.players[player]}'s {name} at "
                        f"{at(row, col)}: once placed, boxes stay where they are")
        appeared.update(seen)
    return appeared


def _take_shown(state: State, new_boxes: Mapping[str, Spot],
                observation: Mapping[str, Any]) -> list[Action]:
    """The reveals and the take placing exactly ``new_boxes``; [] while the group is half
    placed; AmbiguousReading when the groups or helper vehicles that may be meant lead to
    different states."""
    candidates = _groups_that_may_hold(state, new_boxes, observation)
    shown = {index: _placements(state, index, new_boxes) for index in candidates}
    fitting = [index for index, found in shown.items() if found is not None]
    if not fitting:
        raise IllegalAction(_refusal(state, candidates[0], new_boxes))
    exact = [index for index in fitting if shown[index][0] is not None]  # type: ignore[index]
    if not exact:
        return []  # the rest of the group is still on its way
    several = len(fitting) > 1
    if several and len(exact) < len(fitting):  # one of them may still be on its way
        raise _which_group(new_boxes, fitting)
    try:
        reveals = {index: _reveals(state, index, new_boxes, observation) for index in exact}
    except IllegalAction:
        if not several:
            raise
        raise _which_group(new_boxes, fitting) from None  # no reading is whole: name one
    readings: dict[str, Reading] = {}
    refused: list[IllegalAction] = []
    for index in exact:
        helper = _helper_of(state, index, reveals[index])
        boxes = shown[index][0]  # type: ignore[index]
        for vehicle in _helper_vehicles(state, helper, observation):
            actions = [*reveals[index], {"type": "take", "group": index,
                                         "boxes": [dict(entry) for entry in boxes],
                                         "helper_vehicle": vehicle}]
            try:
                outcome = _applied(state, actions)
            except IllegalAction as error:
                refused.append(error)
                continue
            words = [_helper_words(helper, vehicle)] if helper is not None else []
            if several:
                words.insert(0, _group_words(state, index))
            readings.setdefault(outcome, Reading(", ".join(words), actions))
    if not readings:
        raise refused[0]
    if len(readings) == 1:
        return next(iter(readings.values())).actions
    player = state.players[state.current_player()]  # type: ignore[index]
    if not several:
        helper = _helper_of(state, exact[0], reveals[exact[0]])
        raise AmbiguousReading(f"where {player} put {helper} (no camera reads helper cards)",
                               list(readings.values()))
    raise AmbiguousReading(f"which group {_listed(new_boxes)} came from (no camera sees the "
                           "groups)", list(readings.values()))


def _groups_that_may_hold(state: State, new_boxes: Mapping[str, Spot],
                          observation: Mapping[str, Any]) -> list[int]:
    """The groups the new boxes may come from: the one holding a box among them, else
    those with enough unseen boxes; only the named ``group`` if a person named one."""
    groups = state.data["groups"]
    holding = {}
    for box in new_boxes:
        if box not in state.setup["boxes"]:
            raise IllegalAction(f"there is no box {box!r} in this copy")
        index = next((index for index, group in enumerate(groups)
                      if box in group["boxes"]), None)
        if index is not None:
            holding[box] = index
            continue
        where = state.where_box(box)  # type: ignore[attr-defined]
        if where is not None:
            raise IllegalAction(f"{box} is already {where}")
    if len(set(holding.values())) > 1:
        raise IllegalAction(f"{_listed(new_boxes)} appeared together, but they lie in groups "
                            f"{_either(sorted(set(holding.values())), 'and')}")
    unseen = len(new_boxes) - len(holding)
    candidates = [index for index, group in enumerate(groups)
                  if (not holding or index in holding.values())
                  and group["boxes"].count(UNSEEN) >= unseen]
    if "group" in observation:
        named = observation["group"]
        if named not in candidates:
            raise IllegalAction(f"{_listed(new_boxes)} appeared, but group {_counted(named)} "
                                f"does not hold {'them' if len(new_boxes) > 1 else 'it'}")
        return [named]
    if not candidates:
        raise IllegalAction(f"{_listed(new_boxes)} appeared, but no group on the table holds "
                            f"{'them' if len(new_boxes) > 1 else 'it'}")
    return candidates


def _placements(state: State, index: int, new_boxes: Mapping[str, Spot]
                ) -> tuple[list[dict[str, Any]] | None, bool] | None:
    """How group ``index``'s boxes end up when ``new_boxes`` are its placed ones: the take's
    ``boxes`` entries when the rest leave play (else None), and whether more may come;
    None when the rules give the new boxes no such places."""
    slots = _slots(state, index, new_boxes)
    fleet = state.fleet  # type: ignore[attr-defined]
    wanted = [None if box not in new_boxes else
              (fleet.index[new_boxes[box][0]], *new_boxes[box][1:]) for box in slots]
    endings = state.box_endings(state.current_player(), len(slots)).legal  # type: ignore
    exact = coming = False
    for ending in endings:
        if all(place == want for place, want in zip(ending, wanted, strict=True)
               if want is not None):
            rest = [place for place, want in zip(ending, wanted, strict=True) if want is None]
            exact = exact or all(place is None for place in rest)
            coming = coming or any(place is not None for place in rest)
    if not exact and not coming:
        return None
    entries = None
    if exact:
        entries = [{"box": box, "vehicle": None} if box not in new_boxes else
                   {"box": box, "vehicle": new_boxes[box][0], "row": new_boxes[box][1],
                    "col": new_boxes[box][2]} for box in slots]
    return entries, coming


def _slots(state: State, index: int, new_boxes: Mapping[str, Spot]) -> list[str]:
    """Group ``index``'s boxes, its unseen ones standing for the new boxes not seen before."""
    boxes = state.data["groups"][index]["boxes"]
    unseen = iter(box for box in new_boxes if box not in boxes)
    return [next(unseen, UNSEEN) if box == UNSEEN else box for box in boxes]


def _reveals(state: State, index: int, new_boxes: Mapping[str, Spot],
             observation: Mapping[str, Any]) -> list[Action]:
    """The reveals a take of group ``index`` makes: its new boxes not seen before, and the
    helper card the person named; refused when a box leaves play unseen or the helper card
    is not known."""
    group = state.data["groups"][index]
    slots = _slots(state, index, new_boxes)
    if UNSEEN in slots:
        raise IllegalAction(f"a box of group {counted(index)} leaves play (no space is open), "
                            "but no camera saw which: declare the take")
    reveals: list[Action] = [{"type": REVEAL, "group": index, "box": box}
                             for box in new_boxes if box not in group["boxes"]]
    named = observation.get("helper")
    if group["helper"] == UNSEEN:
        if named is None:
            player = state.players[state.current_player()]  # type: ignore[index]
            raise IllegalAction(f"{player} took group {counted(index)}, but its helper card has "
                                "not been seen: enter it (no camera reads helper cards)")
        reveals.append({"type": REVEAL, "group": index, "helper": named})
    elif named is not None and named != group["helper"]:
        raise IllegalAction(f"group {counted(index)}'s helper card is {group['helper'] or 'none'}, "
                            f"not {named!r}")
    return reveals


def _which_group(new_boxes: Mapping[str, Spot], fitting: list[int]) -> IllegalAction:
    return IllegalAction(
        f"{_listed(new_boxes)} may come from group {_either(fitting)}: no camera sees the "
        "groups; name the group taken, or reveal its boxes")


def _helper_of(state: State, index: int, reveals: list[Action]) -> str | None:
    """Group ``index``'s helper card: the one seen, else the one its reveals name."""
    helper = state.data["groups"][index]["helper"]
    if helper == UNSEEN:
        helper = reveals[-1]["helper"]
    return helper


def _helper_vehicles(state: State, helper: str | None,
                     observation: Mapping[str, Any]) -> list[str | None]:
    """Where the helper card may have gone: ``helper_vehicle`` when a person entered it,
    else every choice the rules give (None: out of play)."""
    if "helper_vehicle" in observation:
        return [observation["helper_vehicle"]]
    return state.helper_choices(state.current_player(), helper)  # type: ignore[attr-defined]


def _applied(state: State, actions: list[Action]) -> str:
    """The position after ``actions`` one after the other, as text (IllegalAction with the
    engine's reason when it refuses one)."""
    trial = state.clone()
    for action in actions:
        trial.apply(dict(action))
    return json.dumps(trial.data, sort_keys=True)


def _helper_words(helper: str, vehicle: str | None) -> str:
    return f"{helper} out of play" if vehicle is None else f"{helper} in the {vehicle}"


def _group_words(state: State, index: int) -> str:
    """"from group 2 (1 snack)": a group counted from 1 at the left, with its snacks."""
    snacks = state.data["groups"][index]["snacks"]
    return (f"from group {index + 1} "
            f"({snacks or 'no'} snack{'' if snacks == 1 else 's'})")


def _refusal(state: State, group_index: int, new_boxes: Mapping[str, Spot]) -> str:
    """The engine's reason for the boxes at the places seen (the rest out of play; unseen
    boxes and helper card stood in for by the first unseen ones)."""
    group = state.data["groups"][group_index]
    stand_ins = iter(box for box in state.unseen_boxes()  # type: ignore[attr-defined]
                     if box not in new_boxes)
    entries = [{"box": next(stand_ins) if box == UNSEEN else box, "vehicle": None}
               if box not in new_boxes else
               {"box": box, "vehicle": new_boxes[box][0], "row": new_boxes[box][1],
                "col": new_boxes[box][2]} for box in _slots(state, group_index, new_boxes)]
    action = {"type": "take", "group": group_index, "boxes": entries, "helper_vehicle": None}
    if group["helper"] == UNSEEN:
        action["helper"] = state.unseen_helpers()[0]  # type: ignore[attr-defined]
    try:
        state.check(action)
    except IllegalAction as error:
        return f"{_listed(new_boxes)} cannot stand where the camera sees them: {error.reason}"
    return f"{_listed(new_boxes)} cannot stand where the camera sees them"


def _either(numbers: list[int], word: str = "or") -> str:
    """Groups' indices as people count them (from 1), listed."""
    return either(numbers, word)


def _counted(index: Any) -> str:
    """A group named by the observation (its JSON index) as people count it."""
    return str(counted(index)) if type(index) is int else repr(index)


def _listed(boxes: Iterable[str]) -> str:
    return " and ".join(sorted(boxes))
