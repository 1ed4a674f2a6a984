"""The API's documentation page, ``/docs`` (Swagger UI), working offline.

FastAPI's own page loads its script and style from a CDN, so at a venue without internet it
stays blank. This one loads them from the station itself: the Swagger UI bundle that the
``fastapi-offline`` package ships in its wheel (the package is MIT, Swagger UI Apache-2.0;
its wheel is 0.8 MB), served under ``/static/api-docs/``. There is no ``/redoc``: ReDoc
fetches its logo from its maker's site whatever it is given, so it is not offline.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.openapi.docs import (
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/static/api-docs"
OPENAPI_URL = "/openapi.json"
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"
router = APIRouter(include_in_schema=False)


def assets_dir() -> Path:
    """The folder of the Swagger UI bundle, inside the installed package."""
    return Path(str(files("fastapi_offline") / "static"))


@router.get("/docs", response_class=HTMLResponse)
async def swagger_ui() -> HTMLResponse:
    return get_swagger_ui_html(
        openapi_url=OPENAPI_URL, title="packref station · API",
        swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        oauth2_redirect_url=OAUTH2_REDIRECT_URL)


@router.get(OAUTH2_REDIRECT_URL, response_class=HTMLResponse)
async def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()


def install_docs(app: FastAPI) -> None:
    """The documentation page and its assets on ``app`` (made with ``docs_url=None,
    redoc_url=None``, so FastAPI's CDN pages are not there)."""
    app.include_router(router)
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="api-docs")
