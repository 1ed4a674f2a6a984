"""The table page's scoreboard in a real browser: what a phone propped on the table shows
first, read from 2 m (each total's digits at least 15 % of an 844 px screen's height), whose
turn it is, the last ruling in one line, an open flag as a band; a button to the full view
and back; no serious accessibility violation at three sizes."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from rules import get_game
from station.api import build_services
from station.config import Settings
from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import axe_script, axe_violations, served, small_targets

AUTH = {"Authorization": f"Bearer {TOKEN}"}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1920, "height": 1080}

# the height of a total's digits as drawn: the ink of its text in the element's own font
# (a canvas measures the glyphs, not the line box around them)
DIGITS_HEIGHT = """(element) => {
  const style = getComputedStyle(element);
  const context = document.createElement("canvas").getContext("2d");
  context.font = style.fontWeight + " " + style.fontSize + " " + style.fontFamily;
  const ink = context.measureText(element.textContent.trim());
  return ink.actualBoundingBoxAscent + ink.actualBoundingBoxDescent;
}"""


@pytest.fixture
def station_url(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def moving_day_table(url: str) -> tuple[httpx.Client, object]:
    """Table 1 playing Moving Day (Ana, Ben, Cas), three moves in, and the engine's copy."""
    api = httpx.Client(base_url=url, headers=AUTH, timeout=10)
    players = ["Ana", "Ben", "Cas"]
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "moving-day", "players": players, "seed": 4}}).raise_for_status()
    state = get_game("moving-day").new_game(players, seed=4)
    for _ in range(3):
        play(api, state, state.legal_actions()[0])
    return api, state


def play(api: httpx.Client, state, action: dict) -> None:  # type: ignore[no-untyped-def]
    state.apply(action)
    api.post("/api/tables/t1/observations", json={
        "observation": {"kind": "declared", "action": action}}).raise_for_status()


def test_a_phone_shows_the_scoreboard_readable_from_two_metres(station_url: str) -> None:
    api, state = moving_day_table(station_url)
    with browser_page(viewport=PHONE) as page:
        page.goto(f"{station_url}/tables/t1")
        page.wait_for_selector("#live-status.on")
        board = page.locator("#scoreboard")
        expect(board).to_be_visible()
        expect(page.locator("#board")).to_be_hidden()  # the full view waits behind a tap
        totals = board.locator(".sb-total")
        expect(totals).to_have_count(3)
        for score in state.scores():
            digits = board.locator(f'.sb-total[data-player="{score.player}"]')
            expect(digits).to_have_text(str(score.total))
            height = digits.evaluate(DIGITS_HEIGHT)
            assert height >= 0.15 * PHONE["height"], (score.player, height)
            box = digits.bounding_box()  # on the screen, whole
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # every total is on the first screen, with whose turn it is
        last = totals.last.bounding_box()
        assert last["y"] + last["height"] <= PHONE["height"]
        acting = state.players[state.current_player()]
        expect(page.locator("#sb-turn")).to_have_text(f"{acting} to play")
        expect(board.locator(".sb-acting .sb-name")).to_contain_text(f"{acting} to play")
        # the last ruling, in words, on one line
        ruling = page.locator("#sb-ruling")
        expect(ruling).to_contain_text("Cas took group 1")
        line = ruling.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight) ||"
                               " e.getBoundingClientRect().height")
        assert ruling.bounding_box()["height"] <= line * 1.5
        expect(page.locator("#sb-flag")).to_be_hidden()

        # a move the engine refuses: a flag, shown as a band across the whole screen
        api.post("/api/tables/t1/observations", json={"observation": {
            "kind": "declared", "action": {"type": "take", "group": 9, "boxes": []}},
            "source": "demo"}).raise_for_status()
        band = page.locator("#sb-flag")
        expect(band).to_be_visible()
        expect(band).to_contain_text("Under review: Not accepted: Ana took group 10")
        area = band.bounding_box()
        assert area["x"] <= 0.5 and area["width"] >= PHONE["width"] - 1
        expect(ruling).to_contain_text("Not accepted")

        # a move made live: the scoreboard follows
        api.post("/api/tables/t1/flags/" + str(api.get("/api/tables/t1").json()["flags"][0][
            "seq"]) + "/accept").raise_for_status()
        expect(band).to_be_hidden()
        play(api, state, state.legal_actions()[0])
        acting = state.players[state.current_player()]
        expect(page.locator("#sb-turn")).to_have_text(f"{acting} to play")
        for score in state.scores():
            expect(board.locator(f'.sb-total[data-player="{score.player}"]')).to_have_text(
                str(score.total))

        # a tap to the full view and back, kept while the tab lives
        page.get_by_role("button", name="full view").click()
        expect(page.locator("#board")).to_be_visible()
        expect(board).to_be_hidden()
        expect(page.get_by_role("button", name="scoreboard")).to_be_focused()
        page.reload()
        expect(page.locator("#board")).to_be_visible()
        page.get_by_role("button", name="scoreboard").click()
        expect(board).to_be_visible()
        expect(page.locator("#board")).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_wider_screens_open_on_the_full_view_with_the_scoreboard_a_tap_away(
        station_url: str) -> None:
    moving_day_table(station_url)
    with browser_page(viewport=LAPTOP) as page:
        page.goto(f"{station_url}/tables/t1")
        page.wait_for_selector("#live-status.on")
        expect(page.locator("#board")).to_be_visible()
        expect(page.locator("#scoreboard")).to_be_hidden()
        page.get_by_role("button", name="scoreboard").click()
        expect(page.locator("#scoreboard")).to_be_visible()
        digits = page.locator("#scoreboard .sb-total").first
        assert digits.evaluate(DIGITS_HEIGHT) >= 0.15 * LAPTOP["height"]


@pytest.mark.parametrize("size", [PHONE, LAPTOP, PROJECTOR], ids=["phone", "laptop", "projector"])
def test_the_scoreboard_has_no_serious_accessibility_violation(station_url: str,
                                                              size: dict[str, int]) -> None:
    api, _ = moving_day_table(station_url)
    api.post("/api/tables/t1/observations", json={"observation": {
        "kind": "declared", "action": {"type": "take", "group": 9, "boxes": []}},
        "source": "demo"}).raise_for_status()  # the flag's band shown too
    script = axe_script()
    with browser_page(viewport=size) as page:
        page.goto(f"{station_url}/tables/t1")
        page.wait_for_selector("#live-status.on")
        if size is not PHONE:
            page.get_by_role("button", name="scoreboard").click()
        expect(page.locator("#sb-flag")).to_be_visible()
        found = axe_violations(page, script) + small_targets(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > size["width"]:
            found.append(f"scrolls sideways: {width} px wide")
        assert found == []
