"""``packref tournament pair|start|result`` at real tables: --tables, --deal, --replace,
--tie-break (docs/formats.md §10), the same service layer as the API."""

from __future__ import annotations

from pathlib import Path


def test_pairing_and_starting_at_named_tables_on_the_command_line(cli, tmp_path: Path) -> None:
    data = str(tmp_path)
    cli("tournament", "add", "Cup", "--game", "moving-day", "--players", "Ana,Ben,Cas,Dee",
        "--data", data)
    cli("table", "add", "Table 1", "--data", data)
    busy = cli("table", "add", "Table 2", "--game", "moving-day", "--players", "Xia,Yul",
               "--deal", "table", "--data", data)  # a casual game
    assert busy.status == 0, busy.stderr
    refused = cli("tournament", "pair", "cup", "--size", "2", "--tables", "table-1,table-2",
                  "--data", data)
    assert refused.status == 2
    assert refused.stderr.strip() == (
        "tournament: $.tables[1]: table 'table-2' has a game in play (moving-day: "
        "Xia, Yul); say replace to end it and start this round's game there")
    paired = cli("tournament", "pair", "cup", "--size", "2", "--data", data)  # no --game
    assert paired.status == 0, paired.stderr
    games = paired.json()["games"]
    assert sorted(str(g["table"]) for g in games) == ["None", "table-1"]
    waiting = next(g for g in games if g["table"] is None)
    started = cli("tournament", "start", "cup", str(waiting["id"]), "--table", "table-2",
                  "--replace", "--deal", "seed", "--seed", "7", "--data", data)
    assert started.status == 0, started.stderr
    assert started.json() == {"id": waiting["id"], "table": "table-2", "game_seq": 3,
                              "seed": 7, "deal": "seed", "game": "moving-day"}
    one, two = waiting["players"]
    tied = cli("tournament", "result", "cup", str(waiting["id"]), "--score", f"{one}=20",
               "--score", f"{two}=20", "--tie-break", f"{one}=6", "--tie-break", f"{two}=2",
               "--data", data)
    assert tied.status == 0, tied.stderr
    assert tied.json()["result"]["winners"] == [one]
    table = cli("table", "show", "table-2", "--data", data).json()
    assert table["game"] is None  # the hand result ended the table's game
