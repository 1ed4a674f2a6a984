"""One table's live state, rebuilt from its events and moved on by new ones.

Event kinds (the payload fields follow the kind):

``game``         a new game starts at the table: ``game``, ``players``, ``seed``,
                 ``options``, ``setup`` (the shuffled setup, so replay does not
                 depend on today's catalogue), and ``catalogue`` when the game is
                 played with a copy's own catalogue (its tags tell the camera
                 which piece is which, months later too).
``observation``  a stable observation: ``observation``, ``source``.
``action``       an action the engine applied: ``action``, ``cause`` (seq of the
                 observation it came from).
``flag``         an action the engine refused, not applied: ``action``,
                 ``reason`` (the engine's words), ``cause``.
``accept``       a referee accepts the engine's refusal: ``flag``.
``correction``   a referee's action, applied: ``action``, ``flag`` (the flag it
                 resolves, or null), ``cause`` when one request applied several
                 (a reading a person picked: the seq of the first of them).
``undo``         a referee takes back the last step: ``undoes`` (its last action)
                 and ``step`` (the seqs of every action of that step; an older
                 event without it took back ``undoes`` alone).
``close``        the camera sees the table as the engine has it again: ``flags``
                 (the flags its earlier readings raised, closed), ``cause``.
``withdraw``     a person withdraws an entry still waiting: ``entry`` (its seq).
``hints``        the organiser switches the table's hints on or off: ``on`` (the
                 acting player's best moves on the table page; they stay off
                 from one game to the next until switched again).

A **step** is what one observation or one referee's request applied: its
actions share a ``cause`` (a correction without one is a step of its own).

A person's entries (``{"kind": "person", ...}`` observations: what no camera
sees) wait for the next action they can complete. They are handed to the
translator with every camera reading, and a reading that waited for them is
read again when one is entered. They are used up by the next player's action
applied (by camera, declaration or correction; a reveal uses none), dropped
when a refusal is accepted or a person withdraws one, and an undo puts back
those the step used and drops those entered after it.

:meth:`LiveTable.absorb` is the only place events change the view, both when
they are new and when a restarted station replays them, so the live view is
always what a replay gives.
"""

from __future__ import annotations

import contextlib
import logging
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import Action, Game, IllegalAction, ReadMore, State, get_game
from rules.engine import REVEAL
from station.games import describe_event, named_cells, present
from station.games.views import changed_cells
from station.games.words import actor, entry_words
from station.live.public import public_entry
from station.live.translators import PASSED_THROUGH, PERSON, TableTranslator
from station.store import Event, TableInfo

LOG = logging.getLogger("packref")

RECENT_EVENTS = 30
CAMERA = "camera"  # the source of a camera's readings
#: A camera reading the referee cannot tell yet (rules.ReadMore) waits this long (camera
#: time) for a later reading before the table is flagged: a hand's edge or a glint over
#: the cells that would tell comes and goes within a few seconds (docs/station.md).
READ_MORE_WAIT_S = 10.0
KEPT_READINGS = 120
PAST_GAME_FIELDS = ("seq", "name", "players", "over", "actions", "scores", "winners")


def _reason(error: Exception, where: str) -> str:
    """A flag's reason: the rules' own words, or what went wrong where."""
    if isinstance(error, IllegalAction):
        return error.reason
    return f"the {where} could not read this ({type(error).__name__}: {error})"


def _refused(error: Exception, where: str) -> IllegalAction:
    """A person's entry refused: the engine's reason, for the caller."""
    return error if isinstance(error, IllegalAction) else IllegalAction(_reason(error, where))


def _flag(action: Action | None, error: Exception, where: str, cause: int) -> dict[str, Any]:
    """A flag's payload; when the camera saw something two ways, the readings to pick from."""
    payload = {"action": action, "reason": _reason(error, where), "cause": cause}
    readings = getattr(error, "readings", None)
    if readings:
        payload["readings"] = [{"text": reading.text, "actions": list(reading.actions)}
                               for reading in readings]
    return payload


def _check_all(state: State, actions: list[Action]) -> None:
    """Refuse (IllegalAction with the engine's reason) unless ``actions`` apply in turn."""
    trial = state.clone()
    for action in actions:
        try:
            trial.apply(dict(action))
        except IllegalAction:
            raise
        except Exception as error:
            raise IllegalAction(_reason(error, "engine")) from error


def _reading_key(observation: Mapping[str, Any]) -> tuple[Any, Any]:
    """What a reading looks at: its kind, and the player whose board it is when it names
    one (a reading of every board names none)."""
    return observation.get("kind"), observation.get("player")


def _entry(observation: Mapping[str, Any]) -> dict[str, Any]:
    """A person's entry: the observation's keys but its kind."""
    return {key: value for key, value in observation.items() if key != "kind"}


def game_start_state(payload: Mapping[str, Any]) -> tuple[Game, State]:
    """The game and its state before any action, from a ``game`` event's payload."""
    game = get_game(payload["game"])
    return game, game.replay({"players": payload["players"], "options": payload["options"],
                              "setup": payload["setup"], "log": []})


def chance_summary(state: State) -> dict[str, Any]:
    """What the table still has to show: whether play waits for a reveal, how many
    reveals could be entered now, and how many components are unseen."""
    if state.is_over():
        return {"waiting": False, "outcomes": 0, "unseen": 0}
    return {"waiting": state.is_chance(), "outcomes": len(state.chance_outcomes()),
            "unseen": sum(state.unseen().values())}


class TableRefusal(Exception):
    """A referee's request that cannot be carried out (no such flag, nothing to undo...)."""


@dataclass
class CurrentGame:
    """The game now played at a table."""

    seq: int
    game: Game
    state: State
    seed: int
    applied: list[tuple[int, Action]] = field(default_factory=list)
    catalogue: dict[str, Any] | None = None  # a copy's catalogue; None: the default one
    movers: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq: who acted, words
    before: tuple[int, dict[str, Any] | None] | None = None  # the view before the last action
    table: str = ""  # the table's id, named in the log when the game's view fails
    steps: dict[int, int] = field(default_factory=dict)  # action seq: its step
    entries: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq: a person's entry
    used: dict[int, dict[int, dict[str, Any]]] = field(default_factory=dict)  # step: entries
    last_reading: dict[str, Any] | None = None  # the camera's last reading in this game

    def entered(self) -> dict[str, Any]:
        """The entries waiting, as one set of keys (a later entry's keys win)."""
        merged: dict[str, Any] = {}
        for entry in self.entries.values():
            merged.update(entry)
        return merged

    def last_step(self) -> list[int]:
        """The seqs of the actions of the last step applied ([] when none is)."""
        if not self.applied:
            return []
        step = self.steps.get(self.applied[-1][0], self.applied[-1][0])
        return [seq for seq, _ in self.applied if self.steps.get(seq, seq) == step]

    def without(self, seqs: Iterable[int]) -> State:
        """The state with the actions ``seqs`` taken back."""
        gone = set(seqs)
        document = self.state.to_json() | {
            "log": [action for seq, action in self.applied if seq not in gone]}
        return self.game.replay(document)

    def summary(self) -> dict[str, Any]:
        """The game as the table sees it (no seed: it would deal every hidden card again)."""
        state = self.state
        over = state.is_over()
        view = present(state, self.table)
        return {
            "seq": self.seq,
            "name": self.game.name,
            "players": list(state.players),
            "options": dict(state.options),
            "over": over,
            "current_player": None if over else state.current_player(),
            "actions": len(state.log),
            "deal": state.deal,
            "chance": chance_summary(state),
            "state": state.public_view(),
            "view": view,
            "last_move": self.last_move(view),
            "scores": [{"player": s.player, "total": s.total, "parts": dict(s.parts)}
                       for s in state.scores()],
            "winners": state.winners() if over else [],
        }


    def last_move(self, view: dict[str, Any]) -> dict[str, Any] | None:
        """The last applied action: who made it, in words, as the table sees it, and the
        cells of ``view`` (the view now) it filled or changed."""
        if not self.applied:
            return None
        seq, action = self.applied[-1]
        if self.before is None or self.before[0] != seq:  # after a replay or an undo
            self.before = (seq, self._view_before_last())
        player, words = self.movers.get(seq, (None, None))
        cells = [] if self.before[1] is None else changed_cells(self.before[1], view)
        return {"seq": seq, "player": player, "text": words,
                "action": self.state.public_action(action), "cells": cells}

    def _view_before_last(self) -> dict[str, Any] | None:
        try:
            earlier = self.without([self.applied[-1][0]])
        except Exception:  # a highlight is a courtesy: without it the words still say it
            return None
        return present(earlier, self.table)


class LiveTable:
    """A table's view: its current game, open flags, recent events and observations."""

    def __init__(self, info: TableInfo) -> None:
        self.info = info
        self.last_seq = 0
        self.current: CurrentGame | None = None
        self.translator: TableTranslator | None = None
        self.flags: dict[int, dict[str, Any]] = {}
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT_EVENTS)
        self.readings: deque[dict[str, Any]] = deque(maxlen=KEPT_READINGS)
        self.last_observation: dict[str, Any] | None = None
        self.past_games: list[dict[str, Any]] = []
        self.problems: list[str] = []
        self.hints = False  # the organiser's switch: the acting player's best moves shown
        #: Why the table is read-only (an event it cannot read), None while it is not.
        self.quarantined: str | None = None
        #: Its camera's, drone's and buttons' faults now (:mod:`station.live.source_faults`).
        self.sources: list[dict[str, Any]] = []
        self._observed: tuple[int | None, tuple[Any, Any]] = (None, (None, None))  # seq, key
        #: Per board (:func:`_reading_key`), the camera time of the first reading in a row
        #: that could not be told yet (:meth:`_reads_more`); not stored: after a restart
        #: the wait starts again.
        self._read_more_since: dict[tuple[Any, Any], float] = {}

    def __repr__(self) -> str:
        return f"<LiveTable {self.info.id} at event {self.last_seq}>"

    @classmethod
    def rebuild(cls, info: TableInfo, events: Iterable[Event]) -> LiveTable:
        """The table as its stored events leave it."""
        table = cls(info)
        for event in events:
            table.take(event, replaying=True)
        return table

    def take(self, event: Event, replaying: bool = False) -> None:
        """:meth:`absorb` that never raises: an event the view cannot read (damaged, or
        written by a newer version) quarantines the table — it is served as read so far,
        read-only, with a flag in words — and every other table goes on."""
        if self.quarantined is not None:
            self.last_seq = event.seq  # read no further: what follows builds on it
            return
        try:
            self.absorb(event, replaying)
        except Exception as error:
            words = str(error).strip().splitlines()
            self.quarantined = (f"event {event.seq} ({event.kind}) cannot be read "
                                f"({words[0] if words else type(error).__name__}): the "
                                "table is read-only until it is repaired")
            self.last_seq = event.seq
            LOG.exception("table %s is quarantined: event %s cannot be read",
                          self.info.id, event.seq)

    def writable(self) -> None:
        """Raise :class:`TableRefusal` for a quarantined table (see :meth:`take`)."""
        if self.quarantined is not None:
            raise TableRefusal(f"table {self.info.id!r} is read-only: {self.quarantined}")

    # -- deciding what new events to write ---------------------------------------------
    def plan_game(self, game_name: str, players: list[str], seed: int,
                  options: Mapping[str, Any] | None,
                  deal: str = "seed", catalogue: Mapping[str, Any] | None = None,
                  ) -> list[tuple[str, dict[str, Any]]]:
        """The event starting a new game (raises ValueError/UnknownGame on bad setup)."""
        game = get_game(game_name)
        state = game.new_game(players, seed=seed, options=options, catalogue=catalogue,
                              deal=deal)
        document = state.to_json()
        payload = {"game": game.name, "players": document["players"], "seed": seed,
                   "deal": state.deal, "options": document["options"],
                   "setup": document["setup"]}
        if state.deal == "table":  # dealt by hand: no seed decides anything
            del payload["seed"]
        if catalogue is not None:
            payload["catalogue"] = dict(catalogue)
        return [("game", payload)]

    def plan_observation(self, observation: dict[str, Any], source: str,
                         answer: bool = False) -> list[tuple[str, dict[str, Any]]]:
        """The observation event, then the actions it means: applied, or flagged with a reason.

        ``answer``: a caller who hears the answer (the API, the command line) entered it: a
        declared action or reveal the engine refuses then raises
        :class:`~rules.IllegalAction` (nothing written, nothing flagged). A person's entry
        reads the camera's last reading again, with it.
        """
        answer = answer and observation.get("kind") in PASSED_THROUGH
        events: list[tuple[str, dict[str, Any]]] = [
            ("observation", {"observation": observation, "source": source})]
        current = self.current
        if current is None or self.translator is None:
            return events
        cause = self.last_seq + 1
        kind = observation.get("kind")
        if kind == PERSON:
            entered = {**current.entered(), **_entry(observation)}
            return [*events, *self._read_again(cause, entered)]
        try:
            actions = self.translator.translate(current.state, observation, current.entered())
        except Exception as error:  # a reader's odd value must not stop the table
            if answer:
                raise _refused(error, "translator") from error
            if self._reads_more(observation, source, error):
                return events
            return [*events, ("flag", _flag(None, error, "translator", cause))]
        self._read_more_since.pop(_reading_key(observation), None)
        # A trial copy only when there is something to try: most readings change nothing,
        # and copying the state was a fifth of a reading's cost under load.
        trial = current.state.clone() if actions else current.state
        for action in actions:
            try:
                trial.apply(action)
            except Exception as error:
                if answer:
                    raise _refused(error, "engine") from error
                events.append(("flag", _flag(action, error, "engine", cause)))
                return events
            events.append(("action", {"action": action, "cause": cause}))
        if actions or self.translator.shows_state(current.state, observation):
            events.extend(self._closing(_reading_key(observation), cause))
        return events

    def _reads_more(self, observation: dict[str, Any], source: str, error: Exception) -> bool:
        """Whether a camera reading the referee cannot tell yet (:class:`~rules.ReadMore`:
        cells it could not read leave several placements) waits, unflagged, for a later one:
        for ``READ_MORE_WAIT_S`` of camera time after the first such reading of that board,
        while hands and glints come and go (then it is flagged, and a person tells)."""
        t = observation.get("t")
        if not isinstance(error, ReadMore) or source != CAMERA or not isinstance(t, int | float):
            return False
        since = self._read_more_since.setdefault(_reading_key(observation), float(t))
        return t - since < READ_MORE_WAIT_S

    def _read_again(self, cause: int, entered: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The camera's last reading read again with ``entered`` (a reading that waited for a
        person's entry): its actions when they all apply; when it now asks something else (a
        group named, the helper's vehicle still open), that question in place of the old."""
        current = self.current
        reading = None if current is None else current.last_reading
        if current is None or self.translator is None or reading is None:
            return []
        key = _reading_key(reading)
        try:
            actions = self.translator.translate(current.state, reading, entered)
            _check_all(current.state, actions)
        except Exception as error:
            raised = self._raised_by(key)
            if not raised or any(self.flags[seq]["reason"] == _reason(error, "engine")
                                 for seq in raised):
                return []  # nothing new to say: the reading's own flag stands
            return [*self._closing(key, cause), ("flag", _flag(None, error, "engine", cause))]
        if not actions:
            return []
        return [*(("action", {"action": action, "cause": cause}) for action in actions),
                *self._closing(key, cause)]

    def _closing(self, kind: tuple[Any, Any], cause: int) -> list[tuple[str, dict[str, Any]]]:
        """The ``close`` event for the flags earlier readings like this one raised (same kind,
        same player's board: :func:`_reading_key`), if any."""
        if self.translator is None or not self.translator.tells_state:
            return []  # a drone's fault is not put right by its next reading
        flags = self._raised_by(kind)
        return [("close", {"flags": flags, "cause": cause})] if flags else []

    def _raised_by(self, key: tuple[Any, Any]) -> list[int]:
        """The open flags that readings like ``key`` (:func:`_reading_key`) raised."""
        return [seq for seq, flag in self.flags.items()
                if (flag.get("reading"), flag.get("of")) == key]

    def plan_correction(self, action: Action, flag: int | None,
                        replace: bool = False) -> list[tuple[str, dict[str, Any]]]:
        """A referee's action; raises IllegalAction (with the engine's reason) if refused.
        ``replace``: the last step is taken back first, in the same write."""
        current = self._require_game()
        self._require_flag(flag)
        events: list[tuple[str, dict[str, Any]]] = []
        state = current.state
        if replace:
            events = self.plan_undo()
            state = current.without(events[0][1]["step"])
        _check_all(state, [action])
        return [*events, ("correction", {"action": action, "flag": flag})]

    def plan_choose(self, flag: int, reading: int) -> list[tuple[str, dict[str, Any]]]:
        """The reading ``reading`` of a flag that asked (two readings, two different tables),
        applied as one step; TableRefusal when the flag has no such reading."""
        current = self._require_game()
        self._require_flag(flag)
        readings = self.flags[flag].get("readings") or []
        if not 0 <= reading < len(readings):
            raise TableRefusal(f"flag {flag} offers {len(readings)} reading(s): there is no "
                               f"reading {reading + 1}")
        actions = [dict(action) for action in readings[reading]["actions"]]
        _check_all(current.state, actions)
        cause = self.last_seq + 1
        return [("correction", {"action": action, "flag": flag, "cause": cause})
                for action in actions]

    def plan_accept(self, flag: int) -> list[tuple[str, dict[str, Any]]]:
        self._require_flag(flag)
        return [("accept", {"flag": flag})]

    def plan_withdraw(self, entry: int) -> list[tuple[str, dict[str, Any]]]:
        """A person takes back an entry still waiting."""
        current = self._require_game()
        if entry not in current.entries:
            raise TableRefusal(f"no entry of a person waits at event {entry}")
        return [("withdraw", {"entry": entry})]

    def plan_undo(self) -> list[tuple[str, dict[str, Any]]]:
        """Take back the last step: every action it applied, reveals included."""
        current = self._require_game()
        step = current.last_step()
        if not step:
            raise TableRefusal("there is no action to undo in this game")
        return [("undo", {"undoes": step[-1], "step": step})]

    def plan_end(self, reason: str) -> list[tuple[str, dict[str, Any]]]:
        """The event ending the game in play before it is over (its result was decided
        elsewhere, e.g. entered by hand for a tournament game): the table is free again."""
        current = self._require_game()
        if current.state.is_over():
            raise TableRefusal("the game is over already: there is nothing to end")
        return [("end", {"game": current.seq, "reason": reason})]

    def plan_hints(self, on: bool) -> list[tuple[str, dict[str, Any]]]:
        """The organiser's hints switch (an event even when unchanged: who asked, when)."""
        return [("hints", {"on": bool(on)})]

    def _require_game(self) -> CurrentGame:
        if self.current is None:
            raise TableRefusal("no game has started at this table")
        return self.current

    def _require_flag(self, flag: int | None) -> None:
        if flag is not None and flag not in self.flags:
            raise TableRefusal(f"there is no open flag at event {flag}")

    # -- taking in stored events -------------------------------------------------------
    def absorb(self, event: Event, replaying: bool = False) -> None:
        """Move the view on by one stored event."""
        self.last_seq = event.seq
        state = None if self.current is None else self.current.state
        shown = public_entry(state, {"kind": event.kind, **event.payload})
        text = describe_event(state, event.kind, shown)  # before: who acted is to act; words
        # are the public's (a flag's reason, a card from a hand)
        mover = None if self.current is None else actor(self.current.state)
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is None:
            self.problems.append(f"event {event.seq}: unknown kind {event.kind!r}")
        else:
            handler(event, replaying)
        applied = [] if self.current is None else self.current.applied
        if mover is not None and applied and applied[-1][0] == event.seq:
            self.current.movers[event.seq] = (mover, text or "")
        entry = event.to_json()
        entry.pop("setup", None)
        if text:  # the page's words (a flag's words are its event's)
            entry["text"] = text
        self.recent.append(entry)

    def _on_game(self, event: Event, replaying: bool) -> None:
        if self.current is not None:  # only what results need: a long demo runs for days
            summary = self.current.summary()
            self.past_games.append({key: summary[key] for key in PAST_GAME_FIELDS})
        payload = event.payload
        game, state = game_start_state(payload)
        self.current = CurrentGame(event.seq, game, state, int(payload.get("seed", 0)),
                                   catalogue=payload.get("catalogue"), table=self.info.id)
        self.translator = TableTranslator(game.name)
        self.flags.clear()
        self.readings.clear()

    def _on_end(self, event: Event, replaying: bool) -> None:
        """The game in play ended before it was over: kept among the past games, marked
        ``ended`` with the reason, and the table has no game in play."""
        if self.current is None or self.current.seq != event.payload.get("game"):
            return
        summary = self.current.summary()
        self.past_games.append({**{key: summary[key] for key in PAST_GAME_FIELDS},
                                "ended": str(event.payload.get("reason", ""))})
        self.current = None
        self.translator = None
        self.flags.clear()
        self.readings.clear()

    def _on_observation(self, event: Event, replaying: bool) -> None:
        observation = event.payload.get("observation", {})
        self.last_observation = {"seq": event.seq, "at": event.at.isoformat(),
                                 "observation": observation}
        self._observed = (event.seq, _reading_key(observation))
        if isinstance(observation.get("mass_g"), int | float):  # the drone's mass graph
            self.readings.append(self.last_observation)
        current, translator = self.current, self.translator
        if current is None or translator is None:
            return
        kind = observation.get("kind")
        reading = current.last_reading
        if kind == PERSON:
            current.entries[event.seq] = _entry(observation)
        elif kind not in PASSED_THROUGH:
            current.last_reading = reading = observation
        if replaying and reading is not None and kind not in PASSED_THROUGH:
            # Rebuild the translator's memory as the write did (a person's entry reads the
            # last reading again); the actions it led to are stored already, and a replay
            # must not stop on a translator's error.
            with contextlib.suppress(Exception):
                translator.translate(current.state, reading, current.entered())

    def _apply(self, event: Event, replaying: bool) -> None:
        current = self._require_game()
        if not replaying:  # the view before it, for the last move's highlight (else lazily)
            current.before = (event.seq, present(current.state, current.table))
        action = dict(event.payload["action"])
        try:
            current.state.apply(dict(action))
        except IllegalAction as error:
            self.problems.append(f"event {event.seq}: stored action now refused: {error.reason}")
            return
        step = int(event.payload.get("cause") or event.seq)
        current.applied.append((event.seq, action))
        current.steps[event.seq] = step
        if action.get("type") != REVEAL and current.entries:  # the entries it was for
            current.used.setdefault(step, {}).update(current.entries)
            current.entries = {}

    def _on_action(self, event: Event, replaying: bool) -> None:
        self._apply(event, replaying)

    def _on_flag(self, event: Event, replaying: bool) -> None:
        payload = event.payload
        seen_seq, (seen_kind, seen_of) = self._observed
        reading = None if self.current is None else self.current.last_reading
        if seen_kind == PERSON and reading is not None:  # the last reading, read again
            seen_kind, seen_of = _reading_key(reading)
        camera = seen_seq == payload.get("cause") and seen_kind not in (*PASSED_THROUGH, PERSON)
        action = payload.get("action")
        flag = {"seq": event.seq, "at": event.at.isoformat(), "action": action,
                "reason": payload.get("reason", ""),
                "cells": [] if self.current is None else named_cells(self.current.state, action)}
        if camera:  # it may close itself: name the reading that raised it
            flag |= {"reading": seen_kind, "of": seen_of}
        self.flags[event.seq] = flag
        if payload.get("readings"):
            flag["readings"] = payload["readings"]

    def _on_accept(self, event: Event, replaying: bool) -> None:
        self.flags.pop(event.payload.get("flag"), None)
        if self.current is not None:  # the entries were for the move refused
            self.current.entries = {}

    def _on_close(self, event: Event, replaying: bool) -> None:
        for flag in event.payload.get("flags", []):
            self.flags.pop(flag, None)

    def _on_withdraw(self, event: Event, replaying: bool) -> None:
        if self.current is not None:
            self.current.entries.pop(event.payload.get("entry"), None)

    def _on_correction(self, event: Event, replaying: bool) -> None:
        self._apply(event, replaying)
        self.flags.pop(event.payload.get("flag"), None)

    def _on_hints(self, event: Event, replaying: bool) -> None:
        self.hints = bool(event.payload.get("on"))

    def _on_undo(self, event: Event, replaying: bool) -> None:
        current = self._require_game()
        payload = event.payload
        undone = [seq for seq in payload.get("step") or [payload.get("undoes")]
                  if seq in current.steps]
        if not undone:
            return
        current.state = current.without(undone)
        current.applied = [(seq, action) for seq, action in current.applied
                           if seq not in set(undone)]
        step = current.steps[undone[0]]
        for seq in undone:
            current.steps.pop(seq, None)
        # back to just before the step: its entries wait again, later ones are dropped
        current.entries = {**{seq: entry for seq, entry in current.entries.items()
                              if seq < undone[0]}, **current.used.pop(step, {})}

    # -- what the dashboard shows -----------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Everything a live page needs, as JSON: actions as the table sees them (a card laid
        face down shows no face: :meth:`~rules.State.public_action`)."""
        return {
            "table": self.info.to_json(),
            "seq": self.last_seq,
            "hints": self.hints,
            "game": None if self.current is None else self.current.summary(),
            "flags": [self._public(flag) for flag in self.flags.values()],
            "entries": self.entries(),
            "recent": [self._public(entry) for entry in reversed(self.recent)],
            "readings": list(self.readings),
            "last_observation": self._public(self.last_observation),
            "past_games": self.past_games[-10:],
            "problems": self.problems[-10:],
            "quarantined": self.quarantined,
            "sources": self.sources,
        }

    def entries(self) -> list[dict[str, Any]]:
        """A person's entries waiting for the action they are for, each in words."""
        if self.current is None:
            return []
        return [{"seq": seq, "entry": entry, "text": entry_words(entry)}
                for seq, entry in self.current.entries.items()]

    def _public(self, entry: dict[str, Any] | None) -> dict[str, Any] | None:
        """An event, flag or observation entry with its actions as the table sees them."""
        if entry is None or self.current is None:
            return entry
        return public_entry(self.current.state, entry)
