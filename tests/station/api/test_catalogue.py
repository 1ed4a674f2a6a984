"""The catalogue page's API: a learnt file stored, walked through, answered, weighed."""

from __future__ import annotations

import pytest

from tests.station.api.conftest import AUTH

LEARNT = {"game": "pick-n-packers", "shop_cards": [{"tag": 60 + n} for n in range(9)],
          "presents": [{"id": f"wood-{n}", "material": "wood"} for n in range(9)]}


@pytest.fixture
def copy(client):
    answer = client.put("/api/catalogues/pick-n-packers", headers=AUTH, json=LEARNT)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_learnt_file_is_walked_through_piece_by_piece(copy, client):
    assert copy["open"] == 18 and copy["playable"] is False
    assert copy["pieces"][0]["title"] == "shop card 1 of 9: tag 60"
    assert copy["pieces"][0]["open"] == ["number"]
    assert client.get("/api/catalogues/pick-n-packers").json() == copy
    page = client.get("/catalogue/pick-n-packers")
    assert page.status_code == 200 and "shop card 9 of 9: tag 68" in page.text


def test_answers_are_checked_with_the_one_line_errors(copy, client):
    refused = client.post("/api/catalogues/pick-n-packers/answers", headers=AUTH,
                          json={"list": "shop_cards", "index": 2, "field": "number",
                                "answer": "12"})
    assert refused.status_code == 400
    assert refused.json() == {"detail": "$.shop_cards[2].number: must be 0..8"}
    for n in range(9):
        answer = client.post("/api/catalogues/pick-n-packers/answers", headers=AUTH,
                             json={"list": "shop_cards", "index": n, "field": "number",
                                   "answer": str(n)})
        assert answer.status_code == 200, answer.text
    view = answer.json()
    assert view["open"] == 9 and "mass_g" in view["reason"]


def test_a_present_is_weighed_on_the_drone_or_by_hand(copy, client):
    client.post("/api/tables", headers=AUTH, json={"name": "Drone table", "id": "d1"})
    missing = client.post("/api/catalogues/pick-n-packers/presents/0/weigh", headers=AUTH,
                          json={"table": "d1"})
    assert missing.status_code == 400 and "put the present on the drone" in missing.text
    client.post("/api/tables/d1/observations", headers=AUTH, json={
        "observation": {"kind": "drone-event", "t": 1.0, "event": "load", "mass_g": 12.4},
        "source": "drone"})
    weighed = client.post("/api/catalogues/pick-n-packers/presents/0/weigh", headers=AUTH,
                          json={"table": "d1"})
    assert weighed.status_code == 200, weighed.text
    assert weighed.json()["pieces"][9]["entry"]["mass_g"] == 12.4
    by_hand = client.post("/api/catalogues/pick-n-packers/presents/1/weigh", headers=AUTH,
                          json={"mass_g": 0})
    assert by_hand.json() == {"detail": "$.presents[1].mass_g: must be 0..300 and more than 0"}


def test_writes_need_the_token_and_the_right_game(client):
    assert client.put("/api/catalogues/pick-n-packers", json=LEARNT).status_code == 401
    wrong = client.put("/api/catalogues/removal", headers=AUTH, json=LEARNT)
    assert wrong.status_code == 400
    assert wrong.json()["detail"].startswith("$.game: this is a catalogue of 'pick-n-packers'")
    assert client.get("/api/catalogues/removal").status_code == 404


# -- a copy's catalogue sent with a table's game ------------------------------------------
DECK = {"game": "small-warehouse", "cards": [
    {"id": f"c{n:02d}", "squares": [("AB", "CD", "EA", "BC")[n % 4] + "A", "DDE"]}
    for n in range(1, 21)]}


def test_a_table_takes_a_copys_catalogue_inline_and_stores_it_with_the_game(client):
    answer = client.post("/api/tables", headers=AUTH, json={"name": "T", "id": "c1", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "deal": "table",
        "catalogue": DECK}})
    assert answer.status_code == 201, answer.text
    started = client.get("/api/tables/c1/events").json()[0]
    assert started["kind"] == "game"
    assert started["catalogue"]["cards"][0] == {"id": "c01", "squares": ["CDA", "DDE"]}
    again = client.post("/api/tables/c1/games", headers=AUTH, json={
        "game": "small-warehouse", "players": ["Ana", "Ben"], "seed": 2, "catalogue": DECK})
    assert again.status_code == 201, again.text
    assert client.get("/api/tables/c1/events").json()[-1]["catalogue"] == \
        started["catalogue"]


@pytest.mark.parametrize(("path", "body", "detail"), [
    ("/api/tables", {"name": "T", "id": "c2", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"], "deal": "table",
        "catalogue": {"cards": [{"id": "c01", "squares": ["A?"]}]}}},
     "$.game.catalogue.cards[0].squares"),
    ("/api/tables", {"name": "T", "id": "c2", "game": {
        "game": "small-warehouse", "players": ["Ana", "Ben"],
        "catalogue": {"cards": DECK["cards"][:5]}}},
     "$.game.catalogue: small-warehouse cannot be played with this catalogue by 2 players: "
     "small-warehouse needs at least 7 cards, not 5"),
    ("/api/tables", {"name": "T", "id": "c2", "game": {
        "game": "removal", "players": ["Ana", "Ben"], "catalogue": DECK}},
     "$.game.catalogue.game: this is a catalogue of 'small-warehouse', not of 'removal'"),
])
def test_a_catalogue_the_engine_cannot_play_is_refused_with_the_reason(client, path, body,
                                                                       detail):
    answer = client.post(path, headers=AUTH, json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["detail"].startswith(detail)
    assert "\n" not in answer.json()["detail"]
    assert client.get("/api/tables/c2").status_code == 404  # nothing written


def test_a_new_game_refuses_a_bad_catalogue_at_its_path(client):
    client.post("/api/tables", headers=AUTH, json={"name": "T", "id": "c3"})
    answer = client.post("/api/tables/c3/games", headers=AUTH, json={
        "game": "small-warehouse", "players": ["Ana", "Ben", "Cas", "Dee", "Eve"],
        "catalogue": DECK})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("$.catalogue: small-warehouse cannot be played "
                                              "with this catalogue by 5 players")
    assert client.get("/api/tables/c3/events").json() == []
