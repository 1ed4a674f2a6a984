"""The kiosk's watchdog: a crashed browser and a blank page are started again."""

from __future__ import annotations

import sys

from station.appliance.config import KioskLimits
from station.appliance.kiosk import Kiosk, chromium_command, is_blank

LIMITS = KioskLimits(check_every_s=0.0, blank_checks=2, station_wait_s=4.0)


class FakeBrowser:
    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.exit_code: int | None = None
        self.terminated = False

    def poll(self) -> int | None:
        return self.exit_code

    def terminate(self) -> None:
        self.terminated = True
        self.exit_code = -15

    def wait(self, timeout: float | None = None) -> int | None:
        return self.exit_code

    def kill(self) -> None:
        self.exit_code = -9


def kiosk(pages: list[str | None], up: list[bool] | None = None) -> tuple[Kiosk, list]:
    browsers: list[FakeBrowser] = []
    answers = iter(up or [])

    def launch(command: list[str]) -> FakeBrowser:
        browsers.append(FakeBrowser(command))
        return browsers[-1]

    watchdog = Kiosk("http://127.0.0.1:8000/", ["chromium", "--kiosk"], limits=LIMITS,
                     launch=launch, probe=lambda: pages.pop(0),
                     station_up=lambda url: next(answers, True), sleep=lambda s: None)
    return watchdog, browsers


def test_a_crashed_browser_is_started_again_on_the_same_page() -> None:
    watchdog, browsers = kiosk([])
    watchdog.start()
    assert browsers[0].command == ["chromium", "--kiosk", "http://127.0.0.1:8000/"]
    browsers[0].exit_code = 139  # a crash
    assert watchdog.check() == "crashed"
    assert len(browsers) == 2 and browsers[1].command == browsers[0].command


def test_a_page_blank_for_several_checks_is_relaunched_a_good_one_is_kept() -> None:
    watchdog, browsers = kiosk(["http://127.0.0.1:8000/", "about:blank",
                                "http://127.0.0.1:8000/", "chrome-error://chromewebdata/", None])
    watchdog.start()
    assert [watchdog.check() for _ in range(5)] == ["ok", "waiting", "ok", "waiting", "blank"]
    assert browsers[0].terminated and len(browsers) == 2


def test_the_kiosk_waits_for_the_station_then_runs_until_stopped() -> None:
    watchdog, browsers = kiosk(["http://127.0.0.1:8000/"] * 3, up=[False, False, True])
    watchdog.run(checks=3)
    assert watchdog.launches == 1 and browsers[0].terminated


def test_blank_pages() -> None:
    assert is_blank(None) and is_blank("about:blank") and is_blank("chrome-error://x")
    assert not is_blank("http://127.0.0.1:8000/tables/t/projector")


def test_chromium_runs_in_kiosk_mode_on_wayland_with_devtools_on_loopback() -> None:
    command = chromium_command("chromium")
    assert command[0] == "chromium" and "--kiosk" in command
    assert "--ozone-platform=wayland" in command
    assert "--remote-debugging-address=127.0.0.1" in command


def test_a_real_process_that_dies_is_relaunched() -> None:
    command = [sys.executable, "-c", "import sys; sys.exit(3)"]
    watchdog = Kiosk("http://127.0.0.1:1/", command, limits=LIMITS,
                     probe=lambda: "http://127.0.0.1:1/", station_up=lambda url: True,
                     sleep=lambda s: None)
    watchdog.start()
    watchdog.browser.wait(timeout=30)
    assert watchdog.check() == "crashed" and watchdog.launches == 2
    watchdog.stop()
