"""The small wrongs people noticed, each checked in the page's own words (its DOM, in a real
browser): the Small Warehouse legend says the colour boxes are drawn in, its supply is said by
the cards' squares, the drone's mass graph has values on its axes, tables and games go by
their names, tie-breakers are said in words, a tournament game with no table says so, and
the health page breaks a path after a slash on a phone, never inside a name."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from station.api import build_services
from station.api.pages import TIE_BREAKER_WORDS
from station.config import Settings
from station.demo.demo import prepare_tables
from station.live.sources import Recording
from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import served

AUTH = {"Authorization": f"Bearer {TOKEN}"}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def station_url(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def api_client(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers=AUTH, timeout=10)


def test_small_warehouse_says_its_empty_boxes_tan_and_its_supply_by_squares(
        station_url: str) -> None:
    api = api_client(station_url)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 5}}).raise_for_status()
    with browser_page(viewport=LAPTOP) as page:
        page.goto(f"{station_url}/tables/t1")
        page.wait_for_selector("#live-status.on")
        legend = page.locator("#legend")
        expect(legend).to_contain_text("tan square: an empty box")
        # the drawing agrees: an empty box is filled tan
        fill = page.evaluate("getComputedStyle(document.querySelector('svg .empty-box') ||"
                             " document.body).fill")
        assert fill in ("rgb(176, 141, 87)", "none") or "176" in fill
        supply = page.locator("#board .view-lines li").first
        expect(supply).to_contain_text("Supply: card 1 (")
        assert not re.search(r"\bc\d+\b", supply.inner_text()), supply.inner_text()
        captions = page.locator("#board figcaption").all_inner_texts()
        assert any(caption.startswith("Supply card 1") for caption in captions), captions


def test_the_drone_mass_graph_has_values_on_both_axes(station_url: str) -> None:
    api = api_client(station_url)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "pick-n-packers", "players": ["Ana", "Ben", "Cas"], "seed": 5}}).raise_for_status()
    for t, mass in ((0.0, 2.4), (3.4, 12.1), (5.0, 12.1), (9.9, 2.4)):
        api.post("/api/tables/t1/observations", json={"observation": {
            "kind": "telemetry", "t": t, "event": "load", "mass_g": mass}, "source": "drone"},
        ).raise_for_status()
    with browser_page(viewport=LAPTOP) as page:
        page.goto(f"{station_url}/tables/t1")
        page.wait_for_selector("#live-status.on")
        graph = page.locator("#graph svg.mass")
        expect(graph).to_be_visible()
        masses = [float(v) for v in graph.locator("text.mass-value").all_text_contents()]
        times = [float(v) for v in graph.locator("text.time-value").all_text_contents()]
        assert masses[0] == 0 and masses[-1] >= 12.1 and len(masses) >= 3, masses
        assert times[0] == 0 and times[-1] >= 9.9 and len(times) >= 3, times
        assert masses == sorted(masses) and times == sorted(times)
        expect(page.locator("#graph figcaption")).to_contain_text("drone mass (g) against"
                                                                  " time (s)")
        label = graph.get_attribute("aria-label")
        assert "from 2.4 to 12.1 g" in label and "over 9.9 s" in label


def test_tournament_pages_name_tables_games_and_tie_breakers_in_words(
        station_url: str) -> None:
    api = api_client(station_url)
    api.post("/api/tables", json={"name": "Table by the window", "id": "table-1"},
             ).raise_for_status()
    api.post("/api/tournaments", json={"name": "Cup", "game": "moving-day",
                                       "tie_breakers": ["wins", "opponents_strength"],
                                       "players": ["Ana", "Ben", "Cas", "Dee"]},
             ).raise_for_status()
    api.post("/api/tournaments/cup/rounds", json={"tables": ["table-1"], "size": 2},
             ).raise_for_status()
    rounds = api.get("/api/tournaments/cup").json()["rounds"]
    games = rounds[0]["games"]
    assert [bool(g["table"]) for g in games] == [True, False]  # one table for two games
    waiting = next(g for g in games if not g["table"])
    with browser_page(viewport=LAPTOP) as page:
        page.goto(f"{station_url}/tournaments/cup/projector")
        page.wait_for_selector("#live-status.on")
        pairings = page.locator("#pairing-list li")
        expect(pairings.first).to_contain_text("Table by the window: ")
        expect(pairings.nth(1)).to_contain_text(f"Game {waiting['id']} (waiting for a table): ")
        expect(page.locator("#pairing-list")).not_to_contain_text("table-1")
        words = ", ".join(TIE_BREAKER_WORDS[b] for b in ("wins", "opponents_strength"))
        expect(page.locator("#tie-breakers")).to_have_text(
            f"tie-breakers: {words}, then a shared rank")
        assert "_" not in page.locator("#tie-breakers").inner_text()

        page.goto(f"{station_url}/tournaments/cup")
        page.wait_for_selector("#live-status.on")
        expect(page.locator("#pair-game-name")).to_have_text("Moving Day")
        expect(page.locator(f"li[data-game='{games[0]['id']}']")).to_contain_text(
            "at Table by the window")
        page.get_by_label("Organiser token").fill(TOKEN)
        expect(page.locator("#pair-table-list")).to_contain_text("playing Moving Day: ")
        assert "moving-day" not in page.locator("#pair-table-list").inner_text()


def test_the_demo_names_its_tables_by_the_games_titles(settings: Settings) -> None:
    services = build_services(settings)
    try:
        recording = Recording(game="moving-day", players=["Ana", "Ben"], seed=1)
        table = prepare_tables(services.station, [recording])[0]
        assert services.station.snapshot(table)["table"]["name"] == "Demo: Moving Day"
    finally:
        services.database.close()


# where a line of the element's text breaks: the character before each new line
LINE_BREAKS = """(element) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const breaks = []; let top = null, before = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2) breaks.push(before + "|" + node.data[i]);
      top = rect.top; before = node.data[i];
    }
  }
  return breaks;
}"""


def test_the_health_page_breaks_a_path_after_a_slash_on_a_phone(station_url: str) -> None:
    with browser_page(viewport=PHONE) as page:
        page.goto(f"{station_url}/sign-in")
        page.evaluate("(token) => sessionStorage.setItem('packref-token', token)", TOKEN)
        page.goto(f"{station_url}/health")
        data = page.locator("#health-data code")
        expect(data).to_be_visible()
        path = data.inner_text()
        assert path.count("/") >= 3 and len(path) > 30, path
        breaks = data.evaluate(LINE_BREAKS)
        assert breaks, f"{path} fits on one line: the test proves nothing"
        # a break after a slash (or at a space), never between two letters of a name
        assert all(pair[0] in "/ " or pair[2] == " " for pair in breaks), breaks
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
