"""The station service: tables, their live views, and every write that moves them on.

Each write decides its events from the live view, stores them in one
transaction, then moves the view on with the stored events and broadcasts the
new snapshot. If another writer got to the table first (a tournament hub with
several stations), the view is reloaded from the store and the write tried again.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from rules import Action, State
from station.live.camera_view import CameraViews
from station.live.hub import Hub
from station.live.pacing import SnapshotPacer
from station.live.public import public_entry
from station.live.source_faults import SourceFaults
from station.live.table import LiveTable, game_start_state
from station.store import AnsweredBefore, Event, EventStore, StoreConflict
from station.store.clock import epoch_seconds
from station.store.events import slugify, valid_id
from station.store.receipts import Receipt, pending_receipt

Plan = Callable[[LiveTable], list[tuple[str, dict[str, Any]]]]
RETRIES = 3
#: The most queued writes stored together (one transaction, one snapshot sent).
BATCH_LIMIT = 64
log = logging.getLogger("packref.station")


class UnknownTable(LookupError):
    """No table has that id."""


@dataclass(eq=False)
class _Pending:
    """A write waiting for its table: what it would write, and, once done, its events
    or its error. ``alone``: a batch it was in failed, it is written on its own."""

    plan: Plan
    author: str
    receipt: Receipt | None
    stored: list[Event] | None = None
    error: BaseException | None = None
    done: bool = False
    alone: bool = False


class Station:
    """Every table of this station: kept in an EventStore, broadcast by a Hub."""

    def __init__(self, store: EventStore, hub: Hub | None = None,
                 catalogues: Mapping[str, dict[str, Any]] | None = None,
                 snapshot_interval: float = 0.0) -> None:
        """``snapshot_interval``: at most one snapshot of a table sent per this many seconds
        (:mod:`station.live.pacing`; the served station's is ``SNAPSHOT_INTERVAL``); 0: one
        for every write, sent by the writer."""
        self.store = store
        self.hub = hub or Hub()
        self._tables: dict[str, LiveTable] = {}
        self._locks: dict[str, threading.RLock] = {}
        self._queues: dict[str, deque[_Pending]] = {}  # writes waiting for each table
        self._guard = threading.Lock()
        #: A copy's catalogue per game (``serve --catalogue``), for every game started here.
        self.catalogues: dict[str, dict[str, Any]] = dict(catalogues or {})
        #: Called with each table broadcast (in the writer's thread, the table's lock held):
        #: they must return at once (the advisor hands its work to a worker process).
        self.listeners: list[Callable[[LiveTable], None]] = []
        #: Each camera table's latest frame and reading (the camera check page).
        self.cameras = CameraViews()
        #: Each table's camera, drone and buttons that failed and are retried, in words.
        self.source_faults = SourceFaults(on_change=self._sources_changed)
        self._pacer = (SnapshotPacer(snapshot_interval, self._send_paced)
                       if snapshot_interval > 0 else None)
        self._stored_at: dict[str, float] = {}  # table id: when its newest write was stored

    def __repr__(self) -> str:
        return f"<Station {len(self._tables)} tables on {self.store!r}>"

    def _sources_changed(self, table_id: str) -> None:
        """A table's source failed or recovered: its pages are told (a table not loaded yet
        takes its flags when it is)."""
        with self._lock(table_id):
            live = self._tables.get(table_id)
            if live is not None:
                live.sources = self.source_faults.of(table_id)
                self.broadcast(live)

    def quarantined(self) -> dict[str, str]:
        """Each loaded table that is read-only, and why (see :meth:`LiveTable.take`)."""
        with self._guard:
            tables = list(self._tables.values())
        return {live.info.id: live.quarantined for live in tables if live.quarantined}

    # -- reading ------------------------------------------------------------------------
    def resume(self) -> list[str]:
        """Load every stored table (replaying its events); returns their ids."""
        return [self.table(info.id).info.id for info in self.store.tables()]

    def _lock(self, table_id: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.RLock())

    def table_lock(self, table_id: str) -> threading.RLock:
        """The lock every write of the table holds: hold it to read a consistent view."""
        return self._lock(table_id)

    def table(self, table_id: str) -> LiveTable:
        """The live view of a table, loaded from the store the first time."""
        with self._lock(table_id):
            live = self._tables.get(table_id)
            if live is None:
                info = self.store.table(table_id)
                if info is None:
                    raise UnknownTable(f"there is no table {table_id!r}")
                live = LiveTable.rebuild(info, self.store.events(table_id))
                live.sources = self.source_faults.of(table_id)
                self._tables[table_id] = live
            return live

    def refresh(self, table_id: str) -> LiveTable:
        """The table's view, caught up with events another station may have stored."""
        with self._lock(table_id):
            live = self.table(table_id)
            for event in self.store.events(table_id, after=live.last_seq):
                live.take(event, replaying=True)
            return live

    def snapshot(self, table_id: str) -> dict[str, Any]:
        with self._lock(table_id):
            return self.refresh(table_id).snapshot()

    def public_events(self, table_id: str, after: int = 0,
                      limit: int | None = None) -> list[dict[str, Any]]:
        """The stored events after ``after`` as the whole table sees them: an action laid
        face down shows no face (the full record is :meth:`EventStore.events`)."""
        self.table(table_id)  # an unknown table raises UnknownTable
        try:
            state = self._state_after(table_id, after)
        except Exception:  # the game's own event is damaged: its table is quarantined
            state = None
        shown = []
        for event in self.store.events(table_id, after, limit):
            try:
                if event.kind == "game":
                    state = game_start_state(event.payload)[1]
                entry = event.to_json()
                shown.append(entry if state is None else public_entry(state, entry))
            except Exception as error:  # a damaged event is listed, never its payload
                shown.append(_unreadable(event, error))
        return shown

    def _state_after(self, table_id: str, seq: int) -> State | None:
        """The state of the game in play right after event ``seq`` (None before any game);
        only its kind of game matters to :func:`public_entry`."""
        live = self.table(table_id)
        if live.current is not None and live.current.seq <= seq:
            return live.current.state
        start = self.store.last_event(table_id, "game", seq)
        return None if start is None else game_start_state(start.payload)[1]

    def forget(self, table_id: str) -> None:
        """Drop the table's live view; the next read rebuilds it from the store."""
        with self._lock(table_id):
            self._tables.pop(table_id, None)

    def table_ids(self) -> list[str]:
        return [info.id for info in self.store.tables()]

    # -- writing ------------------------------------------------------------------------
    def create_table(self, name: str, table_id: str | None = None) -> LiveTable:
        """Add a table (its id made from its name unless given)."""
        table_id = table_id or slugify(name)
        if not valid_id(table_id):
            raise ValueError(f"table id {table_id!r}: use lower-case letters, digits and dashes")
        info = self.store.create_table(table_id, name)
        with self._lock(table_id):
            self._tables[table_id] = LiveTable(info)
        self.hub.publish("tables", json.dumps({"type": "tables"}))
        return self._tables[table_id]

    def remove_table(self, table_id: str) -> None:
        """Remove a table made by mistake, before anything happened there
        (:meth:`~station.store.EventStore.remove_table`); :class:`UnknownTable` if none."""
        with self._lock(table_id):
            if not self.store.remove_table(table_id):
                raise UnknownTable(f"there is no table {table_id!r}")
            self._tables.pop(table_id, None)
        self.hub.publish("tables", json.dumps({"type": "tables"}))

    def start_game(self, table_id: str, game: str, players: list[str], seed: int,
                   options: dict[str, Any] | None, author: str,
                   deal: str = "seed",
                   catalogue: dict[str, Any] | None = None) -> list[Event]:
        """Start a game; ``deal="table"`` when the components were dealt by hand (§9);
        ``catalogue``: the copy's components (default: the station's for that game, if any)."""
        chosen = catalogue if catalogue is not None else self.catalogues.get(game)
        return self._write(
            table_id, lambda t: t.plan_game(game, players, seed, options, deal, chosen), author)

    def reveal(self, table_id: str, action: Action, author: str,
               source: str = "person") -> list[Event]:
        """A chance outcome a person entered (a card drawn, a present under a shop card).

        Stored as an observation, like a camera's; a reveal that is no legal outcome raises
        :class:`~rules.IllegalAction` with the engine's reason, and nothing is stored.
        """
        return self.observe(table_id, {"kind": "reveal", "action": action}, source, author,
                            answer=True)

    def observe(self, table_id: str, observation: dict[str, Any], source: str,
                author: str, answer: bool = False) -> list[Event]:
        """A stable observation. ``answer``: its sender hears the answer (the API, the command
        line): a declared action or reveal the engine refuses raises
        :class:`~rules.IllegalAction`, nothing stored or flagged; else it is flagged."""
        return self._write(
            table_id, lambda t: t.plan_observation(observation, source, answer), author)

    def correct(self, table_id: str, action: Action, author: str,
                flag: int | None = None, replace: bool = False) -> list[Event]:
        """A referee's action; ``replace``: the last step is taken back first, in one go."""
        return self._write(table_id, lambda t: t.plan_correction(action, flag, replace), author)

    def choose(self, table_id: str, flag: int, reading: int, author: str) -> list[Event]:
        """Apply reading ``reading`` (from 0) of a flag that asked which of two it was."""
        return self._write(table_id, lambda t: t.plan_choose(flag, reading), author)

    def accept(self, table_id: str, flag: int, author: str) -> list[Event]:
        return self._write(table_id, lambda t: t.plan_accept(flag), author)

    def withdraw(self, table_id: str, entry: int, author: str) -> list[Event]:
        """Withdraw a person's entry still waiting (its event's seq)."""
        return self._write(table_id, lambda t: t.plan_withdraw(entry), author)

    def undo(self, table_id: str, author: str) -> list[Event]:
        """Take back the last step (every action it applied, reveals included)."""
        return self._write(table_id, lambda t: t.plan_undo(), author)

    def end_game(self, table_id: str, reason: str, author: str) -> list[Event]:
        """End the game in play before it is over (``reason`` is stored and shown); the
        table is then free for the next game. Refused (TableRefusal) with no game in play."""
        return self._write(table_id, lambda t: t.plan_end(reason), author)

    def set_hints(self, table_id: str, on: bool, author: str) -> list[Event]:
        """Switch the table's hints on or off (the organiser's; stored as an event)."""
        return self._write(table_id, lambda t: t.plan_hints(on), author)

    def _write(self, table_id: str, plan: Plan, author: str) -> list[Event]:
        """Decide, store and take in one write; the table's snapshot then goes out.

        Writes to one table wait for each other (its lock). Under load the one that gets
        the lock takes every write queued behind it too (:meth:`_write_queued`): each is
        decided on the view the ones before it left, all are stored in one transaction,
        and one snapshot goes out for them all. A write that waits finds it was done.
        """
        if self.store.spool is not None:  # a hub's station spools: its writes go one by one
            return self._write_one(table_id, plan, author)
        pending = _Pending(plan, author, pending_receipt())
        queue = self._queue(table_id)
        queue.append(pending)
        with self._lock(table_id):
            if not pending.done:
                if pending.alone:
                    return self._write_one(table_id, plan, author)
                self._write_queued(table_id, queue, pending)
        if pending.error is not None:
            raise pending.error
        assert pending.stored is not None
        return pending.stored

    def _queue(self, table_id: str) -> deque[_Pending]:
        with self._guard:
            return self._queues.setdefault(table_id, deque())

    def _write_queued(self, table_id: str, queue: deque[_Pending], own: _Pending) -> None:
        """The writes queued for the table, its lock held, until ``own`` is done: alone (as
        any write) when it is the only one; else up to ``BATCH_LIMIT`` together. If writing
        them together fails for any reason, nothing of it is stored and each is written
        alone again (by its own thread: so a refusal or a fault is its own answer)."""
        while not own.done and not own.alone:
            batch = [queue.popleft() for _ in range(min(len(queue), BATCH_LIMIT))]
            if not batch or (len(batch) == 1 and batch[0] is own):
                break
            try:
                live = self._write_together(table_id, batch)
            except Exception:
                self._tables.pop(table_id, None)  # the view took what was not stored
                for pending in batch:  # as if never tried together
                    pending.alone, pending.error, pending.stored = True, None, None
                continue
            self.broadcast(live)  # after the commit: nothing here may write them again
        if not own.done:
            own.done = True
            try:
                own.stored = self._write_one(table_id, own.plan, own.author)
            except BaseException as error:
                own.error = error

    def _write_together(self, table_id: str, batch: list[_Pending]) -> LiveTable:
        """Decide each write on the view the ones before it left and store them all in one
        transaction; a write its plan refuses gets its error, the others go on."""
        live = self.table(table_id)
        live.writable()  # a quarantined table is read-only
        taken: list[tuple[_Pending, list[Event]]] = []
        with self.store.appending(table_id, expected_last=live.last_seq) as appending:
            for pending in batch:
                try:
                    appending.check(pending.receipt)  # made before: not decided again
                    events = pending.plan(live)
                except Exception as error:
                    pending.error = error
                    continue
                stored = appending.add(events, pending.author, pending.receipt)
                for event in stored:
                    live.take(event)
                taken.append((pending, stored))
        for pending, stored in taken:
            pending.stored = stored
        for pending in batch:
            pending.done = True
        return live

    def _write_one(self, table_id: str, plan: Plan, author: str) -> list[Event]:
        with self._lock(table_id):
            for attempt in range(RETRIES):
                live = self.table(table_id)
                live.writable()  # a quarantined table is read-only
                try:  # decided in the transaction, once its receipt was looked up
                    stored = self.store.append(table_id, partial(plan, live), author,
                                               expected_last=live.last_seq)
                except AnsweredBefore:
                    raise  # made before: its first answer stands, the view is as it was
                except StoreConflict:
                    # Someone else wrote first: reload the whole view (translator memory too).
                    self._tables.pop(table_id, None)
                    if attempt == RETRIES - 1:
                        raise
                    continue
                for event in stored:
                    live.take(event)
                self.broadcast(live)
                return stored
        raise AssertionError("unreachable")

    def broadcast(self, live: LiveTable) -> None:
        """Send the table's snapshot to its live pages, stamped with the time it was stored:
        now, or (paced, a snapshot went out less than the interval ago) in one trailing send
        of the newest state at the interval's end."""
        self._stored_at[live.info.id] = epoch_seconds()
        if self._pacer is None or self._pacer.due_now(live.info.id):
            self._send(live)

    def _send_paced(self, table_id: str) -> None:
        """The pacer's trailing send: the table's state now, its lock held."""
        with self._lock(table_id):
            try:
                live = self.table(table_id)  # a view dropped after a failed write: rebuilt
            except UnknownTable:  # removed meanwhile: nobody to tell
                return
            self._send(live)

    def _send(self, live: LiveTable) -> None:
        stored_at = self._stored_at.get(live.info.id) or epoch_seconds()
        message = {"type": "snapshot", "stored_at": stored_at, "seq": live.last_seq,
                   "snapshot": live.snapshot()}
        # Encoded once, the same text for every watcher; a newer snapshot stands in for
        # one a slow watcher has not been sent yet.
        self.hub.publish(f"table:{live.info.id}", json.dumps(message), latest="snapshot")
        self.hub.publish("tables", json.dumps({"type": "table", "id": live.info.id,
                                               "seq": live.last_seq}),
                         latest=f"table {live.info.id}")
        for listener in list(self.listeners):
            try:
                listener(live)
            except Exception:  # what is stored and sent stands: a listener only follows
                log.exception("a listener of table %s failed", live.info.id)


def _unreadable(event: Event, error: Exception) -> dict[str, Any]:
    """A stored event that cannot be shown: its place and why, without its payload (which
    may hold what the table must not see)."""
    words = str(error).strip().splitlines()
    return {"seq": event.seq, "kind": event.kind, "author": event.author,
            "at": event.at.isoformat(),
            "unreadable": words[0] if words else type(error).__name__}
