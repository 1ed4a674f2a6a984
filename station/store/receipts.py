"""Receipts of idempotent writes: the first answer to a write sent with an
``Idempotency-Key``, kept in the database (:class:`~station.store.models.ReceiptRow`) so a
retry, even after a restart, gets that answer back and stores nothing twice.

A receipt is written in the same transaction as the write's events: a request cut off
after its events were stored has its receipt too, and its retry answers as the first
would have. The writer says which receipt to keep with :func:`receipt_for` around the
write; :meth:`~station.store.events.EventStore.append` adds it to its transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from station.store.clock import Clock
from station.store.database import Database
from station.store.models import ReceiptRow


@dataclass
class Receipt:
    """The receipt one write is to leave: its key, its request's fingerprint, its status;
    ``kept`` once a transaction holds it (a write stores it once)."""

    key: str
    fingerprint: str
    status: int
    kept: bool = False

    def row(self, body: dict[str, Any], clock: Clock) -> ReceiptRow:
        return ReceiptRow(**self.values(body, clock))

    def values(self, body: dict[str, Any], clock: Clock) -> dict[str, Any]:
        """Its row's columns, with the answer ``body``."""
        return {"key": self.key, "fingerprint": self.fingerprint, "status": self.status,
                "body": body, "at": clock.now()}


_PENDING: ContextVar[Receipt | None] = ContextVar("pending_receipt", default=None)


@contextmanager
def receipt_for(receipt: Receipt) -> Iterator[Receipt]:
    """Within this block, the first events appended keep ``receipt`` in their transaction."""
    token = _PENDING.set(receipt)
    try:
        yield receipt
    finally:
        _PENDING.reset(token)


def pending_receipt() -> Receipt | None:
    """The receipt the write under way is to leave, if it has not left it yet."""
    receipt = _PENDING.get()
    return None if receipt is None or receipt.kept else receipt


def find_receipt(database: Database, key: str) -> ReceiptRow | None:
    """The receipt kept under ``key``, if any."""
    with database.session() as session:
        return session.get(ReceiptRow, key)


def keep_receipt(session: Session, receipt: Receipt, body: dict[str, Any],
                 clock: Clock) -> None:
    """Add ``receipt`` with its answer ``body`` to ``session``'s transaction."""
    session.add(receipt.row(body, clock))
    receipt.kept = True
