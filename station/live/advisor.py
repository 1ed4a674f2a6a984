"""Win chances and hints beside the live loop (docs/advisor.md, "At the table").

After each broadcast of a table whose position moved on, :class:`LiveAdvisor` hands the
game *as the whole table sees it* (:func:`rules.advice.knowledge.public_document`: no
seeded order, no hand card, no face-down card) to a worker process running
:func:`station.advice.advise_state` within the station's time budget, and returns at
once. The answer arrives later; if the table is still at that position it is published
on the table's live channel as an ``advice`` message (every player's win chance; the
acting player's best moves in words when the table's hints are on), else dropped. A
newer position cancels a computation still waiting for the worker.

Message (``type`` ``"advice"``): ``table``; ``game``, ``actions`` and ``position``
(the game's seq, its action count and the seq of its last applied event: what the
answer is about); ``player`` (to act, or null while a draw is awaited); ``win_chances``
(``[{"player", "chance", "low", "high"}]`` in seat order, ``low``–``high`` its 95 %
interval, or null: not shown, the game is over, or hidden: before the first move or while
an interval is wider than :data:`~station.advice.CREDIBLE_WIDTH`); ``chances_hidden``
(why they are hidden, in words, or null);
``hints`` (``[{"words", "action", "win_chance", "expected_score"}]`` best first, or
null when hints are off); ``hints_on``; ``playouts``; ``seconds``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

from rules.advice.knowledge import public_document
from station.advice import advise_state, credible_chances, moves_made, warm_up
from station.config import ADVICE_SECONDS, AdviceSettings
from station.games import describe_action, game_record
from station.live.station import Station
from station.live.table import LiveTable

log = logging.getLogger("packref.advice")
PARENT_CHECK_S = 1.0  # how often a worker looks whether its station is still there
WORKER_NICENESS = 19  # the worker yields the CPU to the live loop (and to the camera)
SEARCH_SEED = 0  # one seed for every search: the same position, the same search
#: Why hints may not show at a table's game (table id, the game's seq → a sentence or None).
HintsRule = Callable[[str, int], str | None]


@dataclass(frozen=True)
class Position:
    """What an answer is about: a game (its seq), its action count, its last applied event."""

    game: int
    actions: int
    last: int

    def to_json(self) -> dict[str, int]:
        return {"game": self.game, "actions": self.actions, "position": self.last}


def position_of(live: LiveTable) -> Position | None:
    """The table's position, or None when there is nothing to advise (no game, or over)."""
    current = live.current
    if current is None or current.state.is_over():
        return None
    last = current.applied[-1][0] if current.applied else current.seq
    return Position(current.seq, len(current.state.log), last)


def _lower_priority(station_pid: int | None = None) -> None:
    """A worker's initializer: be nice to the live loop, and end with the station
    (``station_pid``: the process that made the pool)."""
    with contextlib.suppress(OSError):  # not allowed here: the same priority, then
        os.nice(WORKER_NICENESS)
    if station_pid is not None:
        threading.Thread(target=_end_with_parent, args=(station_pid,), daemon=True,
                         name="end with the station").start()


def _end_with_parent(parent: int, every_s: float = PARENT_CHECK_S) -> None:
    """End this worker once the station that started it is gone. A station killed with
    SIGKILL (the kernel's out-of-memory killer, ``kill -9``) cannot stop its pool: its
    worker would wait for work for ever, and the station started again would get another."""
    while os.getppid() == parent:
        time.sleep(every_s)
    os._exit(0)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for advice, started fresh (``spawn``: no copy of the server's threads)."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_lower_priority,
                               initargs=(os.getpid(),),
                               mp_context=multiprocessing.get_context("spawn"))


class LiveAdvisor:
    """Advice for every table of ``station``, computed by ``executor`` (default: a pool of
    worker processes made at the first request) and published on the station's hub."""

    def __init__(self, station: Station, settings: AdviceSettings,
                 hints_rule: HintsRule | None = None,
                 executor: Executor | None = None) -> None:
        self.station = station
        self.settings = settings
        self.hints_rule = hints_rule
        self._executor = executor
        self._owns_executor = executor is None
        self._lock = threading.Lock()
        self._positions: dict[str, Position | None] = {}
        self._pending: dict[str, Future[dict[str, Any]]] = {}
        self._messages: dict[str, dict[str, Any]] = {}
        self._closed = False

    def __repr__(self) -> str:
        return f"<LiveAdvisor {len(self._pending)} pending, {self.settings}>"

    def attach(self) -> LiveAdvisor:
        """Follow the station's broadcasts from now on (and start the worker now when win
        chances show, so that the first action does not wait for it)."""
        self.station.listeners.append(self.position_changed)
        if self.settings.win_chances and self._executor is None:
            self._executor = worker_pool(self.settings.workers)
            self._executor.submit(warm_up)
        return self

    def close(self) -> None:
        """Stop following the station; drop pending work (a running search ends by itself)."""
        with self._lock:
            self._closed = True
            pending = list(self._pending.values())
            self._pending.clear()
        if self.position_changed in self.station.listeners:
            self.station.listeners.remove(self.position_changed)
        for future in pending:
            future.cancel()
        if self._owns_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    # -- what the pages get ------------------------------------------------------------
    def message(self, table_id: str) -> dict[str, Any] | None:
        """The latest advice message of the table (None before the first)."""
        with self._lock:
            return self._messages.get(table_id)

    def hints_refusal(self, live: LiveTable) -> str | None:
        """Why the table's hints may not show now (None: they may), the switch aside."""
        if live.current is None or self.hints_rule is None:
            return None
        return self.hints_rule(live.info.id, live.current.seq)

    def hints_shown(self, live: LiveTable) -> bool:
        return live.hints and self.hints_refusal(live) is None

    def ensure(self, table_id: str) -> None:
        """Study the table's position if nobody has yet (a page opened after a restart)."""
        with self.station.table_lock(table_id):
            self.position_changed(self.station.table(table_id))

    # -- the live loop's side -------------------------------------------------------------
    def position_changed(self, live: LiveTable) -> None:
        """A station listener (the table's lock held): study a new position in a worker, or
        send the latest answer again when only the hints switch moved. Returns at once."""
        table_id = live.info.id
        position = position_of(live)
        hints = self.hints_shown(live)
        with self._lock:
            if self._closed:
                return
            known = self._positions.get(table_id, "unknown")
            latest = self._messages.get(table_id)
            fresh = (latest is not None and position is not None
                     and latest["position"] == position.last
                     and (latest["game"], latest["actions"]) == (position.game, position.actions))
            if known == position:
                if fresh and latest["hints_on"] != hints:
                    self._publish(table_id, self._with_hints(latest, hints, live))
                elif not fresh and table_id not in self._pending:
                    self._submit(live, position, hints)  # hints just switched on, or a restart
                return
            self._positions[table_id] = position
            stale = self._pending.pop(table_id, None)
            if stale is not None:
                stale.cancel()  # a newer position supersedes it
            if position is None:
                if latest is not None and latest["position"] is not None:
                    self._publish(table_id, self._empty(live, hints))  # the pages hide it
                return
            self._submit(live, position, hints)

    def _wanted(self, live: LiveTable, hints: bool) -> bool:
        game = live.current
        return (game is not None and game_record(game.game.name) is not None
                and (self.settings.win_chances or hints))

    def _seconds(self, game: Any) -> float:
        """A position's budget: the station's, else the game's own."""
        if self.settings.seconds is not None:
            return self.settings.seconds
        record = game_record(game.game.name)
        return ADVICE_SECONDS if record is None else record.advice_seconds

    def _submit(self, live: LiveTable, position: Position | None, hints: bool) -> None:
        """Hand the position to a worker (``self._lock`` held)."""
        if position is None or not self._wanted(live, hints):
            return
        current = live.current
        assert current is not None
        document = public_document(current.state)
        if self._executor is None:
            self._executor = worker_pool(self.settings.workers)
        try:
            future = self._executor.submit(advise_state, document, self._seconds(current),
                                           SEARCH_SEED, None, True, self.settings.min_playouts,
                                           self.settings.max_playouts)
        except RuntimeError as error:  # a broken pool (a worker died): a new one next time
            log.warning("the advice worker cannot take table %s: %s", live.info.id, error)
            if self._owns_executor:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            return
        self._pending[live.info.id] = future
        future.add_done_callback(partial(self._answered, live.info.id, position))

    def _answered(self, table_id: str, position: Position,
                  future: Future[dict[str, Any]]) -> None:
        """A worker's answer (in a pool thread): published if still about the position."""
        if future.cancelled():
            return
        error = future.exception()
        if error is not None:
            log.warning("no advice for table %s: %s", table_id, error)
            with self._lock:
                if self._pending.get(table_id) is future:
                    del self._pending[table_id]  # the next page to open asks again
            return
        answer = future.result()
        with self.station.table_lock(table_id):  # the same order as a write: table, then ours
            live = self.station.table(table_id)
            if position_of(live) != position:
                return  # the table moved on meanwhile: a newer answer is coming
            hints = self.hints_shown(live)
            with self._lock:
                if self._pending.get(table_id) is future:
                    del self._pending[table_id]
                if self._closed or self._positions.get(table_id) != position:
                    return
                message = self._from_answer(live, position, answer)
                self._publish(table_id, self._with_hints(message, hints, live))

    # -- messages -----------------------------------------------------------------------
    def _empty(self, live: LiveTable, hints: bool) -> dict[str, Any]:
        """No advice (no game, or the game is over): the pages hide the bar."""
        game = live.current
        return {"type": "advice", "table": live.info.id,
                "game": None if game is None else game.seq,
                "actions": None if game is None else len(game.state.log), "position": None,
                "player": None, "win_chances": None, "chances_hidden": None, "hints": None,
                "hints_on": hints,
                "all_hints": [], "playouts": 0, "seconds": 0.0}

    def _from_answer(self, live: LiveTable, position: Position,
                     answer: dict[str, Any]) -> dict[str, Any]:
        current = live.current
        assert current is not None
        state = current.state
        # shown only once a move was made and the playouts make it credible (CREDIBLE_WIDTH)
        credible = credible_chances(answer, moves_made(state), self.settings.credible_width)
        chances = answer.get("win_chances") if self.settings.win_chances and credible[
            "shown"] else None
        hints = [{"words": describe_action(state, entry["action"], face_up=True),
                  "action": entry["action"],
                  "win_chance": (entry["win_chances"] or {}).get(answer["player"]),
                  "expected_score": entry["expected_score"]}
                 for entry in answer.get("actions", [])]
        return {"type": "advice", "table": live.info.id, **position.to_json(),
                "player": answer.get("player"),
                "win_chances": None if chances is None else [
                    {"player": name, "chance": chances[name],
                     "low": credible["intervals"][name][0],
                     "high": credible["intervals"][name][1]} for name in state.players],
                "chances_hidden": None if chances is not None or not self.settings.win_chances
                else credible["why"],
                "hints": None, "hints_on": False, "all_hints": hints,
                "playouts": answer.get("playouts", 0), "seconds": answer.get("seconds", 0.0)}

    @staticmethod
    def _with_hints(message: dict[str, Any], hints: bool, live: LiveTable) -> dict[str, Any]:
        """The message with its hints shown or hidden (``all_hints`` stays on the server)."""
        return {**message, "hints_on": hints,
                "hints": list(message["all_hints"]) if hints else None}

    def _publish(self, table_id: str, message: dict[str, Any]) -> None:
        """Keep ``message`` as the table's latest and send it (``self._lock`` held)."""
        self._messages[table_id] = message
        self.station.hub.publish(f"table:{table_id}", json.dumps(public_message(message)),
                                 latest="advice")


def public_message(message: dict[str, Any] | None) -> dict[str, Any] | None:
    """An advice message as the pages get it: hidden hints are not sent."""
    if message is None:
        return None
    return {key: value for key, value in message.items() if key != "all_hints"}
