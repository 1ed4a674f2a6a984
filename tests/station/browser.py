"""A real browser for the dashboard's tests: Debian's chromium, driven by Playwright.

    with browser_page(viewport=SIZES["phone"]) as page:
        page.goto(f"{live_server}/tables/t1")
        expect(page.locator("#game-name")).to_have_text("Removal")

The test fails if a script on the page throws; skipped locally when chromium or
Playwright is missing, a failure in CI (``PACKREF_REQUIRE_ALL``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import require_tool

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900},
         "projector": {"width": 1920, "height": 1080}}


def browser_tools() -> tuple[str, Any]:
    """Debian's chromium and Playwright's sync API: skipped locally when one is missing, a
    failure in CI (``PACKREF_REQUIRE_ALL``)."""
    chromium = require_tool("chromium")
    try:
        import playwright.sync_api as playwright_api
    except ImportError:
        if os.environ.get("PACKREF_REQUIRE_ALL"):
            pytest.fail("playwright is not installed (make setup installs it)")
        pytest.skip("playwright is not installed")
    return chromium, playwright_api


@contextlib.contextmanager
def browser_page(viewport: dict[str, int] | None = None) -> Iterator[Any]:
    """A blank page in a fresh chromium while the ``with`` lasts (``viewport``: its size,
    Playwright's 1280 × 720 if none); the test fails at the end if a script on it threw.
    More pages of the same browser: ``page.context.browser.new_page()``."""
    chromium, playwright_api = browser_tools()
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=viewport)
            script_errors: list[str] = []
            page.on("pageerror", lambda error: script_errors.append(str(error)))
            yield page
        finally:
            browser.close()
    if script_errors:
        pytest.fail("a script on the page threw: " + "; ".join(script_errors))


def expect(target: Any, message: str | None = None) -> Any:
    """Playwright's ``expect`` (waits until an assertion about ``target`` holds)."""
    return browser_tools()[1].expect(target, message)


def full_table_view(page: Any) -> None:
    """On a table page, the full view: a phone opens on the scoreboard, a tap away from it
    (templates/_scoreboard.html); wider screens open on the full view already."""
    switch = page.locator("#to-full-view")
    if switch.is_visible():
        switch.click()
        page.locator("#board").wait_for(state="attached")
