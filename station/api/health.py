"""The station's health: ``GET /api/health`` (the ``packref doctor`` object) and ``/health``.

The checks open devices and wait for a board's HELLO (up to 2 s a port), so they
run in a worker thread; cameras this station owns are reported in use, not opened
again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel

from station.api.deps import ServicesDep
from station.api.responses import documented
from station.appliance.doctor import Doctor
from station.appliance.setup import doctor_setup

TEMPLATES = Jinja2Templates(directory=Path(__file__).resolve().parent.parent / "web" / "templates")
router = APIRouter()


def _report(services: Any) -> dict[str, Any]:
    settings = services.settings
    return Doctor(doctor_setup(Path(settings.data_dir), settings.database_url,
                               running=True)).run()


class HealthCheck(BaseModel):
    name: str
    ok: bool
    detail: str


class Health(BaseModel):
    """What ``packref doctor`` prints: every check, and whether all passed."""

    ok: bool
    checks: list[HealthCheck]


@router.get("/api/health", tags=["health"], **documented(Health))
async def health(services: ServicesDep) -> dict[str, Any]:
    """``{"ok", "checks": [{"name", "ok", "detail"}]}``, as ``packref doctor`` prints it."""
    return await asyncio.to_thread(_report, services)


@router.get("/health", response_class=HTMLResponse, include_in_schema=False)
async def health_page(request: Request, services: ServicesDep) -> HTMLResponse:
    report = await asyncio.to_thread(_report, services)
    return TEMPLATES.TemplateResponse(request, "health.html", {"report": report},
                                      status_code=200)
