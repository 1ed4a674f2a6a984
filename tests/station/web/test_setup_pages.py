"""The organiser sets the night up in a real browser, at desktop and phone width: signing in,
a table with players dealt by hand, its drone bound and stopped, a tournament, a player added
and dropped, a table made by mistake removed, and the API's errors shown beside the field."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from station.api import build_services
from station.config import Settings
from tests.station.browser import SIZES, browser_page, expect, full_table_view
from tests.station.conftest import TOKEN
from tests.station.test_browser import served

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def station_url(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def sign_in(page, url: str) -> None:  # type: ignore[no-untyped-def]
    """From the set-up page, through the header's link, and back."""
    page.click("#sign-in-link")
    expect(page).to_have_url(re.compile(r"/sign-in\?next=%2Fsetup$"))
    page.fill("#sign-in-token", "not-the-token")
    page.click("#sign-in-button")
    expect(page.locator("#sign-in-error")).to_have_text(re.compile("not the organiser's token"))
    page.fill("#sign-in-token", TOKEN)
    page.click("#sign-in-button")
    expect(page).to_have_url(f"{url}/setup")
    expect(page.locator("#sign-in-link")).to_have_text("Signed in ✓")
    expect(page.locator("#setup-sign-in-note")).to_be_hidden()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_organiser_sets_up_the_night_from_the_dashboard(station_url: str, size: str) -> None:
    api = httpx.Client(base_url=station_url, headers=AUTH, timeout=10)
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(station_url + "/")
        expect(page.locator("#no-table a")).to_have_attribute("href", "/setup#new-table-section")
        page.click("#setup-night")
        expect(page).to_have_url(f"{station_url}/setup")

        # not signed in: the page says so beside the button, and a refusal links to sign-in
        expect(page.locator("#setup-sign-in-note")).to_be_visible()
        expect(page.locator("#new-table .needs-sign-in")).to_have_text("sign in to create a table")
        page.fill("#table-name", "Table 1")
        page.click("#table-create")
        expect(page.locator("#table-error a.sign-in-prompt")).to_have_text("sign in")
        assert api.get("/api/tables").json() == []
        sign_in(page, station_url)

        # bad input: the API's line beside the field it names
        page.click("#table-create")
        expect(page.locator("#table-name-error")).to_have_text(re.compile(r"^\$\.name: "))
        page.fill("#table-name", "Table 1")
        page.select_option("#table-game", "removal")
        expect(page.locator("#table-players-hint")).to_contain_text("2 to 4 players")
        page.fill("#table-players", "Ana\nBen\nCas\nDee\nEve\nFay")
        page.click("#table-create")
        expect(page.locator("#table-players-error")).not_to_be_empty()
        assert api.get("/api/tables").json() == []

        # a table with its players, dealt by hand (the default)
        expect(page.locator("#table-deal-table")).to_be_checked()
        page.fill("#table-players", "Ana\nBen\nCas")
        page.click("#table-create")
        expect(page.locator("#table-done")).to_contain_text(
            "Table 1 is ready (Removal, dealt by hand)")
        expect(page.locator("#table-name-error")).to_be_empty()
        game = api.get("/api/tables/table-1").json()["game"]
        assert (game["name"], game["players"], game["deal"]) == ("removal", ["Ana", "Ben", "Cas"],
                                                                 "table")
        expect(page.locator("#at-table")).to_have_value("table-1")
        expect(page.locator("#remove-table")).to_be_disabled()  # a game was started there

        # its drone: a port that does not open is named, a live link is shown, then stopped
        page.fill("#bind-drone-port", "/dev/no-such-port")
        page.click("#bind-drone-button")
        expect(page.locator("#bind-drone-error")).to_have_text(
            re.compile(r"^\$\.port: cannot open /dev/no-such-port"))
        page.fill("#bind-drone-port", "loop://")
        page.click("#bind-drone-button")
        expect(page.locator("#at-table-sources")).to_contain_text("drone loop://")
        assert api.get("/api/tables/table-1/sources").json()["drone"]["source"] == "loop://"
        page.goto(station_url + "/tables/table-1")  # the table's page says what feeds it
        page.wait_for_selector("#live-status.on")
        full_table_view(page)  # a phone opens on the scoreboard
        expect(page.locator("#table-sources")).to_contain_text("no camera · drone loop://")
        page.click("#table-sources-change")
        expect(page.locator("#at-table")).to_have_value("table-1")
        page.click("#unbind-drone-button")
        expect(page.locator("#at-table-sources")).to_contain_text("no drone")

        # a new game at the table, seeded this time
        page.select_option("#game-game", "small-warehouse")
        page.fill("#game-players", "Ana\nBen")
        page.check("#game-deal-seed")
        page.click("#game-start")
        expect(page.locator("#at-table-done")).to_contain_text("A new game of Small Warehouse")
        game = api.get("/api/tables/table-1").json()["game"]
        assert (game["name"], game["players"], game["deal"]) == ("small-warehouse",
                                                                 ["Ana", "Ben"], "seed")

        # a table made by mistake, then taken back
        page.fill("#table-name", "Spare")
        page.click("#table-create")
        page.click("#table-undo")
        expect(page.locator("#table-done")).to_have_text("Table Spare is removed.")
        assert [t["id"] for t in api.get("/api/tables").json()] == ["table-1"]

        # a tournament: a wrong tie-breaker is named beside its field, then it is made
        page.fill("#tournament-name", "Spring cup")
        page.fill("#tournament-players", "Ana\nBen\nCas\nDee")
        page.fill("#tournament-tie-breakers", "wins, luck")
        page.click("#tournament-create")
        expect(page.locator("#tournament-tie-breakers-error")).to_contain_text("luck")
        page.fill("#tournament-tie-breakers", "wins, points")
        page.click("#tournament-create")
        expect(page.locator("#tournament-done")).to_contain_text(
            "Spring cup is ready with 4 players")
        cup = api.get("/api/tournaments/spring-cup").json()
        assert cup["players"] == ["Ana", "Ben", "Cas", "Dee"]
        assert cup["tie_breakers"] == ["wins", "points"]

        # a player added, a name taken refused, the new one dropped again
        expect(page.locator("#players-tournament")).to_have_value("spring-cup")
        page.fill("#player-name", "Eve")
        page.click("#player-add")
        expect(page.locator("#player-list li[data-player='Eve']")).to_have_text(re.compile("^Eve"))
        page.fill("#player-name", "Ana")
        page.click("#player-add")
        expect(page.locator("#player-name-error")).to_contain_text("'Ana' is already a player")
        page.click("#player-undo")
        expect(page.locator("#player-list li[data-player='Eve']")).to_have_text("Eve (dropped)")
        assert api.get("/api/tournaments/spring-cup").json()["dropped"]

        # nothing on the page runs off a phone's screen
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= SIZES[size]["width"], width


def test_a_write_refused_for_a_stale_token_links_to_sign_in(station_url: str) -> None:
    with browser_page(viewport=SIZES["phone"]) as page:
        page.add_init_script("sessionStorage.setItem('packref-token', 'an-old-token')")
        page.goto(station_url + "/setup")
        expect(page.locator("#sign-in-link")).to_have_text("Signed in ✓")
        page.fill("#tournament-name", "Cup")
        page.click("#tournament-create")
        refusal = page.locator("#tournament-error")
        expect(refusal).to_contain_text("That token is not the organiser's")
        expect(refusal.locator("a")).to_have_attribute("href", "/sign-in?next=%2Fsetup")
        page.goto(station_url + "/sign-in")
        page.click("#sign-out-button")
        expect(page.locator("#sign-in-token")).to_be_visible()
        assert page.evaluate("sessionStorage.getItem('packref-token')") is None
