"""The FastAPI application: API routes per resource, WebSockets, pages, static files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles

from station.api import (
    archive,
    camera,
    catalogue,
    health,
    live,
    pages,
    setup,
    setup_pages,
    tables,
    tournaments,
)
from station.api.deps import Services
from station.api.docs import install_docs
from station.api.errors import install_error_handlers
from station.api.faults import install_fault_handlers
from station.api.limits import BodyLimit
from station.api.responses import with_project_error_shape
from station.live.hub import HubRelay

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
Background = Callable[[Services], Coroutine[Any, Any, Any]]


def operation_id(route: APIRoute) -> str:
    """The route function's name (``create_table``): what a generated client calls it."""
    return route.name


def create_app(services: Services, background: Background | None = None,
               ready: Callable[[], None] | None = None) -> FastAPI:
    """The dashboard app for ``services``; ``background`` (e.g. the demo loop) runs alongside;
    ``ready`` is called once the app has started, before it serves a request (``serve``
    keeps a first token's hash and prints its line there: a start that failed shows none)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.hub.attach(asyncio.get_running_loop())
        await asyncio.to_thread(services.station.resume)
        relay = HubRelay(services.station, services.hub).start() \
            if services.database.dialect == "postgresql" else None  # SQLite: one station
        recorder = tournaments.watch_results(services)
        services.advisor.attach()
        task = asyncio.create_task(background(services)) if background else None
        app.state.background = task
        if ready is not None:
            ready()
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
            if relay is not None:
                await asyncio.to_thread(relay.stop)
            await asyncio.to_thread(recorder.stop)
            await asyncio.to_thread(services.bindings.stop_all)
            services.advisor.close()

    app = FastAPI(title="packref station", lifespan=lifespan,
                  generate_unique_id_function=operation_id,
                  docs_url=None, redoc_url=None,  # station.api.docs: the offline pages
                  description="Live tables, referee decisions and tournaments. Reads are "
                  "public; writes need 'Authorization: Bearer <organiser token>' (in a browser: "
                  "sign in at /sign-in).")
    app.state.services = services
    install_error_handlers(app)
    install_fault_handlers(app)  # a full disk: 507; a busy database: 503 with Retry-After
    app.add_middleware(BodyLimit)  # type: ignore[arg-type]
    install_docs(app)  # before /static: its assets are under /static/api-docs
    app.include_router(setup.router)  # before tables: DELETE /api/tables/ID is its own
    app.include_router(tables.router)
    app.include_router(tournaments.router)
    app.include_router(live.router)
    app.include_router(pages.router)
    app.include_router(catalogue.router)
    app.include_router(health.router)
    app.include_router(archive.router)
    app.include_router(camera.router)
    app.include_router(setup_pages.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _describe_errors_as_sent(app)
    return app


def _describe_errors_as_sent(app: FastAPI) -> None:
    """``/openapi.json`` documents the station's 422 body on every route (FastAPI's own
    default describes a body the station never sends)."""
    generate = app.openapi

    def description() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = with_project_error_shape(generate())
        return app.openapi_schema

    app.openapi = description  # type: ignore[method-assign]
