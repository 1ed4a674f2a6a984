"""The station's health: ``GET /api/health`` and the page ``/health``.

Anyone may ask whether the station is ready (``{"ok", "status"}``); the checks themselves
(the ``packref doctor`` object: devices, the data and database paths, free disk) are the
organiser's, sent only with the organiser's token: a phone in the room learns nothing of
the machine from them. The page is public, so it shows the status only (a browser sends
no token) and says where the details are.

The checks open devices and wait for a board's HELLO (up to 2 s a port), so they
run in a worker thread; cameras this station owns are reported in use, not opened
again.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from station.api.deps import OrganiserReadDep, ServicesDep
from station.api.responses import documented
from station.appliance.doctor import Doctor
from station.appliance.setup import doctor_setup

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter()
OK, NEEDS_ATTENTION = "ok", "needs attention"


PUBLIC_REPORT_SECONDS = 10.0  # the public's status may be this old: phones cannot make the
# station probe its devices (2 s a serial port) as often as they like


def _report(services: Any) -> dict[str, Any]:
    settings = services.settings
    return Doctor(doctor_setup(Path(settings.data_dir), settings.database_url,
                               running=True)).run()


class PublicReport:
    """The latest report, made again for the public at most every ``PUBLIC_REPORT_SECONDS``
    (one run at a time: the requests meanwhile wait for it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made = -PUBLIC_REPORT_SECONDS
        self._report: dict[str, Any] | None = None

    def get(self, services: Any) -> dict[str, Any]:
        with self._lock:
            if self._report is None or time.monotonic() - self._made >= PUBLIC_REPORT_SECONDS:
                self._report, self._made = _report(services), time.monotonic()
            return self._report


def _public_report(request: Request, services: Any) -> dict[str, Any]:
    state = request.app.state
    if getattr(state, "public_health", None) is None:
        state.public_health = PublicReport()
    return state.public_health.get(services)


def _shown(report: dict[str, Any], organiser: bool) -> dict[str, Any]:
    """What ``report`` shows: its status to anyone, its checks to the organiser only."""
    shown: dict[str, Any] = {"ok": report["ok"], "status": OK if report["ok"] else NEEDS_ATTENTION}
    if organiser:
        shown["checks"] = report["checks"]
    return shown


class HealthCheck(BaseModel):
    name: str
    ok: bool
    detail: str


class Health(BaseModel):
    """Whether every check passed; the checks (as ``packref doctor`` prints them) with the
    organiser's token only."""

    ok: bool
    status: Literal["ok", "needs attention"]
    checks: list[HealthCheck] | None = Field(
        None, description="Every check, with the organiser's token only (absent without)")


@router.get("/api/health", tags=["health"], **documented(Health, 401))
async def health(request: Request, services: ServicesDep,
                 organiser: OrganiserReadDep) -> dict[str, Any]:
    """``{"ok", "status"}`` (at most ten seconds old); with the organiser's token also
    ``"checks": [{"name", "ok", "detail"}]``, as ``packref doctor`` prints them, made now
    (a wrong token is refused)."""
    if organiser:
        return _shown(await asyncio.to_thread(_report, services), organiser)
    return _shown(await asyncio.to_thread(_public_report, request, services), organiser)


@router.get("/health", response_class=HTMLResponse, include_in_schema=False)
async def health_page(request: Request, services: ServicesDep) -> HTMLResponse:
    report = _shown(await asyncio.to_thread(_public_report, request, services), organiser=False)
    return TEMPLATES.TemplateResponse(request, "health.html", {"report": report},
                                      status_code=200)
