"""Tournament rounds at real tables (docs/formats.md §10): free tables only, hand-dealt by
default, waiting games started at a named table, results from the table or by hand (which
ends the table's game), the rulebook's tie-break, corrections kept."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from station.store import open_database
from station.store.models import MatchRow
from station.tournament import service
from tests.station.api.conftest import AUTH


def _tables(client: TestClient, *ids: str) -> None:
    for table_id in ids:
        answer = client.post("/api/tables", headers=AUTH, json={"name": table_id, "id": table_id})
        assert answer.status_code == 201, answer.text


def _tournament(client: TestClient, game: str | None, players: list[str]) -> dict[str, Any]:
    body: dict[str, Any] = {"name": "Cup", "players": players}
    if game:
        body["game"] = game
    answer = client.post("/api/tournaments", headers=AUTH, json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def _casual_game(client: TestClient, table: str) -> None:
    """A hand-dealt game of two people who are not in the tournament."""
    answer = client.post(f"/api/tables/{table}/games", headers=AUTH, json={
        "game": "moving-day", "players": ["Xia", "Yul"], "deal": "table"})
    assert answer.status_code == 201, answer.text


def _pair(client: TestClient, **body: Any) -> Any:
    return client.post("/api/tournaments/cup/rounds", headers=AUTH, json=body)


def test_pairing_leaves_a_busy_table_alone_and_a_waiting_game_starts_where_named(
        client: TestClient) -> None:
    _tables(client, "t1", "t2")
    _casual_game(client, "t1")
    created = _tournament(client, "moving-day", ["Ana", "Ben", "Cas", "Dee"])
    assert created["game"] == "moving-day"
    paired = _pair(client, size=2)  # no "game": the tournament's
    assert paired.status_code == 201, paired.text
    games = paired.json()["games"]
    assert sorted(str(g["table"]) for g in games) == ["None", "t2"]  # t1 is busy
    waiting = next(g for g in games if g["table"] is None)
    casual = client.get("/api/tables/t1").json()["game"]
    assert casual["players"] == ["Xia", "Yul"] and not casual["over"]  # left alone

    no_table = client.post(f"/api/tournaments/cup/games/{waiting['id']}/start", headers=AUTH,
                           json={})
    assert no_table.status_code == 400 and "has no table" in no_table.json()["detail"]
    busy = client.post(f"/api/tournaments/cup/games/{waiting['id']}/start", headers=AUTH,
                       json={"table": "t1"})
    assert busy.status_code == 409
    assert busy.json()["detail"].startswith("$.table[0]: table 't1' has a game in play "
                                            "(moving-day: Xia, Yul)")
    _tables(client, "t3")
    started = client.post(f"/api/tournaments/cup/games/{waiting['id']}/start", headers=AUTH,
                          json={"table": "t3"})
    assert started.status_code == 201, started.text
    assert started.json() == {"id": waiting["id"], "table": "t3", "game_seq": 1, "seed": None,
                              "deal": "table", "game": "moving-day"}
    at_table = client.get("/api/tournaments/at-table/t3").json()
    assert at_table["id"] == waiting["id"] and at_table["tournament"] == "cup"
    detail = client.get("/api/tournaments/cup").json()
    assert [g["table"] for g in detail["rounds"][0]["games"]].count("t3") == 1


def test_a_named_busy_table_is_refused_unless_replace(client: TestClient) -> None:
    _tables(client, "t1", "t2")
    _casual_game(client, "t1")
    _tournament(client, "moving-day", ["Ana", "Ben"])
    refused = _pair(client, tables=["t2", "t1"])
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("$.tables[1]: table 't1' has a game in play")
    assert client.get("/api/tournaments/cup").json()["rounds"] == []  # nothing written
    for body, message in [({"tables": ["t9"]}, "$.tables[0]: there is no table 't9'"),
                          ({"tables": ["t2", "t2"]}, "$.tables: table 't2' is named twice")]:
        answer = _pair(client, **body)
        assert answer.status_code == 400 and answer.json()["detail"] == message
    replaced = _pair(client, tables=["t1"], replace=True)
    assert replaced.status_code == 201, replaced.text
    assert replaced.json()["games"][0]["table"] == "t1"
    snapshot = client.get("/api/tables/t1").json()
    assert sorted(snapshot["game"]["players"]) == ["Ana", "Ben"]
    assert snapshot["past_games"][-1]["ended"] == "replaced: round 1 of cup"


def test_round_games_are_dealt_by_hand_unless_seed_is_asked(client: TestClient) -> None:
    _tables(client, "t1")
    _tournament(client, "small-warehouse", ["Ana", "Ben"])
    first = _pair(client).json()["games"][0]
    snapshot = client.get(f"/api/tables/{first['table']}").json()
    assert snapshot["game"]["deal"] == "table"
    events = client.get("/api/tables/t1/events", headers=AUTH).json()
    assert events[-1]["kind"] == "game" and "seed" not in events[-1]
    client.put(f"/api/tournaments/cup/games/{first['id']}/result", headers=AUTH,
               json={"scores": {"Ana": 9, "Ben": 4}}).raise_for_status()
    seeded = _pair(client, deal="seed")
    assert seeded.status_code == 201, seeded.text
    events = client.get("/api/tables/t1/events", headers=AUTH).json()
    game_event = next(e for e in reversed(events) if e["kind"] == "game")
    assert game_event["deal"] == "seed" and "seed" in game_event
    wrong = _pair(client, deal="shuffled", force=True)
    assert wrong.status_code == 422 and wrong.json()["detail"].startswith("$.deal:")


def test_a_game_that_cannot_be_dealt_by_hand_is_refused_before_anything_starts(
        client: TestClient, toy_game: str) -> None:
    _tables(client, "t1")
    _tournament(client, toy_game, ["Ana", "Ben"])
    refused = _pair(client)
    assert refused.status_code == 400
    assert refused.json()["detail"] == ('$.deal: test-race cannot be dealt by hand yet '
                                        '(say "deal": "seed")')
    assert client.get("/api/tables/t1").json()["game"] is None


def test_the_result_flows_from_a_finished_hand_dealt_game(client: TestClient,
                                                          draw_game: str) -> None:
    _tables(client, "t1")
    _tournament(client, draw_game, ["Ana", "Ben"])
    game = _pair(client).json()["games"][0]
    for card in ("c2", "c1", "c2", "c1"):  # seen at the table, then taken
        assert client.post("/api/tables/t1/reveals", headers=AUTH, json={
            "action": {"type": "reveal", "card": card}}).status_code == 201
        assert client.post("/api/tables/t1/observations", headers=AUTH, json={
            "observation": {"kind": "declared", "action": {"type": "take"}},
            "source": "button"}).status_code == 201
    live = client.get("/api/tables/t1").json()["game"]
    assert live["over"]
    first = live["players"][0]
    stored = None
    for _ in range(200):  # recorded by the station's own thread
        with client.app.state.services.database.session() as session:
            stored = session.get(MatchRow, game["id"]).result
        if stored:
            break
        time.sleep(0.01)
    assert stored is not None and stored["source"] == "live" and stored["final"]
    assert stored["scores"][first] == 4 and stored["winners"] == [first]


def test_a_hand_result_ends_the_tables_game_and_a_correction_is_kept(
        client: TestClient) -> None:
    _tables(client, "t1")
    _tournament(client, "moving-day", ["Ana", "Ben"])
    game = _pair(client).json()["games"][0]
    assert client.get("/api/tables/t1").json()["game"] is not None
    first = client.put(f"/api/tournaments/cup/games/{game['id']}/result", headers=AUTH,
                       json={"scores": {"Ana": 20, "Ben": 14}})
    assert first.status_code == 200, first.text
    assert "corrections" not in first.json()["result"]
    snapshot = client.get("/api/tables/t1").json()
    assert snapshot["game"] is None  # the table is free again
    assert snapshot["past_games"][-1]["ended"] == (
        f"result entered by hand for tournament game {game['id']}")
    at_table = client.get("/api/tournaments/at-table/t1").json()  # still confirmed there
    assert at_table["id"] == game["id"] and at_table["result"]["source"] == "hand"
    again = client.put(f"/api/tournaments/cup/games/{game['id']}/result", headers=AUTH,
                       json={"scores": {"Ana": 12, "Ben": 14}})
    result = again.json()["result"]
    assert result["winners"] == ["Ben"]
    assert result["corrections"] == [{
        "at": result["corrections"][0]["at"], "author": "organiser",
        "old": {"scores": {"Ana": 20, "Ben": 14}, "winners": ["Ana"]},
        "new": {"scores": {"Ana": 12, "Ben": 14}, "winners": ["Ben"]}}]
    same = client.put(f"/api/tournaments/cup/games/{game['id']}/result", headers=AUTH,
                      json={"scores": {"Ana": 12, "Ben": 14}}).json()["result"]
    assert len(same["corrections"]) == 1  # the same result again is no correction
    detail = client.get("/api/tournaments/cup").json()
    assert detail["rounds"][0]["games"][0]["result"]["corrections"] == result["corrections"]
    assert _pair(client).status_code == 201  # the table is free for round 2


def test_a_moving_day_tie_is_broken_on_snack_points(client: TestClient) -> None:
    _tournament(client, "moving-day", ["Ana", "Ben", "Cas"])
    detail = client.get("/api/tournaments/cup").json()
    assert detail["tie_break"] == {"key": "snack_points", "words": "snack points",
                                   "better": "higher"}
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben", "Cas"]}).json()["id"]
    path = f"/api/tournaments/cup/games/{game}/result"
    tied = {"Ana": 30, "Ben": 30, "Cas": 12}
    asked = client.put(path, headers=AUTH, json={"scores": tied})
    assert asked.status_code == 400
    assert asked.json()["detail"] == (
        "$.tie_break: Ana and Ben are tied on 30: give the snack points of Ana and Ben "
        "(Moving Day breaks a tie on them: higher wins)")
    broken = client.put(path, headers=AUTH, json={"scores": tied,
                                                  "tie_break": {"Ana": 3, "Ben": 5}})
    assert broken.status_code == 200, broken.text
    result = broken.json()["result"]
    assert result["winners"] == ["Ben"] and result["tie_break"] == {"Ana": 3, "Ben": 5}
    shared = client.put(path, headers=AUTH, json={"scores": tied,
                                                  "tie_break": {"Ana": 4, "Ben": 4}})
    assert shared.json()["result"]["winners"] == ["Ana", "Ben"]
    stranger = client.put(path, headers=AUTH, json={"scores": tied,
                                                    "tie_break": {"Zed": 4, "Ben": 4}})
    assert stranger.status_code == 400
    assert stranger.json()["detail"] == "$.tie_break.Zed: not a player of this game"
    ranked = {line["player"]: line["wins"] for line in client.get(
        "/api/tournaments/cup").json()["standings"]}
    assert ranked == {"Ana": 1, "Ben": 1, "Cas": 0}


def test_each_games_tie_break_follows_its_rulebook(client: TestClient) -> None:
    cases = [("small-warehouse", {"Ana": 2, "Ben": 1}, ["Ben"]),  # fewer empty boxes
             ("removal", {"Ana": 0, "Ben": 2}, ["Ana"])]  # fewer Antique tiles
    for number, (game, figures, winners) in enumerate(cases):
        tournament = f"cup{number}"
        client.post("/api/tournaments", headers=AUTH, json={
            "name": tournament, "players": ["Ana", "Ben"], "game": game}).raise_for_status()
        match = client.post(f"/api/tournaments/{tournament}/games", headers=AUTH,
                            json={"round": 1, "players": ["Ana", "Ben"]}).json()["id"]
        answer = client.put(f"/api/tournaments/{tournament}/games/{match}/result",
                            headers=AUTH, json={"scores": {"Ana": 7, "Ben": 7},
                                                "tie_break": figures})
        assert answer.json()["result"]["winners"] == winners, (game, answer.text)
    client.post("/api/tournaments", headers=AUTH, json={
        "name": "pick", "players": ["Ana", "Ben"], "game": "pick-n-packers"})
    match = client.post("/api/tournaments/pick/games", headers=AUTH,
                        json={"round": 1, "players": ["Ana", "Ben"]}).json()["id"]
    path = f"/api/tournaments/pick/games/{match}/result"
    assert client.put(path, headers=AUTH, json={"scores": {"Ana": 7, "Ben": 7}}).json()[
        "result"]["winners"] == ["Ana", "Ben"]  # "In case of a tie, share the win"
    needless = client.put(path, headers=AUTH, json={"scores": {"Ana": 7, "Ben": 7},
                                                    "tie_break": {"Ana": 1, "Ben": 2}})
    assert needless.status_code == 400
    assert needless.json()["detail"] == (
        "$.tie_break: Pick 'n Packers has no tie-break: a tie shares the win")
    assert client.get("/api/tournaments/pick").json()["tie_break"] is None


def test_a_database_made_before_tournaments_stored_their_game_still_opens(
        tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    database = open_database(url)
    with database.engine.begin() as connection:
        connection.execute(text("DROP TABLE tournament_game"))
        connection.execute(text("DROP TABLE alembic_version"))  # made before migrations too
        connection.execute(text(
            "INSERT INTO tournaments (id, name, tie_breakers, created_at) "
            "VALUES ('old', 'Old', '[\"wins\"]', '2026-01-01 10:00:00')"))
    database.close()
    reopened = open_database(url)
    with reopened.session() as session:
        assert service.tournament_game(session, "old") is None
        service.set_tournament_game(session, "old", "moving-day")
    with reopened.session() as session:
        assert service.tournament_game(session, "old") == "moving-day"
    reopened.close()


def test_the_first_game_paired_becomes_the_tournaments(client: TestClient) -> None:
    _tables(client, "t1")
    _tournament(client, None, ["Ana", "Ben"])
    unnamed = _pair(client)
    assert unnamed.status_code == 400
    assert unnamed.json()["detail"] == "$.game: name the game (the tournament names none)"
    first = _pair(client, game="small-warehouse").json()["games"][0]
    detail = client.get("/api/tournaments/cup").json()
    assert detail["game"] == "small-warehouse" and detail["tie_break"]["key"] == "empty_boxes"
    client.put(f"/api/tournaments/cup/games/{first['id']}/result", headers=AUTH,
               json={"scores": {"Ana": 9, "Ben": 4}}).raise_for_status()
    assert _pair(client).status_code == 201  # round 2: the stored game
    assert _pair(client, game="moving-day", force=True).status_code == 201
    assert client.get("/api/tournaments/cup").json()["game"] == "small-warehouse"
