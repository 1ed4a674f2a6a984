"""``packref token --new``: a new organiser's token, printed to a terminal only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from station.config import TOKEN_FILE, hash_token, load_settings


@pytest.fixture(autouse=True)
def no_given_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)


def test_a_new_token_replaces_the_old_and_only_its_hash_is_kept(cli, tmp_path: Path) -> None:
    check = load_settings(tmp_path).token  # a running station's
    first = cli("token", "--new", "--print", "--data", tmp_path)
    assert first.status == 0, first.stderr
    token = first.json()["token"]
    assert first.json() == {"token": token, "data": str(tmp_path),
                            "file": str(tmp_path / TOKEN_FILE)}
    assert (tmp_path / TOKEN_FILE).read_text().strip() == hash_token(token)
    assert (tmp_path / TOKEN_FILE).stat().st_mode & 0o777 == 0o600
    assert token not in first.stderr and "shown only this once" in first.stderr
    assert check.accepts(token)
    second = cli("token", "--new", "--print", "--data", tmp_path).json()["token"]
    assert second != token and check.accepts(second) and not check.accepts(token)


def test_into_a_pipe_or_a_file_no_token_is_printed_unless_asked(cli, tmp_path: Path) -> None:
    refused = cli("token", "--new", "--data", tmp_path)  # stdout captured: not a terminal
    refused.assert_bad_input("token --new: stdout is not a terminal")
    assert "--print" in refused.stderr and not (tmp_path / TOKEN_FILE).exists()


def test_mistakes_are_one_line(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli("token", "--data", tmp_path).assert_bad_input("token: say --new")
    monkeypatch.setenv("PACKREF_TOKEN", "hub-secret")
    cli("token", "--new", "--print", "--data", tmp_path).assert_bad_input(
        "token --new: $PACKREF_TOKEN is set")
    assert not (tmp_path / TOKEN_FILE).exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file away needs root")
def test_run_with_sudo_the_hash_is_the_stations_user(cli, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    os.chown(data, 4242, 4243)  # the user the service runs as
    assert cli("token", "--new", "--print", "--data", data).status == 0
    stored = (data / TOKEN_FILE).stat()
    assert (stored.st_uid, stored.st_gid, stored.st_mode & 0o777) == (4242, 4243, 0o600)
