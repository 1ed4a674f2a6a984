"""The append-only event store: every observation, action and correction of every table.

Events are numbered per table (``seq`` 1, 2, 3 ...). Appending several events
is one transaction: all are stored or none. Nothing here updates or deletes an
event; a correction is a new event.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from station.jsonin import clipped
from station.store.clock import Clock, SystemClock
from station.store.database import Database
from station.store.models import EventRow, MatchRow, ReceiptRow, TableRow, TournamentRuleRow
from station.store.receipts import Receipt, pending_receipt
from station.store.spool import Spool, hub_copy

Planned = Sequence[tuple[str, dict[str, Any]]]
#: Events to append, or what decides them (called in the write's transaction, after its
#: receipt was looked up: a write made before is not decided again).
Events = Planned | Callable[[], Planned]
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
#: How deep a stored payload is handed out. The API refuses documents nested deeper than
#: 32 levels; one stored before it did (hundreds deep) is clipped here, where every reader
#: gets it, so no answer carrying it fails to encode and its table stays readable.
READABLE_DEPTH = 64


class Appending:
    """The writes of one :meth:`EventStore.appending` transaction, added one by one."""

    def __init__(self, store: EventStore, session: Any, table_id: str, last: int) -> None:
        self.store, self.session, self.table_id, self.last = store, session, table_id, last
        self.receipts: list[Receipt] = []

    def check(self, receipt: Receipt | None) -> None:
        """:class:`AnsweredBefore` if ``receipt``'s write was made before (looked up in
        this transaction)."""
        check_receipt(self.session, receipt)

    def add(self, events: Sequence[tuple[str, dict[str, Any]]], author: str,
            receipt: Receipt | None = None) -> list[Event]:
        """Number ``events`` after the last added and add them (and ``receipt``, the
        answer this write gives) to the transaction; they are stored at its end."""
        stored = self.store._insert(self.session, self.table_id, events, author, self.last,
                                    receipt)
        self.last += len(stored)
        if receipt is not None:
            self.receipts.append(receipt)
        return stored


class StoreConflict(Exception):
    """Another writer got there first (the same table id or event number)."""


class AnsweredBefore(StoreConflict):
    """The write's ``Idempotency-Key`` has a receipt already: the write was made before,
    ``kept`` is its answer (a row of no session: the transaction is rolled back); nothing
    of this one is stored."""

    def __init__(self, kept: ReceiptRow) -> None:
        super().__init__(f"the write with key {kept.key!r} was made before")
        self.kept = kept


def check_receipt(session: Any, receipt: Receipt | None) -> None:
    """Raise :class:`AnsweredBefore` if ``receipt``'s key was kept already (looked up in
    the write's own transaction, before the write is decided)."""
    if receipt is None:
        return
    receipts = ReceiptRow.__table__
    kept = session.connection().execute(  # Core: the ORM's loading cost more than the write
        select(receipts).where(receipts.c.key == receipt.key)).first()
    if kept is not None:
        raise AnsweredBefore(ReceiptRow(**kept._mapping))


def hub_unreachable(error: BaseException) -> bool:
    """True for errors meaning the database cannot be reached (not a refused write)."""
    if isinstance(error, IntegrityError):
        return False
    return isinstance(error, DBAPIError) and (
        error.connection_invalidated or type(error).__name__ in ("OperationalError",
                                                                 "InterfaceError"))


@dataclass(frozen=True)
class Event:
    """One stored event of a table."""

    table_id: str
    seq: int
    kind: str
    author: str
    at: datetime
    payload: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "kind": self.kind, "author": self.author,
                "at": self.at.isoformat(), **self.payload}


@dataclass(frozen=True)
class TableInfo:
    """A table's identity."""

    id: str
    name: str
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at.isoformat()}


def slugify(name: str) -> str:
    """A table or tournament id made from a name: ``"Table 3"`` → ``"table-3"``."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug[:64] or "table"


def valid_id(candidate: str) -> bool:
    """True for ids of lower-case letters, digits and dashes (1-64 characters)."""
    return bool(_SLUG.match(candidate))


def aware(moment: datetime) -> datetime:
    """``moment`` with its UTC timezone (SQLite hands times back without one)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _event(row: EventRow) -> Event:
    payload = clipped(dict(row.payload), READABLE_DEPTH)
    return Event(row.table_id, row.seq, row.kind, row.author, aware(row.at), payload)


def _decided(events: Events) -> Planned:
    return events() if callable(events) else events


def _deciding_once(events: Events) -> Events:
    """``events``; when it is a function, one that decides them once however often it is
    asked (a write tried on the hub, then kept in the spool, is decided once)."""
    if not callable(events):
        return events
    decision: list[Planned] = []

    def decide() -> Planned:
        if not decision:
            decision.append(events())
        return decision[0]
    return decide


def _same_event(stored: EventRow, spooled: EventRow) -> bool:
    return ((stored.kind, stored.author, aware(stored.at))
            == (spooled.kind, spooled.author, aware(spooled.at)))


def _info(row: TableRow) -> TableInfo:
    return TableInfo(row.id, row.name, aware(row.created_at))


class EventStore:
    """Tables and their events, in a :class:`Database`, timed by a :class:`Clock`."""

    def __init__(self, database: Database, clock: Clock | None = None,
                 spool: Spool | None = None) -> None:
        self.database = database
        self.clock = clock or SystemClock()
        self.spool = spool  # where events wait while the hub is out of reach (None: nowhere)
        self._known_tables: list[TableInfo] = []

    def __repr__(self) -> str:
        return f"EventStore({self.database!r})"

    # -- tables -------------------------------------------------------------------
    def create_table(self, table_id: str, name: str) -> TableInfo:
        """Add a table; :class:`StoreConflict` if the id is taken."""
        try:
            with self.database.session() as session:
                if session.get(TableRow, table_id) is not None:
                    raise StoreConflict(f"there is already a table {table_id!r}")
                row = TableRow(id=table_id, name=name, created_at=self.clock.now())
                session.add(row)
        except IntegrityError:
            raise StoreConflict(f"there is already a table {table_id!r}") from None
        self._known_tables.append(_info(row))
        return _info(row)

    def remove_table(self, table_id: str) -> bool:
        """Remove a table made by mistake: only one with no event (nothing happened there:
        events are never deleted) and no tournament game or rule naming it;
        :class:`StoreConflict` otherwise. False: there was no such table."""
        with self.database.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return False
            if session.scalar(select(EventRow.seq).where(EventRow.table_id == table_id)
                              .limit(1)) is not None:
                raise StoreConflict(f"table {table_id!r} has a game in its record, so it stays "
                                    "(start a new game there instead)")
            for kind, what in ((MatchRow, "a tournament game"), (TournamentRuleRow, "a rule")):
                if session.scalar(select(kind.id).where(kind.table_id == table_id)
                                  .limit(1)) is not None:
                    raise StoreConflict(f"table {table_id!r} is named by {what} of a "
                                        "tournament, so it stays")
            session.delete(row)
        self._known_tables = [info for info in self._known_tables if info.id != table_id]
        return True

    def table(self, table_id: str) -> TableInfo | None:
        with self.database.session() as session:
            row = session.get(TableRow, table_id)
            return None if row is None else _info(row)

    def tables(self) -> list[TableInfo]:
        """Every table, oldest first (while the hub is away: the tables last seen)."""
        try:
            with self.database.session() as session:
                rows = session.scalars(select(TableRow).order_by(TableRow.created_at,
                                                                 TableRow.id))
                self._known_tables = [_info(row) for row in rows]
        except DBAPIError as error:
            if self.spool is None or not hub_unreachable(error):
                raise
        return list(self._known_tables)

    # -- events -------------------------------------------------------------------
    def append(
        self, table_id: str, events: Events, author: str,
        expected_last: int | None = None,
    ) -> list[Event]:
        """Store ``(kind, payload)`` events after the table's last one, all or none.

        ``events`` may be a function deciding them: it is called in the transaction, once
        the write's receipt (:func:`~station.store.receipts.pending_receipt`) was looked up;
        a write made before raises :class:`AnsweredBefore`.

        ``expected_last`` is the seq the writer believes is last; if another
        writer appended meanwhile, :class:`StoreConflict` is raised and nothing
        is stored.
        Without the hub (PostgreSQL out of reach) and with a spool, the events
        are stored locally and sent when the hub is back.
        """
        events = _deciding_once(events)
        if self.spool is not None and self.spool.count():
            with self.spool.lock:
                if not self._send_spooled():
                    return self._append_locally(table_id, _decided(events), author,
                                                expected_last)
        try:
            return self._append_to_hub(table_id, events, author, expected_last)
        except DBAPIError as error:
            if self.spool is None or not hub_unreachable(error):
                raise
            with self.spool.lock:
                return self._append_locally(table_id, _decided(events), author,
                                            expected_last)

    def _rows(self, table_id: str, events: Sequence[tuple[str, dict[str, Any]]], author: str,
              last: int) -> list[EventRow]:
        return [EventRow(table_id=table_id, seq=last + index, kind=kind, author=author,
                         at=self.clock.now(), payload=payload)
                for index, (kind, payload) in enumerate(events, start=1)]

    def _append_to_hub(self, table_id: str, events: Events, author: str,
                       expected_last: int | None) -> list[Event]:
        receipt = pending_receipt()
        try:
            with self.database.writing() as session:
                check_receipt(session, receipt)
                last = self._last_seq(session, table_id) if expected_last is None \
                    else expected_last  # another writer's event after it: refused below
                stored = self._insert(session, table_id, _decided(events), author, last,
                                      receipt)
        except IntegrityError:  # (table, seq) taken: the table moved on, someone else wrote
            raise StoreConflict(f"table {table_id!r} was written by someone else") from None
        if receipt is not None:
            receipt.kept = True
        return stored

    def _insert(self, session: Any, table_id: str, events: Sequence[tuple[str, dict[str, Any]]],
                author: str, last: int, receipt: Receipt | None) -> list[Event]:
        """Add ``events``, numbered after ``last``, and ``receipt`` with the answer they
        make, to ``session``'s transaction; returns them as they will be stored.

        Plain inserts on the session's connection, not ORM objects: a write is one to a
        few rows that nothing reads back, and the ORM's unit of work cost more than the
        rest of the write. The events'
        unique (table, seq) refuses a number another writer took (IntegrityError), so the
        table's last number need not be read first."""
        at = [self.clock.now() for _ in events]
        values = [{"table_id": table_id, "seq": last + index, "kind": kind, "author": author,
                   "at": moment, "payload": payload}
                  for index, ((kind, payload), moment) in enumerate(zip(events, at, strict=True),
                                                                   start=1)]
        connection = session.connection()  # Core on the session's connection: no ORM layer
        if values:
            connection.execute(insert(EventRow.__table__), values)
        stored = [Event(table_id, row["seq"], row["kind"], author, aware(row["at"]),
                        clipped(dict(row["payload"]), READABLE_DEPTH)) for row in values]
        if receipt is not None:  # the answer the write gives, kept with what it stored
            answer = {"events": [event.to_json() for event in stored]}
            connection.execute(insert(ReceiptRow.__table__), [receipt.values(answer, self.clock)])
        return stored

    @contextmanager
    def appending(self, table_id: str, expected_last: int) -> Iterator[Appending]:
        """Several writes to one table in one transaction (the station's queued writes,
        :meth:`~station.live.station.Station.observe` under load): each
        :meth:`Appending.add` numbers its events after the last one added and returns
        them at once, so the next write can be decided on them; all are committed at the
        end of the block, or none. :class:`StoreConflict` if the table moved on from
        ``expected_last`` (another writer: the first number added is taken). Not for a
        station with a spool: those write one by one (:meth:`append`)."""
        try:
            with self.database.writing() as session:
                batch = Appending(self, session, table_id, expected_last)
                yield batch
        except IntegrityError:  # (table, seq) taken: the table moved on, someone else wrote
            raise StoreConflict(f"table {table_id!r} was written by someone else") from None
        for receipt in batch.receipts:
            receipt.kept = True

    def _append_locally(self, table_id: str, events: Sequence[tuple[str, dict[str, Any]]],
                        author: str, expected_last: int | None) -> list[Event]:
        """The hub is away: keep the events in the spool, numbered after the last known."""
        assert self.spool is not None
        spooled = self.spool.last_seq(table_id)
        last = spooled if spooled is not None else expected_last
        if last is None:
            raise StoreConflict(f"table {table_id!r}: the hub is out of reach and the "
                                "table's last event is unknown here")
        if expected_last is not None and last != expected_last:
            raise StoreConflict(f"table {table_id!r} moved on to event {last}")
        rows = self._rows(table_id, events, author, last)
        self.spool.add(rows)
        return [_event(row) for row in rows]

    def send_spooled(self) -> set[str]:
        """Send what was stored locally to the hub, in order; returns the tables whose
        events had to be numbered anew (another writer took their numbers meanwhile).
        Raises when the hub is still out of reach (nothing is lost: the rest waits)."""
        if self.spool is None:
            return set()
        with self.spool.lock:
            renumbered: set[str] = set()
            for table_id in dict.fromkeys(row.table_id for row in self.spool.pending()):
                if self._send_table(table_id):
                    renumbered.add(table_id)
            return renumbered

    def _send_spooled(self) -> bool:
        try:
            self.send_spooled()
        except DBAPIError as error:
            if not hub_unreachable(error):
                raise
            return False
        return True

    def _send_table(self, table_id: str) -> bool:
        """One table's spooled events in one hub transaction; True if renumbered."""
        assert self.spool is not None
        pending = self.spool.pending(table_id)
        renumbered = False
        with self.database.session() as session:
            last = self._last_seq(session, table_id)
            for row in pending:
                stored = session.scalar(select(EventRow).where(
                    EventRow.table_id == table_id, EventRow.seq == row.seq))
                if stored is not None and _same_event(stored, row) and not renumbered:
                    continue  # sent before, the spool was not told: not twice
                seq = row.seq if row.seq == last + 1 and not renumbered else last + 1
                renumbered = renumbered or seq != row.seq
                session.add(hub_copy(row, seq))
                last = seq
            session.flush()
        self.spool.remove([row.id for row in pending])
        return renumbered

    @staticmethod
    def _last_seq(session: Any, table_id: str) -> int:
        query = select(func.max(EventRow.seq)).where(EventRow.table_id == table_id)
        return session.scalar(query) or 0

    def events(self, table_id: str, after: int = 0, limit: int | None = None) -> list[Event]:
        """The table's events with ``seq > after``, in order (while the hub is away: the
        ones stored locally)."""
        if self.spool is not None and self.spool.count():
            with self.spool.lock:
                if not self._send_spooled():
                    return [_event(row) for row in
                            self.spool.pending(table_id, after)][:limit]
        try:
            with self.database.session() as session:
                query = (select(EventRow)
                         .where(EventRow.table_id == table_id, EventRow.seq > after)
                         .order_by(EventRow.seq))
                if limit is not None:
                    query = query.limit(limit)
                return [_event(row) for row in session.scalars(query)]
        except DBAPIError as error:
            if self.spool is None or not hub_unreachable(error):
                raise
            return [_event(row) for row in self.spool.pending(table_id, after)][:limit]

    def last_event(self, table_id: str, kind: str, at_most: int) -> Event | None:
        """The table's last event of ``kind`` numbered ``at_most`` or less (None if there is
        none), found by the ``events_table_kind_seq`` index without reading the history
        (while the hub is away: among the ones stored locally, as :meth:`events`)."""
        if self.spool is not None and self.spool.count():
            with self.spool.lock:
                if not self._send_spooled():
                    return self._last_spooled(table_id, kind, at_most)
        try:
            with self.database.session() as session:
                row = session.scalars(select(EventRow).where(
                    EventRow.table_id == table_id, EventRow.kind == kind,
                    EventRow.seq <= at_most).order_by(EventRow.seq.desc()).limit(1)).first()
                return None if row is None else _event(row)
        except DBAPIError as error:
            if self.spool is None or not hub_unreachable(error):
                raise
            return self._last_spooled(table_id, kind, at_most)

    def _last_spooled(self, table_id: str, kind: str, at_most: int) -> Event | None:
        assert self.spool is not None
        found = [row for row in self.spool.pending(table_id)
                 if row.kind == kind and row.seq <= at_most]
        return _event(found[-1]) if found else None

    def last_seq(self, table_id: str) -> int:
        with self.database.session() as session:
            return self._last_seq(session, table_id)

    def count_events(self, table_ids: Iterable[str] | None = None) -> int:
        with self.database.session() as session:
            query = select(func.count(EventRow.id))
            if table_ids is not None:
                query = query.where(EventRow.table_id.in_(list(table_ids)))
            return session.scalar(query) or 0
