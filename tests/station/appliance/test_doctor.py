"""``packref doctor`` and the health page: every check with fakes, and here as it is; only
what the station is set up to use is checked."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory
from markupsafe import escape

from firmware import frames
from station.api import build_services, create_app, health
from station.appliance.config import DoctorLimits
from station.appliance.doctor import CHECKS, SUMMARIES, Doctor, DoctorSetup, kit_mats
from station.appliance.setup import StationDevices
from station.config import load_settings
from station.store import open_database
from tests.station.conftest import TOKEN

HELLO = frames.pack_hello("doctor 1.0", 1, 200, 8192, 655, b"\xd0\xc7\x00\x00\x00\x00\x00\x01")
QUICK = DoctorLimits(hello_timeout_s=2.0, camera_frames=3, disk_free_mb=1.0)


def doctor(tmp_path: Path, **options) -> Doctor:
    seams = {key: options.pop(key) for key in ("find_cameras", "find_ports", "pin_factory")
             if key in options}
    setup = DoctorSetup(data_dir=tmp_path, limits=options.pop("limits", QUICK), **options)
    return Doctor(setup, find_cameras=seams.get("find_cameras", list),
                  find_ports=seams.get("find_ports", list),
                  pin_factory=seams.get("pin_factory", MockFactory))


def by_name(report: dict) -> dict[str, dict]:
    return {check["name"]: check for check in report["checks"]}


def verdict(name: str, status: str, detail: str) -> dict:
    """A check as the report has it."""
    return {"name": name, "ok": status != "needs attention", "status": status,
            "summary": SUMMARIES[name][status], "detail": detail}


@pytest.fixture(scope="module")
def kit_photos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fake camera: a folder of photos of the kit's first warehouse mat."""
    from vision.render import render_photo

    mat = next(m for m in kit_mats() if m.request.game == "small-warehouse")
    folder = tmp_path_factory.mktemp("kit-camera")
    rng = np.random.default_rng(14)
    photo = render_photo(rng, [(mat.spec, 20.0)])
    for index in range(3):
        cv2.imwrite(str(folder / f"{index:03d}.png"), photo.image)
    return folder


def test_a_camera_and_the_kit_it_sees(tmp_path: Path, kit_photos: Path) -> None:
    report = doctor(tmp_path, cameras={"t1": str(kit_photos)}).run()
    checks = by_name(report)
    assert checks["camera"]["ok"], checks["camera"]
    height, width = cv2.imread(str(next(kit_photos.iterdir()))).shape[:2]
    assert checks["camera"]["detail"].startswith(f"{kit_photos}: {width}×{height} at ")
    assert checks["kit"] == verdict("kit", "ok",
                                    "1 mat(s) seen: small-warehouse player 1 warehouse")


def test_a_camera_that_does_not_open_or_sees_no_mat(tmp_path: Path) -> None:
    blank = tmp_path / "blank"
    blank.mkdir()
    cv2.imwrite(str(blank / "0.png"), np.full((240, 320, 3), 200, np.uint8))
    checks = by_name(doctor(tmp_path, cameras={"t1": str(blank), "t2": "/no/such"}).run())
    assert not checks["camera"]["ok"]
    assert "/no/such: " in checks["camera"]["detail"] and "320×240" in checks["camera"]["detail"]
    assert checks["camera"]["status"] == "needs attention"
    assert checks["kit"] == verdict("kit", "needs attention",
                                    "no mat of the kit in the camera's view")


def test_a_camera_another_station_owns_is_not_opened(tmp_path: Path) -> None:
    checks = by_name(doctor(tmp_path, cameras={"t1": "0"},
                            camera_owner=lambda where: "packref serve (pid 7)").run())
    assert checks["camera"] == verdict(
        "camera", "ok", "0: in use by packref serve (pid 7) (not opened again)")


def answer_hello(board_end: str, stop: threading.Event) -> None:
    """A board: once asked anything, it says HELLO (as the firmware does to ``hello?``)."""
    board = os.open(board_end, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        while not stop.is_set():
            try:
                if os.read(board, 64):
                    os.write(board, frames.encode_frame(frames.HELLO, 0, 0, HELLO))
                    return
            except BlockingIOError:
                time.sleep(0.01)
    finally:
        os.close(board)


def test_a_board_that_says_hello_and_one_that_is_silent(tmp_path: Path, pty_pair) -> None:
    board_end, host_end = pty_pair
    stop = threading.Event()
    board = threading.Thread(target=answer_hello, args=(board_end, stop))
    board.start()
    try:
        # --look: a board the machine shows, though no table is bound to it yet
        checks = by_name(doctor(tmp_path, look=True, find_ports=lambda: [host_end]).run())
    finally:
        stop.set()
        board.join()
    assert checks["drone"] == verdict(
        "drone", "ok", f"{host_end}: board d0c7000000000001 (firmware doctor 1.0, 200 Hz)")
    started = time.monotonic()
    silent = by_name(doctor(tmp_path, drones={"t1": host_end}).run())["drone"]
    assert time.monotonic() - started >= 2.0
    assert silent == verdict("drone", "needs attention",
                             f"{host_end}: opened, but no HELLO within 2 s (is the firmware "
                             "running?)")


def test_a_board_on_loop_url_hears_its_own_hello_request_but_no_hello(tmp_path: Path) -> None:
    check = by_name(doctor(tmp_path, drones={"t1": "loop://"},
                           limits=DoctorLimits(hello_timeout_s=0.3)).run())["drone"]
    assert not check["ok"] and "no HELLO within 0.3 s" in check["detail"]


def test_gpio_with_the_mock_factory_and_without_any(tmp_path: Path) -> None:
    checks = by_name(doctor(tmp_path, gpio=True).run())
    assert checks["gpio"]["ok"] and checks["gpio"]["detail"].startswith("MockFactory on a")

    def none() -> None:
        raise RuntimeError("Unable to load any default pin factory!")

    assert by_name(doctor(tmp_path, gpio=True, pin_factory=none).run())["gpio"] == verdict(
        "gpio", "needs attention", "no pin factory: Unable to load any default pin factory!")


def test_what_the_station_does_not_use_is_not_configured_and_no_fault(tmp_path: Path) -> None:
    """A laptop with no camera, board or pins, and a station set up to use none: ready."""

    def none() -> None:
        raise RuntimeError("Unable to load any default pin factory!")

    def never() -> list[str]:
        raise AssertionError("a device nobody set up was looked for")

    report = Doctor(DoctorSetup(data_dir=tmp_path, limits=QUICK), find_cameras=never,
                    find_ports=never, pin_factory=none).run()
    checks = by_name(report)
    for name in ("camera", "drone", "gpio", "kit"):
        assert checks[name]["status"] == "not configured" and checks[name]["ok"], checks[name]
        assert checks[name]["summary"] == SUMMARIES[name]["not configured"]
    assert report["ok"] and report["status"] == "ok" and report["data"] == str(tmp_path)


def test_look_checks_what_the_machine_shows_too(tmp_path: Path, kit_photos: Path) -> None:
    def none() -> None:
        raise RuntimeError("Unable to load any default pin factory!")

    report = doctor(tmp_path, look=True, find_cameras=lambda: [str(kit_photos)],
                    pin_factory=none).run()
    checks = by_name(report)
    assert checks["camera"]["status"] == "ok" and checks["kit"]["status"] == "ok"
    assert checks["drone"]["status"] == "not configured"
    assert "looked for others: none found" in checks["drone"]["detail"]
    assert checks["gpio"]["status"] == "needs attention" and not report["ok"]


def test_the_database_and_the_disk(tmp_path: Path) -> None:
    assert by_name(doctor(tmp_path).run())["database"] == verdict(
        "database", "not configured",
        f"no {tmp_path / 'packref.sqlite3'} yet ('packref serve' makes it)")
    assert not (tmp_path / "packref.sqlite3").exists()  # the doctor only looks
    open_database(f"sqlite:///{tmp_path / 'packref.sqlite3'}").close()
    checks = by_name(doctor(tmp_path).run())
    assert checks["database"]["ok"] and "schema " in checks["database"]["detail"]
    assert checks["database"]["detail"].endswith("0 tables, 0 events")
    assert checks["disk"]["ok"] and f"MB free on {tmp_path}" in checks["disk"]["detail"]
    unreachable = doctor(tmp_path, database_url="postgresql://nobody@127.0.0.1:1/none").run()
    assert not by_name(unreachable)["database"]["ok"]
    assert "cannot open" in by_name(unreachable)["database"]["detail"]
    full = doctor(tmp_path, limits=DoctorLimits(disk_free_mb=1e12)).run()
    assert not by_name(full)["disk"]["ok"]


def test_all_pass_with_fakes_and_the_report_is_ok(tmp_path: Path, kit_photos: Path,
                                                  pty_pair) -> None:
    board_end, host_end = pty_pair
    stop = threading.Event()
    board = threading.Thread(target=answer_hello, args=(board_end, stop))
    board.start()
    try:
        report = doctor(tmp_path, cameras={"t1": str(kit_photos)},
                        drones={"t1": host_end}).run()
    finally:
        stop.set()
        board.join()
    assert [check["name"] for check in report["checks"]] == list(CHECKS)
    assert report["ok"], report


def test_doctor_here_with_nothing_set_up_is_ready_and_exits_0(cli, tmp_path: Path) -> None:
    (tmp_path / "station").mkdir()
    assert cli("table", "add", "T", "--data", tmp_path / "station").status == 0
    result = cli("doctor", "--data", tmp_path / "station")
    report = result.json()
    assert set(report) == {"ok", "status", "data", "checks"}
    assert [check["name"] for check in report["checks"]] == list(CHECKS)
    assert all(set(check) == {"name", "ok", "status", "summary", "detail"}
               for check in report["checks"])
    checks = by_name(report)
    assert [checks[name]["status"] for name in CHECKS] == [
        "not configured", "not configured", "not configured", "ok", "ok", "not configured"]
    assert result.status == 0 and report["status"] == "ok"
    assert result.stderr == f"packref: data folder {tmp_path / 'station'}\n"


def test_doctor_exits_3_when_something_the_station_uses_needs_attention(
        cli, tmp_path: Path) -> None:
    (tmp_path / "station.toml").write_text('[cameras]\nt1 = "/no/such/camera"\n')
    result = cli("doctor", "--data", tmp_path)
    assert result.status == 3 and result.json()["status"] == "needs attention"
    checks = by_name(result.json())
    assert checks["camera"]["status"] == "needs attention"
    assert checks["camera"]["summary"] == "A camera of this station gives no picture."
    assert checks["camera"]["detail"].startswith("/no/such/camera: ")


def test_doctor_makes_nothing_in_a_folder_without_a_station(cli, tmp_path: Path) -> None:
    where = tmp_path / "none"
    result = cli("doctor", "--data", where)
    assert result.status == 0 and not where.exists()
    checks = by_name(result.json())
    assert checks["database"]["status"] == "not configured"
    assert checks["disk"]["status"] == "not configured"


def test_doctor_reads_the_devices_of_the_station_file(cli, tmp_path: Path,
                                                      kit_photos: Path) -> None:
    (tmp_path / "station.toml").write_text(f'[cameras]\nt1 = "{kit_photos}"\n')
    checks = by_name(cli("doctor", "--data", str(tmp_path)).json())
    assert checks["camera"]["ok"] and checks["kit"]["ok"]


def test_the_checks_are_the_organisers_and_the_public_sees_the_status(
        tmp_path: Path, kit_photos: Path, monkeypatch) -> None:
    monkeypatch.setenv("PACKREF_TOKEN", TOKEN)
    (tmp_path / "station.toml").write_text(f'[cameras]\nt1 = "{kit_photos}"\n')
    services = build_services(load_settings(tmp_path))
    try:
        with TestClient(create_app(services)) as client:
            report = client.get("/api/health", headers={"Authorization": f"Bearer {TOKEN}"})
            public = client.get("/api/health")
            wrong = client.get("/api/health", headers={"Authorization": "Bearer guess"})
            page = client.get("/health")
    finally:
        services.database.close()
    full = report.json()
    assert [check["name"] for check in full["checks"]] == list(CHECKS)
    assert by_name(full)["kit"]["ok"]
    assert full["status"] == ("ok" if full["ok"] else "needs attention")
    assert full["data"] == str(tmp_path)
    assert public.status_code == 200
    assert public.json() == {"ok": full["ok"], "status": full["status"]}  # no check, no path
    assert wrong.status_code == 401
    assert page.status_code == 200
    assert f'data-status="{full["status"]}"' in page.text
    for shown in (public.text, page.text):  # the machine's paths and devices stay private
        assert str(tmp_path) not in shown and "small-warehouse player 1" not in shown
    for check in full["checks"]:  # the page: each check's status and plain sentence
        assert (f'data-check="{check["name"]}" data-check-status="{check["status"]}"'
                in page.text)
        assert str(escape(check["summary"])) in page.text
    assert "packref doctor" in page.text and "GET /api/health" in page.text


def test_the_running_stations_devices_are_what_its_health_checks(tmp_path: Path,
                                                                 monkeypatch) -> None:
    """serve's options (not only the station file) say what is checked; a laptop whose
    station uses no device is ready, the raw gpiozero error nowhere on its page."""
    monkeypatch.setenv("PACKREF_TOKEN", TOKEN)
    (tmp_path / "station.toml").write_text('[cameras]\nt1 = "/no/such"\n')
    services = build_services(load_settings(tmp_path))
    app = create_app(services)
    app.state.station_devices = StationDevices()  # serve without --camera/--drone/--gpio
    try:
        with TestClient(app) as client:
            report = client.get("/api/health",
                                headers={"Authorization": f"Bearer {TOKEN}"}).json()
            page = client.get("/health").text
        app.state.station_devices = StationDevices(gpio=True)
        app.state.public_health = None
        with TestClient(app) as client:
            buttons = client.get("/api/health",
                                 headers={"Authorization": f"Bearer {TOKEN}"}).json()
            buttons_page = client.get("/health").text
    finally:
        services.database.close()
    assert report["ok"], report
    assert by_name(report)["camera"]["status"] == "not configured"
    assert 'data-status="ok"' in page and "not configured" in page
    gpio = by_name(buttons)["gpio"]
    if gpio["status"] == "needs attention":  # no pins here: a plain sentence on the page
        assert "Unable to load" not in buttons_page
        assert str(escape(gpio["summary"])) in buttons_page


def test_while_the_station_owns_the_camera_the_kit_is_read_from_its_latest_frame(
        tmp_path: Path, kit_photos: Path) -> None:
    frame = cv2.imread(str(next(iter(sorted(kit_photos.iterdir())))))
    checks = by_name(doctor(tmp_path, cameras={"t1": "0"},
                            camera_owner=lambda where: "this station",
                            recent_frame=lambda: ("t1", 4.2, frame)).run())
    assert checks["camera"]["ok"] and "in use by this station" in checks["camera"]["detail"]
    assert checks["kit"] == verdict("kit", "ok", (
        "1 mat(s) seen: small-warehouse player 1 warehouse (the station's frame of table t1, "
        "4 s ago)"))


def test_the_publics_status_is_made_at_most_every_ten_seconds(monkeypatch) -> None:
    runs: list[float] = []
    monkeypatch.setattr(health, "_report",
                        lambda services, devices=None: runs.append(1) or {"ok": True})
    now = [100.0]
    monkeypatch.setattr(health.time, "monotonic", lambda: now[0])
    cache = health.PublicReport()
    for _ in range(5):  # phones asking again and again: one probe of the devices
        assert cache.get(None) == {"ok": True}
    now[0] += health.PUBLIC_REPORT_SECONDS
    cache.get(None)
    assert len(runs) == 2
