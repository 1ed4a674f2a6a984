"""The URL ``packref serve`` prints is one a phone on the same network can open: bound to
every interface, it names this machine's network addresses, never ``127.0.0.1``."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from station.cli import _addresses, serve
from station.cli._addresses import ipv6_addresses, reachable
from tests.conftest import REPO


def listener_on(port: int = 0) -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", port))
    return listener


def test_a_wildcard_host_gives_every_network_address(monkeypatch, capsys) -> None:
    monkeypatch.setattr(serve, "network_addresses", lambda host: ["192.168.1.20", "fd00::2"])
    with listener_on() as listener:
        port = listener.getsockname()[1]
        assert serve._urls(listener, "0.0.0.0") == [f"http://192.168.1.20:{port}/",
                                                    f"http://[fd00::2]:{port}/"]
        assert serve._urls(listener, "127.0.0.1") == [f"http://127.0.0.1:{port}/"]
        assert serve._urls(listener, "192.168.1.20") == [f"http://192.168.1.20:{port}/"]
        monkeypatch.setattr(serve, "network_addresses", lambda host: [])
        assert serve._urls(listener, "::") == [f"http://127.0.0.1:{port}/"]
    assert "no network address found" in capsys.readouterr().err


def test_the_kernels_addresses_are_read(tmp_path: Path) -> None:
    table = tmp_path / "if_inet6"
    table.write_text("fd000000000000000000000000000002 04 40 00 82     eth0\n"
                     "00000000000000000000000000000001 01 80 10 80       lo\n"
                     "fe8000000000000000fc00fffe000001 04 40 20 80     eth0\n")
    assert ipv6_addresses(table) == ["fd00::2", "::1", "fe80::fc:ff:fe00:1"]
    assert reachable(ipv6_addresses(table)) == ["fd00::2"]
    assert ipv6_addresses(tmp_path / "none") == []
    assert "127.0.0.1" in _addresses.ipv4_addresses()  # lo is there on every Linux


def ip_command_addresses() -> list[str]:
    """This machine's IPv4 addresses as ``ip`` shows them (skipped where there is no ``ip``)."""
    try:
        shown = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True,
                               text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no ip command to compare with")
    return [line.split()[3].split("/")[0] for line in shown.splitlines()]


def test_serve_on_every_interface_prints_this_machines_addresses(tmp_path: Path) -> None:
    expected = reachable(ip_command_addresses())
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--host", "0.0.0.0", "--port", "0",
         "--data", str(tmp_path)], cwd=REPO, env=dict(os.environ, PACKREF_TOKEN="urls-test"),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = json.loads(server.stdout.readline())
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    port = line["url"].rsplit(":", 1)[1].rstrip("/")
    assert line["urls"] == ([f"http://{address}:{port}/" for address in expected]
                            or [f"http://127.0.0.1:{port}/"])
    assert line["url"] == line["urls"][0]
    if expected:
        assert "127.0.0.1" not in line["url"]
    assert f"packref: data folder {tmp_path}" in errors.splitlines()


def test_serve_on_one_address_prints_it_and_no_list(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "station", "serve", "--port", "0", "--data", str(tmp_path)],
        cwd=REPO, env=dict(os.environ, PACKREF_TOKEN="urls-test"), stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        line = json.loads(server.stdout.readline())
    finally:
        server.terminate()
        server.communicate(timeout=30)
    assert line["url"].startswith("http://127.0.0.1:") and "urls" not in line
