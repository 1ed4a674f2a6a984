"""A real browser sees a table's camera fault arrive in words, and go once it recovered."""

from __future__ import annotations

from station.api import build_services
from station.config import Settings
from tests.station.browser import SIZES, browser_page, expect
from tests.station.test_browser import served

WORDS = "the camera's frames stopped: camera 0: stopped giving frames; retrying in 4 s"


def test_the_table_page_says_when_its_camera_stopped_and_when_it_is_back(
        settings: Settings) -> None:
    services = build_services(settings)
    services.station.create_table("Table 1", "t1")
    with served(services) as url, browser_page(viewport=SIZES["phone"]) as page:
        page.goto(f"{url}/tables/t1")
        page.wait_for_selector("#live-status.on")  # the WebSocket is open
        expect(page.locator(".source-fault")).to_have_count(0)
        services.station.source_faults.fail("t1", "camera", WORDS)
        expect(page.locator(".source-fault")).to_have_text(WORDS)
        services.station.source_faults.skipped("t1", "camera")
        expect(page.locator("#source-faults")).to_contain_text("skipped 1 bad frame(s)")
        services.station.source_faults.clear("t1", "camera")
        expect(page.locator(".source-fault")).to_have_count(0)
