"""``/api/tournaments``: players, games, results by hand and from live tables, standings, CSV."""

from __future__ import annotations

import json
import re
import time

import httpx
from fastapi.testclient import TestClient

from station.store.models import MatchRow
from tests.station.api.conftest import AUTH, declare
from tests.station.conftest import TOKEN


def player_codes(client: TestClient, tournament: str, game: int) -> dict[str, str]:
    """Each player's code for a game, as the organiser reads them."""
    answer = client.get(f"/api/tournaments/{tournament}/games/{game}/codes", headers=AUTH)
    assert answer.status_code == 200, answer.text
    return {line["player"]: line["code"] for line in answer.json()["codes"]}


def confirm(client: TestClient, tournament: str, game: int, player: str, agree: bool,
            code: str, **extra: object) -> httpx.Response:
    """A player's word on a game's final scores, signed with ``code`` (no token)."""
    return client.post(f"/api/tournaments/{tournament}/games/{game}/confirm",
                       json={"player": player, "agree": agree, "code": code}, **extra)


def test_a_tournament_from_registration_to_csv(client: TestClient, race_table: str) -> None:
    created = client.post("/api/tournaments", headers=AUTH, json={
        "name": "Spring Cup", "players": ["Ana", "Ben", "Cas"],
        "tie_breakers": ["wins", "points"]})
    assert created.status_code == 201, created.text
    assert created.json()["id"] == "spring-cup"
    games = [client.post("/api/tournaments/spring-cup/games", headers=AUTH, json=body).json()
             for body in ({"round": 1, "players": ["Ana", "Ben"], "table": "t1"},
                          {"round": 1, "players": ["Cas", "Ana"]})]
    assert client.put(f"/api/tournaments/spring-cup/games/{games[1]['id']}/result", headers=AUTH,
                      json={"scores": {"Cas": 9, "Ana": 4}}).status_code == 200
    started = client.post(f"/api/tournaments/spring-cup/games/{games[0]['id']}/start",
                          headers=AUTH, json={"game": "test-race", "seed": 0, "deal": "seed",
                                              "replace": True})  # t1 plays a casual game
    assert started.status_code == 201, started.text
    for n in (2, 1, 2, 2, 1):  # Ana reaches 5 first; one more comes after the end
        declare(client, race_table, n)
    declare(client, race_table, 2, expect=422)
    detail = client.get("/api/tournaments/spring-cup").json()
    live = detail["rounds"][0]["games"][0]["result"]
    assert live["source"] == "live" and live["final"] and live["winners"] == ["Ana"]
    assert [(line["rank"], line["player"], line["wins"]) for line in detail["standings"]] == [
        (1, "Ana", 1), (1, "Cas", 1), (3, "Ben", 0)]  # level on wins and points: shared
    csv = client.get("/api/tournaments/spring-cup/standings.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text.splitlines()[1] == "1,Ana,2,1,9,4.5,1,0.667"  # Ben 0/1 floored to 1/3, Cas 1/1
    assert client.put("/api/tournaments/spring-cup/tie-breakers", headers=AUTH,
                      json={"tie_breakers": ["average"]}).json()["standings"][0]["player"] == "Cas"
    page = client.get("/tournaments/spring-cup").text
    assert "Cas" in page and "standings.csv" in page
    assert client.get("/tournaments/spring-cup/projector").status_code == 200


def test_a_game_in_progress_does_not_count_yet(client: TestClient, race_table: str) -> None:
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["Ana", "Ben"]})
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"], "table": "t1"}).json()
    client.post(f"/api/tournaments/cup/games/{game['id']}/start", headers=AUTH,
                json={"game": "test-race", "deal": "seed", "replace": True})
    declare(client, race_table, 2)
    detail = client.get("/api/tournaments/cup").json()
    assert detail["rounds"][0]["games"][0]["result"]["final"] is False
    assert all(line["played"] == 0 for line in detail["standings"])
    projector = client.get("/tournaments/cup/projector").text  # said so on the projector
    assert "0 of 1 results in" in projector
    assert "Table 1: Ana, Ben · playing now" in projector  # the table by its name


def test_refused_tournament_requests_write_nothing(client: TestClient) -> None:
    assert client.post("/api/tournaments", json={"name": "Cup"}).status_code == 401
    bad = client.post("/api/tournaments", headers=AUTH,
                      json={"name": "Cup", "players": ["Ana", "Ana"]})
    assert bad.status_code == 409 and "'Ana' is already a player" in bad.json()["detail"]
    assert client.get("/api/tournaments").json() == []  # not half-created
    assert client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "tie_breakers": ["luck"]}).json()["detail"].startswith(
        "unknown tie-breaker 'luck'")
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["Ana", "Ben"]})
    cases = [
        ("post", "/api/tournaments/cup/games", {"round": 1, "players": ["Ana", "Zed"]}, 400,
         "'Zed' is not a player"),
        ("post", "/api/tournaments/cup/games", {"round": 0, "players": ["Ana"]}, 422,
         "$.round: Input should be greater than or equal to 1"),
        ("post", "/api/tournaments/cup/games", {"round": 1, "players": ["Ana"], "table": "t9"},
         400, "there is no table 't9'"),
        ("put", "/api/tournaments/cup/games/99/result", {"scores": {"Ana": 1}}, 404,
         "has no game 99"),
        ("get", "/api/tournaments/nope", None, 404, "there is no tournament 'nope'"),
    ]
    for method, path, body, status, message in cases:
        answer = getattr(client, method)(path, headers=AUTH, **({"json": body} if body else {}))
        assert answer.status_code == status, (path, answer.text)
        assert message in answer.json()["detail"]
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"]}).json()
    wrong = client.put(f"/api/tournaments/cup/games/{game['id']}/result", headers=AUTH,
                       json={"scores": {"Ana": 3}})
    assert wrong.status_code == 400 and "exactly the players" in wrong.json()["detail"]
    no_table = client.post(f"/api/tournaments/cup/games/{game['id']}/start", headers=AUTH,
                           json={"game": "test-race"})
    assert no_table.status_code == 400 and "has no table" in no_table.json()["detail"]
    assert client.get("/api/tournaments/cup").json()["rounds"][0]["games"][0]["result"] is None


def _tournament_with_tables(client: TestClient, players: list[str], tables: int = 2) -> None:
    for number in range(1, tables + 1):
        assert client.post("/api/tables", headers=AUTH, json={
            "name": f"Table {number}", "id": f"t{number}"}).status_code == 201
    assert client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "players": players}).status_code == 201


def _finish_round(client: TestClient, paired: dict) -> None:
    for game in paired["games"]:
        scores = {player: 10 * index for index, player in enumerate(game["players"])}
        assert client.put(f"/api/tournaments/cup/games/{game['id']}/result", headers=AUTH,
                          json={"scores": scores}).status_code == 200


def test_rounds_are_paired_by_the_station(client: TestClient) -> None:
    _tournament_with_tables(client, ["Ana", "Ben", "Cas", "Dee", "Eve"])
    first = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                        json={"game": "small-warehouse"})
    assert first.status_code == 201, first.text
    paired = first.json()
    assert set(paired) == {"round", "games", "byes"} and paired["round"] == 1
    assert all(set(game) == {"id", "players", "table"} for game in paired["games"])
    assert sorted(game["table"] for game in paired["games"]) == ["t1", "t2"]
    assert len(paired["byes"]) == 1
    seated = [p for game in paired["games"] for p in game["players"]] + paired["byes"]
    assert sorted(seated) == ["Ana", "Ben", "Cas", "Dee", "Eve"]
    table = client.get(f"/api/tables/{paired['games'][0]['table']}").json()
    assert table["game"]["players"] == paired["games"][0]["players"]  # started at its table

    refused = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                          json={"game": "small-warehouse"})
    assert refused.status_code == 400 and "have no result yet" in refused.json()["detail"]
    _finish_round(client, paired)
    bye = paired["byes"][0]
    leaver = next(p for p in ["Ana", "Ben", "Cas", "Dee", "Eve"] if p != bye)
    dropped = client.post(f"/api/tournaments/cup/players/{leaver}/drop", headers=AUTH)
    assert dropped.json() == {"player": leaver, "dropped_after_round": 1}
    assert client.post("/api/tournaments/cup/players", headers=AUTH,
                       json={"name": "Fay"}).status_code == 201  # a late entry
    second = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                         json={"game": "small-warehouse"}).json()
    seated = [p for game in second["games"] for p in game["players"]] + second["byes"]
    assert leaver not in seated and "Fay" in seated and len(seated) == 5
    assert second["byes"] != [bye]
    met = {frozenset(game["players"]) for game in paired["games"]}
    assert not met & {frozenset(game["players"]) for game in second["games"]}
    forced = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                         json={"game": "small-warehouse", "force": True})
    assert forced.status_code == 201 and forced.json()["round"] == 3
    detail = client.get("/api/tournaments/cup").json()
    assert detail["dropped"] == {leaver: 1} and detail["rounds"][0]["byes"] == [bye]
    line = next(line for line in detail["standings"] if line["player"] == bye)
    assert line["wins"] >= 1  # a bye is a win
    assert any(line["player"] == leaver and line["played"] == 1 for line in detail["standings"])


def test_multiplayer_rounds_locks_and_forbidden_pairs(client: TestClient) -> None:
    players = ["Ana", "Ben", "Cas", "Dee", "Eve", "Fay", "Gus"]
    _tournament_with_tables(client, players, tables=3)
    assert client.post("/api/tournaments/cup/locks", headers=AUTH, json={
        "player": "Gus", "table": "t3"}).json() == {"locks": {"Gus": "t3"}}
    assert client.post("/api/tournaments/cup/forbidden", headers=AUTH, json={
        "players": ["Ana", "Ben", "Cas"]}).status_code == 201
    paired = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                         json={"game": "moving-day", "size": 3}).json()
    assert sorted(len(game["players"]) for game in paired["games"]) == [2, 2, 3]
    assert paired["byes"] == []
    for game in paired["games"]:
        assert len({"Ana", "Ben", "Cas"} & set(game["players"])) <= 1
        assert ("Gus" in game["players"]) == (game["table"] == "t3")
    for body, message in [({"game": "moving-day", "size": 9}, "takes 2 to 4 players"),
                          ({"game": "chess"}, "chess")]:
        answer = client.post("/api/tournaments/cup/rounds", headers=AUTH, json=body)
        assert answer.status_code == 400 and message in answer.json()["detail"]
    assert client.post("/api/tournaments/cup/players/Zed/drop", headers=AUTH).status_code == 404
    assert client.post("/api/tournaments/cup/locks", headers=AUTH, json={
        "player": "Ana", "table": "t9"}).status_code == 400


def test_a_finished_table_gives_its_result_and_players_confirm_it(
        client: TestClient, race_table: str) -> None:
    client.post("/api/tournaments", headers=AUTH, json={"name": "Cup", "players": ["Ana", "Ben"]})
    paired = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                         json={"game": "test-race", "deal": "seed", "replace": True}).json()
    game = paired["games"][0]
    assert game["table"] == "t1"
    at_table = client.get("/api/tournaments/at-table/t1").json()
    assert at_table["tournament"] == "cup" and at_table["id"] == game["id"]
    assert at_table["result"] is None
    live = client.get("/api/tables/t1").json()["game"]
    first = live["players"][live["current_player"]]
    for n in (2, 1, 2, 2, 2):  # the first player to act reaches 5 first
        declare(client, race_table, n)
    stored = None
    for _ in range(200):  # recorded by the station's own thread, without anyone asking
        with client.app.state.services.database.session() as session:
            stored = session.get(MatchRow, game["id"]).result
        if stored:
            break
        time.sleep(0.01)
    assert stored["source"] == "live" and stored["final"] and stored["winners"] == [first]
    other = next(player for player in game["players"] if player != first)
    codes = player_codes(client, "cup", game["id"])
    assert confirm(client, "cup", game["id"], first, True, codes[first]).status_code == 200
    assert client.get("/api/tournaments/cup").json()["disputes"] == []
    confirm(client, "cup", game["id"], other, False, codes[other])
    assert client.get("/api/tournaments/cup").json()["disputes"] == [
        {"game": game["id"], "round": 1, "table": "t1", "disagree": [other]}]
    stranger = confirm(client, "cup", game["id"], "Zed", True, codes[first])
    assert stranger.status_code == 400 and "did not play" in stranger.json()["detail"]
    client.post(f"/api/tournaments/cup/games/{game['id']}/settle", headers=AUTH, json={
        "note": "recounted", "result": {"scores": {first: 5, other: 4}}})  # the organiser
    assert client.get("/api/tournaments/cup").json()["disputes"] == []
    assert client.get("/api/tournaments/at-table/nope").status_code == 404


def test_a_tournament_of_a_game_gets_that_games_tie_breakers(client: TestClient) -> None:
    two = client.post("/api/tournaments", headers=AUTH, json={
        "name": "Duel", "game": "small-warehouse"}).json()
    assert two["tie_breakers"] == ["wins", "head_to_head", "opponents_strength", "points"]
    many = client.post("/api/tournaments", headers=AUTH, json={
        "name": "Move", "game": "moving-day"}).json()
    assert many["tie_breakers"][:3] == ["wins", "points", "opponents_strength"]
    chosen = client.post("/api/tournaments", headers=AUTH, json={
        "name": "Own", "game": "moving-day", "tie_breakers": ["points"]}).json()
    assert chosen["tie_breakers"] == ["points"]
    assert client.post("/api/tournaments", headers=AUTH, json={
        "name": "Plain"}).json()["tie_breakers"] == ["wins", "points", "head_to_head"]


def _game_with_a_result(client: TestClient) -> int:
    """Tournament 'cup': Ana and Ben's game (entered by hand, Ana 30 Ben 20), Cas waits."""
    client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "players": ["Ana", "Ben", "Cas"]}).raise_for_status()
    game = client.post("/api/tournaments/cup/games", headers=AUTH,
                       json={"round": 1, "players": ["Ana", "Ben"]}).json()["id"]
    client.put(f"/api/tournaments/cup/games/{game}/result", headers=AUTH,
               json={"scores": {"Ana": 30, "Ben": 20}}).raise_for_status()
    return game


def test_a_player_signs_with_their_own_code_and_nothing_else(client: TestClient) -> None:
    game = _game_with_a_result(client)
    codes = player_codes(client, "cup", game)
    assert sorted(codes) == ["Ana", "Ben"] and codes["Ana"] != codes["Ben"]
    assert all(re.fullmatch(r"[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}", c) for c in codes.values())
    typed = codes["Ana"].replace("-", " ").lower()  # as typed on a phone
    signed = confirm(client, "cup", game, "Ana", True, typed)
    assert signed.status_code == 200, signed.text
    assert signed.json()["result"]["confirmations"] == {"Ana": True}
    refusals = [confirm(client, "cup", game, "Ben", False, codes["Ana"]),  # another's code
                confirm(client, "cup", game, "Ben", False, "ABCD-EFGH"),  # a guess
                confirm(client, "cup", game, "Ben", False, TOKEN, headers=AUTH)]  # the token
    for refused in refusals:
        assert refused.status_code == 403
        assert refused.json() == {"detail": f"that is not Ben's code for game {game}"}
    token_only = client.post(f"/api/tournaments/cup/games/{game}/confirm", headers=AUTH,
                             json={"player": "Ben", "agree": False})
    assert token_only.status_code == 422 and token_only.json()["errors"][0]["place"] == "$.code"
    result = client.get("/api/tournaments/cup").json()["rounds"][0]["games"][0]["result"]
    assert result["confirmations"] == {"Ana": True} and result["disputed"] is False
    assert client.get(f"/api/tournaments/cup/games/{game}/codes").status_code == 401
    other = client.post("/api/tournaments/cup/games", headers=AUTH,
                        json={"round": 1, "players": ["Ana", "Cas"]}).json()["id"]
    assert player_codes(client, "cup", other)["Ana"] != codes["Ana"]  # one code a game


def test_a_dispute_stays_until_the_organiser_settles_it(client: TestClient) -> None:
    game = _game_with_a_result(client)
    codes = player_codes(client, "cup", game)
    confirm(client, "cup", game, "Ben", False, codes["Ben"]).raise_for_status()
    for player in ("Ben", "Ana"):  # a later "agree", the same player's too, changes nothing
        answer = confirm(client, "cup", game, player, True, codes[player])
        assert answer.json()["result"]["disputed"] is True
    client.put(f"/api/tournaments/cup/games/{game}/result", headers=AUTH,
               json={"scores": {"Ana": 30, "Ben": 21}}).raise_for_status()  # not a settlement
    detail = client.get("/api/tournaments/cup").json()
    assert detail["disputes"] == [{"game": game, "round": 1, "table": None, "disagree": ["Ben"]}]
    assert detail["rounds"][0]["games"][0]["result"]["disputed"] is True
    settle = f"/api/tournaments/cup/games/{game}/settle"
    assert client.post(settle, json={"note": "recounted"}).status_code == 401
    settled = client.post(settle, headers={**AUTH, "X-Packref-Author": "Zoe"}, json={
        "note": "recounted the goods: Ben 22", "result": {"scores": {"Ana": 30, "Ben": 22}}})
    assert settled.status_code == 200, settled.text
    result = settled.json()["result"]
    assert result["disputed"] is False and result["scores"] == {"Ana": 30, "Ben": 22}
    assert result["settled"]["by"] == "organiser:Zoe" and result["author"] == "organiser:Zoe"
    assert client.get("/api/tournaments/cup").json()["disputes"] == []
    again = client.post(settle, headers=AUTH, json={"note": "twice"})
    assert again.status_code == 409 and again.json()["detail"] == (
        f"game {game} has no dispute to settle")
    record = client.get(f"/api/tournaments/cup/games/{game}/codes", headers=AUTH).json()
    assert record["disputed"] is False
    assert [(s["kind"], s["who"], s["host"]) for s in record["signing"]] == [
        ("disagree", "Ben", "testclient"), ("agree", "Ben", "testclient"),
        ("agree", "Ana", "testclient"), ("settle", "organiser:Zoe", None)]
    assert record["signing"][0]["scores"] == {"Ana": 30, "Ben": 20}  # what Ben refused
    assert record["signing"][-1]["note"] == "recounted the goods: Ben 22"
    times = [s["at"] for s in record["signing"]]
    assert times == sorted(times) and times[0].startswith("2026-01-01T12:")  # the clock's


def test_no_public_route_carries_a_code(client: TestClient, race_table: str) -> None:
    client.post("/api/tournaments", headers=AUTH, json={
        "name": "Cup", "players": ["Ana", "Ben", "Cas"]}).raise_for_status()
    paired = client.post("/api/tournaments/cup/rounds", headers=AUTH,
                         json={"game": "test-race", "deal": "seed",
                               "replace": True}).json()  # one game at t1, a bye
    game = paired["games"][0]["id"]
    codes = player_codes(client, "cup", game)
    secrets = [*codes.values(), *(code.replace("-", "") for code in codes.values())]
    public = ["/api/tournaments", "/api/tournaments/cup", "/api/tournaments/cup/standings",
              "/api/tournaments/cup/standings.csv", "/api/tournaments/cup/export.json",
              "/api/tournaments/at-table/t1", "/api/tables/t1", "/tournaments/cup",
              "/tournaments/cup/projector", "/tables/t1", f"/tournaments/cup/games/{game}/sign",
              f"/tournaments/cup/games/{game}/sign?player=Ana"]
    for path in public:
        for headers in ({}, AUTH):  # the organiser's reads of them carry none either
            answer = client.get(path, headers=headers)
            assert answer.status_code == 200, (path, answer.text)
            assert not any(code in answer.text for code in secrets), path
    with client.websocket_connect("/ws/tables/t1") as socket:
        snapshot = json.dumps(socket.receive_json())
    assert not any(code in snapshot for code in secrets)
