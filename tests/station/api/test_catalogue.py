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
    assert by_hand.json() == {"detail": "$.presents[1].mass_g: must be 0..500 and more than 0"}


def test_writes_need_the_token_and_the_right_game(client):
    assert client.put("/api/catalogues/pick-n-packers", json=LEARNT).status_code == 401
    wrong = client.put("/api/catalogues/removal", headers=AUTH, json=LEARNT)
    assert wrong.status_code == 400
    assert wrong.json()["detail"].startswith("$.game: this is a catalogue of 'pick-n-packers'")
    assert client.get("/api/catalogues/removal").status_code == 404
