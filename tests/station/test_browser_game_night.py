"""A whole club night through the pages, at a desk and on a phone: sign in, set up tables (one
with a casual game) and a Moving Day tournament, pair round 1 at the free tables, play one
table's game to its end from a camera's readings (dealt by hand, docs/formats.md §9), enter
the other table's result by hand with a tie broken on snack points and correct it, then pair
round 2 and read the standings. Only the device observations go to the API, as a camera
would post them; the API is read for the assertions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from rules import get_game
from station.api import build_services
from station.api.pages import TIE_BREAKER_WORDS
from station.config import Settings
from tests.rules.games.moving_day.test_hand_dealt_moving_day import Camera, Table
from tests.station.browser import SIZES, browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.e2e.dealt_table import DealtTable
from tests.station.e2e.test_hand_dealt_moving_day import enter_helpers, play_turn
from tests.station.test_browser import served

AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ana", "Ben", "Cas", "Dee", "Eli", "Fay"]
WAIT = 15_000  # ms: a loaded machine may take a while to redraw


class AttachedTable(DealtTable):
    """A :class:`DealtTable` over a table whose hand-dealt game the pairing already started
    (``client``: an ``httpx.Client`` on the live station, which answers as a TestClient does)."""

    def __init__(self, client: httpx.Client, table_id: str) -> None:
        self.client, self.id = client, table_id
        game = self.game()
        assert game["deal"] == "table" and game["name"] == "moving-day", game
        self.players: list[str] = game["players"]
        self.mirror = get_game("moving-day").new_game(self.players, deal="table")
        self.tally, self.refused, self.applied, self.unexpected = Counter(), [], [], []
        self._expecting = False


@pytest.fixture
def night(settings: Settings) -> Iterator[tuple[str, httpx.Client]]:
    """The live station over a fresh data folder, and an organiser's client to read it."""
    with served(build_services(settings)) as url, httpx.Client(
            base_url=url, headers=AUTH, timeout=20) as api:
        yield url, api


def sign_in(page: Any, url: str) -> None:
    page.goto(f"{url}/sign-in")
    page.fill("#sign-in-token", TOKEN)
    page.click("#sign-in-button")
    page.wait_for_url(f"{url}/setup")
    assert TOKEN in page.evaluate("() => Object.values(sessionStorage)")  # kept for the session


def new_table(page: Any, name: str, game: str = "", players: list[str] = ()) -> None:
    page.fill("#table-name", name)
    page.select_option("#table-game", game)
    page.fill("#table-players", "\n".join(players))
    expect(page.locator("#table-deal-table")).to_be_checked()
    page.click("#table-create")
    expect(page.locator("#table-done")).to_contain_text(f"Table {name} is ready", timeout=WAIT)


def table_id(api: httpx.Client, name: str) -> str:
    return next(t["id"] for t in api.get("/api/tables").json() if t["name"] == name)


def set_up_the_night(page: Any, url: str, api: httpx.Client) -> str:
    """Two empty tables, a casual game at a third, and the tournament; its id."""
    page.goto(f"{url}/setup")
    new_table(page, "North")
    new_table(page, "South")
    new_table(page, "Casual", "small-warehouse", ["Zoe", "Yan"])
    expect(page.locator("#table-done")).to_contain_text("Small Warehouse, dealt by hand")
    page.fill("#tournament-name", "Club night")
    page.select_option("#tournament-game", "moving-day")
    page.fill("#tournament-players", "\n".join(PLAYERS))
    page.click("#tournament-create")
    done = page.locator("#tournament-done")
    expect(done).to_contain_text("is ready with 6 players", timeout=WAIT)
    href = done.locator("a").get_attribute("href")
    assert href is not None and href.startswith("/tournaments/")
    return href.removeprefix("/tournaments/")


def pair(page: Any, number: int, free: list[str], casual: str) -> None:
    """Pair a round from the form: free tables ticked, the casual game's table not."""
    for table in free:
        expect(page.locator(f"#pair-table-list input[data-table='{table}']")).to_be_checked(
            timeout=WAIT)
    busy = page.locator("#pair-table-list label", has_text=casual)
    expect(busy).to_contain_text("playing Small Warehouse: Zoe, Yan")
    expect(busy.locator("input")).not_to_be_checked()
    expect(page.locator("#pair-deal")).to_have_value("table")
    assert page.locator("#pair-game").count() == 0  # the tournament's own game
    page.click("#pair-save")
    expect(page.locator("#pair-message")).to_have_text(f"Round {number} paired: 2 games.",
                                                       timeout=WAIT)


def casual_untouched(api: httpx.Client, casual: str) -> None:
    game = api.get(f"/api/tables/{casual}").json()["game"]
    assert game["name"] == "small-warehouse" and game["players"] == ["Zoe", "Yan"]
    assert not game["over"]


def play_to_the_end(api: httpx.Client, table: str, seed: int) -> dict[str, Any]:
    """The table plays its hand-dealt game to the end, seen by its camera and a person."""
    station = AttachedTable(api, table)
    rng = random.Random(seed)
    physical, camera = Table(station.players, rng), Camera(station.players)
    enter_helpers(station, physical, rng, list(range(len(station.players) + 1)))
    turn = 0
    while not station.game()["over"]:
        play_turn(station, physical, camera, turn, rng)
        turn += 1
    assert turn == 8 * len(station.players)
    station.assert_flagged_only("cannot stand where the camera sees them", closed=True)
    game = station.game()
    assert [s["parts"] for s in game["scores"]] == [physical.score(p) for p in station.players]
    return game


def wins(winners: list[str]) -> str:
    return (" and ".join(winners) if len(winners) < 3 else
            ", ".join(winners[:-1]) + " and " + winners[-1]) + (" wins" if len(winners) == 1
                                                                 else " win")


def enter_tied_result(page: Any, game: dict[str, Any]) -> tuple[str, str]:
    """A tie on top broken on snack points, then corrected: (the tie's first winner, the
    corrected winner)."""
    one, two, three = game["players"]
    line = page.locator(f"li[data-game='{game['id']}']")
    line.locator(".enter-result").click()
    for player, score in ((one, "30"), (two, "30"), (three, "20")):
        page.get_by_label(player, exact=True).fill(score)
    preview = page.locator("#result-preview")
    expect(preview).to_have_text(
        f"{one} and {two} are tied: enter their snack points (higher wins).")
    expect(page.get_by_label(f"{three} snack points")).to_be_hidden()
    page.get_by_label(f"{one} snack points").fill("3")
    page.get_by_label(f"{two} snack points").fill("5")
    expect(preview).to_have_text(f"On saving: {two} wins (the tie broken on snack points).")
    page.click("#result-save")
    expect(page.locator("#result-message")).to_contain_text(f"{two} wins.", timeout=WAIT)
    expect(line.locator(".winners")).to_have_text(f"{two} wins", timeout=WAIT)
    expect(line).to_contain_text(f"snack points: {one} 3, {two} 5")
    line.locator(".enter-result").click()
    page.get_by_label(one, exact=True).fill("31")
    expect(preview).to_have_text(f"On saving: {one} wins (the highest total).")
    page.click("#result-save")
    expect(line.locator(".corrected")).to_have_text("corrected", timeout=WAIT)
    expect(line.locator(".corrections")).to_contain_text(
        f"{one} 30, {two} 30, {three} 20 → {one} 31, {two} 30, {three} 20 ·")
    expect(line.locator(".winners")).to_have_text(f"{one} wins")
    return two, one


def round_games(api: httpx.Client, tournament: str, number: int) -> list[dict[str, Any]]:
    return api.get(f"/api/tournaments/{tournament}").json()["rounds"][number - 1]["games"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_club_night_runs_through_the_pages(night: tuple[str, httpx.Client], size: str) -> None:
    url, api = night
    with browser_page(viewport=SIZES[size]) as page:
        sign_in(page, url)
        tournament = set_up_the_night(page, url, api)
        north, south, casual = (table_id(api, n) for n in ("North", "South", "Casual"))
        for empty in (north, south):
            assert api.get(f"/api/tables/{empty}").json()["game"] is None

        # round 1: both games at the two free tables, the casual game left alone
        page.goto(f"{url}/tournaments/{tournament}")
        page.wait_for_selector("#live-status.on")
        expect(page.locator("#organiser-token")).to_have_value(TOKEN)  # kept from sign-in
        pair(page, 1, [north, south], casual)
        casual_untouched(api, casual)
        games = round_games(api, tournament, 1)
        assert sorted(g["table"] for g in games) == sorted([north, south])
        assert sorted(p for g in games for p in g["players"]) == sorted(PLAYERS)
        assert [len(g["players"]) for g in games] == [3, 3]
        for game in games:
            name = api.get(f"/api/tables/{game['table']}").json()["table"]["name"]
            expect(page.locator(f"li[data-game='{game['id']}']")).to_contain_text(
                f"at {name}", timeout=WAIT)  # the table by its name, not its id
            assert api.get(f"/api/tables/{game['table']}").json()["game"]["deal"] == "table"
        live, by_hand = games

        # the live table plays to its end: its result flows into the match
        final = play_to_the_end(api, live["table"], seed=7)
        line = page.locator(f"li[data-game='{live['id']}']")
        expect(line.locator(".status-tag")).to_have_text("done", timeout=WAIT)
        expect(line).to_contain_text("(live)")
        expect(line.locator(".winners")).to_have_text(wins(final["winners"]))
        for score in final["scores"]:
            expect(line).to_contain_text(f"{score['player']} {score['total']}")

        table_page = page.context.browser.new_page()  # the live table's own page says it is over
        table_page.goto(f"{url}/tables/{live['table']}")
        expect(table_page.locator("#game-state")).to_contain_text("game over", timeout=WAIT)
        table_page.close()

        # the other table's result by hand: a tie broken on snack points, then corrected
        tied_loser, winner = enter_tied_result(page, by_hand)
        assert api.get(f"/api/tables/{by_hand['table']}").json()["game"] is None
        casual_untouched(api, casual)

        # round 2 at the same two tables, now free again
        pair(page, 2, [north, south], casual)
        casual_untouched(api, casual)
        second = round_games(api, tournament, 2)
        assert sorted(g["table"] for g in second) == sorted([north, south])
        standings = api.get(f"/api/tournaments/{tournament}").json()["standings"]
        rows = page.locator("#standings tbody tr")
        expect(rows).to_have_count(6, timeout=WAIT)
        leaders = {final["winners"][0], winner} if len(final["winners"]) == 1 else None
        top = standings[0]
        expect(rows.first.locator(".player")).to_have_text(top["player"], timeout=WAIT)
        if leaders is not None:
            assert {line["player"] for line in standings[:2]} == leaders
        for index, line in enumerate(standings):
            cells = rows.nth(index).locator("td")
            expect(cells.nth(0)).to_have_text(str(line["rank"]))
            expect(cells.nth(1)).to_have_text(line["player"])
            expect(cells.nth(2)).to_have_text(str(line["played"]))
            expect(cells.nth(3)).to_have_text(str(line["wins"]))
            expect(cells.nth(4)).to_have_text(f"{line['points']:g}")
            expect(cells.nth(5)).to_have_text(f"{line['average']:g}")
            expect(cells.nth(6)).to_have_text(f"{line['opponents_strength']:.3f}")
        assert next(s for s in standings if s["player"] == winner)["wins"] == 1
        assert next(s for s in standings if s["player"] == tied_loser)["wins"] == 0
        breakers = api.get(f"/api/tournaments/{tournament}").json()["tie_breakers"]
        expect(page.locator(".standings-box p.muted")).to_have_text(
            "tie-breakers: " + ", ".join(TIE_BREAKER_WORDS[b] for b in breakers)
            + ", then a shared rank")
