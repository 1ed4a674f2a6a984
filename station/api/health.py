"""The station's health: ``GET /api/health`` and the page ``/health``.

Only what this station is set up to use is checked (its ``serve`` options and station
file: :class:`station.appliance.setup.StationDevices`); the rest is "not configured", which
is no fault. Anyone may ask whether the station is ready (``{"ok", "status"}``); the checks
themselves (the ``packref doctor`` object: devices, the data folder and database paths,
free disk, an error's own words) are the organiser's, sent only with the organiser's token:
a phone in the room learns nothing of the machine from them. The page is public: it shows
each check's status and plain sentence to anyone; the page's script asks for the details
(and the data folder) with the organiser's token when this browser keeps it.

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
from station.appliance.doctor import NEEDS_ATTENTION, NOT_CONFIGURED, OK, Doctor
from station.appliance.setup import StationDevices, doctor_setup

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter()


PUBLIC_REPORT_SECONDS = 10.0  # the public's status may be this old: phones cannot make the
# station probe its devices (2 s a serial port) as often as they like


def _report(services: Any, devices: StationDevices | None = None) -> dict[str, Any]:
    """The doctor's report on this station: ``devices``, the running station's (None: its
    station file's), and the running tables' own faults (:func:`_live_checks`)."""
    settings = services.settings
    report = Doctor(doctor_setup(Path(settings.data_dir), settings.database_url,
                                 running=True, devices=devices)).run()
    live = _live_checks(services.station)
    report["checks"] = [*report["checks"], *live]
    report["ok"] = report["ok"] and all(check["ok"] for check in live)
    return report


def _live_checks(station: Any) -> list[dict[str, Any]]:
    """A check for each table source that failed and is retried, and each table that is
    read-only (a stored event it cannot read): in words, as the table page says them."""
    checks = [{"name": f"table {table}: {kind}", "ok": False, "status": NEEDS_ATTENTION,
               "summary": words, "detail": words}
              for table, kind, words in station.source_faults.failing()]
    checks += [{"name": f"table {table}", "ok": False, "status": NEEDS_ATTENTION,
                "summary": words, "detail": words}
               for table, words in sorted(station.quarantined().items())]
    return checks


def _devices(request: Request) -> StationDevices | None:
    """The devices ``packref serve`` was started with (None: an app made without them)."""
    return getattr(request.app.state, "station_devices", None)


class PublicReport:
    """The latest report, made again for the public at most every ``PUBLIC_REPORT_SECONDS``
    (one run at a time: the requests meanwhile wait for it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made = -PUBLIC_REPORT_SECONDS
        self._report: dict[str, Any] | None = None

    def get(self, services: Any, devices: StationDevices | None = None) -> dict[str, Any]:
        with self._lock:
            if self._report is None or time.monotonic() - self._made >= PUBLIC_REPORT_SECONDS:
                self._report, self._made = _report(services, devices), time.monotonic()
            return self._report


def _public_report(request: Request, services: Any) -> dict[str, Any]:
    state = request.app.state
    if getattr(state, "public_health", None) is None:
        state.public_health = PublicReport()
    return state.public_health.get(services, _devices(request))


def _shown(report: dict[str, Any], organiser: bool) -> dict[str, Any]:
    """What ``report`` shows: its status to anyone, its checks and data folder to the
    organiser only."""
    shown: dict[str, Any] = {"ok": report["ok"], "status": OK if report["ok"] else NEEDS_ATTENTION}
    if organiser:
        shown["data"] = report["data"]
        shown["checks"] = report["checks"]
    return shown


def _public_checks(report: dict[str, Any]) -> list[dict[str, str]]:
    """Each check's name, status and plain sentence: what the page shows anyone."""
    return [{"name": check["name"], "status": check["status"], "summary": check["summary"]}
            for check in report["checks"]]


class HealthCheck(BaseModel):
    name: str
    ok: bool = Field(description="false only when it needs attention")
    status: Literal["ok", "not configured", "needs attention"]
    summary: str = Field(description="a plain sentence for anyone")
    detail: str = Field(description="the technical line: devices, paths, an error's words")


class Health(BaseModel):
    """Whether nothing this station uses needs attention; the data folder and the checks
    (as ``packref doctor`` prints them) with the organiser's token only."""

    ok: bool
    status: Literal["ok", "needs attention"]
    data: str | None = Field(
        None, description="The station's data folder, with the organiser's token only")
    checks: list[HealthCheck] | None = Field(
        None, description="Every check, with the organiser's token only (absent without)")


@router.get("/api/health", tags=["health"], **documented(Health, 401))
async def health(request: Request, services: ServicesDep,
                 organiser: OrganiserReadDep) -> dict[str, Any]:
    """``{"ok", "status"}`` (at most ten seconds old); with the organiser's token also
    ``"checks": [{"name", "ok", "detail"}]``, as ``packref doctor`` prints them, made now
    (a wrong token is refused)."""
    if organiser:
        return _shown(await asyncio.to_thread(_report, services, _devices(request)), organiser)
    return _shown(await asyncio.to_thread(_public_report, request, services), organiser)


@router.get("/health", response_class=HTMLResponse, include_in_schema=False)
async def health_page(request: Request, services: ServicesDep) -> HTMLResponse:
    report = await asyncio.to_thread(_public_report, request, services)
    return TEMPLATES.TemplateResponse(
        request, "health.html", {"report": _shown(report, organiser=False),
                                 "checks": _public_checks(report),
                                 "not_configured": NOT_CONFIGURED}, status_code=200)
