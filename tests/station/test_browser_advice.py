"""A real browser watches the win-chance bar follow an action, and the organiser switches the
acting player's hints on and off (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator

import httpx
import pytest

from station.advice import CREDIBLE_WIDTH
from station.api import build_services
from station.config import AdviceSettings, Settings
from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import axe_script, axe_violations, served

AUTH = {"Authorization": f"Bearer {TOKEN}"}
WAIT_MS = 60_000  # the first answer waits for the worker process to start


@pytest.fixture
def advised_server(settings: Settings) -> Iterator[str]:
    """The dashboard with win chances on (a real worker process), served in a thread."""
    # a fixed work per position, enough for a credible Small Warehouse estimate (200 playouts
    # from the position itself: its interval under station.advice.CREDIBLE_WIDTH)
    advised = dataclasses.replace(settings, advice=AdviceSettings(seconds=0.2,
                                                                  max_playouts=400))
    with served(build_services(advised)) as url:
        yield url


def js_round(value: float) -> int:
    """``Math.round`` as the page rounds: a half goes up (Python's ``round`` goes to the even
    neighbour: 60.5 is 60 here, 61 on the page)."""
    return math.floor(value + 0.5)


def bar(page) -> dict[str, str]:
    """The bar's percentages by player, as the page shows them."""
    return dict(zip(page.locator("#win-chances .who").all_inner_texts(),
                    page.locator("#win-chances .chance").all_inner_texts(), strict=True))


def test_the_bar_follows_each_action_and_hints_switch_on_and_off(advised_server: str) -> None:
    script = axe_script()
    api = httpx.Client(base_url=advised_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 5}}).raise_for_status()
    with browser_page(viewport={"width": 1280, "height": 900}) as page:
        page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
        page.goto(f"{advised_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        page.wait_for_selector("#advice:not([hidden]):not(.updating)", timeout=WAIT_MS)
        first = page.evaluate("document.body.dataset.advice")
        # before the first move: no chances, and the page says why
        expect(page.locator("#advice-note")).to_have_text(
            "Not shown: shown after the first move")
        assert bar(page) == {}
        assert page.locator("#hints").is_hidden()  # off by default

        action = api.get("/api/tables/t1/legal-actions?limit=1").json()["actions"][0]
        api.post("/api/tables/t1/corrections", json={"action": action}).raise_for_status()
        page.wait_for_function("first => document.body.dataset.advice !== first", arg=first,
                               timeout=WAIT_MS)
        assert not page.locator("#advice").evaluate("box => box.classList.contains('updating')")
        advice = api.get("/api/tables/t1/advice").json()
        assert advice["actions"] == 1 and advice["player"] == "Ben"
        assert advice["chances_hidden"] is None, advice["chances_hidden"]
        assert list(bar(page)) == ["Ana", "Ben"]
        assert sum(int(text.split()[0]) for text in bar(page).values()) in (99, 100, 101)
        assert bar(page) == {line["player"]: f"{js_round(line['chance'] * 100)} %"
                             for line in advice["win_chances"]}
        # each chance with its 95 % interval, narrower than the threshold
        ranges = page.locator("#win-chances .chance-range").all_inner_texts()
        for line, said in zip(advice["win_chances"], ranges, strict=True):
            assert line["low"] <= line["chance"] <= line["high"]
            assert line["high"] - line["low"] <= CREDIBLE_WIDTH
            assert said == (f"95 % sure: {round(line['low'] * 100)}–"
                            f"{round(line['high'] * 100)} %")

        page.locator("#hints-switch").check()
        page.wait_for_selector("#hints li", timeout=WAIT_MS)
        expect(page.locator("#hints-message")).to_have_text("Hints are on.")
        hints = page.locator("#hints li").all_inner_texts()
        assert 1 <= len(hints) <= 3 and all(text.startswith("Ben placed card ") for text in hints)
        assert api.get("/api/tables/t1/hints").json()["on"] is True
        found = axe_violations(page, script)
        assert found == [], found

        page.locator("#hints-switch").uncheck()
        page.wait_for_selector("#hints", state="hidden")
        assert api.get("/api/tables/t1/hints").json()["on"] is False

        projector = page.context.browser.new_page(viewport={"width": 1920, "height": 1080})
        projector.goto(f"{advised_server}/tables/t1/projector")
        projector.wait_for_selector("#advice:not([hidden])")
        assert list(bar(projector)) == ["Ana", "Ben"]
        assert projector.locator("#hints-switch").count() == 0
        found = axe_violations(projector, script)
        assert found == [], found


def test_the_organiser_allows_hints_on_the_tournament_page(advised_server: str) -> None:
    live_server = advised_server
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tournaments", json={"name": "Cup", "players": ["Ana", "Ben"]})
    with browser_page() as page:
        page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
        page.goto(f"{live_server}/tournaments/cup")
        page.get_by_label("allow the best moves of the player to act").check()
        expect(page.locator("#allow-hints-message")).to_have_text(
            "Hints are allowed at this tournament's tables.")
        assert api.get("/api/tournaments/cup").json()["allow_hints"] is True
        page.goto(f"{live_server}/tournaments/cup/projector")
        assert page.locator("#allow-hints").count() == 0
