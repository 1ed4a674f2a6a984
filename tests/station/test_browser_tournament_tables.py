"""A real browser pairs a tournament round at real tables (docs/formats.md §10): a busy table
is left alone, games are dealt by hand, a waiting game starts at a table named for it, a
result comes from the table or by hand (ending the table's game), a correction shows, and a
Moving Day tie is broken on snack points."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx

from tests.station.browser import browser_page, expect
from tests.station.conftest import TOKEN
from tests.station.test_browser import live_server  # noqa: F401  (the served dashboard)

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _keep(tmp_path: Path, name: str) -> None:
    if os.environ.get("PACKREF_SCREENSHOTS"):
        shutil.copy(tmp_path / name, Path(os.environ["PACKREF_SCREENSHOTS"]) / name)


def test_a_round_at_real_tables_from_pairing_to_a_corrected_tie(live_server: str,  # noqa: F811
                                                                 tmp_path: Path) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    for table in ("t1", "t2"):
        api.post("/api/tables", json={"name": table, "id": table}).raise_for_status()
    api.post("/api/tables/t1/games", json={"game": "moving-day", "players": ["Xia", "Yul"],
                                           "deal": "table"}).raise_for_status()  # a casual game
    api.post("/api/tournaments", json={"name": "Cup", "game": "moving-day", "players": [
        "Ana", "Ben", "Cas", "Dee"]}).raise_for_status()
    with browser_page() as page:
        page.goto(f"{live_server}/tournaments/cup")
        page.wait_for_selector("#live-status.on")
        page.get_by_label("Organiser token").fill(TOKEN)
        assert page.locator("#pair-game").count() == 0  # the tournament's game: not asked again
        expect(page.locator("#pair-game-name")).to_have_text("Moving Day")
        busy = page.locator("#pair-table-list label", has_text="t1")
        expect(busy).to_contain_text("playing Moving Day: Xia, Yul")
        expect(busy.locator("input")).not_to_be_checked()
        free = page.locator("#pair-table-list label", has_text="t2")
        expect(free.locator("input")).to_be_checked()
        expect(page.get_by_label("Deal")).to_have_value("table")
        page.get_by_label("Players a table").fill("2")
        page.get_by_role("button", name="Pair and start").click()
        expect(page.locator("#pair-message")).to_have_text(
            "Round 1 paired: 2 games, 1 waiting for a table.")
        casual = api.get("/api/tables/t1").json()["game"]
        assert casual["players"] == ["Xia", "Yul"] and not casual["over"]  # left alone
        assert api.get("/api/tables/t2").json()["game"]["deal"] == "table"  # dealt by hand
        games = api.get("/api/tournaments/cup").json()["rounds"][0]["games"]
        played = next(g for g in games if g["table"] == "t2")
        waiting = next(g for g in games if g["table"] is None)
        line = page.locator(f"li[data-game='{waiting['id']}']")
        expect(line).to_contain_text("waiting for a table")
        expect(line.locator(".start-game")).to_be_disabled()  # no table is free
        api.post("/api/tables", json={"name": "t3", "id": "t3"}).raise_for_status()
        expect(line.locator(".start-table")).to_have_value("t3")  # the new free table, live
        line.locator(".start-game").click()
        expect(page.locator("#pair-message")).to_have_text(
            f"Game {waiting['id']} started at t3, dealt by hand.")
        expect(line).to_contain_text("at t3")
        assert api.get("/api/tables/t3").json()["game"]["players"] == waiting["players"]

        # a tie on top at t2: the form asks for the snack points, and the rulebook decides
        one, two = played["players"]
        page.locator(f".enter-result[data-game='{played['id']}']").click()
        page.get_by_label(one, exact=True).fill("30")
        page.get_by_label(two, exact=True).fill("30")
        preview = page.locator("#result-preview")
        expect(preview).to_have_text(
            f"{one} and {two} are tied: enter their snack points (higher wins).")
        page.get_by_label(f"{one} snack points").fill("3")
        page.get_by_label(f"{two} snack points").fill("5")
        expect(preview).to_have_text(f"On saving: {two} wins (the tie broken on snack points).")
        page.get_by_role("button", name="Save result").click()
        expect(page.locator("#result-message")).to_contain_text(f"{two} wins.")
        entered = page.locator(f"li[data-game='{played['id']}']")
        expect(entered.locator(".winners")).to_have_text(f"{two} wins")
        expect(entered).to_contain_text(f"snack points: {one} 3, {two} 5")
        snapshot = api.get("/api/tables/t2").json()
        assert snapshot["game"] is None  # the hand result ended the table's game
        assert snapshot["past_games"][-1]["ended"].startswith("result entered by hand")

        # the correction: it shows, with the old and new scores and when
        page.locator(f".enter-result[data-game='{played['id']}']").click()
        page.get_by_label(one, exact=True).fill("31")
        expect(preview).to_have_text(f"On saving: {one} wins (the highest total).")
        page.get_by_role("button", name="Save result").click()
        expect(entered.locator(".corrected")).to_have_text("corrected")
        expect(entered.locator(".corrections")).to_contain_text(
            f"{one} 30, {two} 30 → {one} 31, {two} 30 ·")
        expect(entered.locator(".corrections")).to_contain_text("UTC by organiser")
        page.screenshot(path=str(tmp_path / "tournament-tables.png"), full_page=True)
    _keep(tmp_path, "tournament-tables.png")
    result = api.get("/api/tournaments/cup").json()["rounds"][0]["games"]
    corrected = next(g for g in result if g["id"] == played["id"])["result"]
    assert corrected["winners"] == [one] and len(corrected["corrections"]) == 1


def test_a_finished_hand_dealt_table_gives_the_result_to_the_page(
        live_server: str, draw_game: str) -> None:  # noqa: F811
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "t1", "id": "t1"}).raise_for_status()
    api.post("/api/tournaments", json={"name": "Cup", "game": draw_game,
                                       "players": ["Ana", "Ben"]}).raise_for_status()
    with browser_page() as page:
        page.goto(f"{live_server}/tournaments/cup")
        page.wait_for_selector("#live-status.on")
        page.get_by_label("Organiser token").fill(TOKEN)
        page.get_by_role("button", name="Pair and start").click()
        expect(page.locator("#pair-message")).to_have_text("Round 1 paired: 1 games.")
        game = api.get("/api/tournaments/cup").json()["rounds"][0]["games"][0]
        line = page.locator(f"li[data-game='{game['id']}']")
        expect(line).to_contain_text("at t1")
        for card in ("c2", "c1", "c2", "c1"):  # seen at the table, then taken
            api.post("/api/tables/t1/reveals", json={
                "action": {"type": "reveal", "card": card}}).raise_for_status()
            api.post("/api/tables/t1/observations", json={
                "observation": {"kind": "declared", "action": {"type": "take"}},
                "source": "button"}).raise_for_status()
        first = api.get("/api/tables/t1").json()["game"]["players"][0]
        expect(line.locator(".status-tag")).to_have_text("done")
        expect(line).to_contain_text("(live)")
        expect(line.locator(".winners")).to_have_text(f"{first} wins")
        expect(page.locator("#standings tbody tr").first).to_contain_text(first)
