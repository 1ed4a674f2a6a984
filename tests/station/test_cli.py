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
    assert "token" in completed.stdout  # packref token --new


def test_installed_console_script_scores_the_example() -> None:
    from pathlib import Path

    script = Path(sys.executable).with_name("packref")
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "small-warehouse.json"
    completed = subprocess.run(
        [str(script), "score", "small-warehouse", str(example)],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert '"winners": ["Ben"]' in completed.stdout


def test_simulate_prints_one_line_per_game(cli) -> None:
    result = cli("simulate", "pick-n-packers", "--players", "3", "--seed", "4", "--games", "3")
    assert result.status == 0, result.stderr
    games = result.json_lines()
    assert [game["seed"] for game in games] == [4, 5, 6]
    for game in games:
        assert game["winners"]
        for player in game["players"]:
            assert player["total"] == sum(player["points"].values())


def test_simulate_refuses_bad_player_counts(cli) -> None:
    result = cli("simulate", "small-warehouse", "--players", "5", "--seed", "1")
    assert result.status == 2
    assert result.stderr.startswith("--players:")
    assert cli("simulate", "chess", "--players", "2", "--seed", "1").status == 2
