"""``packref service``: the systemd unit, installing it twice, the kiosk, the station file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from station.appliance.station_file import apply_station_file
from station.appliance.units import (
    Installer,
    UnitPlan,
    kiosk_unit,
    station_unit,
)
from station.cli import build_parser
from station.config import AdviceSettings
from tests.conftest import REPO, require_tool


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` (it runs in a container: no running systemd needed)."""
    return subprocess.run([require_tool("systemd-analyze"), "verify", str(unit)],
                          capture_output=True, text=True, check=False)


def test_the_printed_unit_runs_serve_and_passes_systemd_analyze(cli, tmp_path: Path) -> None:
    printed = cli("service", "--print", "--data", str(tmp_path / "data"), "--user", "root")
    assert printed.status == 0, printed.stderr
    text = printed.stdout
    for line in ("Restart=on-failure", "After=network-online.target",
                 "Wants=network-online.target", "SupplementaryGroups=video dialout gpio",
                 "User=root", f"Environment=PACKREF_DATA={tmp_path / 'data'}",
                 "WantedBy=multi-user.target", "RuntimeDirectory=packref"):
        assert line in text.splitlines()
    exec_start = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    assert exec_start.endswith(f"serve --data {tmp_path / 'data'}")
    assert Path(exec_start.split("=", 1)[1].split()[0]).parent == Path(sys.executable).parent
    unit = tmp_path / "packref.service"
    unit.write_text(text, encoding="utf-8")
    checked = verify(unit)
    assert checked.returncode == 0, checked.stderr
    broken = tmp_path / "broken.service"  # the check can fail: a program that is not there
    broken.write_text(text.replace(exec_start, "ExecStart=/nowhere/packref serve"))
    assert verify(broken).returncode != 0


def test_an_unknown_user_is_one_line_and_status_2(cli) -> None:
    result = cli("service", "--print", "--user", "no-such-user-here")
    assert result.status == 2 and result.stdout == ""
    assert result.stderr.strip() == "--user: there is no user 'no-such-user-here' on this machine"


def install(cli, root: Path, *extra: str):
    return cli("service", "install", "--root", str(root), "--data", "/srv/packref",
               "--user", "root", *extra)


@pytest.mark.skipif(os.geteuid() != 0, reason="installing for user root needs root")
def test_install_writes_and_enables_the_unit_and_twice_changes_nothing(
        cli, tmp_path: Path) -> None:
    require_tool("systemctl")  # offline (--root): no running systemd needed
    first = install(cli, tmp_path)
    assert first.status == 0, first.stderr
    report = first.json()
    unit = tmp_path / "etc/systemd/system/packref.service"
    assert sorted(report["changed"]) == sorted(
        [str(unit), str(tmp_path / "srv/packref/station.toml")])
    assert "serve --data /srv/packref" in unit.read_text()
    assert (tmp_path / "srv/packref").stat().st_mode & 0o777 == 0o700  # the user's only
    assert "token --new --data /srv/packref" in first.stderr  # the journal shows no token
    wanted = tmp_path / "etc/systemd/system/multi-user.target.wants/packref.service"
    assert wanted.is_symlink() and os.readlink(wanted) == "/etc/systemd/system/packref.service"
    stamp = unit.stat().st_mtime_ns
    second = install(cli, tmp_path)
    assert second.status == 0 and second.json()["changed"] == []
    assert unit.stat().st_mtime_ns == stamp and wanted.is_symlink()


@pytest.mark.skipif(os.geteuid() != 0, reason="installing for user root needs root")
def test_install_keeps_a_station_file_and_refuses_a_broken_one(cli, tmp_path: Path) -> None:
    require_tool("systemctl")
    own = tmp_path / "srv/packref/station.toml"
    own.parent.mkdir(parents=True)
    own.write_text('[cameras]\ntable-1 = 0\n')
    assert install(cli, tmp_path).status == 0
    assert own.read_text() == '[cameras]\ntable-1 = 0\n'
    own.write_text('[cameras]\ntable-1 = -1\n')
    result = install(cli, tmp_path)
    assert result.status == 2 and len(result.stderr.splitlines()) == 1
    assert "$.cameras[\"table-1\"]: must be at least 0" in result.stderr


def test_install_refuses_a_user_who_is_not_root(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("station.cli.service.geteuid", lambda: 1000)
    result = install(cli, tmp_path)
    assert result.status == 2 and result.stdout == ""
    assert result.stderr == ("service install: must be run as root "
                             "(sudo packref service install)\n")
    assert list(tmp_path.iterdir()) == []


class RecordingSystemctl:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.calls: list[tuple[str, ...]] = []

    def offline(self) -> bool:
        return False

    def __call__(self, *arguments: str) -> None:
        self.calls.append(arguments)


def test_on_the_machine_itself_a_changed_unit_is_reloaded_then_enabled(tmp_path: Path) -> None:
    systemctl = RecordingSystemctl(tmp_path)
    plan = UnitPlan(Path(sys.executable), Path("/srv/packref"), "root")
    Installer(tmp_path, systemctl).install_station(plan, "# settings\n")
    assert systemctl.calls == [("daemon-reload",), ("enable", "packref.service")]
    systemctl.calls.clear()
    Installer(tmp_path, systemctl).install_station(plan, "# settings\n")
    assert systemctl.calls == [("enable", "packref.service")]  # nothing new: no reload


@pytest.mark.skipif(os.geteuid() != 0, reason="installing for user root needs root")
def test_install_kiosk_adds_the_script_the_user_unit_and_the_labwc_autostart(
        cli, tmp_path: Path) -> None:
    require_tool("systemctl")
    url = "http://127.0.0.1:8000/tables/table-1/projector"
    first = install(cli, tmp_path, "--kiosk", "--kiosk-url", url)
    assert first.status == 0, first.stderr
    script = tmp_path / "usr/local/bin/packref-kiosk"
    assert os.access(script, os.X_OK) and "service kiosk" in script.read_text()
    unit = tmp_path / "etc/systemd/user/packref-kiosk.service"
    assert f"packref-kiosk {url}" in unit.read_text()
    assert (tmp_path / "etc/systemd/user/graphical-session.target.wants"
            / "packref-kiosk.service").is_symlink()
    autostart = tmp_path / "root/.config/labwc/autostart"
    assert "packref-kiosk.service" in autostart.read_text()
    assert install(cli, tmp_path, "--kiosk", "--kiosk-url", url).json()["changed"] == []
    assert autostart.read_text().count("packref-kiosk") == 1


def test_the_kiosk_unit_passes_systemd_analyze(tmp_path: Path) -> None:
    script = tmp_path / "packref-kiosk"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    unit = tmp_path / "packref-kiosk.service"
    unit.write_text(kiosk_unit("http://127.0.0.1:8000/", str(script)))
    checked = verify(unit)
    assert checked.returncode == 0, checked.stderr
    assert "Restart=always" in unit.read_text()


def test_the_unit_text_names_the_station_file() -> None:
    text = station_unit(UnitPlan(Path("/opt/venv/bin/packref"), Path("/srv/p"), "pi"))
    assert "/srv/p/station.toml" in text


# ------------------------------------------------------------------ the station file
def serve_arguments(*extra: str):
    return build_parser().parse_args(["serve", *extra])


def test_serve_takes_cameras_and_boards_from_the_station_file(tmp_path: Path) -> None:
    (tmp_path / "station.toml").write_text(
        'host = "0.0.0.0"\nport = 8123\ngpio_buttons = true\n'
        '[cameras]\ntable-1 = 0\ntable-2 = "/srv/replay"\n[drones]\ntable-3 = "/dev/ttyACM0"\n')
    arguments = serve_arguments("--data", str(tmp_path), "--camera", "table-2=1")
    apply_station_file(arguments, tmp_path, "station.toml")
    assert arguments.camera == ["table-1=0", "table-2=1"]  # the command line wins
    assert arguments.drone == ["table-3=/dev/ttyACM0"]
    assert (arguments.host, arguments.port, arguments.gpio_buttons) == ("0.0.0.0", 8123, True)
    plain = serve_arguments("--port", "9000")
    apply_station_file(plain, tmp_path / "none", "station.toml")
    assert (plain.host, plain.port, plain.camera) == ("127.0.0.1", 9000, [])


def test_win_chances_and_the_advice_budget_come_from_the_file_or_the_line(
        cli, tmp_path: Path) -> None:
    from station.cli.serve import _advice_settings

    (tmp_path / "station.toml").write_text("win_chances = false\nadvice_seconds = 0.8\n")
    arguments = serve_arguments("--data", str(tmp_path))
    apply_station_file(arguments, tmp_path, "station.toml")
    advice = _advice_settings(arguments)
    assert (advice.win_chances, advice.seconds) == (False, 0.8)
    arguments = serve_arguments("--win-chances", "on", "--advice-seconds", "0.3")
    apply_station_file(arguments, tmp_path, "station.toml")
    assert (_advice_settings(arguments).win_chances, _advice_settings(arguments).seconds) == (
        True, 0.3)  # the command line wins
    defaults = serve_arguments()
    apply_station_file(defaults, tmp_path / "none", "station.toml")
    assert _advice_settings(defaults) == AdviceSettings()  # on, 0.5 s
    (tmp_path / "station.toml").write_text("advice_seconds = 60\n")
    result = cli("serve", "--data", str(tmp_path), "--port", "0")
    assert result.status == 2 and "$.advice_seconds:" in result.stderr
    result = cli("serve", "--data", str(tmp_path / "x"), "--port", "0", "--advice-seconds", "0")
    assert result.status == 2 and result.stderr == "--advice-seconds: must be 0.05 to 10, not 0\n"


def test_a_broken_station_file_stops_serve_with_one_line(cli, tmp_path: Path) -> None:
    (tmp_path / "station.toml").write_text('[drones]\ntable-1 = 7\n[cameras]\nx = []\n')
    result = cli("serve", "--data", str(tmp_path), "--port", "0")
    assert result.status == 2 and result.stdout == ""
    assert result.stderr == (f"{tmp_path / 'station.toml'}: $.cameras.x: must be a string, "
                             "not a list\n")
    (tmp_path / "station.toml").write_text('camera = 0\n')
    result = cli("serve", "--data", str(tmp_path), "--port", "0")
    assert result.status == 2 and "$.camera: unknown setting" in result.stderr


def test_serve_drives_the_drone_of_its_station_file(tmp_path: Path) -> None:
    capture = REPO / "fixtures" / "drone" / "sim-0003.bin"
    (tmp_path / "station.toml").write_text(f'port = 0\n[drones]\nt1 = "replay://{capture}"\n')
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--data", str(tmp_path)], cwd=REPO,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PACKREF_TOKEN="service-test"))
    try:
        announced = json.loads(server.stdout.readline())
        assert announced["drones"] == {"t1": f"replay://{capture}"}
        assert announced["url"].startswith("http://127.0.0.1:")
    finally:
        server.terminate()
        server.communicate(timeout=30)
