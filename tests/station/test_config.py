"""The data directory and the organiser's token."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.config import TOKEN_FILE, default_data_dir, hash_token, load_settings
from station.tokens import replace_token, store_first_token


def test_loading_the_settings_makes_no_token(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    settings = load_settings(tmp_path)
    assert not settings.token.issued and not (tmp_path / TOKEN_FILE).exists()
    assert not settings.token.accepts("guess") and not settings.token.accepts(None)
    assert settings.database_url == f"sqlite:///{tmp_path / 'packref.sqlite3'}"


def test_only_the_hash_is_kept_and_a_changed_file_is_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_TOKEN", raising=False)
    check = load_settings(tmp_path).token
    assert store_first_token(tmp_path, "first")
    stored = (tmp_path / TOKEN_FILE).read_text()
    assert "first" not in stored and stored.strip() == hash_token("first")
    assert (tmp_path / TOKEN_FILE).stat().st_mode & 0o777 == 0o600
    assert check.accepts("first")  # the running station's check sees the new file
    assert not store_first_token(tmp_path, "second")  # a first token never replaces one
    replace_token(tmp_path, "second")
    assert check.accepts("second") and not check.accepts("first")  # the old one stops
    (tmp_path / TOKEN_FILE).unlink()
    assert not check.accepts("second") and not check.issued


def test_a_given_token_wins_and_is_not_written(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PACKREF_TOKEN", "hub-secret")
    settings = load_settings(tmp_path, "postgresql://hub/packref")
    assert settings.token.accepts("hub-secret") and settings.token.issued
    assert not (tmp_path / TOKEN_FILE).exists()
    assert settings.database_url == "postgresql://hub/packref"


def test_the_default_data_directory_is_per_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PACKREF_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/home/ana/.local/share")
    assert default_data_dir() == Path("/home/ana/.local/share/packref")
    monkeypatch.setenv("PACKREF_DATA", "/srv/packref")
    assert default_data_dir() == Path("/srv/packref")
