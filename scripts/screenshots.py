"""Screenshots of the dashboard for the docs: the front, table, projector and tournament pages
(the tournament's projector view too), the room's screen and a move entered by tapping
the board (a Small Warehouse table's card tapped, then its place; then the move said in
words before it is sent) at phone (390 × 844), desktop
(1280 × 900) and projector (1920 × 1080) sizes.

A station with a known token runs in this process on a free loopback port; a Moving Day
table is played a few moves in (one move refused, so a flag is open) and a tournament has
one result entered and one game pending; seven more tables play (the room's eight).
Debian's chromium is driven by Playwright.

    python scripts/screenshots.py docs/images
"""

from __future__ import annotations

import argparse
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from rules import get_game
from station.api import build_services, create_app
from station.config import Settings, TokenCheck, hash_token

TOKEN = "screenshot-token"
SIZES = {"phone": (390, 844), "desktop": (1280, 900), "projector": (1920, 1080)}
PAGES = {"front": "/", "table": "/tables/t1", "projector": "/tables/t1/projector",
         "tournament": "/tournaments/spring-cup",
         "tournament-projector-view": "/tournaments/spring-cup/projector", "room": "/room"}
# the room's other tables (Table 1 is the Moving Day game above): game, players, moves made
ROOM = [("small-warehouse", ["Dee", "Eve"], 3), ("removal", ["Fay", "Gus"], 2),
        ("moving-day", ["Hal", "Ivy", "Jo"], 3), ("small-warehouse", ["Kim", "Lou"], 1),
        ("removal", ["Max", "Ned"], 4), ("moving-day", ["Oz", "Pia"], 2),
        ("small-warehouse", ["Quin", "Rae"], 5)]


def serve(data: Path) -> tuple[str, object]:
    """The station served by uvicorn in a thread; returns its URL and the server."""
    import uvicorn

    settings = Settings(data_dir=data, database_url=f"sqlite:///{data / 'station.sqlite3'}",
                        token=TokenCheck(hash_token(TOKEN)))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    server = uvicorn.Server(uvicorn.Config(create_app(build_services(settings)),
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    server.thread = thread  # type: ignore[attr-defined]  # joined at the end (main)
    return f"http://127.0.0.1:{listener.getsockname()[1]}", server


def stage(url: str) -> None:
    """A Moving Day table a few moves in, with a flag open; seven more tables playing (the
    room's eight); a tournament half entered."""
    api = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    players = ["Ana", "Ben", "Cas"]
    state = get_game("moving-day").new_game(players, seed=4)
    api.post("/api/tables", json={"name": "Table 1", "id": "t1", "game": {
        "game": "moving-day", "players": players, "seed": 4}}).raise_for_status()
    for _ in range(5):
        action = state.legal_actions()[0]
        state.apply(action)
        api.post("/api/tables/t1/observations", json={
            "observation": {"kind": "declared", "action": action}}).raise_for_status()
    api.post("/api/tables/t1/observations", json={"observation": {"kind": "declared", "action": {
        "type": "take", "group": 9, "boxes": []}}, "source": "demo"}).raise_for_status()
    for number, (game, people, moves) in enumerate(ROOM, 2):
        api.post("/api/tables", json={"name": f"Table {number}", "id": f"t{number}", "game": {
            "game": game, "players": people, "seed": number}}).raise_for_status()
        other = get_game(game).new_game(people, seed=number)
        for _ in range(moves):
            action = other.legal_actions()[0]
            other.apply(action)
            api.post(f"/api/tables/t{number}/observations", json={
                "observation": {"kind": "declared", "action": action}}).raise_for_status()
    api.post("/api/tournaments", json={"name": "Spring Cup", "players": [
        "Ana", "Ben", "Cas", "Dee", "Eve"]}).raise_for_status()
    game = api.post("/api/tournaments/spring-cup/games",
                    json={"round": 1, "players": ["Ana", "Ben", "Cas"]}).json()
    api.post("/api/tournaments/spring-cup/games", json={"round": 1, "players": ["Dee", "Eve"]})
    api.put(f"/api/tournaments/spring-cup/games/{game['id']}/result",
            json={"scores": {"Ana": 31, "Ben": 40, "Cas": 31}}).raise_for_status()


def shoot(url: str, out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("screenshots: chromium is not installed (scripts/system-deps.sh)")
    made = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium,
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        for size, (width, height) in SIZES.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            for name, path in PAGES.items():
                page.goto(url + path)
                page.wait_for_selector("#live-status.on")
                page.wait_for_timeout(700)
                target = out / f"{name}-{size}.png"
                page.screenshot(path=str(target))
                made.append(target)
            page.close()
            made += shoot_board_entry(browser, url, out, size, (width, height))
        browser.close()
    return made


def shoot_board_entry(browser: object, url: str, out: Path, size: str,
                      viewport: tuple[int, int]) -> list[Path]:
    """Table 2 (Small Warehouse): the board entry with a card tapped (its places on the
    drawn warehouse), then with its place and turn tapped (the move in words)."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})  # type: ignore[attr-defined]
    page.add_init_script(f"sessionStorage.setItem('packref-token', '{TOKEN}')")
    page.goto(url + "/tables/t2")
    page.wait_for_selector("#live-status.on")
    if page.locator("#to-full-view").is_visible():
        page.locator("#to-full-view").click()
    page.locator("#tap-entry > summary").click()
    made = []
    page.locator("#tap-step button.tap-choice").first.click()
    for name in ("board-entry-place", "board-entry-confirm"):
        if name == "board-entry-confirm":
            page.locator("#tap-step button.tap-place").nth(3).click()
            page.locator("#tap-step button.tap-choice").nth(1).click()
            while page.locator("#tap-step button.tap-choice").count():  # what follows
                page.locator("#tap-step button.tap-choice").first.click()
        page.locator("#tap-entry").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        target = out / f"{name}-{size}.png"
        page.locator("#tap-entry").screenshot(path=str(target))
        made.append(target)
    page.close()
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/images"))
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="packref-shots-") as data:
        url, server = serve(Path(data))
        stage(url)
        for path in shoot(url, arguments.out):
            print(f"{path}: {path.stat().st_size // 1024} KB")
        server.should_exit = True  # type: ignore[attr-defined]
        # its shutdown (the lifespan's threads) must end before the interpreter does, which
        # shuts the threads' executor: "cannot schedule new futures after shutdown"
        server.thread.join(timeout=60)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
