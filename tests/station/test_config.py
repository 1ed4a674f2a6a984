"""The data directory and the organiser's token."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.config import TOKEN_FILE, default_data_dir, load_settings


def test_the_token_is_made_once_and_only_its_hash_is_kept(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    first = load_settings(tmp_path)
    assert first.new_token and first.token.accepts(first.new_token)
    stored = (tmp_path / TOKEN_FILE).read_text()
    assert first.new_token not in stored
    assert (tmp_path / TOKEN_FILE).stat().st_mode & 0o077 == 0
    again = load_settings(tmp_path)
    assert again.new_token is None and again.token.accepts(first.new_token)
    assert not again.token.accepts("guess") and not again.token.accepts(None)
    assert again.database_url == f"sqlite:///{tmp_path / 'packref.sqlite3'}"


def test_a_given_token_wins_and_is_not_written(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACKREF_TOKEN", "hub-secret")
    settings = load_settings(tmp_path, "postgresql://hub/packref")
    assert settings.token.accepts("hub-secret") and settings.new_token is None
    assert not (tmp_path / TOKEN_FILE).exists()
    assert settings.database_url == "postgresql://hub/packref"


def test_the_default_data_directory_is_per_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/home/ana/.local/share")
    assert default_data_dir() == Path("/home/ana/.local/share/packref")
    monkeypatch.setenv("PACKREF_DATA", "/srv/packref")
    assert default_data_dir() == Path("/srv/packref")
