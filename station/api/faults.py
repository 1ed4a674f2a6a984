"""Faults of the machine answered in words, not ``500 Internal Server Error``.

- the data folder (or the database's disk) full: ``507`` "the data folder is full (N MB
  free)"; nothing is stored, and the same request succeeds once room is made;
- the database held by another writer past the busy wait (5 s on SQLite): ``503`` with a
  ``Retry-After`` header, "the database is busy (another program is writing): try again
  in 2 s"; nothing is stored;
- any other failure of the database: ``503`` "the database cannot be used: REASON".
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError

from station.faults import disk_full_words, is_busy, is_disk_full

INSUFFICIENT_STORAGE = 507
SERVICE_UNAVAILABLE = 503
RETRY_SECONDS = 2  # what a busy database's answer tells a client to wait

_log = logging.getLogger("packref")


def _answer(request: Request, error: Exception) -> JSONResponse | None:
    """The answer to a fault of the machine, or None when ``error`` is not one."""
    if is_disk_full(error):
        data = request.app.state.services.settings.data_dir
        _log.error("a write failed for want of room: %s", error)
        return JSONResponse({"detail": disk_full_words(data)},
                            status_code=INSUFFICIENT_STORAGE)
    if is_busy(error):
        _log.warning("the database is busy: %s", error)
        return JSONResponse(
            {"detail": "the database is busy (another program is writing to it): try "
                       f"again in {RETRY_SECONDS} s"},
            status_code=SERVICE_UNAVAILABLE, headers={"Retry-After": str(RETRY_SECONDS)})
    return None


def _operational(request: Request, error: Exception) -> JSONResponse:
    answer = _answer(request, error)
    if answer is not None:
        return answer
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
    _log.error("the database failed: %s", error)
    return JSONResponse({"detail": f"the database cannot be used: {reason}"},
                        status_code=SERVICE_UNAVAILABLE,
                        headers={"Retry-After": str(RETRY_SECONDS)})


def _os_error(request: Request, error: Exception) -> JSONResponse:
    answer = _answer(request, error)
    if answer is not None:
        return answer
    raise error  # another OSError is a bug of ours: the server's own 500 and its log


def install_fault_handlers(app: FastAPI) -> None:
    """Answer a full disk with 507 and a busy database with 503 (see the module)."""
    app.add_exception_handler(OperationalError, _operational)
    app.add_exception_handler(OSError, _os_error)
