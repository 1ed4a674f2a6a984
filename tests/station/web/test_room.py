"""The room's screen (/room) in a real browser: every live table as a tile, scaled to a
1920 × 1080 screen for 2, 8 and 12 tables, read from 5 m (names at least 27 px, scores at
least 40 px), one table featured in turn; what it shows is the public snapshot's."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from rules import get_game
from station.api import build_services
from station.config import Settings
from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import axe_script, axe_violations, served

AUTH = {"Authorization": f"Bearer {TOKEN}"}
SCREEN = {"width": 1920, "height": 1080}
GAMES = (("moving-day", ["Ana", "Ben", "Cas"]), ("small-warehouse", ["Ana", "Ben"]),
         ("removal", ["Ana", "Ben"]))

SIZES = """() => Array.from(document.querySelectorAll('.tile'), (tile) => {
  const r = tile.getBoundingClientRect();
  const px = (selector) => Array.from(tile.querySelectorAll(selector),
                                      (e) => parseFloat(getComputedStyle(e).fontSize));
  return {table: tile.dataset.table, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          spills: tile.scrollHeight > tile.clientHeight + 1
                  || tile.scrollWidth > tile.clientWidth + 1,
          names: px('.tile-name'), players: px('.tile-player'), totals: px('.tile-total')};
})"""


@pytest.fixture
def station_url(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def open_tables(url: str, count: int) -> httpx.Client:
    """``count`` tables, each playing a game a move or two in."""
    api = httpx.Client(base_url=url, headers=AUTH, timeout=10)
    for number in range(1, count + 1):
        game, players = GAMES[number % len(GAMES)]
        api.post("/api/tables", json={"name": f"Table {number}", "id": f"t{number}", "game": {
            "game": game, "players": players, "seed": number}}).raise_for_status()
        state = get_game(game).new_game(players, seed=number)
        for _ in range(1 + number % 2):
            action = state.legal_actions()[0]
            state.apply(action)
            api.post(f"/api/tables/t{number}/observations", json={
                "observation": {"kind": "declared", "action": action}}).raise_for_status()
    return api


@pytest.mark.parametrize("count", [2, 8, 12])
def test_every_live_table_fits_the_room_screen_in_type_read_from_5_m(
        station_url: str, count: int) -> None:
    api = open_tables(station_url, count)
    api.post("/api/tables", json={"name": "Empty table", "id": "empty"}).raise_for_status()
    with browser_page(viewport=SCREEN) as page:
        page.clock.install()
        page.goto(f"{station_url}/room")
        page.wait_for_selector("#live-status.on")
        tiles = page.evaluate(SIZES)
        assert sorted(tile["table"] for tile in tiles) == sorted(
            f"t{n}" for n in range(1, count + 1))  # the table with no game is not shown
        for tile in tiles:
            assert tile["left"] >= 0 and tile["top"] >= 0, tile
            assert tile["right"] <= SCREEN["width"] and tile["bottom"] <= SCREEN["height"], tile
            assert not tile["spills"], tile  # everything inside its tile
            assert min(tile["names"] + tile["players"]) >= 27, tile
            assert min(tile["totals"]) >= 40, tile
        assert page.evaluate("document.documentElement.scrollHeight") <= SCREEN["height"]
        # one featured, the next one 10 s later
        featured = page.locator(".tile.featured")
        expect(featured).to_have_count(1)
        first = featured.get_attribute("data-table")
        page.clock.run_for(10_500)
        expect(featured).not_to_have_attribute("data-table", first)
        second = featured.get_attribute("data-table")
        # a move at a table: its tile follows, the featured table stays featured
        public = httpx.get(f"{station_url}/api/tables/t1").json()  # no token: as anyone
        state = get_game(public["game"]["name"]).new_game(public["game"]["players"], seed=1)
        for action in api.get("/api/tables/t1/events").json():
            if action["kind"] == "action":
                state.apply(action["action"])
        action = state.legal_actions()[0]
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
        moved = httpx.get(f"{station_url}/api/tables/t1").json()["game"]["last_move"]["text"]
        page.clock.run_for(1000)
        expect(page.locator(".tile[data-table='t1'] .tile-move")).to_have_text(
            f"Last move: {moved}")
        expect(featured).to_have_attribute("data-table", second)


def test_the_room_shows_only_what_the_public_snapshot_shows(station_url: str) -> None:
    open_tables(station_url, 3)
    with browser_page(viewport=SCREEN) as page:
        page.goto(f"{station_url}/room")
        page.wait_for_selector("#live-status.on")
        for number in range(1, 4):
            public = httpx.get(f"{station_url}/api/tables/t{number}").json()  # no token
            tile = page.locator(f".tile[data-table='t{number}']")
            expect(tile.locator(".tile-name")).to_have_text(public["table"]["name"])
            totals = tile.locator(".tile-total").all_inner_texts()
            assert totals == [str(s["total"]) for s in public["game"]["scores"]]
            expect(tile.locator(".tile-move")).to_have_text(
                "Last move: " + public["game"]["last_move"]["text"])
        html = page.content()
        assert "seed" not in html and "Set up" not in html  # no organiser's links either


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768},
                                  SCREEN], ids=["phone", "laptop", "projector"])
def test_the_room_has_no_serious_accessibility_violation(station_url: str,
                                                         size: dict[str, int]) -> None:
    api = open_tables(station_url, 8)
    api.post("/api/tables/t2/observations", json={"observation": {"kind": "declared", "action": {
        "type": "take", "group": 99, "boxes": []}}, "source": "demo"})  # a flag, "Under review"
    script = axe_script()
    with browser_page(viewport=size) as page:
        page.goto(f"{station_url}/room")
        page.wait_for_selector("#live-status.on")
        found = axe_violations(page, script)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > size["width"]:
            found.append(f"scrolls sideways: {width} px wide")
        assert found == []


def test_the_tournament_projector_opens_on_the_rounds_live_tables(station_url: str) -> None:
    """The projector's main slide is the room's screen for the round's tables only (a casual
    game at another table is not on it), in the room's sizes at 1920 × 1080; then the
    pairings and the standings in turn."""
    api = open_tables(station_url, 1)  # t1: a casual game, not the tournament's
    for table in ("t2", "t3", "t4"):
        api.post("/api/tables", json={"name": f"Table {table[1]}", "id": table})
    api.post("/api/tournaments", json={"name": "Cup", "game": "small-warehouse", "players": [
        "Ana", "Ben", "Cas", "Dee", "Eve", "Fay"]}).raise_for_status()
    api.post("/api/tournaments/cup/rounds", json={
        "tables": ["t2", "t3", "t4"], "deal": "seed", "size": 2}).raise_for_status()
    with browser_page(viewport=SCREEN) as page:
        page.clock.install()
        page.goto(f"{station_url}/tournaments/cup/projector")
        page.wait_for_selector("#live-status.on")
        slide = page.locator("#round-room")
        expect(slide).to_be_visible()
        expect(slide.locator("h1")).to_have_text("Round 1: every live table")
        tiles = page.evaluate(SIZES)
        assert sorted(tile["table"] for tile in tiles) == ["t2", "t3", "t4"]
        for tile in tiles:
            assert tile["right"] <= SCREEN["width"] and tile["bottom"] <= SCREEN["height"], tile
            assert not tile["spills"], tile
            assert min(tile["names"] + tile["players"]) >= 27, tile
            assert min(tile["totals"]) >= 40, tile
        expect(page.locator("#pairings")).to_be_hidden()
        assert axe_violations(page, axe_script()) == []
        page.clock.run_for(20_500)  # then the pairings, then the standings
        expect(slide).to_be_hidden()
        expect(page.locator("#pairings")).to_be_visible()
        page.clock.run_for(12_500)
        expect(page.locator(".standings-box")).to_be_visible()
        page.clock.run_for(12_500)
        expect(slide).to_be_visible()
