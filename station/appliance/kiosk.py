"""The kiosk: one page in Chromium's kiosk mode, relaunched when it crashes or goes blank.

:class:`Kiosk` starts the browser on the page, then every
``KIOSK.check_every_s`` seconds looks at it: a browser that exited is started
again; a page that is blank (``about:blank``, Chromium's error page, a
renderer that no longer answers on the DevTools port) for ``KIOSK.blank_checks``
checks running is closed and started again. What it looks at comes through
Chromium's DevTools list (``http://127.0.0.1:9222/json/list``, on loopback only).

The browser, the page probe and the clock are seams, so the watchdog is tested
with fakes::

    kiosk = Kiosk("http://127.0.0.1:8000/", ["chromium", "--kiosk"])
    kiosk.run()   # until the process is stopped
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from station.appliance.config import KIOSK, KioskLimits
from station.errors import InputError

BLANK_PREFIXES = ("about:blank", "chrome-error:", "chrome://crash", "data:,")
BROWSERS = ("chromium-browser", "chromium")


def chromium_command(browser: str | None = None, limits: KioskLimits = KIOSK) -> list[str]:
    """Chromium in kiosk mode on Wayland (labwc), its DevTools on loopback for the watchdog."""
    found = browser or next((name for name in BROWSERS if shutil.which(name)), None)
    if found is None:
        raise InputError("kiosk: no Chromium found (apt install chromium-browser)")
    profile = Path.home() / ".cache" / "packref-kiosk"
    return [found, "--kiosk", "--ozone-platform=wayland", "--noerrdialogs",
            "--disable-infobars", "--no-first-run", "--disable-session-crashed-bubble",
            "--disable-features=Translate", "--password-store=basic",
            f"--user-data-dir={profile}", f"--remote-debugging-port={limits.debug_port}",
            "--remote-debugging-address=127.0.0.1"]


def devtools_page(port: int = KIOSK.debug_port) -> str | None:
    """The URL of the browser's first page, or None when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=3) as answer:
            pages = json.load(answer)
    except (urllib.error.URLError, OSError, ValueError):
        return None
    urls = [page.get("url", "") for page in pages if page.get("type") == "page"]
    return urls[0] if urls else None


def answers(url: str) -> bool:
    """Whether the station answers at ``url`` (any HTTP status counts)."""
    try:
        with urllib.request.urlopen(url, timeout=3):
            return True
    except urllib.error.HTTPError:
        return True
    except (urllib.error.URLError, OSError, ValueError):
        return False


def is_blank(page: str | None) -> bool:
    """A page that shows nothing worth showing (or no page at all)."""
    return page is None or not page or page.startswith(BLANK_PREFIXES)


class Kiosk:
    """Keeps ``url`` on screen in ``command`` (a browser), relaunching it when needed."""

    def __init__(self, url: str, command: list[str], *, limits: KioskLimits = KIOSK,
                 launch: Callable[[list[str]], Any] = subprocess.Popen,
                 probe: Callable[[], str | None] | None = None,
                 station_up: Callable[[str], bool] = answers,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.url = url
        self.command = command
        self.limits = limits
        self.launch = launch
        self.probe = probe or (lambda: devtools_page(limits.debug_port))
        self.station_up = station_up
        self.sleep = sleep
        self.browser: Any = None
        self.launches = 0
        self.blank_in_a_row = 0

    def __repr__(self) -> str:
        return f"<Kiosk {self.url} launched {self.launches}x>"

    def wait_for_station(self) -> bool:
        """Wait (up to ``station_wait_s``) until the station answers; whether it did."""
        waited = 0.0
        while not self.station_up(self.url):
            if waited >= self.limits.station_wait_s:
                return False
            self.sleep(2.0)
            waited += 2.0
        return True

    def start(self) -> None:
        self.browser = self.launch([*self.command, self.url])
        self.launches += 1
        self.blank_in_a_row = 0

    def stop(self) -> None:
        if self.browser is None:
            return
        with contextlib.suppress(OSError):
            self.browser.terminate()
        try:
            self.browser.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.browser.kill()
            self.browser.wait()
        self.browser = None

    def check(self) -> str:
        """One look: ``ok``, ``crashed`` or ``blank`` (both relaunch), or ``waiting``."""
        if self.browser is None or self.browser.poll() is not None:
            self.browser = None
            self.start()
            return "crashed"
        if not is_blank(self.probe()):
            self.blank_in_a_row = 0
            return "ok"
        self.blank_in_a_row += 1
        if self.blank_in_a_row < self.limits.blank_checks:
            return "waiting"
        self.stop()
        self.wait_for_station()
        self.start()
        return "blank"

    def run(self, checks: int | None = None) -> None:
        """Show the page until stopped (or for ``checks`` looks, in tests)."""
        self.wait_for_station()
        self.start()
        done = 0
        try:
            while checks is None or done < checks:
                self.sleep(self.limits.check_every_s)
                self.check()
                done += 1
        finally:
            self.stop()
