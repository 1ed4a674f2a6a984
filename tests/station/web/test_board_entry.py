"""Entering a move by the board, in a real browser, by taps only (no typing: the organiser's
token is already in the tab's session): a whole Small Warehouse turn (the card from the
hand, its top-left square, its turn, the supply card into the hand) and a Removal load (the
item, its tag's square, its turn), each said in words before it is sent, and the station's
record shows it applied; reveals picked from pictures drawn from the catalogue; axe-core
finds nothing serious at each step, at three sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from rules import get_game
from station.api import build_services
from station.config import Settings
from station.games import board_moves
from tests.station.browser import browser_page, expect, full_table_view
from tests.station.conftest import TOKEN
from tests.station.test_browser import axe_script, axe_violations, served

AUTH = {"Authorization": f"Bearer {TOKEN}"}
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768},
         "projector": {"width": 1920, "height": 1080}}
WIDE = """() => Array.from(document.querySelectorAll('body *'))
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8)
  .map((e) => e.tagName + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))"""
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.fixture
def station_url(settings: Settings) -> Iterator[str]:
    with served(build_services(settings)) as url:
        yield url


def start(url: str, game: str, **deal: object) -> httpx.Client:
    api = httpx.Client(base_url=url, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": game, "players": ["Ana", "Ben"], **deal}}).raise_for_status()
    return api


def taps_of(state, action: dict) -> list[dict]:  # type: ignore[no-untyped-def]
    """The choices the board entry offers for ``action``, step by step (what to tap)."""
    entry = board_moves(state, state.legal_actions())
    move = next(m for m in entry["moves"] if dict(m["action"]) == dict(action))
    return [entry["choices"][key] for key in move["keys"] if key is not None]


def open_entry(page, url: str) -> None:  # type: ignore[no-untyped-def]
    page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
    page.goto(f"{url}/tables/t1")
    page.wait_for_selector("#live-status.on")
    full_table_view(page)
    page.locator("#tap-entry > summary").click()


def tap(page, choice: dict) -> None:  # type: ignore[no-untyped-def]
    """Tap one step's choice: a square of the drawn board by its row and column, else the
    picture button by its words."""
    step = page.locator("#tap-step")
    if choice.get("board"):
        row, col = choice["at"]
        board = step.get_by_role("group", name=choice["board"])
        square = re.compile(rf"^row {row + 1}, column {col + 1}\b")  # and what lies there
        board.get_by_role("button", name=square).click()
    else:
        step.get_by_role("button", name=choice["words"], exact=True).click()


def check_axe(page, script: str) -> None:  # type: ignore[no-untyped-def]
    assert axe_violations(page, script) == []
    assert page.evaluate(NO_SIDEWAYS), page.evaluate(WIDE)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_small_warehouse_turn_is_entered_by_tapping_only(station_url: str, size: str) -> None:
    script = axe_script()
    api = start(station_url, "small-warehouse", seed=5)
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], seed=5)
    # a whole turn from the hand: the card, its place, its turn, the supply card taken in
    action = next(a for a in state.legal_actions()
                  if a["source"] == "hand" and a["rotation"] == 90 and a["refill"] is not None)
    choices = taps_of(state, action)
    assert [c["step"] for c in choices] == ["piece", "place", "turn", "then"]
    with browser_page(viewport=SIZES[size]) as page:
        open_entry(page, station_url)
        step = page.locator("#tap-step")
        # the pieces are pictures of the cards that may be played, said by their squares
        expect(step.locator("button.tap-choice svg")).to_have_count(4)  # 3 supply, 1 hand
        expect(step).not_to_contain_text(action["card"])  # never an id
        check_axe(page, script)
        for number, choice in enumerate(choices):
            tap(page, choice)
            expect(page.locator("#tap-trail li")).to_have_count(number + 1)
            if number == 0:  # the board drawn, only the legal squares to tap
                squares = step.locator("button.tap-place")
                legal = {tuple(c["at"]) for m in board_moves(state, state.legal_actions())["moves"]
                         for c in [board_moves(state, [m["action"]])["choices"][m["keys"][1]]]
                         if m["keys"][0] == choices[0]["key"]}
                expect(squares).to_have_count(len(legal))
                width = squares.first.bounding_box()["width"]
                assert width >= 24, width  # WCAG 2.2's least tap target
                check_axe(page, script)
        words = page.locator("#tap-words")
        expect(words).to_have_text("Ana: " + ", ".join(c["words"] for c in choices))
        expect(words).to_contain_text("turned 90° clockwise")
        lit = step.locator(".tap-cell.lit")  # where the card will lie, drawn as it lies
        expect(lit).to_have_count(6)
        squares = state.setup["cards"][action["card"]]
        assert sorted(lit.all_inner_texts()) == sorted(
            ch if ch != "#" else "" for ch in "".join(squares))
        boxes = lit.evaluate_all("(cells) => cells.map((c) => c.getBoundingClientRect())"
                                 ".map((b) => [Math.round(b.top), Math.round(b.left)])")
        rows, cols = len({top for top, _ in boxes}), len({left for _, left in boxes})
        assert (rows, cols) == (3, 2)  # a 2 × 3 card turned 90°: 3 rows of 2
        check_axe(page, script)
        step.get_by_role("button", name="send the move").click()
        expect(page.locator("#tap-message")).to_contain_text("sent")
        expect(page.locator("#recent")).to_contain_text("Declared by hand")
    log = api.get("/api/tables/t1").json()["game"]
    state.apply(action)
    assert log["actions"] == len(state.log)
    assert log["state"]["grids"] == state.public_view()["grids"]


@pytest.mark.parametrize("size", ["phone", "projector"])
def test_a_removal_load_is_entered_by_tapping_only(station_url: str, size: str) -> None:
    script = axe_script()
    api = start(station_url, "removal", seed=2)
    state = get_game("removal").new_game(["Ana", "Ben"], seed=2)
    action = next(a for a in state.legal_actions() if a["type"] == "load" and a["rotation"])
    choices = taps_of(state, action)
    assert [c["step"] for c in choices] == ["piece", "place", "turn"]
    with browser_page(viewport=SIZES[size]) as page:
        open_entry(page, station_url)
        step = page.locator("#tap-step")
        name = state.facts_of_tile(action["item"]).name
        expect(step.get_by_role("button", name=f"the {name} from the house")).to_be_visible()
        expect(step.get_by_role("button", name="drive the truck away and score")).to_have_count(0)
        for choice in choices:
            tap(page, choice)
            if choice["step"] == "piece":  # the truck to tap, and the storage beside it
                expect(step.get_by_role("button", name="into storage")).to_be_visible()
                check_axe(page, script)
        expect(page.locator("#tap-words")).to_contain_text(f"Ana: the {name} from the house")
        check_axe(page, script)
        step.get_by_role("button", name="send the move").click()
        expect(page.locator("#tap-message")).to_contain_text("sent")
    state.apply(action)
    game = api.get("/api/tables/t1").json()["game"]
    assert game["actions"] == len(state.log)
    assert game["state"]["players"][0]["truck"] == state.public_view()["players"][0]["truck"]


def test_a_reveal_is_picked_from_pictures_of_the_components(station_url: str) -> None:
    script = axe_script()
    api = start(station_url, "removal", deal="table")
    state = get_game("removal").new_game(["Ana", "Ben"], deal="table")
    first = state.chance_outcomes()[0].action
    name = state.facts_of_tile(first["item"]).name
    with browser_page(viewport=SIZES["phone"]) as page:
        page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
        page.goto(f"{station_url}/tables/t1")
        full_table_view(page)
        pictures = page.locator("#reveal-pictures button")
        expect(pictures).to_have_count(len(state.chance_outcomes()))
        expect(pictures.first.locator("svg")).to_have_count(1)  # the tile's shape drawn
        chosen = pictures.filter(has_text=f"a {name} of").first
        chosen.click()
        expect(chosen).to_have_attribute("aria-pressed", "true")
        check_axe(page, script)
        page.get_by_role("button", name="reveal", exact=True).click()
        expect(page.locator("#reveal-message")).to_contain_text("revealed")
    house = api.get("/api/tables/t1").json()["game"]["state"]["house"]
    assert first["item"] in str(house)


def test_a_starting_card_is_picked_from_pictures_of_the_cards(station_url: str) -> None:
    api = start(station_url, "small-warehouse", deal="table")
    state = get_game("small-warehouse").new_game(["Ana", "Ben"], deal="table")
    with browser_page(viewport=SIZES["laptop"]) as page:
        page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
        page.goto(f"{station_url}/tables/t1")
        pictures = page.locator("#reveal-pictures button")
        expect(pictures).to_have_count(len(state.chance_outcomes()))
        # each card drawn with its squares and said by them (A, A, C / D, D, C), where it goes
        chosen = pictures.filter(has_text="the card with A, A, C, D, D and C").filter(
            has_text="Ana's starting card")
        expect(chosen.locator("svg rect")).to_have_count(6)
        chosen.click()
        page.get_by_role("button", name="reveal", exact=True).click()
        expect(page.locator("#reveal-message")).to_contain_text("revealed")
    grids = api.get("/api/tables/t1").json()["game"]["state"]["grids"]
    assert "AAC" in "".join(grids[0]) and "DDC" in "".join(grids[0])
