"""A real browser (Debian's chromium, driven by Playwright) watches a live table change."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

import station.games as games_package
from rules import State, get_game
from rules.games.removal.referee import tag_square
from station.api import build_services, create_app
from station.api.deps import Services
from station.api.pages import matching
from station.config import Settings
from station.games import describe_action, game_record
from tests.conftest import REPO
from tests.station.browser import SIZES, browser_page, expect, full_table_view
from tests.station.conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@contextlib.contextmanager
def served(services: Services) -> Iterator[str]:
    """``services``' dashboard served by uvicorn in a thread, on a free loopback port; the
    base URL while the ``with`` lasts."""
    import uvicorn

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_app(services), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        services.database.close()


@pytest.fixture
def live_server(settings: Settings) -> Iterator[str]:
    """The dashboard served by uvicorn in a thread, on a free loopback port."""
    with served(build_services(settings)) as url:
        yield url


def table_t1(live_server: str, game: str, players: list[str],
             seed: int) -> tuple[State, httpx.Client]:
    """Table 1 (``t1``) playing ``game`` at the station, an organiser's API client, and the
    engine's own copy of the game to play it alongside."""
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": game, "players": players, "seed": seed}}).raise_for_status()
    return get_game(game).new_game(players, seed=seed), api


def scoring_action(state, player: str) -> dict:
    """A legal action that changes ``player``'s total."""
    before = {s.player: s.total for s in state.scores()}[player]
    for action in state.legal_actions():
        trial = state.clone()
        trial.apply(action)
        if {s.player: s.total for s in trial.scores()}[player] != before:
            return action
    raise AssertionError("no action changes the score")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_browser_sees_a_score_change_arrive(live_server: str, size: str,
                                              tmp_path: Path) -> None:
    players = ["Ana", "Ben", "Cas"]
    state, api = table_t1(live_server, "moving-day", players, 4)
    for _ in range(4):
        action = state.legal_actions()[0]
        state.apply(action)
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")  # the WebSocket is open
        ana = page.locator('td.total[data-player="Ana"]')
        shown = int(ana.inner_text())
        assert shown == state.scores()[0].total  # the state at once, mid-game
        assert page.locator("svg.grid").count() == 9  # three vehicles for each player
        while state.current_player() != 0:
            action = state.legal_actions()[0]
            state.apply(action)
            api.post("/api/tables/t1/observations", json={
                "observation": {"kind": "declared", "action": action}}).raise_for_status()
        action = scoring_action(state, "Ana")
        state.apply(action)
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
        expected = str(state.scores()[0].total)
        assert expected != str(shown)
        page.wait_for_function(
            "expected => document.querySelector('td.total[data-player=\"Ana\"]')"
            ".textContent === expected", arg=expected, timeout=5000)
        # said politely to a screen reader; the boards described; the live dot in words
        expect(page.locator("#score-news")).to_contain_text(f"Ana now has {expected} points")
        assert page.locator("#score-news").get_attribute("aria-live") == "polite"
        label = page.locator("svg.grid").first.get_attribute("aria-label")
        assert label.startswith("Ana: ") and " rows by " in label and "row 1, column 1" in label
        # a box's colour scores: said in words and drawn as its initial, not by colour alone
        colours = ("red", "yellow", "green", "blue", "purple")
        assert any(f"{colour} " in label for colour in colours), label
        initials = page.locator("svg.grid").first.locator("text.colour-initial").all_text_contents()
        assert initials and set(initials) <= {colour[0] for colour in colours}
        assert page.evaluate("getComputedStyle(document.querySelector('#live-status .live-text'),"
                             " '::after').content") == '"live"'
        screenshot = tmp_path / f"live-table-{size}.png"
        page.screenshot(path=str(screenshot), full_page=True)
    assert screenshot.stat().st_size > 10_000
    if os.environ.get("PACKREF_SCREENSHOTS"):
        shutil.copy(screenshot, Path(os.environ["PACKREF_SCREENSHOTS"]) / screenshot.name)


@pytest.mark.parametrize("size", list(SIZES))
def test_an_organiser_enters_a_result_on_the_tournament_page(live_server: str, size: str,
                                                             tmp_path: Path) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tournaments", json={"name": "Spring Cup", "players": ["Ana", "Ben", "Dee"],
                                       "tie_breakers": ["wins", "points"]}).raise_for_status()
    game = api.post("/api/tournaments/spring-cup/games",
                    json={"round": 1, "players": ["Dee", "Ana"]}).json()

    def standings(page) -> list[str]:
        return page.locator("#standings tbody tr").all_inner_texts()

    with browser_page(viewport=SIZES[size]) as page:
        sent: list[tuple[str, str, str | None, str | None]] = []
        page.on("request", lambda r: sent.append(
            (r.method, r.url, r.post_data, r.headers.get("authorization"))))
        with page.expect_response(lambda r: r.url.endswith("/api/tournaments/spring-cup")):
            page.goto(f"{live_server}/tournaments/spring-cup")  # the socket's first "changed"
        page.wait_for_selector("#live-status.on")  # the WebSocket is open
        before = standings(page)
        page.get_by_label("Game", exact=True).select_option(str(game["id"]))
        page.get_by_label("Dee", exact=True).fill("31")
        page.get_by_label("Ana", exact=True).fill("27")

        # a wrong token: the API's refusal is shown and nothing changes
        page.get_by_label("Organiser token").fill("not-the-token")
        page.get_by_role("button", name="Save result").click()
        message = page.locator("#result-message")
        expect(message).to_contain_text("Not saved (401)")
        expect(message).to_contain_text("writes need the organiser's token")
        page.wait_for_timeout(800)
        assert standings(page) == before
        assert api.get("/api/tournaments/spring-cup").json()["rounds"][0]["games"][0][
            "result"] is None
        wrong = page.locator("#result-message")
        wrong.screenshot(path=str(tmp_path / "result-refused.png"))

        # the right token: saved, and the standings change live
        page.get_by_label("Organiser token").fill(TOKEN)
        page.get_by_role("button", name="Save result").click()
        expect(message).to_contain_text("Saved: game")
        first = page.locator("#standings tbody tr").first
        expect(first).to_contain_text("Dee")
        expect(first).to_contain_text("31")
        assert standings(page) != before
        expect(page.locator("#rounds")).to_contain_text("Dee 31, Ana 27 (hand)")
        kept = page.evaluate("sessionStorage.getItem('packref-token')")
        assert kept == TOKEN  # one for all pages
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        screenshot = tmp_path / f"tournament-result-{size}.png"
        page.screenshot(path=str(screenshot), full_page=True)

        page.reload()  # the token is kept in this browser ...
        expect(page.get_by_label("Organiser token")).to_have_value(TOKEN)
        api.post("/api/tables", json={"name": "Table 1", "id": "t1"}).raise_for_status()
        page.goto(f"{live_server}/tables/t1")  # ... for every page: the table's referee too
        expect(page.get_by_label("organiser token")).to_have_value(TOKEN)
    result = api.get("/api/tournaments/spring-cup").json()["rounds"][0]["games"][0]["result"]
    assert result["scores"] == {"Dee": 31, "Ana": 27} and result["winners"] == ["Dee"]
    assert result["source"] == "hand"
    for method, url, body, authorization in sent:  # the token only ever in the header
        assert TOKEN not in url and TOKEN not in (body or ""), (method, url)
        if authorization:
            assert (method, url.endswith(f"/games/{game['id']}/result")) == ("PUT", True)
    assert screenshot.stat().st_size > 10_000
    if os.environ.get("PACKREF_SCREENSHOTS"):
        for name in (screenshot.name, "result-refused.png"):
            shutil.copy(tmp_path / name, Path(os.environ["PACKREF_SCREENSHOTS"]) / name)


def test_a_person_reveals_a_draw_from_the_picker(live_server: str, draw_game: str) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": draw_game, "players": ["Ana", "Ben"], "deal": "table"}}).raise_for_status()
    with browser_page(viewport={"width": 1280, "height": 900}) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        picker = page.get_by_label("Pick what was drawn or turned up")
        expect(page.locator("#reveal-why")).to_contain_text("organiser's token")
        expect(picker.locator("option")).to_have_count(0)  # a phone in the room sees no list
        page.locator("#referee > summary").click()  # the token lives with the referee's tools
        page.get_by_label("organiser token").fill(TOKEN)
        expect(picker.locator("option")).to_have_count(3)
        assert picker.locator("option").all_inner_texts() == [  # no words of its own: JSON
            '{"card":"c1"} (2 unseen)', '{"card":"c2"} (2 unseen)', '{"card":"c3"}']
        expect(page.locator("#reveal-why")).to_contain_text("waits")
        picker.select_option(label='{"card":"c3"}')
        page.get_by_role("button", name="reveal", exact=True).click()
        expect(page.locator("#reveal-box")).to_be_hidden()  # nothing to reveal
    state = api.get("/api/tables/t1").json()["game"]["state"]
    assert state["face_up"] == "c3"


def test_an_organiser_pairs_prints_slips_and_sees_a_disagreement(live_server: str,
                                                                 tmp_path: Path) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    for number in (1, 2):
        api.post("/api/tables", json={"name": f"Table {number}", "id": f"t{number}"})
    api.post("/api/tournaments", json={"name": "Cup", "players": ["Ana", "Ben", "Cas", "Dee",
                                                                  "Eve"]}).raise_for_status()
    with browser_page() as page:
        page.add_init_script("window.print = () => { window.printed = true; };")
        page.goto(f"{live_server}/tournaments/cup")
        page.wait_for_selector("#live-status.on")
        page.get_by_label("Organiser token").fill(TOKEN)
        page.locator("#pair-game").fill("small-warehouse")
        page.get_by_role("button", name="Pair and start").click()
        expect(page.locator("#pair-message")).to_contain_text("Round 1 paired: 2 games, bye: ")
        expect(page.locator("#rounds")).to_contain_text("bye (a win)")
        page.locator(".print-slips").first.click()
        assert page.evaluate("window.printed") is True
        page.emulate_media(media="print")
        slips = page.locator("#slips .slip")
        expect(slips).to_have_count(3)  # two games and the bye
        expect(slips.first).to_contain_text("Table ")  # the table by its name, not its id
        expect(slips.first).not_to_contain_text("Table t")
        assert not page.locator("#standings").is_visible()
        page.screenshot(path=str(tmp_path / "slips.png"), full_page=True)
        page.emulate_media(media="screen")

        paired = api.get("/api/tournaments/cup").json()["rounds"][0]["games"]
        game = next(g for g in paired if g["table"] == "t1")
        first, second = game["players"]
        api.put(f"/api/tournaments/cup/games/{game['id']}/result",
                json={"scores": {first: 30, second: 20}})
        codes = {line["player"]: line for line in api.get(
            f"/api/tournaments/cup/games/{game['id']}/codes").json()["codes"]}
        table = page.context.browser.new_page()  # no token in the table's browser
        table.goto(f"{live_server}/tables/t1")
        box = table.locator("#confirm")
        expect(box).to_contain_text("Tournament result")
        box.locator("input[data-index='1']").fill(codes[first]["code"])  # the wrong code
        box.locator("button[data-index='1'][data-agree='']").click()
        expect(box.locator("#confirm-message")).to_contain_text(
            f"Not saved (403): that is not {second}'s code")
        box.locator("input[data-index='1']").fill(codes[second]["code"])
        box.locator("button[data-index='1'][data-agree='']").click()
        expect(box).to_contain_text("The organiser has been told")
        expect(page.locator("#disputes")).to_contain_text(
            f"{second} disagrees with the final scores")
        phone = page.context.browser.new_page(viewport=SIZES["phone"])  # the link to show
        phone.goto(live_server + codes[first]["sign"])
        expect(phone.locator(".sign-scores")).to_contain_text(f"{first}30wins")
        phone.get_by_role("button", name="Agree", exact=True).click()
        expect(phone.locator("#sign-message")).to_contain_text("Saved: you agree")
        expect(phone.locator("#sign-disputed")).to_be_visible()  # an agree settles nothing
        phone.screenshot(path=str(tmp_path / "sign-phone.png"), full_page=True)
        expect(page.locator(f"li[data-game='{game['id']}'] .status-tag")).to_have_text(
            "disputed")
        page.locator(f".show-codes[data-game='{game['id']}']").click()
        codes_box = page.locator("#codes-box")
        expect(codes_box).to_contain_text(codes[second]["code"])
        expect(codes_box.locator(".signing-record")).to_contain_text(f"{second}disagrees")
        page.screenshot(path=str(tmp_path / "tournament-organiser.png"), full_page=True)
        page.get_by_label("note", exact=True).fill("recounted: the scores stand")
        page.locator(f".settle-game[data-game='{game['id']}']").click()
        expect(page.locator("#disputes")).to_be_hidden()
        expect(page.locator(f"li[data-game='{game['id']}'] .status-tag")).to_have_text("done")


def _failing_view(state: State) -> dict:
    raise KeyError("box_fields")  # as when an engine renames what its presenter reads


def test_the_table_page_says_so_when_a_games_own_drawing_failed(
        live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = dataclasses.replace(game_record("moving-day"), presenter=_failing_view)
    monkeypatch.setattr(games_package, "game_record",
                        lambda name: failing if name == "moving-day" else game_record(name))
    table_t1(live_server, "moving-day", ["Ana", "Ben"], 4)
    with browser_page(viewport=SIZES["desktop"]) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        expect(page.locator(".view-problem")).to_contain_text("Moving Day's own drawing failed")
        expect(page.locator("#board figure").first).to_be_visible()  # the generic boards


def test_the_picker_shows_a_games_reveals_in_its_records_words(live_server: str) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "deal": "table"}}
             ).raise_for_status()
    with browser_page(viewport={"width": 1280, "height": 900}) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        page.locator("#referee > summary").click()
        page.get_by_label("organiser token").fill(TOKEN)  # the list is the organiser's
        options = page.get_by_label("Pick what was drawn or turned up").locator("option")
        expect(options.first).to_have_text("Ana's starting card: c01")


@pytest.mark.parametrize("size", list(SIZES))
def test_an_organiser_corrects_a_result_and_the_winner_follows(live_server: str, size: str,
                                                               tmp_path: Path) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tournaments", json={"name": "Cup", "players": ["Ana", "Ben", "Cas", "Dee",
                                                                  "Eve"]}).raise_for_status()
    game = api.post("/api/tournaments/cup/games",
                    json={"round": 1, "players": ["Ana", "Ben", "Cas"]}).json()
    other = api.post("/api/tournaments/cup/games",
                     json={"round": 1, "players": ["Dee", "Eve"]}).json()
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tournaments/cup")
        page.wait_for_selector("#live-status.on")
        rounds = page.locator("#rounds")
        expect(rounds.locator(f"li[data-game='{game['id']}'] .status-tag")).to_have_text("pending")
        # the form is on the first screen, its next game chosen, up to its save button
        expect(page.get_by_label("Game", exact=True)).to_have_value(str(game["id"]))
        form = page.evaluate("['result-form', 'result-save'].map((id) => document"
                             ".getElementById(id).getBoundingClientRect().toJSON())")
        assert form[0]["top"] < SIZES[size]["height"] / 2, form
        assert form[1]["bottom"] <= SIZES[size]["height"], form
        page.get_by_label("Organiser token").fill(TOKEN)
        page.locator(f".enter-result[data-game='{game['id']}']").click()
        expect(page.get_by_label("Game", exact=True)).to_have_value(str(game["id"]))
        preview = page.locator("#result-preview")
        for player, score in (("Ana", "31"), ("Ben", "24"), ("Cas", "31")):
            page.get_by_label(player, exact=True).fill(score)
        expect(preview).to_have_text("On saving: Ana and Cas win (the highest total).")
        page.get_by_role("button", name="Save result").click()
        message = page.locator("#result-message")
        expect(message).to_contain_text("Ana and Cas win.")
        entered = rounds.locator(f"li[data-game='{game['id']}']")
        expect(entered.locator(".winners")).to_have_text("Ana and Cas win")
        expect(entered.locator(".status-tag")).to_have_text("done")
        # after the save, the form moves on to the next game without a result ...
        page.reload()
        expect(page.get_by_label("Game", exact=True)).to_have_value(str(other["id"]))
        # ... and the correction: Ben had 40, not 24
        page.locator(f".enter-result[data-game='{game['id']}']").click()
        expect(page.get_by_label("Ben", exact=True)).to_have_value("24")
        assert page.locator("input[data-winner]:checked").count() == 0  # no stored winner sent back
        page.get_by_label("Ben", exact=True).fill("40")
        expect(preview).to_have_text("On saving: Ben wins (the highest total).")
        page.get_by_role("button", name="Save result").click()
        expect(message).to_contain_text("Ana 31, Ben 40, Cas 31. Ben wins.")
        expect(entered.locator(".winners")).to_have_text("Ben wins")
        expect(page.locator("#standings tbody tr").first).to_contain_text("Ben")
        # an override is the organiser's choice, previewed and said as well
        page.get_by_label("choose the winners myself").check()
        page.get_by_label("Cas is a winner").check()
        expect(preview).to_have_text("On saving: Cas wins (chosen by the organiser).")
        page.get_by_label("choose the winners myself").uncheck()
        expect(preview).to_have_text("On saving: Ben wins (the highest total).")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.screenshot(path=str(tmp_path / f"tournament-correction-{size}.png"), full_page=True)
    result = api.get("/api/tournaments/cup").json()["rounds"][0]["games"][0]["result"]
    assert result["scores"] == {"Ana": 31, "Ben": 40, "Cas": 31}
    assert result["winners"] == ["Ben"]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_page_says_events_and_flags_in_words(live_server: str, size: str) -> None:
    players = ["Ana", "Ben"]
    state, api = table_t1(live_server, "removal", players, 3)
    load = next(a for a in state.legal_actions() if a["type"] == "load")
    names = {item["id"]: item["name"] for item in state.setup["catalogue"]["items"]}
    api.post("/api/tables/t1/observations", json={
        "observation": {"kind": "declared", "action": load}}).raise_for_status()
    # a tile is named by its tag's square (where its sticker lies), counted from 1
    tag = tag_square(state.specs[load["item"]].shape, load["row"], load["col"],  # type: ignore
                     load["rotation"], load["flip"])
    loaded = f"Ana loaded the {names[load['item']]} at row {tag[0] + 1}, column {tag[1] + 1}"
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        full_table_view(page)  # a phone opens on the scoreboard
        expect(page.locator("#game-name")).to_have_text("Removal")
        expect(page.locator("#recent")).to_contain_text(loaded)
        expect(page.locator("#legend")).to_contain_text("no space in the truck")
        expect(page.locator("#scores")).to_contain_text("to play")  # whose turn, in words
        # the same load again, replayed by the demo, is refused: the flag says what and why
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": load},
            "source": "demo"}).raise_for_status()
        flag = page.locator("#flags li.flag").first
        expect(flag).to_contain_text(f"Not accepted: Ben loaded the {names[load['item']]}")
        assert "{" not in page.locator("#recent").inner_text()  # no raw JSON
        marked = page.locator("svg.grid rect.flagged")  # the cell the flag names, on Ben's truck
        expect(marked).to_have_count(1)
        assert f"flagged: row {tag[0] + 1}, column {tag[1] + 1}" in page.locator(
            "svg.grid", has=page.locator("rect.flagged")).get_attribute("aria-label")
        # the referee corrects it from the legal actions, in words (no JSON typed)
        flag.get_by_role("button", name="correct…").click()
        page.get_by_label("organiser token").fill(TOKEN)
        state.apply(load)
        fix = state.legal_actions()[1]
        words = describe_action(state, fix)
        assert words.startswith("Ben loaded the ") and ", column " in words
        picker = page.get_by_label("correction: what really happened")
        expect(picker.locator("option", has_text=words).first).to_be_attached()
        picker.select_option(label=picker.locator("option", has_text=words).first.inner_text())
        page.get_by_role("button", name="apply correction").click()
        expect(page.locator("#recent")).to_contain_text(f"Referee's correction: {words}")
        expect(page.locator("#flags")).to_contain_text("none")
        if size == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= 390


def axe_script() -> str:
    """axe-core's browser script (npm package ``axe-core``, in package.json)."""
    places = [REPO / "node_modules", *(Path(p) for p in os.environ.get("NODE_PATH", "").split(
        os.pathsep) if p)]
    for folder in places:
        script = folder / "axe-core" / "axe.min.js"
        if script.is_file():
            return script.read_text(encoding="utf-8")
    if os.environ.get("PACKREF_REQUIRE_ALL"):
        pytest.fail("axe-core is not installed (npm install)")
    pytest.skip("axe-core is not installed (npm install)")


def axe_violations(page, script: str) -> list[str]:
    """The serious and critical axe-core violations of the page as it is now."""
    page.add_script_tag(content=script)
    found = page.evaluate("() => axe.run(document).then((r) => r.violations"
                          ".filter((v) => ['serious', 'critical'].includes(v.impact))"
                          ".map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) =>"
                          " n.target.join(' ') + ' ' + (n.failureSummary || '')).join(' | ')))")
    return list(found)


SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    'button, select, input:not([type=hidden]), textarea, summary, a'))
  .filter((e) => !(e.tagName === 'A' && e.closest('p')))  /* a link inside a sentence */
  .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
  .map((e) => { const r = (e.closest('label') || e).getBoundingClientRect();
                const own = e.getBoundingClientRect();
                return [e.outerHTML.slice(0, 80), Math.max(r.width, own.width),
                        Math.max(r.height, own.height)]; })
  .filter(([html, w, h]) => w < 44 || h < 44)"""


def small_targets(page) -> list[str]:
    """The page's tap targets (controls and links outside sentences) under 44 × 44 px, with
    a control's label counted (a tap on it is a tap on the control); open its details first."""
    return [f"{html} {w:.0f}×{h:.0f}" for html, w, h in page.evaluate(SMALL_TARGETS)]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_has_no_serious_accessibility_violation(live_server: str, size: str) -> None:
    """axe-core finds nothing serious; no page scrolls sideways; every tap target is 44 px."""
    script = axe_script()
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    for number, game in enumerate(("moving-day", "removal", "small-warehouse",
                                   "pick-n-packers"), 1):
        players = ["Ana", "Ben", "Cas"][:max(2, get_game(game).min_players)]
        api.post("/api/tables", json={"name": f"Table {number}", "id": f"t{number}", "game": {
            "game": game, "players": players, "seed": 4}}).raise_for_status()
        state = get_game(game).new_game(players, seed=4)
        for _ in range(3):
            action = state.legal_actions()[0]
            state.apply(action)
            api.post(f"/api/tables/t{number}/observations", json={
                "observation": {"kind": "declared", "action": action}}).raise_for_status()
    api.post("/api/tournaments", json={"name": "Cup", "players": ["Ana", "Ben", "Cas"]})
    game = api.post("/api/tournaments/cup/games", json={"round": 1, "players": ["Ana", "Ben"]})
    api.put(f"/api/tournaments/cup/games/{game.json()['id']}/result",
            json={"scores": {"Ana": 3, "Ben": 5}}).raise_for_status()
    pages = ["/", "/health", "/tournaments/cup", "/tournaments/cup/projector",
             "/catalogue/moving-day", "/tournaments/cup/games/1/sign?player=Ana&code=ABCD-EFGH",
             "/setup", "/sign-in",
             *(f"/tables/t{n}" for n in range(1, 5)),
             *(f"/tables/t{n}/projector" for n in range(1, 5))]
    problems, said = {}, {}
    with browser_page(viewport=SIZES[size]) as page:
        for path in pages:
            page.goto(f"{live_server}{path}")
            page.wait_for_load_state("networkidle")
            if path in ("/health", "/catalogue/moving-day", "/setup", "/sign-in") \
                    or "/sign?" in path:  # no live dot
                assert page.locator("#live-status").count() == 0
            else:  # every other page is live, and says so
                page.wait_for_selector("#live-status.on")
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            page.wait_for_load_state("networkidle")  # the referee's picker loads when opened
            found = axe_violations(page, script)
            if path.startswith("/tables/") and not path.endswith("/projector"):
                full_table_view(page)  # a phone's scoreboard checked, now its full view
                page.evaluate("document.querySelectorAll('details').forEach((d) => {"
                              " d.open = true; })")
                page.wait_for_load_state("networkidle")
                found += axe_violations(page, script)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > SIZES[size]["width"]:
                found.append(f"scrolls sideways: {width} px wide")
            found += small_targets(page)
            found += [f"a picture without words: {html}" for html in page.evaluate(
                "Array.from(document.querySelectorAll('main svg')).filter((s) =>"
                " s.getAttribute('role') !== 'img' || (s.getAttribute('aria-label') || '')"
                ".length < 20).map((s) => s.outerHTML.slice(0, 80))")]
            if found:
                problems[path] = found
            if path.startswith("/tables/") and not path.endswith("/projector"):
                said[page.locator("#game-name").inner_text()] = page.locator(
                    "#legend").inner_text()
                page.evaluate("sessionStorage.removeItem('packref-table-mode')")  # auto again
    assert problems == {}, "\n".join(f"{path}: {line[:300]}" for path, lines in problems.items()
                                      for line in lines)
    # each game by its name as people write it, with a legend of its own
    assert sorted(said) == ["Moving Day", "Pick 'n Packers", "Removal", "Small Warehouse"]
    assert all(said.values()) and len(set(said.values())) == 4


def visible_board_area(page) -> float:
    """The boards' area (px²) inside the window as it is, scrolled to the top."""
    return page.evaluate(
        "() => { window.scrollTo(0, 0); return Array.from(document.querySelectorAll('svg.grid'))"
        ".reduce((sum, s) => { const r = s.getBoundingClientRect();"
        " const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));"
        " const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));"
        " return sum + w * h; }, 0); }")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_projector_ranks_scores_scales_boards_and_shows_a_review(live_server: str,
                                                                    size: str) -> None:
    players = ["Ana", "Ben", "Cas"]
    state, api = table_t1(live_server, "moving-day", players, 4)
    while len({s.total for s in state.scores()}) < 2:  # someone ahead
        action = state.legal_actions()[0]
        state.apply(action)
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
    ranked = sorted(state.scores(), key=lambda s: -s.total)
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tables/t1/projector")
        page.wait_for_selector("#live-status.on")
        first = page.locator("#scores tbody tr").first
        expect(first).to_contain_text(f"1. {ranked[0].player}")
        expect(first).to_contain_text("leader")
        width, height = SIZES[size]["width"], SIZES[size]["height"]
        if size == "phone":  # a column: the boards as wide as the screen, below the scores
            widths = page.evaluate("Array.from(document.querySelectorAll('svg.grid'), (s) =>"
                                   " s.getBoundingClientRect().width)")
            assert min(widths) >= 60 and page.evaluate(
                "document.documentElement.scrollWidth") <= width
        else:  # beside the scores, every board in view: a third of a 1080p projector (nine
            # boards on a laptop's narrower screen: a quarter)
            share = 1 / 3 if size == "projector" else 1 / 4
            assert visible_board_area(page) >= width * height * share
            assert page.evaluate("document.documentElement.scrollHeight") <= height
        # type to be read across a room: the scores' totals at least 3 % of the height
        total = page.locator("#scores td.total").first
        assert float(total.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")) >= min(
            0.03 * height, 40)
        expect(page.locator("#review-banner")).to_be_hidden()
        api.post("/api/tables", json={"name": "Table 2", "id": "t2", "game": {
            "game": "moving-day", "players": players, "seed": 4}}).raise_for_status()
        other = page.context.browser.new_page(viewport=SIZES[size])
        other.goto(f"{live_server}/tables/t2/projector")  # all level at 0: nobody leads
        expect(other.locator("#scores tbody tr")).to_have_count(3)
        expect(other.locator("#scores")).to_contain_text("1. Ana")
        expect(other.locator("#scores")).not_to_contain_text("leader")
        other.close()
        api.post("/api/tables/t1/observations", json={"observation": {"kind": "declared",
                 "action": {"type": "take", "group": 99, "boxes": []}},
                 "source": "demo"}).raise_for_status()  # a demo's move refused: a flag
        expect(page.locator("#review-banner")).to_be_visible()
        expect(page.locator("#review-banner")).to_contain_text("Under review")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_tournament_projector_shows_round_progress_then_standings(live_server: str,
                                                                     size: str) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tournaments", json={"name": "Cup", "players": ["Ana", "Ben", "Cas", "Dee",
                                                                  "Eve"]}).raise_for_status()
    first = api.post("/api/tournaments/cup/games",
                     json={"round": 1, "players": ["Ana", "Ben", "Cas"]}).json()
    api.post("/api/tournaments/cup/games", json={"round": 1, "players": ["Dee", "Eve"]})
    with browser_page(viewport=SIZES[size]) as page:
        page.clock.install()
        page.goto(f"{live_server}/tournaments/cup/projector")
        page.wait_for_selector("#live-status.on")
        expect(page.locator("#round-progress")).to_have_text("0 of 2 results in")
        pairings = page.locator("#pairing-list li")
        waits = " (waiting for a table)"  # a game with no table says so
        expect(pairings).to_have_text([f"Game 1{waits}: Ana, Ben, Cas · result to come",
                                       f"Game 2{waits}: Dee, Eve · result to come"])
        expect(page.locator("#standings")).to_be_hidden()
        api.put(f"/api/tournaments/cup/games/{first['id']}/result",
                json={"scores": {"Ana": 31, "Ben": 40, "Cas": 31}}).raise_for_status()
        page.clock.run_for(1000)  # the page's refresh waits half a second
        expect(page.locator("#round-progress")).to_have_text("1 of 2 results in")
        expect(pairings).to_have_text(["Game 1: Ana, Ben, Cas · Ben wins",  # by hand
                                       f"Game 2{waits}: Dee, Eve · result to come"])
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        page.clock.run_for(12_500)
        expect(page.locator("#standings")).to_be_visible()
        expect(page.locator("#pairings")).to_be_hidden()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_projector_marks_the_last_move_and_names_it(live_server: str, size: str) -> None:
    players = ["Ana", "Ben", "Cas"]
    state, api = table_t1(live_server, "moving-day", players, 4)

    def play() -> tuple[dict, str]:
        action = state.legal_actions()[0]
        words = describe_action(state, action)
        state.apply(action)
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
        return action, words

    served = play()[1]
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tables/t1/projector")
        assert page.locator("#last-move").inner_text() == f"Last move: {served}"
        page.wait_for_selector("#live-status.on")
        for _ in range(2):  # moves arriving live
            action, words = play()
            player = words.split(" ")[0]
            expect(page.locator("#last-move")).to_have_text(f"Last move: {words}")
            marked = page.locator("svg.grid rect.last-move")
            expect(marked).to_have_count(len(action["boxes"]))
            expect(page.locator("svg.grid path.last-move-notch")).to_have_count(
                len(action["boxes"]))  # a shape, not a colour alone
            box = action["boxes"][0]
            figure = page.locator("figure.has-last-move").first
            expect(figure.locator("figcaption")).to_have_text(
                f"{player}: {box['vehicle']} last move")
            label = figure.locator("svg.grid").get_attribute("aria-label")
            assert f"last move: row {box['row'] + 1}, column {box['col'] + 1}" in label
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_front_page_follows_every_table_live(live_server: str, size: str) -> None:
    players = ["Ana", "Ben", "Cas"]
    state, api = table_t1(live_server, "moving-day", players, 4)
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/")
        page.wait_for_selector("#live-status.on")  # the dot is live, and says so in words
        assert page.evaluate("getComputedStyle(document.querySelector('#live-status .live-text'),"
                             " '::after').content") == '"live"'
        card = page.locator(".card[data-table='t1']")
        expect(card.locator(".card-state")).to_contain_text("Ana to play")
        while {s.total for s in state.scores()} == {0}:  # until a score moves
            action = state.legal_actions()[0]
            state.apply(action)
            api.post("/api/tables/t1/observations", json={
                "observation": {"kind": "declared", "action": action}}).raise_for_status()
        line = " · ".join(f"{s.player} {s.total}" for s in state.scores())
        expect(card.locator(".card-scores")).to_have_text(line)
        expect(card.locator(".card-state")).to_contain_text(
            f"{players[state.current_player()]} to play")
        expect(page.locator("#table-news")).to_have_text(f"Table 1: {line}.")
        assert page.locator("#table-news").get_attribute("aria-live") == "polite"
        api.post("/api/tables/t1/observations", json={"observation": {"kind": "declared",
                 "action": {"type": "take", "group": 99, "boxes": []}},
                 "source": "demo"}).raise_for_status()  # a demo's move refused: a flag
        expect(card.locator(".flag-count")).to_have_text("⚑ 1 flag open: under review")
        api.post("/api/tables", json={"name": "Table 2", "id": "t2"}).raise_for_status()
        expect(page.locator(".card[data-table='t2']")).to_contain_text("no game yet")
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_referee_finds_any_of_hundreds_of_legal_actions_by_its_words(live_server: str,
                                                                          size: str) -> None:
    state, api = table_t1(live_server, "removal", ["Ana", "Ben"], 3)
    legal = state.legal_actions()
    assert len(legal) > 300  # more than the picker lists at once
    late = next(a for a in legal[300:] if a["type"] == "load")
    words = describe_action(state, late)
    with browser_page(viewport=SIZES[size]) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        full_table_view(page)  # a phone opens on the scoreboard
        page.locator("#referee > summary").click()
        page.get_by_label("organiser token").fill(TOKEN)
        picker = page.get_by_label("correction: what really happened")
        expect(picker.locator("option").first).to_have_text(
            f"{len(legal)} legal actions: the first 300 below, type words to narrow — choose one")
        assert picker.locator("option", has_text=words).count() == 0  # not among the first 300
        query = words.replace(" at ", " ")  # words, not an exact phrase
        found = sum(matching(describe_action(state, a), query) for a in legal)
        assert 1 <= found <= 300
        page.get_by_label("find the action").fill(query)
        expect(picker.locator("option").first).to_have_text(
            f"{found} of {len(legal)} legal actions have “{query}” — choose one")
        assert words in picker.locator("option").all_inner_texts()  # turned ones beside it
        picker.select_option(label=words)
        page.get_by_role("button", name="apply correction").click()
        expect(page.locator("#recent")).to_contain_text(f"Referee's correction: {words}")
        if size == "phone":
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert api.get("/api/tables/t1").json()["game"]["state"] is not None
    assert api.get("/api/tables/t1").json()["game"]["actions"] == 1


def test_a_script_error_on_the_page_fails_the_browser_test() -> None:
    """What every browser test relies on: ``browser_page`` does not let a script error pass."""
    with (pytest.raises(pytest.fail.Exception, match=r"a script on the page threw: .*boom"),
          browser_page() as page):
        page.set_content("<script>throw new Error('boom')</script>")
        page.wait_for_timeout(100)


def test_a_person_withdraws_an_entry_and_picks_a_reading_on_the_table_page(
        live_server: str) -> None:
    api = httpx.Client(base_url=live_server, headers=AUTH, timeout=10)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "moving-day", "players": ["Ana", "Ben"], "deal": "table"}}).raise_for_status()

    def person(**entry: object) -> None:
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "person", **entry}}).raise_for_status()

    person(helper_vehicle="truck")  # a slip of the finger
    person(group=0, helper="helper-01")
    boxes = [{"box": "box-01", "row": 2, "col": 0, "rotation": 0},
             {"box": "box-02", "row": 3, "col": 0, "rotation": 0}]
    with browser_page(viewport={"width": 1280, "height": 900}) as page:
        page.goto(f"{live_server}/tables/t1")
        page.wait_for_selector("#live-status.on")
        page.locator("#referee > summary").click()
        page.get_by_label("organiser token").fill(TOKEN)
        entries = page.locator("#entries li")
        expect(entries).to_have_count(2)
        expect(entries.first).to_contain_text("The helper in the truck")
        entries.first.get_by_role("button", name="withdraw").click()
        expect(entries).to_have_count(1)
        api.post("/api/tables/t1/observations", json={"observation": {
            "kind": "vehicles", "players": [{"player": "Ana", "vehicles": [
                {"vehicle": "scooter", "found": True, "boxes": boxes}]}]},
            "source": "camera"}).raise_for_status()
        flag = page.locator("#flags li.flag")
        expect(flag).to_have_count(1)  # where did the helper go? one button per reading
        flag.get_by_role("button", name="helper-01 in the car").click()
        expect(page.locator("#flags li.flag")).to_have_count(0)
        expect(page.locator("#entries li.entry")).to_have_count(0)
    take = api.get("/api/tables/t1").json()["game"]["last_move"]["action"]
    assert take["type"] == "take" and take["helper_vehicle"] == "car"
