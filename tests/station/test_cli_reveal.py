"""``packref table add --deal table``, ``table outcomes``, ``table reveal`` (formats §9)."""

from __future__ import annotations

from pathlib import Path


def test_a_table_dealt_by_hand_from_the_command_line(cli, draw_game: str,
                                                     tmp_path: Path) -> None:
    data = str(tmp_path)
    added = cli("table", "add", "T", "--game", draw_game, "--players", "Ana,Ben",
                "--deal", "table", "--data", data)
    assert added.status == 0, added.stderr
    outcomes = cli("table", "outcomes", "t", "--data", data).json()
    assert outcomes["waiting"] and outcomes["total"] == 3 and outcomes["unseen"] == 5
    revealed = cli("table", "reveal", "t", '{"type": "reveal", "card": "c2"}', "--data", data)
    assert revealed.status == 0, revealed.stderr
    assert [e["kind"] for e in revealed.json()["events"]] == ["observation", "action"]
    shown = cli("table", "show", "t", "--data", data).json()["game"]
    assert shown["deal"] == "table" and shown["state"]["face_up"] == "c2"
    assert cli("table", "outcomes", "t", "--data", data).json()["total"] == 0


def test_reveal_mistakes_are_one_line_and_status_2(cli, draw_game: str, tmp_path: Path) -> None:
    data = str(tmp_path)
    cli("table", "add", "T", "--game", draw_game, "--players", "Ana,Ben", "--deal", "table",
        "--data", data)
    cases = [
        (["table", "reveal", "t", "{", "--data", data], "ACTION: invalid JSON"),
        (["table", "reveal", "t", '{"type": "take"}', "--data", data], '"type": "reveal"'),
        (["table", "reveal", "t", '{"type": "reveal", "card": "c7"}', "--data", data],
         "ACTION: "),
        (["table", "reveal", "nope", '{"type": "reveal", "card": "c1"}', "--data", data],
         "no table 'nope'"),
        (["table", "add", "U", "--game", draw_game, "--players", "A,B", "--deal", "table",
          "--seed", "3", "--data", data], "has no seed"),
    ]
    for arguments, message in cases:
        result = cli(*arguments)
        assert result.status == 2 and result.stdout == "", result
        assert message in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
    flags = cli("table", "show", "t", "--data", data).json()["flags"]
    assert flags == []  # a refused reveal is answered on the command line, not flagged
