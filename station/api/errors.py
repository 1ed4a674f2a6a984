"""Turning the station's exceptions into clear 4xx answers: ``{"detail": "..."}``, and for a
request that does not fit, ``"errors": [{"place", "message"}]`` too (the shape
:class:`~station.api.responses.ErrorOut` documents).

Input is bounded at the edge (:mod:`station.api.models`), so the database should never
refuse what a request carries; if it still does, the answer is a 4xx naming the refusal,
not a server error.
"""

from __future__ import annotations

from fastapi import FastAPI, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, IntegrityError

from rules import IllegalAction, UnknownGame
from station.api.once import KeyReused
from station.errors import InputError
from station.live.station import UnknownTable
from station.live.table import TableRefusal
from station.store import StoreConflict
from station.tournament.codes import WrongCode
from station.tournament.service import (
    TournamentConflict,
    TournamentRefusal,
    UnknownTournament,
)

UNPROCESSABLE = 422  # Starlette renamed its constant; the number is what clients see


def _answer(code: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=code)


def _place(location: tuple[int | str, ...]) -> str:
    """``("body", "players", 0)`` → ``$.players[0]`` (the JSON path of a body field)."""
    parts = list(location)
    if parts and parts[0] == "body":
        parts = parts[1:]
        path = "$"
    else:
        path = str(parts.pop(0)) if parts else "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def _validation(_request: Request, error: RequestValidationError) -> JSONResponse:
    problems = error.errors()
    first = problems[0] if problems else {"loc": ("body",), "msg": "invalid request"}
    message = f"{_place(tuple(first['loc']))}: {first['msg']}"
    return JSONResponse({"detail": message, "errors": [
        {"place": _place(tuple(p["loc"])), "message": p["msg"]} for p in problems]},
        status_code=UNPROCESSABLE)


def install_error_handlers(app: FastAPI) -> None:
    """Map each kind of refusal to its status code."""
    app.add_exception_handler(RequestValidationError, _validation)  # type: ignore[arg-type]
    simple = [
        (UnknownTable, status.HTTP_404_NOT_FOUND, ""),
        (UnknownTournament, status.HTTP_404_NOT_FOUND, ""),
        (UnknownGame, status.HTTP_404_NOT_FOUND, ""),
        (WrongCode, status.HTTP_403_FORBIDDEN, ""),
        (IllegalAction, UNPROCESSABLE, "illegal action: "),
        (KeyReused, UNPROCESSABLE, ""),
        (TableRefusal, status.HTTP_409_CONFLICT, ""),
        (StoreConflict, status.HTTP_409_CONFLICT, ""),
        (TournamentConflict, status.HTTP_409_CONFLICT, ""),
        (TournamentRefusal, status.HTTP_400_BAD_REQUEST, ""),
        (InputError, status.HTTP_400_BAD_REQUEST, ""),
        (ValueError, status.HTTP_400_BAD_REQUEST, ""),
    ]
    database = [
        (IntegrityError, status.HTTP_409_CONFLICT,
         "the database refused the write: it conflicts with what is stored"),
        (DataError, UNPROCESSABLE, "a value does not fit the database"),
        (OverflowError, UNPROCESSABLE, "a number is too large"),
    ]
    for kind, code, message in database:
        def fixed(_request: Request, _error: Exception, code: int = code,
                  message: str = message) -> JSONResponse:
            return _answer(code, message)  # the driver's text names SQL, not the request
        app.add_exception_handler(kind, fixed)
    for kind, code, prefix in simple:
        def handler(_request: Request, error: Exception, code: int = code,
                    prefix: str = prefix) -> JSONResponse:
            text = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)
            return _answer(code, prefix + text)
        app.add_exception_handler(kind, handler)
