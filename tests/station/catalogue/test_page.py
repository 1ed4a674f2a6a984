"""A real browser walks through a copy on the catalogue page and sees a refused answer."""

from __future__ import annotations

import json

import httpx

from tests.station.browser import browser_page
from tests.station.conftest import TOKEN
from tests.station.test_browser import live_server  # noqa: F401 (a fixture)

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def test_the_page_walks_through_the_pieces(live_server, settings):  # noqa: F811
    learnt = {"game": "moving-day", "boxes": [{"tag": 60 + n} for n in range(3)]}
    httpx.put(f"{live_server}/api/catalogues/moving-day", json=learnt, headers=AUTH,
              timeout=10).raise_for_status()
    with browser_page(viewport={"width": 390, "height": 844}) as page:
        page.goto(f"{live_server}/catalogue/moving-day")
        assert page.locator("#position").inner_text().strip() == "1 of 3"
        page.fill("#organiser-token", TOKEN)
        first = page.locator("form.piece").first
        for field, value in (("type", "books"), ("colour", "red"), ("fragile", "yes"),
                             ("weight", "9"), ("points", "2")):
            first.locator(f"input[name={field}]").fill(value)
        first.locator("button[type=submit]").click()
        page.wait_for_function("document.getElementById('message').textContent.length > 0")
        assert page.locator("#message").inner_text() == "$.boxes[0].weight: must be 1..7"
        first.locator("input[name=weight]").fill("6")
        first.locator("button[type=submit]").click()
        page.wait_for_function("document.getElementById('message').textContent === 'Saved.'")
        assert page.locator("#position").inner_text().strip() == "2 of 3"
        assert page.locator("#open-count").inner_text() == "10"
    saved = json.loads((settings.data_dir / "catalogues" / "moving-day.json").read_text())
    assert saved["boxes"][0] == {"tag": 60, "type": "books", "colour": "red", "fragile": True,
                                 "weight": 6, "points": 2}
