"""Hand-dealt games played through the station's HTTP API while a person steps in at random.

The harness of ``test_interventions.py``. Each game has two engine states of its
own, never the station's:

- the **truth**, a seeded game (``new_game(players, seed=k)``) whose moves are
  picked at random among its legal actions: it is the table — the groups and
  helper cards of Moving Day, the house of Removal — and scores what truly lies
  in the vehicles and trucks;
- the **mirror**, the same game dealt by hand (``deal="table"``), moved by the
  true moves and by the reveals of exactly what the table was shown (the picker's
  entries, a person's reading of the house, boxes whose tags the camera read):
  what the station must show after each step, components not yet seen unknown.

The station is told only what a table would tell it: camera readings built from
the truth (Moving Day's vehicle mats through ``vision.games.moving_day``,
Removal's truck mats through ``vision.games.removal.read_truck``), reveals
through the picker, a person's entries for what no camera sees (Moving Day's
group, helper card and the helper's vehicle; Removal's Helper cards), a person's
reading of the house, and Removal's stores declared. After every write the
snapshot is compared with the mirror: the position (``game.state``, Moving Day's
helper cards by kind: cards of one kind are interchangeable), scores, turn,
the open flags and the person entries waiting.

A person steps in at random (:data:`INTERVENTIONS`): a wrong entry then
withdrawn, an illegal placement then the true move as a correction of its flag
(the move as the engine takes it: naming the helper card if the table has not
seen it),
an undo then the same move again (the reading again, a correction, or one
``replace`` correction), an accepted refusal. A flag that no intervention
expects is a **false flag**, unless it is an ask whose readings truly lead to
different states and one of them is the truth (then the true one is chosen), or
a question the table truly left open where no readings can be offered (which of
several unseen groups was taken, a group's helper card unknown: answered by a
tap, ``{"group": g}``, which must apply the reading that waited for it); a
snapshot that differs from the mirror is a **wrong state**; an answer other
than the API's word is a **wrong answer**. A wrong state or a wrong answer ends
that game (what follows it would only repeat it).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from rules import IllegalAction, State, get_game
from rules.catalogue import default_catalogue
from rules.games.moving_day import UNSEEN
from tests.rules.games.moving_day.test_hand_dealt_moving_day import (
    HELPERS,
    VEHICLES,
    Camera,
    hand_over,
)
from tests.rules.games.removal.test_hand_dealt_removal import (
    SHAPES,
    TAG_OF,
    TAGS,
    _illegal_spot,
    tags_mat,
)
from tests.station.api.conftest import AUTH
from vision.games.removal import read_truck

Action = dict[str, Any]
#: What a person may do in a turn, beside playing it plainly ("none").
INTERVENTIONS = ("withdrawn", "corrected", "undone", "accepted")
WEIGHTS = {"none": 6, "withdrawn": 1.5, "corrected": 1.5, "undone": 1.5, "accepted": 1.5}


def removal_copy() -> dict[str, Any]:
    """A small copy of Removal: the default tiles and trucks, a house of two rows, two rounds
    (a game of some 12 moves instead of 70; every rule still in play)."""
    catalogue = default_catalogue("removal")
    catalogue["house"] = {"2": {"layout": [".IBI.", ".I.I."], "waiting": 1},
                          "3-4": {"layout": ["IBI4I", ".III."], "waiting": 2}}
    catalogue["rounds"] = 2
    catalogue["boxes_per_round"] = 1
    return catalogue


@dataclass
class Figures:
    """What the games did, and every false flag, wrong state and wrong answer (as text)."""

    games: int = 0
    turns: int = 0
    steps: int = 0
    interventions: Counter[str] = field(default_factory=Counter)
    asks: int = 0
    entry_asks: int = 0  # asks answered by an entry (no readings could be offered)
    false_flags: list[str] = field(default_factory=list)
    wrong_states: list[str] = field(default_factory=list)
    wrong_answers: list[str] = field(default_factory=list)

    def line(self, label: str) -> str:
        done = ", ".join(f"{kind} {self.interventions[kind]}" for kind in
                         ("none", *INTERVENTIONS, "replaced"))
        return (f"{label}: {self.games} games, {self.turns} turns, {self.steps} steps; "
                f"{done}; asks {self.asks} ({self.entry_asks} answered by an entry); "
                f"false flags {len(self.false_flags)}, wrong states {len(self.wrong_states)}, "
                f"wrong answers {len(self.wrong_answers)}")


class GameOff(Exception):
    """The game cannot go on (a wrong state or answer was recorded)."""


def _normal(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def differences(got: Any, want: Any, path: str = "$", limit: int = 6) -> list[str]:
    """The first paths where two JSON values differ, with both values."""
    if isinstance(got, dict) and isinstance(want, dict):
        found: list[str] = []
        for key in sorted(set(got) | set(want), key=str):
            if key not in got or key not in want:
                found.append(f"{path}.{key}: {got.get(key, '<none>')!r} != "
                             f"{want.get(key, '<none>')!r}")
            else:
                found += differences(got[key], want[key], f"{path}.{key}", limit)
            if len(found) >= limit:
                break
        return found[:limit]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        found = []
        for index, (one, other) in enumerate(zip(got, want, strict=True)):
            found += differences(one, other, f"{path}[{index}]", limit)
            if len(found) >= limit:
                break
        return found[:limit]
    return [] if got == want else [f"{path}: {got!r} != {want!r}"]


def agrees_with_truth(mirror: Any, truth: Any) -> bool:
    """The mirror shows what the truth shows, except components not yet seen (``"?"``)."""
    if mirror == UNSEEN:
        return True
    if isinstance(mirror, dict) and isinstance(truth, dict):
        return mirror.keys() == truth.keys() and all(
            agrees_with_truth(mirror[key], truth[key]) for key in mirror)
    if isinstance(mirror, list) and isinstance(truth, list):
        return len(mirror) == len(truth) and all(
            agrees_with_truth(one, other) for one, other in zip(mirror, truth, strict=True))
    return mirror == truth


def scores_of(state: State) -> list[dict[str, Any]]:
    return [{"player": s.player, "total": s.total, "parts": s.parts} for s in state.scores()]


class Play:
    """One game at one table: the truth, the mirror, and the station through its routes."""

    game = ""

    def __init__(self, client: TestClient, figures: Figures, table_id: str, players: list[str],
                 seed: int, options: dict[str, Any],
                 catalogue: dict[str, Any] | None = None) -> None:
        self.client, self.figures, self.id = client, figures, table_id
        self.players, self.rng = players, random.Random(seed)
        self.label = f"{self.game} {len(players)} players seed {seed}"
        engine = get_game(self.game)
        self.truth = engine.new_game(players, seed=seed, options=options, catalogue=catalogue)
        self.mirror = engine.new_game(players, options=options, catalogue=catalogue,
                                      deal="table")
        start: dict[str, Any] = {"game": self.game, "players": players, "deal": "table",
                                 "options": options}
        if catalogue is not None:
            start["catalogue"] = catalogue
        answer = client.post("/api/tables", headers=AUTH, json={
            "name": f"Interventions {table_id}", "id": table_id, "game": start})
        assert answer.status_code == 201, answer.text
        self.flags: set[int] = set()  # the open flags an intervention expects
        self.entries: list[dict[str, Any]] = []  # the person entries that must be waiting
        self.answered: dict[str, Any] | None = None  # an ask answered by an entry, this step
        self.last = (self.mirror, 0)  # the mirror after the last step: (state, its log's length)
        self.turn, self.doing, self.where = 0, "none", "start"
        self.snap: dict[str, Any] = {}

    # -- the routes ---------------------------------------------------------------------
    def post(self, path: str, body: dict[str, Any] | None, expect: int = 201) -> dict[str, Any]:
        answer = self.client.post(f"/api/tables/{self.id}{path}", headers=AUTH, json=body)
        if answer.status_code != expect:
            self.off(self.figures.wrong_answers,
                     f"POST {path} {_normal(body)} answered {answer.status_code}, not {expect}: "
                     f"{answer.text[:400]}")
        return answer.json()

    def off(self, into: list[str], text: str) -> None:
        into.append(f"{self.label}, turn {self.turn} ({self.doing}), {self.where}: {text}")
        raise GameOff(text)

    def step(self, where: str, path: str, body: dict[str, Any] | None,
             flag_expected: bool = False, fix: Action | None = None,
             ask: dict[str, Any] | None = None) -> int | None:
        """One write whose result must be the mirror as it is now (:meth:`before`: as it was);
        the flag it must raise (its seq), if ``flag_expected``. ``fix`` is the move to correct
        a false flag with, when the step was to apply it; ``ask``, the entry that answers the
        question the camera truly cannot answer, when the table left one open."""
        self.where = where
        self.figures.steps += 1
        events = self.post(path, body).get("events", [])
        raised = None
        for flag in (event for event in events if event["kind"] == "flag"):
            if flag_expected and raised is None:
                raised = flag["seq"]
                self.flags.add(raised)
            else:
                self.unexpected(flag, fix, ask)
        if flag_expected and raised is None:
            self.off(self.figures.wrong_states,
                     f"a placement the rules forbid was not flagged (events {_normal(events)})")
        self.check()
        self.last = (self.mirror, len(self.mirror.log))
        return raised

    def before(self) -> State:
        """The mirror as it was after the last step (what the station showed before this one)."""
        state, length = self.last
        return state.game.replay({**state.to_json(), "log": state.log[:length]})

    def unexpected(self, flag: dict[str, Any], fix: Action | None,
                   ask: dict[str, Any] | None) -> None:
        """A flag no intervention expects: an ask answered with the true reading (or, without
        readings, by the entry ``ask`` when the table truly left the question open: the
        reading that waited for it is applied), else a false flag, closed with the true move
        (or accepted when the step was to change nothing)."""
        readings = flag.get("readings") or []
        if not readings and ask is not None:
            self.figures.asks += 1
            self.figures.entry_asks += 1
            events = self.post("/observations", {"observation": {"kind": "person", **ask},
                                                 "source": "person"})["events"]
            self.answered = ask  # an entry the step uses: an undo puts it back
            self.entries = []
            for later in (event for event in events if event["kind"] == "flag"):
                self.unexpected(later, fix, None)  # the reading read again may ask more
            return
        target = self.view(self.mirror)
        reached = []
        before = self.before() if readings else self.mirror
        for reading in readings:
            trial = before.clone()
            try:
                for action in reading["actions"]:
                    trial.apply(dict(action))
                reached.append(_normal(self.view(trial)))
            except IllegalAction as refused:
                reached.append(f"refused: {refused.reason}")
        true = [index for index, state in enumerate(reached) if state == _normal(target)]
        if true and len(set(reached)) > 1:
            self.figures.asks += 1
        else:
            self.figures.false_flags.append(
                f"{self.label}, turn {self.turn} ({self.doing}), {self.where}: "
                f"{flag.get('reason')!r}" + (f", readings {[r.get('text') for r in readings]}"
                                             if readings else ""))
        seq = flag["seq"]
        if true:
            self.post(f"/flags/{seq}/choose", {"reading": true[0]})
        elif fix is not None:
            self.post("/corrections", {"action": fix, "flag": seq})
            self.entries = []
        else:
            self.post(f"/flags/{seq}/accept", None)

    # -- the check ----------------------------------------------------------------------
    def view(self, state: State) -> Any:
        return json.loads(json.dumps(state.public_view()))

    def check(self) -> None:
        """The snapshot against the mirror: position, scores, turn, open flags, entries."""
        snap = self.client.get(f"/api/tables/{self.id}").json()
        self.snap = snap
        game, mirror = snap["game"], self.mirror
        wrong = differences(self.normal(game["state"]), self.normal(self.view(mirror)))
        if game["scores"] != scores_of(mirror):
            wrong.append(f"scores {game['scores']} != {scores_of(mirror)}")
        if (game["over"], game["current_player"]) != (mirror.is_over(), mirror.current_player()):
            wrong.append(f"over, current player {game['over']}, {game['current_player']} != "
                         f"{mirror.is_over()}, {mirror.current_player()}")
        if mirror.is_over() and game["winners"] != mirror.winners():
            wrong.append(f"winners {game['winners']} != {mirror.winners()}")
        open_flags = {flag["seq"] for flag in snap["flags"]}
        stray = [f.get("reason") for f in snap["flags"] if f["seq"] not in self.flags]
        if stray and not wrong:
            self.off(self.figures.false_flags, f"flags no intervention expects are open: {stray}")
        if stray:
            wrong.append(f"flags no intervention expects are open: {stray}")
        if self.flags - open_flags:
            wrong.append(f"the flags {sorted(self.flags - open_flags)} are closed, not open")
        if "entries" not in snap:
            wrong.append("the snapshot has no 'entries'")
        else:
            waiting = [{key: value for key, value in entry["entry"].items() if key != "kind"}
                       for entry in snap["entries"]]
            if waiting != self.entries:
                wrong.append(f"entries waiting {waiting} != {self.entries}")
        if wrong:
            self.off(self.figures.wrong_states, "; ".join(wrong))

    def normal(self, state: Any) -> Any:
        return state

    def entry_seq(self, keys: dict[str, Any]) -> int:
        """The seq of the waiting entry with these keys, from the last snapshot."""
        for entry in self.snap.get("entries", []):
            if {k: v for k, v in entry["entry"].items() if k != "kind"} == keys:
                return entry["seq"]
        self.off(self.figures.wrong_states, f"no entry {keys} waits")
        raise AssertionError  # unreachable

    def enter(self, keys: dict[str, Any], where: str = "a person's entry") -> None:
        self.entries = [*self.entries, keys]
        self.step(where, "/observations",
                  {"observation": {"kind": "person", **keys}, "source": "person"})

    def withdraw_wrong(self, wrong: dict[str, Any]) -> None:
        """A wrong entry, withdrawn (and withdrawn again: 409, nothing waits)."""
        self.enter(wrong, "a wrong entry")
        seq = self.entry_seq(wrong)
        self.where = "withdrawing the wrong entry"
        self.figures.steps += 1
        events = self.post(f"/entries/{seq}/withdraw", None)["events"]
        said = [(e["kind"], e.get("payload", e).get("entry")) for e in events]
        if said != [("withdraw", seq)]:
            self.off(self.figures.wrong_answers, f"the withdrawal answered {_normal(events)}")
        self.entries = [entry for entry in self.entries if entry != wrong]
        self.check()
        self.where = "withdrawing it again"
        self.post(f"/entries/{seq}/withdraw", None, expect=409)

    def undo_and_again(self, pre: State, person: dict[str, Any], again: Any, fix: Action,
                       seen_again: Any = None) -> None:
        """The move was applied (the mirror holds it; ``pre``: before its step, which consumed
        the entry ``person``). Undone (``person`` waits again) then made again —
        ``again(where)`` posts the same reading, or ``fix`` is posted as a correction — or
        replaced in one go by ``fix`` (the move, naming what the undone step revealed).
        ``seen_again(where)`` posts the camera's reading once more: nothing must change."""
        moved = self.mirror
        way = self.rng.choice(("reading", "correction", "replace"))
        if way == "replace":
            self.figures.interventions["replaced"] += 1
            self.step("the last step replaced by the same move", "/corrections",
                      {"action": fix, "replace": True})
        else:
            # The table as it was before the step: the entries it consumed wait again (the
            # person's, and the one that answered the camera's question).
            self.mirror = pre
            self.entries = [entry for entry in (person, self.answered) if entry]
            self.step("undo", "/undo", None)
            self.mirror, self.entries = moved, []
            if way == "reading":
                again("the same reading after the undo")
            else:
                self.step("the same move as a correction after the undo", "/corrections",
                          {"action": fix})
        if seen_again is not None:
            seen_again("the camera sees the move once more")

    def intervention(self, possible: tuple[str, ...]) -> str:
        kinds = ["none", *possible]
        return self.rng.choices(kinds, [WEIGHTS[kind] for kind in kinds])[0]

    def finish(self) -> None:
        """The end: no open flag, nothing waiting, the truth's scores and winners."""
        self.where = "the end"
        if self.flags or self.snap["flags"]:
            self.off(self.figures.wrong_states, f"open flags at the end: {self.snap['flags']}")
        game = self.snap["game"]
        if not game["over"] or game["scores"] != scores_of(self.truth) or (
                game["winners"] != self.truth.winners()):
            self.off(self.figures.wrong_states,
                     f"the end: over {game['over']}, scores {game['scores']}, winners "
                     f"{game['winners']}; truly {scores_of(self.truth)}, {self.truth.winners()}")

    def sane(self) -> None:
        """The harness's own check: the mirror shows the truth, save what is unseen."""
        assert agrees_with_truth(self.view(self.mirror), self.view(self.truth)), (
            differences(self.view(self.mirror), self.view(self.truth)))
        assert scores_of(self.mirror) == scores_of(self.truth)

    def play(self) -> None:
        try:
            self.check()
            self.play_game()
            self.finish()
        except GameOff:
            pass
        self.figures.games += 1

    def play_game(self) -> None:
        raise NotImplementedError



# ------------------------------------------------------------------------- Moving Day
def helper_kind(helper: Any) -> Any:
    """A helper card by its kind (count, clumsy, strength); anything else as it is."""
    if isinstance(helper, str) and helper in HELPERS:
        card = HELPERS[helper]
        return f"{card['count']}/{card['clumsy']}/{card['strength']}"
    return helper


class MovingDayPlay(Play):
    """Moving Day dealt by hand: the truth's takes seen on the vehicle mats."""

    game = "moving-day"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.camera = Camera(self.players)

    def normal(self, state: Any) -> Any:
        """Helper cards by kind: which copy of a kind was recorded never matters."""
        state = json.loads(json.dumps(state))
        for group in state["groups"]:
            group["helper"] = helper_kind(group["helper"])
        for seat in state["players"]:
            for vehicle in seat["vehicles"]:
                vehicle["helpers"] = [helper_kind(h) for h in vehicle["helpers"]]
            seat["helpers_out"] = [helper_kind(h) for h in seat["helpers_out"]]
        return state

    def reading(self, state: State, hidden: frozenset[str] = frozenset(),
                hand: Any = None) -> dict[str, Any]:
        """The camera's reading of every vehicle mat as ``state`` has them (``hidden``: boxes
        not laid yet; ``hand``: cells a hand covers)."""
        seats = {}
        for index, name in enumerate(self.players):
            vehicles = state.data["players"][index]["vehicles"]
            seats[name] = SimpleNamespace(boxes={
                vehicle: {(row, col): box for row, line in enumerate(grid["grid"])
                          for col, box in enumerate(line) if box is not None}
                for vehicle, grid in zip(VEHICLES, vehicles, strict=True)})
        return self.camera.reading(SimpleNamespace(seats=seats), hidden, hand)

    def see(self, where: str, state: State, flag_expected: bool = False,
            fix: Action | None = None, ask: dict[str, Any] | None = None,
            **extra: Any) -> int | None:
        return self.step(where, "/observations",
                         {"observation": self.reading(state, **extra), "source": "camera"},
                         flag_expected, fix, ask)

    def reveal(self, action: Action, where: str) -> None:
        self.mirror.apply(dict(action))
        self.step(where, "/reveals", {"action": action})

    def lay_out(self, groups: list[int]) -> None:
        """Now and then a person enters a freshly laid group from the picker."""
        for index in groups:
            group = self.truth.data["groups"][index]
            if self.rng.random() < 0.25 and group["helper"] not in (None, UNSEEN):
                self.reveal({"type": "reveal", "group": index, "helper": group["helper"]},
                            f"the picker: group {index}'s helper")
            if self.rng.random() < 0.1:
                for box in group["boxes"]:
                    if box != UNSEEN:
                        self.reveal({"type": "reveal", "group": index, "box": box},
                                    f"the picker: a box of group {index}")

    def play_game(self) -> None:
        self.lay_out(list(range(len(self.truth.data["groups"]))))
        while not self.truth.is_over():
            self.play_turn()
            self.sane()
            self.turn += 1
            self.figures.turns += 1

    def candidates(self, take: Action) -> list[int]:
        """The groups the new boxes may come from, as far as the table was told."""
        boxes = [entry["box"] for entry in take["boxes"]]
        groups = self.mirror.data["groups"]
        if any(box in group["boxes"] for group in groups for box in boxes):
            return [take["group"]]
        return [index for index, group in enumerate(groups)
                if len(group["boxes"]) == len(boxes) and set(group["boxes"]) == {UNSEEN}]

    def illegal(self, take: Action) -> Action | None:
        """The take with one box moved to a free space where the rules forbid it."""
        if any(entry["vehicle"] is None for entry in take["boxes"]):
            return None
        vehicles = self.truth.data["players"][self.truth.current_player()]["vehicles"]
        taken = {(entry["vehicle"], entry["row"], entry["col"]) for entry in take["boxes"]}
        free = [(name, row, col) for name, grid in zip(VEHICLES, vehicles, strict=True)
                for row, line in enumerate(grid["grid"]) for col, box in enumerate(line)
                if box is None and (name, row, col) not in taken]
        self.rng.shuffle(free)
        for index in self.rng.sample(range(len(take["boxes"])), len(take["boxes"])):
            for name, row, col in free:
                boxes = [dict(entry) for entry in take["boxes"]]
                boxes[index].update(vehicle=name, row=row, col=col)
                wrong = {**take, "boxes": boxes}
                try:
                    self.truth.check(wrong)
                except IllegalAction:
                    return wrong
        return None

    def shown(self, take: Action) -> State:
        """The vehicles with ``take``'s boxes where it puts them (a picture of the table, even
        where the rules forbid: laid by hand into a copy, not played)."""
        shown = self.truth.clone()
        vehicles = shown.data["players"][shown.current_player()]["vehicles"]
        for entry in take["boxes"]:
            vehicles[list(VEHICLES).index(entry["vehicle"])]["grid"][entry["row"]][
                entry["col"]] = entry["box"]
        return shown

    def play_turn(self) -> None:
        truth, rng = self.truth, self.rng
        player = truth.current_player()
        take = dict(rng.choice(truth.legal_actions()))
        index = take["group"]
        group = truth.data["groups"][index]
        self.doing = "none"
        known = self.mirror.data["groups"][index]["boxes"]
        unseen = [box for box in group["boxes"] if box not in known]
        chance = rng.random()  # the picker: one box of the group, or the whole group
        for box in unseen[:1] if chance < 0.2 else unseen if chance < 0.3 else []:
            self.reveal({"type": "reveal", "group": index, "box": box}, "the picker: a box")
        person: dict[str, Any] = {}
        if self.mirror.data["groups"][index]["helper"] == UNSEEN:
            if rng.random() < 0.3:
                self.reveal({"type": "reveal", "group": index, "helper": group["helper"]},
                            "the picker: the helper")
            else:
                person["helper"] = group["helper"]
        groups = self.candidates(take)
        if (len(groups) > 1 and rng.random() < 0.9) or rng.random() < 0.1:
            person["group"] = index  # a tap on the table page (else the camera must ask)
        # The question the camera truly cannot answer without a tap (no readings to offer
        # while a group's helper card is unknown): answered by the tap.
        ask = {"group": index} if len(groups) > 1 and "group" not in person else None
        if rng.random() < 0.6:  # else the camera asks where the helper went, if it may go
            person["helper_vehicle"] = take["helper_vehicle"]  # to several places
        after = truth.clone()
        after.apply(take)
        wrong_take = self.illegal(take)
        self.doing = self.intervention(
            ("withdrawn", "undone") + (("corrected", "accepted") if wrong_take else ()))
        self.figures.interventions[self.doing] += 1
        fix = ({**take, "helper": group["helper"]}
               if self.mirror.data["groups"][index]["helper"] == UNSEEN else take)

        if self.doing == "withdrawn":
            person["helper_vehicle"] = take["helper_vehicle"]
            wrong = rng.choice([name for name in [*VEHICLES, None]
                                if name != take["helper_vehicle"]])
            self.withdraw_wrong({**person, "helper_vehicle": wrong})
        if person:
            self.enter(person)
        if self.doing in ("corrected", "accepted"):
            assert wrong_take is not None
            seq = self.see("the camera sees a box where the rules forbid",
                           self.shown(wrong_take), flag_expected=True)
            assert seq is not None
            self.flags.discard(seq)
            if self.doing == "corrected":
                self.move(take)
                self.step("the true move as a correction of the flag", "/corrections",
                          {"action": fix, "flag": seq})
                self.see("the camera sees the true placement", after)
                return self.end_turn(after, index)
            self.entries = []
            self.step("the refusal accepted", f"/flags/{seq}/accept", None)
            self.see("the camera sees the table back as it was", truth)
            if person:
                self.enter(person, "the person's entry again")
        laid = [entry["box"] for entry in take["boxes"] if entry["vehicle"] is not None]
        if len(laid) > 1 and rng.random() < 0.25:  # the first box down, the rest to come
            hand = (hand_over(SimpleNamespace(), self.players[player], rng)
                    if rng.random() < 0.5 else None)
            self.see("the first box down", after, hidden=frozenset(laid[1:]), hand=hand)
        pre = self.mirror.clone()
        self.move(take)
        self.answered = None
        self.see("the camera sees the move", after, fix=fix, ask=ask)
        if rng.random() < 0.15:
            self.see("the same reading again", after)
        if self.doing == "undone":
            self.undo_and_again(pre, person,
                                lambda where: self.see(where, after, fix=fix, ask=ask),
                                fix, lambda where: self.see(where, after))
        self.end_turn(after, index)

    def move(self, take: Action) -> None:
        """The mirror makes the true take (its helper card revealed first, if unseen)."""
        group = self.truth.data["groups"][take["group"]]
        if self.mirror.data["groups"][take["group"]]["helper"] == UNSEEN:
            self.mirror.apply({"type": "reveal", "group": take["group"],
                               "helper": group["helper"]})
        self.mirror.apply(dict(take))
        self.entries = []

    def end_turn(self, after: State, index: int) -> None:
        self.truth = after
        if not after.is_over():
            self.lay_out([index])


# ---------------------------------------------------------------------------- Removal
TRUCKS = default_catalogue("removal")["trucks"]


def truck_mat(player: int, records: list[dict[str, Any]]) -> dict[str, Any]:
    """A truck's tags mat as ``vision read`` gives it: covered cells ``X``, each tile's tag on
    its sticker square (the back tag when flipped) unless a later tile covers it."""
    mat = tags_mat(TRUCKS[player % len(TRUCKS)], records, SHAPES, TAG_OF, player)
    return {**mat, "tags": sorted(mat["tags"], key=lambda t: (t["row"], t["col"], t["id"]))}


class RemovalPlay(Play):
    """Removal dealt by hand: the deal read by a person, the trucks by the camera."""

    game = "removal"

    def see(self, where: str, records: list[dict[str, Any]], player: int,
            flag_expected: bool = False, fix: Action | None = None) -> int | None:
        """The camera's reading of ``player``'s truck holding ``records``."""
        observation = {"kind": "truck", "player": self.players[player],
                       **read_truck(truck_mat(player, records), TAGS, SHAPES)}
        return self.step(where, "/observations",
                         {"observation": observation, "source": "camera"}, flag_expected, fix)

    def truck(self, player: int, action: Action | None = None) -> list[dict[str, Any]]:
        """The tiles in ``player``'s truck, with ``action``'s tile laid (where it says, legal or
        not; a drive empties the truck). Read from the truth before the move: the last move
        of the game also drives every truck off, but the tile lay in it first."""
        seat = self.truth.data["players"][player]
        records = [{key: tile[key] for key in ("item", "row", "col", "rotation", "flip")}
                   for tile in seat["truck"]]
        if action is None:
            return records
        if action["type"] == "drive":
            return []
        item = action.get("item") or seat["storage"]
        return [*records, {"item": item, **{key: action[key]
                                            for key in ("row", "col", "rotation", "flip")}}]

    def read_deal(self) -> None:
        """A person reads the deal, now and then with a hand over an area first."""
        data = self.truth.data
        reading = {"kind": "house", "house": data["house"], "waiting": data["waiting"],
                   "keepsakes": data["keepsakes"]}
        filled = [(r, c) for r, line in enumerate(data["house"]) for c, tile in enumerate(line)
                  if tile is not None]
        if self.rng.random() < 0.3:
            row, col = self.rng.choice(filled)
            house = [list(line) for line in data["house"]]
            house[row][col] = "?"
            self.read({**reading, "house": house}, "the deal read with a hand over an area")
        self.read(reading, "the deal read")
        if self.rng.random() < 0.15:
            self.read(reading, "the deal read again")

    def read(self, reading: dict[str, Any], where: str) -> None:
        """The mirror reveals the unread slots the reading shows, in order, up to the first it
        leaves open; the station is given the reading."""
        while self.mirror.data["to_reveal"]:
            zone, *place = self.mirror.data["to_reveal"][0]
            if zone == "house":
                value = reading["house"][place[0]][place[1]]
                action = {"type": "reveal", "zone": zone, "row": place[0], "col": place[1],
                          "item": value}
            else:
                value = reading[zone][place[0]]
                action = {"type": "reveal", "zone": zone, "slot": place[0],
                          "keepsake" if zone == "keepsakes" else "item": value}
            if value in (None, UNSEEN):
                break
            self.mirror.apply(action)
        self.step(where, "/observations", {"observation": reading, "source": "person"})

    def play_game(self) -> None:
        self.read_deal()
        self.sane()
        while not self.truth.is_over():
            self.play_turn(dict(self.rng.choice(self.truth.legal_actions())))
            if not self.truth.is_over() and self.mirror.is_chance():
                self.read_deal()
            self.sane()
            self.turn += 1
            self.figures.turns += 1

    def play_turn(self, action: Action) -> None:
        truth, rng = self.truth, self.rng
        player = truth.current_player()
        after = truth.clone()
        after.apply(action)
        kind = action["type"]
        self.doing = "none"
        pre = self.mirror.clone()
        if kind == "store":  # no camera films the storage: a person declares it
            self.doing = self.intervention(("undone",))
            self.figures.interventions[self.doing] += 1
            declared = {"observation": {"kind": "declared", "action": action},
                        "source": "button"}
            self.mirror.apply(dict(action))
            self.step("the store declared", "/observations", declared, fix=action)
            if self.doing == "undone":
                self.undo_and_again(pre, {}, lambda where: self.step(
                    where, "/observations", declared, fix=action), action)
            self.truth = after
            return
        loaded, before = self.truck(player, action), self.truck(player)

        def seen(where: str, fix: Action | None = None) -> None:
            self.see(where, loaded, player, fix=fix)

        possible: tuple[str, ...] = ("undone",)
        wrong_spot = None
        person = {"helpers": action["helpers"]} if action.get("helpers") else {}
        held = truth.data["players"][player]["helpers"]
        wrongs = [h for h in [[], *([h] for h in held)] if h != action.get("helpers")]
        if kind != "drive":
            wrong_spot = _illegal_spot(truth, action)
            possible = (("withdrawn",) if wrongs else ()) + ("undone",) + (
                ("corrected", "accepted") if wrong_spot else ())
        self.doing = self.intervention(possible)
        self.figures.interventions[self.doing] += 1
        if self.doing == "withdrawn":
            self.withdraw_wrong({"helpers": rng.choice(wrongs)})
            person = {"helpers": action["helpers"]}
        if person:
            self.enter(person)
        if self.doing in ("corrected", "accepted"):
            assert wrong_spot is not None
            seq = self.see("the camera sees a tile where the rules forbid",
                           self.truck(player, wrong_spot), player, flag_expected=True)
            assert seq is not None
            self.flags.discard(seq)
            if self.doing == "corrected":
                self.mirror.apply(dict(action))
                self.entries = []
                self.step("the true move as a correction of the flag", "/corrections",
                          {"action": action, "flag": seq})
                seen("the camera sees the true placement")
                self.truth = after
                return
            self.entries = []
            self.step("the refusal accepted", f"/flags/{seq}/accept", None)
            self.see("the camera sees the truck back as it was", before, player)
            if person:
                self.enter(person, "the person's entry again")
        pre = self.mirror.clone()
        self.mirror.apply(dict(action))
        self.entries = []
        seen("the camera sees the move", action)
        if rng.random() < 0.15:
            seen("the same reading again")
        if self.doing == "undone":
            self.undo_and_again(pre, person, lambda where: seen(where, action), action, seen)
        self.truth = after
