"""``Idempotency-Key``: a write sent again with the same key is answered as the first time
and stores nothing twice (docs/station.md "Retrying a write").

A client that lost the answer to a write (the connection was cut, the station restarted)
sends it again with the same key; the station finds the receipt the first write left
(:mod:`station.store.receipts`, kept in the same transaction as the write) and answers with
its status and body. The same key with another request is refused (422). A write that was
refused leaves no receipt: nothing was stored, and its retry is judged afresh.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from station.api.deps import Services, ServicesDep
from station.store import AnsweredBefore
from station.store.models import KEY_LENGTH, ReceiptRow
from station.store.receipts import Receipt, find_receipt, keep_receipt, receipt_for

HEADER = "Idempotency-Key"
KEY_PATTERN = rf"^[\x21-\x7e]{{1,{KEY_LENGTH}}}$"  # printable ASCII, no space


class KeyReused(Exception):
    """An idempotency key sent again with a different request."""


@dataclass
class Once:
    """The write's idempotency key (None: none was sent) and where receipts are kept."""

    key: str | None
    request: Request
    services: Services

    def fingerprint(self, body: BaseModel | None) -> str:
        sent = None if body is None else body.model_dump(mode="json")
        text = json.dumps([self.request.method, self.request.url.path, sent],
                          sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def earlier(self, body: BaseModel | None) -> JSONResponse | None:
        """The first answer under this key, if this request was answered before; refused
        (:class:`KeyReused`) if the key was used for another request."""
        if self.key is None:
            return None
        kept = find_receipt(self.services.database, self.key)
        return None if kept is None else self._first_answer(kept, self.fingerprint(body))

    def write(self, body: BaseModel, status: int,
              store: Callable[[], dict[str, Any]]) -> dict[str, Any] | JSONResponse:
        """The first answer again for a retry, else ``store()``'s answer, its receipt kept
        in the transaction of the events it appends.

        The receipt is looked up in that transaction too (one trip to the database, and two
        retries at once cannot both store); a station with a spool (a hub, which may be
        away: its writes are then kept locally, without receipts) looks it up first."""
        if self.key is None:
            return store()
        if self.services.store.spool is not None:
            earlier = self.earlier(body)
            if earlier is not None:
                return earlier
        fingerprint = self.fingerprint(body)
        try:
            with receipt_for(Receipt(self.key, fingerprint, status)):
                return store()
        except AnsweredBefore as answered:
            return self._first_answer(answered.kept, fingerprint)

    def _first_answer(self, kept: ReceiptRow, fingerprint: str) -> JSONResponse:
        if kept.fingerprint != fingerprint:
            raise KeyReused(f"{HEADER} {self.key!r} was used for a different request; "
                            "send a new key for a new write")
        return JSONResponse(kept.body, status_code=kept.status)

    def keep(self, session: Session, body: BaseModel, status: int,
             answer: dict[str, Any]) -> None:
        """Keep the receipt of a write made in ``session`` (committed with it)."""
        if self.key is not None:
            keep_receipt(session, Receipt(self.key, self.fingerprint(body), status),
                         jsonable_encoder(answer), self.services.clock)


async def idempotency(request: Request, services: ServicesDep,
                      key: Annotated[str | None, Header(
                          alias=HEADER, pattern=KEY_PATTERN,
                          description="a key of the client's choosing (1-200 printable "
                          "characters, e.g. a UUID): the write sent again with it is answered "
                          "as the first time and stores nothing twice")] = None) -> Once:
    # async: nothing here blocks, and a plain def would cost a trip to the thread pool
    return Once(key, request, services)


OnceDep = Annotated[Once, Depends(idempotency)]
