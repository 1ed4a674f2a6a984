"""The API's documentation page works without internet: a browser that may reach nothing
but the station renders ``/docs`` (and there is no ``/redoc``, which is not offline); and
the health page's details come with the organiser's token kept in the browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient

from station.api import build_services, create_app
from station.config import Settings
from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import served


@pytest.fixture
def station(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def offline(page: Any, origin: str) -> list[str]:
    """Let ``page`` reach ``origin`` only (as at a venue without internet); the list fills
    with every request that tried to go elsewhere."""
    blocked: list[str] = []
    own = urlsplit(origin).netloc

    def route(request_route: Any) -> None:
        if urlsplit(request_route.request.url).netloc == own:
            request_route.continue_()
        else:
            blocked.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    return blocked


def test_swagger_ui_renders_the_operations_offline(station: str) -> None:
    with browser_page() as page:
        blocked = offline(page, station)
        page.goto(f"{station}/docs")
        operations = page.locator(".opblock")
        expect(operations.first).to_be_visible(timeout=15000)
        assert operations.count() > 10  # every route of the API, not an error box
        expect(page.locator(".opblock-summary-path", has_text="/api/health").first
               ).to_be_visible()
    assert blocked == []


def test_the_docs_page_names_the_stations_own_files_only(settings: Settings) -> None:
    services = build_services(settings)
    try:
        with TestClient(create_app(services)) as client:
            docs = client.get("/docs")
            script = client.get("/static/api-docs/swagger-ui-bundle.js")
            assert client.get("/redoc").status_code == 404
    finally:
        services.database.close()
    assert docs.status_code == 200 and "cdn" not in docs.text
    linked = re.findall(r'(?:src|href)="([^"]+)"', docs.text)
    assert linked and all(link.startswith("/static/api-docs/") for link in linked), linked
    assert script.status_code == 200 and len(script.content) > 500_000


def test_the_health_page_shows_the_details_with_the_organisers_token(station: str,
                                                                      settings: Settings) -> None:
    with browser_page() as page:
        page.goto(f"{station}/health")
        expect(page.locator('[data-check="camera"]')).to_contain_text("not configured")
        expect(page.locator(".health-detail").first).to_be_hidden()  # anyone: no detail
        assert str(settings.data_dir) not in page.content()
        page.evaluate("token => sessionStorage.setItem('packref-token', token)", TOKEN)  # signed in
        page.reload()
        expect(page.locator("#health-data code")).to_have_text(str(settings.data_dir))
        database = page.locator('[data-check="database"] .health-detail')
        expect(database).to_be_visible()
        expect(database.locator("code")).to_be_hidden()  # collapsed until opened
        database.locator("summary").click()
        expect(database.locator("code")).to_contain_text("schema ")
