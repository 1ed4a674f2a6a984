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
                 resolves, or null).
``undo``         a referee takes back the last applied action: ``undoes``.
``hints``        the organiser switches the table's hints on or off: ``on`` (the
                 acting player's best moves on the table page; they stay off
                 from one game to the next until switched again).

:meth:`LiveTable.absorb` is the only place events change the view, both when
they are new and when a restarted station replays them, so the live view is
always what a replay gives.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import Action, Game, IllegalAction, State, get_game
from station.games import describe_event, named_cells, present
from station.games.views import changed_cells
from station.games.words import actor
from station.live.public import public_entry
from station.live.translators import TableTranslator
from station.store import Event, TableInfo

RECENT_EVENTS = 30
KEPT_READINGS = 120
PAST_GAME_FIELDS = ("seq", "name", "players", "over", "actions", "scores", "winners")


def _reason(error: Exception, where: str) -> str:
    """A flag's reason: the rules' own words, or what went wrong where."""
    if isinstance(error, IllegalAction):
        return error.reason
    return f"the {where} could not read this ({type(error).__name__}: {error})"


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
            earlier = self.game.replay(self.state.to_json() | {
                "log": [action for _, action in self.applied[:-1]]})
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

    def __repr__(self) -> str:
        return f"<LiveTable {self.info.id} at event {self.last_seq}>"

    @classmethod
    def rebuild(cls, info: TableInfo, events: Iterable[Event]) -> LiveTable:
        """The table as its stored events leave it."""
        table = cls(info)
        for event in events:
            table.absorb(event, replaying=True)
        return table

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
        if catalogue is not None:
            payload["catalogue"] = dict(catalogue)
        return [("game", payload)]

    def plan_observation(self, observation: dict[str, Any],
                         source: str) -> list[tuple[str, dict[str, Any]]]:
        """The observation event, then the actions it means: applied, or flagged with a reason."""
        events: list[tuple[str, dict[str, Any]]] = [
            ("observation", {"observation": observation, "source": source})]
        if self.current is None or self.translator is None:
            return events
        cause = self.last_seq + 1
        try:
            actions = self.translator.translate(self.current.state, observation)
        except Exception as error:  # a reader's odd value must not stop the table
            return [*events, ("flag", {"action": None, "reason": _reason(error, "translator"),
                                       "cause": cause})]
        trial = self.current.state.clone()
        for action in actions:
            try:
                trial.apply(action)
            except Exception as error:
                events.append(("flag", {"action": action, "reason": _reason(error, "engine"),
                                        "cause": cause}))
                break
            events.append(("action", {"action": action, "cause": cause}))
        return events

    def plan_correction(self, action: Action, flag: int | None) -> list[tuple[str, dict[str, Any]]]:
        """A referee's action; raises IllegalAction (with the engine's reason) if refused."""
        current = self._require_game()
        if flag is not None and flag not in self.flags:
            raise TableRefusal(f"there is no open flag at event {flag}")
        try:
            current.state.clone().apply(action)
        except IllegalAction:
            raise
        except Exception as error:
            raise IllegalAction(_reason(error, "engine")) from error
        return [("correction", {"action": action, "flag": flag})]

    def plan_accept(self, flag: int) -> list[tuple[str, dict[str, Any]]]:
        if flag not in self.flags:
            raise TableRefusal(f"there is no open flag at event {flag}")
        return [("accept", {"flag": flag})]

    def plan_undo(self) -> list[tuple[str, dict[str, Any]]]:
        current = self._require_game()
        if not current.applied:
            raise TableRefusal("there is no action to undo in this game")
        return [("undo", {"undoes": current.applied[-1][0]})]

    def plan_hints(self, on: bool) -> list[tuple[str, dict[str, Any]]]:
        """The organiser's hints switch (an event even when unchanged: who asked, when)."""
        return [("hints", {"on": bool(on)})]

    def _require_game(self) -> CurrentGame:
        if self.current is None:
            raise TableRefusal("no game has started at this table")
        return self.current

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

    def _on_observation(self, event: Event, replaying: bool) -> None:
        observation = event.payload.get("observation", {})
        self.last_observation = {"seq": event.seq, "at": event.at.isoformat(),
                                 "observation": observation}
        if isinstance(observation.get("mass_g"), int | float):  # the drone's mass graph
            self.readings.append(self.last_observation)
        if replaying and self.current is not None and self.translator is not None:
            # Rebuild the translator's memory; the actions it led to are stored already,
            # and a replay must not stop on a translator's error.
            with contextlib.suppress(Exception):
                self.translator.translate(self.current.state, observation)

    def _apply(self, event: Event, replaying: bool) -> None:
        current = self._require_game()
        if not replaying:  # the view before it, for the last move's highlight (else lazily)
            current.before = (event.seq, present(current.state, current.table))
        try:
            current.state.apply(dict(event.payload["action"]))
        except IllegalAction as error:
            self.problems.append(f"event {event.seq}: stored action now refused: {error.reason}")
            return
        current.applied.append((event.seq, dict(event.payload["action"])))

    def _on_action(self, event: Event, replaying: bool) -> None:
        self._apply(event, replaying)

    def _on_flag(self, event: Event, replaying: bool) -> None:
        action = event.payload.get("action")
        self.flags[event.seq] = {"seq": event.seq, "at": event.at.isoformat(),
                                 "action": action, "reason": event.payload.get("reason", ""),
                                 "cells": [] if self.current is None else
                                 named_cells(self.current.state, action)}

    def _on_accept(self, event: Event, replaying: bool) -> None:
        self.flags.pop(event.payload.get("flag"), None)

    def _on_correction(self, event: Event, replaying: bool) -> None:
        self._apply(event, replaying)
        self.flags.pop(event.payload.get("flag"), None)

    def _on_hints(self, event: Event, replaying: bool) -> None:
        self.hints = bool(event.payload.get("on"))

    def _on_undo(self, event: Event, replaying: bool) -> None:
        current = self._require_game()
        undone = event.payload.get("undoes")
        kept = [(seq, action) for seq, action in current.applied if seq != undone]
        document = current.state.to_json() | {"log": [action for _, action in kept]}
        current.state = current.game.replay(document)
        current.applied = kept

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
            "recent": [self._public(entry) for entry in reversed(self.recent)],
            "readings": list(self.readings),
            "last_observation": self._public(self.last_observation),
            "past_games": self.past_games[-10:],
            "problems": self.problems[-10:],
        }

    def _public(self, entry: dict[str, Any] | None) -> dict[str, Any] | None:
        """An event, flag or observation entry with its actions as the table sees them."""
        if entry is None or self.current is None:
            return entry
        return public_entry(self.current.state, entry)
