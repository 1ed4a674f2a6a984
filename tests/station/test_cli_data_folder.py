"""One data folder, always said: every command that uses it names it on stderr, ``--help``
shows it, and a command that needs a station there and finds none stops, making nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from station.cli import main
from station.config import default_data_dir

# every command that works on a station already there, with what it needs besides
NEEDS_A_STATION = [
    ["table", "list"], ["table", "show", "t1"], ["table", "events", "t1"],
    ["table", "outcomes", "t1"], ["table", "reveal", "t1", '{"type": "reveal"}'],
    ["table", "archive", "t1", "--out", "t1.zip"],
    ["tournament", "list"], ["tournament", "show", "friday-cup"],
    ["tournament", "standings", "friday-cup"], ["tournament", "player", "friday-cup", "Ana"],
    ["tournament", "codes", "friday-cup", "1"],
]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user whose default data folder is ``home/.local/share/packref`` (nothing there yet)."""
    monkeypatch.delenv("PACKREF_DATA", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_the_default_folder_is_the_users_share_folder(home: Path, monkeypatch) -> None:
    assert default_data_dir() == home / ".local" / "share" / "packref"
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg"))
    assert default_data_dir() == home / "xdg" / "packref"
    monkeypatch.setenv("PACKREF_DATA", str(home / "night"))
    assert default_data_dir() == home / "night"


@pytest.mark.parametrize("command", NEEDS_A_STATION, ids=" ".join)
def test_no_station_in_the_default_folder_is_said_and_nothing_is_made(
        cli, home: Path, command: list[str]) -> None:
    result = cli(*command)
    folder = home / ".local" / "share" / "packref"
    assert result.status == 2 and result.stdout == ""
    assert result.stderr == (
        f"packref {' '.join(command[:2])}: no station data in {folder} (no packref.sqlite3): "
        "give the station's folder with --data DIR (or $PACKREF_DATA)\n")
    assert list(home.iterdir()) == []  # no folder, no database, no token's hash


def test_an_empty_folder_given_with_data_is_said_too(cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = cli("tournament", "standings", "friday-cup", "--data", empty)
    assert result.status == 2 and f"no station data in {empty} " in result.stderr
    assert list(empty.iterdir()) == []


def test_every_command_on_a_station_names_its_folder(cli, home: Path) -> None:
    folder = home / ".local" / "share" / "packref"
    said = f"packref: data folder {folder}\n"
    added = cli("table", "add", "Table 1")  # makes the station in the default folder
    assert added.status == 0 and added.stderr == said
    assert (folder / "packref.sqlite3").is_file()
    listed = cli("table", "list")
    assert listed.status == 0 and listed.stderr == said and listed.json_lines()[0]["id"] == (
        "table-1")
    created = cli("tournament", "add", "Friday Cup", "--players", "Ana,Ben")
    assert created.status == 0 and created.stderr == said
    standings = cli("tournament", "standings", "friday-cup")
    assert standings.status == 0 and standings.stderr == said
    doctor = cli("doctor")
    assert doctor.stderr == said and doctor.json()["data"] == str(folder)
    assert not (folder / "organiser-token.sha256").exists()  # reading makes no token


def test_a_new_token_names_the_folder_it_is_kept_in(cli, home: Path) -> None:
    folder = home / ".local" / "share" / "packref"
    issued = cli("token", "--new", "--print")
    assert issued.status == 0 and issued.json()["data"] == str(folder)
    assert issued.stderr.splitlines()[0] == f"packref: data folder {folder}"
    assert (folder / "organiser-token.sha256").is_file()


@pytest.mark.parametrize("command", [["table", "list"], ["tournament", "standings"],
                                     ["serve"], ["doctor"], ["token"]], ids=" ".join)
def test_help_shows_the_folder_used_here(home: Path, capsys, command: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--help"])
    assert stopped.value.code == 0
    text = "".join(capsys.readouterr().out.split())  # argparse wraps (and cuts) long lines
    assert f"(defaulthere:{home}/.local/share/packref;$PACKREF_DATAsetsanother)" in text


def test_a_mistake_on_a_station_is_still_one_line(cli, tmp_path: Path) -> None:
    assert cli("table", "add", "T", "--data", tmp_path).status == 0
    unknown = cli("table", "show", "nope", "--data", tmp_path)
    assert unknown.status == 2 and len(unknown.stderr.splitlines()) == 1
    assert "no table 'nope'" in unknown.stderr
