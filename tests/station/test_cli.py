"""The command line's shared behaviour."""

import subprocess
import sys


def test_usage_errors_are_one_line_with_status_2(cli) -> None:
    result = cli("score", "no-such-game", "x.json")
    assert result.status == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_missing_file_is_status_2(cli, tmp_path) -> None:
    result = cli("score", "small-warehouse", tmp_path / "absent.json")
    assert result.status == 2
    assert "no such file" in result.stderr
    assert result.stdout == ""


def test_help_lists_commands() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "station", "--help"], capture_output=True, text=True, check=True
    )
    assert "score" in completed.stdout and "simulate" in completed.stdout
